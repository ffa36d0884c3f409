import Foundation

/// A ledger kept in memory (tests, scenarios).
public final class InMemoryLedgerStore: LedgerStore, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: LedgerSnapshot?
    private var writes = 0

    /// Creates a store, optionally with a snapshot in it.
    public init(_ snapshot: LedgerSnapshot? = nil) { stored = snapshot }

    /// The snapshot saved last, or the one the store was created with; nil when there is none.
    public func load() throws -> LedgerSnapshot? { lock.withLock { stored } }

    /// Keeps `snapshot` in place of the one before.
    public func save(_ snapshot: LedgerSnapshot) throws {
        lock.withLock {
            stored = snapshot
            writes += 1
        }
    }

    /// How many times the snapshot was written.
    public var writeCount: Int { lock.withLock { writes } }
}
