import AdRules

/// Finds the first byte sequence that is not UTF-8, or the first line break that editors do not show as one, so
/// that it can be reported with its position.
package enum UTF8Check {
    /// What is wrong with a file's text before libyaml reads it.
    enum Problem: Equatable {
        /// A byte sequence that is not UTF-8, with libyaml's words for it (``libyamlProblem(at:in:)``).
        case invalid(String)
        /// NEL (U+0085), LINE SEPARATOR (U+2028) or PARAGRAPH SEPARATOR (U+2029): YAML reads each as a line break,
        /// but editors and diffs show none, so text after one in a comment would be read as a setting no reviewer sees.
        case hiddenLineBreak(Unicode.Scalar)
        /// More combining marks in a row than stream-safe text has (``StreamSafeText``).
        case tooManyCombiningMarks
    }

    /// Whether the text is UTF-16 or UTF-32 rather than UTF-8: it starts with their byte-order mark, or at least a
    /// quarter of its first 256 bytes are 0 and some are not (UTF-16 text with ASCII in it has a zero byte beside each
    /// ASCII character, UTF-32 three; UTF-8 text has none, and a stray NUL in it is a control character, reported as
    /// one). libyaml would otherwise stop at the first zero byte with "control characters are not allowed".
    static func isWideEncoding(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 2 else { return false }
        if ByteOrderMark.startsWide(bytes) { return true }
        guard hasManyZeroBytes(bytes) else { return false }
        // Wide text has its zero bytes in step with its code units: UTF-32's highest byte is always zero (the fourth
        // of each unit, or the first), and UTF-16 text with ASCII in it has its zeros at one parity. A binary file has
        // them anywhere.
        let head = Array(bytes.prefix(256))
        var zerosAt = [0, 0, 0, 0]
        for (i, byte) in head.enumerated() where byte == 0 { zerosAt[i % 4] += 1 }
        // UTF-32's lowest byte is rarely zero (a character U+xx00): zero padding after text is no UTF-32.
        let units = head.count / 4
        let (lowest, highest) = (units, (head.count + 3) / 4)
        let utf32 = units > 0
            && ((zerosAt[3] >= units && zerosAt[0] * 2 <= lowest) || (zerosAt[0] >= highest && zerosAt[3] * 2 <= units))
        let (even, odd) = (zerosAt[0] + zerosAt[2], zerosAt[1] + zerosAt[3])
        let utf16 = min(even, odd) * 10 <= max(even, odd)
        return utf16 || utf32
    }

    /// Whether at least a quarter of the first 256 bytes are zero, and not all of them: wide text, or a binary file.
    /// (A UTF-8 file with a stray NUL has few; one of zero bytes only is a control character, as libyaml says.)
    static func hasManyZeroBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let head = bytes.prefix(256)
        let zeros = head.count { $0 == 0 }
        guard head.count >= 4 && zeros * 4 >= head.count && zeros < head.count else { return false }
        // A text file that ends in zero bytes (cut short by a crash, padded by a tool) is text: libyaml names the first
        // zero byte as a control character, where it stands. (Only a file whose start has many zero bytes is read to
        // its end for this: every other file is decided by its first 256 bytes.)
        guard let first = head.firstIndex(of: 0) else { return false }
        return !bytes[first...].allSatisfy { $0 == 0 }
    }

    /// The kind of binary file the bytes start as (an executable, an image, an archive), by the signature such files
    /// start with, or nil: named so that its zero bytes are not called UTF-16, nor its other bytes text to fix. A text
    /// file starts with none of them (each holds a byte that is no text, or is no YAML).
    static func binaryKind(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let signatures: [(bytes: [UInt8], kind: String)] = [
            ([0x7F, 0x45, 0x4C, 0x46], "an ELF executable"),
            ([0xCF, 0xFA, 0xED, 0xFE], "a Mach-O executable"), ([0xCE, 0xFA, 0xED, 0xFE], "a Mach-O executable"),
            ([0xCA, 0xFE, 0xBA, 0xBE], "a Mach-O executable"),
            ([0x89, 0x50, 0x4E, 0x47], "a PNG image"), ([0xFF, 0xD8, 0xFF], "a JPEG image"),
            ([0x50, 0x4B, 0x03, 0x04], "a zip archive"), ([0x1F, 0x8B], "a gzip archive"),
            (Array("%PDF-".utf8), "a PDF document"),
            (Array("SQLite format 3".utf8) + [0], "an SQLite database"),
        ]
        return signatures.first { bytes.starts(with: $0.bytes) }?.kind
    }

    /// The first problem and its 1-based line and character column, lines counted at LF, CR LF and CR.
    static func firstProblem(in bytes: UnsafeBufferPointer<UInt8>) -> (problem: Problem, at: SourcePosition)? {
        // Fast path: pure ASCII needs no decoding.
        var combined: UInt8 = 0
        for byte in bytes { combined |= byte }
        if combined < 0x80 { return nil }
        var line = 1
        var column = 1
        var afterCR = false
        var isFirst = true
        var marks = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        // The byte offset of the next scalar, for the bytes of one that does not decode.
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
                marks = StreamSafeText.run(after: marks, adding: scalar)
                if marks > StreamSafeText.maxCombiningMarks { return (.tooManyCombiningMarks, SourcePosition(line: line, column: column)) }
                switch scalar.value {
                case 0x0A where afterCR:
                    break
                case 0x0A, 0x0D:
                    line += 1
                    column = 1
                case 0x85, 0x2028, 0x2029:
                    return (.hiddenLineBreak(scalar), SourcePosition(line: line, column: column))
                case 0xFEFF where isFirst:
                    // The byte-order mark a file may start with is no column (a second one is).
                    break
                default:
                    column += 1
                }
                afterCR = scalar.value == 0x0D
                isFirst = false
            case .emptyInput:
                return nil
            case .error:
                return (.invalid(libyamlProblem(at: offset, in: bytes)), SourcePosition(line: line, column: column))
            }
        }
    }

    /// What libyaml's reader says of the byte sequence at `offset` that does not decode (cli.md: a `yaml/syntax` error
    /// has libyaml's problem text), worked out as its reader checks a sequence: the leading byte's length, each
    /// trailing byte, then the value's length and range.
    static func libyamlProblem(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        let lead = bytes[offset]
        let width = lead & 0x80 == 0 ? 1 : lead & 0xE0 == 0xC0 ? 2 : lead & 0xF0 == 0xE0 ? 3 : lead & 0xF8 == 0xF0 ? 4 : 0
        guard width > 0 else { return "invalid leading UTF-8 octet" }
        guard offset + width <= bytes.count else { return "incomplete UTF-8 octet sequence" }
        var value = UInt32(width == 1 ? lead & 0x7F : width == 2 ? lead & 0x1F : width == 3 ? lead & 0x0F : lead & 0x07)
        for k in 1..<width {
            let trailing = bytes[offset + k]
            guard trailing & 0xC0 == 0x80 else { return "invalid trailing UTF-8 octet" }
            value = value << 6 + UInt32(trailing & 0x3F)
        }
        let smallest: UInt32 = switch width {
        case 2: 0x80
        case 3: 0x800
        case 4: 0x10000
        default: 0
        }
        guard value >= smallest else { return "invalid length of a UTF-8 sequence" }
        return "invalid Unicode character"
    }

    /// The 1-based line and character column of a byte offset in UTF-8 text (a YAML file's bytes, a JSON part's).
    /// Lines are counted at LF, CR LF and CR, as libyaml counts them, and a byte-order mark the text starts with is no
    /// column (an editor shows none, and libyaml's marks do not count it).
    ///
    /// The count runs over the bytes' contiguous storage, a loop of one concrete type: walked through the generic
    /// collection from another module it took about 90 ns a byte (6 s for an error at the end of a 64 MB document).
    package static func position(ofByte offset: Int, in bytes: some Collection<UInt8>) -> SourcePosition {
        if let found = bytes.withContiguousStorageIfAvailable({ position(ofByte: offset, inContiguous: $0) }) { return found }
        return Array(bytes).withUnsafeBufferPointer { position(ofByte: offset, inContiguous: $0) }
    }

    private static func position(ofByte offset: Int, inContiguous bytes: UnsafeBufferPointer<UInt8>) -> SourcePosition {
        var line = 1
        var column = 1
        var afterCR = false
        let head = bytes.prefix(max(offset, 0))
        let skipped = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        for byte in head.dropFirst(skipped) {
            if byte == 0x0A && afterCR {
                // The LF of a CR LF pair: the line was counted at the CR.
            } else if byte == 0x0A || byte == 0x0D {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            afterCR = byte == 0x0D
        }
        return SourcePosition(line: line, column: column)
    }
}
