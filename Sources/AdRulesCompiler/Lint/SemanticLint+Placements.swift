import AdRules
import AdRulesYAML

extension SemanticLint {
    /// The findings about each placement's own settings, gathered one placement at a time: its caps, what its format
    /// asks of it, its ad unit and its pacing.
    struct PlacementChecks {
        let policy: Policy
        let unread: Set<String>
        let defaultsWritten: Set<SourceLocation>
        private(set) var findings: [Diagnostic] = []
        /// The first placement with each ad unit. Sized once, as a table grown by doubling rehashes its entries each
        /// time.
        private var firstAdUnit: [String: Located<String>] = [:]
        /// Placements whose caps come from `defaults` hold the same caps, written in the same places: their findings,
        /// reported where the caps are written, are found and listed once (10,000 placements under 64 default windows
        /// compared the windows pairwise for each, 5.6 s; with 63 of them unreachable, 100,000 placements listed 6.3
        /// million findings and crashed). Only placements whose caps all come from `defaults:` go in
        /// (`CapsWritten.source`): not sized for them all. Each holds the findings' entries in ``fromDefaults``, which
        /// name the placements that take those caps: a finding says which placements it is about, as another placement
        /// may set its own interval, under which the same cap binds.
        private var capsChecked: [CapsWritten: [Int]] = [:]
        /// The findings about values written in `defaults:`, said once for the placements that take them.
        private(set) var fromDefaults: DefaultsFindings

        init(policy: Policy, unread: Set<String>, defaultsWritten: Set<SourceLocation>) {
            self.policy = policy
            self.unread = unread
            self.defaultsWritten = defaultsWritten
            fromDefaults = DefaultsFindings(defaultsWritten: defaultsWritten)
            firstAdUnit.reserveCapacity(policy.placements.count)
        }

        /// The findings about one placement's own settings.
        /// - Parameter index: the placement's index in the policy; nil for one left out.
        mutating func check(_ p: Placement, at index: Int?) {
            let isLeftOut = index == nil
            checkCaps(p, isLeftOut: isLeftOut)
            checkFormat(p, isLeftOut: isLeftOut)
            checkAdUnit(p, isLeftOut: isLeftOut)
            // `pacing/missing`, which a placement's groups decide: not for one left out.
            guard let index else { return }
            let format = p.format.value
            let paced = p.isPaced || policy.groupsOfPlacement[index].contains { policy.groups[$0].isPaced }
            if (format == .appOpen || format == .interstitial), p.enabled.value, !paced, !unread.contains(p.id) {
                findings.append(.pacingMissing(p))
            }
        }

        /// A finding about `p`: one about a value from `defaults:` is one finding naming the placements that take it;
        /// a placement left out is not one of them (it would name the placement kept twice).
        private mutating func add(_ finding: Diagnostic, _ setting: String, of p: Placement, isLeftOut: Bool) {
            if !isLeftOut {
                findings += fromDefaults.add(finding, setting, of: p)
            } else if !fromDefaults.isAtDefaults(finding) {
                findings.append(finding)
            }
        }

        /// Caps of 0 and caps that can never bind. A cap of 0 on a placement written `enabled: false` only repeats it
        /// (a `defaults` cap of 0 is reported for the placements it turns off, with the advice to write enabled: false).
        private mutating func checkCaps(_ p: Placement, isLeftOut: Bool) {
            switch CapsWritten.source(of: p, defaultsWritten: defaultsWritten) {
            case .none: break
            case .own:
                // A finding that compares a value in `defaults:` with the placement's own names the placement (and has a
                // note at the other value); one about `defaults:` values alone is said once, naming the placements.
                for finding in capFindings(p, inGroup: false, zeroCaps: p.enabled.value, of: Owner(placementID: p.id, defaultsWritten: defaultsWritten)) {
                    if finding.notes.isEmpty { add(finding, valuesTaken(by: finding), of: p, isLeftOut: isLeftOut) } else { findings.append(finding) }
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
                        if let entry = fromDefaults.entry(for: finding, valuesTaken(by: finding)) { kept.append(entry) } else { findings.append(finding) }
                    }
                    entries = kept
                    capsChecked[written] = entries
                }
                for entry in entries { fromDefaults.count(p, in: entry) }
            }
        }

        /// What the placement's format asks of it: a rewarded ad after a choice, no deferred app-open show, an ad no older
        /// than the format's limit.
        private mutating func checkFormat(_ p: Placement, isLeftOut: Bool) {
            let format = p.format.value
            if format == .rewarded, !p.requireUserChoice.value {
                add(.rewardedWithoutChoice(p.requireUserChoice.location), "require_user_choice: false", of: p, isLeftOut: isLeftOut)
            }
            if format == .appOpen, p.allowDeferred.value {
                add(.deferredShow(p.allowDeferred.location), "allow_deferred: true", of: p, isLeftOut: isLeftOut)
            }
            let limit: RuleDuration = format == .appOpen ? .hours(4) : .hours(1)
            if p.maxAdAge.value > limit {
                add(.expiryTooLong(p.maxAdAge, format: format, limit: limit), "max_ad_age \(p.maxAdAge.value)", of: p, isLeftOut: isLeftOut)
            }
        }

        /// A test ad unit in production, and an ad unit another placement has (not for one left out, which a later
        /// placement may share: told once its id is fixed).
        private mutating func checkAdUnit(_ p: Placement, isLeftOut: Bool) {
            guard let unit = p.adUnit else { return }
            let key = TestAdUnits.asTheNetworkReadsIt(unit.value)
            let testNetwork = TestAdUnits.network(of: key)
            if policy.environment == .production, let network = testNetwork {
                findings.append(.testAdUnit(unit, network: network))
            }
            // An empty ad unit (or one of spaces) names none, and a network's test ids are shared by design (one per format).
            if !key.isEmpty, testNetwork == nil, !isLeftOut {
                if let first = firstAdUnit[key] {
                    findings.append(.duplicateAdUnit(unit, first: first))
                } else {
                    firstAdUnit[key] = unit
                }
            }
        }
    }
}
