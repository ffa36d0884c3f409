import AdRules
import AdRulesImpact

/// The charts of the html page, in inline SVG: impressions per user-day, and the most frequent deny reasons (all of
/// them in a table below the chart when there are more).
extension ImpactHTML {
    /// Bars of the share of user-days with k impressions, one bar per policy for each k.
    static func histogram(_ columns: [PlacementFigures]) -> String {
        let width = 420.0, height = 210.0, left = 40.0, bottom = 28.0, top = 10.0, right = 8.0
        let maxK = max(1, columns.map { $0.counters.histogram.count - 1 }.max() ?? 1)
        let shares = columns.map { figures in (0...maxK).map { k in k < figures.counters.histogram.count && figures.userDays > 0 ? Double(figures.counters.histogram[k]) / Double(figures.userDays) : 0 } }
        let peak = max(0.01, shares.flatMap { $0 }.max() ?? 0.01)
        let tick = niceStep(peak / 4)
        let yMax = (peak / tick).rounded(.up) * tick
        let plotW = width - left - right, plotH = height - top - bottom
        var svg = "<svg viewBox=\"0 0 \(n(width)) \(n(height))\" width=\"\(n(width))\" height=\"\(n(height))\" role=\"img\" aria-label=\"histogram of impressions per user per day\">\n"
        var y = 0.0
        while y <= yMax + tick / 2 {
            let py = top + plotH - y / yMax * plotH
            svg += "<line x1=\"\(n(left))\" x2=\"\(n(width - right))\" y1=\"\(n(py))\" y2=\"\(n(py))\" stroke=\"#e3e6eb\"/>"
            svg += "<text x=\"\(n(left - 4))\" y=\"\(n(py + 4))\" text-anchor=\"end\">\(ImpactFormat.fixed(y * 100, tick < 0.01 ? 1 : 0))%</text>\n"
            y += tick
        }
        let slot = plotW / Double(maxK + 1)
        let barW = max(1, slot * 0.8 / Double(columns.count))
        for (p, series) in shares.enumerated() {
            let color = columns.count == 2 ? colors[p] : single
            for (k, share) in series.enumerated() where share > 0 {
                let h = share / yMax * plotH
                let x = left + Double(k) * slot + slot * 0.1 + Double(p) * barW
                svg += "<rect x=\"\(n(x))\" y=\"\(n(top + plotH - h))\" width=\"\(n(barW))\" height=\"\(n(max(h, 0.5)))\" fill=\"\(color)\"><title>\(k) impressions: \(ImpactFormat.percent(columns[p].counters.histogram[k], of: columns[p].userDays)) of user-days</title></rect>\n"
            }
        }
        let labelEvery = max(1, Int((Double(maxK + 1) / 14).rounded(.up)))
        for k in stride(from: 0, through: maxK, by: labelEvery) {
            svg += "<text x=\"\(n(left + (Double(k) + 0.5) * slot))\" y=\"\(n(height - bottom + 14))\" text-anchor=\"middle\">\(k)</text>"
        }
        svg += "\n<text x=\"\(n(left + plotW / 2))\" y=\"\(n(height - 2))\" text-anchor=\"middle\">impressions per user-day</text>\n"
        return svg + "</svg>\n"
    }

    /// Horizontal bars of the most frequent deny reasons, each with the YAML location behind it.
    static func denials(_ columns: [PlacementFigures]) -> String {
        let all = PlacementFigures.denialRows(columns)
        let rows = Array(all.prefix(8))
        guard !rows.isEmpty else { return "<p class=\"sub\">No show or offer was denied.</p>\n" }
        let comparing = columns.count == 2
        let rowH = comparing ? 36.0 : 30.0, width = 440.0, labelW = 160.0, valueW = 58.0
        let height = Double(rows.count) * rowH + 4
        let peak = Double(max(1, rows.flatMap(\.counts).max() ?? 1))
        var svg = "<svg viewBox=\"0 0 \(n(width)) \(n(height))\" width=\"\(n(width))\" height=\"\(n(height))\" role=\"img\" aria-label=\"deny reasons\">\n"
        for (r, row) in rows.enumerated() {
            let y = Double(r) * rowH + 2
            // A custom rule's bars are told apart by the rule's message (a screenshot has no tooltips), cut to the label's
            // width of 26 characters, code included.
            if row.showsMessage {
                let cut = ControlCharacters.cut(row.message, limit: 25 - row.code.rawValue.count)
                svg += "<text x=\"0\" y=\"\(n(y + 11))\"><title>\(escape(ControlCharacters.escaped(row.message)))</title>\(row.code.rawValue) \(escape(cut))</text>"
            } else {
                svg += "<text x=\"0\" y=\"\(n(y + 11))\">\(row.code.rawValue)</text>"
            }
            if let location = row.location {
                let whole = "\(location.file):\(location.line):\(location.column)"
                svg += "<text x=\"0\" y=\"\(n(y + 23))\" font-size=\"9.5\" fill=\"#8a94a6\"><title>\(escape(whole))</title>\(escape(locationLabel(ControlCharacters.escaped(whole))))</text>"
            }
            let barH = comparing ? 13.0 : 18.0
            for (p, count) in row.counts.enumerated() {
                let w = Double(count) / peak * (width - labelW - valueW)
                let by = y + Double(p) * (barH + 2)
                var title = "\(row.code.rawValue): \(ImpactFormat.count(count))"
                if row.showsMessage { title += " (\(row.message))" }
                svg += "<rect x=\"\(n(labelW))\" y=\"\(n(by))\" width=\"\(n(count > 0 ? max(w, 1) : 0))\" height=\"\(n(barH))\" fill=\"\(comparing ? colors[p] : single)\"><title>\(escape(title))</title></rect>"
                svg += "<text x=\"\(n(labelW + w + 4))\" y=\"\(n(by + barH - 3))\">\(ImpactFormat.count(count))</text>"
            }
            svg += "\n"
        }
        return svg + "</svg>\n" + (all.count > rows.count ? denialTable(all, policies: columns.count) : "")
    }

    /// Every deny reason, when the chart shows only the most frequent: a table that opens on a click, so that a reason
    /// past the chart's eight is still on the page (as in the text and json reports).
    static func denialTable(_ rows: [DenialRow], policies: Int) -> String {
        var out = "<details>\n<summary>All \(rows.count) deny reasons</summary>\n<table>\n<tr><th>reason</th><th>where</th>"
        out += String(repeating: "<th class=\"n\">count</th>", count: policies) + "</tr>\n"
        for row in rows {
            let location = row.location.map { escape(ControlCharacters.escaped("\($0.file):\($0.line):\($0.column)")) } ?? ""
            let message = row.showsMessage ? " " + escape(row.message) : ""
            out += "<tr><td><code>\(row.code.rawValue)</code>\(message)</td><td class=\"loc\">\(location)</td>"
            out += row.counts.map { "<td class=\"n\">\(ImpactFormat.count($0))</td>" }.joined() + "</tr>\n"
        }
        return out + "</table>\n</details>\n"
    }
}
