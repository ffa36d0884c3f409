import Foundation

/// What the engine does with an event or an ask, without a lock, a clock or a ledger: the facts, the policy,
/// and the rules for bringing the facts to `now` before each call.
///
/// ``AdEngine`` holds one under its lock and adds the clock and the ledger; the impact preview plays one per
/// simulated user on the thread that plays it. Both therefore decide alike, by construction.
package struct EngineCore: Sendable {
    package private(set) var policy: Policy {
        didSet { dropDayOfAnotherZone() }
    }
    /// Set within the engine's module only (``AdEngine`` adopts a ledger written by another process into them): the
    /// engine keeps promises about them that a decision takes on trust (the cached day's zone, ``deviceTimeZone``).
    package internal(set) var facts: Facts
    /// The device's zone as it was at the last launch, return from background, new day or policy update: a fixed zone,
    /// whose name a decision compares as a plain value (`TimeZone.autoupdatingCurrent` looks up the system's current
    /// zone, in a cache shared by the process, each time its name is read: about twice the time).
    ///
    /// The facts' cached day (``Facts/day``) is always one worked out in the zone caps count in (the policy's, or this
    /// one), or none: a day of another zone is dropped when the zone or the policy is set (``dropDayOfAnotherZone()``), and
    /// the engine caches only days of its zone. A decision therefore takes the day on trust (`dayInZone: true`), with no
    /// call to read the zone's name at each daily cap and clock rule.
    package private(set) var deviceTimeZone: TimeZone {
        didSet {
            deviceZoneName = deviceTimeZone.identifier
            dropDayOfAnotherZone()
        }
    }
    /// The identifier of ``deviceTimeZone``, read when the zone is set.
    private(set) var deviceZoneName: String
    /// Where the device's zone comes from (usually `.autoupdatingCurrent`, which follows the system's): read again at
    /// those moments.
    let deviceZoneSource: @Sendable () -> TimeZone
    /// Times were pinned (a clock set back, or a ledger read at start-up) since the ledger was last written: the next
    /// event, or `AdEngine.ask` (``takePinned()``), writes it.
    var pinnedSinceWrite = false
    /// The findings of the last ask, kept so that the next one reuses their storage.
    var findings = Findings()
    /// For an engine that plays users one after another (the impact preview, ``forAnotherUser(facts:deviceTimeZone:)``):
    /// the whole local days (no change of offset in them) worked out so far, newest last, at most ``knownDaysKept``. A
    /// day's bounds in a zone are the same for every user, and working one out asks the zone's rules (about 10,000
    /// instructions, once a user-day). Nil for an app's engine, which keeps none: its facts cache the day it is in.
    private var knownDays: [LocalDay]?
    static let knownDaysKept = 64

    /// An engine whose device zone is `deviceTimeZone`, as that zone names itself at each launch, return, new day and
    /// policy update (`.autoupdatingCurrent` follows the system's zone; any other zone stays as it is).
    package init(policy: Policy, facts: Facts, deviceTimeZone: TimeZone) {
        self.init(policy: policy, facts: facts, deviceZone: { deviceTimeZone })
    }

    /// An engine that reads the device's zone from `deviceZone` now and at each launch, return, new day and policy update.
    package init(policy: Policy, facts: Facts, deviceZone: @escaping @Sendable () -> TimeZone) {
        self.policy = policy
        // Facts built for another policy are fitted once, here, by position (as the evaluator fits them): never an index
        // out of range. An app that changes policies keeps its facts by placement id with `update(policy:)` instead.
        self.facts = facts.fits(policy) ? facts : facts.fitted(to: policy)
        deviceZoneSource = deviceZone
        let zone = EngineCore.fixed(deviceZone())
        self.deviceTimeZone = zone
        self.deviceZoneName = zone.identifier
        dropDayOfAnotherZone()
    }

    /// Drops the facts' cached day when it was worked out in another zone than the one caps count in now (facts given
    /// by the caller, a policy update, a device that changed zones): see ``deviceTimeZone``.
    private mutating func dropDayOfAnotherZone() {
        if let day = facts.day, day.zone != (policy.storage.namedZoneID ?? deviceZoneName) { facts.day = nil }
    }

    /// Whether the facts' cached day is in the zone caps count in, as ``deviceTimeZone`` promises (checked in debug builds).
    private var dayIsInZone: Bool { facts.day.map { $0.zone == (policy.storage.namedZoneID ?? deviceZoneName) } ?? true }

    /// Applies an event at `now`.
    /// - Returns: whether what the ledger holds changed (a show, a failed show that gives one back, a new
    ///   session, or times pinned since the last write), so that the caller writes it once.
    package mutating func record(_ event: AdEvent, at now: Int64) -> Bool {
        // The placement is looked up once, here.
        record(event.kind, placement: event.placementID.flatMap { policy.storage.index(of: $0) }, source: event.source, at: now)
    }

    /// Applies an event whose placement the caller has looked up, as ``record(_:at:)`` does.
    /// - Parameters:
    ///   - kind: the event, without its placement or source.
    ///   - index: its placement, an index of the policy's placements; nil for none, or one the policy lacks (a placement
    ///     event is then ignored, as one with an unknown id is).
    ///   - source: the source of a `fullscreen_opened` or `fullscreen_closed`.
    package mutating func record(_ kind: AdEvent.Kind, placement index: Int?, source: String? = nil, at now: Int64) -> Bool {
        if !facts.fits(policy) { facts = facts.fitted(to: policy) }
        // Times from a clock set back are pinned first; the ledger must see the pinned times (rules.md §8).
        let clamped = Milliseconds.clamped(now)
        if facts.prepare(clamped: clamped, policy: policy) { pinnedSinceWrite = true }
        let sessions = facts.sessionCount
        let index = index.flatMap { $0 >= 0 && $0 < facts.placements.count ? $0 : nil }
        var changesShows = false
        switch kind {
        case .showStarted:
            changesShows = index != nil
        case .showFailed:
            let timeout = policy.storage.fullscreenTimeoutMs
            changesShows = index.map { facts.placements[$0].failureTakesBackAShow(at: clamped, fullscreenTimeoutMs: timeout) } ?? false
        default:
            break
        }
        facts.applyPrepared(kind, placement: index, source: source, at: clamped, policy: policy)
        switch kind {
        case .appLaunched, .appResumed: renewDeviceZone(at: now)
        default: break
        }
        let changed = changesShows || facts.sessionCount != sessions || pinnedSinceWrite
        if changed { pinnedSinceWrite = false }
        return changed
    }

    /// The time of a clock reading. A NaN reading (a broken clock of the app's) is the latest time handled: read as
    /// 1970, it looked like a clock set back and pinned every show and the install time to it, so that at the next
    /// real reading every cap and interval had lapsed.
    package func time(of reading: Date) -> Int64 {
        reading.timeIntervalSince1970.isNaN ? max(facts.observedTime, facts.newestTime) : Milliseconds.from(reading)
    }

    /// Decides an ask at `now`. Times it pins after a clock set back are kept for the ledger (``takePinned()``).
    package mutating func ask(_ ask: Ask, context: AskContext, at now: Int64) -> Decision {
        prepareAsk(at: now)
        assert(dayIsInZone)
        return Evaluator.decide(
            ask, context: context, policy: policy, facts: facts, now: now, deviceTimeZone: deviceTimeZone, dayInZone: true,
            reusing: &findings)
    }

    /// Finds the reasons to deny an ask at `now` into `found`, as ``ask(_:context:at:)`` decides it, without building
    /// the decision (see ``Evaluator/find(_:context:policy:facts:now:deviceTimeZone:into:)``).
    /// - Returns: false for a placement the policy does not have.
    package mutating func find(_ ask: Ask, context: AskContext, at now: Int64, into found: inout Findings) -> Bool {
        prepareAsk(at: now)
        assert(dayIsInZone)
        return Evaluator.find(
            ask, context: context, policy: policy, facts: facts, now: now, deviceTimeZone: deviceTimeZone, dayInZone: true,
            into: &found)
    }

    /// Finds as ``find(_:context:at:into:)`` does, for an ask whose placement the caller has looked up: `index` of the
    /// policy's placements (see ``Evaluator/find(_:placement:trigger:context:policy:facts:now:deviceTimeZone:dayInZone:into:)``).
    /// - Returns: false for an index outside the policy's placements.
    package mutating func find(
        _ kind: AskKind, placement index: Int, trigger: ShowTrigger? = nil, context: AskContext, at now: Int64, into found: inout Findings
    ) -> Bool {
        prepareAsk(at: now)
        assert(dayIsInZone)
        return Evaluator.find(
            kind, placement: index, trigger: trigger, context: context, policy: policy, facts: facts, now: now, deviceTimeZone: deviceTimeZone,
            dayInZone: true, into: &found)
    }

    /// Finds as ``find(_:placement:trigger:context:at:into:)`` does and, when the ask is allowed, records the event `then`
    /// of its placement (`show_started` after a show, `reward_granted` after a reward), as
    /// ``decide(_:context:thenRecord:at:)`` does.
    package mutating func find(
        _ kind: AskKind, placement index: Int, trigger: ShowTrigger? = nil, context: AskContext, thenRecord then: AdEvent.Kind, at now: Int64,
        into found: inout Findings
    ) -> Bool {
        let known = find(kind, placement: index, trigger: trigger, context: context, at: now, into: &found)
        if known && found.isAllowed { _ = record(then, placement: index, at: now) }
        return known
    }

    /// Brings the facts to `now` before an ask. Times it pins are kept for the ledger (``takePinned()``).
    @inline(__always)
    private mutating func prepareAsk(at now: Int64) {
        if facts.prepare(clamped: Milliseconds.clamped(now), policy: policy) { pinnedSinceWrite = true }
        // The cached day, and the device's zone, are renewed when now leaves it; the evaluator compares the day's zone
        // with the fixed one it is given when a daily cap needs it, so an ask asks the system for no zone.
        if !(facts.day.map { now >= $0.start && now < $0.end } ?? false) {
            renewDeviceZone(at: now)
            prepareDay(at: now)
        }
    }

    /// Caches the local day of `now` in the facts, from ``knownDays`` when it is one of them.
    @inline(never)
    private mutating func prepareDay(at now: Int64) {
        guard var known = knownDays.take() else {
            facts.prepareDay(at: now, policy: policy, deviceTimeZone: deviceTimeZone)
            return
        }
        defer { knownDays = known }
        let zone = policy.storage.namedZoneID ?? deviceZoneName
        if let day = known.last(where: { $0.contains(now, zone: zone) }) {
            if facts.day != day { facts.day = day }
            return
        }
        facts.prepareDay(at: now, policy: policy, deviceTimeZone: deviceTimeZone)
        guard let day = facts.day, day.offsetFrom == day.start, day.offsetUntil == day.end else { return }
        if known.count >= EngineCore.knownDaysKept { known.removeFirst() }
        known.append(day)
    }

    /// An engine for another user of the same policy (the impact preview plays many, one after another, on one thread):
    /// their facts and device zone (a fixed zone, as ``init(policy:facts:deviceTimeZone:)`` takes), with the local days
    /// this one has worked out, and from then on keeping the days it works out (``knownDays``).
    package func forAnotherUser(facts: Facts, deviceTimeZone: TimeZone) -> EngineCore {
        var engine = EngineCore(policy: policy, facts: facts, deviceTimeZone: deviceTimeZone)
        engine.knownDays = knownDays ?? []
        return engine
    }

    /// Reads the device's zone again (a user who travelled, or changed it in Settings) for a policy that counts in it,
    /// and renews the cached day when the zone changed.
    /// (Out of line: it runs once a day, a launch or a return, and inlined it made every ask's preparation a call.)
    @inline(never)
    private mutating func renewDeviceZone(at now: Int64) {
        guard case .device = policy.timeZone else { return }
        let zone = deviceZoneSource()
        guard zone.identifier != deviceZoneName else { return }
        deviceTimeZone = EngineCore.fixed(zone)
        prepareDay(at: now)
    }

    /// A zone fixed to the one `zone` names now: the zone itself when it cannot be named again.
    static func fixed(_ zone: TimeZone) -> TimeZone { TimeZone(identifier: zone.identifier) ?? zone }

    /// Decides an ask and, when it is allowed, records the event that follows it (`show_started` after a show,
    /// `reward_granted` after a reward), as one step.
    package mutating func decide(_ ask: Ask, context: AskContext, thenRecord event: AdEvent, at now: Int64) -> Decided {
        let decision = self.ask(ask, context: context, at: now)
        return Decided(decision: decision, ledgerChanged: decision.isAllowed ? record(event, at: now) : takePinned())
    }

    /// Whether times were pinned since the ledger was last written (a clock set back, seen by an ask), clearing it: the
    /// ledger must then hold the pinned times, or an app killed before its next event reads the old ones at its next
    /// start and pins them to that later time, and a `next_allowed_at` given meanwhile would not come true (rules.md §8).
    package mutating func takePinned() -> Bool {
        guard pinnedSinceWrite else { return false }
        pinnedSinceWrite = false
        return true
    }

    /// A decision, and whether the event recorded after it changed what the ledger holds. (A named type: a caller
    /// that keeps only the decision destroys the rest with code made for it, where a tuple left over is destroyed
    /// through its type's metadata.)
    package struct Decided {
        package let decision: Decision
        package let ledgerChanged: Bool
    }

    /// Visits the caps of the placement at `index` (and of its groups) that a show now would meet: see
    /// ``Evaluator/forEachCapReached(placement:policy:facts:now:deviceTimeZone:into:_:)``. Read right after an ask or an
    /// event at `now`, so the facts are current. The caps are found into the engine's findings (``findings``), whose
    /// storage the next ask reuses.
    package mutating func forEachCapReached(placement index: Int, at now: Int64, _ body: (_ code: ReasonCode, _ group: Int?) -> Void) {
        assert(dayIsInZone)
        Evaluator.forEachCapReached(
            placement: index, policy: policy, facts: facts, now: now, deviceTimeZone: deviceTimeZone, dayInZone: true,
            into: &findings, body)
    }

    /// Replaces the policy; what is known about placements that keep their id carries over.
    package mutating func update(policy newPolicy: Policy) {
        facts = facts.remapped(from: policy, to: newPolicy)
        policy = newPolicy
        // A policy that starts counting in the device's zone reads the zone as it is now.
        deviceTimeZone = EngineCore.fixed(deviceZoneSource())
    }
}
