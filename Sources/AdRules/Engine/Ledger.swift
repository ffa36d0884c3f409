import Foundation

/// What survives a relaunch: install time, session count, and the shows pacing and caps can still see.
public struct LedgerSnapshot: Sendable, Hashable, Codable {
    /// The format version of the snapshot.
    public var version: Int = 1
    /// Install time, ms since 1970.
    public var installedAt: Int64
    /// Sessions started so far.
    public var sessionCount: Int
    /// Shows by placement id, oldest first.
    public var shows: [String: [ShowRecord]]

    /// Creates a snapshot.
    public init(installedAt: Int64, sessionCount: Int, shows: [String: [ShowRecord]]) {
        self.installedAt = installedAt
        self.sessionCount = sessionCount
        self.shows = shows
    }
}

/// Something wrong with the persisted ledger; the engine carries on with a fresh one.
public enum LedgerProblem: Sendable, Equatable, CustomStringConvertible {
    /// The ledger file could not be decoded; it was moved to `movedTo`.
    case corrupt(path: String, movedTo: String?, reason: String)
    /// The ledger could not be read.
    case unreadable(reason: String)
    /// The ledger could not be written.
    case unwritable(reason: String)

    public var description: String {
        switch self {
        case .corrupt(let path, let movedTo, let reason):
            return "the ledger \(path) is corrupt (\(reason)); started fresh" + (movedTo.map { ", the bad file is kept at \($0)" } ?? "")
        case .unreadable(let reason): return "the ledger cannot be read (\(reason)); started fresh"
        case .unwritable(let reason): return "the ledger cannot be written (\(reason))"
        }
    }
}

/// Errors of ledger stores.
public enum LedgerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stored bytes are not a ledger.
    case corrupt(String)
    /// A read or write failed.
    case io(String)

    public var description: String {
        switch self {
        case .corrupt(let reason): return "the ledger is corrupt: \(reason)"
        case .io(let reason): return "ledger i/o failed: \(reason)"
        }
    }
}

/// Where the engine persists its ledger.
public protocol LedgerStore: Sendable {
    /// The stored snapshot, or nil when there is none.
    /// - Throws: ``LedgerError`` when it exists but cannot be read or decoded.
    func load() throws -> LedgerSnapshot?
    /// Replaces the stored snapshot.
    /// - Throws: ``LedgerError`` when it cannot be written.
    func save(_ snapshot: LedgerSnapshot) throws
}

/// A ledger kept in memory (tests, scenarios).
public final class InMemoryLedgerStore: LedgerStore, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: LedgerSnapshot?
    private var writes = 0

    /// Creates a store, optionally with a snapshot in it.
    public init(_ snapshot: LedgerSnapshot? = nil) { stored = snapshot }

    public func load() throws -> LedgerSnapshot? { lock.withLock { stored } }

    public func save(_ snapshot: LedgerSnapshot) throws {
        lock.withLock {
            stored = snapshot
            writes += 1
        }
    }

    /// How many times the snapshot was written.
    public var writeCount: Int { lock.withLock { writes } }
}

/// A ledger in a JSON file, replaced atomically (temporary file, fsync, rename).
public struct FileLedgerStore: LedgerStore {
    /// The ledger file.
    public let path: String

    /// Creates a store at a path.
    public init(path: String) { self.path = path }

    public func load() throws -> LedgerSnapshot? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LedgerError.io("cannot read \(path)")
        }
        do {
            let snapshot = try JSONDecoder().decode(LedgerSnapshot.self, from: data)
            guard snapshot.version == 1 else { throw LedgerError.corrupt("unknown ledger version \(snapshot.version)") }
            return snapshot
        } catch let error as LedgerError {
            throw error
        } catch {
            throw LedgerError.corrupt("not a ledger: \(error)")
        }
    }

    public func save(_ snapshot: LedgerSnapshot) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(snapshot) } catch { throw LedgerError.io("cannot encode: \(error)") }
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw LedgerError.io("cannot create \(temporary): errno \(errno)") }
        let written = data.withUnsafeBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, base + offset, buffer.count - offset)
                if n <= 0 { return offset }
                offset += n
            }
            return offset
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == data.count, synced else {
            unlink(temporary)
            throw LedgerError.io("cannot write \(temporary)")
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw LedgerError.io("cannot rename \(temporary) to \(path): errno \(errno)")
        }
    }

    /// Moves a bad ledger file aside so that it is not lost; returns where it went.
    func quarantine(now: Date) -> String? {
        let target = path + ".corrupt-\(Int64(now.timeIntervalSince1970))"
        return rename(path, target) == 0 ? target : nil
    }
}
