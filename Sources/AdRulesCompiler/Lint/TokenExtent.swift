import AdRulesYAML

/// Where the YAML token that starts at a position ends on its line, read from the file's bytes.
///
/// A rule that judges the assembled policy knows only where a value starts (its `SourceLocation`); its finding
/// would otherwise be zero-width, and an editor or code scanner would underline nothing. Widening it here gives it
/// the span a decoding finding has: the value from its first character to just past its last.
enum TokenExtent {
    /// The diagnostics, each zero-width range widened to the token that starts there (on one line). A range whose
    /// position lies outside its file, or where no token starts, is left as it is.
    static func widened(_ diagnostics: [Diagnostic], sources: [(file: String, bytes: [UInt8])]) -> [Diagnostic] {
        guard diagnostics.contains(where: { $0.range.start == $0.range.end }) else { return diagnostics }
        var lines: [String: LineIndex] = [:]
        let bytesOf = Dictionary(sources.map { ($0.file, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        return diagnostics.map { diagnostic in
            guard diagnostic.range.start == diagnostic.range.end, let bytes = bytesOf[diagnostic.file] else { return diagnostic }
            if lines[diagnostic.file] == nil { lines[diagnostic.file] = LineIndex(bytes) }
            // A `rule/*` finding points into a `when` expression: at a name, a string or one character.
            let inExpression = diagnostic.rule.hasPrefix("rule/")
            guard let width = lines[diagnostic.file]?.tokenWidth(at: diagnostic.range.start, in: bytes, inExpression: inExpression) else {
                return diagnostic
            }
            var widened = diagnostic
            widened.range.end.column += width
            return widened
        }
    }

    /// Where each line starts, lines broken as libyaml breaks them (LF, CR LF, CR, NEL, LS, PS).
    struct LineIndex {
        /// Per line: the offset of its first byte and of its line break (or the end of the file).
        private var lines: [(start: Int, end: Int)] = []
        /// Where the last lookup stopped (line, column, byte) and the first `[` or `{` of that line: findings come
        /// in file order, so the next one on the same line goes on from there and a line is read once, however many
        /// findings it holds.
        private var cursor = (line: 0, column: 1, byte: 0, firstBracket: Int.max)

        init(_ bytes: [UInt8]) {
            var start = 0
            var i = 0
            while i < bytes.count {
                let length = LineIndex.lineBreakLength(at: i, in: bytes)
                if length > 0 {
                    lines.append((start, i))
                    i += length
                    start = i
                } else {
                    i += 1
                }
            }
            lines.append((start, bytes.count))
        }

        static func lineBreakLength(at i: Int, in bytes: [UInt8]) -> Int {
            switch bytes[i] {
            case UInt8(ascii: "\n"): return 1
            case UInt8(ascii: "\r"): return i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\n") ? 2 : 1
            case 0xC2: return i + 1 < bytes.count && bytes[i + 1] == 0x85 ? 2 : 0
            case 0xE2: return i + 2 < bytes.count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9) ? 3 : 0
            default: return 0
            }
        }

        /// The number of characters of the token at a position, nil when no token starts there.
        mutating func tokenWidth(at position: SourcePosition, in bytes: [UInt8], inExpression: Bool) -> Int? {
            guard position.line >= 1, position.line <= lines.count, position.column >= 1 else { return nil }
            let line = lines[position.line - 1]
            if cursor.line != position.line || cursor.column > position.column {
                let bracket = bytes[line.start..<line.end].firstIndex { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "{") }
                cursor = (position.line, 1, line.start, bracket ?? Int.max)
            }
            // Columns count characters: step over the bytes that continue one.
            var p = cursor.byte
            var column = cursor.column
            while column < position.column, p < line.end {
                p += 1
                while p < line.end, bytes[p] & 0xC0 == 0x80 { p += 1 }
                column += 1
            }
            cursor.column = column
            cursor.byte = p
            guard column == position.column, p < line.end, bytes[p] != UInt8(ascii: " ") else { return nil }
            let end = inExpression
                ? LineIndex.expressionTokenEnd(from: p, lineEnd: line.end, in: bytes)
                : LineIndex.tokenEnd(from: p, inFlow: cursor.firstBracket < p, lineEnd: line.end, in: bytes)
            var width = 0
            for i in p..<end where bytes[i] & 0xC0 != 0x80 { width += 1 }
            return width > 0 ? width : nil
        }

        /// Just past the expression token starting at `p`: a name or number (letters, digits, `_`, `.`), a quoted
        /// string, or one character.
        static func expressionTokenEnd(from p: Int, lineEnd: Int, in bytes: [UInt8]) -> Int {
            func isNamePart(_ b: UInt8) -> Bool {
                (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                    || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_") || b == UInt8(ascii: ".")
            }
            if bytes[p] == UInt8(ascii: "\"") || bytes[p] == UInt8(ascii: "'") {
                var i = p + 1
                while i < lineEnd, bytes[i] != bytes[p] { i += 1 }
                return min(i + 1, lineEnd)
            }
            // A negative literal (`-1e5`, `-1s`): the sign and what follows it.
            if bytes[p] == UInt8(ascii: "-"), p + 1 < lineEnd, isNamePart(bytes[p + 1]) {
                var i = p + 1
                while i < lineEnd, isNamePart(bytes[i]) { i += 1 }
                return i
            }
            guard isNamePart(bytes[p]) else {
                var i = p + 1
                while i < lineEnd, bytes[i] & 0xC0 == 0x80 { i += 1 }
                return i
            }
            var i = p
            while i < lineEnd, isNamePart(bytes[i]) { i += 1 }
            return i
        }

        /// Just past the token starting at `p`: a quoted scalar to its closing quote, a flow collection to its closing
        /// bracket, a plain scalar to a comment, a `: `, or (inside brackets) a `,` — whichever comes first on the line.
        static func tokenEnd(from p: Int, inFlow: Bool, lineEnd: Int, in bytes: [UInt8]) -> Int {
            let first = bytes[p]
            switch first {
            case UInt8(ascii: "\""):
                var i = p + 1
                while i < lineEnd {
                    if bytes[i] == UInt8(ascii: "\\") { i += 2; continue }
                    if bytes[i] == UInt8(ascii: "\"") { return i + 1 }
                    i += 1
                }
                return lineEnd
            case UInt8(ascii: "'"):
                var i = p + 1
                while i < lineEnd {
                    if bytes[i] == UInt8(ascii: "'") {
                        if i + 1 < lineEnd, bytes[i + 1] == UInt8(ascii: "'") { i += 2; continue }
                        return i + 1
                    }
                    i += 1
                }
                return lineEnd
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                var depth = 0
                for i in p..<lineEnd {
                    switch bytes[i] {
                    case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                    case UInt8(ascii: "]"), UInt8(ascii: "}"):
                        depth -= 1
                        if depth == 0 { return i + 1 }
                    default: break
                    }
                }
                return lineEnd
            case UInt8(ascii: "|"), UInt8(ascii: ">"):
                return p + 1
            default:
                // Inside `[...]` or `{...}` a plain scalar also ends at a comma or a closing bracket.
                var i = p
                while i < lineEnd {
                    let b = bytes[i]
                    if b == UInt8(ascii: "#"), i > p, bytes[i - 1] == UInt8(ascii: " ") { break }
                    if b == UInt8(ascii: ":"), i + 1 == lineEnd || bytes[i + 1] == UInt8(ascii: " ") { break }
                    if inFlow, b == UInt8(ascii: ",") || b == UInt8(ascii: "]") || b == UInt8(ascii: "}") { break }
                    i += 1
                }
                while i > p, bytes[i - 1] == UInt8(ascii: " ") { i -= 1 }
                return i
            }
        }
    }
}
