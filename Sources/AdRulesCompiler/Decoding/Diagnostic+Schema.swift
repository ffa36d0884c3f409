import AdRules
import AdRulesYAML

/// Messages of the `schema/*`, `policy/*`, `yaml/ambiguous-bool` and `rule/*` rules, in one place.
extension Diagnostic {
    /// - Parameter advice: what to write instead, when the caller knows better than the expected kind says.
    package static func wrongType(_ key: String, expected: String, found: YAMLNode, file: String, advice: String? = nil) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/type",
            message: "\(key) must be \(expected), not \(found.kindDescription)" + (advice.map { ": " + $0 } ?? Self.advice(expected, found)),
            file: file, range: found.range)
    }

    /// "remove the quotes (3)" for a quoted value that the key takes once unquoted, else nil: the caller, who knows
    /// the key's range, says what it takes (`"3.5"` is no count, `"-3"` no `every_n_actions`).
    package static func unquoting(_ found: YAMLNode, takes: (YAMLScalar) -> Bool) -> String? {
        guard let scalar = found.scalar, !scalar.isNull, scalar.style != .plain else { return nil }
        let unquoted = YAMLScalar(value: scalar.value, style: .plain)
        return takes(unquoted) ? plainly(scalar, unquoted.shortValue) : nil
    }

    /// "write 5" for a plain number that is a whole number written another way (`5.0`, `1e2`, `1_000`) and that the
    /// key takes, else nil.
    package static func wholeNumber(_ found: YAMLNode, takes: (Int) -> Bool) -> String? {
        guard let scalar = found.scalar, scalar.style == .plain, scalar.value.utf8.count <= 40 else { return nil }
        // Underscores between digits are YAML 1.1's, which the 1.2 core schema reads as text.
        let digits = scalar.value.filter { $0 != "_" }
        // What is advised is read back: at most 18 digits, as whole numbers are read (``FieldReader/intValue(_:)``).
        func readable(_ value: Int) -> Bool { String(value).utf8.count <= 18 }
        if digits.count < scalar.value.count, scalar.value.first != "_", scalar.value.last != "_",
            digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits), readable(value), takes(value)
        {
            return "write \(value), with no underscores"
        }
        // Thousands written with commas (`1,000`): the digits alone.
        let groups = scalar.value.split(separator: ",", omittingEmptySubsequences: false)
        if groups.count > 1, (1...3).contains(groups[0].count), groups.dropFirst().allSatisfy({ $0.count == 3 }),
            groups.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), let value = Int(groups.joined()), readable(value), takes(value)
        {
            return "write \(value), with no commas"
        }
        // A count followed by words (`20 per day`, `20/day`, `20#a day`): the count alone, as the key says what it counts.
        let leading = scalar.value.prefix { $0.isASCII && $0.isNumber }
        if !leading.isEmpty, let next = scalar.value.dropFirst(leading.count).first, next == " " || next == "/" || next == "#",
            let value = Int(leading), readable(value), takes(value)
        {
            return "write \(value) alone: the key says what it counts"
        }
        // Only a number a double holds as written (at most 15 significant digits) is told its digits.
        guard scalar.isCoreSchemaNumber, let value = Double(scalar.value), FloatText.significantDigits(scalar.value) <= 15 else { return nil }
        guard let whole = Int(exactly: value) else {
            // A fraction (`20.5`): a count is whole.
            guard value.isFinite, value > 0, value < 1e15, case let down = Int(value.rounded(.down)), takes(down) else { return nil }
            return "a count is whole: write \(down) or \(down + 1)"
        }
        guard readable(whole), takes(whole) else { return nil }
        return "write \(whole)"
    }

    /// How to write a value plainly: without its quotes, or on the key's line rather than as a `>` or `|` block.
    static func plainly(_ scalar: YAMLScalar, _ shown: String) -> String {
        scalar.style == .literal || scalar.style == .folded ? "write \(shown) on the key's line, not as a > or | block" : "remove the quotes (\(shown))"
    }

    /// What to write instead, where the expected kind alone does not say it: a bool in quotes, a bool where text
    /// belongs, a value where a mapping or a list belongs. (A number in quotes: the caller's ``unquoting(_:takes:)``.)
    private static func advice(_ expected: String, _ found: YAMLNode) -> String {
        // `name: #1 test`: the text was read as a comment.
        if found.scalar?.isCommentedOut == true, textKinds.contains(where: { expected.hasPrefix($0) }) {
            return ": a # after a space starts a comment, so the value is empty: quote a text that starts with #, as in \"#1 test\""
        }
        if let scalar = found.scalar, !scalar.isNull {
            let unquoted = YAMLScalar(value: scalar.value, style: .plain)
            if scalar.style != .plain, expected.hasPrefix("a bool") || expected.hasPrefix("true or false"), unquoted.coreSchemaBool != nil {
                return ": " + plainly(scalar, unquoted.shortValue)
            }
            if scalar.coreSchemaBool != nil, expected == "a string" { return ": quote it (\"\(scalar.shortValue)\")" }
        }
        switch expected {
        case "a mapping of keys to values": return ": write key: value pairs, one a line, or {key: value}"
        case "a list": return ": write each item on its own line after - , or [a, b]"
        default: return ""
        }
    }

    /// The expected kinds of values that are texts, which a product manager may start with a #.
    private static let textKinds = ["a string", "a sentence", "a name", "a plain word", "a word", "an expression", "a value"]

    static func tooLong(_ key: String, length: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range", message: "\(key) is \(length) characters long, and at most \(PolicyIDs.maxTextLength) fit: shorten it",
            file: file, range: range)
    }

    static func numberWhereString(_ key: String, value: String, file: String, range: SourceRange) -> Diagnostic {
        let shown = YAMLScalar(value: value, style: .plain).shortValue
        return Diagnostic(
            .error, rule: "schema/type", message: "\(key) must be a string, not the number \(shown): quote it (\"\(shown)\")",
            file: file, range: range)
    }

    /// Also what a usage model's bool attribute gets.
    package static func ambiguousBoolWhereBool(_ key: String, value: String, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "yaml/ambiguous-bool",
            message: "\(key): \"\(value)\" is not a boolean in YAML 1.2: write true or false",
            file: file, range: range)
    }

    /// Also what a usage model's string attribute gets.
    package static func ambiguousBoolInString(_ key: String, value: String, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .warning, rule: "yaml/ambiguous-bool",
            message: "\(key): plain \(value) is read as the string \"\(value)\" here, but many YAML tools read it as a boolean: quote it (\"\(value)\")",
            file: file, range: range)
    }

    package static func malformedDuration(_ key: String, found: YAMLNode, file: String) -> Diagnostic {
        // A list, a mapping, null or a boolean is a value of another type (schema/type), not a duration written
        // wrong (schema/duration: cli.md keeps that for malformed text and bare numbers).
        guard let scalar = found.scalar, !(scalar.style == .plain && (scalar.isNull || scalar.coreSchemaBool != nil)) else {
            return wrongType(key, expected: "a duration", found: found, file: file, advice: "write a duration such as 90s, 4m, 1h30m or 1d")
        }
        if scalar.style == .plain, Int64(scalar.value) != nil || Double(scalar.value) != nil {
            // Suggest only what is itself valid: a whole number with a unit, never "-5s" or "1.5s".
            let message: String
            if scalar.value.hasPrefix("-") {
                message = "\(key) is a duration, which is never negative: write 0s, or a duration such as 90s or 4m"
            } else if let advice = DurationAdvice.bareNumber(scalar.value) {
                message = "\(key) is a duration, and \(advice)"
            } else {
                message = "\(key) is a duration: whole numbers with units, largest first, such as 90s or 1m30s, not \(scalar.shortValue)"
            }
            return Diagnostic(.error, rule: "schema/duration", message: message, file: file, range: found.range)
        }
        // A well-formed duration whose number has more digits than a duration reads is too long, not malformed.
        if DurationAdvice.isOverlong(scalar.value) {
            return Diagnostic(
                .error, rule: "schema/range",
                message: "\(key) is \(scalar.shortValue), longer than the largest duration 366d: write at most 366d", file: file, range: found.range)
        }
        // A fraction, an exponent, a space or a unit spelt out (`0.5s`, `1e3s`, `1 day`) is told the duration it means,
        // and so are parts written apart (`1h 30m`); quoted digits are a bare number in quotes.
        let advice = DurationAdvice.advice(for: scalar.value).map { ": \($0)" } ?? ""
        return Diagnostic(
            .error, rule: "schema/duration",
            message: "\(key) must be a duration such as 90s, 4m, 1h30m or 1d (units d, h, m, s, ms, largest first), not \(found.kindDescription)\(advice)",
            file: file, range: found.range)
    }

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

    static func durationTooLong(_ key: String, value: RuleDuration, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "\(key) is \(value), longer than the largest duration 366d: write at most 366d",
            file: file, range: range)
    }

    /// - Parameter hint: "did you mean", or what the policy's placements are (``unknownPlacementHint(_:known:)``); nil
    ///   when the finding will only be counted.
    static func unknownHistoryPlacement(_ id: String, hint: String?, file: String, range: SourceRange) -> Diagnostic {
        unknownScenarioPlacement(
            "history names placement \"\(ControlCharacters.escaped(YAMLScalar.shortened(id)))\", which the policy does not have (the show counts for nothing)",
            hint: hint, file: file, range: range)
    }

    /// An event step about a placement the policy does not have: the engine ignores the event.
    static func unknownStepPlacement(_ id: String, event: String, hint: String?, file: String, range: SourceRange) -> Diagnostic {
        unknownScenarioPlacement(
            "event \(event) names placement \"\(ControlCharacters.escaped(YAMLScalar.shortened(id)))\", which the policy does not have (the engine ignores the event)",
            hint: hint, file: file, range: range)
    }

    /// What follows a finding about a placement a scenario names and the policy does not have: "did you mean", or the
    /// policy's placements.
    static func unknownPlacementHint(_ id: String, known: [String]) -> String {
        if let suggestion = Suggestion.closest(to: id, in: known) { return Suggestion.didYouMean(suggestion, for: id) }
        if known.isEmpty { return "the policy the test runs against defines no placements" }
        return "its placements are \(known.prefix(10).joined(separator: ", "))\(known.count > 10 ? ", and \(known.count - 10) more" : "")"
    }

    /// A list of named entries (`tests`, `segments`) written as a mapping keyed by name, as a rule file keys placements.
    package static func keyedByName(_ key: String, entry: String, name: String, found: YAMLNode, file: String) -> Diagnostic {
        let name = YAMLScalar.shortened(name)
        return wrongType(
            key, expected: "a list", found: found, file: file,
            advice: "write each \(entry) as a list item with its name, `- name: \(name)` in place of `\(name):`, its settings indented under it as they are")
    }

    /// A scenario file that is a list of tests: its `tests:` line is missing.
    static func testsWithoutTheirLine(found: YAMLNode, file: String) -> Diagnostic {
        wrongType(
            "a scenario file", expected: "a mapping of keys to values", found: found, file: file,
            advice: "the tests need a `tests:` line above them, with the list indented under it")
    }

    /// The finding for a rule file whose top level holds a list of `tests:` (a scenario file) or of `segments:` (a usage
    /// model), and nothing of a rule file but `version:`: the name it needs for `test` or `impact` to read it and policy
    /// loading to skip it. Nil for any other file.
    static func misnamedFile(_ file: String, topLevelKeys: [(key: String, range: SourceRange, isList: Bool)]) -> Diagnostic? {
        let found: (key: String, range: SourceRange, isList: Bool), what: String, suffix: String, command: String
        if let tests = topLevelKeys.first(where: { $0.key == "tests" && $0.isList }) {
            (found, what, suffix, command) = (tests, "scenario tests", "test", "adrules test runs it")
        } else if let model = topLevelKeys.first(where: { $0.key == "segments" && $0.isList }) {
            (found, what, suffix, command) = (model, "a usage model", "model", "adrules impact reads it")
        } else {
            return nil
        }
        let name = String(file.split(separator: "/").last ?? Substring(file))
        return Diagnostic(
            .error, rule: "schema/unknown-key",
            message: "\(ControlCharacters.escaped(name)) holds \(what) (`\(found.key):`), not rules: name it "
                + "\(ControlCharacters.escaped(suggestedName(name, suffix: suffix))), so that policy loading skips it and \(command)",
            file: file, range: found.range)
    }

    /// `rewarded_test.yaml` as `rewarded.test.yaml`: the name without its extension and a trailing word such as `_test`,
    /// `-tests` or `.model`, then `.SUFFIX.yaml`.
    static func suggestedName(_ name: String, suffix: String) -> String {
        var base = Substring(name)
        for ext in [".yaml", ".yml"] where base.lowercased().hasSuffix(ext) { base = base.dropLast(ext.count) }
        for word in [suffix + "s", suffix] {
            for separator in ["_", "-", "."] where base.lowercased().hasSuffix(separator + word) && base.count > word.count + 1 {
                return base.dropLast(word.count + 1) + ".\(suffix).yaml"
            }
        }
        return base + ".\(suffix).yaml"
    }

    /// An ask about a placement the policy does not have: it is denied `unknown_placement` whatever the test meant.
    static func unknownAskPlacement(_ id: String, ask: String, hint: String?, file: String, range: SourceRange) -> Diagnostic {
        unknownScenarioPlacement(
            "ask \(ask) names placement \"\(ControlCharacters.escaped(YAMLScalar.shortened(id)))\", which the policy does not have (it is denied unknown_placement; a test of that reason lists it in reasons)",
            hint: hint, file: file, range: range)
    }

    private static func unknownScenarioPlacement(_ start: String, hint: String?, file: String, range: SourceRange) -> Diagnostic {
        // A warning: the test still runs as written (an app may record events about a placement a policy lacks, and a
        // test may check that its asks are `unknown_placement`), and a typo is named beside the asks it makes fail.
        Diagnostic(.warning, rule: "scenario/unknown-placement", message: start + (hint.map { ": " + $0 } ?? ""), file: file, range: range)
    }

    static func capTooLarge(_ key: String, _ value: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "\(key) \(value) is more than the \(Facts.maxShowsPerHistory) shows a history keeps, so it could never be reached: write at most \(Facts.maxShowsPerHistory)",
            file: file, range: range)
    }

    static func outOfRange(_ key: String, value: Int, minimum: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range", message: "\(key) must be >= \(minimum), not \(value)",
            file: file, range: range)
    }

    /// A whole number written correctly but with more digits than any value of `key` can have.
    static func wholeNumberTooLong(_ key: String, text: String, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "\(key) is \(ControlCharacters.escaped(String(text.prefix(40))))\(text.count > 40 ? "..." : ""), written with more digits than this tool reads safely (18, or 15 in hex and 20 in octal, a sign or leading zeros included): write it with fewer digits",
            file: file, range: range)
    }

    static func controlCharacter(_ key: String, scalar: Unicode.Scalar, file: String, range: SourceRange) -> Diagnostic {
        let code = InvisibleCharacters.codePoint(scalar)
        // Direction marks and overrides, and the byte-order mark, are no line break or escape code: they are invisible.
        let message = if let invisible = InvisibleCharacters.invisibleControl(scalar) {
            "\(key) holds \(invisible): remove it"
        } else if scalar == "\n", key == "message" {
            // Only free text: a folded id or ad unit would hold a space, which no id may.
            // A text ends up in logs and reports, one line each: a line break would start a line that is not its own.
            "\(key) holds the control character \(code), a line break, and a text is one line in the logs and reports it ends up in: write it on one line, or as a folded block (>-), which joins its lines with spaces"
        } else {
            "\(key) holds the control character \(code): write it on one line, with no line breaks, tabs or escape codes"
        }
        return Diagnostic(.error, rule: "schema/range", message: message, file: file, range: range)
    }

    static func badID(_ kind: String, id: String, allowed: String, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "\(kind) id \"\(id)\" is not valid: use 1-64 characters of \(allowed)",
            file: file, range: range)
    }

    /// - Parameter belongsIn: where the key belongs, when the caller knows (the blocks of a usage model); else the rule
    ///   files' blocks are searched.
    /// - Parameter isPlain: whether the key is written plain: only then are no-break spaces before it pasted indentation
    ///   (inside quotes they were typed on purpose).
    package static func unknownKey(
        _ key: String, in context: String, allowed: [String], file: String, range: SourceRange, belongsIn: String? = nil, isPlain: Bool = true
    ) -> Diagnostic {
        var message = "unknown key \"\(key)\" in \(context)"
        var plain = false
        // `  min_interval:` indented with no-break spaces: YAML reads them as part of the key.
        if isPlain, GluedKey.isIndentedWithNoBreakSpaces(key) {
            let name = GluedKey.unindented(key)
            message = "key \"\(name)\" in \(context) is indented with no-break spaces (U+00A0, as text pasted from a document holds), "
                + "which YAML reads as part of the key, not as indentation: indent it with ordinary spaces, lined up with the keys beside it"
        } else if let glued = GluedKey.split(key), allowed.contains(glued.key) {
            // The value is shown only where it reads back as written (`deny:*` would be an alias, `message:#1` a comment).
            message += GluedKey.isPlain(glued.value)
                ? ": YAML reads a key only with a space after its colon: write \(glued.key): \(glued.value)"
                : ": YAML reads a key only with a space after its colon: put one after \(glued.key):"
        } else if let relocation = belongsIn ?? RuleFileKeys.relocation(of: key, allowed: allowed) {
            message += ": \(relocation)"
        } else if let suggestion = Suggestion.closest(to: key, in: allowed) {
            message += ": " + Suggestion.didYouMean(suggestion, for: key)
        } else {
            message += ": the keys here are \(allowed.joined(separator: ", "))"
            // A key of another block (`enabled` on a group, `when` on a placement) is a setting in the wrong place.
            plain = !RuleFileKeys.anywhere.contains(key)
        }
        var diagnostic = Diagnostic(.error, rule: "schema/unknown-key", message: message, file: file, range: range)
        diagnostic.isPlainUnknownKey = plain
        return diagnostic
    }

    static func notAllowedInDefaults(_ key: String, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/unknown-key",
            message: "\(key) is not allowed in defaults: set it on each placement",
            file: file, range: range)
    }

    /// A top-level key (`version`, `rules:`) written as an entry of `placements:` or `groups:` (`block`), indented under it.
    static func topLevelKeyAsID(_ key: String, kind: String, block: String, file: String, range: SourceRange) -> Diagnostic {
        let isBlock = RuleFileKeys.topBlocks.contains(key)
        // A block's entries are kept: moved into the block the file may have already, not removed with it.
        let already = isBlock ? "or move its entries into the `\(key):` the file has there already" : "or remove it, if the file sets \(key) there already"
        return Diagnostic(
            .error, rule: "schema/unknown-key",
            message: "\(key) is a top-level \(isBlock ? "block" : "setting"), not a \(kind) id: indent it less, at the start of a line, outside `\(block):` "
                + "(\(already))",
            file: file, range: range)
    }

    /// A setting written as an entry of `placements:` or `groups:`: it belongs under the id before it (`previous`), or,
    /// as the first entry, the id line above it is missing.
    static func settingAsID(_ key: String, kind: String, after previous: String?, file: String, range: SourceRange) -> Diagnostic {
        let owner = previous.map { "indent it under `\($0):`" }
            ?? "the \(kind)'s id line above it is missing: write the id on a line of its own, as in `\(kind == "group" ? "fullscreen" : "level_end"):`, with the settings indented under it"
        return Diagnostic(
            .error, rule: "schema/unknown-key",
            message: "\(key) is a \(kind) setting, not a \(kind) id: \(owner)", file: file, range: range)
    }

    /// - Parameter listing: for a list of ids, what to list; the example then reads as an example, not as an id to copy.
    package static func missingKey(_ key: String, in context: String, example: String, listing: String? = nil, file: String, range: SourceRange) -> Diagnostic {
        let advice = listing.map { "list \($0), as in `\(example)`" } ?? "add `\(example)`"
        return Diagnostic(.error, rule: "schema/missing-key", message: "\(context) has no \(key): \(advice)", file: file, range: range)
    }

    /// A placement with no format that may be the top-level block `topLevelName` indented by mistake.
    static func missingFormatOrTopLevelBlock(in context: String, topLevelName: String, example: String, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/missing-key",
            message: "\(context) has no format: if this is the top-level `\(topLevelName):` block, indent it less, at the start of a line; "
                + "else add `\(example)`",
            file: file, range: range)
    }

    /// - Parameter advice: what to write, when the caller knows better than the closest allowed value.
    static func unknownEnum(_ key: String, value: String, allowed: [String], advice: String? = nil, file: String, range: SourceRange) -> Diagnostic {
        var message = "\(key) must be one of \(allowed.joined(separator: ", ")); not \"\(ControlCharacters.escaped(YAMLScalar.shortened(value)))\""
        if let advice {
            message += ": " + advice
        } else if let suggestion = Suggestion.closest(to: value, in: allowed) {
            message += ": " + Suggestion.didYouMean(suggestion, for: value)
        }
        return Diagnostic(.error, rule: "schema/enum", message: message, file: file, range: range)
    }

    /// - Parameter documents: what the file is, in the plural (`rule files`, `usage models`).
    static func badVersion(_ found: String, documents: String, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/version",
            message: "version must be 1, not \(found): this tool reads version 1 \(documents); write version: 1",
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

    static func unknownPlacement(
        _ id: String, in context: String, known: [String], isGroup: Bool = false, allowsEvery: Bool = false, file: String, range: SourceRange
    ) -> Diagnostic {
        var message = "\(context) names placement \"\(id)\", which is not defined"
        if isGroup {
            message += ": \"\(id)\" is a group, and only placements may be named here: list the group's placements instead"
        } else if allowsEvery, wordsForEvery.contains(id.lowercased()) {
            message += ": to deny every placement, write \"*\" in straight quotes, as in deny: \"*\""
        } else if let suggestion = Suggestion.closest(to: id, in: known) {
            message += ": " + Suggestion.didYouMean(suggestion, for: id)
        } else {
            message += ": define it under `placements`, or remove it here"
        }
        return Diagnostic(.error, rule: "policy/unknown-placement", message: message, file: file, range: range)
    }

    /// - Parameter deviceAllowed: whether `device` may be written here (a policy's `timezone`, not a scenario's
    ///   `device_timezone`, which names the device's zone).
    package static func unknownTimeZone(_ name: String, file: String, range: SourceRange, deviceAllowed: Bool = true) -> Diagnostic {
        // Quoted cut short and escaped, as other values are: a name of 4,096 characters made a line of 8 KB.
        let shown = ControlCharacters.escaped(YAMLScalar.shortened(name))
        var message = "unknown time zone \"\(shown)\": write an IANA name such as Asia/Tokyo or Europe/Berlin\(deviceAllowed ? ", or device" : "")"
        // Names are case-sensitive: `utc` or `Device` is most likely the name in other letters.
        let candidates = TimeZoneNames.all + ["UTC"] + (deviceAllowed ? ["device"] : [])
        let lowered = name.lowercased()
        if let invisible = InvisibleCharacters.first(in: name) {
            // "UTC" and a zero width space look like UTC: the character that makes it unknown is named, and the name
            // without it is what to write (or, when that is no zone either, the closest zone).
            let meant = InvisibleCharacters.removed(from: name)
            message = "unknown time zone \"\(shown)\": it holds \(invisible), which a zone name never has"
            if TimeZoneNames.zone(named: meant) != nil || (deviceAllowed && meant == "device") {
                message += ": write \"\(meant)\""
            } else if let suggestion = Suggestion.closest(to: meant, in: TimeZoneNames.all) {
                message += ": did you mean \"\(suggestion)\"?"
            } else {
                message += ": delete it"
            }
        } else if let offset = etcName(forOffset: name) {
            // "GMT+5" is a fixed offset: IANA spells it with the POSIX sign, reversed.
            message = "unknown time zone \"\(shown)\": a fixed offset is written \(offset) (the sign is reversed in these names); a region's own name also follows its daylight saving time"
        } else if let suggestion = candidates.first(where: { $0.lowercased() == lowered }) {
            message = "unknown time zone \"\(shown)\": did you mean \"\(suggestion)\"?"
        } else if let zone = cityZones[cityKey(name)] {
            // `Paris`, `new york`: a city alone is the zone's last part.
            message = "unknown time zone \"\(shown)\": a zone is named Region/City: did you mean \"\(zone)\"?"
        } else if !name.isEmpty, name.count <= 5, name.allSatisfy({ $0.isLetter && $0.isUppercase }) {
            // An abbreviation (PST, CEST) names no place: "did you mean GMT" would shift every day by hours.
            message = "unknown time zone \"\(shown)\": abbreviations name no place and no daylight saving rules: write a region such as America/Los_Angeles or Europe/Paris"
        } else if let suggestion = Suggestion.closest(to: name, in: TimeZoneNames.all) {
            message = "unknown time zone \"\(shown)\": did you mean \"\(suggestion)\"?"
        }
        return Diagnostic(.error, rule: "policy/timezone", message: message, file: file, range: range)
    }

    /// A city written alone, and a zone's last part, compared: lowercased, without accents (`São Paulo`, `Zürich`),
    /// with `_` for spaces and hyphens (`New York`, `Port-au-Prince`). Only a city named exactly is suggested: one
    /// letter off, `China` is `Chita` and `Nice` is `Niue`, hours away.
    private static func cityKey(_ name: String) -> String {
        guard name.utf8.count <= 64 else { return "" }
        return String(name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased().map { $0 == " " || $0 == "-" ? "_" : $0 })
    }

    /// The zones by their last part (`paris` → Europe/Paris; the first zone in sorted order where two share one).
    private static let cityZones: [String: String] = {
        var zones: [String: String] = [:]
        for zone in TimeZoneNames.all.sorted() where zone.contains("/") {
            let city = cityKey(zone.split(separator: "/").last.map(String.init) ?? "")
            if zones[city] == nil { zones[city] = zone }
        }
        return zones
    }()


    /// The `Etc/GMT±N` name of an offset written `GMT+5`, `UTC-3` or `UTC+05:00` (whole hours), nil for anything else.
    static func etcName(forOffset name: String) -> String? {
        let upper = name.uppercased()
        // A bare offset (`+01:00`, as ISO 8601 writes it) reads as one from UTC.
        let bare = upper.hasPrefix("+") || upper.hasPrefix("-")
        guard bare || upper.hasPrefix("GMT") || upper.hasPrefix("UTC") else { return nil }
        var rest = bare ? Substring(upper) : upper.dropFirst(3)
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        rest = rest.dropFirst()
        if rest.hasSuffix(":00") { rest = rest.dropLast(3) }
        guard (1...2).contains(rest.count), rest.allSatisfy(\.isASCII), let hours = Int(rest), (0...14).contains(hours) else { return nil }
        let etc = hours == 0 ? "UTC" : "Etc/GMT\(sign == "+" ? "-" : "+")\(hours)"
        // Etc/GMT-14 to Etc/GMT+12 exist: an offset beyond them has no name to suggest.
        return TimeZoneNames.zone(named: etc) == nil ? nil : etc
    }

    /// A scenario file whose steps would take more than `limit` steps of the policy's rules and caps.
    /// - Parameter step: what the step is, for the message: `an ask of app_open`, `show_started of app_open`.
    /// - Parameter upTo: what the position is one of: `steps`, or `tests` for a test's start.
    static func tooMuchRuleWork(limit: Int, perStep: Int, step: String, upTo: String = "steps", file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "the \(upTo) up to this one would take more than \(limit / 1_000_000) million steps of the policy's rules and caps (this one, \(ControlCharacters.escaped(step)), about \(perStep)): "
                + (perStep > limit
                    ? "this step alone is over it: give the rules shorter lists (fewer or shorter strings) or test against a smaller policy"
                    : "split the file into smaller ones"),
            file: file, range: range)
    }

    /// A test whose `history` would keep more show records than a replay may hold.
    static func tooLongHistory(records: Int, limit: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "this test's history would keep \(records) show records in its placements' and their groups' histories, more than the \(limit) a test may hold: shorten the history, or test against a policy with fewer groups",
            file: file, range: range)
    }

    /// A scenario step whose time would be after the last a timestamp can write (year 9999).
    static func stepPastLastTime(file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "this step falls after \(Timestamps.format(milliseconds: Timestamps.latest, offsetSeconds: 0)), the last time a timestamp can write: start the test earlier or shorten its `after:` steps",
            file: file, range: range)
    }

    /// `after: -5m` in a scenario step: a clock set back is written with `at:` (cli.md r2).
    static func negativeAfter(file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/duration",
            message: "after is the time since the step before, never negative: to set the clock back, write at: with the time the clock shows, as in at: 2026-11-29T08:00:00+09:00",
            file: file, range: range)
    }

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
    package static func undeclaredAttribute(_ name: String, declared: [String], rule: String, file: String, range: SourceRange) -> Diagnostic {
        var message = "attribute \"\(name)\" is not declared by the policy, so no rule reads it"
        if let suggestion = Suggestion.closest(to: name, in: declared) {
            message += ": " + Suggestion.didYouMean(suggestion, for: name)
        } else if !PolicyIDs.isValidAttributeName(name) {
            message += ", and no rule file may declare it (a letter or _, then letters, digits, _ or .; not a keyword): remove it here"
        } else {
            message += ": declare it under `attributes` in a rule file, or remove it here"
        }
        return Diagnostic(.warning, rule: rule, message: message, file: file, range: range)
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

    static func badAttributeName(_ name: String, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "attribute name \(ControlCharacters.quoted(name)) is not valid: \(PolicyIDs.attributeNameProblem(name))",
            file: file, range: range)
    }

    /// What to write for a time that misses a part RFC 3339 requires: its offset (`2026-11-29T09:00:00`), the colon
    /// of its offset (`+0900`), or its seconds (`09:00Z`); nil when no such fix makes a time.
    static func timeAdvice(_ written: String) -> String? {
        // `YYYY-MM-DDTHH:MM`, then perhaps `:SS` with a fraction, then perhaps `Z` or an offset with or without its
        // colon: read by hand (a regular expression for each of many findings is slow).
        let bytes = Array(written.utf8)
        func isDigit(_ i: Int) -> Bool { i < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) }
        func digits(_ range: Range<Int>) -> Bool { range.allSatisfy(isDigit) }
        func part(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        guard bytes.count <= 40, bytes.count >= 16, digits(0..<4), bytes[4] == UInt8(ascii: "-"), digits(5..<7), bytes[7] == UInt8(ascii: "-"),
            digits(8..<10), [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(bytes[10]), digits(11..<13),
            bytes[13] == UInt8(ascii: ":"), digits(14..<16)
        else { return nil }
        var end = 16
        var seconds: String?
        if end < bytes.count, bytes[end] == UInt8(ascii: ":") {
            guard digits((end + 1)..<(end + 3)) else { return nil }
            var next = end + 3
            if next < bytes.count, bytes[next] == UInt8(ascii: ".") {
                next += 1
                guard isDigit(next) else { return nil }
                while isDigit(next) { next += 1 }
            }
            seconds = part(end..<next)
            end = next
        }
        var offset: String?
        var missing: [String] = []
        if seconds == nil { missing.append("its seconds") }
        let zone = part(end..<bytes.count)
        if zone == "Z" || zone == "z" {
            offset = zone
        } else if let sign = zone.first, sign == "+" || sign == "-" {
            let rest = zone.dropFirst()
            let hours = rest.prefix(2), minutes = rest.dropFirst(2).drop { $0 == ":" }
            let colon = rest.count == 5 && rest.dropFirst(2).first == ":"
            guard colon || rest.count == 4, hours.count == 2, minutes.count == 2, (hours + minutes).allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            offset = "\(sign)\(hours):\(minutes)"
            if !colon { missing.append("the colon of its offset") }
        } else if !zone.isEmpty {
            return nil
        }
        let fixed = part(0..<16) + (seconds ?? ":00")
        // Only a time a scenario takes is advised (no fraction past milliseconds, years 0001-9999 in UTC).
        func taken(_ time: String) -> Bool { (try? Timestamps.read(time).get()) != nil }
        guard let offset else {
            let examples = [fixed + "Z", fixed + "+09:00"].filter(taken)
            guard !examples.isEmpty else { return nil }
            return "add " + (missing + ["its offset from UTC"]).joined(separator: " and ") + ", as in " + examples.joined(separator: " or ")
        }
        guard !missing.isEmpty, taken(fixed + offset) else { return nil }
        return "add " + missing.joined(separator: " and ") + ": write \(fixed + offset)"
    }

    /// A time that is not RFC 3339 (`schema/type`, with the form to write), or that is in its shape but names no
    /// instant (`schema/range`, saying which part is wrong: a 29 February that does not exist).
    static func badTime(_ key: String, found: YAMLNode, problem: Timestamps.Problem, file: String) -> Diagnostic {
        let reason: String
        switch problem {
        case .shape:
            return Diagnostic(
                .error, rule: "schema/type",
                message: "\(key) must be an RFC 3339 time such as 2026-11-29T09:00:00+09:00, not \(found.kindDescription)"
                    + (found.scalar.flatMap { timeAdvice($0.value) }.map { ": " + $0 } ?? ""),
                file: file, range: found.range)
        case .yearZero: reason = "year 0000 does not exist: years run from 0001"
        case .month(let date): reason = "\(date) is not a date: months run from 01 to 12"
        case .day(let date, let days): reason = "\(date) is not a date: that month has \(days) days"
        case .timeOfDay(let time): reason = "\(time) is not a time of day"
        case .offset(let offset): reason = "the offset \(offset) is not one: hours run to 23 and minutes to 59"
        case .years: reason = "the time falls outside the years 0001-9999 in UTC, which is all a timestamp can write"
        case .finerThanMilliseconds(let fraction):
            reason = "the engine counts whole milliseconds, and \(fraction) is finer: write at most three digits after the point"
        }
        return Diagnostic(.error, rule: "schema/range", message: "\(key): \(reason)", file: file, range: found.range)
    }

    /// A suppression comment that names no rule.
    /// - Parameter others: how many more names of the comment are no rule.
    static func unknownRuleInComment(_ name: String, others: Int, closest: String?, file: String, at position: SourcePosition) -> Diagnostic {
        let advice = closest.map { "did you mean \($0)?" } ?? "name a rule id such as cap/zero (see adrules lint --format sarif, or docs/lint-rules.md)"
        let more = others > 0 ? " (\(others) more name\(others == 1 ? "" : "s") in this comment \(others == 1 ? "is" : "are") no rule either)" : ""
        return Diagnostic(
            .warning, rule: "lint/unknown-rule",
            message: "adrules:disable-next-line names \(ControlCharacters.escaped(String(name.prefix(80)))), which is no lint rule, so it hides nothing: \(advice)\(more)",
            file: file, range: SourceRange(at: position))
    }

    /// The diagnostics past what one report prints, over all its files (each file's own bound already applied: a
    /// file's line counting those it does not show is one of them).
    package static func tooManyFindingsInRun(_ count: Int, errors: Int, shown: Int, file: String) -> Diagnostic {
        let low = String(shown % 1000)
        let bound = shown >= 1000 ? "\(shown / 1000)," + String(repeating: "0", count: 3 - low.count) + low : low
        // (Printed after the summary was counted from every diagnostic: it stands for nothing more.)
        return Diagnostic(
            errors > 0 ? .error : .warning, rule: "lint/too-many-findings",
            message: "\(count) more diagnostics are not printed (a report prints \(bound)): fix the ones listed and run again",
            file: file, range: .fileStart)
    }

    static func tooManyCaps(_ count: Int, limit: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "caps lists \(count) windows; at most \(limit) are allowed: keep the windows that bind (see cap/unreachable)",
            file: file, range: range)
    }

    /// A list of placement ids (a group's members, a rule's `deny`) longer than a policy may have placements.
    static func tooManyListedPlacements(_ what: String, count: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "\(what) lists \(count) placements; a list holds at most \(PolicyLimits.maxPlacements), as a policy has at most that many placements: name each placement once",
            file: file, range: range)
    }

    static func tooManyListItems(_ key: String, count: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "\(key) lists \(count) items; a list value holds at most \(PolicyLimits.maxListItems): shorten it",
            file: file, range: range)
    }

    /// A table of the policy (`kind`: placements, groups, rules, ...) with more entries than a policy may have.
    static func tooManyEntries(_ count: Int, _ kind: String, limit: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "the policy has \(count) \(kind); a policy may have at most \(limit): split it into several policies",
            file: file, range: range)
    }

    static func afterAndAt(file: String, at position: SourcePosition) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/type",
            message: "a step sets its time with after: (since the previous step) or at: (a timestamp), not both: keep one",
            file: file, range: SourceRange(at: position))
    }

    static func eventAndAsk(file: String, at position: SourcePosition) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/type", message: "a step is either an event or an ask, not both: split it into two steps",
            file: file, range: SourceRange(at: position))
    }

    static func askKeyOnEvent(_ key: String, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/unknown-key",
            message: "\(key) belongs to an ask step, not to an event: add `ask: show` or remove it", file: file, range: range)
    }

    /// `placement` on an event of no placement, `source` on one of no source (or on an ask: `event` nil).
    static func keyNotTakenByEvent(_ key: String, event: String?, file: String, range: SourceRange) -> Diagnostic {
        let takers = key == "source" ? AdEvent.sourceEvents : AdEvent.placementEvents
        let subject = event.map { "event \($0)" } ?? "an ask"
        return Diagnostic(
            .error, rule: "schema/unknown-key",
            message: "\(subject) takes no \(key) (only \(takers.joined(separator: ", ")) do): remove it", file: file, range: range)
    }

    /// `trigger` on an ask other than a show; on an offer, a trigger other than `action` (an offer answers a
    /// user's action, so `trigger: action` is accepted there as saying what is so).
    static func triggerOutsideShow(ask: AskKind, file: String, range: SourceRange) -> Diagnostic {
        let message = ask == .offer
            ? "an offer is always asked on a user action: remove the trigger (or write trigger: action)"
            : "trigger applies to show asks only: remove it"
        // On an offer the key is one it takes, with a value it does not: an enum finding, not an unknown key.
        return Diagnostic(.error, rule: ask == .offer ? "schema/enum" : "schema/unknown-key", message: message, file: file, range: range)
    }

    static func expression(_ finding: ExpressionFinding, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(.error, rule: finding.rule, message: finding.message, file: file, range: range)
    }
}
