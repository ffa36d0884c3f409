import Foundation

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
