import AdRulesYAML

/// Where the YAML token that starts at a position ends on its line, read from the file's bytes.
///
/// A rule that judges the assembled policy knows only where a value starts (its `SourceLocation`); its finding
/// would otherwise be zero-width, and an editor or code scanner would underline nothing. Widening it here gives it
/// the span a decoding finding has: the value from its first character to just past its last.
enum TokenExtent {
    /// The findings widened: a rule's finding about a value. Not libyaml's (`yaml/*`: a point where reading stopped),
    /// not a file-wide one (`lint/*`, `policy/empty`), not a missing key (the point where it would go): those have
    /// no token. Nor one inside a `when` expression (`rule/*`): its token, an expression's, is placed when it is found
    /// (``expressionTokenEnd(from:in:)``), and one left a point is at the expression's end.
    static func isWidened(_ diagnostic: Diagnostic) -> Bool {
        guard diagnostic.range.start == diagnostic.range.end, diagnostic.range != .fileStart else { return false }
        let rule = diagnostic.rule
        return !(rule.hasPrefix("yaml/") || rule.hasPrefix("lint/") || rule.hasPrefix("rule/") || rule == "policy/empty"
            || rule == "schema/missing-key")
    }

    /// The diagnostics, each zero-width range widened to the token that starts there (on one line). A range whose
    /// position lies outside its file, or where no token starts, is left as it is.
    static func widened(_ diagnostics: [Diagnostic], sources: [(file: String, bytes: [UInt8])]) -> [Diagnostic] {
        guard diagnostics.contains(where: isWidened) else { return diagnostics }
        var lines: [String: LineIndex] = [:]
        let bytesOf = Dictionary(sources.map { ($0.file, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        return diagnostics.map { diagnostic in
            guard isWidened(diagnostic), let bytes = bytesOf[diagnostic.file] else { return diagnostic }
            if lines[diagnostic.file] == nil { lines[diagnostic.file] = LineIndex(ScalarSource(bytes)) }
            guard let width = lines[diagnostic.file]?.tokenWidth(at: diagnostic.range.start) else {
                return diagnostic
            }
            var widened = diagnostic
            widened.range.end.column += width
            return widened
        }
    }

    /// Just past the token of a `when` expression that starts at `offset` of its text, in code points: a name or number
    /// (letters, digits, `_`, `.`), a negative literal, a quoted string, a comparison, or one character. Read in the expression's
    /// value, not in the file: in a quoted scalar the string's quotes are escaped (`''b''`, `\"b\"`), and
    /// ``ScalarSource`` places the end in the file.
    static func expressionTokenEnd(from offset: Int, in text: [Unicode.Scalar]) -> Int {
        guard offset >= 0, offset < text.count else { return offset }
        func isNamePart(_ c: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "_" || c == "."
        }
        let first = text[offset]
        if first == "\"" || first == "'" {
            // A backslash escapes the character after it (`"a\"b"`).
            var i = offset + 1
            while i < text.count, text[i] != first { i += text[i] == "\\" ? 2 : 1 }
            return min(i + 1, text.count)
        }
        // A comparison of two characters (`==`, `!=`, `<=`, `>=`), and the pairs other languages write that a finding
        // names whole (`&&`, `||`, `=>`, `=<`).
        if offset + 1 < text.count {
            let pair = String(String.UnicodeScalarView([first, text[offset + 1]]))
            if ["==", "!=", "<=", ">=", "&&", "||", "=>", "=<"].contains(pair) { return offset + 2 }
        }
        var i = offset
        // A negative literal (`-1e5`, `-1s`): the sign and what follows it.
        if first == "-", offset + 1 < text.count, isNamePart(text[offset + 1]) { i += 1 }
        guard i < text.count, isNamePart(text[i]) else { return offset + 1 }
        while i < text.count, isNamePart(text[i]) { i += 1 }
        return i
    }

    /// A file's lines as libyaml counts them, through ``ScalarSource`` (the same line table and column walk that
    /// place a character of a `when` expression, a byte order mark left out of line 1).
    struct LineIndex {
        private var source: ScalarSource
        /// The line last looked into, where its text ends (before its line break) and its first `[` or `{` (a plain
        /// scalar after one may end at `,` `]` `}`): read once per line, however many findings it holds.
        private var line = (number: 0, end: 0, bracket: Int.max)

        init(_ source: ScalarSource) { self.source = source }

        /// The number of characters of the token at a position, nil when no token starts there.
        mutating func tokenWidth(at position: SourcePosition) -> Int? {
            guard let p = source.index(of: position) else { return nil }
            let bytes = source.bytes
            if line.number != position.line {
                var end = source.lineStarts[position.line - 1]
                var bracket = Int.max
                while end < bytes.count, LineBreak.length(at: end, in: bytes) == 0 {
                    if bracket == .max, bytes[end] == UInt8(ascii: "[") || bytes[end] == UInt8(ascii: "{") { bracket = end }
                    end += 1
                }
                line = (position.line, end, bracket)
            }
            let end = line.end
            guard p < end, bytes[p] != UInt8(ascii: " ") else { return nil }
            let tokenEnd = LineIndex.tokenEnd(from: p, inFlow: line.bracket < p, lineEnd: end, in: bytes)
            var width = 0
            for i in p..<tokenEnd where bytes[i] & 0xC0 != 0x80 { width += 1 }
            return width > 0 ? width : nil
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
