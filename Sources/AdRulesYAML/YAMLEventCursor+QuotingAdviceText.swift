import AdRules

/// The words of the advice to quote a value: one that a closing quote ends too early, or one that starts with a character
/// YAML reserves.
extension YAMLEventCursor {
    /// `when: "a" in tags`: a value that starts with a quote ends at the closing quote, and what follows it is not YAML.
    static func quotedValueAdvice(_ line: Substring) -> String? {
        let text = line.drop { $0 == " " || $0 == "-" || $0 == "{" }
        guard let separator = text.range(of: ": ") else { return nil }
        let key = text[..<separator.lowerBound]
        let value = text[separator.upperBound...].trimmingCharacters(in: .whitespaces)
        guard let quote = value.first, quote == "\"" || quote == "'",
            let close = value.dropFirst().firstIndex(of: quote), value.index(after: close) < value.endIndex
        else { return nil }
        let other: Character = quote == "\"" ? "'" : "\""
        // `when: "screen in ["a", "b"]"`, `message: 'Don't stop'`: the outer quotes were meant to hold the whole value,
        // and the same quote inside it ended it. The value goes in the other quotes (which keep the inner ones as
        // written), without the outer ones, which were never part of the text.
        // A quote ending a word of the text (`"screen in ["a`, `'Don't`) was not meant to close it; one followed by a space
        // closed a quoted word on purpose (`"vip" in tags and screen != "home"`), and the whole value is quoted as written.
        if value.count > 2, value.last == quote, let after = value[value.index(after: close)...].first, after != " ", after != "\t", after != "," {
            let inner = String(value.dropFirst().dropLast())
            let requoted = other == "'" ? "'" + inner.replacingOccurrences(of: "'", with: "''") + "'"
                : "\"" + inner.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            return "a quoted value ends at its closing quote, and this one holds \(quote) inside: write it in \(other == "'" ? "single" : "double") quotes, "
                + "as in \(Self.shortened(key)): \(Self.shortened(Substring(requoted)))"
        }
        guard !value.contains(other) else { return "a quoted value ends at its closing quote: quote the whole value" }
        return "a quoted value ends at its closing quote: quote the whole value, as in \(Self.shortened(key)): \(other)\(Self.shortened(Substring(value)))\(other)"
    }

    /// `name: @home screen`: a plain value cannot start with `@` or a backquote (YAML reserves them), nor with `%`, nor
    /// hold `|` or `>` first inside brackets. The advice quotes the value as written, under the key it was written for
    /// (`value` runs from the character libyaml refused to the end of the line).
    static func reservedCharacterAdvice(_ written: ReservedStart, rest: Substring, inBrackets: Bool) -> String {
        let start = Diagnostic.reservedCharacter
        // A comment after the value stays a comment; in brackets the value ends at the next , ] or }; a key ends at its
        // colon.
        var value = Self.beforeComment(rest)
        if inBrackets, let end = value.firstIndex(where: { $0 == "," || $0 == "]" || $0 == "}" }) { value = value[..<end] }
        if case .key(let key) = written { value = Substring(key) }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.contains("\\"), !trimmed.contains("\"") else { return start + ": quote it" }
        let quoted = "\"\(Self.shortened(Substring(trimmed)))\""
        switch written {
        case .listItem: return start + ": quote the item, as in - \(quoted)"
        case .key: return start + ": quote the key, as in \(quoted):"
        case .value(let key): return start + ": quote the value, as in \(Self.shortened(Substring(key))): \(quoted)"
        }
    }

    /// What a character YAML reserves starts, for the advice to quote it.
    enum ReservedStart {
        case listItem
        case key(String)
        case value(of: String)
    }

    /// The key a line's text starts with (`@a: {format: x}` → `@a`), when it is one: text up to a colon that ends the
    /// text or is followed by a space or a tab, before any comment (a `#` after a space or a tab); in brackets a key
    /// also ends at a comma.
    static func keyStarting(_ text: Substring, inBrackets: Bool) -> String? {
        let text = beforeComment(text)
        for i in text.indices {
            let c = text[i]
            if inBrackets, c == "," || c == "{" || c == "[" { return nil }
            if c == ":" {
                let next = text.index(after: i)
                if next == text.endIndex || text[next] == " " || text[next] == "\t" {
                    let key = String(text[..<i]).trimmingCharacters(in: .whitespaces)
                    return key.isEmpty ? nil : key
                }
            }
        }
        return nil
    }

    /// `{id: r, deny: [a], when: level in [1, 2]}`: inside { } a value that is not quoted ends at a bracket or a comma,
    /// so libyaml stops at the `[` of a condition's list (`byte`, in `line`). The value goes in quotes; nil when the
    /// stop is no bracket after a key's plain value.
    static func bracketInFlowValueAdvice(_ line: Substring, at byte: Int) -> String? {
        let bytes = Array(line.utf8)
        guard byte < bytes.count, bytes[byte] == UInt8(ascii: "[") || bytes[byte] == UInt8(ascii: "{") else { return nil }
        // Back over the value's plain text to its key's `: `, within this entry.
        var colon = byte - 1
        while colon > 0, !(bytes[colon] == UInt8(ascii: ":") && bytes[colon + 1] == 0x20) {
            guard !"{}[],\"'".utf8.contains(bytes[colon]) else { return nil }
            colon -= 1
        }
        guard colon > 0, bytes[colon] == UInt8(ascii: ":") else { return nil }
        var keyStart = colon
        while keyStart > 0, !" \t{,".utf8.contains(bytes[keyStart - 1]) { keyStart -= 1 }
        let key = String(decoding: bytes[keyStart..<colon], as: UTF8.self)
        let head = String(decoding: bytes[(colon + 1)..<byte], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        guard !key.isEmpty, !head.isEmpty else { return nil }
        // Forward to the end of the entry: a comma or the closing brace outside the brackets the value opened.
        var end = byte, depth = 0
        scan: while end < bytes.count {
            switch bytes[end] {
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if depth == 0 { break scan }
                depth -= 1
            case UInt8(ascii: ",") where depth == 0: break scan
            default: break
            }
            end += 1
        }
        let value = String(decoding: bytes[(colon + 1)..<end], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        let rule = "inside { } a value that is not quoted ends at a bracket or a comma: quote the value"
        if !value.contains("'") { return rule + ", as in \(shortened(Substring(key))): '\(shortened(Substring(value)))'" }
        if !value.contains("\"") { return rule + ", as in \(shortened(Substring(key))): \"\(shortened(Substring(value)))\"" }
        return rule
    }
}
