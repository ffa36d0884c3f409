import Foundation

/// A ledger in a JSON file.
///
/// A write goes to a temporary file with a name no other writer uses, is synced, and is renamed over the ledger
/// while an advisory lock (`flock` on `<path>.lock`) is held. Two processes sharing the file (an app and its
/// extension) therefore never leave a torn or invalid ledger, and never lose the file: the last snapshot written
/// wins whole. A read takes only a regular file of at most 4 MiB and never blocks (a FIFO or a device at the path
/// is an I/O error, not a hang). A save creates the ledger's folder when it is missing (Application Support does not
/// exist on a fresh install), with the folders above it.
public struct FileLedgerStore: LedgerStore {
    /// The ledger file.
    public let path: String

    /// Creates a store at a path.
    public init(path: String) { self.path = path }

    /// Reads and validates the ledger; first removes temporary files that killed writers left behind.
    /// - Throws: ``LedgerError/io(_:)`` when the file cannot be opened or read, or is not a regular file;
    ///   ``LedgerError/corrupt(_:)`` when it is too large, not JSON of a ledger, or holds values out of range.
    public func load() throws -> LedgerSnapshot? {
        removeStaleTemporaryFiles()
        guard let data = try readBounded() else { return nil }
        return try LedgerSnapshot(validating: data)
    }

    /// Replaces the ledger atomically under the file lock, first creating its folder if it is missing.
    /// - Throws: ``LedgerError/io(_:)`` when the folder, the lock, the temporary file or the rename fails.
    public func save(_ snapshot: LedgerSnapshot) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(snapshot) } catch { throw LedgerError.io("cannot encode the snapshot: \(error)") }
        _ = try withLock(blocking: true, creatingFolder: true) { try replace(with: data) }
    }

    /// What became of a corrupt ledger.
    enum Quarantine: Equatable {
        /// Moved aside to this path, and kept.
        case moved(String)
        /// No longer there (another process moved or removed it).
        case gone
        /// Still there, as it was: it could not be moved aside, for this reason.
        case stuck(String)
        /// The file at the path now holds a valid ledger: another process moved the corrupt one aside and wrote its own
        /// between this process's read and the lock (that ledger is read, not moved aside as the corrupt one).
        case replaced(LedgerSnapshot)
    }

    /// Moves a corrupt ledger aside so that it is kept.
    ///
    /// The name carries the time in ms and a unique token, and an existing file is never overwritten.
    func quarantine(now: Date) -> Quarantine {
        let stamp = Milliseconds.from(now)
        func moveAside() -> Quarantine {
            // What is at the path is read again under the lock: it is moved aside only if it is still not a ledger.
            if let data = try? readBounded(), let snapshot = try? LedgerSnapshot(validating: data) { return .replaced(snapshot) }
            var failure = "no free name"
            for _ in 0..<16 {
                let target = Self.asideName(for: path, suffix: ".corrupt-\(stamp)-\(UniqueToken.next())")
                // link fails with EEXIST instead of replacing a file; rename is the fallback where hard links are not supported.
                if link(path, target) == 0 {
                    unlink(path)
                    return .moved(target)
                }
                let code = errno
                if code == EEXIST { continue }
                if code == ENOENT, access(path, F_OK) != 0 { return .gone }
                if FileManager.default.fileExists(atPath: target) { continue }
                if rename(path, target) == 0 { return .moved(target) }
                // The rename's error, else the link's: the file is still there either way.
                let renameCode = errno
                failure = Self.errorText(renameCode == ENOENT || renameCode == EXDEV ? code : renameCode)
                break
            }
            return access(path, F_OK) == 0 ? .stuck(failure) : .gone
        }
        do {
            return try withLock(blocking: true, moveAside) ?? .stuck("the lock is held")
        } catch {
            return moveAside()
        }
    }

    /// `path` and `suffix`, its file name cut short to fit the 255 bytes a name may have (at a character's start): a
    /// ledger whose name leaves no room for the suffix is still moved aside, not left in place for good.
    package static func asideName(for path: String, suffix: String) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let directory = path[..<slash], name = path[slash...]
        let room = 255 - suffix.utf8.count
        guard name.utf8.count > room else { return path + suffix }
        var cut = name.utf8.index(name.utf8.startIndex, offsetBy: max(0, room))
        // Back to the start of a character (a UTF-8 continuation byte is 10xxxxxx).
        while cut > name.utf8.startIndex, name.utf8[cut] & 0xC0 == 0x80 { cut = name.utf8.index(before: cut) }
        return String(directory) + String(name[..<cut]) + suffix
    }

    // MARK: reading

    private func readBounded() throws -> Data? {
        do {
            return try BoundedFile.read(path, limit: LedgerBounds.maxFileBytes)
        } catch {
            switch error {
            case .missing: return nil
            case .notRegular, .system: throw LedgerError.io(BoundedFile.reason(error, path: path))
            case .tooLarge(let size?): throw LedgerError.corrupt("too large: \(size) bytes, more than \(LedgerBounds.maxFileBytes)")
            case .tooLarge(nil): throw LedgerError.corrupt("too large: more than \(LedgerBounds.maxFileBytes) bytes")
            }
        }
    }

    /// Temporary files of writers that died before their rename; safe to delete only while holding the lock.
    private func removeStaleTemporaryFiles() {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let prefix = url.lastPathComponent + ".tmp"
        _ = try? withLock(blocking: false) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
            for name in names where name == prefix || name.hasPrefix(prefix + "-") {
                unlink(directory + "/" + name)
            }
        }
    }

    // MARK: writing

    private func replace(with data: Data) throws {
        let temporary = "\(path).tmp-\(UniqueToken.next())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        // Messages name the ledger, not the temporary file, so that a repeated failure reads the same and is reported once.
        guard fd >= 0 else { throw LedgerError.io("cannot create a temporary file next to \(path): \(Self.errorText(errno))") }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
        } catch {
            unlink(temporary)
            throw LedgerError.io("cannot write a temporary file next to \(path): \(error.localizedDescription)")
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw LedgerError.io("cannot rename a temporary file to \(path): \(Self.errorText(code))")
        }
        // The directory is not synced: that would make the rename itself survive a power loss, at the cost of a
        // second fsync (about 5 ms on a VM disk) on the caller's thread for every show. Without it a power loss
        // can lose the latest snapshot, never the file.
    }

    // MARK: locking

    /// Runs `body` holding the exclusive lock on `<path>.lock`.
    /// - Parameter creatingFolder: whether a missing folder of the ledger is created (a write), or the lock fails (a
    ///   read or a clean-up, which have nothing to do without the ledger). Looked at only when the lock file cannot be
    ///   opened, so a save into an existing folder costs no more.
    /// - Returns: nil when `blocking` is false and another writer holds the lock.
    /// - Throws: ``LedgerError/io(_:)`` when the folder cannot be created, the lock file cannot be opened or locked, or
    ///   what `body` throws.
    private func withLock<T>(blocking: Bool, creatingFolder: Bool = false, _ body: () throws -> T) throws -> T? {
        let lockPath = path + ".lock"
        var fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if fd < 0 && errno == ENOENT && creatingFolder {
            let folder = (path as NSString).deletingLastPathComponent
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw LedgerError.io("cannot create the ledger's folder \(folder): \(error.localizedDescription)")
            }
            fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else { throw LedgerError.io("cannot open the lock file \(lockPath): \(Self.errorText(errno))") }
        defer { close(fd) }
        while flock(fd, LOCK_EX | (blocking ? 0 : LOCK_NB)) != 0 {
            let code = errno
            if code == EINTR { continue }
            if code == EWOULDBLOCK { return nil }
            throw LedgerError.io("cannot lock \(lockPath): \(Self.errorText(code))")
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    private static func errorText(_ code: Int32) -> String { BoundedFile.errorText(code) }
}

/// A token no other writer of this or another process uses at the same time: process id, a counter, random bits.
enum UniqueToken {
    private static let counter = Counter()

    static func next() -> String {
        "\(getpid())-\(counter.next())-\(String(UInt32.random(in: .min ... .max), radix: 16))"
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int { lock.withLock { value += 1; return value } }
    }
}
