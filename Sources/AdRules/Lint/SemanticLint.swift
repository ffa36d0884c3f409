import AdRulesYAML

/// The lint rules that know ads: caps that never bind, unpaced placements, policy violations, test ids.
enum SemanticLint {
    static func run(_ policy: Policy, skipping broken: Set<String>) -> [Diagnostic] {
        []
    }
}
