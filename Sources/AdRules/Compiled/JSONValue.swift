/// A parsed JSON value, object keys in document order: what the compiled-policy loader decodes from, and what
/// the CLI reads reports back from. A small parser of our own, so that a document from a server is read
/// with a depth limit and without Foundation's generic decoding machinery on the app's start-up path.
package enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// Why a text is not JSON.
    package struct ParseError: Error, CustomStringConvertible {
        package var offset: Int
        package var problem: String
        package var description: String { "invalid JSON at byte \(offset + 1): \(problem)" }
    }

    /// Parses a JSON text: integers without fraction or exponent become `.int`, other numbers `.double`.
    /// - Parameter maxDepth: the deepest nesting of arrays and objects read; deeper is an error, not a recursion.
    /// - Throws: ``ParseError`` at the first problem.
    package static func parse(_ bytes: [UInt8], maxDepth: Int = 64) throws(ParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == parser.bytes.count else { throw ParseError(offset: parser.index, problem: "unexpected text after the value") }
        return value
    }
}

/// A recursive-descent JSON parser over UTF-8 bytes.
private struct JSONParser {
    let bytes: [UInt8]
    let maxDepth: Int
    var index = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    func fail(_ problem: String) -> JSONValue.ParseError { JSONValue.ParseError(offset: index, problem: problem) }

    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func expect(_ literal: StaticString, _ value: JSONValue) throws(JSONValue.ParseError) -> JSONValue {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("expected \(literal)") }
        var k = 0
        for byte in literal.description.utf8 {
            guard bytes[index + k] == byte else { throw fail("expected \(literal)") }
            k += 1
        }
        index += count
        return value
    }

    mutating func value(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        guard depth < maxDepth else { throw fail("JSON nests deeper than \(maxDepth) levels") }
        guard index < bytes.count else { throw fail("unexpected end of text") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        default: return try number()
        }
    }

    mutating func object(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        index += 1
        var pairs: [(String, JSONValue)] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(pairs)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a key") }
            let key = try string()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipSpace()
            pairs.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard index < bytes.count else { throw fail("unexpected end of text") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(pairs)
            } else {
                throw fail("expected ',' or '}'")
            }
        }
    }

    mutating func array(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard index < bytes.count else { throw fail("unexpected end of text") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            } else {
                throw fail("expected ',' or ']'")
            }
        }
    }

    mutating func string() throws(JSONValue.ParseError) -> String {
        index += 1
        // Most strings have no escape: they are one slice of the bytes.
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            let text = String(decoding: bytes[index..<end], as: UTF8.self)
            index = end + 1
            return text
        }
        var scalars = String.UnicodeScalarView()
        var start = index
        func flush(_ end: Int, into scalars: inout String.UnicodeScalarView) {
            scalars.append(contentsOf: String(decoding: bytes[start..<end], as: UTF8.self).unicodeScalars)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flush(index, into: &scalars)
                index += 1
                return String(scalars)
            }
            if byte == UInt8(ascii: "\\") {
                flush(index, into: &scalars)
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                        index += 2
                        let low = try hex4()
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default: throw fail("unknown escape")
                }
                start = index
                continue
            }
            guard byte >= 0x20 else { throw fail("control character in a string") }
            index += 1
        }
        throw fail("unterminated string")
    }

    mutating func hex4() throws(JSONValue.ParseError) -> UInt32 {
        guard index + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16) else {
            throw fail("expected four hex digits")
        }
        index += 4
        return code
    }

    mutating func number() throws(JSONValue.ParseError) -> JSONValue {
        let start = index
        var isInteger = true
        while index < bytes.count {
            let byte = bytes[index]
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
                index += 1
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                isInteger = false
                index += 1
            } else {
                break
            }
        }
        // Plain integers, the common case, are read from the bytes; anything else goes through the standard parsers.
        if isInteger, let value = integer(start..<index) { return .int(value) }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int(text) { return .int(value) }
        guard !text.isEmpty, let value = Double(text) else { throw fail("expected a value") }
        return .double(value)
    }

    /// An optionally negative run of up to 18 digits, which always fits an `Int`; nil otherwise.
    func integer(_ range: Range<Int>) -> Int? {
        var k = range.lowerBound
        let negative = k < range.upperBound && bytes[k] == UInt8(ascii: "-")
        if negative { k += 1 }
        let digits = range.upperBound - k
        guard digits > 0, digits <= 18 else { return nil }
        var value = 0
        while k < range.upperBound {
            let digit = Int(bytes[k]) - 48
            guard digit >= 0, digit <= 9 else { return nil }
            value = value * 10 + digit
            k += 1
        }
        return negative ? -value : value
    }
}
