import AdRules
import AdRulesYAML

/// Messages about a value of another type or form than its key takes (`schema/type`, `schema/enum`,
/// `schema/version`, `yaml/ambiguous-bool`), and the advice they give.
extension Diagnostic {
    /// - Parameter advice: what to write instead, when the caller knows better than the expected kind says.
    package static func wrongType(_ key: String, expected: String, found: YAMLNode, file: String, advice: String? = nil) -> Diagnostic {
        let quoted = found.scalar.flatMap { typographicQuotes(around: $0.value) }
        return Diagnostic(
            .error, rule: "schema/type",
            message: "\(key) must be \(expected), not \(found.kindDescription)" + ((quoted ?? advice).map { ": " + $0 } ?? Self.advice(expected, found, key: key)),
            file: file, range: found.range)
    }

    /// For a value a word processor or a chat app quoted (`“6”`, `‘app_open’`): that YAML keeps typographic quotes as
    /// part of the value, and what to write; nil for any other value.
    package static func typographicQuotes(around value: String) -> String? {
        let scalars = value.unicodeScalars
        guard scalars.count >= 2, let first = scalars.first, let last = scalars.last,
            TypographicQuotes.all.contains(first), TypographicQuotes.all.contains(last)
        else { return nil }
        let inner = String(String.UnicodeScalarView(scalars.dropFirst().dropLast()))
        return "it is written in typographic quotes (\(first) \(last)), which YAML keeps as part of the value: write \(ControlCharacters.escaped(inner)) "
            + "without them (where a text needs quotes, type straight ones: \"\")"
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
        guard let scalar = found.scalar, !scalar.isNull, scalar.value.utf8.count <= 72 else { return nil }
        // Digits of another script (full-width `３`, typed with a Japanese or Chinese input method, or `٣`): YAML reads
        // only ASCII digits as a number, quoted or not.
        let scalars = scalar.value.unicodeScalars
        if scalars.contains(where: { !$0.isASCII }), scalars.allSatisfy({ $0.properties.numericType == .decimal }) {
            let quotes = scalar.style == .plain ? "" : " with no quotes"
            guard scalars.count <= 18 else { return "it is written in full-width or another script's digits: write it in ASCII digits\(quotes)" }
            let ascii = String(scalars.compactMap { $0.properties.numericValue.map { Character(String(Int($0))) } })
            if let value = Int(ascii), takes(value) { return "it is written in full-width or another script's digits: write \(value)\(quotes)" }
        }
        guard scalar.style == .plain, scalar.value.utf8.count <= 40 else { return nil }
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

    /// What to write for a plain value that is no finite number where a `number` goes: `.nan` and `.inf` (which YAML
    /// reads as numbers, and no comparison can use), a float too large for a double (`1e400`), digits grouped with
    /// underscores (`1_000.5`) or a hex float (`0x1p3`, Swift's and C's, text to YAML). The finding said only "must be
    /// a finite number, not \".nan\"". Any other value is told to be a number, as in 1.5.
    static func finiteNumber(_ found: YAMLNode) -> String {
        let plainNumber = "write a number, such as 1.5"
        guard let scalar = found.scalar, scalar.style == .plain, !scalar.isNull, scalar.value.utf8.count <= 72 else { return plainNumber }
        let text = scalar.value
        let bare = text.hasPrefix("+") || text.hasPrefix("-") ? String(text.dropFirst()) : text
        if [".nan", ".inf"].contains(bare.lowercased()) {
            return "NaN and infinity compare with no number, so a rule could not read them: write a finite number, such as 1.5"
        }
        if scalar.isCoreSchemaNumber, let value = Double(text), value.isInfinite {
            return "it is further from 0 than a double holds (about 1.8e308): write a number nearer 0"
        }
        // Underscores between digits are YAML 1.1's, which the 1.2 core schema reads as text.
        let digits = text.filter { $0 != "_" }
        if digits.count < text.count, !text.hasPrefix("_"), !text.hasSuffix("_"),
            case .value(let value) = YAMLScalar(value: digits, style: .plain).numberReading, FloatText.significantDigits(digits) <= 15
        {
            return "write \(FloatText.shortest(value)), with no underscores"
        }
        if bare.lowercased().hasPrefix("0x"), bare.lowercased().contains("p"), let value = Double(text), value.isFinite {
            return "YAML reads no hexadecimal fraction: write it in decimal digits, as in \(FloatText.shortest(value))"
        }
        return plainNumber
    }

    /// How to write a value plainly: without its quotes, or on the key's line rather than as a `>` or `|` block.
    static func plainly(_ scalar: YAMLScalar, _ shown: String) -> String {
        scalar.style == .literal || scalar.style == .folded ? "write \(shown) on the key's line, not as a > or | block" : "remove the quotes (\(shown))"
    }

    /// What to write instead, where the expected kind alone does not say it: a bool in quotes, a bool where text
    /// belongs, a value where a mapping or a list belongs. (A number in quotes: the caller's ``unquoting(_:takes:)``.)
    private static func advice(_ expected: String, _ found: YAMLNode, key: String) -> String {
        // `name: #1 test`: the text was read as a comment.
        if found.scalar?.isCommentedOut == true, textKinds.contains(where: { expected.hasPrefix($0) }) {
            return ": a # after a space starts a comment, so the value is empty: quote a text that starts with #, as in \"#1 test\""
        }
        // `placements: [null, a]`: a word YAML reads as no value at all.
        if let scalar = found.scalar, scalar.isNull, scalar.style == .plain, !scalar.value.isEmpty, expected == "a string" {
            return ": remove it, or quote it (\"\(scalar.shortValue)\") if it is a name"
        }
        if let scalar = found.scalar, !scalar.isNull {
            let unquoted = YAMLScalar(value: scalar.value, style: .plain)
            if scalar.style != .plain, expected.hasPrefix("a bool") || expected.hasPrefix("true or false"), unquoted.coreSchemaBool != nil {
                return ": " + plainly(scalar, unquoted.shortValue)
            }
            if scalar.coreSchemaBool != nil, expected == "a string" { return ": quote it (\"\(scalar.shortValue)\")" }
        }
        if expected == "a string" {
            // `ad_unit:` with nothing after it, or a text written as a list or a mapping: what a text is written as.
            if let scalar = found.scalar, scalar.isNull, scalar.value.isEmpty {
                // A key (`ad_unit`), or an item of a list (`a group member`), which has no colon.
                return key.contains(" ") ? ": write the text, or remove the empty item" : ": write the text after the colon, or remove \(key)"
            }
            // An item of a list (`deny: [[a]]`) is one text of its own, not a text on a key's line.
            let item = key.contains(" ")
            if found.items != nil { return item ? ": write the item as one text, not a list inside the list" : ": write one text on the key's line, with no [ ] or `- `" }
            if found.pairs != nil {
                return item
                    ? ": write the item as one text, not a mapping (in quotes when it holds a colon and a space)"
                    : ": write one text on the key's line (in quotes when it holds a colon and a space)"
            }
        }
        // Not for a model's count, which may be a mapping (`{poisson: 1}`): what it takes is in `expected`.
        if expected.hasPrefix("a whole number"), !expected.contains("{") {
            // `daily_cap: [3]`, `users: {n: 5}`: the message named the range but not how to write it. An item of a list
            // (`default: [[1]]`) is on no key's line of its own.
            let item = key.contains(" ")
            if found.items != nil {
                return item ? ": write the item as one whole number, not a list inside the list" : ": write one whole number on the key's line, in digits, with no [ ] or `- `"
            }
            if found.pairs != nil {
                return item ? ": write the item as one whole number, not a mapping" : ": write one whole number on the key's line, in digits, with no { } and no keys under it"
            }
        }
        if expected.hasPrefix("true or false") || expected.hasPrefix("a bool"), found.items != nil || found.pairs != nil {
            // `enabled: [true]`: the message named the kind but not how to write it. A key of a block
            // (`launch.show_on_first_load`) is written by its own name inside the block.
            let written = key.split(separator: ".").last.map(String.init) ?? key
            return key.contains(" ") ? ": write true or false" : ": write true or false on the key's line, as in \(written): false"
        }
        switch expected {
        case "a mapping of keys to values":
            // `launch:` then `- show_on_first_load: true` and `- max_wait: 5s`: its keys written as items of a list.
            // (Only items whose first keys differ: `- id: a`, `- id: b` are records, not keys of one mapping.)
            if let items = found.items, !items.isEmpty, items.count <= 100, case let keys = items.compactMap({ $0.pairs?.first?.key.scalar?.value }),
                keys.count == items.count, Set(keys).count == keys.count
            {
                return ": " + keysAsListItems(keys.prefix(4), items: items.count)
            }
            if let scalar = found.scalar, scalar.style == .plain, !scalar.isNull, let advice = gluedKeyAdvice(scalar.value) { return ": " + advice }
            return ": write key: value pairs, one a line, or {key: value}"
        case "a list": return ": write [a, b], or each item on its own line after `- `"
        default: return ""
        }
    }

    /// For a block's one key written glued to its value (`format:banner`), or after a colon followed by a space that is
    /// no space to YAML (`format:` and a no-break space, as a word processor or a chat app types it): YAML reads the line
    /// as a text, so the block holds no key at all. The message quoted the line, which looked right (`"format: banner"`),
    /// and said to write `key: value` pairs. Nil for any other text.
    /// - Parameter text: a plain value (quoted, its colon was typed on purpose).
    static func gluedKeyAdvice(_ text: String) -> String? {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isWhitespace || PastedSpace.name(of: scalar) != nil }
        // `format：banner`: the full-width colon a Chinese or Japanese input method types.
        if let (key, value) = GluedKey.fullWidthColonSplit(text) {
            let shown = YAMLScalar.shortened(String(String.UnicodeScalarView(value.unicodeScalars.drop(while: isSpace).prefix { $0 != " " })))
            return FullWidthColon.advice(key: YAMLScalar.shortened(key), value: shown, readsAsOneText: true)
        }
        // A word before the colon, not a time's digits (`12:30`) or a URL's scheme (`https://`).
        guard let glued = GluedKey.split(text), GluedKey.isPlain(glued.key), glued.key.unicodeScalars.first?.properties.isAlphabetic == true,
            !glued.value.hasPrefix("/")
        else { return nil }
        let key = YAMLScalar.shortened(glued.key)
        // The value as it would read once the space is put right: up to the line's end (a plain text folded over several
        // lines holds the next keys too, after a space).
        let value = glued.value.unicodeScalars.drop(while: isSpace).prefix { $0 != " " }
        let shown = YAMLScalar.shortened(String(String.UnicodeScalarView(value)))
        guard let space = glued.value.unicodeScalars.first, isSpace(space) else {
            return "YAML reads a key only with a space after its colon, so \(key):\(shown) is one text, not a key and its value: "
                + "write \(key): \(shown)"
        }
        let named = PastedSpace.name(of: space).map { "\(CodePoints.codePoint(space)) (\($0))" } ?? CodePoints.codePoint(space)
        return "the space after the colon of \(key) is \(named), which YAML does not take for a space, so it reads the key and "
            + "its value as one text: retype it as an ordinary space, as in \(key): \(shown)"
    }

    /// A mapping's keys written as items of a list (`launch:` then `- show_on_first_load: true`, `- max_wait: 5s`),
    /// told to lose their `- `.
    /// - Parameters:
    ///   - keys: the first key of each of the first items (at most 4 are named).
    ///   - items: how many items there are.
    static func keysAsListItems(_ keys: some Collection<String>, items: Int) -> String {
        let named = keys.prefix(3).map { YAMLScalar.shortened($0) }
        guard let last = named.last else { return "write key: value pairs, one a line, or {key: value}" }
        let listed = named.count == 1 ? last : named.dropLast().joined(separator: ", ") + (items > 3 ? ", " : " and ") + last
        return "its keys are written as items of a list, after `- `: remove the `- ` before \(listed)\(items > 3 ? " and the others" : "")"
    }

    /// For a list of words written without its brackets (`reasons: ad_not_ready`, or `ad_not_ready, min_interval`): the
    /// list meant. Nil for any other value.
    static func wordsAsListAdvice(_ found: YAMLNode) -> String? {
        guard let scalar = found.scalar, !scalar.isNull, scalar.style == .plain, case let items = listItems(scalar.value), !items.isEmpty else { return nil }
        return "write it in brackets, [\(items.joined(separator: ", "))], or each item on its own line after `- `"
    }

    /// The items a plain value written where a list belongs was meant to hold (`a, b` holds two), each a plain word; none
    /// when a part is no plain word (the value is then no list written without its brackets).
    private static func listItems(_ text: String) -> [String] {
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let isWord = { (item: String) in
            !item.isEmpty && item.count <= 64 && item.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.*".unicodeScalars.contains($0) }
        }
        return items.count <= 20 && items.allSatisfy(isWord) ? items : []
    }

    /// The expected kinds of values that are texts, which a product manager may start with a #.
    private static let textKinds = ["a string", "a sentence", "a name", "a plain word", "a word", "an expression", "a value"]

    /// A plain value YAML reads as no string (`kind`: a number, a boolean) where a string is expected.
    static func scalarWhereString(_ key: String, value: String, kind: String, file: String, range: SourceRange) -> Diagnostic {
        let shown = YAMLScalar(value: value, style: .plain).shortValue
        return Diagnostic(
            .error, rule: "schema/type", message: "\(key) must be a string, not the \(kind) \(shown): quote it (\"\(shown)\")",
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

    /// A list of named entries (`tests`, `segments`) written as a mapping keyed by name, as a rule file keys placements.
    package static func keyedByName(_ key: String, entry: String, name: String, found: YAMLNode, file: String) -> Diagnostic {
        let name = YAMLScalar.shortened(name)
        return wrongType(
            key, expected: "a list", found: found, file: file,
            advice: "write each \(entry) as a list item with its name, `- name: \(name)` in place of `\(name):`, its settings indented under it as they are")
    }

    /// More values than a message lists beside the one it guesses was meant.
    private static let longList = 20

    /// - Parameter advice: what to write, when the caller knows better than the closest allowed value.
    /// - Parameter allowed: the values; nil for a finding past the file's limit, which is only counted (its message,
    ///   never shown, neither lists them nor searches them for the one meant: the messages of a scenario's 8 million
    ///   unknown reason codes, each listing the 33 codes, took 40 s to build).
    static func unknownEnum(_ key: String, value: String, allowed: [String]?, advice: String? = nil, file: String, range: SourceRange) -> Diagnostic {
        guard let allowed else { return Diagnostic(.error, rule: "schema/enum", message: "\(key) has an unknown value", file: file, range: range) }
        let written = "\"\(ControlCharacters.escaped(YAMLScalar.shortened(value)))\""
        var message = "\(key) must be one of \(allowed.joined(separator: ", ")); not \(written)"
        // A yes or no answers no question here (`environment: yes` is not "test" misspelt): the values are listed alone.
        let isAnswer = YAMLScalar.ambiguousBools.contains(value.lowercased())
        if let advice = advice ?? typographicQuotes(around: value) {
            message += ": " + advice
        } else if !isAnswer,
            let suggestion = Suggestion.synonym(for: value, in: allowed) ?? Suggestion.closest(to: value, in: allowed) ?? Suggestion.meant(by: value, in: allowed)
        {
            // A long list (the 33 reason codes) would bury the one value meant: it is named first, and the list left out.
            message = allowed.count > longList
                ? "\(key) must be one of \(allowed.count) values, not \(written): " + Suggestion.didYouMean(suggestion, for: value)
                : message + ": " + Suggestion.didYouMean(suggestion, for: value)
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
}
