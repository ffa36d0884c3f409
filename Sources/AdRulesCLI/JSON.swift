import AdRules
/// A JSON value with ordered object keys, so that every report prints the same bytes every time.
public enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    /// Equal when they print the same: objects compare their keys in order, and a number that is not finite
    /// (printed `null`) equals `null`. Compared value by value, with nothing rendered.
    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs.printed, rhs.printed) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return String(a) == String(b)
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The value as it prints: a number that is not finite prints as `null`.
    private var printed: JSON {
        if case .double(let d) = self, !d.isFinite { return .null }
        return self
    }

    /// The value as pretty-printed JSON text (two-space indent).
    public func rendered(pretty: Bool = true) -> String {
        var out = ""
        write(to: &out, indent: pretty ? 0 : nil)
        return out
    }

    private func write(to out: inout String, indent: Int?) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += d.isFinite ? String(d) : "null"
        case .string(let s): JSON.escape(s, into: &out)
        case .array(let items):
            if items.isEmpty {
                out += "[]"
                return
            }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                newline(&out, indent.map { $0 + 1 })
                item.write(to: &out, indent: indent.map { $0 + 1 })
            }
            newline(&out, indent)
            out += "]"
        case .object(let pairs):
            if pairs.isEmpty {
                out += "{}"
                return
            }
            out += "{"
            for (i, (key, value)) in pairs.enumerated() {
                if i > 0 { out += "," }
                newline(&out, indent.map { $0 + 1 })
                JSON.escape(key, into: &out)
                out += indent == nil ? ":" : ": "
                value.write(to: &out, indent: indent.map { $0 + 1 })
            }
            newline(&out, indent)
            out += "}"
        }
    }

    private func newline(_ out: inout String, _ indent: Int?) {
        guard let indent else { return }
        out += "\n" + String(repeating: "  ", count: indent)
    }

    static func escape(_ s: String, into out: inout String) {
        out += "\""
        // Printable ASCII with no quote or backslash, the usual text, goes in whole.
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }), !ControlCharacters.holdsLogCommand(s) {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // `##[` is a command to a CI log (`ControlCharacters.holdsLogCommand`): its `[` is escaped, which reads the
            // same. No escape ends in `#`, so the two characters before are the text's own.
            case "[" where out.utf8.reversed().prefix(2).elementsEqual([UInt8(ascii: "#"), UInt8(ascii: "#")]):
                out += "\\u005b"
            default:
                // Every control character (C0, DEL, C1, line separators, bidi overrides) as \uXXXX:
                // valid JSON either way, but never a raw one in a terminal or a log.
                if scalar.value < 0x20 || ControlCharacters.isControl(scalar) {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
