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
    /// An empty plain value with a comment after it on its line, as `name: #1 test` reads: the `#` after a space starts
    /// a comment, which is almost always a value that needed quotes.
    public var isCommentedOut = false

    /// Creates a scalar.
    public init(value: String, style: ScalarStyle) {
        self.value = value
        self.style = style
    }

    /// A block scalar's value without the line breaks that end the block. A value written `>` or `|` on the lines
    /// below its key ends with a line break unless it is written `>-` or `|-`; that break ends the block, it is not
    /// part of the text (a message, an id, a duration). Line breaks inside the block are kept.
    static func blockValue(_ value: String) -> String {
        guard let last = value.utf8.last, last == 0x0A || last == 0x0D else { return value }
        var end = value.utf8.endIndex
        while end > value.utf8.startIndex, case let byte = value.utf8[value.utf8.index(before: end)], byte == 0x0A || byte == 0x0D {
            end = value.utf8.index(before: end)
        }
        return String(value[..<end])
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

    /// How ``kindDescription`` names an empty value, which a type finding quotes after "not".
    package static let nullDescription = "nothing (null)"

    /// A short name of the node's kind for messages: "a mapping", "a list", "a string".
    public var kindDescription: String {
        switch content {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let s): return s.isNull ? Self.nullDescription : "\"\(s.shortValue)\""
        }
    }
}

extension YAMLScalar {
    /// Plain words YAML 1.1 reads as booleans and YAML 1.2 as strings (`yaml/ambiguous-bool`), lowercased.
    package static let ambiguousBools: Set<String> = ["yes", "no", "on", "off", "y", "n"]

    /// A plain `yes`, `no`, `on`, `off`, `y` or `n` (any case): a string to this reader, a bool to a YAML 1.1 one.
    package var isAmbiguousBool: Bool {
        // None of the words is longer than three letters: a longer text (every id) is not lowercased and looked up.
        style == .plain && value.utf8.count <= 3 && Self.ambiguousBools.contains(value.lowercased())
    }

    /// The boolean the YAML 1.2 core schema reads a plain scalar as (`true`, `True`, `TRUE` and the same for false).
    public var coreSchemaBool: Bool? {
        guard style == .plain else { return nil }
        switch value {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: return nil
        }
    }

    /// The digits and radix of a plain scalar the YAML 1.2 core schema reads as an integer, whatever its size:
    /// `[-+]?[0-9]+` (sign kept), `0o[0-7]+` or `0x[0-9a-fA-F]+` (prefix dropped); nil for anything else.
    package var coreSchemaIntDigits: (text: Substring, radix: Int)? {
        guard style == .plain else { return nil }
        func all(_ digits: Substring.UTF8View, radix: Int) -> Bool {
            !digits.isEmpty && digits.allSatisfy { YAMLScalar.digitValue($0).map { $0 < radix } ?? false }
        }
        // Read as bytes: this runs for every whole number a rule file holds.
        let bytes = Substring(value).utf8
        if bytes.count > 2, bytes.first == UInt8(ascii: "0") {
            let marker = bytes[bytes.index(after: bytes.startIndex)]
            let radix = marker == UInt8(ascii: "x") ? 16 : marker == UInt8(ascii: "o") ? 8 : 0
            if radix > 0 { return all(bytes.dropFirst(2), radix: radix) ? (Substring(bytes.dropFirst(2)), radix) : nil }
        }
        let sign = bytes.first.map { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") } ?? false
        return all(sign ? bytes.dropFirst() : bytes, radix: 10) ? (Substring(value), 10) : nil
    }

    /// Whether the YAML 1.2 core schema reads a plain scalar as an integer (``coreSchemaIntDigits``).
    public var isCoreSchemaInt: Bool { coreSchemaIntDigits != nil }

    /// The integer of a core-schema integer scalar, nil when it is not one or does not fit an `Int`.
    public var coreSchemaInt: Int? { coreSchemaIntDigits.flatMap { Int($0.text, radix: $0.radix) } }

    /// The value of an ASCII digit of base 16 at most (either case), nil for any other byte.
    static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }

    /// The value as a message quotes it: at most 60 characters, so that a huge value does not flood a report.
    public var shortValue: String { Self.shortened(value) }

    /// A text as a message quotes it: its first 57 characters and `...` when it has more than 60 (a value of 8 MB
    /// would otherwise make a finding one line of 8 MB).
    public static func shortened(_ text: String) -> String {
        text.unicodeScalars.count > 60 ? String(text.unicodeScalars.prefix(57)) + "..." : text
    }

    /// The YAML 1.2 core schema's words for infinity (with a sign before them, `+` or `-`, too).
    static let infinities: Set<String> = [".inf", ".Inf", ".INF"]

    /// A plain `.inf` or `+.inf` (any of the core schema's cases): infinity, which a product manager writes for "no limit".
    package var isCoreSchemaPositiveInfinity: Bool {
        style == .plain && (Self.infinities.contains(value) || value.hasPrefix("+") && Self.infinities.contains(String(value.dropFirst())))
    }

    /// Whether the YAML 1.2 core schema reads a plain scalar as a number (an int or a float, `.inf` and `.nan`
    /// included), whatever its size: such a value is not a string.
    public var isCoreSchemaNumber: Bool {
        // Most strings (ids, messages) start with a letter: no number does.
        guard style == .plain, let first = value.utf8.first,
            (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) || first == UInt8(ascii: "+") || first == UInt8(ascii: "-") || first == UInt8(ascii: ".")
        else { return false }
        var text = Substring(value).utf8
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        if value.hasPrefix("0x") || value.hasPrefix("0o") { return isCoreSchemaInt }
        if [".nan", ".NaN", ".NAN"].contains(value) { return true }
        if let sign = text.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { text = text.dropFirst() }
        if Self.infinities.contains(String(Substring(text))) { return true }
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
