import AdRulesYAML

extension Array where Element == Diagnostic {
    /// These diagnostics without the schema findings at the place of an alias or a tag: an alias stands for nothing
    /// there, and a tag changes how a value would be read, so a type error at the same place only repeats it.
    package func withoutRepeatsOfAliasesAndTags() -> [Diagnostic] {
        let aliasPositions = Set(filter { $0.rule == "yaml/alias" || $0.rule == "yaml/tag" }.map(\.location))
        guard !aliasPositions.isEmpty else { return self }
        return filter { !($0.rule.hasPrefix("schema/") && aliasPositions.contains($0.location)) }
    }
}
