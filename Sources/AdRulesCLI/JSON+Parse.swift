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
}
