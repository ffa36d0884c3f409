import AdRules
import AdRulesYAML

/// The bound on the work of a scenario file's asks: each `show` or `offer` evaluates the rules of its placement.
extension ScenarioDecoder {
    /// The most rule steps (``Policy/ruleWork(ofPlacement:)`` for each `show` and `offer`) the tests of one file may take: a few seconds. A 35 KB
    /// file of asks against a 14 MB policy of 10,000 rules of 128 comparisons each ran for over 20 s.
    static let maxWork = 200_000_000

    /// An error at the first ask past ``maxWork``: the file's tests do not run. Only `show` and `offer` asks read rules.
    static func boundWork(of scenario: Scenario, policy: Policy, reader: inout FieldReader) {
        var work: [String: Int] = [:]
        var total = 0
        for test in scenario.tests {
            for step in test.steps {
                guard case .ask(let ask, _, _) = step.action, ask.kind == .show || ask.kind == .offer else { continue }
                total += work[ask.placement] ?? {
                    let cost = policy.ruleWork(ofPlacement: ask.placement)
                    work[ask.placement] = cost
                    return cost
                }()
                guard total > maxWork else { continue }
                reader.report(.tooMuchRuleWork(limit: maxWork, file: reader.file, range: SourceRange(at: SourcePosition(line: step.location.line, column: step.location.column))))
                return
            }
        }
    }
}
