@testable import AdRules
import Foundation
import Testing

/// Which of two racing snapshots reaches the ledger: writes arrive in any order from the threads that recorded them,
/// and an older one is skipped only once a newer one is on disk.
extension LedgerWriteTests {
    /// A newer snapshot whose write failed does not count as written: an older one arriving after it is still written
    /// (it holds less, but it is on disk), and one older still, after that success, is skipped. Counted as written
    /// before the store took it, the failed newer write left every older one skipped, and the ledger without either.
    @Test func anOlderSnapshotIsWrittenWhenTheNewerOnesWriteFailed() throws {
        let policy = try policy(Self.policyText)
        let store = ScriptedStore()
        let engine = AdEngine(policy: policy, clock: ManualClock(engineTestStart), store: store)
        engine.record(.appLaunched)
        let facts = engine.currentFacts
        let before = store.saved.count
        store.setSaveError(LedgerError.io("disk full"))
        #expect(!engine.persist(facts, policy: policy, generation: 1_000))
        store.setSaveError(nil)
        #expect(engine.persist(facts, policy: policy, generation: 999))
        #expect(store.saved.count == before + 1, "the older snapshot is written")
        #expect(engine.persist(facts, policy: policy, generation: 998))
        #expect(store.saved.count == before + 1, "one older than a snapshot written is skipped")
    }
}
