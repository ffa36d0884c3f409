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

    public static func == (lhs: JSON, rhs: JSON) -> Bool { lhs.rendered() == rhs.rendered() }

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
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
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
