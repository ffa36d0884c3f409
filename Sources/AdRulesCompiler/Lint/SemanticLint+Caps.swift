import AdRules
import AdRulesYAML

extension SemanticLint {
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
