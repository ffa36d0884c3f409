/// Reading JSON text back into ``JSON`` values with object keys in file order (for `impact merge`).
extension JSON {
    /// Why a text is not JSON.
    struct ParseError: Error, CustomStringConvertible {
        var offset: Int
        var problem: String
        var description: String { "invalid JSON at byte \(offset + 1): \(problem)" }
    }

    /// Parses a JSON text: integers without fraction or exponent become `.int`, other numbers `.double`.
    /// - Throws: ``ParseError`` at the first problem.
    static func parse(_ text: String) throws -> JSON {
        var parser = JSONParser(bytes: Array(text.utf8))
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == parser.bytes.count else { throw ParseError(offset: parser.index, problem: "unexpected text after the value") }
        return value
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

/// A recursive-descent JSON parser over UTF-8 bytes.
private struct JSONParser {
    let bytes: [UInt8]
    var index = 0
    static let maxDepth = 64

    func fail(_ problem: String) -> JSON.ParseError { JSON.ParseError(offset: index, problem: problem) }

    mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    mutating func expect(_ literal: String, _ value: JSON) throws -> JSON {
        let expected = Array(literal.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<(index + expected.count)]) == expected else {
            throw fail("expected \(literal)")
        }
        index += expected.count
        return value
    }

    mutating func value(depth: Int) throws -> JSON {
        guard depth < JSONParser.maxDepth else { throw fail("nesting is too deep") }
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

    mutating func object(depth: Int) throws -> JSON {
        index += 1
        var pairs: [(String, JSON)] = []
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

    mutating func array(depth: Int) throws -> JSON {
        index += 1
        var items: [JSON] = []
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

    mutating func string() throws -> String {
        index += 1
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

    mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16) else {
            throw fail("expected four hex digits")
        }
        index += 4
        return code
    }

    mutating func number() throws -> JSON {
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
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int(text) { return .int(value) }
        guard !text.isEmpty, let value = Double(text) else { throw fail("expected a value") }
        return .double(value)
    }
}
