import AdRules

/// Reading a part of `impact merge`: the parser's values, read in place.
extension JSONValue {
    /// The value of a key of an object.
    subscript(_ key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    var isNull: Bool { if case .null = self { return true } else { return false } }
    var intValue: Int? { if case .int(let i) = self { return i } else { return nil } }
    var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    var objectValue: [(String, JSONValue)]? { if case .object(let o) = self { return o } else { return nil } }

    /// The value as a message names it: its kind, and a number or a short text as written.
    var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return "\(b)"
        case .int(let i): return "\(i)"
        // A whole number too large for an `Int` is read as a double: shown as what it is, not as 1e+30.
        case .double(let d): return d.isInfinite || (d == d.rounded() && abs(d) >= 0x1p63) ? "a whole number too large to hold" : "\(d)"
        case .string(let text): return "the text \"\(ControlCharacters.escaped(String(text.prefix(40))))\(text.count > 40 ? "..." : "")\""
        case .array: return "a list"
        case .object: return "an object"
        }
    }
}
