import AdRules
import AdRulesYAML

/// Messages about scenario files that rule files do not have, in one place.
extension Diagnostic {
    /// `tests:` with an empty list: it tests nothing, as a file without `tests:` does.
    static func noTests(file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/missing-key", message: "tests lists no test: add one, with its name, start and steps",
            file: file, range: range)
    }

    /// The undeclared attribute names past those listed, counted: no name is dropped without a word.
    static func undeclaredAttributesNotListed(_ count: Int, file: String) -> Diagnostic {
        Diagnostic(
            .warning, rule: "scenario/unknown-attribute",
            message: count == 1
                ? "1 more attribute name that the policy does not declare is not listed: declare it, or fix the names listed"
                : "\(count) more attribute names that the policy does not declare are not listed: declare them, or fix the names listed",
            file: file, range: .fileStart)
    }

    /// A context that passes more attributes than a policy may declare.
    static func tooManyContextAttributes(_ count: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "attributes names \(count) attributes; a context holds at most \(PolicyLimits.maxAttributes), as a policy declares at most that many: pass the ones the policy reads",
            file: file, range: range)
    }

    /// `retry_in: none` (or `never`, `nil`, `"null"`): "no retry time" written another way than null.
    static func retryInWordForNull(_ written: YAMLScalar, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/duration",
            message: "retry_in must be a duration such as 4m, or null when the decision has no next allowed time; not \(written.style == .plain ? written.value : "\"\(written.value)\""): write retry_in: null",
            file: file, range: range)
    }
}
