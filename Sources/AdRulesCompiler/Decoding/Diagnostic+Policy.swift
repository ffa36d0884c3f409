import AdRules
import AdRulesYAML

/// Messages of the `policy/*` rules, of an empty `deny`, and of the findings in a rule's `when` (`rule/*`).
extension Diagnostic {
    static func emptyDeny(file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/type",
            message: "deny is empty, so the rule would deny nothing: name placement ids, as in deny: [interstitial_level_end], or write deny: \"*\" for all",
            file: file, range: range)
    }

    static func emptyDenyList(file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/type",
            message: "deny is an empty list, so the rule would deny nothing: list placement ids, as in deny: [interstitial_level_end], or write deny: \"*\" for all",
            file: file, range: range)
    }

    static func duplicateID(_ kind: String, id: String, file: String, range: SourceRange, first: SourceLocation) -> Diagnostic {
        Diagnostic(
            .error, rule: "policy/duplicate-id",
            message: "\(kind) \"\(id)\" is defined twice (first at \(first)): rename or remove one of them",
            file: file, range: range,
            notes: [DiagnosticNote(message: "\(kind) \"\(id)\" is first defined here", file: first.file, position: SourcePosition(line: first.line, column: first.column))])
    }

    static func conflictingSetting(_ key: String, value: String, other: String, file: String, range: SourceRange, first: SourceLocation) -> Diagnostic {
        Diagnostic(
            .error, rule: "policy/conflicting-setting",
            message: "\(key) is \(value) here but \(other) at \(first): one policy has one \(key); make the values equal or keep it in one file",
            file: file, range: range,
            notes: [DiagnosticNote(message: "\(key) is first set here", file: first.file, position: SourcePosition(line: first.line, column: first.column))])
    }

    /// - Parameters:
    ///   - isGroup: `id` is a group's: the advice is to name its placements.
    ///   - allowsEvery: `"*"` may stand there (a rule's `deny`): a word for every placement (`all`) is advised to be it.
    private static let wordsForEvery: Set<String> = ["all", "any", "every", "everything", "all placements", "every placement", "“*”", "‘*’"]

    ///   - renamed: the placement `id` resembles, where it is defined, and how many entries name `id` (none naming it):
    ///     its id may be what changed, and the advice says so, with a note at it.
    ///   - closest: the defined id closest to `id` (``Suggestion/closest(to:in:)`` of `known`), found once by the caller.
    static func unknownPlacement(
        _ id: String, in context: String, known: [String], closest: String?, isGroup: Bool = false, allowsEvery: Bool = false,
        renamed: (id: String, at: SourceLocation, count: Int)? = nil, file: String, range: SourceRange
    ) -> Diagnostic {
        // `placements: ["*"]` or `[all]` in a group: "*" stands for every placement in a rule's deny only, and "define
        // it under `placements`" (or "did you mean" the one short id) was no advice.
        if !allowsEvery, id == "*" || wordsForEvery.contains(id.lowercased()) {
            let example = known.count >= 2 ? known.prefix(2).joined(separator: ", ") : "level_end, app_open"
            return Diagnostic(
                .error, rule: "policy/unknown-placement",
                message: "\(context) names placement \"\(id)\", which is not defined: a group lists its placements by id (\"*\" for every "
                    + "placement stands only in a rule's deny): list them, as in placements: [\(example)]",
                file: file, range: range)
        }
        if let renamed {
            return Diagnostic(
                .error, rule: "policy/unknown-placement",
                message: "\(context) names placement \"\(id)\", which is not defined: \(Suggestion.didYouMean(renamed.id, for: id)) "
                    + "\(renamed.count) entries name \(id) and none \(renamed.id): if \(id) is the id meant, rename the placement \(renamed.id) instead",
                file: file, range: range,
                notes: [DiagnosticNote(
                    message: "placement \(renamed.id) is defined here", file: renamed.at.file,
                    position: SourcePosition(line: renamed.at.line, column: renamed.at.column))])
        }
        var message = "\(context) names placement \"\(id)\", which is not defined"
        if isGroup {
            message += ": \"\(id)\" is a group, and only placements may be named here: list the group's placements instead"
        } else if allowsEvery, wordsForEvery.contains(id.lowercased()) {
            message += ": to deny every placement, write \"*\" in straight quotes, as in deny: \"*\""
        } else if case let words = id.split(whereSeparator: { $0 == " " || $0 == ";" }), words.count > 1, words.allSatisfy({ known.contains(String($0)) }) {
            // `[app_open level_end]`: one item, as YAML reads a list with no commas.
            message += ": the items of a list are separated by commas: write [\(words.joined(separator: ", "))]"
        } else if id.contains(","), case let words = id.split(whereSeparator: { $0 == " " || $0 == "," }), words.count > 1,
            words.contains(where: { known.contains(String($0)) })
        {
            // `deny: "a, b"`: a text with commas, where a list was meant.
            message += ": a list is written in brackets, not as one text: write [\(words.joined(separator: ", "))]"
        } else if let suggestion = closest {
            message += ": " + Suggestion.didYouMean(suggestion, for: id)
        } else {
            message += ": define it under `placements`, or remove it here"
        }
        return Diagnostic(.error, rule: "policy/unknown-placement", message: message, file: file, range: range)
    }

    static func formatKey(_ key: String, format: AdFormat, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "policy/format-key",
            message: "\(key) applies only to app_open placements, and this one is \(format.rawValue): remove \(key)",
            file: file, range: range)
    }

    static func emptyPolicy(file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .warning, rule: "policy/empty",
            message: "the policy has no placements, so every ask is denied unknown_placement: add placements under `placements`",
            file: file, range: range)
    }

    static func expression(_ finding: ExpressionFinding, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(finding.severity, rule: finding.rule, message: finding.message, file: file, range: range)
    }
}
