/// A pull parser over the UTF-8 bytes of one JSON text: the caller asks for the value it expects next, so a
/// document is read into whatever it describes without a tree of values in between.
///
/// Nothing is trusted: every byte is checked as it is read, arrays and objects nest at most `maxDepth`
/// levels, and a number is an `Int` only when it is a whole number that fits one.
package struct JSONReader {
    /// What the next value is, from its first byte.
    package enum Kind: Sendable {
        case null, bool, number, string, array, object
    }

    /// A number as read: whole and within `Int`, or any other.
    package enum Number: Sendable {
        case int(Int)
        case double(Double)
    }

    // Not private: the strings are read in JSONReader+Strings.swift.
    let bytes: [UInt8]
    private let maxDepth: Int
    package internal(set) var index = 0
    /// The arrays and objects open around the reader.
    private var depth = 0
    /// Whether the reader is just inside an opening bracket, where no comma may come before the next member.
    var atFirst = false
    /// Where the key ``nextKey()`` read last starts: what an error about the key points at.
    package private(set) var lastKeyStart = 0

    /// How many more values ``readValue()`` may build: a text of few bytes a value (`[0,0,0,…]`) would otherwise take
    /// tens of times its size in memory.
    private var valuesLeft: Int

    /// Creates a reader at the start of `bytes`.
    /// - Parameters:
    ///   - maxDepth: the deepest nesting of arrays and objects read; deeper is an error, not a recursion.
    ///   - maxValues: the most values ``readValue()`` builds.
    package init(_ bytes: [UInt8], maxDepth: Int, maxValues: Int = .max, at start: Int = 0) {
        self.bytes = bytes
        index = start
        self.maxDepth = maxDepth
        valuesLeft = maxValues
    }

    func fail(_ problem: String) -> JSONValue.ParseError {
        fail(problem, at: index)
    }

    /// A failure found at `offset` of the document.
    func fail(_ problem: String, at offset: Int) -> JSONValue.ParseError {
        // A document cut short fails within its last few bytes, where its closing brace should be.
        JSONValue.ParseError(offset: offset, problem: problem, nearEnd: bytes.count - offset < 16)
    }

    @inline(__always)
    package mutating func skipSpace() {
        // A compiled document has no white space: the usual case is one test, inlined at each step.
        guard index < bytes.count, bytes[index] <= 0x20 else { return }
        skipSpaceSlowly()
    }

    private mutating func skipSpaceSlowly() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    // MARK: scalars

    /// The kind of the next value, which is not read.
    /// - Throws: at the end of the text or at a byte that starts no value.
    package mutating func peek() throws(JSONValue.ParseError) -> Kind {
        skipSpace()
        guard index < bytes.count else { throw fail("unexpected end of text") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: throw fail("expected a value")
        }
    }

    /// Reads `null`.
    package mutating func readNull() throws(JSONValue.ParseError) {
        skipSpace()
        try literal(Self.null)
    }

    /// Reads `true` or `false`.
    package mutating func readBool() throws(JSONValue.ParseError) -> Bool {
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "t") {
            try literal(Self.true)
            return true
        }
        try literal(Self.false)
        return false
    }

    private static let null = Array("null".utf8)
    private static let `true` = Array("true".utf8)
    private static let `false` = Array("false".utf8)

    private mutating func literal(_ word: [UInt8]) throws(JSONValue.ParseError) {
        guard bytes.count - index >= word.count, word.indices.allSatisfy({ bytes[index + $0] == word[$0] }) else {
            throw fail("expected \(String(decoding: word, as: UTF8.self))")
        }
        index += word.count
        atFirst = false
    }

    /// Reads a number: `.int` for a whole number without fraction or exponent that fits an `Int`, `.double`
    /// for any other.
    package mutating func readNumber() throws(JSONValue.ParseError) -> Number {
        skipSpace()
        let start = index
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        // The whole part is added up as it is read; up to 18 digits always fit an `Int`.
        let digitsStart = index
        var value = 0
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
            value = value &* 10 &+ Int(bytes[index] &- UInt8(ascii: "0"))
            index += 1
        }
        let digits = index - digitsStart
        guard digits > 0 else { throw fail("expected a number") }
        guard digits == 1 || bytes[digitsStart] != UInt8(ascii: "0") else {
            throw JSONValue.ParseError(offset: start, problem: "a number with a leading zero")
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            try skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            try skipDigits()
        }
        atFirst = false
        if isInteger, digits <= 18 { return .int(negative ? -value : value) }
        // Anything else, the rare case, goes through the standard parsers.
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int(text) { return .int(value) }
        guard let value = Double(text) else { throw JSONValue.ParseError(offset: start, problem: "unreadable number") }
        return .double(value)
    }

    /// Reads one or more digits.
    private mutating func skipDigits() throws(JSONValue.ParseError) {
        let start = index
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        guard index > start else { throw fail("expected a digit") }
    }

    // MARK: arrays and objects

    /// Reads the `{` that opens an object; then ``nextKey()`` until it returns nil.
    package mutating func beginObject() throws(JSONValue.ParseError) {
        try open(UInt8(ascii: "{"), "expected an object")
    }

    /// Reads the `[` that opens an array; then ``nextElement()`` until it returns false.
    package mutating func beginArray() throws(JSONValue.ParseError) {
        try open(UInt8(ascii: "["), "expected an array")
    }

    private mutating func open(_ bracket: UInt8, _ problem: String) throws(JSONValue.ParseError) {
        skipSpace()
        guard index < bytes.count, bytes[index] == bracket else { throw fail(problem) }
        guard depth < maxDepth else { throw fail("JSON nests deeper than \(maxDepth) levels") }
        index += 1
        depth += 1
        atFirst = true
    }

    /// Reads up to the next member's value of the object being read, and returns its key; nil when the
    /// object ends (its `}` is read then). The caller reads or skips the value before asking again.
    package mutating func nextKey() throws(JSONValue.ParseError) -> String? {
        guard try nextItem(closing: UInt8(ascii: "}"), "expected ',' or '}'") else { return nil }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a key") }
        lastKeyStart = index
        let key = try readString()
        try colon()
        return key
    }

    /// A fingerprint of `key`, the key ``nextKey()`` read last: its length, and its first, middle and last bytes.
    /// Equal keys have equal fingerprints; keys with equal fingerprints are compared as texts. The bytes are read in the
    /// document when the key is written there with no escape (its closing quote right after its text's bytes, as
    /// every key a compiled document knows is written), else from its text: a few reads, where walking the key's
    /// bytes took a twentieth of the load of the shipped policy.
    package func fingerprintOfLastKey(_ key: String) -> UInt64 {
        let length = key.utf8.count
        guard length > 0 else { return 0 }
        let first = lastKeyStart + 1, end = first + length
        let (a, b, c): (UInt8, UInt8, UInt8)
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            (a, b, c) = (bytes[first], bytes[first + length / 2], bytes[end - 1])
        } else {
            let text = Array(key.utf8)
            (a, b, c) = (text[0], text[length / 2], text[length - 1])
        }
        return UInt64(truncatingIfNeeded: length) << 24 | UInt64(a) << 16 | UInt64(b) << 8 | UInt64(c)
    }

    private mutating func colon() throws(JSONValue.ParseError) {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
        index += 1
    }

    /// Whether the array being read has another element, which the caller then reads or skips; false when the
    /// array ends (its `]` is read then).
    package mutating func nextElement() throws(JSONValue.ParseError) -> Bool {
        try nextItem(closing: UInt8(ascii: "]"), "expected ',' or ']'")
    }

    private mutating func nextItem(closing: UInt8, _ problem: String) throws(JSONValue.ParseError) -> Bool {
        skipSpace()
        guard index < bytes.count else { throw fail("unexpected end of text") }
        if bytes[index] == closing {
            index += 1
            depth -= 1
            atFirst = false
            return false
        }
        // After a comma a member must follow: reading it fails on a closing bracket.
        if !atFirst {
            guard bytes[index] == UInt8(ascii: ",") else { throw fail(problem) }
            index += 1
            skipSpace()
        }
        return true
    }

    /// Reads the next value, whatever it is, and drops it.
    package mutating func skipValue() throws(JSONValue.ParseError) {
        switch try peek() {
        case .object:
            try beginObject()
            while try nextItem(closing: UInt8(ascii: "}"), "expected ',' or '}'") {
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                try skipString()
                try colon()
                try skipValue()
            }
        case .array:
            try beginArray()
            while try nextElement() { try skipValue() }
        case .string: try skipString()
        case .number: _ = try readNumber()
        case .bool: _ = try readBool()
        case .null: try readNull()
        }
    }

    /// Counts one more value (or key) against the budget.
    private mutating func spendValue() throws(JSONValue.ParseError) {
        guard valuesLeft > 0 else { throw fail("more values than a document of this kind holds") }
        valuesLeft -= 1
    }

    /// Reads the next value as a ``JSONValue``.
    package mutating func readValue() throws(JSONValue.ParseError) -> JSONValue {
        try spendValue()
        switch try peek() {
        case .object:
            try beginObject()
            var pairs: [(String, JSONValue)] = []
            // A key given twice is refused: which of its values counts would be a guess.
            var keys = Set<String>()
            while let key = try nextKey() {
                // A key is held as a value is (twice: in the object and in the set of its keys), so it counts as one: an
                // object of 8 million keys took 2 GB where the budget meant a few hundred MB.
                try spendValue()
                let (inserted, first) = keys.insert(key)
                guard inserted else {
                    // Quoted escaped and cut, as every text an error echoes: a key holding a line break printed it raw, and
                    // so a line of its own (`fake.yaml:1:1: error: forged`) on a CI log. Two keys equal as text may hold
                    // other bytes (an accented letter as one character or two), and look the same: that is said.
                    let encodings = first.utf8.elementsEqual(key.utf8)
                        ? "" : " (its two spellings differ only in how their accented letters are encoded: Unicode normalization)"
                    throw JSONValue.ParseError(offset: lastKeyStart, problem: "the key \(ControlCharacters.quoted(key)) appears twice in one object\(encodings)")
                }
                pairs.append((key, try readValue()))
            }
            return .object(pairs)
        case .array:
            try beginArray()
            var items: [JSONValue] = []
            while try nextElement() { items.append(try readValue()) }
            return .array(items)
        case .string: return .string(try readString())
        case .number:
            switch try readNumber() {
            case .int(let value): return .int(value)
            case .double(let value): return .double(value)
            }
        case .bool: return .bool(try readBool())
        case .null:
            try readNull()
            return .null
        }
    }

    /// Reads the end of the text: nothing but white space may follow the value read.
    package mutating func readEnd() throws(JSONValue.ParseError) {
        skipSpace()
        // Text after a whole value is something added, not a document cut short, however near the end it stands.
        guard index == bytes.count else { throw JSONValue.ParseError(offset: index, problem: "unexpected text after the value") }
    }
}
