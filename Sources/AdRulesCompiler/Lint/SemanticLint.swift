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
        var checks = PlacementChecks(policy: policy, unread: unread, defaultsWritten: defaultsWritten)
        // Indexed, each placement passed once: `enumerated()` or a second call copied it once more (a copy retains and
        // releases each setting's file).
        let placements = policy.placements
        for index in placements.indices { checks.check(placements[index], at: index) }
        for p in leftOut.placements { checks.check(p, at: nil) }
        var findings = checks.findings + checks.fromDefaults.findings
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
