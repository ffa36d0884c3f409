/// Strings: read into a `String` (one slice of the bytes when there is no escape), or checked and dropped.
extension JSONReader {
    /// Reads a string.
    package mutating func readString() throws(JSONValue.ParseError) -> String {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a string") }
        index += 1
        atFirst = false
        // Most strings have no escape: they are one slice of the bytes.
        var end = index
        var combined: UInt8 = 0
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
            combined |= bytes[end]
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            // JSON is UTF-8 (RFC 8259): bytes that are not are an error, not U+FFFD.
            if combined >= 0x80 { try checkText(bytes[index..<end], written: index..<end) }
            let text = String(decoding: bytes[index..<end], as: UTF8.self)
            index = end + 1
            return text
        }
        return try escapedString()
    }

    /// Refuses a string's bytes that are not UTF-8 (RFC 8259), or not stream-safe (``StreamSafeText``).
    /// - Parameter written: where the string's bytes stand in the document, between its quotes: bytes that are not
    ///   UTF-8 are reported at the first of them (escapes are ASCII and write UTF-8, so that byte is among these).
    func checkText(_ text: some Sequence<UInt8>, written: Range<Int>) throws(JSONValue.ParseError) {
        switch StreamSafeText.problem(in: text) {
        case nil: return
        case .notUTF8: throw fail("a string that is not UTF-8", at: firstByteNotUTF8(in: written) ?? index)
        case .tooManyCombiningMarks: throw fail(StreamSafeText.message)
        }
    }

    /// Where the first sequence of `range` that is not UTF-8 starts, if one does.
    private func firstByteNotUTF8(in range: Range<Int>) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes[range].makeIterator()
        var offset = range.lowerBound
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .error: return offset
            case .emptyInput: return nil
            }
        }
    }

    /// The rest of a string that holds escapes, from just after its opening quote.
    private mutating func escapedString() throws(JSONValue.ParseError) -> String {
        var utf8: [UInt8] = []
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try checkText(utf8, written: start..<index)
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                index += 1
                utf8.append(contentsOf: String(try escape()).utf8)
                continue
            }
            guard byte >= 0x20 else { throw fail("control character in a string") }
            utf8.append(byte)
            index += 1
        }
        throw fail("unterminated string")
    }

    /// Reads a string and drops it: checked as ``readString()`` checks it, but no `String` is made.
    mutating func skipString() throws(JSONValue.ParseError) {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a string") }
        index += 1
        atFirst = false
        let start = index
        var sawNonASCII = false
        var sawEscape = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                if sawEscape {
                    // An escape may write a combining mark (`\u0301`): the text is read, as readString() reads it,
                    // and checked whole.
                    index = start - 1
                    _ = try readString()
                    return
                }
                // Escapes are ASCII: the raw bytes are UTF-8 exactly when the string is.
                if sawNonASCII { try checkText(bytes[start..<index], written: start..<index) }
                index += 1
                return
            }
            if byte == UInt8(ascii: "\\") {
                index += 1
                _ = try escape()
                sawEscape = true
                continue
            }
            guard byte >= 0x20 else { throw fail("control character in a string") }
            if byte >= 0x80 { sawNonASCII = true }
            index += 1
        }
        throw fail("unterminated string")
    }

    /// The character of an escape, from just after its backslash.
    private mutating func escape() throws(JSONValue.ParseError) -> Unicode.Scalar {
        guard index < bytes.count else { throw fail("unterminated string") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            // The escape's backslash: where an error about it points.
            let start = index - 2
            let code = try hex4()
            // A high surrogate and a low one make one character; an unpaired surrogate is no character at all.
            if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                bytes[index + 1] == UInt8(ascii: "u")
            {
                index += 2
                let low = try hex4()
                if (0xDC00..<0xE000).contains(low), let scalar = Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)) { return scalar }
            }
            guard let scalar = Unicode.Scalar(code) else {
                index = start
                throw fail("an unpaired surrogate escape (\\u\(String(code, radix: 16, uppercase: true)))")
            }
            return scalar
        default:
            index -= 1
            throw fail("unknown escape")
        }
    }

    private mutating func hex4() throws(JSONValue.ParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("expected four hex digits") }
        var code: UInt32 = 0
        for byte in bytes[index..<(index + 4)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("expected four hex digits")
            }
            code = code << 4 | UInt32(digit)
        }
        index += 4
        return code
    }
}
