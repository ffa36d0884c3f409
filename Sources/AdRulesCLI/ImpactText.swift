import AdRules
import AdRulesImpact

/// The `text` format of `adrules impact`: the policies' differences, one table per placement (one value column per
/// policy, and the change when comparing), impressions by segment at a glance, then every table again per segment.
enum ImpactText {
    static func render(_ report: ImpactReport) -> String {
        let report = report.withPrintableTexts()
        var out = "Impact preview: \(report.model), \(ImpactFormat.population(report))\n"
        if let shard = report.shard { out += "Partial result of shard \(shard) (merge the shards with `adrules impact merge`)\n" }
        let comparing = report.results.count == 2
        if comparing {
            out += "\nPolicy changes from \(report.results[0].policy) to \(report.results[1].policy):\n"
            if report.changes.isEmpty { out += "  none: the policies mean the same\n" }
            var rows: [[String]] = []
            for change in report.changes {
                let line = ImpactFormat.change(change)
                rows.append([line.what, line.values, line.locations])
            }
            out += table(rows, rightAligned: [], indent: "  ", maxWidth: maxColumnWidth)
            if report.moreChanges > 0 { out += "  \(ImpactFormat.moreChanges(report.moreChanges))\n" }
        }
        out += placementTables(report, report.results.map { PlacementFigures.all($0) })
        out += segments(report)
        // Every figure per segment too (impact.md: per placement, per segment and in total), side by side with the
        // change when comparing.
        if let first = report.results.first, report.segments.count > 1 {
            for (s, name) in report.segments.enumerated() where s < first.segments.count {
                out += "\nSegment \(name) (\(ImpactFormat.users(first.segments[s].users))):\n"
                // A segment no user drew has no figures: zeros would read as users who see no ad.
                guard first.segments[s].users > 0 else {
                    out += "  \(ImpactFormat.noUsers)\n"
                    continue
                }
                out += placementTables(report, report.results.map { PlacementFigures.all($0, segment: s) })
            }
        }
        return out
    }

    /// One table per placement: a value column per policy, and the change when comparing.
    /// - Parameter figures: per policy, the figures of its placements (in total, or of one segment).
    static func placementTables(_ report: ImpactReport, _ figures: [[PlacementFigures]]) -> String {
        var out = ""
        for present in PlacementFigures.byID(figures) {
            let columns = present.map(\.figures)
            let names = present.map { ImpactFormat.columnName(report.results[$0.policy].policy) }
            let placement = PlacementFigures.described(columns)
            // A placement the change adds or removes is shown for the one policy that has it.
            let only = report.results.count == 2 && columns.count == 1 ? " only in \(names[0])" : ""
            // Columns side by side only for a placement both policies have.
            let comparing = columns.count == 2
            var rows: [[String]] = [["\(placement.id) (\(PlacementFigures.formatLabel(columns)))\(only)"] + names + (comparing ? ["change", ""] : [""])]
            func row(_ label: String, _ values: [String], change: String?, note: String = "") {
                rows.append([label] + values + (comparing ? [change ?? "", note] : [note]))
            }
            func counts(_ label: String, _ value: (PlacementFigures) -> Int, note: String = "") {
                let values = columns.map(value)
                row(label, values.map(ImpactFormat.count), change: values.count == 2 ? ImpactFormat.signed(Double(values[1] - values[0]), 0) : nil, note: note)
            }
            // The change is the difference of the means as shown, each rounded once from its exact fraction.
            let means = columns.map { $0.summary.mean(places: 2) }
            row("  impressions per user per day: mean", means.map { ImpactFormat.fixed($0, 2) }, change: means.count == 2 ? ImpactFormat.change(from: means[0], to: means[1], 2) : nil)
            counts("    p50", { $0.summary.p50 })
            counts("    p90", { $0.summary.p90 })
            counts("    p99", { $0.summary.p99 })
            counts("    max", { $0.summary.max })
            counts("  impressions", { $0.counters.impressions })
            let caps = CapKind.allCases.filter { cap in columns.contains { $0.placement.caps.contains(cap) } }
            for cap in caps {
                let shares = PlacementFigures.capRow(cap, columns)
                row("  user-days that reached \(cap.code.rawValue)", shares.values, change: shares.change)
            }
            counts("  wasted loads", { $0.counters.wastedLoads }, note: "of \(columns.map { ImpactFormat.count($0.counters.loadsCompleted) }.joined(separator: " / ")) loaded")
            if columns.contains(where: \.hasRewardedFigures) {
                counts("  rewarded offers shown", { $0.counters.offers })
                counts("    accepted", { $0.counters.accepted })
                counts("    rewards granted", { $0.counters.granted })
            }
            let denials = PlacementFigures.denialRows(columns)
            if !denials.isEmpty { row("  deny reasons (show and offer asks)", columns.map { _ in "" }, change: "") }
            for denial in denials {
                let note = (denial.location?.description ?? "") + (denial.showsMessage ? "  \(denial.message)" : "")
                row("    \(denial.code.rawValue)", denial.counts.map(ImpactFormat.count),
                    change: comparing ? ImpactFormat.signed(Double(denial.counts[1] - denial.counts[0]), 0) : nil, note: note)
            }
            out += "\n" + table(rows, rightAligned: Set(1..<(1 + columns.count + (comparing ? 1 : 0))), indent: "", maxWidth: maxFigureColumnWidth)
        }
        return out
    }

    /// Impressions per user per day in each segment: mean, p50, p90, p99 and max per policy.
    static func segments(_ report: ImpactReport) -> String {
        guard let first = report.results.first, !first.segments.isEmpty else { return "" }
        let out = "\nImpressions per user per day by segment (mean p50 p90 p99 max):\n"
        var header = ["segment", "placement"]
        for result in report.results { header += [result.policy, "", "", "", ""] }
        // Comparing, the change of the mean closes each row, as in the placement tables.
        let comparing = report.results.count == 2
        if comparing { header.append("change of mean") }
        var rows: [[String]] = [header]
        // A segment no user drew has a row of dashes, and the reason under the table (in the row, it would widen
        // the placement column of every row).
        var empty: [String] = []
        for (s, name) in report.segments.enumerated() where s < first.segments.count {
            guard first.segments[s].users > 0 else {
                rows.append(["\(name) (\(ImpactFormat.users(0)))", "-"])
                empty.append(name)
                continue
            }
            let perPolicy = report.results.map { PlacementFigures.all($0, segment: s) }
            for (k, present) in PlacementFigures.byID(perPolicy).enumerated() {
                var row = [k == 0 ? "\(name) (\(ImpactFormat.users(first.segments[s].users)))" : "", present[0].figures.placement.id]
                var means: [Double] = []
                for p in report.results.indices {
                    // A policy without the placement has no figures for it.
                    guard let summary = present.first(where: { $0.policy == p })?.figures.summary else {
                        row += ["-", "", "", "", ""]
                        continue
                    }
                    means.append(summary.mean(places: 2))
                    row += [ImpactFormat.fixed(means[means.count - 1], 2), String(summary.p50), String(summary.p90), String(summary.p99), String(summary.max)]
                }
                if comparing { row.append(means.count == 2 ? ImpactFormat.change(from: means[0], to: means[1], 2) : "") }
                rows.append(row)
            }
        }
        let notes = empty.map { "  \($0): \(ImpactFormat.noUsers)\n" }.joined()
        return out + table(rows, rightAligned: Set(2..<(2 + 5 * report.results.count + (comparing ? 1 : 0))), indent: "  ", maxWidth: maxFigureColumnWidth) + notes
    }

    /// The policy changes' columns align to at most this many characters: a longer cell (a change listing thousands
    /// of members) runs past its column rather than widen every row of the table to its length.
    static let maxColumnWidth = 60
    /// The figure tables' columns align to at most this many characters: a placement's title (an id of up to 64
    /// characters and its format) fits, and a long policy path or segment name runs past its column.
    static let maxFigureColumnWidth = 100

    /// Rows as aligned columns; trailing spaces removed. Cells are measured in terminal columns (``TerminalWidth``): a
    /// segment named in Japanese or with an emoji stays aligned.
    /// - Parameter maxWidth: the widest a column is aligned to (longer cells run past it), nil for no limit.
    static func table(_ rows: [[String]], rightAligned: Set<Int>, indent: String, maxWidth: Int? = nil) -> String {
        let columns = rows.map(\.count).max() ?? 0
        let cellWidths = rows.map { row in row.map(TerminalWidth.of) }
        let widths = (0..<columns).map { c in min(maxWidth ?? .max, cellWidths.map { c < $0.count ? $0[c] : 0 }.max() ?? 0) }
        var out = ""
        for (r, row) in rows.enumerated() {
            var cells: [String] = []
            for c in 0..<columns {
                let cell = c < row.count ? row[c] : ""
                let pad = String(repeating: " ", count: max(0, widths[c] - (c < row.count ? cellWidths[r][c] : 0)))
                cells.append(rightAligned.contains(c) ? pad + cell : cell + pad)
            }
            var line = indent + cells.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            out += line + "\n"
        }
        return out
    }
}
