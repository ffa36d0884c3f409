@testable import AdRules
@testable import AdRulesCompiler

/// An attribute declared for a condition test, written at t:1:1.
func declared(_ name: String, _ type: ValueType, default value: AttributeValue? = nil) -> AttributeDeclaration {
    AttributeDeclaration(name: name, location: SourceLocation(file: "t", position: .init(line: 1, column: 1)), type: type, defaultValue: value)
}

/// The findings of a condition: its errors and warnings when it fails, its warnings when it compiles.
func conditionFindings(_ source: String, attributes: [AttributeDeclaration]) -> [ExpressionFinding] {
    var suggestionsLeft = ExpressionCompiler.maxSuggestions
    let (outcome, warnings) = ExpressionCompiler.compileWithWarnings(source, attributes: attributes, suggestionsLeft: &suggestionsLeft)
    if case .failure(let findings) = outcome { return findings }
    return warnings
}
