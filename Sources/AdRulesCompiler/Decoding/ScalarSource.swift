import AdRulesYAML

/// Where a character of a scalar's value stands in the file.
///
/// A value and its source text differ: quotes, escapes (`\"`, `''`), a block scalar's `>-` header, and line
/// folding, which turns a line break and the next line's indentation into one space. The source is walked beside
/// the value, each value character matched with the next source character equal to it; what the source has in
/// between (quotes, backslashes, breaks, indentation) is skipped. That places a character of a `when` expression
/// at its own line and column however the expression is written.
struct ScalarSource {
    let bytes: [UInt8]
    /// The byte index where each line starts (lines split at LF, CRLF and CR), built once per file.
    let lineStarts: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
            if bytes[i] == 0x0A || bytes[i] == 0x0D { starts.append(i + 1) }
            i += 1
        }
        lineStarts = starts
    }

    /// The position of the value's character at `offset` (or just after its last character when `offset` is its
    /// length); nil when the source does not hold the value as expected.
    /// - Parameters:
    ///   - offset: a character offset into `value`.
    ///   - value: the scalar's value.
    ///   - range: where the scalar is written.
    func position(of offset: Int, in value: String, range: SourceRange) -> SourcePosition? {
        guard let text = slice(range) else { return nil }
        var line = range.start.line
        var column = range.start.column
        var raw = text.makeIterator()
        /// Moves past source characters until one equal to `target`; returns its position, nil when none is left.
        func advance(to target: Character) -> SourcePosition? {
            while let c = raw.next() {
                let here = SourcePosition(line: line, column: column)
                if c == "\n" || c == "\r\n" || c == "\r" {
                    line += 1
                    column = 1
                } else {
                    column += c.unicodeScalars.count
                }
                if c == target { return here }
            }
            return nil
        }
        var k = 0
        for c in value {
            guard let at = advance(to: c) else { return nil }
            if k == offset { return at }
            k += 1
        }
        return k == offset ? SourcePosition(line: line, column: column) : nil
    }

    /// The source text from `range.start` to `range.end`; nil when the range is not in the bytes.
    func slice(_ range: SourceRange) -> String? {
        guard let from = index(of: range.start), let to = index(of: range.end), from <= to else { return nil }
        return String(decoding: bytes[from..<to], as: UTF8.self)
    }

    /// The byte index of a position (columns count Unicode scalars, as libyaml's do).
    func index(of position: SourcePosition) -> Int? {
        guard position.line >= 1, position.line <= lineStarts.count else { return nil }
        var i = lineStarts[position.line - 1]
        var column = 1
        while column < position.column {
            guard i < bytes.count, bytes[i] != 0x0A, bytes[i] != 0x0D else { return nil }
            // A scalar's first byte starts a column; continuation bytes (10xxxxxx) do not.
            i += 1
            while i < bytes.count, bytes[i] & 0xC0 == 0x80 { i += 1 }
            column += 1
        }
        return i
    }
}
