import AdRulesYAML

/// A finding inside a `when` expression, at a code point offset of its text.
struct ExpressionFinding: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case syntax
        case unknownName
        case type
        /// A comparison of well-typed operands that a built-in's values make pointless (`now.hour == 24`,
        /// `now.weekday == "Sun"`, `now.weekday < "wed"`): the condition runs as written, so it is a warning.
        case builtInValue
    }

    var kind: Kind
    var offset: Int
    var message: String

    var rule: String {
        switch kind {
        case .syntax: return "rule/syntax"
        case .unknownName: return "rule/unknown-name"
        case .type: return "rule/type"
        case .builtInValue: return "rule/built-in-value"
        }
    }

    /// Every kind is an error but ``Kind/builtInValue``: the spec's `rule/type` is for operands of different types,
    /// and a comparison of one type is a condition the runtime runs.
    var severity: Severity { kind == .builtInValue ? .warning : .error }
}
