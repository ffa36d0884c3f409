import AdRules
import AdRulesYAML

/// Messages about attributes: names a policy may not declare, and names a context or a usage model gives that the
/// policy does not declare.
extension Diagnostic {
    /// `premium` under `attributes:`: the premium flag (a scenario's context) or share (a usage model's segment) is
    /// written beside them, and no policy may declare an attribute of that name.
    /// - Parameter value: the flag written, for a scenario's advice.
    package static func premiumAsAttribute(inModel: Bool, value: Bool = true, file: String, range: SourceRange) -> Diagnostic {
        let belongs = inModel
            ? "premium is the segment's share of premium users, not an attribute: write it beside `attributes:`, as in premium: 0.05"
            : "premium is the context's own flag, not an attribute: write it beside `attributes:`, as in context: {premium: \(value)}"
        return unknownKey("premium", in: "attributes", allowed: [], file: file, range: range, belongsIn: belongs)
    }

    /// An attribute a scenario's context or a usage model gives that the policy does not declare: no rule reads it,
    /// so the test or the preview would show something other than its author meant (a typo, most often). A warning:
    /// the step or the play still runs.
    /// - Parameter rule: `scenario/unknown-attribute` or `model/unknown-attribute`.
    /// - Parameter searched: whether "did you mean" was searched for among `declared`; past a file's first names it is not
    ///   (each search reads every declared name), and a typo is then not told to declare itself.
    package static func undeclaredAttribute(
        _ name: String, declared: [String], searched: Bool = true, rule: String, file: String, range: SourceRange
    ) -> Diagnostic {
        var message = "attribute \"\(name)\" is not declared by the policy, so no rule reads it"
        if !searched {
            message += ": check its spelling against the policy's `attributes`, declare it there, or remove it here"
        } else if let suggestion = Suggestion.closest(to: name, in: declared) {
            message += ": " + Suggestion.didYouMean(suggestion, for: name)
        } else if !PolicyIDs.isValidAttributeName(name) {
            message += ", and no rule file may declare it (an ASCII letter or _, then ASCII letters, digits, _ or .; not a keyword): remove it here"
        } else {
            message += ": declare it under `attributes` in a rule file, or remove it here"
        }
        return Diagnostic(.warning, rule: rule, message: message, file: file, range: range)
    }

    static func badAttributeName(_ name: String, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "attribute name \(ControlCharacters.quoted(name)) is not valid: \(PolicyIDs.attributeNameProblem(name))",
            file: file, range: range)
    }
}
