import AdRules
import AdRulesImpact

/// The texts of a report as a terminal or a page may show them: paths, names and messages come from command lines,
/// files and (for `merge`) parts from anywhere, so a line break or an escape code in one is shown escaped before a
/// table measures its width, and no name can start a line of its own or color a terminal.
extension ImpactReport {
    func withPrintableTexts() -> ImpactReport {
        let p = ControlCharacters.escaped
        func location(_ l: ImpactLocation?) -> ImpactLocation? { l.map { ImpactLocation(file: p($0.file), line: $0.line, column: $0.column) } }
        var report = self
        report.model = p(model)
        report.start = p(start)
        report.segments = segments.map(p)
        report.changes = changes.map { c in
            PolicyChange(
                kind: c.kind, subject: p(c.subject), setting: p(c.setting), old: c.old.map(p), new: c.new.map(p),
                oldLocation: location(c.oldLocation), newLocation: location(c.newLocation))
        }
        for r in report.results.indices {
            report.results[r].policy = p(report.results[r].policy)
            for k in report.results[r].placements.indices {
                report.results[r].placements[k].id = p(report.results[r].placements[k].id)
                report.results[r].placements[k].format = p(report.results[r].placements[k].format)
            }
            for s in report.results[r].segments.indices {
                for k in report.results[r].segments[s].placements.indices {
                    for d in report.results[r].segments[s].placements[k].denials.indices {
                        report.results[r].segments[s].placements[k].denials[d].message = p(report.results[r].segments[s].placements[k].denials[d].message)
                        report.results[r].segments[s].placements[k].denials[d].location = location(report.results[r].segments[s].placements[k].denials[d].location)
                    }
                }
            }
        }
        return report
    }
}
