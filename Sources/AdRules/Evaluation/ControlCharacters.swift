/// Makes text from rule files safe to print on one line of a log or terminal.
package enum ControlCharacters {
    /// Whether a scalar is a control or line-breaking character: C0 and C1 controls, DEL, the Unicode
    /// line and paragraph separators, the bidirectional marks and overrides that reorder what a reader
    /// sees, and the byte-order mark.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF: return true
        default: return isDirectionControl(scalar)
        }
    }

    /// ``isControl(_:)`` as the inside of a regular expression's character class (for the JSON Schema of rule files):
    /// kept beside the check, to change with it.
    package static let regexClass = "\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029\\uFEFF\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069"

    /// Whether a scalar is a bidirectional mark, embedding, override or isolate: invisible, it reorders what a reader sees.
    package static func isDirectionControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Whether a scalar is invisible formatting that is no control: a zero width space, a word joiner, a soft hyphen, tag
    /// characters (Unicode's default-ignorable code points and format characters), but not the joiner and variation
    /// selectors emoji are built with, nor the signs that prefix a number and show. A text may hold one by accident (a
    /// copy from a web page), so none is refused; each is shown escaped, as controls are, so that a message quoting a
    /// value shows what is in it (`not "5\u{200B}"`, not `not "5"`) and no text carries what a reader cannot see.
    package static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case ..<0xAD, 0x200D, 0xFE00...0xFE0F: return false
        // Arabic, Syriac and Kaithi signs that stand before a number: format characters that show.
        case 0x0600...0x0605, 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x110BD, 0x110CD: return false
        default: return scalar.properties.isDefaultIgnorableCodePoint || scalar.properties.generalCategory == .format
        }
    }

    /// Whether a text holds any control character.
    package static func contains(in text: String) -> Bool { contains(in: text, except: []) }

    /// Whether a text holds a control character other than `allowed` (a condition's line breaks and tabs).
    package static func contains(in text: String, except allowed: Set<Unicode.Scalar>) -> Bool {
        // Printable ASCII, the usual text, is told apart byte by byte; anything else is read scalar by scalar.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return false }
        return text.unicodeScalars.contains { isControl($0) && !allowed.contains($0) }
    }

    /// A text from a file or a server, for a message: escaped, and cut to its first `limit` characters (with …) so
    /// that a 50 MB name makes a one-line error, not a 50 MB one.
    package static func cut(_ text: String, limit: Int = 80) -> String {
        // A negative limit keeps nothing; a huge one keeps everything (its fourfold would overflow).
        let limit = max(0, limit)
        var head = text.prefix(limit)
        // A string of one huge character (a letter and thousands of marks) is cut within it too.
        if limit < Int.max / 4, head.unicodeScalars.count > 4 * limit {
            head = Substring(head.unicodeScalars.prefix(limit))
        }
        return escaped(String(head)) + (head.endIndex < text.endIndex ? "…" : "")
    }

    /// ``cut(_:limit:)`` in double quotes.
    package static func quoted(_ text: String, limit: Int = 80) -> String { "\"" + cut(text, limit: limit) + "\"" }

    /// Whether a text holds `##[`, which a GitHub Actions log reads anywhere in a line as a command (the legacy form of
    /// `::error …::`): a rule message, a file name or a segment name holding `##[error]` would add an annotation.
    package static func holdsLogCommand(_ text: String) -> Bool { logCommands(in: text) > 0 }

    /// Whether a text starts, past white space, with `::`, which a GitHub Actions log reads as a command at the start
    /// of a line (it trims the spaces first). Scalar by scalar, as the log reads it: a `:` under a combining mark is one.
    package static func startsLogCommand(_ text: String) -> Bool {
        text.unicodeScalars.drop { $0.properties.isWhitespace }.starts(with: "::".unicodeScalars)
    }

    /// How many `##[` a text holds (byte by byte: a `[` with a combining mark on it is one too).
    package static func logCommands(in text: String) -> Int {
        var count = 0
        var hashes = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "["), hashes >= 2 { count += 1 }
            hashes = byte == UInt8(ascii: "#") ? hashes + 1 : 0
        }
        return count
    }

    /// Output bytes with every `##[` written as `##\[` (one byte more, and no command), so that no CI log reads a command
    /// in them. A line that starts with `::` is left as it is: it is a command already (the `github` lint format's), whose
    /// reporter escaped the texts it writes in it. It goes from `[` to `[`
    /// (`firstIndex(of:)`, four times as fast as a loop over every byte: 60 ms for 75 MB) and copies only when it finds
    /// one to escape.
    package static func defusingLogCommands(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var copied = 0  // `bytes[..<copied]` are in `out`
        var from = 0
        // The last `##[` found, and whether its line is a command: a line's start is looked for back to it only, so a
        // long line of them is read once.
        var last = (at: -1, isCommandLine: false)
        while from < bytes.count, let bracket = bytes[from...].firstIndex(of: UInt8(ascii: "[")) {
            from = bracket + 1
            guard bracket >= 2, bytes[bracket - 1] == UInt8(ascii: "#"), bytes[bracket - 2] == UInt8(ascii: "#") else { continue }
            var start = bracket
            while start > 0, start > last.at, bytes[start - 1] != 0x0A, bytes[start - 1] != 0x0D { start -= 1 }
            let isCommandLine = start == last.at ? last.isCommandLine : bytes[start...].starts(with: [UInt8(ascii: ":"), UInt8(ascii: ":")])
            last = (bracket, isCommandLine)
            guard !isCommandLine else { continue }
            out.append(contentsOf: bytes[copied..<bracket])
            out.append(UInt8(ascii: "\\"))
            copied = bracket
        }
        guard copied > 0 else { return bytes }
        out.append(contentsOf: bytes[copied...])
        return out
    }

    /// Whether ``escaped(_:)`` (or ``controlsEscaped(_:)``) changes a text: one pass over plain ASCII, the usual text.
    private static func needsEscaping(_ text: String, defusingLogCommands: Bool) -> Bool {
        var hashes = 0
        for byte in text.utf8 {
            guard byte >= 0x20, byte < 0x7F else {
                return text.unicodeScalars.contains { isControl($0) || isInvisible($0) } || (defusingLogCommands && holdsLogCommand(text))
            }
            if defusingLogCommands, byte == UInt8(ascii: "["), hashes >= 2 { return true }
            hashes = byte == UInt8(ascii: "#") ? hashes + 1 : 0
        }
        return false
    }

    /// The text with every control character written as a visible escape (`\n`, `\r`, `\t`, `\u{1B}`), so a
    /// value from a file can neither start a forged line nor send escape sequences to a terminal, and every invisible
    /// character too (``isInvisible(_:)``: `\u{200B}`); and every `##[` as
    /// `##\[`, so that no CI log reads a command in it.
    package static func escaped(_ text: String) -> String { escaping(text, defusingLogCommands: true) }

    /// The text with every control character written as a visible escape, as ``escaped(_:)`` writes it, and `##[` left
    /// as it is: for text that a format escapes its own way (json's `\u005b`).
    package static func controlsEscaped(_ text: String) -> String { escaping(text, defusingLogCommands: false) }

    private static func escaping(_ text: String, defusingLogCommands: Bool) -> String {
        guard needsEscaping(text, defusingLogCommands: defusingLogCommands) else { return text }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        var hashes = 0
        for scalar in text.unicodeScalars {
            // `##[` as `##\[` (``defusingLogCommands(_:)``), so that a bound counted on escaped texts counts it.
            if defusingLogCommands, scalar == "[", hashes >= 2 { out += "\\" }
            hashes = scalar == "#" ? hashes + 1 : 0
            guard isControl(scalar) || isInvisible(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }
}
