import AdRules

/// The words of the syntax advice, read from the text of the line to fix.
extension YAMLEventCursor {
    /// Where the key of a line starts, in bytes: past its indentation, a list item's `- ` and a byte-order mark.
    static func keyStart(_ line: Substring) -> Int {
        line.utf8.count - line.drop { $0 == " " || $0 == "-" || $0 == "\u{FEFF}" }.utf8.count
    }

    /// Whether a line is a key glued to its value (`version:1`, `- format:banner`), with no `: ` anywhere on it.
    static func isKeyGluedToValue(_ line: Substring) -> Bool {
        let text = line.drop { $0 == " " || $0 == "-" || $0 == "\u{FEFF}" }
        // A full-width colon (`format：banner`, as an input method for Chinese or Japanese types it) is no colon to YAML,
        // with a space after it or not.
        guard !text.contains(": "), let colon = text.firstIndex(where: { $0 == ":" || $0 == FullWidthColon.character }), colon > text.startIndex else { return false }
        let key = text[..<colon]
        let value = text[text.index(after: colon)...]
        // Only after a setting's name: prose in Chinese or Japanese holds full-width colons of its own (`注意：…`, a comment
        // without its #).
        if text[colon] == FullWidthColon.character { return isKeyLike(key) && !value.isEmpty }
        guard let first = key.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        // A word before the colon and a value after it (not a URL's `//`, not a time's digits on both sides).
        return key.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
            && !value.isEmpty && !value.hasPrefix("/") && !value.hasPrefix(" ")
    }

    /// The key of a line that starts with a key (`word:`, `"word":` or `'word':`, then a space, a tab or the line's
    /// end), else nil.
    static func plainKey(_ line: Substring) -> Substring? {
        let quote = line.first == "\"" || line.first == "'" ? line.first : nil
        let body = quote == nil ? line : line.dropFirst()
        let key = body.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        guard let first = key.first, first.isLetter || first == "_" else { return nil }
        var rest = body.dropFirst(key.count)
        if let quote {
            guard rest.first == quote else { return nil }
            rest = rest.dropFirst()
        }
        guard rest.first == ":", rest.count == 1 || rest.dropFirst().first == " " || rest.dropFirst().first == "\t" else { return nil }
        return key
    }

    /// A key of more than 1024 characters is not a key to libyaml (YAML's limit on an implicit key): its colon then
    /// reads as misplaced, whatever the indentation.
    static func longKeyAdvice(_ line: Substring) -> String? {
        let text = line.drop { $0 == " " || $0 == "-" || $0 == "{" }
        guard let colon = text.firstIndex(of: ":"), text.distance(from: text.startIndex, to: colon) > 1024 else { return nil }
        return "a key longer than 1024 characters is not read as a key in YAML: shorten it (an id holds 1-64 characters)"
    }

    /// In a `{ }` mapping or a `[ ]` list, a key of more than 1024 characters: libyaml reads it as no key and stops at
    /// its colon (`byte`, in the line), where it says a comma or a closing bracket is missing. The key is the text from
    /// the `{`, `[` or `,` before it.
    static func longFlowKeyAdvice(_ line: Substring, colonAt byte: Int) -> String? {
        // libyaml stopped at a colon, and what stands before it since the last separator is one text, no key and value
        // (`ad_unit: <1,100 characters> daily_cap: 3` lacks a comma after a long value: the close-or-separate advice).
        guard byte < line.utf8.count, Array(line.utf8)[byte] == UInt8(ascii: ":") else { return nil }
        let head = String(decoding: Array(line.utf8.prefix(byte)), as: UTF8.self)
        let start = head.lastIndex { $0 == "{" || $0 == "[" || $0 == "," }.map { head.index(after: $0) } ?? head.startIndex
        let key = head[start...].trimmingCharacters(in: .whitespaces)
        guard key.count > 1024, !key.contains(": ") else { return nil }
        return "a key longer than 1024 characters is not read as a key in YAML: shorten it (an id holds 1-64 characters)"
    }

    /// Whether a word is written as the settings of rule files, scenarios and models are: a lowercase letter, then
    /// lowercase letters, digits and `_` (`daily_cap`, `first_sessions`).
    static func isSettingName(_ word: Substring) -> Bool {
        guard let first = word.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// Whether a word may be a key a product manager meant: an ASCII letter, then letters, digits, `_`, `.` and `-`.
    static func isKeyLike(_ word: Substring) -> Bool {
        guard let first = word.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first) else { return false }
        return word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "_.-".unicodeScalars.contains($0) }
    }

    /// `format = banner`, as other languages write settings: YAML reads the whole line as one plain value. Nil for a
    /// line that is no word, `=` and a value.
    static func equalsForColonAdvice(_ line: Substring) -> String? {
        let text = line.drop { $0 == " " || $0 == "-" }
        guard let equals = text.range(of: " = ") ?? text.range(of: "=") else { return nil }
        let key = text[..<equals.lowerBound].trimmingCharacters(in: .whitespaces)
        let value = text[equals.upperBound...].trimmingCharacters(in: .whitespaces)
        guard isKeyLike(Substring(key)), !value.isEmpty, !value.hasPrefix("=") else { return nil }
        return "a key takes a colon and a space, not =: write \(Self.shortened(Substring(key))): \(Self.shortened(Substring(value)))"
    }

    /// `daily_cap:6` (no space after the colon) reads as one plain word, and libyaml stops at the next line.
    /// - Parameter number: the line's number when libyaml tripped over a later line: the advice then names it.
    /// - Parameter valueAbove: the key of a plain value on the line above, which the line may have been meant to
    ///   continue (``missingColonAdvice(_:valueAbove:)``).
    static func spaceAfterColonAdvice(_ line: Substring, lineNumber number: Int? = nil, valueAbove: Substring? = nil) -> String {
        // Words with no key, and a URL alone, name their line themselves.
        let name = number.map { "line \($0)" } ?? "this line"
        if let advice = wordsWithNoKeyAdvice(line, name: name) ?? urlWithNoKeyAdvice(line, name: name) { return advice }
        let advice = spaceAfterColonAdviceOnItsLine(line, valueAbove: valueAbove)
        return number.map { "on line \($0), " + advice } ?? advice
    }

    private static func spaceAfterColonAdviceOnItsLine(_ line: Substring, valueAbove: Substring?) -> String {
        if let advice = longKeyAdvice(line) { return advice }
        if let advice = equalsForColonAdvice(line) { return advice }
        let text = line.drop { $0 == " " || $0 == "-" }
        if let colon = text.firstIndex(of: FullWidthColon.character), case let key = text[..<colon], isKeyLike(key) {
            let value = text[text.index(after: colon)...].drop { $0 == " " }
            return FullWidthColon.advice(key: Self.shortened(key), value: Self.shortened(value), readsAsOneText: false)
        }
        if let colon = text.firstIndex(of: ":"), colon > text.startIndex, text.index(after: colon) < text.endIndex,
            text[text.index(after: colon)] != " "
        {
            let key = text[..<colon]
            let value = text[text.index(after: colon)...]
            // A space that is no space to YAML (a non-breaking space, as word processors and chat apps type it) is named:
            // the line looks right, and advice that copied it would look right and fail again.
            if let first = value.unicodeScalars.first, first.properties.isWhitespace, !first.isASCII {
                let code = CodePoints.codePoint(first)
                let rest = value.unicodeScalars.drop { $0.properties.isWhitespace }
                return "the space after the colon of \(Self.shortened(key)) is a \(code) space, which YAML does not take for one: "
                    + "retype it as an ordinary space, as in \(Self.shortened(key)): \(Self.shortened(Substring(String(String.UnicodeScalarView(rest)))))"
            }
            return "a key needs a space after its colon: write \(Self.shortened(key)): \(Self.shortened(value))"
        }
        if let advice = missingColonAdvice(line, valueAbove: valueAbove) { return advice }
        return "a key needs a colon and a space before its value, as in daily_cap: 6"
    }

    /// `format interstitial`: a key and its value with no colon between them. Nil unless the line is a key-like word
    /// and one value (three words or more are `wordsWithNoKeyAdvice`'s).
    /// - Parameter valueAbove: the key of a plain value on the line above, lined up with this one: the line may be that
    ///   value wrapped (`message: Never interrupt a` then `purchase flow`), which YAML continues only when indented more.
    static func missingColonAdvice(_ line: Substring, valueAbove: Substring? = nil) -> String? {
        let text = line.drop { $0 == " " || $0 == "-" }
        let words = text.split(separator: " ")
        guard words.count == 2, !text.contains(":"), !text.contains("="), !text.contains("#"), isKeyLike(words[0]) else { return nil }
        let write = "write \(Self.shortened(words[0])): \(Self.shortened(words[1]))"
        if let key = valueAbove {
            return "\(Self.shortened(Substring(text))) is read as a key with no colon: if it continues the value of \(Self.shortened(key)) "
                + "above, indent it more than \(Self.shortened(key)) (or write the value on one line); if it is a setting, \(write)"
        }
        return "a key needs a colon and a space before its value: \(write)"
    }

    /// `  app_open` alone on its line, then its settings indented under it: the key of a block with no colon, which YAML
    /// reads as the start of a text running on into the next line. Nil for any other line.
    static func blockKeyWithoutColonAdvice(_ line: Substring, above below: Substring) -> String? {
        let indentation = line.prefix { $0 == " " }.count
        let text = line.dropFirst(indentation).drop { $0 == "-" || $0 == " " }.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, !text.contains(" "), !text.contains(":"), isKeyLike(Substring(text)),
            below.prefix(while: { $0 == " " }).count > indentation
        else { return nil }
        return "the key \(Self.shortened(Substring(text))) holds the block below it and needs a colon: write \(Self.shortened(Substring(text))):"
    }

    /// `format: app_open` then `  min_interval: 4m` indented further: a key under one whose value is on its line, which
    /// cannot hold keys. Says both indentations, so the two lines can be lined up. Nil when the line above is no
    /// `key: value` indented less than this one.
    static func indentedUnderAValueAdvice(_ above: Substring, line number: Int, _ line: Substring) -> String? {
        let indentation = line.prefix { $0 == " " }.count
        var aboveIndentation = above.prefix { $0 == " " }.count
        let text = line.dropFirst(indentation)
        var aboveText = above.dropFirst(aboveIndentation)
        // A list item's first key (`- id: r`) stands past its dash.
        if aboveText.hasPrefix("- ") {
            let dash = 1 + aboveText.dropFirst().prefix { $0 == " " }.count
            aboveIndentation += dash
            aboveText = aboveText.dropFirst(dash)
        }
        guard aboveIndentation < indentation, !aboveText.hasPrefix("-"), !aboveText.hasPrefix("#"),
            let separator = aboveText.range(of: ": "), let colon = text.firstIndex(of: ":")
        else { return nil }
        let value = aboveText[separator.upperBound...].trimmingCharacters(in: .whitespaces)
        guard let first = value.first, !"#|>&!".contains(first) else { return nil }
        let key = Self.shortened(text[..<colon]), aboveKey = Self.shortened(aboveText[..<separator.lowerBound])
        return "\(key) is indented \(indentation) spaces, more than \(aboveKey) on line \(number) (\(aboveIndentation)), whose value is on its line, "
            + "so it cannot hold keys: line the two up (the keys of one block share one indentation)"
    }

    /// `    At least 4 minutes between app-open ads`: a line of words with no colon, most often a comment whose # was
    /// lost. Nil for any other line.
    /// - Parameter name: how the advice names the line.
    static func wordsWithNoKeyAdvice(_ line: Substring, name: String = "this line") -> String? {
        let text = line.trimmingCharacters(in: .whitespaces)
        guard text.split(separator: " ").count >= 3, !text.contains(":"), !text.hasPrefix("-"), !text.hasPrefix("#"), !text.contains("=") else { return nil }
        return "\(name) is words with no key: if it is a comment, start it with # (# \(Self.shortened(Substring(text)))); "
            + "a setting is a key, a colon and a space, then its value, as in daily_cap: 6"
    }

    /// A line that is a URL alone (`https://example.com/ads`, a link pasted without its `#`): its scheme's colon is no
    /// key's, and "a space after the colon" would make it `https: //example.com/ads`. Nil for any other line.
    static func urlWithNoKeyAdvice(_ line: Substring, name: String = "this line") -> String? {
        let text = line.trimmingCharacters(in: .whitespaces)
        guard !text.contains(" "), let scheme = text.range(of: "://"), scheme.lowerBound > text.startIndex,
            text[..<scheme.lowerBound].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }),
            text[text.startIndex].isLetter
        else { return nil }
        return "\(name) is a URL with no key: if it is a comment, start it with # (# \(Self.shortened(Substring(text)))); "
            + "if it is a value, write it after its key, as in url: \(Self.shortened(Substring(text)))"
    }

    /// `message: Note: no ads` holds ": " in a plain value, which YAML reads as a second key; a key's own colon
    /// there (`colonAt` is the line's first `:`) means the key is not lined up with those beside it.
    /// `-id: r`, `-{max: 3, window: 30m}`: a list item whose dash has no space after it, which YAML reads as part of a
    /// key or a text. Nil for any other line (`---` included).
    static func dashGluedToItemAdvice(_ line: Substring) -> String? {
        let text = line.drop { $0 == " " }
        guard text.hasPrefix("-"), let next = text.dropFirst().first, next != " ", next != "-", next != "\t", !next.isNumber else { return nil }
        let item = Self.beforeComment(text.dropFirst()).trimmingCharacters(in: .whitespaces)
        return "a list item starts with - and a space: write - \(Self.shortened(Substring(item)))"
    }

    /// The dashes a word processor or a web page writes where a list item's hyphen belongs, by name.
    static let typographicDashes: [Unicode.Scalar: String] = [
        "\u{2010}": "a hyphen", "\u{2011}": "a non-breaking hyphen", "\u{2012}": "a figure dash", "\u{2013}": "an en dash",
        "\u{2014}": "an em dash", "\u{2015}": "a horizontal bar", "\u{2212}": "a minus sign", "\u{FE63}": "a small hyphen-minus",
        "\u{FF0D}": "a full-width hyphen-minus",
    ]

    /// A list item written with a typographic dash (`– {max: 3, window: 30m}`, as a word processor writes a list): YAML
    /// reads the dash as text, and the item's first `: ` as a key's. Nil for any other line.
    /// - Parameter name: what the finding calls the line (`line 6`, when it is not the finding's own).
    static func typographicDashAdvice(_ line: Substring, name lineName: String = "this line") -> String? {
        let text = line.drop { $0 == " " }
        guard let dash = text.unicodeScalars.first, let name = typographicDashes[dash], text.unicodeScalars.dropFirst().first == " " else { return nil }
        let item = text.unicodeScalars.dropFirst(2).drop { $0 == " " }
        let code = "U+" + String(dash.value, radix: 16, uppercase: true)
        return "\(lineName) starts with \(name) (\(code), as a word processor writes a list), which YAML reads as text: a list item starts with "
            + "a plain hyphen: write - \(Self.shortened(Substring(item)))"
    }

    /// Whether the item after a line's dash holds a key, as YAML reads one: a colon before a space, a tab or the line's end,
    /// outside quotes and before a comment (`– max: 3`, `– max:` then a block; not `– abc`, `– "a: b"` or `– abc # note: x`).
    static func dashItemHoldsKey(_ line: Substring) -> Bool {
        let item = Self.beforeComment(Substring(line.drop { $0 == " " }.unicodeScalars.dropFirst(2).drop { $0 == " " }))
        guard let first = item.first, first != "\"", first != "'" else { return false }
        let bytes = Array(item.utf8)
        return bytes.indices.contains { bytes[$0] == UInt8(ascii: ":") && ($0 + 1 == bytes.count || bytes[$0 + 1] == 0x20 || bytes[$0 + 1] == 0x09) }
    }

    static func mappingValueAdvice(_ line: Substring, colonAt byte: Int) -> String {
        if let advice = typographicDashAdvice(line) { return advice }
        if let advice = longKeyAdvice(line) { return advice }
        if let first = line.utf8.firstIndex(of: UInt8(ascii: ":")), line.utf8.distance(from: line.utf8.startIndex, to: first) == byte {
            return "this key is not lined up with the keys beside it: indent it as they are, or under the key it belongs to"
        }
        let text = line.drop { $0 == " " || $0 == "-" }
        if let separator = text.range(of: ": ") {
            let key = text[..<separator.lowerBound]
            var value = Substring(text[separator.upperBound...])
            // A comment after the value stays a comment: only the value goes in quotes.
            value = Self.beforeComment(value)
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            // `daily_cap: 6:`: a colon ending the value makes it a key; it is most often a slip.
            if !key.isEmpty, trimmed.count > 1, trimmed.hasSuffix(":"), !trimmed.dropLast().contains(":") {
                let bare = Self.shortened(Substring(trimmed.dropLast()))
                return "the colon after \(bare) makes it a key: remove it (\(Self.shortened(key)): \(bare)), or, if the colon is part of a text, "
                    + "quote the value (\(Self.shortened(key)): \"\(bare):\")"
            }
            // `when: screen: checkout`: a condition compares with ==, and a text in it is quoted.
            if key.drop(while: { $0 == " " || $0 == "-" || $0 == "{" }) == "when", let inner = trimmed.range(of: ": "),
                case let name = trimmed[..<inner.lowerBound], Self.isKeyLike(name)
            {
                let compared = trimmed[inner.upperBound...].trimmingCharacters(in: .whitespaces)
                // `when: screen: checkout or premium` may hold more than one condition: the colon is named, not the whole rewritten.
                guard !compared.contains(" ") else {
                    return "a condition compares with ==, not a colon: write \(Self.shortened(name)) == … in place of \(Self.shortened(name)): …, with a text in quotes"
                }
                // A text is quoted; true, false, a number or a duration (`30s`, `1h30m`) is written as it is.
                let bare = ["true", "false"].contains(compared) || Double(compared) != nil
                    || compared.range(of: "^([0-9]+(ms|s|m|h|d))+$", options: .regularExpression) != nil
                let literal = bare || compared.first == "\"" || compared.first == "'" ? compared : "\"\(compared)\""
                return "a condition compares with ==, not a colon: write when: \(Self.shortened(name)) == \(Self.shortened(Substring(literal)))"
            }
            // `- event: app_launched, placement: app_open`: several keys on one line, as a flow mapping writes them.
            // Each part a word (`load_completed`) or a key and a word (`placement: a`): a sentence with a comma and a colon
            // in it (`message: Sorry, note: ads keep it free`) is a text to quote.
            func isWord(_ text: Substring) -> Bool { !text.isEmpty && !text.contains(" ") && !text.contains(":") }
            func isKeyAndWord(_ text: Substring) -> Bool {
                guard let colon = text.range(of: ": ") else { return false }
                return Self.isSettingName(text[..<colon.lowerBound]) && isWord(text[colon.upperBound...])
            }
            let parts = trimmed.components(separatedBy: ", ").map { Substring($0) }
            if Self.isSettingName(key), parts.count > 1, isWord(parts[0]), parts.dropFirst().allSatisfy(isKeyAndWord)
            {
                let item = line.drop { $0 == " " }.hasPrefix("- ") ? "- " : ""
                return "keys written on one line, separated by commas, go in braces: write \(item){\(Self.shortened(key)): \(Self.shortened(Substring(trimmed)))}"
            }
            // `grace: first_sessions: 2`: a setting written on its block's line, meant nested rather than as text.
            if !key.isEmpty, let inner = trimmed.range(of: ": "), case let (name, setting) = (trimmed[..<inner.lowerBound], trimmed[inner.upperBound...]),
                Self.isSettingName(name), !setting.isEmpty, !setting.contains(" "), !setting.contains(":")
            {
                return "a key's value cannot hold another key on the same line: write \(Self.shortened(key)): {\(name): \(setting)}, "
                    + "or \(name): \(setting) on the next line, indented under \(Self.shortened(key)):"
            }
            if !key.isEmpty, !trimmed.isEmpty, !trimmed.contains("\""), !trimmed.hasPrefix("'") {
                // In double quotes a backslash starts an escape: a value holding one goes in single quotes (a single
                // quote in it written twice).
                let quoted = trimmed.contains("\\")
                    ? "'\(Self.shortened(Substring(trimmed.replacingOccurrences(of: "'", with: "''"))))'"
                    : "\"\(Self.shortened(Substring(trimmed)))\""
                return "a value that holds \": \" must be quoted: write \(Self.shortened(key)): \(quoted)"
            }
        }
        return "a value that holds \": \" must be quoted, or the key indented under the one it belongs to"
    }

    /// A line's text up to its comment: a `#` after a space or a tab (a `#` inside a word is text).
    static func beforeComment(_ text: Substring) -> Substring {
        var previous: Character = "x"
        for i in text.indices {
            if text[i] == "#", previous == " " || previous == "\t" { return text[..<i] }
            previous = text[i]
        }
        return text
    }

    /// A value cut to a readable length for a message: 60 code points, not characters (one character of a letter and
    /// 100,000 variation selectors put 300 KB into a message).
    static func shortened(_ text: Substring) -> String {
        let scalars = text.unicodeScalars
        guard let cut = scalars.index(scalars.startIndex, offsetBy: 60, limitedBy: scalars.endIndex), cut < scalars.endIndex else {
            return String(text)
        }
        return String(Substring(scalars[..<cut])) + "…"
    }
}
