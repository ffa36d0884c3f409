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

/// Something wrong with the persisted ledger; the engine carries on without losing what it records.
public enum LedgerProblem: Sendable, Equatable, CustomStringConvertible {
    /// The ledger could not be decoded or holds impossible values; it was moved to `movedTo` and a fresh one started.
    case corrupt(path: String, movedTo: String?, reason: String)
    /// The ledger exists but could not be read (permissions, data protection); it is left alone and read again before the next write.
    case unreadable(reason: String)
    /// The ledger could not be written.
    case unwritable(reason: String)

    /// The problem in one sentence, for a log.
    public var description: String {
        switch self {
        case .corrupt(let path, let movedTo, let reason):
            return "the ledger \(path) is corrupt (\(reason)); started fresh" + (movedTo.map { ", the bad file is kept at \($0)" } ?? "")
        case .unreadable(let reason):
            return "the ledger cannot be read (\(reason)); it is left untouched and the engine keeps its record in memory until it can be read"
        case .unwritable(let reason): return "the ledger cannot be written (\(reason))"
        }
    }
}

/// Errors of ledger stores.
public enum LedgerError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The stored bytes are not a valid ledger; the store may be moved aside.
    case corrupt(String)
    /// A read or write failed; the stored ledger, if any, must be left alone.
    case io(String)

    /// The error in one lowercase sentence.
    public var description: String {
        switch self {
        case .corrupt(let reason): return "the ledger is corrupt: \(reason)"
        case .io(let reason): return "ledger i/o failed: \(reason)"
        }
    }

    /// The same as ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }
}

/// Where the engine persists its ledger.
///
/// The engine calls `save(_:)`, and `load()` once its engine exists, under the lock that orders its writes (the
/// engine's initializer calls `load()` before any other thread can reach it), so neither may call the engine
/// (``AdEngine``'s `onLedgerProblem` handler, called with no lock held, may).
public protocol LedgerStore: Sendable {
    /// The stored snapshot, or nil when there is none.
    /// - Throws: ``LedgerError/corrupt(_:)`` when the stored bytes are not a ledger, ``LedgerError/io(_:)`` when
    ///   they cannot be read. The engine moves a corrupt ledger aside but never touches an unreadable one.
    func load() throws -> LedgerSnapshot?
    /// Replaces the stored snapshot.
    /// - Throws: ``LedgerError`` when it cannot be written.
    func save(_ snapshot: LedgerSnapshot) throws
}
