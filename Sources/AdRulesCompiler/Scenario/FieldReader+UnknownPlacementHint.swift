import AdRules
import AdRulesYAML

extension FieldReader {
    /// "Did you mean" for a placement a scenario names and the policy does not have, searched once for each name (a
    /// step copied by aliases names it again at the same place), and not past a report's worth of findings, which
    /// are only counted.
    mutating func unknownPlacementHint(_ id: String, policy: Policy) -> String? {
        if let hint = placementHints[id] { return hint }
        guard hasRoom else { return nil }
        let hint = Diagnostic.unknownPlacementHint(id, known: policy.placementIDs)
        placementHints[id] = hint
        return hint
    }
}
