import AdRules
import AdRulesYAML


/// What reads a YAML file's nodes and records what is wrong with them: the rule-file reader and the
/// usage-model reader share its mappings, lists and key checks.
package protocol NodeReader {
    /// The path diagnostics name.
    var file: String { get }
    /// Records a finding.
    mutating func report(_ diagnostic: Diagnostic)
    /// Where the value's code point at an offset stands in the file, when the reader has the file's bytes.
    mutating func position(ofCodePoint offset: Int, in node: YAMLNode) -> SourcePosition?
}

extension NodeReader {
    /// The pairs of a mapping, or nil (with a `schema/type` diagnostic) for anything else.
    package mutating func mapping(_ node: YAMLNode, _ key: String) -> [YAMLPair]? {
        if let pairs = node.pairs { return pairs }
        report(.wrongType(key, expected: "a mapping of keys to values", found: node, file: file))
        return nil
    }

    /// `version: 1`: another whole number is `schema/version`; anything else, a quoted "1" too, is `schema/type`.
    /// - Parameter documents: what the file is, in the plural (`rule files`, `usage models`).
    package mutating func checkVersion(_ node: YAMLNode, documents: String) {
        guard let scalar = node.scalar, let number = FieldReader.intValue(scalar) else {
            report(.wrongType("version", expected: "the whole number 1", found: node, file: file, advice: "write version: 1"))
            return
        }
        if number != 1 { report(.badVersion(scalar.value, documents: documents, file: file, range: node.range)) }
    }

    /// Whether a text is printable ASCII alone, as most are (ids, ad units): read on its UTF-8 bytes in place, where
    /// `ControlCharacters.contains(in:)` (the run-time module's, kept free of unsafe buffers) walks a UTF-8 view at about
    /// 30 instructions a byte. A text that is not (or not contiguous) goes to that check.
    static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } } ?? false
    }

    /// The text, or nil (with a diagnostic) when it is longer than a compiled policy may hold (4096 characters) or
    /// holds a control character: texts end up in compiled policies, logs, terminals and reports.
    package mutating func checkedText(_ text: String, _ key: String, _ node: YAMLNode) -> String? {
        if text.utf8.count > PolicyIDs.maxTextLength, text.unicodeScalars.count > PolicyIDs.maxTextLength {
            report(.tooLong(key, length: text.unicodeScalars.count, file: file, range: node.range))
            return nil
        }
        if !Self.isPrintableASCII(text), ControlCharacters.contains(in: text), let control = text.unicodeScalars.first(where: ControlCharacters.isControl) {
            // At the character itself: a tab at the end of a block's second line, not the block's `>` (a finding's
            // position is where to look).
            let scalars = text.unicodeScalars
            let offset = scalars.firstIndex(where: ControlCharacters.isControl).map { scalars.distance(from: scalars.startIndex, to: $0) }
            let at = offset.flatMap { position(ofCodePoint: $0, in: node) }.map { SourceRange(at: $0) } ?? node.range
            report(.controlCharacter(key, scalar: control, file: file, range: at))
            return nil
        }
        return text
    }

    /// The items of a sequence, or nil (with a diagnostic).
    /// - Parameter example: an item as it is written, for the message (`- {placement: …}`).
    /// - Parameter ofWords: the list's items are words (codes, ids, texts): a word or words written where it belongs
    ///   (`reasons: ad_not_ready`, `deny: a, b`) are told the list to write, `[ad_not_ready]`, `[a, b]`.
    package mutating func sequence(_ node: YAMLNode, _ key: String, example: String? = nil, ofWords: Bool = false) -> [YAMLNode]? {
        if let items = node.items { return items }
        let advice = example.map { "write each item on its own line, as in \($0)" } ?? (ofWords ? Diagnostic.wordsAsListAdvice(node) : nil)
        report(.wrongType(key, expected: "a list", found: node, file: file, advice: advice))
        return nil
    }

    /// A list of named entries (`segments`, `tests`). One written as a mapping keyed by name, as a rule file keys its
    /// placements, is told to make each entry a list item with `name:` (its settings stay indented as they are).
    /// - Parameter entryKeys: the keys an entry takes: a first key among them is an entry's own key, not its name.
    package mutating func namedList(_ node: YAMLNode, _ key: String, entry: String, entryKeys: [String]) -> [YAMLNode]? {
        // Only a name that reads back as written is advised (`"#1 test"` would be a comment after `name: `).
        if let first = node.pairs?.first, first.value.pairs != nil, let name = first.key.scalar?.value, !entryKeys.contains(name),
            name.split(separator: " ").allSatisfy({ GluedKey.isPlain(String($0)) }), !name.hasPrefix("-"), !name.hasSuffix(":"), !name.contains(": "),
            case let plain = YAMLScalar(value: name, style: .plain), !plain.isNull, plain.coreSchemaBool == nil, !plain.isCoreSchemaNumber
        {
            report(.keyedByName(key, entry: entry, name: name, found: node, file: file))
            return nil
        }
        return sequence(node, key)
    }

    /// Splits a mapping into known keys, reporting unknown ones (with "did you mean"). A plain `<<` merge key is
    /// left out: the YAML reader has reported it already.
    /// - Parameter belongsIn: for a file kind with blocks of its own (a usage model), where a key unknown here belongs.
    package mutating func fields(
        _ pairs: [YAMLPair], allowed: [String], context: String, belongsIn: (String) -> String? = { _ in nil }
    ) -> [(key: String, pair: YAMLPair)] {
        var result: [(key: String, pair: YAMLPair)] = []
        // The keys present, which an unknown key's "did you mean" leaves out: made at the first unknown key (a set a
        // mapping cost about 3,000 instructions a `caps` item), once (made again for each, 20,000 unknown keys in a group
        // took 25 s).
        var present: Set<String>?
        for pair in pairs {
            guard let key = pair.key.scalar?.value else {
                report(.wrongType("a key \(Diagnostic.within(context))", expected: "a plain word", found: pair.key, file: file))
                continue
            }
            if allowed.contains(key) {
                result.append((key, pair))
            } else if !FieldReader.isMergeKey(pair.key) {
                let known = present ?? Set(pairs.compactMap { $0.key.scalar?.value }.filter(allowed.contains))
                present = known
                report(.unknownKey(
                    key, in: context, allowed: allowed, file: file, range: pair.key.range, belongsIn: belongsIn(key), isPlain: pair.key.scalar?.style == .plain,
                    present: known))
            }
        }
        return result
    }

    /// Whether a key is YAML's merge key: a plain `<<`, which the YAML reader reports as `yaml/alias`. A quoted `"<<"`
    /// is an ordinary key.
    static func isMergeKey(_ key: YAMLNode) -> Bool {
        guard let scalar = key.scalar else { return false }
        return scalar.style == .plain && scalar.value == "<<"
    }
}
