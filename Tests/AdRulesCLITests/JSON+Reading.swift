@testable import AdRulesCLI
import AdRules

// The CLI reads `impact merge` parts as the parser's values (`JSONValue`); the tests compare the json the commands
// write as ``JSON`` values, which are equatable.

/// Reading JSON text back into ``JSON`` values with object keys in file order, through the runtime's parser.
extension JSON {
    /// Parses a JSON text: integers without fraction or exponent become `.int`, other numbers `.double`.
    static func parse(_ text: String) throws -> JSON {
        JSON(try JSONValue.parse(Array(text.utf8)))
    }

    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .double(let d): self = .double(d)
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(JSON.init))
        case .object(let pairs): self = .object(pairs.map { ($0.0, JSON($0.1)) })
        }
    }

    /// The value of a key of an object.
    subscript(_ key: String) -> JSON? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    var intValue: Int? { if case .int(let i) = self { return i } else { return nil } }
    var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    var arrayValue: [JSON]? { if case .array(let a) = self { return a } else { return nil } }
    var objectValue: [(String, JSON)]? { if case .object(let o) = self { return o } else { return nil } }
}
