import Foundation

/// The decision oracle apps embed: record lifecycle events, ask whether to show, load, offer or reward.
///
/// Synchronous and thread-safe: one lock guards the facts, so it can be called from the main thread
/// inside lifecycle callbacks and from any other thread.
public final class AdEngine: @unchecked Sendable {
    /// Guards `policy`, `facts` and `generation`.
    let lock = NSLock()
    var policy: Policy
    var facts: Facts
    /// Counts changes of the facts, so that an older snapshot never overwrites a newer one.
    var generation = 0
    /// Times were pinned (a clock set back) since the ledger was last written: the next event writes it.
    var pinnedSinceWrite = false
    let clock: any AdClock
    let store: (any LedgerStore)?
    private let deviceTimeZone: TimeZone
    let onLedgerProblem: (@Sendable (LedgerProblem) -> Void)?
    /// Guards `disk` and serialises writes. Taken before `lock` when both are needed, never while holding it.
    let persistLock = NSLock()
    var disk = LedgerDiskState()

    /// Creates an engine.
    ///
    /// A corrupt ledger is moved aside and a fresh one started. An unreadable one is left untouched: the engine keeps
    /// its record in memory and reads the ledger again before each write, adopting it once it can be read.
    /// - Parameters:
    ///   - policy: the loaded policy.
    ///   - clock: where the time comes from.
    ///   - store: where the ledger persists; nil keeps it in memory only.
    ///   - deviceTimeZone: the zone for `timezone: device`.
    ///   - onLedgerProblem: called, with no lock held, when the ledger is corrupt, unreadable or unwritable (the
    ///     engine carries on); a problem is reported once until it changes or a write succeeds.
    public init(
        policy: Policy, clock: any AdClock = SystemClock(), store: (any LedgerStore)? = nil,
        deviceTimeZone: TimeZone = .autoupdatingCurrent, onLedgerProblem: (@Sendable (LedgerProblem) -> Void)? = nil
    ) {
        self.policy = policy
        self.clock = clock
        self.store = store
        self.deviceTimeZone = deviceTimeZone
        self.onLedgerProblem = onLedgerProblem
        let now = Milliseconds.from(clock.now())
        var facts = Facts(policy: policy, installedAt: now)
        var problem: LedgerProblem?
        var writeFresh = store != nil
        if let store {
            switch AdEngine.read(store, now: clock.now()) {
            case .missing:
                break
            case .loaded(let snapshot):
                facts = Facts(restoring: snapshot, policy: policy, now: now)
                writeFresh = false
            case .unreadable(let reason):
                problem = .unreadable(reason: reason)
                disk.unread = true
                disk.reportedRead = reason
                writeFresh = false
            case .corrupt(let corrupt):
                problem = corrupt
            }
        }
        self.facts = facts
        if let problem { onLedgerProblem?(problem) }
        if writeFresh { persist(facts, policy: policy, generation: 0) }
    }

    /// Creates an engine from existing facts (scenarios, tests).
    public init(policy: Policy, facts: Facts, clock: any AdClock, store: (any LedgerStore)? = nil, deviceTimeZone: TimeZone = .autoupdatingCurrent) {
        self.policy = policy
        self.facts = facts
        self.clock = clock
        self.store = store
        self.deviceTimeZone = deviceTimeZone
        self.onLedgerProblem = nil
    }

    /// Records a lifecycle event at the clock's time; a show, a failed show or a new session is persisted with one write.
    public func record(_ event: AdEvent) {
        // The clock is read under the lock: events are applied in the order of their times, so two racing
        // callers never make time run backwards (which would pin the later one's times).
        lock.lock()
        let now = Milliseconds.from(clock.now())
        let changed = applyLocked(event, at: now)
        let toPersist = changed && store != nil ? facts : nil
        let policy = self.policy
        generation += 1
        let current = generation
        lock.unlock()
        if let toPersist { persist(toPersist, policy: policy, generation: current) }
    }

    /// Applies an event; returns whether it changed what the ledger holds (the session count or a show history).
    private func applyLocked(_ event: AdEvent, at now: Int64) -> Bool {
        // Times from a clock set back are pinned first; the ledger must see the pinned times (rules.md §8).
        if facts.prepare(at: now, policy: policy) { pinnedSinceWrite = true }
        let sessions = facts.sessionCount
        var changesShows = false
        switch event {
        case .showStarted(let id):
            changesShows = policy.storage.index(of: id.rawValue) != nil
        case .showFailed(let id):
            changesShows = policy.storage.index(of: id.rawValue).map { facts.placements[$0].consumed != nil && facts.placements[$0].current != nil } ?? false
        default:
            break
        }
        facts.apply(event, at: now, policy: policy)
        let changed = changesShows || facts.sessionCount != sessions || pinnedSinceWrite
        if changed { pinnedSinceWrite = false }
        return changed
    }

    /// Asks a question; never touches the disk.
    public func ask(_ ask: Ask, context: AskContext = .standard) -> Decision {
        // The clock is read under the lock: events are applied in the order of their times, so two racing
        // callers never make time run backwards (which would pin the later one's times).
        lock.lock()
        let now = Milliseconds.from(clock.now())
        defer { lock.unlock() }
        return decideLocked(ask, context: context, now: now)
    }

    private func decideLocked(_ ask: Ask, context: AskContext, now: Int64) -> Decision {
        // An ask never writes: times it pins are written with the next event that writes the ledger.
        if facts.prepare(at: now, policy: policy) { pinnedSinceWrite = true }
        // The cached day is renewed when now leaves it; the evaluator checks its zone when a daily cap needs it
        // (a changed device zone is then computed afresh), so an ask reads no zone name.
        if !(facts.day.map { now >= $0.start && now < $0.end } ?? false) {
            facts.prepareDay(at: now, policy: policy, deviceTimeZone: deviceTimeZone)
        }
        return Evaluator.decide(ask, context: context, policy: policy, facts: facts, now: now, deviceTimeZone: deviceTimeZone)
    }

    /// Asks to show and, when allowed, records `show_started` under the same lock, so two callers are never both allowed.
    public func beginShow(_ placement: PlacementID, trigger: ShowTrigger, context: AskContext = .standard) -> Decision {
        atomically(.show(placement, trigger: trigger), context: context, then: .showStarted(placement))
    }

    /// Asks to reward and, when allowed, records `reward_granted` under the same lock, so a reward is granted once.
    public func claimReward(_ placement: PlacementID, context: AskContext = .standard) -> Decision {
        atomically(.reward(placement), context: context, then: .rewardGranted(placement))
    }

    private func atomically(_ ask: Ask, context: AskContext, then event: AdEvent) -> Decision {
        // The clock is read under the lock: events are applied in the order of their times, so two racing
        // callers never make time run backwards (which would pin the later one's times).
        lock.lock()
        let now = Milliseconds.from(clock.now())
        let decision = decideLocked(ask, context: context, now: now)
        var toPersist: Facts?
        if decision.isAllowed, applyLocked(event, at: now), store != nil { toPersist = facts }
        let policy = self.policy
        generation += 1
        let current = generation
        lock.unlock()
        if let toPersist { persist(toPersist, policy: policy, generation: current) }
        return decision
    }

    /// Replaces the policy atomically; what is known about placements that keep their id carries over.
    public func update(policy newPolicy: Policy) {
        lock.lock()
        facts = facts.remapped(from: policy, to: newPolicy)
        policy = newPolicy
        lock.unlock()
    }

    /// A copy of what the engine knows now.
    public var currentFacts: Facts { lock.withLock { facts } }

    /// The policy in force.
    public var currentPolicy: Policy { lock.withLock { policy } }
}
