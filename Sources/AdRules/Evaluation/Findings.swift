import Foundation

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
        // Most asks leave nothing to empty, and the rest a handful.
        denials.emptyFromTheEnd()
        if details != nil { details = nil }
        notes.emptyFromTheEnd()
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
        // Room for the usual handful of reasons at once, rather than growing one by one (storage reused from an
        // earlier ask already has it).
        if denials.capacity == 0 { denials.reserveCapacity(8) }
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
