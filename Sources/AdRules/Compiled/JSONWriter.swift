/// Writes one JSON text into bytes, without insignificant white space: the compiled policy's writer.
///
/// It writes what Foundation's `JSONEncoder` writes with `.withoutEscapingSlashes`: `"` and `\` escaped,
/// control characters as `\n`, `\t`… or `\u001b`, everything else (`/`, non-ASCII) as it is; a whole `Double`
/// without `.0`. Besides, the characters `ControlCharacters` names, and the `[` of `##[` (a command to a CI log), are
/// written as `\uXXXX` escapes, which read the same. Keys are written in the order they are given, so a caller that
/// wants sorted keys gives them sorted.
package struct JSONWriter {
    /// The text written so far.
    package private(set) var bytes: [UInt8] = []
    /// Whether the next value or key follows another in the same array or object, so needs a comma first.
    private var needsComma = false

    /// Creates an empty writer.
    package init() {}

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// Writes an object: `body` writes its members, each a ``key(_:)`` and then a value.
    package mutating func object<E: Error>(_ body: (inout JSONWriter) throws(E) -> Void) throws(E) {
        try enclosed(open: "{", close: "}", body)
    }

    /// Writes an array: `body` writes its elements.
    package mutating func array<E: Error>(_ body: (inout JSONWriter) throws(E) -> Void) throws(E) {
        try enclosed(open: "[", close: "]", body)
    }

    private mutating func enclosed<E: Error>(open: Unicode.Scalar, close: Unicode.Scalar, _ body: (inout JSONWriter) throws(E) -> Void) throws(E) {
        separate()
        bytes.append(UInt8(ascii: open))
        needsComma = false
        try body(&self)
        bytes.append(UInt8(ascii: close))
        needsComma = true
    }

    /// Writes the key of the next member of an object; the value follows. A key is one of the writer's own
    /// names, plain ASCII with nothing to escape, so it is copied as it is.
    package mutating func key(_ name: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: name.utf8)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes the key of the next member of an object, escaped as ``string(_:)`` escapes a text: a key that is not
    /// one of the writer's own names (a placement id a ledger file held).
    package mutating func key(escaping name: String) {
        separate()
        quoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a string.
    package mutating func string(_ value: String) {
        separate()
        quoted(value)
        needsComma = true
    }

    /// Writes a boolean.
    package mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? Self.trueText : Self.falseText)
        needsComma = true
    }

    private static let trueText = Array("true".utf8)
    private static let falseText = Array("false".utf8)

    /// Writes a whole number.
    package mutating func int(_ value: Int64) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        digits(value.magnitude)
        needsComma = true
    }

    /// Writes a whole number.
    package mutating func int(_ value: Int) { int(Int64(value)) }

    /// Writes a number as its shortest decimal form that reads back as the same `Double`, a whole one without `.0`.
    /// - Throws: ``NonFiniteNumber`` for NaN and the infinities, which JSON cannot hold.
    package mutating func number(_ value: Double) throws(NonFiniteNumber) {
        guard value.isFinite else { throw NonFiniteNumber(value: value) }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        separate()
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    /// A number JSON cannot hold.
    package struct NonFiniteNumber: Error {
        package var value: Double
    }

    private mutating func digits(_ value: UInt64) {
        // The digits come out last first: they are put right once written.
        let start = bytes.count
        var rest = value
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        var low = start
        var high = bytes.count - 1
        while low < high {
            bytes.swapAt(low, high)
            low += 1
            high -= 1
        }
    }

    /// A string in quotes. Besides what JSON requires, every character `ControlCharacters` names (DEL, C1
    /// controls, line and paragraph separators, bidirectional overrides, the byte-order mark), and the `[` of `##[`,
    /// are written as `\uXXXX` escapes: the document reads the same, a viewer or terminal shows no reordered text, and
    /// a CI log reads no command.
    private mutating func quoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        defer { bytes.append(UInt8(ascii: "\"")) }
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            for byte in text.utf8 { ascii(byte) }
            return
        }
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                ascii(UInt8(scalar.value))
            } else if ControlCharacters.isControl(scalar) {
                escape(scalar.value)
            } else {
                UTF8.encode(scalar) { bytes.append($0) }
            }
        }
    }

    private mutating func ascii(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
        case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
        case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0x00..<0x20, 0x7F: escape(UInt32(byte))
        // `##[` is a command to a CI log (`ControlCharacters.holdsLogCommand`): its `[` is escaped, which reads the same.
        // No escape ends in `#`, so the two bytes before are the text's own.
        case UInt8(ascii: "[") where bytes.count >= 2 && bytes[bytes.count - 1] == UInt8(ascii: "#") && bytes[bytes.count - 2] == UInt8(ascii: "#"):
            escape(UInt32(byte))
        default: bytes.append(byte)
        }
    }

    /// `\uXXXX`, lowercase hex, for a scalar of the Basic Multilingual Plane.
    private mutating func escape(_ value: UInt32) {
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
        for shift in [12, 8, 4, 0] { bytes.append(hex[Int((value >> UInt32(shift)) & 0x0F)]) }
    }
}
