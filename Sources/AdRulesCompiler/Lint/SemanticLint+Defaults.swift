import AdRules
import AdRulesYAML

extension SemanticLint {
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
}
