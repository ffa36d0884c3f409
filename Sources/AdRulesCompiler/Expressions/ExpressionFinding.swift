/// A finding inside a `when` expression, at a code point offset of its text.
struct ExpressionFinding: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case syntax
        case unknownName
        case type
    }

    var kind: Kind
    var offset: Int
    var message: String

    var rule: String {
        switch kind {
        case .syntax: return "rule/syntax"
        case .unknownName: return "rule/unknown-name"
        case .type: return "rule/type"
        }
    }
}
