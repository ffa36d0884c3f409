import Foundation

/// The decision oracle apps embed: record lifecycle events, ask whether to show, load, offer or reward.
///
/// Synchronous and thread-safe: one lock guards the facts, so it can be called from the main thread
/// inside lifecycle callbacks and from any other thread.
public final class AdEngine: @unchecked Sendable {
    /// The facts, the policy and the generation, reached only under their lock.
    let state: Guarded<EngineState>
    let clock: any AdClock
    let store: (any LedgerStore)?
    let onLedgerProblem: (@Sendable (LedgerProblem) -> Void)?
    /// Guards `disk` and serialises writes. Taken before `state`'s lock when both are needed, never while holding it.
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
    ///   - installedAt: when the app was installed, for a ledger started fresh (none yet, or a corrupt one): an app that
    ///     adds AdRules in an update passes its own install date, so that its existing users are not taken for new
    ///     ones (`grace.after_install`). Nil (the default) is now; a time later than now is now. A ledger read from the
    ///     store keeps its own.
    ///   - sessionsBefore: the sessions before this launch, for a ledger started fresh (`grace.first_sessions`,
    ///     `session.count`); 0 by default. A ledger read from the store keeps its own count.
    public init(
        policy: Policy, clock: any AdClock = SystemClock(), store: (any LedgerStore)? = nil,
        deviceTimeZone: TimeZone = .autoupdatingCurrent, onLedgerProblem: (@Sendable (LedgerProblem) -> Void)? = nil,
        installedAt: Date? = nil, sessionsBefore: Int = 0
    ) {
        self.clock = clock
        self.store = store
        self.onLedgerProblem = onLedgerProblem
        // A NaN first reading (a broken clock of the app's) is no reading: read as 1970 it pinned every show and the
        // install time there. At the end of time nothing is pinned, and the first real reading pins the install time.
        let reading = clock.now()
        let now = reading.timeIntervalSince1970.isNaN ? Milliseconds.limit : Milliseconds.from(reading)
        var facts = Facts(policy: policy, installedAt: min(installedAt.map(Milliseconds.from) ?? now, now), sessionsBefore: sessionsBefore)
        var problem: LedgerProblem?
        var writeFresh = store != nil
        // Times the ledger holds later than the clock are pinned as they are read; they reach the file with the first
        // ask or event, as times pinned later do.
        var pinnedAtStart = false
        if let store {
            switch AdEngine.read(store, now: clock.now()) {
            case .missing:
                break
            case .loaded(let snapshot):
                facts = Facts(restoring: snapshot, policy: policy, now: now)
                pinnedAtStart = snapshot.installedAt > now || snapshot.shows.values.contains { $0.contains { $0.at > now } }
                writeFresh = false
            case .unreadable(let reason):
                problem = .unreadable(reason: reason)
                disk.unread = true
                disk.sessionsBeforeUnread = max(0, sessionsBefore)
                disk.reportedRead = reason
                writeFresh = false
            case .corrupt(let corrupt):
                problem = corrupt
            }
        }
        var core = EngineCore(policy: policy, facts: facts, deviceTimeZone: deviceTimeZone)
        core.pinnedSinceWrite = pinnedAtStart
        state = Guarded(EngineState(core: core))
        if let problem { onLedgerProblem?(problem) }
        // A fresh ledger that could not be written is written again at the next launch, return or move to the
        // background, as any write that failed: an app killed in the background would otherwise have none.
        if writeFresh { persistOrRetry(facts, policy: policy, generation: 0) }
    }

    /// Creates an engine from existing facts (scenarios, tests). A `store` given here is not read: its ledger is
    /// replaced by these facts at the first change written.
    public init(policy: Policy, facts: Facts, clock: any AdClock, store: (any LedgerStore)? = nil, deviceTimeZone: TimeZone = .autoupdatingCurrent) {
        state = Guarded(EngineState(core: EngineCore(policy: policy, facts: facts, deviceTimeZone: deviceTimeZone)))
        self.clock = clock
        self.store = store
        self.onLedgerProblem = nil
    }

    /// Records a lifecycle event at the clock's time; a show, a failed show or a new session is persisted with one write.
    public func record(_ event: AdEvent) {
        let changed = state.withLock { state in
            // The clock is read under the lock: events are applied in the order of their times, so two racing
            // callers never make time run backwards (which would pin the later one's times).
            state.changed(state.core.record(event, at: state.core.time(of: clock.now())), keeping: store != nil, retrying: event.isLifecycle)
        }
        if let facts = changed.facts { persistOrRetry(facts, policy: changed.policy, generation: changed.generation) }
    }

    /// Asks a question with the engine's ``context``. An ask writes nothing, except the first to see a clock set back: it
    /// writes the times it pinned once (rules.md §8: the `next_allowed_at` given then comes true, after a restart too).
    public func ask(_ ask: Ask) -> Decision {
        asking { state, now in state.core.ask(ask, context: state.context, at: now) }
    }

    /// Asks a question with a context of its own, in place of the engine's ``context``; otherwise as ``ask(_:)``.
    public func ask(_ ask: Ask, context: AskContext) -> Decision {
        asking { state, now in state.core.ask(ask, context: context, at: now) }
    }

    /// Decides an ask under the lock at the clock's time. The two `ask` overloads, rather than one with an optional
    /// context, keep a context from being copied into an optional on every ask (about 850 instructions an ask, measured).
    private func asking(_ decide: (inout EngineState, Int64) -> Decision) -> Decision {
        // A flag, not the change to write: the usual ask then costs one test (a change held here, facts and all, cost
        // about 110 instructions an ask), and the decision goes straight to the caller.
        var pinned = false
        defer { if pinned { writePinnedTimes() } }
        // The clock is read under the lock, as for events.
        return state.withLock { state in
            defer { pinned = state.core.takePinned() }
            return decide(&state, state.core.time(of: clock.now()))
        }
    }

    /// Writes the facts after an ask pinned times (rare: the clock was set back), as an event that changed them would.
    /// The facts are taken again under the lock: an event recorded meanwhile is in them, and wrote them too.
    private func writePinnedTimes() {
        let changed = state.withLock { $0.changed(true, keeping: store != nil) }
        guard let facts = changed.facts else { return }
        // A write that failed (or a ledger still unreadable) leaves the times for the next ask or event to write.
        if !persist(facts, policy: changed.policy, generation: changed.generation) { state.withLock { $0.core.pinnedSinceWrite = true } }
    }

    /// Writes the facts an event changed; when that fails, the next launch, return or move to the background writes them
    /// again (``EngineState/unsaved``).
    private func persistOrRetry(_ facts: Facts, policy: Policy, generation: Int) {
        if !persist(facts, policy: policy, generation: generation) { state.withLock { $0.unsaved = true } }
    }

    /// Asks to show with the engine's ``context`` and, when allowed, records `show_started` under the same lock, so two
    /// callers are never both allowed.
    public func beginShow(_ placement: PlacementID, trigger: ShowTrigger) -> Decision {
        atomically(then: .showStarted(placement)) { state, now, event in state.core.decide(.show(placement, trigger: trigger), context: state.context, thenRecord: event, at: now) }
    }

    /// ``beginShow(_:trigger:)`` with a context of its own, in place of the engine's ``context``.
    public func beginShow(_ placement: PlacementID, trigger: ShowTrigger, context: AskContext) -> Decision {
        atomically(then: .showStarted(placement)) { state, now, event in state.core.decide(.show(placement, trigger: trigger), context: context, thenRecord: event, at: now) }
    }

    /// Asks to load with the engine's ``context`` and, when allowed, records `load_started` under the same lock, so two
    /// callers (a return from background and a closed ad, both reloading) never both start a load, and no allowed load
    /// goes unrecorded (`already_loading`, `load_timeout` and the launch phase read it).
    public func beginLoad(_ placement: PlacementID) -> Decision {
        atomically(then: .loadStarted(placement)) { state, now, event in state.core.decide(.load(placement), context: state.context, thenRecord: event, at: now) }
    }

    /// ``beginLoad(_:)`` with a context of its own, in place of the engine's ``context``.
    public func beginLoad(_ placement: PlacementID, context: AskContext) -> Decision {
        atomically(then: .loadStarted(placement)) { state, now, event in state.core.decide(.load(placement), context: context, thenRecord: event, at: now) }
    }

    /// Asks to reward and, when allowed, records `reward_granted` under the same lock, so a reward is granted once. No
    /// reason of a reward ask reads a context (rules.md §7).
    public func claimReward(_ placement: PlacementID) -> Decision {
        atomically(then: .rewardGranted(placement)) { state, now, event in state.core.decide(.reward(placement), context: state.context, thenRecord: event, at: now) }
    }

    /// ``claimReward(_:)`` with a context of its own, taken for symmetry with the other asks (none of its reasons reads it).
    public func claimReward(_ placement: PlacementID, context: AskContext) -> Decision {
        atomically(then: .rewardGranted(placement)) { state, now, event in state.core.decide(.reward(placement), context: context, thenRecord: event, at: now) }
    }

    private func atomically(then event: AdEvent, _ decide: (inout EngineState, Int64, AdEvent) -> EngineCore.Decided) -> Decision {
        let (decision, changed) = state.withLock { state in
            // The clock is read under the lock, as for events.
            let decided = decide(&state, state.core.time(of: clock.now()), event)
            return (decided.decision, state.changed(decided.ledgerChanged, keeping: store != nil))
        }
        if let facts = changed.facts { persistOrRetry(facts, policy: changed.policy, generation: changed.generation) }
        return decision
    }

    /// The user's context for the asks that pass none: whether the user is premium, and the attributes custom rules read.
    /// Premium is a fact about the user, not about one call: set it at launch and whenever a purchase, a restore or an
    /// expiry changes it, and no ad path can forget it (an ask with its own context uses that one instead).
    /// ``AskContext/standard`` (not premium, no attributes) until set.
    ///
    /// Reading or setting the whole context is atomic; changing a part of it (`engine.context.premium = true`) reads
    /// and then sets it, and a change of another part made meanwhile on another thread is lost: change parts with
    /// ``updateContext(_:)``.
    ///
    /// The engine keeps it prepared for the policy in force (``Policy/prepared(_:)``), when it is set and when the
    /// policy changes: its rules read the attributes by slot, with no work on the asks that could be done then.
    public var context: AskContext {
        get { state.withLock { $0.context } }
        set { state.withLock { $0.context = Self.preparing(newValue, for: $0.core.policy) } }
    }

    /// A context prepared for `policy`, unless it is already.
    private static func preparing(_ context: AskContext, for policy: Policy) -> AskContext {
        context.isPrepared(for: policy) ? context : policy.prepared(context)
    }

    /// Changes the engine's ``context`` in one step under its lock: a purchase callback setting `premium` and the main
    /// thread setting a screen attribute at the same time both take effect. `change` runs under the engine's lock: it
    /// must not call the engine.
    public func updateContext(_ change: (inout AskContext) -> Void) {
        state.withLock { state in
            change(&state.context)
            state.context = Self.preparing(state.context, for: state.core.policy)
        }
    }

    /// Replaces the policy atomically; what is known about placements that keep their id carries over, and the engine's
    /// ``context`` is prepared for the new policy.
    public func update(policy newPolicy: Policy) {
        state.withLock { state in
            state.core.update(policy: newPolicy)
            state.context = Self.preparing(state.context, for: state.core.policy)
        }
    }

    /// A copy of what the engine knows now.
    public var currentFacts: Facts { state.withLock { $0.core.facts } }

    /// The policy in force.
    public var currentPolicy: Policy { state.withLock { $0.core.policy } }

    /// The show history by placement id, read with the policy it is indexed by under one lock (``currentFacts`` and
    /// ``currentPolicy``, read one after the other, may straddle an ``update(policy:)``).
    public var showHistory: [String: [ShowRecord]] { state.withLock { $0.core.facts.showHistory(policy: $0.core.policy) } }
}

/// What the engine's lock guards: the facts and the policy, and the count of their changes.
struct EngineState: Sendable {
    /// The facts, the policy, and what events and asks do to them.
    var core: EngineCore
    /// The context of asks that pass none (``AdEngine/context``).
    var context = AskContext.standard
    /// Counts changes of the facts, so that an older snapshot never overwrites a newer one.
    var generation = 0
    /// The last write of the facts failed (an unwritable or still unreadable ledger): the next launch, return or move
    /// to the background writes them whether or not it changes what the ledger holds, so that a show is not left in
    /// memory alone until the next show or session (an app is often killed in the background). Other events do not
    /// retry: while the ledger stays unreadable or unwritable, each retry reads or writes the file on the caller's thread.
    var unsaved = false

    /// What an event left to write: the facts when the ledger changed and there is a store, with the policy and
    /// the generation they were written at.
    struct Change: Sendable {
        var facts: Facts?
        var policy: Policy
        var generation: Int
    }

    /// Counts an event's change of the facts and says what to write.
    /// - Parameter retrying: whether a write that failed before is made now (``unsaved``).
    mutating func changed(_ ledgerChanged: Bool, keeping hasStore: Bool, retrying: Bool = false) -> Change {
        generation += 1
        let write = (ledgerChanged || (unsaved && retrying)) && hasStore
        if write { unsaved = false }
        return Change(facts: write ? core.facts : nil, policy: core.policy, generation: generation)
    }
}
