import Foundation

extension FileLedgerStore {
    /// Creates a store for a ledger file, such as one in Application Support.
    public init(url: URL) { self.init(path: url.path) }
}
