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

    /// A cap compared with the others of its block: `hourly_cap` as a window of an hour, `daily_cap` as one calendar day,
    /// or a `caps` window. Its name is made only for a finding (a window's length is written out, `the cap of 3 in 30m`).
    struct CapWindow {
        enum Kind { case hourly, daily, rolling }
        let kind: Kind
        let window: RuleDuration
        let max: Int
        let location: SourceLocation

        var isCalendarDay: Bool { kind == .daily }

        var name: String {
            switch kind {
            case .hourly: return "hourly_cap \(max)"
            case .daily: return "daily_cap \(max)"
            case .rolling: return "the cap of \(max) in \(window)"
            }
        }
    }

    /// A placement's caps and interval as written, with their places: what its cap findings depend on.
    struct CapsWritten: Hashable {
        let pacing: Located<RuleDuration>?
        let dailyCap: Located<Int>?
        let hourlyCap: Located<Int>?
        let sessionCap: Located<Int>?
        let caps: [Located<WindowCap>]
        let zeroCaps: Bool

        init(_ block: borrowing some Pacing, zeroCaps: Bool) {
            (dailyCap, hourlyCap, sessionCap, caps) = (block.dailyCap, block.hourlyCap, block.sessionCap, block.caps)
            // The interval is read only beside a daily cap; a placement's built-in 0s is placed at the placement, and
            // would set every placement apart.
            pacing = block.dailyCap == nil ? nil : block.pacing
            self.zeroCaps = zeroCaps
        }

        /// Where a placement's caps come from, which says whether another placement may hold the same ones.
        enum Source {
            /// No cap: no cap finding.
            case none
            /// At least one value written on the placement itself (or its built-in interval, placed at it): no other
            /// placement holds the same caps, written in the same places.
            case own
            /// Every value from `defaults:`: other placements may hold the same ones, and their findings are found once.
            case defaults
        }

        /// Where `p`'s caps (and the interval beside a daily cap) come from: a placement's own values set it apart at
        /// once, so that only caps all taken from `defaults:` are compared with the others (a set of 50,000 placements'
        /// caps hashed every location of each).
        static func source(of p: borrowing Placement, defaultsWritten: Set<SourceLocation>) -> Source {
            let hasCaps = p.dailyCap != nil || p.hourlyCap != nil || p.sessionCap != nil || !p.caps.isEmpty
            guard hasCaps else { return .none }
            guard !defaultsWritten.isEmpty else { return .own }
            func isOwn(_ location: SourceLocation?) -> Bool { location.map { !defaultsWritten.contains($0) } ?? false }
            if isOwn(p.dailyCap?.location) || isOwn(p.hourlyCap?.location) || isOwn(p.sessionCap?.location) { return .own }
            if p.dailyCap != nil, isOwn(p.minInterval.location) { return .own }
            return p.caps.contains { isOwn($0.location) } ? .own : .defaults
        }
    }

    /// Findings about a value written in `defaults:`: said once, naming the placements that take the value.
    struct DefaultsFindings {
        let defaultsWritten: Set<SourceLocation>
        /// By rule, place and message, in the order first found: the finding, the setting as written, the first five
        /// placements (all a finding names; a policy of 100,000 kept a copy of each) and how many there are.
        private var found: [(finding: Diagnostic, setting: String, placements: [Placement], count: Int)] = []
        private var index: [Key: Int] = [:]

        /// A finding said once: by rule, place and message (one `max_ad_age` in defaults is too long for app_open at
        /// 4h and for the others at 1h, each format named).
        private struct Key: Hashable {
            let rule: String
            let at: SourceLocation
            let message: String
        }

        init(defaultsWritten: Set<SourceLocation>) { self.defaultsWritten = defaultsWritten }

        /// Whether a finding stands at a value written in `defaults:`.
        func isAtDefaults(_ finding: Diagnostic) -> Bool {
            defaultsWritten.contains(SourceLocation(file: finding.file, line: finding.range.start.line, column: finding.range.start.column))
        }

        /// The finding itself when its value is the placement's own; else none, kept to be said once for all the
        /// placements that take the value.
        mutating func add(_ finding: Diagnostic, _ setting: String, of placement: Placement) -> [Diagnostic] {
            guard let entry = entry(for: finding, setting) else { return [finding] }
            count(placement, in: entry)
            return []
        }

        /// The entry that says `finding` once, made on first use; nil for a finding that does not stand in `defaults:`.
        mutating func entry(for finding: Diagnostic, _ setting: String) -> Int? {
            guard isAtDefaults(finding) else { return nil }
            let at = SourceLocation(file: finding.file, line: finding.range.start.line, column: finding.range.start.column)
            let key = Key(rule: finding.rule, at: at, message: finding.message)
            if let i = index[key] { return i }
            index[key] = found.count
            found.append((finding, setting, [], 0))
            return found.count - 1
        }

        /// How many placements a finding names.
        static let namedPlacements = 5

        /// Counts a placement that takes the values of an ``entry(for:_:)``: named when among the first five.
        mutating func count(_ placement: Placement, in entry: Int) {
            if found[entry].placements.count < Self.namedPlacements { found[entry].placements.append(placement) }
            found[entry].count += 1
        }

        /// Each finding kept, naming its placements (the first five, and how many more), with a note at the first three.
        var findings: [Diagnostic] {
            found.map { entry in
                var finding = entry.finding
                let ids = entry.placements.map(\.id)
                let more = entry.count - ids.count
                let last = ids.last ?? ""
                let named = ids.count == 1 ? "placement \(last) takes"
                    : "placements \(ids.dropLast().joined(separator: ", "))\(more > 0 ? ", \(last) and \(more) more" : " and \(last)") take"
                finding.message += " (\(named) \(entry.setting) from defaults\(ids.count == 1 ? "" : "; to change one alone, set it on that placement"))"
                finding.notes += entry.placements.prefix(3).map {
                    DiagnosticNote(message: "placement \($0.id) is defined here", file: $0.location.file, position: SourcePosition(line: $0.location.line, column: $0.location.column))
                }
                return finding
            }
        }
    }

    /// The placement whose caps a finding compares, when one value may be written in `defaults:`.
    struct Owner {
        let placementID: String
        let defaultsWritten: Set<SourceLocation>

        /// The note beside a finding that compares two values, when one is written in `defaults:` and the other on the
        /// placement: the finding alone would not say which placement it is about.
        func notes(comparing flagged: SourceLocation, with other: SourceLocation, _ otherName: String) -> [DiagnosticNote] {
            let otherInDefaults = defaultsWritten.contains(other)
            guard defaultsWritten.contains(flagged) != otherInDefaults else { return [] }
            return [note(otherInDefaults ? "placement \(placementID) takes \(otherName) from defaults here" : "placement \(placementID) sets \(otherName) here", at: other)]
        }

        /// Where a finding that compares two values names the placement: when the flagged value is in `defaults:`
        /// and the other is the placement's own.
        func subject(_ flagged: SourceLocation, _ other: SourceLocation) -> String {
            defaultsWritten.contains(flagged) && !defaultsWritten.contains(other) ? " for placement \(placementID)" : ""
        }

        private func note(_ message: String, at location: SourceLocation) -> DiagnosticNote {
            DiagnosticNote(message: message, file: location.file, position: SourcePosition(line: location.line, column: location.column))
        }
    }

    /// The advice for a cap that binds only below `bound`: lower it, unless only a cap of 0 is below (which allows no
    /// show, `cap/zero`), when the cap is simply not needed. (At `bound` itself it still never binds alone: the
    /// stricter cap denies at the same time.) Below a stricter cap of 0 no show is ever counted: the cap is not
    /// needed, or the 0 is the mistake.
    static func lowerOrRemove(_ name: String, below bound: Int) -> String {
        switch bound {
        case 2...: return "lower \(name) below \(bound) or remove it"
        case 1: return "remove \(name): the only lower cap, 0, allows no show"
        default: return "remove \(name), or raise the cap of 0 if ads should show here (a cap of 0 allows none)"
        }
    }

    /// Caps of 0 and caps that can never bind, of a placement or a group.
    /// - Parameter zeroCaps: whether to report caps of 0 (not for a placement written `enabled: false`).
    ///   - owner: the placement whose caps these are, for findings that compare a value in `defaults:` with its own.
    static func capFindings(_ block: some Pacing, inGroup isGroup: Bool, zeroCaps: Bool = true, of owner: Owner? = nil) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        func subject(_ flagged: SourceLocation, _ other: SourceLocation) -> String { owner?.subject(flagged, other) ?? "" }
        func notes(_ flagged: SourceLocation, _ other: SourceLocation, _ otherName: String) -> [DiagnosticNote] {
            owner?.notes(comparing: flagged, with: other, otherName) ?? []
        }
        /// A cap taken from `defaults:` under the placement's own cap of 0: the placement turned itself off (`cap/zero`
        /// says so), and the shared cap still binds for the others, so removing it is no advice (3,000 placements
        /// written `daily_cap: 0` under four default caps got 12,000 such findings).
        func isOffByItsOwnZero(_ flagged: SourceLocation, below stricter: Int, at other: SourceLocation) -> Bool {
            guard stricter == 0, let owner else { return false }
            return owner.defaultsWritten.contains(flagged) && !owner.defaultsWritten.contains(other)
        }
        if zeroCaps {
            // Each cap in turn, with no list of them built (this runs for every placement with a cap).
            if let cap = block.dailyCap, cap.value == 0 { findings.append(.zeroCap("daily_cap", at: cap.location, inGroup: isGroup)) }
            if let cap = block.hourlyCap, cap.value == 0 { findings.append(.zeroCap("hourly_cap", at: cap.location, inGroup: isGroup)) }
            if let cap = block.sessionCap, cap.value == 0 { findings.append(.zeroCap("session_cap", at: cap.location, inGroup: isGroup)) }
            for cap in block.caps where cap.value.max == 0 { findings.append(.zeroCap("max", at: cap.location, inGroup: isGroup)) }
        }
        // cli.md's formulas as written: a daily cap of 0 is stricter than any other cap too (`cap/zero` also says it
        // allows no show). A cap of 0 itself does bind (it denies every show), and is `cap/zero`'s alone.
        if let daily = block.dailyCap {
            if let hourly = block.hourlyCap, hourly.value > 0, hourly.value >= daily.value,
                !isOffByItsOwnZero(hourly.location, below: daily.value, at: daily.location)
            {
                findings.append(.unreachable(
                    at: hourly.location, "hourly_cap \(hourly.value) can never bind\(subject(hourly.location, daily.location)): daily_cap is \(daily.value), so an hour never holds more shows than that; \(lowerOrRemove("hourly_cap", below: daily.value))",
                    notes: notes(hourly.location, daily.location, "daily_cap \(daily.value)")))
            }
            if let session = block.sessionCap, session.value > 0, session.value >= daily.value,
                !isOffByItsOwnZero(session.location, below: daily.value, at: daily.location)
            {
                findings.append(.unreachable(
                    at: session.location, "session_cap \(session.value) can never bind\(subject(session.location, daily.location)): daily_cap is \(daily.value); \(lowerOrRemove("session_cap", below: daily.value))",
                    notes: notes(session.location, daily.location, "daily_cap \(daily.value)")))
            }
            // Caps and durations come from the file: multiply without trapping on overflow.
            if let interval = block.pacing, interval.value.milliseconds > 0,
                exceedsOneDay(Int64(daily.value), shows: interval.value.milliseconds)
            {
                // The spec's bound is the rate, 1d / min_interval shows a day (one day may hold one more than its whole
                // part, the next then one fewer); the advice is the largest cap the rule accepts.
                let day = RuleDuration.days(1).milliseconds
                let accepted = day / interval.value.milliseconds
                let rate = day % interval.value.milliseconds == 0 ? "\(accepted)" : String(format: "%.1f", (Double(day) / Double(interval.value.milliseconds) * 10).rounded(.down) / 10)
                // Lowering a cap to 0 turns the placement off: with pacing of a day or more, the cap is simply not needed.
                let advice = accepted == 0 ? "min_interval \(interval.value) already spaces shows more than a day apart; remove daily_cap" : "min_interval \(interval.value) allows \(rate) \(rate == "1" ? "show" : "shows") a day (1d / \(interval.value)); lower daily_cap to \(accepted) or remove it"
                findings.append(.unreachable(
                    at: daily.location, "daily_cap \(daily.value) can never bind\(subject(daily.location, interval.location)): \(advice)",
                    notes: notes(daily.location, interval.location, "min_interval \(interval.value)")))
            }
        }
        // Rolling windows: a window's cap larger than a longer (or as long) window's cap never binds (cli.md: "a window
        // cap larger than a longer window's cap"; an equal cap is left alone, as the spec's wording says).
        for cap in block.caps where cap.value.window.milliseconds == 0 && cap.value.max > 0 {
            findings.append(.unreachable(at: cap.location, "the cap of \(cap.value.max) in 0s can never bind: a window of 0s holds no show; give it a length, as in window: 1h, or remove it"))
        }
        // `daily_cap` counts as a window of a day here, as `hourly_cap` counts as one of an hour: a shorter window's
        // larger cap never binds, and neither does a daily cap larger than a longer window's. A calendar day is not a
        // rolling window of 1d, though (5 shows late in one day and 3 early the next are 8 in 24 hours): a rolling
        // window is compared with `daily_cap` only when one is strictly longer, as the spec words it.
        // One window is stricter than another only when there are two: most blocks have one cap or none, and are done.
        let windowCount = (block.hourlyCap == nil ? 0 : 1) + (block.dailyCap == nil ? 0 : 1) + block.caps.count { $0.value.window.milliseconds > 0 }
        guard windowCount >= 2 else { return findings }
        var windows: [CapWindow] = []
        if let hourly = block.hourlyCap { windows.append(CapWindow(kind: .hourly, window: .hours(1), max: hourly.value, location: hourly.location)) }
        if let daily = block.dailyCap { windows.append(CapWindow(kind: .daily, window: .days(1), max: daily.value, location: daily.location)) }
        for cap in block.caps where cap.value.window.milliseconds > 0 {
            windows.append(CapWindow(kind: .rolling, window: cap.value.window, max: cap.value.max, location: cap.location))
        }
        let flagged = Set(findings.map(\.range.start))
        for (i, shorter) in windows.enumerated() where shorter.max > 0 && !flagged.contains(SourcePosition(line: shorter.location.line, column: shorter.location.column)) {
            // The strictest of the caps over a window at least as long: lowering below it is what makes this one bind.
            let stricter = windows.indices.filter { j in
                let covers = windows[j].isCalendarDay == shorter.isCalendarDay ? windows[j].window >= shorter.window : windows[j].window > shorter.window
                return j != i && covers && windows[j].max < shorter.max
            }
            if let j = stricter.min(by: { windows[$0].max < windows[$1].max }),
                !isOffByItsOwnZero(shorter.location, below: windows[j].max, at: windows[j].location)
            {
                let longer = windows[j]
                findings.append(.unreachable(
                    at: shorter.location, "\(shorter.name) can never bind\(subject(shorter.location, longer.location)): \(longer.name) is stricter over a window at least as long; \(lowerOrRemove("it", below: longer.max))",
                    notes: notes(shorter.location, longer.location, longer.name)))
            }
        }
        return findings
    }
}

/// Whether `count` shows spaced `interval` ms apart take longer than a day, without overflowing.
func exceedsOneDay(_ count: Int64, shows interval: Int64) -> Bool {
    let (product, overflow) = count.multipliedReportingOverflow(by: interval)
    return overflow || product > RuleDuration.days(1).milliseconds
}
