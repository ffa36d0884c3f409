import Foundation


/// The type of an app-supplied attribute or of an expression.
public enum ValueType: String, Sendable, Hashable, Codable, CaseIterable {
    /// `true` or `false`.
    case bool
    /// A whole number (64 bits).
    case int
    /// A decimal number; compares with `int`.
    case number
    /// A text.
    case string
    /// A length of time (`30s`, `1h30m`).
    case duration
    /// A list of texts: `[string]`.
    case stringList = "[string]"
    /// A list of whole numbers: `[int]`.
    case intList = "[int]"

    /// Whether values of the two types may be compared (`int` and `number` mix).
    package func isComparable(with other: ValueType) -> Bool {
        self == other || (isNumeric && other.isNumeric)
    }

    package var isNumeric: Bool { self == .int || self == .number }

    /// The element type of a list type.
    package var element: ValueType? {
        switch self {
        case .stringList: return .string
        case .intList: return .int
        default: return nil
        }
    }

    /// The list type of an element type (`[int]` for `int`), nil for a type no list holds.
    package var list: ValueType? {
        switch self {
        case .string: return .stringList
        case .int: return .intList
        default: return nil
        }
    }
}

/// A value an attribute, a built-in or a literal can have.
public enum AttributeValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A `bool` value.
    case bool(Bool)
    /// An `int` value.
    case int(Int64)
    /// A `number` value.
    case number(Double)
    /// A `string` value.
    case string(String)
    /// A `duration` value.
    case duration(RuleDuration)
    /// A `[string]` value.
    case stringList([String])
    /// An `[int]` value.
    case intList([Int64])

    /// Why an app's value cannot be compared by a rule, or nil when it can: NaN has no order (`score > 5` was true and
    /// `5 < score` false), and a text with more than 30 combining marks in a row takes time growing with the square of
    /// the run to compare (200,000 marks made one ask take 20 s; rule files and compiled policies refuse such texts
    /// too). A rule that reads such a value cannot be evaluated: `rule_error`, as for a value of another type.
    package var unusableBecause: String? {
        switch self {
        case .number(let x) where x.isNaN: return "is NaN, which no number compares with"
        case .string(let s) where !Self.isStreamSafe(s): return "holds " + StreamSafeText.message
        case .stringList(let items) where !items.allSatisfy(Self.isStreamSafe): return "holds " + StreamSafeText.message
        default: return nil
        }
    }

    private static func isStreamSafe(_ text: String) -> Bool {
        // ASCII, the usual value, has no combining mark.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return true }
        // Runs are counted as decomposed, as comparing reads them, so that two texts Swift takes for equal (`á` and
        // `a` + U+0301) are both usable or both not. Decomposing never shortens a run: a text over the limit as
        // written is over it decomposed, and one within it decomposes in linear time.
        return StreamSafeText.problem(in: text.utf8) == nil
            && StreamSafeText.problem(in: text.decomposedStringWithCanonicalMapping.utf8) == nil
    }

    /// The value's type.
    public var type: ValueType {
        switch self {
        case .bool: return .bool
        case .int: return .int
        case .number: return .number
        case .string: return .string
        case .duration: return .duration
        case .stringList: return .stringList
        case .intList: return .intList
        }
    }

    public var description: String {
        switch self {
        case .bool(let b): return String(b)
        case .int(let i): return String(i)
        case .number(let d): return String(d)
        case .string(let s): return Self.quoted(s)
        case .duration(let d): return d.description
        case .stringList(let l): return "[" + l.map(Self.quoted).joined(separator: ", ") + "]"
        case .intList(let l): return "[" + l.map(String.init).joined(separator: ", ") + "]"
        }
    }

    /// A text as a rule's condition writes it: in double quotes, a quote or a backslash in it escaped.
    private static func quoted(_ text: String) -> String {
        let escaped = text.contains(where: { $0 == "\"" || $0 == "\\" })
            ? text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") : text
        return "\"" + escaped + "\""
    }
}

/// An attribute that custom rules may read and the app must supply (or that has a default).
public struct AttributeDeclaration: Sendable, Hashable {
    /// The attribute's name.
    public var name: String
    /// Where the name is written.
    public var location: SourceLocation
    /// The declared type.
    public var type: ValueType
    /// The value used when the app supplies none.
    public var defaultValue: AttributeValue?

    /// Creates a declaration.
    public init(name: String, location: SourceLocation, type: ValueType, defaultValue: AttributeValue?) {
        self.name = name
        self.location = location
        self.type = type
        self.defaultValue = defaultValue
    }
}

/// A custom deny rule.
public struct CustomRule: Sendable {
    /// The rule id.
    public var id: String
    /// Where the id is written.
    public var location: SourceLocation
    /// The placements the rule applies to; nil means every placement (`"*"`).
    public var deny: [Located<String>]?
    /// The `when` expression as written.
    public var when: Located<String>
    /// The message for users of the decision.
    public var message: String
    /// The compiled condition; nil when the expression has errors.
    package var condition: CompiledExpression?

    /// The message of a rule written without one.
    package static func defaultMessage(id: String) -> String { "denied by rule \(id)" }

    package init(id: String, location: SourceLocation, deny: [Located<String>]?, when: Located<String>, message: String, condition: CompiledExpression?) {
        self.id = id
        self.location = location
        self.deny = deny
        self.when = when
        self.message = message
        self.condition = condition
    }
}
