import Foundation

/// The decision oracle apps embed: record lifecycle events, ask whether to show, load, offer or reward.
///
/// Synchronous and thread-safe: one lock guards the facts, so it can be called from the main thread
/// inside lifecycle callbacks and from any other thread.
public final class AdEngine: @unchecked Sendable {
    /// Guards `core` and `generation`.
    let lock = NSLock()
    /// The facts, the policy, and what events and asks do to them.
    private var core: EngineCore
    var policy: Policy { core.policy }
    var facts: Facts {
        get { core.facts }
        set { core.facts = newValue }
    }
    /// Counts changes of the facts, so that an older snapshot never overwrites a newer one.
    var generation = 0
    let clock: any AdClock
    let store: (any LedgerStore)?
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
        self.clock = clock
        self.store = store
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
        core = EngineCore(policy: policy, facts: facts, deviceTimeZone: deviceTimeZone)
        if let problem { onLedgerProblem?(problem) }
        if writeFresh { persist(facts, policy: policy, generation: 0) }
    }

    /// Creates an engine from existing facts (scenarios, tests).
    public init(policy: Policy, facts: Facts, clock: any AdClock, store: (any LedgerStore)? = nil, deviceTimeZone: TimeZone = .autoupdatingCurrent) {
        core = EngineCore(policy: policy, facts: facts, deviceTimeZone: deviceTimeZone)
        self.clock = clock
        self.store = store
        self.onLedgerProblem = nil
    }

    /// Records a lifecycle event at the clock's time; a show, a failed show or a new session is persisted with one write.
    public func record(_ event: AdEvent) {
        // The clock is read under the lock: events are applied in the order of their times, so two racing
        // callers never make time run backwards (which would pin the later one's times).
        lock.lock()
        let now = Milliseconds.from(clock.now())
        let changed = core.record(event, at: now)
        let toPersist = changed && store != nil ? facts : nil
        let policy = self.policy
        generation += 1
        let current = generation
        lock.unlock()
        if let toPersist { persist(toPersist, policy: policy, generation: current) }
    }

    /// Asks a question; never touches the disk.
    public func ask(_ ask: Ask, context: AskContext = .standard) -> Decision {
        // The clock is read under the lock: events are applied in the order of their times, so two racing
        // callers never make time run backwards (which would pin the later one's times).
        lock.lock()
        let now = Milliseconds.from(clock.now())
        defer { lock.unlock() }
        return core.ask(ask, context: context, at: now)
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
        let decided = core.decide(ask, context: context, thenRecord: event, at: now)
        let (decision, changed) = (decided.decision, decided.ledgerChanged)
        let toPersist = changed && store != nil ? facts : nil
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
        core.update(policy: newPolicy)
        lock.unlock()
    }

    /// A copy of what the engine knows now.
    public var currentFacts: Facts { lock.withLock { facts } }

    /// The policy in force.
    public var currentPolicy: Policy { lock.withLock { policy } }
}
