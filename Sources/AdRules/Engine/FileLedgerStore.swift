import Foundation

/// A ledger in a JSON file.
///
/// A write goes to a temporary file with a name no other writer uses, is synced, and is renamed over the ledger
/// while an advisory lock (`flock` on `<path>.lock`) is held. Two processes sharing the file (an app and its
/// extension) therefore never leave a torn or invalid ledger, and never lose the file: the last snapshot written
/// wins whole. A read takes only a regular file of at most 4 MiB and never blocks (a FIFO or a device at the path
/// is an I/O error, not a hang), and a save never replaces one (it throws the same error). A save creates the ledger's folder when it is missing (Application Support does not
/// exist on a fresh install), with the folders above it. A symbolic link at the path is followed: the file it leads
/// to is the ledger, and its lock and temporary files sit beside that file. A load removes only the temporary files of
/// writers that died (named `<ledger>.tmp-<pid>-<n>-<hex>`), never another file of the folder.
public struct FileLedgerStore: LedgerStore {
    /// The ledger file.
    public let path: String

    /// Creates a store at a path.
    public init(path: String) { self.path = path }

    /// Reads and validates the ledger; first removes temporary files that killed writers left behind.
    /// - Throws: ``LedgerError/io(_:)`` when the file cannot be opened or read, or is not a regular file;
    ///   ``LedgerError/corrupt(_:)`` when it is too large, not JSON of a ledger, or holds values out of range.
    public func load() throws -> LedgerSnapshot? {
        let file = try resolvedPath()
        removeStaleTemporaryFiles(of: file)
        guard let data = try readBounded(file) else { return nil }
        return try LedgerSnapshot(validating: data)
    }

    /// Replaces the ledger atomically under the file lock, first creating its folder if it is missing.
    /// - Throws: ``LedgerError/io(_:)`` when the folder, the lock, the temporary file or the rename fails, or when a
    ///   FIFO, a device or a socket stands at the path (it is left as it is).
    public func save(_ snapshot: LedgerSnapshot) throws {
        let file = try resolvedPath()
        let bytes = snapshot.encodedJSON()
        _ = try withLock(file, blocking: true, creatingFolder: true) { try replace(file, with: bytes) }
    }

    /// The file the ledger is: ``path``, or the file a symbolic link there leads to, link after link, so that a write
    /// replaces that file rather than the link (which would leave the file it led to behind, never written again), and
    /// two paths linked to one ledger share its lock.
    /// - Throws: ``LedgerError/io(_:)`` for a path that names no file (empty, holding a NUL, or ending in `/`, `.` or `..`,
    ///   itself or a link's target) and for a loop of links.
    private func resolvedPath() throws -> String {
        guard !path.isEmpty else { throw LedgerError.io("the ledger's path is empty: give the path of a file, such as ledger.json in the app's Application Support folder") }
        // The system reads a path up to its first NUL: "notes.txt\0.ledger" named notes.txt, which a load then moved
        // aside as a corrupt ledger (and a save took for the lock file).
        guard !path.utf8.contains(0) else {
            throw LedgerError.io("the ledger's path holds a NUL character, where the system would end it: give the path of a file without one")
        }
        if let ending = Self.folderEnding(path) {
            let example = ending == "/" ? "\(path)ledger.json" : "\(path)/ledger.json"
            throw LedgerError.io("the ledger's path \(path) ends in \(ending), which names a folder: give the path of a file, such as \(example)")
        }
        var file = path
        // As many links as the system follows in a path (Linux's limit; Darwin's is 32).
        for _ in 0..<40 {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: file) else { return file }
            // A link to `..` or `sub/` leads to a folder as surely as such a path: the lock file went beside it too.
            if let ending = Self.folderEnding(target) {
                throw LedgerError.io("the ledger's path \(path) is a link to \(target), which ends in \(ending) and names a folder: make the link lead to a file, or give the path of a file")
            }
            let folder = (file as NSString).deletingLastPathComponent
            file = target.hasPrefix("/") || folder.isEmpty ? target : folder + "/" + target
        }
        throw LedgerError.io("the ledger's path \(path) is a loop of symbolic links")
    }

    /// How `path` ends when it names a folder rather than a file: in `/`, or in a last part `.` or `..` (a save made its
    /// lock file `..lock` or `...lock` beside them, and failed); nil for any other path (`...` is a file's name).
    private static func folderEnding(_ path: String) -> String? {
        if path.hasSuffix("/") { return "/" }
        let last = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        return last == "." || last == ".." ? String(last) : nil
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
        guard let path = try? resolvedPath() else { return .stuck("the ledger's path names no file") }
        let stamp = Milliseconds.from(now)
        func moveAside() -> Quarantine {
            // What is at the path is read again under the lock: it is moved aside only if it is still not a ledger.
            if let data = try? readBounded(path), let snapshot = try? LedgerSnapshot(validating: data) { return .replaced(snapshot) }
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
            return try withLock(path, blocking: true, moveAside) ?? .stuck("the lock is held")
        } catch {
            return moveAside()
        }
    }

    /// `path` and `suffix`, its file name cut short to fit the 255 bytes a name may have (at a character's start): a
    /// ledger whose name leaves no room for the suffix is still moved aside, not left in place for good, and still
    /// written. A name cut short ends with `~` and a hash of the whole name (FNV-1a, 8 hex digits), so that two long
    /// ledger names that start alike (`…x.a`, `…x.b`) give their files two names: each ledger's clean-up then knows its
    /// writers' temporary files from the other's.
    package static func asideName(for path: String, suffix: String) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let directory = path[..<slash], name = path[slash...]
        guard name.utf8.count > 255 - suffix.utf8.count else { return path + suffix }
        let mark = "~" + hashText(name.utf8)
        let room = 255 - suffix.utf8.count - mark.utf8.count
        var cut = name.utf8.index(name.utf8.startIndex, offsetBy: max(0, room))
        // Back to the start of a character (a UTF-8 continuation byte is 10xxxxxx).
        while cut > name.utf8.startIndex, name.utf8[cut] & 0xC0 == 0x80 { cut = name.utf8.index(before: cut) }
        return String(directory) + String(name[..<cut]) + mark + suffix
    }

    /// FNV-1a of some bytes, as 8 lowercase hex digits: the same on every run and device (Swift's `Hasher` is seeded
    /// per process).
    private static func hashText(_ bytes: some Sequence<UInt8>) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return UniqueToken.hex(hash)
    }

    // MARK: reading

    private func readBounded(_ file: String) throws -> Data? {
        do {
            return try BoundedFile.read(file, limit: LedgerBounds.maxFileBytes)
        } catch {
            switch error {
            case .missing: return nil
            case .notRegular, .system, .nulInPath: throw LedgerError.io(BoundedFile.reason(error, path: file))
            case .tooLarge(let size?): throw LedgerError.corrupt("too large: \(size) bytes, more than \(LedgerBounds.maxFileBytes)")
            case .tooLarge(nil): throw LedgerError.corrupt("too large: more than \(LedgerBounds.maxFileBytes) bytes")
            }
        }
    }

    /// Temporary files of writers that died before their rename (``isTemporaryName(_:of:)``: no other file, whatever
    /// its name starts with); safe to delete only while holding the lock.
    private func removeStaleTemporaryFiles(of file: String) {
        let url = URL(fileURLWithPath: file)
        let directory = url.deletingLastPathComponent().path
        let ledgerName = url.lastPathComponent
        _ = try? withLock(file, blocking: false) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
            for name in names where Self.isTemporaryName(name, of: ledgerName) {
                unlink(directory + "/" + name)
            }
        }
    }

    /// Whether `name` is that of a temporary file a writer of the ledger named `ledgerName` makes: the ledger's name (or
    /// its start, cut to fit 255 bytes), `.tmp-`, and a ``UniqueToken`` (`.tmp-4242-7-9f3a0c1e`).
    package static func isTemporaryName(_ name: String, of ledgerName: String) -> Bool {
        guard let marker = name.range(of: ".tmp-", options: .backwards), UniqueToken.isToken(name[marker.upperBound...]) else { return false }
        // Exactly the name this ledger's writer makes with that token, byte for byte: another ledger whose name starts
        // the same, or differs only in Unicode normalization, has its own lock, and its writer's file is not this one's.
        return name.utf8.elementsEqual(asideName(for: ledgerName, suffix: String(name[marker.lowerBound...])).utf8)
    }

    // MARK: writing

    private func replace(_ file: String, with bytes: [UInt8]) throws {
        // A FIFO, a device or a socket at the path is left alone, as a read leaves it: the rename put the ledger in its
        // place (a FIFO, or a copy of /dev/null, became a regular file). A folder there fails the rename.
        var info = stat()
        let exists = lstat(file, &info) == 0
        if exists, info.st_mode & S_IFMT != S_IFREG, info.st_mode & S_IFMT != S_IFDIR {
            throw LedgerError.io("\(file) is \(BoundedFile.notRegular(info.st_mode)), and the ledger is not written over it: give the ledger the path of a file")
        }
        let temporary = Self.asideName(for: file, suffix: ".tmp-\(UniqueToken.next())")
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        // Messages name the ledger, not the temporary file, so that a repeated failure reads the same and is reported once.
        guard fd >= 0 else { throw LedgerError.io("cannot create a temporary file next to \(file): \(Self.errorText(errno))") }
        // The new file takes the permissions the app gave the ledger (`0600`), which the rename would otherwise drop.
        if exists, info.st_mode & S_IFMT == S_IFREG { _ = fchmod(fd, info.st_mode & 0o7777) }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: bytes)
            try handle.synchronize()
            try handle.close()
        } catch {
            unlink(temporary)
            throw LedgerError.io("cannot write a temporary file next to \(file): \(error.localizedDescription)")
        }
        guard rename(temporary, file) == 0 else {
            let code = errno
            unlink(temporary)
            throw LedgerError.io("cannot rename a temporary file to \(file): \(Self.errorText(code))")
        }
        // The directory is not synced: that would make the rename itself survive a power loss, at the cost of a
        // second fsync (about 5 ms on a VM disk) on the caller's thread for every show. Without it a power loss
        // can lose the latest snapshot, never the file.
    }

    // MARK: locking

    /// Runs `body` holding the exclusive lock on `<file>.lock` (its name cut to fit 255 bytes).
    /// - Parameter creatingFolder: whether a missing folder of the ledger is created (a write), or the lock fails (a
    ///   read or a clean-up, which have nothing to do without the ledger). Looked at only when the lock file cannot be
    ///   opened, so a save into an existing folder costs no more.
    /// - Returns: nil when `blocking` is false and another writer holds the lock.
    /// - Throws: ``LedgerError/io(_:)`` when the folder cannot be created, the lock file cannot be opened or locked, or
    ///   what `body` throws.
    private func withLock<T>(_ file: String, blocking: Bool, creatingFolder: Bool = false, _ body: () throws -> T) throws -> T? {
        let lockPath = Self.asideName(for: file, suffix: ".lock")
        var fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if fd < 0 && errno == ENOENT && creatingFolder {
            let folder = (file as NSString).deletingLastPathComponent
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
        "\(getpid())-\(counter.next())-" + hex(UInt32.random(in: .min ... .max))
    }

    /// A value as 8 lowercase hex digits, leading zeros kept.
    static func hex(_ value: UInt32) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 8 - text.count) + text
    }

    /// Whether `text` is a token ``next()`` makes: digits, `-`, digits, `-`, eight lowercase hex digits (a name such as
    /// `ledger.json.tmp-2026-12-01` is not one).
    static func isToken(_ text: Substring) -> Bool {
        let parts = text.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        func digits(_ part: Substring.UTF8View.SubSequence, hex: Bool) -> Bool {
            !part.isEmpty && part.allSatisfy { (0x30...0x39).contains($0) || (hex && (0x61...0x66).contains($0)) }
        }
        return parts.count == 3 && digits(parts[0], hex: false) && digits(parts[1], hex: false) && parts[2].count == 8 && digits(parts[2], hex: true)
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int { lock.withLock { value += 1; return value } }
    }
}
