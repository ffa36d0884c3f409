import AdRules
import AdRulesYAML

/// Messages about keys: unknown, misplaced or missing (`schema/unknown-key`, `schema/missing-key`), and files whose
/// keys say they are no rule file.
extension Diagnostic {
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
        let base = FileNames.withoutExtension(name, FileNames.yamlExtensions)
        for word in [suffix + "s", suffix] {
            for separator in ["_", "-", "."] where base.lowercased().hasSuffix(separator + word) && base.count > word.count + 1 {
                return base.dropLast(word.count + 1) + ".\(suffix).yaml"
            }
        }
        return base + ".\(suffix).yaml"
    }

    /// - Parameter belongsIn: where the key belongs, when the caller knows (the blocks of a usage model); else the rule
    ///   files' blocks are searched.
    /// - Parameter isPlain: whether the key is written plain: only then are no-break spaces before it pasted indentation
    ///   (inside quotes they were typed on purpose).
    /// - Parameter present: the keys the mapping already has: "did you mean" never suggests one of them (`if:` beside
    ///   `id:` is no misspelt id); a key that is one of them spelt another way or in other words is told so.
    package static func unknownKey(
        _ key: String, in context: String, allowed: [String], file: String, range: SourceRange, belongsIn: String? = nil, isPlain: Bool = true,
        present: Set<String> = []
    ) -> Diagnostic {
        // A key is shown cut short: 1,000 keys of 16,000 characters made 33 MB of output.
        var message = "unknown key \"\(YAMLScalar.shortened(key))\" \(within(context))"
        var plain = false
        // `  min_interval:` indented with no-break spaces: YAML reads them as part of the key.
        if isPlain, let space = GluedKey.pastedSpace(in: key) {
            let name = YAMLScalar.shortened(GluedKey.unindented(key))
            // Read as part of the key, the spaces also leave it at the wrong level (the top level, for a placement's
            // setting under the last placement): the context is where YAML put it, not where it was meant to be.
            message = "key \"\(name)\" is indented with \(PastedSpace.indentation(space, plural: true)), "
                + "which YAML reads as part of the key, not as indentation, so it stands \(within(context)) as an unknown key: "
                + "indent it with ordinary spaces, lined up with the keys beside it"
        } else if isPlain, key.utf8.count == 3, key.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // `{daily_cap: 1,000}`: in braces the comma ends the entry, and the digits after it are read as a key.
            message += ": in { } a comma separates entries, so a number written with a thousands comma (as 1,\(key)) is read "
                + "as a number and a key \(key): write the number with no commas"
        } else if isPlain, let (meant, _) = GluedKey.fullWidthColonSplit(key), allowed.contains(meant), let advice = gluedKeyAdvice(key) {
            message += ": " + advice
        } else if let glued = GluedKey.split(key), allowed.contains(glued.key) {
            // A space YAML does not take for one (a no-break space) is named: the key looked as if it had its space.
            // Else the value is shown only where it reads back as written (`deny:*` would be an alias, `message:#1` a
            // comment).
            if isPlain, let first = glued.value.unicodeScalars.first, first.properties.isWhitespace || PastedSpace.name(of: first) != nil,
                let advice = gluedKeyAdvice(key)
            {
                message += ": " + advice
            } else {
                message += GluedKey.isPlain(glued.value)
                    ? ": YAML reads a key only with a space after its colon: write \(glued.key): \(YAMLScalar.shortened(glued.value))"
                    : ": YAML reads a key only with a space after its colon: put one after \(glued.key):"
            }
        } else if let relocation = belongsIn ?? RuleFileKeys.relocation(of: key, allowed: allowed) {
            message += ": \(relocation)"
        } else if let opposite = Suggestion.oppositeKey(of: key, in: allowed) {
            // `disabled: true` is `enabled: false`: "did you mean enabled?" (edit distance 2) would have the file say the
            // opposite of what was meant.
            message += ": rule files write the opposite, \(opposite): write \(opposite): false where \(YAMLScalar.shortened(key)) is true, "
                + "and \(opposite): true where it is false"
        } else if let twin = Suggestion.sameKey(as: key, in: present) ?? Suggestion.keySynonym(for: key, in: Array(present)) {
            // `daily-cap:` or `cooldown:` beside the `daily_cap:` or `min_interval:` the mapping has: one setting written
            // twice, not a key of the team's own (nor a misspelling of another key, which edit distance might guess).
            message += ": it reads as \(twin), which is set here already: keep one of the two, written \(twin)"
        } else if let suggestion = Suggestion.keySynonym(for: key, in: allowed.filter { !present.contains($0) })
            ?? Suggestion.closest(to: key, in: present.isEmpty ? allowed : allowed.filter { !present.contains($0) })
        {
            message += ": " + Suggestion.didYouMean(suggestion, for: key)
        } else if let slip = present.isEmpty ? nil : Suggestion.closest(
            to: key, in: allowed.filter { present.contains($0) }, maxDistance: min(2, key.utf8.count / 4))
        {
            // `timezon:` beside the `timezone:` the mapping has: that setting written twice, once misspelt. Only a near
            // miss is told so: `timeout:` beside `timezone:` may mean another setting, and `if:` beside `id:` is a word
            // of its own.
            message += ": " + Suggestion.didYouMean(slip, for: key) + " It is set here already: keep one of the two"
        } else {
            message += ": the keys here are \(allowed.joined(separator: ", "))"
            // A key of another block (`enabled` on a group, `when` on a placement) is a setting in the wrong place, and
            // one close to a key the mapping already has (`timeout` beside `timezone`) a slip, not a key of the team's own.
            plain = !RuleFileKeys.anywhere.contains(key) && (present.isEmpty || Suggestion.closest(to: key, in: allowed) == nil)
        }
        var diagnostic = Diagnostic(.error, rule: "schema/unknown-key", message: message, file: file, range: range)
        diagnostic.isPlainUnknownKey = plain
        return diagnostic
    }

    /// An unknown key past the findings a file keeps: counted, never shown, so built with no advice. Whether it is a key
    /// of the team's own, which a comment may hide, is not worked out (a misspelt key may not be hidden): one under such a
    /// comment is built in full (``FieldReader/forEachField(_:allowed:listed:context:_:)``).
    static func countedUnknownKey(_ key: String, in context: String, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(.error, rule: "schema/unknown-key", message: "unknown key \"\(YAMLScalar.shortened(key))\" \(within(context))", file: file, range: range)
    }

    /// Where a key stands, as a message says it: "at the top level", "in placement \"a\"".
    package static func within(_ context: String) -> String {
        context == "the top level" ? "at the top level" : "in \(context)"
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
            message: "\(key) is a top-level \(isBlock ? "block" : "setting"), not \(entryName(kind)): indent it less, at the start of a line, outside `\(block):` "
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
            message: "\(key) is \(kind == "attribute" ? "an" : "a") \(kind) setting, not \(entryName(kind)): \(owner)", file: file, range: range)
    }

    /// What an entry of `placements:`, `groups:` or `attributes:` is named by: a placement or group id, an attribute name.
    private static func entryName(_ kind: String) -> String {
        kind == "attribute" ? "an attribute name" : "a \(kind) id"
    }

    /// - Parameters:
    ///   - listing: for a list of ids, what to list; the example then reads as an example, not as an id to copy.
    ///   - describing: what the value is, where no value is the right one for every file (a rule's condition, a cap's
    ///     window): the example then reads as an example, not as the value to write.
    package static func missingKey(
        _ key: String, in context: String, example: String, listing: String? = nil, describing: String? = nil, file: String, range: SourceRange
    ) -> Diagnostic {
        let advice = listing.map { "list \($0), as in `\(example)`" }
            ?? describing.map { "add `\(key):` with \($0), as in `\(example)`" } ?? "add `\(example)`"
        return Diagnostic(.error, rule: "schema/missing-key", message: "\(context) has no \(key): \(advice)", file: file, range: range)
    }

    /// A placement with no format that may be the top-level block `topLevelName` indented by mistake.
    static func missingFormatOrTopLevelBlock(in context: String, topLevelName: String, advice: String, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/missing-key",
            message: "\(context) has no format: if this is the top-level `\(topLevelName):` block, indent it less, at the start of a line; "
                + "else \(advice)",
            file: file, range: range)
    }

    /// A placement with no format (``PlacementFields/formatAdvice(id:appOpenBlocks:)`` says what to add).
    static func missingFormat(in context: String, advice: String, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(.error, rule: "schema/missing-key", message: "\(context) has no format: \(advice)", file: file, range: range)
    }
}
