import AdRules
import AdRulesYAML

/// The keys each mapping of a rule file accepts: the single source for decoding, "did you mean" and the JSON Schema.
public enum RuleFileKeys {
    /// The top-level keys of a rule file.
    public static let top = [
        "version", "environment", "timezone", "session_timeout", "fullscreen_timeout", "load_timeout",
        "defaults", "placements", "groups", "attributes", "rules",
    ]
    /// The top-level keys whose value is a block of entries, not one setting.
    static let topBlocks: Set<String> = ["defaults", "placements", "groups", "attributes", "rules"]
    /// The top-level blocks written as a mapping that a placement's block could be taken for, but `placements:`
    /// itself (an entry is already in it).
    static let topBlocksOfEntries: Set<String> = ["defaults", "groups", "attributes"]
    /// A placement's keys: each setting's, or its block's, in `PlacementSetting` order. (The names of
    /// `PlacementFields.keys`, which the decoder knows a key by its index in.)
    public static let placement: [String] = PlacementFields.keys.map(\.name)
    /// The keys `defaults:` takes: a placement's, but its format and ad unit (each placement has its own).
    public static let defaults = placement.filter { key in
        PlacementSetting.allCases.contains { ($0.block?.rawValue ?? $0.key) == key && $0.isAllowedInDefaults }
    }
    /// The keys of a placement's `launch:` block.
    public static let launch = PlacementSetting.settings(in: .launch).map(\.name)
    /// The keys of a placement's `resume:` block.
    public static let resume = PlacementSetting.settings(in: .resume).map(\.name)
    /// The keys of a placement's `grace:` block.
    public static let grace = PlacementSetting.settings(in: .grace).map(\.name)
    /// The keys of one entry of `caps:`.
    public static let cap = ["max", "window"]
    /// The keys of a group.
    public static let group = ["placements"] + PlacementSetting.groupSettings.map(\.key)
    /// The keys of an attribute.
    public static let attribute = ["type", "default"]
    /// The keys of a custom rule.
    public static let rule = ["id", "deny", "when", "message"]
    /// Every key some block of a rule file has: an unknown key that is one of them is a setting in the wrong place.
    static let anywhere: Set<String> = Set(top + placement + launch + resume + grace + cap + group + attribute + rule + sharedSettings)
    /// The nested blocks of a placement and their keys.
    public static let placementBlocks = PlacementSetting.Block.allCases.map { ($0.rawValue, PlacementSetting.settings(in: $0).map(\.name)) }

    /// The keys written inside `block`.
    public static func keys(in block: PlacementSetting.Block) -> [String] { blockKeys[block] ?? [] }
    private static let blockKeys = Dictionary(uniqueKeysWithValues: PlacementSetting.Block.allCases.map { block in
        (block, PlacementSetting.settings(in: block).map(\.name))
    })

    /// Where a key that is unknown in a mapping belongs, when it is valid one level deeper or shallower:
    /// the advice for a product manager who indented it wrongly.
    static func relocation(of key: String, allowed: [String]) -> String? {
        // The spec's tables name nested settings with a dot (`launch.max_wait`); a rule file nests them.
        if allowed.contains(where: { placementBlocks.map(\.0).contains($0) }), let dot = key.firstIndex(of: "."),
            case let (block, name) = (String(key[..<dot]), String(key[key.index(after: dot)...])),
            allowed.contains(block), placementBlocks.contains(where: { $0.0 == block && $0.1.contains(name) })
        {
            return "\(key) is written as a block: write \(name): indented under `\(block):`, as in \(block): {\(name): …}"
        }
        if allowed == placement {
            if let block = PlacementSetting.Block.allCases.first(where: { keys(in: $0).contains(key) }) {
                // `resume` and `launch` are app_open's own: on another format the block is a second error.
                let owner = block.isAppOpenOnly ? " of an app_open placement" : ""
                return "\(key) belongs in the `\(block.rawValue):` block\(owner): indent it under `\(block.rawValue):`"
            }
            if top.contains(key) { return "\(key) is a top-level setting: indent it less, at the start of a line" }
        }
        if allowed == placement || allowed == group, cap.contains(key) {
            return "\(key) belongs in an entry of `caps:`, which takes max and window together: write `caps: [{max: 3, window: 30m}]`"
        }
        // A caps entry does not know whether a placement or a group holds it: only a key both take is sent there.
        if allowed == cap, placement.contains(key), group.contains(key) {
            return "\(key) is not part of a `caps:` entry, which takes max and window: write it beside `caps:`, outside the entry"
        }
        if let block = placementBlocks.first(where: { $0.1 == allowed })?.0, placement.contains(key) {
            return "\(key) is a placement setting, not part of `\(block):`: indent it one level less, beside `\(block):`"
        }
        // A key of a sibling block (`max_wait` under `resume:`, where `launch:` takes it): the block it belongs in, whose
        // block it is when only app_open has it, and this block's own key of the same kind when it has one.
        if let block = placementBlocks.first(where: { $0.1 == allowed })?.0,
            let other = PlacementSetting.Block.allCases.first(where: { $0.rawValue != block && keys(in: $0).contains(key) })
        {
            let owner = other.isAppOpenOnly ? " of an app_open placement" : ""
            let own = siblingCounterpart[block + "." + key].map { " (the wait of `\(block):` is \($0))" } ?? ""
            return "\(key) belongs in the `\(other.rawValue):` block\(owner), not in `\(block):`: move it under `\(other.rawValue):`, beside `\(block):`\(own)"
        }
        // A key of a placement's block (`max_delay`, `after_install`) is two levels deeper: the advice names the block,
        // so that following it gives a key the block takes.
        if allowed == top, !placement.contains(key), let block = PlacementSetting.Block.allCases.first(where: { keys(in: $0).contains(key) }) {
            let owner = block.isAppOpenOnly ? "an app_open placement" : "a placement"
            return "\(key) belongs in the `\(block.rawValue):` block of \(owner): indent it under the placement in `placements:` (or under `defaults:`), as in \(block.rawValue): {\(key): …}"
        }
        if allowed == top, placement.contains(key) {
            // A placement's format and ad unit are its own: `defaults:` may not set them.
            guard PlacementSetting(rawValue: key)?.isAllowedInDefaults != false else {
                return "\(key) is a placement setting: indent it under a placement in `placements:`"
            }
            return "\(key) is a placement setting: indent it under a placement in `placements:`, or under `defaults:` for every placement"
        }
        // A misspelt key of another block (`show_if_redy` among a placement's keys, `max_dealy` under `launch:`), close
        // to no key here: the key meant, and its block.
        if allowed == placement || placementBlocks.contains(where: { $0.1 == allowed }), Suggestion.closest(to: key, in: allowed) == nil {
            for block in PlacementSetting.Block.allCases where keys(in: block) != allowed {
                guard let meant = Suggestion.closest(to: key, in: keys(in: block)) else { continue }
                let owner = block.isAppOpenOnly ? " of an app_open placement" : ""
                return "did you mean \"\(meant)\"? It belongs in the `\(block.rawValue):` block\(owner): write \(meant): indented under `\(block.rawValue):`"
            }
        }
        return nil
    }

    /// A key of app_open's own blocks (`launch:`, `resume:`) on a placement of another format, written as the key
    /// (`max_wait`), dotted (`launch.max_wait`) or misspelt (`show_if_redy`, close to no key of `allowed`): the format has
    /// neither block, so it is told to go (moved into the block, it would be told that the block is app_open's own).
    /// - Parameter format: the placement's format; nil when its `format:` comes after the key, which is then told where
    ///   it belongs on app_open, and to go on another format.
    static func appOpenOnlyAdvice(for key: String, allowed: [String], format: AdFormat?) -> String? {
        guard format != .appOpen else { return nil }
        let blocks = PlacementSetting.Block.allCases.filter(\.isAppOpenOnly)
        var name = key
        if let dot = key.firstIndex(of: "."), blocks.contains(where: { $0.rawValue == key[..<dot] }) { name = String(key[key.index(after: dot)...]) }
        var meant: (block: PlacementSetting.Block, key: String, misspelt: Bool)?
        if let block = blocks.first(where: { keys(in: $0).contains(name) }) {
            meant = (block, name, false)
        } else if Suggestion.closest(to: key, in: allowed) == nil {
            for block in blocks {
                if let close = Suggestion.closest(to: key, in: keys(in: block)) {
                    meant = (block, close, true)
                    break
                }
            }
        }
        guard let meant else { return nil }
        guard let format else {
            return relocation(of: key, allowed: allowed).map { $0 + " (on another format, remove it)" }
        }
        let setting = "`\(meant.block.rawValue):` block, which only app_open placements have: remove it from this \(format.rawValue) placement"
        return meant.misspelt ? "did you mean \"\(meant.key)\"? It is a setting of the \(setting)" : "\(meant.key) is a setting of the \(setting)"
    }

    /// The key of a block that does what a sibling block's key does there: `launch.max_wait` and `resume.max_delay`.
    private static let siblingCounterpart = ["resume.max_wait": "max_delay", "launch.max_delay": "max_wait"]

    /// Top-level settings that several files may repeat only with equal values.
    public static let sharedSettings = ["environment", "timezone", "session_timeout", "fullscreen_timeout", "load_timeout", "defaults"]
}

/// A key and its value written with no space after the colon (`format:interstitial`), which YAML reads as one key.
package enum GluedKey {
    /// The key and value of `text`, or nil when it has no colon with text after it and none before.
    package static func split(_ text: String) -> (key: String, value: String)? {
        // Most keys hold no colon: looked for in the bytes first (a `:` character always holds that byte), not
        // character by character.
        guard text.utf8.contains(UInt8(ascii: ":")) else { return nil }
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return nil }
        let value = text[text.index(after: colon)...]
        guard let first = value.first, first != " ", first != ":" else { return nil }
        return (String(text[..<colon]), String(value))
    }

    /// Whether a text reads back as itself as a plain YAML value after `key: `: letters, digits and `_ - . + : /`
    /// only, starting with a letter, a digit or a sign (an id, a word, a number, a time).
    package static func isPlain(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.properties.isAlphabetic || ("0"..."9").contains(first) || first == "-" || first == "+" else {
            return false
        }
        return text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.+:/".unicodeScalars.contains($0) }
    }

    /// The keys a mapping's entries are written with, a glued key counted as its key (`ask:offer` as `ask`): a step
    /// with `{ask:offer}` is not also told it has no ask.
    package static func keysPresent(_ pairs: [YAMLPair]) -> Set<String> {
        Set(pairs.compactMap { pair in pair.key.scalar.map { key(of: $0.value) } })
    }

    /// The allowed key an unknown key was meant as, when its finding names it: glued to its value (`format:x`), or
    /// misspelt (`formta`, "did you mean \"format\"?", which the finding says unless it says where the key belongs,
    /// `told` false). A block is not also told it lacks that key.
    /// - Parameter relocation: where a key unknown in the block belongs, as the block's findings say it (nil: a rule
    ///   file's); a key told where it belongs is not told "did you mean", and so was not taken as misspelt.
    /// - Parameter synonyms: whether another tool's word for a key is taken as that key (not at a rule file's top level,
    ///   where `units:` beside `placements:` would leave the placements taken as unread).
    package static func keyMeant(
        _ written: String, allowed: [String], told: Bool = true, relocation: ((String) -> String?)? = nil, synonyms: Bool = true
    ) -> String? {
        if case let glued = key(of: written), glued != written, allowed.contains(glued) { return glued }
        // An allowed key is itself: where an unknown one would belong is looked for only for an unknown one.
        guard told, !allowed.contains(written) else { return nil }
        let relocated = relocation.map { $0(written) != nil } ?? (RuleFileKeys.relocation(of: written, allowed: allowed) != nil)
        guard !relocated else { return nil }
        // Another tool's word for a key (`members:` for `placements:`) is told as that key, and taken as it.
        if synonyms, let synonym = Suggestion.keySynonym(for: written, in: allowed) { return synonym }
        guard let meant = Suggestion.closest(to: written, in: allowed) else { return nil }
        // A typo keeps the first letter (`formta`, `verszion`); a word that only looks like a key (`normal`, `session`)
        // is told "did you mean" all the same, but the key is not taken as written.
        return meant.first?.lowercased() == written.first?.lowercased() ? meant : nil
    }

    /// ``keysPresent(_:)`` and the keys its unknown keys were meant as (``keyMeant(_:allowed:told:)``).
    package static func keysMeant(_ pairs: [YAMLPair], allowed: [String], relocation: ((String) -> String?)? = nil) -> Set<String> {
        keysPresent(pairs).union(pairs.compactMap { pair in pair.key.scalar.flatMap { keyMeant($0.value, allowed: allowed, relocation: relocation) } })
    }

    /// Whether a key starts with no-break spaces (U+00A0, pasted from a document) or other ``PastedSpace``s where its
    /// indentation should be: YAML reads them as part of the key.
    package static func isIndentedWithPastedSpaces(_ text: String) -> Bool {
        pastedSpace(in: text) != nil
    }

    /// The first pasted space (not U+0020) of a key's indentation, or nil when it has none.
    package static func pastedSpace(in text: String) -> Unicode.Scalar? {
        // Most keys start with a letter: only a space or a pasted one (0xC2, 0xE2 or 0xE3 first in UTF-8) can start such a key.
        guard let first = text.utf8.first, first == 0x20 || first == 0xC2 || first == 0xE2 || first == 0xE3 else { return nil }
        return text.unicodeScalars.prefix(while: isPastedIndentation).first { $0 != " " }
    }

    /// A space or a pasted one before a key: what a product manager pasted as its indentation.
    private static func isPastedIndentation(_ c: Unicode.Scalar) -> Bool { c == " " || PastedSpace.name(of: c) != nil }

    /// Whether a plain key (not a quoted one, whose spaces were typed on purpose) starts with pasted spaces.
    package static func isIndentedWithPastedSpaces(_ node: YAMLNode) -> Bool {
        guard let scalar = node.scalar, scalar.style == .plain else { return false }
        return isIndentedWithPastedSpaces(scalar.value)
    }

    /// A key without the pasted spaces and spaces before it.
    package static func unindented(_ text: String) -> String {
        // Most keys start with a letter: the text itself, not a copy built scalar by scalar.
        guard let first = text.unicodeScalars.first, isPastedIndentation(first) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.drop(while: isPastedIndentation)))
    }

    /// The key a product manager wrote: without the value glued to it, and without the no-break spaces (U+00A0) or other
    /// pasted spaces before it, which YAML reads as part of the key (each an error of its own, which says what to write).
    package static func key(of text: String) -> String {
        let unindented = unindented(text)
        return split(unindented)?.key ?? fullWidthColonSplit(unindented)?.key ?? unindented
    }

    /// The key and value of `format：banner`, a plain word and a full-width colon (U+FF1A, as an input method for Chinese
    /// or Japanese types it) before any ASCII colon, else nil.
    package static func fullWidthColonSplit(_ text: String) -> (key: String, value: String)? {
        // Most texts hold no such colon: looked for in the bytes first (its UTF-8 starts with 0xEF).
        guard text.utf8.contains(0xEF), let colon = text.firstIndex(of: FullWidthColon.character), case let key = String(text[..<colon]),
            !key.contains(":"), isPlain(key)
        else { return nil }
        return (key, String(text[text.index(after: colon)...]))
    }
}

extension [String] {
    /// The index of `key` among these names, each name's length compared before its text: a key differs from most
    /// names in length, and comparing two strings' texts is a call into the runtime (a placement's key was compared with
    /// about five names, some 170 instructions a key). The names are lowercase ASCII letters, digits and `_`
    /// (`DecoderPartsTests`), which no other text equals in Unicode's sense (the Kelvin sign equals `K`, not `k`): equal
    /// texts have equal lengths.
    func keyIndex(of key: String) -> Int? {
        let length = key.utf8.count
        return firstIndex { $0.utf8.count == length && $0 == key }
    }
}
