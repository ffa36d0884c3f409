import AdRulesYAML

extension Array where Element == Diagnostic {
    /// These diagnostics without the schema findings at the place of an alias or a tag: an alias stands for nothing
    /// there, and a tag changes how a value would be read, so a type error at the same place only repeats it.
    package func withoutRepeatsOfAliasesAndTags() -> [Diagnostic] {
        let aliasPositions = Set(filter { $0.rule == "yaml/alias" || $0.rule == "yaml/tag" }.map(\.location))
        guard !aliasPositions.isEmpty else { return self }
        return filter { !($0.rule.hasPrefix("schema/") && aliasPositions.contains($0.location)) }
    }

    /// These diagnostics without the "not nothing (null)" type finding of a key that is repeated (`placements:` written
    /// twice, the first with nothing under it): the repeat's `yaml/duplicate-key`, whose note is at that key, says what
    /// to do with both lines, and the empty value is the same slip.
    package func withoutEmptyValuesOfRepeatedKeys() -> [Diagnostic] {
        let repeatedAt = Set(filter { $0.rule == "yaml/duplicate-key" }.compactMap { $0.notes.first.map { "\($0.file):\($0.position.line)" } })
        guard !repeatedAt.isEmpty else { return self }
        return filter { !($0.rule == "schema/type" && $0.message.contains(", not \(YAMLNode.nullDescription)") && repeatedAt.contains("\($0.file):\($0.range.start.line)")) }
    }
}
