/// How a scalar was written: plain scalars are the only ones that can be read as bools or numbers.
public enum ScalarStyle: Sendable, Hashable {
    case plain
    case singleQuoted
    case doubleQuoted
    case literal
    case folded
}

/// A YAML scalar with its text and how it was quoted.
public struct YAMLScalar: Sendable, Hashable {
    /// The scalar's text, after unescaping.
    public var value: String
    /// How the scalar was written.
    public var style: ScalarStyle

    /// Creates a scalar.
    public init(value: String, style: ScalarStyle) {
        self.value = value
        self.style = style
    }

    /// Whether this is a plain `null`, `~` or empty scalar (YAML 1.2 core schema).
    public var isNull: Bool {
        style == .plain && (value.isEmpty || value == "~" || value == "null" || value == "Null" || value == "NULL")
    }
}

/// A key and its value in a mapping, in file order.
public struct YAMLPair: Sendable {
    /// The key node (almost always a scalar).
    public var key: YAMLNode
    /// The value node.
    public var value: YAMLNode
}

/// A YAML node with the source range it was read from.
public struct YAMLNode: Sendable {
    /// What a node holds.
    public enum Content: Sendable {
        case scalar(YAMLScalar)
        case mapping([YAMLPair])
        case sequence([YAMLNode])
    }

    /// The node's content.
    public var content: Content
    /// Where the node was written.
    public var range: SourceRange

    /// Creates a node.
    public init(_ content: Content, range: SourceRange) {
        self.content = content
        self.range = range
    }

    /// The scalar, when this node is one.
    public var scalar: YAMLScalar? {
        if case .scalar(let s) = content { return s }
        return nil
    }

    /// The pairs, when this node is a mapping.
    public var pairs: [YAMLPair]? {
        if case .mapping(let p) = content { return p }
        return nil
    }

    /// The items, when this node is a sequence.
    public var items: [YAMLNode]? {
        if case .sequence(let i) = content { return i }
        return nil
    }

    /// A short name of the node's kind for messages: "a mapping", "a list", "a string".
    public var kindDescription: String {
        switch content {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let s): return s.isNull ? "nothing (null)" : "\"\(s.shortValue)\""
        }
    }
}

extension YAMLScalar {
    /// The boolean the YAML 1.2 core schema reads a plain scalar as (`true`, `True`, `TRUE` and the same for false).
    public var coreSchemaBool: Bool? {
        guard style == .plain else { return nil }
        switch value {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: return nil
        }
    }

    /// Whether the YAML 1.2 core schema reads a plain scalar as an integer: `[-+]?[0-9]+`, `0o[0-7]+` or
    /// `0x[0-9a-fA-F]+`, whatever its size.
    public var isCoreSchemaInt: Bool {
        guard style == .plain else { return false }
        let digits = { (text: Substring.UTF8View, radix: Int) in
            !text.isEmpty && text.allSatisfy { byte in Int(String(UnicodeScalar(byte)), radix: radix) != nil }
        }
        if value.hasPrefix("0x") { return digits(Substring(value).utf8.dropFirst(2), 16) }
        if value.hasPrefix("0o") { return digits(Substring(value).utf8.dropFirst(2), 8) }
        var text = Substring(value).utf8
        if let sign = text.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { text = text.dropFirst() }
        return digits(text, 10)
    }

    /// The integer of a core-schema integer scalar (``isCoreSchemaInt``), nil when it does not fit an `Int`.
    public var coreSchemaInt: Int? {
        guard isCoreSchemaInt else { return nil }
        if value.hasPrefix("0x") { return Int(value.dropFirst(2), radix: 16) }
        if value.hasPrefix("0o") { return Int(value.dropFirst(2), radix: 8) }
        return Int(value)
    }
    /// The value as a message quotes it: at most 60 characters, so that a huge value does not flood a report.
    public var shortValue: String { value.unicodeScalars.count > 60 ? String(value.unicodeScalars.prefix(57)) + "..." : value }

    /// Whether the YAML 1.2 core schema reads a plain scalar as a number (an int or a float, `.inf` and `.nan`
    /// included), whatever its size: such a value is not a string.
    public var isCoreSchemaNumber: Bool {
        // Most strings (ids, messages) start with a letter: no number does.
        guard style == .plain, let first = value.utf8.first,
            (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) || first == UInt8(ascii: "+") || first == UInt8(ascii: "-") || first == UInt8(ascii: ".")
        else { return false }
        var text = Substring(value).utf8
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        if ["0x", "0o"].contains(where: { value.hasPrefix($0) }) {
            let radix = value.hasPrefix("0x") ? 16 : 8
            let rest = text.dropFirst(2)
            return !rest.isEmpty && rest.allSatisfy { byte in Int(String(UnicodeScalar(byte)), radix: radix) != nil }
        }
        if [".nan", ".NaN", ".NAN"].contains(value) { return true }
        if let sign = text.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { text = text.dropFirst() }
        if [".inf", ".Inf", ".INF"].contains(String(Substring(text))) { return true }
        // [0-9]+(\.[0-9]*)? or \.[0-9]+, then an optional exponent [eE][-+]?[0-9]+.
        let whole = text.prefix(while: isDigit)
        text = text.dropFirst(whole.count)
        var fraction = 0
        if text.first == UInt8(ascii: ".") {
            text = text.dropFirst()
            fraction = text.prefix(while: isDigit).count
            text = text.dropFirst(fraction)
        }
        guard whole.count + fraction > 0 else { return false }
        if let e = text.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            text = text.dropFirst()
            if let sign = text.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { text = text.dropFirst() }
            guard let first = text.first, isDigit(first) else { return false }
            text = text.drop(while: isDigit)
        }
        return text.isEmpty
    }
}
