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
    package static func holdsLogCommand(_ text: String) -> Bool {
        var hashes = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "["), hashes >= 2 { return true }
            hashes = byte == UInt8(ascii: "#") ? hashes + 1 : 0
        }
        return false
    }

    /// The text with the `[` of every `##[` written as a visible escape (`##\u{5B}`), so no CI log reads it as a
    /// command. Output streams go through it; JSON writes that `[` as `\u005b` instead, which reads the same.
    package static func defusingLogCommands(_ text: String) -> String {
        holdsLogCommand(text) ? text.replacingOccurrences(of: "##[", with: "##\\u{5B}") : text
    }

    /// The text with every control character written as a visible escape (`\n`, `\r`, `\t`, `\u{1B}`), so a
    /// value from a file can neither start a forged line nor send escape sequences to a terminal.
    package static func escaped(_ text: String) -> String {
        guard contains(in: text) else { return text }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
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
