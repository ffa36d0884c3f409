import AdRules
import AdRulesYAML

/// The bound on the work of a scenario file's steps: each `show` or `offer` evaluates the rules and caps of its
/// placement, and each `show_started` fills the histories of the placement and its groups.
extension ScenarioDecoder {
    /// The most rule steps (``Policy/ruleWork(listLength:)`` for each `show` and `offer`, ``Policy/showWork(ofPlacement:)``
    /// for each `show_started`) the tests of one file may take: a few seconds. A 35 KB file of asks against a 14 MB policy of 10,000 rules of 128 comparisons each ran
    /// for over 20 s.
    static let maxWork = 200_000_000

    /// An error at the first step past ``maxWork``: the file's tests do not run. `show` and `offer` asks read the rules
    /// and caps of their placement, with the lists the file's contexts give (or the attributes' defaults);
    /// `show_started` fills the histories of the placement and its groups.
    static func boundWork(of scenario: Scenario, policy: Policy, reader: inout FieldReader) {
        var longest: [String: Int] = [:]
        func note(_ attributes: [String: AttributeValue]) {
            for (name, value) in attributes {
                switch value {
                case .stringList(let list): longest[name] = max(longest[name] ?? 0, list.count)
                case .intList(let list): longest[name] = max(longest[name] ?? 0, list.count)
                default: break
                }
            }
        }
        note(Dictionary(policy.attributes.compactMap { a in a.defaultValue.map { (a.name, $0) } }, uniquingKeysWith: { first, _ in first }))
        for test in scenario.tests {
            note(test.context.attributes)
            for step in test.steps {
                if case .ask(_, let context?, _) = step.action { note(context.attributes) }
            }
        }
        let cost = policy.ruleWork { min(longest[$0] ?? 0, PolicyLimits.maxListItems) }
        var costs: [Int: Int] = [:]
        var total = 0
        var showCosts: [Int: Int] = [:]
        for test in scenario.tests {
            for step in test.steps {
                let placement: String
                let perStep: Int
                switch step.action {
                case .ask(let ask, _, _) where ask.kind == .show || ask.kind == .offer:
                    guard let slot = policy.placementID(ask.placement).map({ Int($0.slot) }) else { continue }
                    (placement, perStep) = (ask.placement, costs[slot] ?? cost(slot))
                    costs[slot] = perStep
                case .event(.showStarted(let id)):
                    // Recording a show fills the histories of the placement and its groups.
                    guard let slot = policy.placementID(id.rawValue).map({ Int($0.slot) }) else { continue }
                    (placement, perStep) = (id.rawValue, showCosts[slot] ?? policy.showWork(ofPlacement: slot))
                    showCosts[slot] = perStep
                default: continue
                }
                total += perStep
                guard total > maxWork else { continue }
                reader.report(.tooMuchRuleWork(
                    limit: maxWork, perStep: perStep, placement: placement, file: reader.file,
                    range: SourceRange(at: SourcePosition(line: step.location.line, column: step.location.column))))
                return
            }
        }
    }
}
