import AdRules
import AdRulesYAML

/// The lint rules that know ads: caps that never bind, unpaced placements, policy violations, test ids.
///
/// They read the resolved policy, so a value set in `defaults` is checked where it applies and
/// reported where it is written.
enum SemanticLint {
    /// - Parameter unread: placements with a setting that could not be read (in them or in `defaults`). Every check
    ///   runs on them too (cli.md: lint prints every diagnostic), since an unread value only takes a finding away;
    ///   all but `pacing/missing`, which an unread cap or interval would set off wrongly.
    /// - Parameter defaultsWritten: where the values of `defaults:` are written. A finding placed there, or comparing a
    ///   value there with one a placement writes, names the placement it is about.
    /// - Parameter leftOut: placements and groups left out of the policy because another file defined their id first:
    ///   each is checked on its own too, so that lint prints every finding at once. Not for pacing, which a placement's
    ///   groups decide; not for what it takes from `defaults:`, which is reported at the placement kept; and not for
    ///   its ad unit, which another placement later in the files may share (told once the id is fixed).
    static func run(
        _ policy: Policy, withUnreadSettings unread: Set<String>, defaultsWritten: Set<SourceLocation> = [],
        leftOut: (placements: [Placement], groups: [PlacementGroup]) = ([], [])
    ) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        // Sized once, as a table grown by doubling rehashes its entries each time.
        var firstAdUnit: [String: Located<String>] = [:]
        firstAdUnit.reserveCapacity(policy.placements.count)
        // Placements whose caps come from `defaults` hold the same caps, written in the same places: their findings,
        // reported where the caps are written, are found and listed once (10,000 placements under 64 default windows
        // compared the windows pairwise for each, 5.6 s; with 63 of them unreachable, 100,000 placements listed 6.3
        // million findings and crashed).
        // Only placements whose caps all come from `defaults:` go in (`CapsWritten.source`): not sized for them all.
        // Each holds the findings' entries in `fromDefaults`, which name the placements that take those caps: a finding
        // says which placements it is about, as another placement may set its own interval, under which the same cap
        // binds.
        var capsChecked: [CapsWritten: [Int]] = [:]
        var fromDefaults = DefaultsFindings(defaultsWritten: defaultsWritten)
        /// The findings about one placement's own settings.
        /// - Parameter index: the placement's index in the policy; nil for one left out.
        func check(_ p: Placement, at index: Int?) {
            let isLeftOut = index == nil
            // A value from `defaults:` is one finding naming the placements that take it; a placement left out is not
            // one of them (it would name the placement kept twice).
            func add(_ finding: Diagnostic, _ setting: String) {
                if !isLeftOut {
                    findings += fromDefaults.add(finding, setting, of: p)
                } else if !fromDefaults.isAtDefaults(finding) {
                    findings.append(finding)
                }
            }
            let format = p.format.value
            // A cap of 0 on a placement written `enabled: false` only repeats it (a `defaults` cap of 0 is reported for
            // the placements it turns off, with the advice to write enabled: false).
            switch CapsWritten.source(of: p, defaultsWritten: defaultsWritten) {
            case .none: break
            case .own:
                // A finding that compares a value in `defaults:` with the placement's own names the placement (and has a
                // note at the other value); one about `defaults:` values alone is said once, naming the placements.
                for finding in capFindings(p, inGroup: false, zeroCaps: p.enabled.value, of: Owner(placementID: p.id, defaultsWritten: defaultsWritten)) {
                    if finding.notes.isEmpty { add(finding, Self.valuesTaken(by: finding)) } else { findings.append(finding) }
                }
            case .defaults:
                // Reported at the placement kept, never for one left out.
                guard !isLeftOut else { break }
                let written = CapsWritten(p, zeroCaps: p.enabled.value)
                let entries: [Int]
                if let known = capsChecked[written] {
                    entries = known
                } else {
                    let found = capFindings(p, inGroup: false, zeroCaps: p.enabled.value, of: Owner(placementID: p.id, defaultsWritten: defaultsWritten))
                    var kept: [Int] = []
                    for finding in found {
                        // All of these values stand in `defaults:`; a finding placed elsewhere would be said once, as is.
                        if let entry = fromDefaults.entry(for: finding, Self.valuesTaken(by: finding)) { kept.append(entry) } else { findings.append(finding) }
                    }
                    entries = kept
                    capsChecked[written] = entries
                }
                for entry in entries { fromDefaults.count(p, in: entry) }
            }
            if format == .rewarded, !p.requireUserChoice.value {
                add(.rewardedWithoutChoice(p.requireUserChoice.location), "require_user_choice: false")
            }
            if format == .appOpen, p.allowDeferred.value {
                add(.deferredShow(p.allowDeferred.location), "allow_deferred: true")
            }
            let limit: RuleDuration = format == .appOpen ? .hours(4) : .hours(1)
            if p.maxAdAge.value > limit {
                add(.expiryTooLong(p.maxAdAge, format: format, limit: limit), "max_ad_age \(p.maxAdAge.value)")
            }
            if let unit = p.adUnit {
                let testNetwork = TestAdUnits.network(of: unit.value)
                if policy.environment == .production, let network = testNetwork {
                    findings.append(.testAdUnit(unit, network: network))
                }
                // An empty ad unit names none, and a network's test ids are shared by design (one per format).
                if !unit.value.isEmpty, testNetwork == nil, !isLeftOut {
                    if let first = firstAdUnit[unit.value] {
                        findings.append(.duplicateAdUnit(unit, first: first))
                    } else {
                        firstAdUnit[unit.value] = unit
                    }
                }
            }
            // `pacing/missing`, which a placement's groups decide: not for one left out.
            guard let index else { return }
            let paced = p.isPaced || policy.groupsOfPlacement[index].contains { policy.groups[$0].isPaced }
            if (format == .appOpen || format == .interstitial), p.enabled.value, !paced, !unread.contains(p.id) {
                findings.append(.pacingMissing(p))
            }
        }
        // Indexed, each placement passed once: `enumerated()` or a second call copied it once more (a copy retains and
        // releases each setting's file).
        let placements = policy.placements
        for index in placements.indices { check(placements[index], at: index) }
        for p in leftOut.placements { check(p, at: nil) }
        findings += fromDefaults.findings
        // A name listed twice that is no placement has its policy/unknown-placement findings already.
        let placementIDs = Set(policy.placements.map(\.id))
        for group in policy.groups + leftOut.groups {
            findings += capFindings(group, inGroup: true)
            findings += repeatedPlacements(group.placements, of: placementIDs, in: .group(group.id))
        }
        for rule in policy.rules {
            guard let deny = rule.deny else { continue }
            findings += repeatedPlacements(deny, of: placementIDs, in: .rule(rule.id))
        }
        // What an app's loader of compiled policies refuses, lint refuses, at the group whose records pass the bound.
        let groupRecords = policy.groupRecords
        if let g = groupRecords.firstPastBound {
            let at = policy.groups[g].location
            findings.append(.tooManyGroupRecords(policy, total: groupRecords.total, at: at))
        }
        return findings
    }

    /// What a placement takes from `defaults:`, as a cap finding placed there names it: the cap of 0, or the values a
    /// finding compares.
    static func valuesTaken(by finding: Diagnostic) -> String {
        finding.rule == "cap/zero" ? "this cap" : "these values"
    }

    /// Each placement a group or a rule's `deny` lists more than once: one finding, at its second listing, however
    /// many times it is listed (a list of 100,000 repeats is one finding, not 100,000).
    static func repeatedPlacements(_ members: [Located<String>], of placementIDs: Set<String>, in list: Diagnostic.PlacementList) -> [Diagnostic] {
        var listings: [String: (first: Located<String>, second: Located<String>?, count: Int)] = [:]
        var repeated: [String] = []
        for member in members where placementIDs.contains(member.value) {
            if var seen = listings[member.value] {
                if seen.second == nil {
                    seen.second = member
                    repeated.append(member.value)
                }
                seen.count += 1
                listings[member.value] = seen
            } else {
                listings[member.value] = (member, nil, 1)
            }
        }
        return repeated.compactMap { id in
            guard let seen = listings[id], let second = seen.second else { return nil }
            return .repeatedPlacement(second, first: seen.first, times: seen.count, in: list)
        }
    }
}
