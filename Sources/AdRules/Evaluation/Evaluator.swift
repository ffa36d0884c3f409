import Foundation

/// The decision function: a pure function of (policy, ask, context, facts, now).
///
/// It reads tables built when the policy was loaded (limits, group membership, compiled
/// rules) and the caller's facts in place; message strings are built only for deny reasons.
public enum Evaluator {
    /// Decides an ask.
    /// - Parameters:
    ///   - ask: what the app asks.
    ///   - context: premium flag and attributes.
    ///   - policy: the loaded policy.
    ///   - facts: what has happened.
    ///   - now: the time, in ms since 1970.
    ///   - deviceTimeZone: the zone used when the policy says `timezone: device`.
    /// - Returns: allow, or deny with every reason.
    public static func decide(
        _ ask: Ask, context: AskContext = .standard, policy: Policy, facts: borrowing Facts, now: Int64,
        deviceTimeZone: TimeZone = .autoupdatingCurrent
    ) -> Decision {
        guard let index = policy.storage.index(of: ask.placement, slot: ask.slot) else { return unknownPlacement(ask, policy) }
        let now = Milliseconds.clamped(now)
        guard facts.fits(policy) else {
            return decide(ask, context: context, policy: policy, facts: facts.fitted(to: policy), now: now, deviceTimeZone: deviceTimeZone)
        }
        var found = Findings()
        collect(
            ask.kind, trigger: ask.trigger, at: index, context: context, policy: policy, facts: facts, now: now, deviceTimeZone: deviceTimeZone,
            into: &found)
        guard !found.denials.isEmpty else { return (consume found).allowed(ask) }
        return (consume found).denial(for: ask, policy: policy.storage, deviceTimeZone: deviceTimeZone)
    }

    /// Finds the reasons to deny an ask, as ``decide(_:context:policy:facts:now:deviceTimeZone:)`` does, into `found`
    /// (emptied first, its storage kept), without building a decision: what a tool deciding millions of asks reads
    /// (the impact preview counts reasons by code and site, and reuses one `Findings` for all its asks).
    /// - Parameter dayInZone: true when the caller vouches that the facts' cached day (``Facts/day``), if any, was worked
    ///   out in the zone caps count in (the engine keeps it so): no daily cap or clock rule then asks the zone its name.
    /// - Returns: false for a placement the policy does not have (`found` is then empty).
    package static func find(
        _ ask: Ask, context: AskContext, policy: Policy, facts: borrowing Facts, now: Int64, deviceTimeZone: TimeZone,
        dayInZone: Bool? = nil, into found: inout Findings
    ) -> Bool {
        guard let index = policy.storage.index(of: ask.placement, slot: ask.slot) else {
            found.reset()
            return false
        }
        return find(
            ask.kind, placement: index, trigger: ask.trigger, context: context, policy: policy, facts: facts, now: now,
            deviceTimeZone: deviceTimeZone, dayInZone: dayInZone, into: &found)
    }

    /// Finds as ``find(_:context:policy:facts:now:deviceTimeZone:dayInZone:into:)`` does, for an ask whose placement the
    /// caller has looked up: `index` of the policy's placements (what the impact preview asks with, with no id to look up,
    /// copy and release).
    /// - Returns: false for an index outside the policy's placements (`found` is then empty).
    package static func find(
        _ kind: AskKind, placement index: Int, trigger: ShowTrigger?, context: AskContext, policy: Policy, facts: borrowing Facts,
        now: Int64, deviceTimeZone: TimeZone, dayInZone: Bool? = nil, into found: inout Findings
    ) -> Bool {
        found.reset()
        guard index >= 0, index < policy.storage.placements.count else { return false }
        let now = Milliseconds.clamped(now)
        guard facts.fits(policy) else {
            return find(
                kind, placement: index, trigger: trigger, context: context, policy: policy, facts: facts.fitted(to: policy), now: now,
                deviceTimeZone: deviceTimeZone, dayInZone: dayInZone, into: &found)
        }
        collect(
            kind, trigger: trigger, at: index, context: context, policy: policy, facts: facts, now: now, deviceTimeZone: deviceTimeZone,
            dayInZone: dayInZone, into: &found)
        return true
    }

    /// Decides as ``decide(_:context:policy:facts:now:deviceTimeZone:)`` does, finding the reasons into `found`, whose
    /// storage is kept from ask to ask: what the engine asks with. A decision shares the storage of its reasons with
    /// `found` until the next ask empties it, so the usual caller, which drops each decision before the next ask,
    /// allocates no list of reasons at all.
    package static func decide(
        _ ask: Ask, context: AskContext, policy: Policy, facts: borrowing Facts, now: Int64, deviceTimeZone: TimeZone,
        dayInZone: Bool? = nil, reusing found: inout Findings
    ) -> Decision {
        guard
            find(
                ask, context: context, policy: policy, facts: facts, now: now, deviceTimeZone: deviceTimeZone, dayInZone: dayInZone,
                into: &found)
        else {
            return unknownPlacement(ask, policy)
        }
        guard !found.denials.isEmpty else { return (copy found).allowed(ask) }
        return (copy found).denial(for: ask, policy: policy.storage, deviceTimeZone: deviceTimeZone)
    }

    /// The steps of an ask about the placement at `index`, their reasons collected into `found`. (Inlined into
    /// ``decide(_:context:policy:facts:now:deviceTimeZone:)``, which starts from empty findings.)
    @inline(__always)
    private static func collect(
        _ kind: AskKind, trigger: ShowTrigger?, at index: Int, context: AskContext, policy: Policy, facts: borrowing Facts, now: Int64,
        deviceTimeZone: TimeZone, dayInZone: Bool? = nil, into found: inout Findings
    ) {
        // The run only reads; what it finds goes to `found`, as plain values.
        // The policy and the zone are passed to each step, not held by the run: borrowed, not retained.
        let run = Run(index: index, now: now, dayInZone: dayInZone)
        switch kind {
        case .show:
            let trigger = trigger ?? (policy.storage.placementLimits[index].format == .appOpen ? .resume : .action)
            run.showReasons(policy.storage, trigger: trigger, context: context, isOffer: false, facts, zone: deviceTimeZone, &found)
        case .offer:
            run.showReasons(policy.storage, trigger: .action, context: context, isOffer: true, facts, zone: deviceTimeZone, &found)
        case .load: run.loadReasons(policy.storage, context: context, facts, &found)
        case .reward: run.rewardReasons(policy.storage, facts, &found)
        }
    }

    /// The decision on a placement the policy does not have.
    static func unknownPlacement(_ ask: Ask, _ policy: Policy) -> Decision {
        Decision(ask: ask, reasons: [Reason(
            code: .unknownPlacement,
            message: "placement \"\(ask.placement)\" is not in the policy (\(Article.counted(policy.storage.placements.count, "placement")))")], nextAllowedAt: nil)
    }

    /// Decides an ask with the time as a `Date`.
    public static func decide(
        _ ask: Ask, context: AskContext = .standard, policy: Policy, facts: borrowing Facts, now: Date,
        deviceTimeZone: TimeZone = .autoupdatingCurrent
    ) -> Decision {
        decide(ask, context: context, policy: policy, facts: facts, now: Milliseconds.from(now), deviceTimeZone: deviceTimeZone)
    }
}

/// Conversions between `Date` and milliseconds since 1970.
package enum Milliseconds {
    /// The largest time the engine handles: about 73 million years either side of 1970, so that neither adding or
    /// subtracting any duration a policy can hold nor the difference of two times (a clock that read -infinity,
    /// then +infinity) overflows.
    package static let limit: Int64 = 1 << 61

    /// A millisecond time clamped to ±``limit``.
    package static func clamped(_ ms: Int64) -> Int64 { Swift.min(Swift.max(ms, -limit), limit) }

    /// Milliseconds since 1970 of a date, clamped to ±``limit`` (a NaN date reads as 0).
    package static func from(_ date: Date) -> Int64 {
        let ms = date.timeIntervalSince1970 * 1000
        guard !ms.isNaN else { return 0 }
        if ms >= Double(limit) { return limit }
        if ms <= -Double(limit) { return -limit }
        // Rounded to the nearest, halves away from zero, as `rounded()` rounds, in integers: `rounded()` is a call of
        // libm's `round` on x86-64 (about 20 of the 1,750 instructions an `AdEngine.ask` takes, each reading the clock).
        // Within ±2^61 the whole part converts exactly, and so does the difference.
        let whole = Int64(ms)
        let fraction = ms - Double(whole)
        if fraction >= 0.5 { return whole + 1 }
        if fraction <= -0.5 { return whole - 1 }
        return whole
    }
    /// The date of a millisecond count.
    package static func date(_ ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }
}

/// One evaluation: the placement asked about and the time. The steps collect reasons, in the documented order,
/// into ``Findings``.
///
/// A run holds plain values only. The policy, the facts and the device's zone come in as parameters of each
/// step and are read in place (the placement's settings through `policy.placementLimits[index]`), so a decision
/// neither copies nor retains them.
struct Run {
    let index: Int
    let now: Int64
    /// Whether the facts' cached day (``Facts/day``) was worked out in the zone caps count in, when the caller vouches for it
    /// (the engine, which keeps it so); nil when each step that reads the day compares the zones itself.
    var dayInZone: Bool? = nil

    /// Whether `day` (the facts' cached day) was worked out in the zone caps count in.
    func isInZone(_ day: LocalDay, _ policy: PolicyStorage, zone: TimeZone) -> Bool {
        dayInZone ?? (day.zone == (policy.namedZoneID ?? zone.identifier))
    }

    /// A recorded time, never later than now (a clock set back never grants a show).
    func seen(_ t: Int64) -> Int64 { t > now ? now : t }

    /// A site of the placement asked about.
    func site(_ text: ReasonSite.Text, at setting: ReasonSite.Setting) -> ReasonSite {
        ReasonSite(text, at: setting, placement: index)
    }

    /// Denies with a reason about the placement asked about.
    func deny(_ code: ReasonCode, _ text: ReasonSite.Text, at setting: ReasonSite.Setting, clearsAt: Int64? = nil, _ found: inout Findings) {
        deny(code, site(text, at: setting), clearsAt: clearsAt, &found)
    }

    func deny(_ code: ReasonCode, _ site: ReasonSite, clearsAt: Int64? = nil, _ found: inout Findings) {
        found.deny(Denial(code: code, site: site, clearsAt: clearsAt))
    }
}
