import AdRules
import AdRulesImpact

/// The `html` format of `adrules impact`: one self-contained page (inline CSS and SVG, no script, no
/// network) with, per placement, the figures, a histogram of impressions per user per day and the
/// deny reasons as bars; with `--compare`, old and new side by side after the policy changes.
enum ImpactHTML {
    static let colors = ["#7f8fb0", "#e8743b"]
    static let single = "#3f6fb5"

    static func render(_ report: ImpactReport) -> String {
        let comparing = report.results.count == 2
        let names = report.results.map(\.policy)
        var body = "<header>\n<h1>Impact preview</h1>\n"
        body += "<p class=\"sub\">\(escape(report.model)) · \(escape(ImpactFormat.population(report)))"
        body += comparing ? "" : " · policy <code>\(escape(names.first ?? ""))</code>"
        body += "</p>\n"
        if let shard = report.shard { body += "<p class=\"warn\">Partial result of shard \(shard): merge the shards with <code>adrules impact merge</code>.</p>\n" }
        if comparing {
            body += "<p class=\"legend\">" + names.enumerated().map { i, name in
                "<span class=\"swatch\" style=\"background:\(colors[i])\"></span>\(i == 0 ? "old" : "new"): <code>\(escape(name))</code>"
            }.joined(separator: " &nbsp; ") + "</p>\n"
        }
        body += "</header>\n"
        if comparing { body += changes(report) }
        let figures = report.results.map { PlacementFigures.all($0) }
        for present in PlacementFigures.byID(figures) {
            // A placement the change adds or removes is shown for the one policy that has it.
            body += placement(present.map(\.figures), names: present.map { ImpactFormat.columnName(names[$0.policy]) }, onlyIn: comparing && present.count == 1)
        }
        body += segments(report)
        body += segmentDetails(report)
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Impact preview: \(escape(names.joined(separator: " → ")))</title>
            <style>
            \(style)
            </style>
            </head>
            <body>
            \(body)<footer>Written by <code>adrules impact</code>. Impressions are shows that did not fail; a cap is reached on a user-day when it was full at some moment that day (an impression left as many shows as it allows, or it denied a show or offer); deny reasons count show and offer asks.</footer>
            </body>
            </html>

            """
    }

    static let style = """
        body{font:15px/1.45 -apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1d2430;background:#f6f7f9;margin:0;padding:24px 32px 40px}
        h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;margin:0 0 12px}h2 small{font-weight:normal;color:#667085;font-size:14px;margin-left:6px}
        .sub{color:#4a5565;margin:0 0 6px}.legend{margin:4px 0 0}.warn{color:#a04100}
        .swatch{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:5px;vertical-align:-1px}
        section{background:#fff;border:1px solid #e3e6eb;border-radius:8px;padding:18px 20px;margin:18px 0}
        .grid{display:grid;grid-template-columns:auto minmax(320px,1.2fr) minmax(320px,1.2fr);gap:24px;align-items:start}
        table.figures td,table.figures th{white-space:nowrap}td.first,th.first{border-left:2px solid #e3e6eb}
        @media (max-width:1200px){.grid{grid-template-columns:1fr 1fr}}
        table{border-collapse:collapse;font-size:14px}td,th{padding:3px 8px;text-align:left;border-bottom:1px solid #eef0f3;vertical-align:top}
        th{font-weight:600;color:#4a5565}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
        td.up{color:#b42318}td.down{color:#067647}.loc{color:#667085;font-size:12px;font-family:ui-monospace,Menlo,Consolas,monospace}
        figure{margin:0}figcaption{font-weight:600;color:#4a5565;font-size:14px;margin-bottom:6px}
        svg{display:block;max-width:100%;height:auto}svg text{font:11px -apple-system,"Segoe UI",Roboto,Arial,sans-serif;fill:#4a5565}
        code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}
        footer{color:#667085;font-size:13px;margin-top:24px}
        details{margin:12px 0}summary{cursor:pointer;font-size:16px;padding:6px 0}
        """

    // MARK: sections

    static func changes(_ report: ImpactReport) -> String {
        var out = "<section>\n<h2>Policy changes <small>\(escape(report.results[0].policy)) → \(escape(report.results[1].policy))</small></h2>\n"
        if report.changes.isEmpty { return out + "<p>None: the two policies mean the same.</p>\n</section>\n" }
        out += "<table>\n<tr><th>setting</th><th>change</th><th>where (old → new)</th></tr>\n"
        for change in report.changes {
            let line = ImpactFormat.change(change)
            out += "<tr><td>\(escape(line.what))</td><td>\(escape(line.values))</td><td class=\"loc\">\(escape(line.locations))</td></tr>\n"
        }
        out += "</table>\n"
        if report.moreChanges > 0 { out += "<p>\(escape(ImpactFormat.moreChanges(report.moreChanges)))</p>\n" }
        return out + "</section>\n"
    }

    static func placement(_ columns: [PlacementFigures], names: [String], onlyIn: Bool = false) -> String {
        let placement = PlacementFigures.described(columns)
        let only = onlyIn ? " · only in \(escape(names[0]))" : ""
        var out = "<section>\n<h2>\(escape(placement.id))<small>\(escape(PlacementFigures.formatLabel(columns)))\(only)</small></h2>\n<div class=\"grid\">\n"
        out += figuresTable(columns, names: names)
        out += "<figure><figcaption>Impressions per user per day (share of user-days)</figcaption>\n\(histogram(columns))</figure>\n"
        out += "<figure><figcaption>Deny reasons of show and offer asks</figcaption>\n\(denials(columns))</figure>\n"
        return out + "</div>\n</section>\n"
    }

    static func figuresTable(_ columns: [PlacementFigures], names: [String]) -> String {
        let comparing = columns.count == 2
        var out = "<table class=\"figures\">\n<tr><th></th>" + names.map { "<th class=\"n\">\(escape($0))</th>" }.joined() + (comparing ? "<th class=\"n\">change</th>" : "") + "</tr>\n"
        func row(_ label: String, _ values: [String], _ change: String? = nil, higherIsWorse: Bool = false) {
            out += "<tr><td>\(label)</td>" + values.map { "<td class=\"n\">\(escape($0))</td>" }.joined()
            if comparing, let change {
                let trend = change.hasPrefix("+") ? (higherIsWorse ? " up" : "") : change.hasPrefix("-") ? (higherIsWorse ? " down" : "") : ""
                out += "<td class=\"n\(trend)\">\(escape(change))</td>"
            }
            out += "</tr>\n"
        }
        func counts(_ label: String, _ value: (PlacementFigures) -> Int, higherIsWorse: Bool = false) {
            let values = columns.map(value)
            row(label, values.map(ImpactFormat.count), comparing ? ImpactFormat.signed(Double(values[1] - values[0]), 0) : nil, higherIsWorse: higherIsWorse)
        }
        // The change is the difference of the means as shown, each rounded once from its exact fraction.
        let means = columns.map { $0.summary.mean(places: 2) }
        row("impressions per user-day: mean", means.map { ImpactFormat.fixed($0, 2) }, comparing ? ImpactFormat.change(from: means[0], to: means[1], 2) : nil)
        counts("&nbsp;&nbsp;p50", { $0.summary.p50 })
        counts("&nbsp;&nbsp;p90", { $0.summary.p90 })
        counts("&nbsp;&nbsp;p99", { $0.summary.p99 })
        counts("&nbsp;&nbsp;max", { $0.summary.max })
        counts("impressions", { $0.counters.impressions })
        for cap in CapKind.allCases where columns.contains(where: { $0.placement.caps.contains(cap) }) {
            let shares = PlacementFigures.capRow(cap, columns)
            row("user-days at <code>\(cap.code.rawValue)</code>", shares.values, comparing ? shares.change ?? "" : nil)
        }
        counts("wasted loads", { $0.counters.wastedLoads }, higherIsWorse: true)
        counts("loads completed", { $0.counters.loadsCompleted })
        if columns.contains(where: \.hasRewardedFigures) {
            counts("rewarded offers shown", { $0.counters.offers })
            counts("offers accepted", { $0.counters.accepted })
            counts("rewards granted", { $0.counters.granted })
        }
        return out + "</table>\n"
    }

    /// Impressions per user per day by segment.
    static func segments(_ report: ImpactReport) -> String {
        guard let first = report.results.first, !first.segments.isEmpty else { return "" }
        let comparing = report.results.count == 2
        var out = "<section>\n<h2>By segment <small>impressions per user per day: mean, p50, p90, p99, max</small></h2>\n<table>\n<tr><th>segment</th><th>placement</th>"
        out += report.results.map { "<th class=\"n first\" colspan=\"5\">\(escape($0.policy))</th>" }.joined() + (comparing ? "<th class=\"n\">change of mean</th>" : "") + "</tr>\n"
        for (s, name) in report.segments.enumerated() where s < first.segments.count {
            // A segment no user drew has no figures: zeros would read as users who see no ad.
            guard first.segments[s].users > 0 else {
                out += "<tr><td>\(escape(name)) <span class=\"loc\">\(ImpactFormat.users(0))</span></td><td colspan=\"\(1 + 5 * report.results.count + (comparing ? 1 : 0))\">\(escape(ImpactFormat.noUsers))</td></tr>\n"
                continue
            }
            let perPolicy = report.results.map { PlacementFigures.all($0, segment: s) }
            for (k, present) in PlacementFigures.byID(perPolicy).enumerated() {
                out += "<tr><td>" + (k == 0 ? "\(escape(name)) <span class=\"loc\">\(ImpactFormat.users(first.segments[s].users))</span>" : "") + "</td><td>\(escape(present[0].figures.placement.id))</td>"
                for p in report.results.indices {
                    // A policy without the placement has no figures for it.
                    guard let summary = present.first(where: { $0.policy == p })?.figures.summary else {
                        out += "<td class=\"n first\">-</td>" + String(repeating: "<td></td>", count: 4)
                        continue
                    }
                    let cells = [ImpactFormat.fixed(summary.mean(places: 2), 2), String(summary.p50), String(summary.p90), String(summary.p99), String(summary.max)]
                    out += cells.enumerated().map { i, cell in "<td class=\"n\(i == 0 ? " first" : "")\">\(cell)</td>" }.joined()
                }
                if comparing {
                    out += "<td class=\"n\">" + (present.count == 2 ? ImpactFormat.change(from: present[0].figures.summary.mean(places: 2), to: present[1].figures.summary.mean(places: 2), 2) : "") + "</td>"
                }
                out += "</tr>\n"
            }
        }
        return out + "</table>\n</section>\n"
    }

    /// Every figure per segment (impact.md: per placement, per segment and in total), each segment's placements in a
    /// section that opens on a click (`<details>`, no script).
    static func segmentDetails(_ report: ImpactReport) -> String {
        guard let first = report.results.first, report.segments.count > 1 else { return "" }
        let comparing = report.results.count == 2
        let names = report.results.map(\.policy)
        var out = ""
        for (s, name) in report.segments.enumerated() where s < first.segments.count {
            out += "<details>\n<summary>Segment <strong>\(escape(name))</strong> <span class=\"loc\">\(ImpactFormat.users(first.segments[s].users))</span>: every figure</summary>\n"
            guard first.segments[s].users > 0 else {
                out += "<p>\(escape(ImpactFormat.noUsers))</p>\n</details>\n"
                continue
            }
            for present in PlacementFigures.byID(report.results.map { PlacementFigures.all($0, segment: s) }) {
                out += placement(present.map(\.figures), names: present.map { names[$0.policy] }, onlyIn: comparing && present.count == 1)
            }
            out += "</details>\n"
        }
        return out
    }

    // MARK: helpers

    /// A location as written, for a bar's label: its start cut (…) to the 28 characters the label column has room for
    /// at 9.5 px, so that it ends before the bar, and two files of one name in two folders still read apart where
    /// they fit. The whole location is the label's tooltip.
    static func locationLabel(_ whole: String) -> String {
        guard whole.count > 28 else { return whole }
        return "…" + whole.suffix(27)
    }

    /// 1, 2 or 5 times a power of ten, at least `raw`.
    static func niceStep(_ raw: Double) -> Double {
        var power = 0.0001
        while power * 10 <= raw { power *= 10 }
        for factor in [1.0, 2.0, 5.0, 10.0] where power * factor >= raw { return power * factor }
        return power * 10
    }

    /// An SVG coordinate with one decimal and no grouping.
    static func n(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let magnitude = abs(tenths)
        return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        // Control characters (an escape code, a line break in a name) are shown escaped, never written raw.
        for c in ControlCharacters.escaped(text) {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
