import AdRules
import Foundation
import AdRulesYAML

/// Parses, type-checks and compiles a `when` expression against the declared attributes.
enum ExpressionCompiler {
    enum Outcome {
        case success(CompiledExpression)
        case failure([ExpressionFinding])
    }

    /// The "did you mean" suggestions the conditions of one policy get for unknown names; the names past them are
    /// reported without one. Each looks at every declared attribute: a 16 MB file of conditions full of unknown names
    /// against 1,000 attributes ran over a minute. A file prints 1,000 diagnostics at most.
    static let maxSuggestions = 1_000

    /// One condition on its own, with the whole budget of suggestions.
    static func compile(_ source: String, attributes: [AttributeDeclaration], broken: Set<String> = []) -> Outcome {
        var suggestionsLeft = maxSuggestions
        return compile(source, attributes: attributes, broken: broken, suggestionsLeft: &suggestionsLeft)
    }

    /// Compiles an expression text.
    /// - Parameters:
    ///   - source: the expression.
    ///   - attributes: declared attributes; a name's slot is its index here.
    ///   - broken: attributes declared with an error already reported: an expression using one fails with no
    ///     finding of its own, rather than calling a declared name unknown.
    ///   - suggestionsLeft: what is left of ``maxSuggestions`` for the policy; each suggestion made counts.
    /// - Returns: the compiled expression, or every finding (none when only a broken attribute stood in the way).
    static func compile(
        _ source: String, attributes: [AttributeDeclaration], broken: Set<String> = [], suggestionsLeft: inout Int
    ) -> Outcome {
        compileWithWarnings(source, attributes: attributes, broken: broken, suggestionsLeft: &suggestionsLeft).outcome
    }

    /// Compiles an expression text, with the warnings of one that compiles (``ExpressionFinding/Kind/builtInValue``).
    /// A failure's findings hold its warnings too.
    static func compileWithWarnings(
        _ source: String, attributes: [AttributeDeclaration], broken: Set<String> = [], suggestionsLeft: inout Int
    ) -> (outcome: Outcome, warnings: [ExpressionFinding]) {
        let syntax: Syntax
        switch Parser.parse(source) {
        case .failure(let error):
            return (.failure([ExpressionFinding(kind: .syntax, offset: error.offset, message: error.message)]), [])
        case .success(let parsed): syntax = parsed
        }
        var checker = ExpressionChecker(attributes: attributes, broken: broken)
        checker.suggestionsLeft = suggestionsLeft
        defer { suggestionsLeft = checker.suggestionsLeft }
        let typed = checker.check(syntax)
        let warnings = checker.findings.filter { $0.severity == .warning }
        guard let typed, warnings.count == checker.findings.count else { return (.failure(checker.findings), []) }
        if typed.type != .bool {
            return (.failure(warnings + [ExpressionFinding(
                kind: .type, offset: syntax.offset,
                message: "the condition is \(typed.type.rawValue), not bool (true or false): compare it, as in \(comparisonExample(source, typed.type))")]), [])
        }
        return (.success(typed.code), warnings)
    }

    /// The condition as written, compared as its type compares: what a condition that is no bool is told to write.
    static func comparisonExample(_ source: String, _ type: ValueType) -> String {
        let written = YAMLScalar.shortened(source.trimmingCharacters(in: .whitespacesAndNewlines))
        switch type {
        case .int, .number: return "`\(written) > 0`"
        case .duration: return "`\(written) > 10m`"
        case .stringList: return "`\"home\" in \(written)`"
        case .intList: return "`1 in \(written)`"
        case .string, .bool: return "`\(written) == \"home\"`"
        }
    }
}
