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

/// One deny reason as the evaluator finds it: plain values, with no reference to the policy. The decision
/// attaches the policy once, and a `Reason` is built from both only when the decision's reasons are read.
struct Denial: Sendable {
    var code: ReasonCode
    var site: ReasonSite
    var clearsAt: Int64?

    func reason(in context: SiteContext) -> Reason {
        Reason(code: code, origin: .site(context, site), clearsAt: clearsAt.map(Milliseconds.date))
    }
}

/// What a run has found so far: the deny reasons, the notes, and the local day once a daily cap needed it. A
/// finding holds no reference to the policy: the policy is attached once, to a decision that denies.
package struct Findings: Sendable {
    var denials: [Denial] = []
    /// Texts some reasons name, by ``ReasonSite/detail``; nil until one does (most decisions name none, and a nil
    /// list costs nothing to drop).
    var details: [String]?
    var notes: [String] = []
    /// The calendar day of now, once a daily cap has needed it (a placement and its groups share it).
    var today: (start: Int64, end: Int64)?

    package init() {}

    /// Empties the findings for the next ask, keeping the storage of the reasons.
    mutating func reset() {
        // Most asks leave nothing to empty: an empty array is left as it is (emptying one takes a generic path).
        if !denials.isEmpty { denials.removeAll(keepingCapacity: true) }
        if details != nil { details = nil }
        if !notes.isEmpty { notes.removeAll(keepingCapacity: true) }
        today = nil
    }

    /// Whether the ask found no reason to deny.
    package var isAllowed: Bool { denials.isEmpty }

    // Each reason by its position, in order, without building the list: what a tool counting millions of reasons
    // reads (the impact preview, which keeps what it needs of a reason by its ``Reason/siteKey``).

    /// How many reasons the ask found.
    package var reasonCount: Int { denials.count }

    /// The code of reason `i`.
    package func code(at i: Int) -> ReasonCode { denials[i].code }

    /// The ``Reason/siteKey`` of reason `i`: equal keys give equal locations, and equal summaries when
    /// ``summaryIsFixed(at:)``.
    package func siteKey(at i: Int) -> Int64? { denials[i].site.key }

    /// Whether the ``Reason/summary`` of reason `i` depends on its site alone.
    package func summaryIsFixed(at i: Int) -> Bool { denials[i].site.summaryIsFixed }

    /// The group (an index into the policy's groups) of reason `i`, for a group's pacing or cap.
    package func group(at i: Int) -> Int? { denials[i].site.group >= 0 ? denials[i].site.group : nil }

    /// Reason `i` in full, as the decision on the same ask gives it.
    package func reason(at i: Int, policy: Policy, deviceTimeZone: TimeZone) -> Reason {
        denials[i].reason(in: siteContext(policy.storage, deviceTimeZone: deviceTimeZone))
    }

    /// What the reasons' messages are rendered from. The device's zone is kept only when a daily cap read the day in
    /// it: its reasons name that day.
    private func siteContext(_ policy: PolicyStorage, deviceTimeZone: TimeZone) -> SiteContext {
        let deviceZone = today != nil && policy.namedZoneID == nil ? deviceTimeZone : nil
        return SiteContext(policy: policy, deviceZone: deviceZone, details: details)
    }

    mutating func deny(_ denial: Denial) {
        // Room for the usual handful of reasons at once, rather than growing one by one.
        if denials.isEmpty { denials.reserveCapacity(8) }
        denials.append(denial)
    }

    /// Orders the group caps' denials from `first` on as the spec's table lists them (session, hourly, daily,
    /// window), keeping the order of the groups for each.
    mutating func sortGroupCaps(from first: Int) {
        sort(from: first) { code in
            switch code {
            case .groupSessionCap: return 0
            case .groupHourlyCap: return 1
            case .groupDailyCap: return 2
            default: return 3
            }
        }
    }

    /// Orders the custom rules' denials from `first` on as the spec's table lists them: every `custom_rule`, then
    /// every `rule_error`, keeping the rules' order for each.
    mutating func sortRuleErrorsLast(from first: Int) {
        sort(from: first) { $0 == .ruleError ? 1 : 0 }
    }

    /// Sorts the denials from `first` on by `rank` of their codes, keeping the order of equal ranks (an insertion
    /// sort: stable, and these are a handful).
    private mutating func sort(from first: Int, by rank: (ReasonCode) -> Int) {
        guard first + 1 < denials.count else { return }
        for i in (first + 1)..<denials.count {
            let denial = denials[i]
            var j = i
            while j > first, rank(denials[j - 1].code) > rank(denial.code) {
                denials[j] = denials[j - 1]
                j -= 1
            }
            denials[j] = denial
        }
    }

    /// Keeps a text a reason names; its index goes into the reason's site.
    @inline(__always)
    mutating func detail(_ text: String) -> Int {
        var list = details.take() ?? []
        list.append(text)
        details = list
        return list.count - 1
    }

    /// The decision on an ask with no reason to deny: its notes, and no reference to the policy.
    consuming func allowed(_ ask: Ask) -> Decision {
        Decision(ask: ask, found: .allowed, nextAllowedAt: nil, notes: notes)
    }

    /// The decision on an ask with reasons to deny: every reason found, and the latest clear time when every reason
    /// is time-based. Kept apart from the allow path, which attaches no policy (and so holds and releases none).
    /// - Parameter deviceTimeZone: the device's zone, for the messages of daily caps counted in it.
    @inline(__always)
    consuming func denial(for ask: Ask, policy: PolicyStorage, deviceTimeZone: TimeZone) -> Decision {
        var next: Int64? = .min
        for denial in denials {
            if let clears = denial.clearsAt, let latest = next {
                next = max(latest, clears)
            } else {
                next = nil
            }
        }
        return Decision(
            ask: ask, found: .sites(siteContext(policy, deviceTimeZone: deviceTimeZone), denials), nextAllowedAt: next.map(Milliseconds.date), notes: notes)
    }
}
