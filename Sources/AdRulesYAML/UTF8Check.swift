/// Finds the first byte sequence that is not UTF-8, so that it can be reported with its position.
enum UTF8Check {
    static func firstInvalidPosition(in bytes: UnsafeBufferPointer<UInt8>) -> SourcePosition? {
        // Fast path: pure ASCII needs no decoding.
        var combined: UInt8 = 0
        for byte in bytes { combined |= byte }
        if combined < 0x80 { return nil }
        var line = 1
        var column = 1
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput:
                return nil
            case .error:
                return SourcePosition(line: line, column: column)
            }
        }
    }

    /// The 1-based line and character column of a byte offset in UTF-8 text.
    static func position(ofByte offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> SourcePosition {
        var line = 1
        var column = 1
        for index in 0..<min(max(offset, 0), bytes.count) {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourcePosition(line: line, column: column)
    }
}
