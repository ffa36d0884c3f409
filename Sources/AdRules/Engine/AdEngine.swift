import Foundation

/// The decision oracle apps embed: record lifecycle events, ask whether to show, load, offer or reward.
///
/// Synchronous and thread-safe: one lock guards the facts, so it can be called from the main thread
/// inside lifecycle callbacks and from any other thread.
public final class AdEngine: @unchecked Sendable {
    private let lock = NSLock()
    private var policy: Policy
    private var facts: Facts
    private let clock: any AdClock
    private let store: (any LedgerStore)?
    private let deviceTimeZone: TimeZone
    private let onLedgerProblem: (@Sendable (LedgerProblem) -> Void)?
    /// Serialises writes so that an older snapshot never overwrites a newer one.
    private let persistLock = NSLock()
    private var generation = 0
    private var writtenGeneration = 0

    /// Creates an engine.
    /// - Parameters:
    ///   - policy: the loaded policy.
    ///   - clock: where the time comes from.
    ///   - store: where the ledger persists; nil keeps it in memory only.
    ///   - deviceTimeZone: the zone for `timezone: device`.
    ///   - onLedgerProblem: called when the ledger is corrupt, unreadable or unwritable (the engine carries on).
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
        var snapshot: LedgerSnapshot?
        do {
            snapshot = try store?.load()
        } catch let error as LedgerError {
            if let file = store as? FileLedgerStore {
                let moved = file.quarantine(now: clock.now())
                onLedgerProblem?(.corrupt(path: file.path, movedTo: moved, reason: error.description))
            } else {
                onLedgerProblem?(.unreadable(reason: error.description))
            }
        } catch {
            onLedgerProblem?(.unreadable(reason: "\(error)"))
        }
        if let snapshot {
            var facts = Facts(policy: policy, installedAt: min(snapshot.installedAt, now), sessionsBefore: snapshot.sessionCount)
            for (id, shows) in snapshot.shows {
                for show in shows { facts.addHistoricalShow(placement: id, at: show.at, session: show.session, policy: policy) }
            }
            self.facts = facts
        } else {
            self.facts = Facts(policy: policy, installedAt: now)
            if store != nil { persist(facts, policy: policy) }
        }
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

    /// Records a lifecycle event at the clock's time; a show or a new session is persisted with one write.
    public func record(_ event: AdEvent) {
        let now = Milliseconds.from(clock.now())
        lock.lock()
        facts.apply(event, at: now, policy: policy)
        let toPersist = event.changesLedger && store != nil ? facts : nil
        let policy = self.policy
        generation += 1
        let current = generation
        lock.unlock()
        if let toPersist { persist(toPersist, policy: policy, generation: current) }
    }

    /// Asks a question; never touches the disk.
    public func ask(_ ask: Ask, context: AskContext = .standard) -> Decision {
        let now = Milliseconds.from(clock.now())
        lock.lock()
        defer { lock.unlock() }
        return decideLocked(ask, context: context, now: now)
    }

    private func decideLocked(_ ask: Ask, context: AskContext, now: Int64) -> Decision {
        facts.prepareDay(at: now, policy: policy, deviceTimeZone: deviceTimeZone)
        return Evaluator.decide(ask, context: context, policy: policy, facts: facts, now: now, deviceTimeZone: deviceTimeZone)
    }

    /// Asks to show and, when allowed, records `show_started` under the same lock, so two callers are never both allowed.
    public func beginShow(_ placement: String, trigger: ShowTrigger, context: AskContext = .standard) -> Decision {
        atomically(.show(placement, trigger: trigger), context: context, then: .showStarted(placement))
    }

    /// Asks to reward and, when allowed, records `reward_granted` under the same lock, so a reward is granted once.
    public func claimReward(_ placement: String, context: AskContext = .standard) -> Decision {
        atomically(.reward(placement), context: context, then: .rewardGranted(placement))
    }

    private func atomically(_ ask: Ask, context: AskContext, then event: AdEvent) -> Decision {
        let now = Milliseconds.from(clock.now())
        lock.lock()
        let decision = decideLocked(ask, context: context, now: now)
        var toPersist: Facts?
        if decision.isAllowed {
            facts.apply(event, at: now, policy: policy)
            if event.changesLedger && store != nil { toPersist = facts }
        }
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

    private func persist(_ facts: Facts, policy: Policy, generation: Int = 0) {
        guard let store else { return }
        persistLock.lock()
        defer { persistLock.unlock() }
        if generation > 0 {
            guard generation > writtenGeneration else { return }
            writtenGeneration = generation
        }
        let snapshot = LedgerSnapshot(installedAt: facts.installedAt, sessionCount: facts.sessionCount, shows: facts.showHistory(policy: policy))
        do {
            try store.save(snapshot)
        } catch {
            onLedgerProblem?(.unwritable(reason: "\(error)"))
        }
    }
}
