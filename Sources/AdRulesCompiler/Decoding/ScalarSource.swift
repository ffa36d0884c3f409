import AdRulesYAML

/// Exact positions of characters inside a file's scalars, read from its bytes once a finding needs one, for as many
/// findings as a file reports (past them the report is cut anyway).
package struct ScalarPositions {
    private let bytes: [UInt8]?
    private var source: ScalarSource?
    private var placed = 0

    package init(bytes: [UInt8]?) { self.bytes = bytes }

    /// Where the value's code point at an offset stands; nil without the bytes, or past the findings a file reports.
    package mutating func position(ofCodePoint offset: Int, in node: YAMLNode) -> SourcePosition? {
        range(ofCodePoints: offset, to: offset, in: node)?.start
    }

    /// Where the value's code points from `start` to just before `end` stand: one finding's extent, placed as one.
    /// Nil without the bytes, or past the findings a file reports; the end is the start when it cannot be placed.
    package mutating func range(ofCodePoints start: Int, to end: Int, in node: YAMLNode) -> SourceRange? {
        guard let scalar = node.scalar, let bytes, placed < FieldReader.maxDiagnostics else { return nil }
        if source == nil { source = ScalarSource(bytes) }
        placed += 1
        guard let from = source?.position(of: start, in: scalar.value, range: node.range, style: scalar.style) else { return nil }
        // Just past the last code point, in its line: a token ending where YAML folded a line break is not taken to
        // run to the next line.
        let to = end > start ? source?.position(after: end - 1, in: scalar.value, range: node.range, style: scalar.style) : nil
        return SourceRange(start: from, end: to ?? from)
    }

    /// The comment written after a plain scalar on its last line, from its `#` to the end of the line
    /// (`when: screen == #checkout` holds `#checkout`): YAML left it out of the value. Nil when none follows, or
    /// without the bytes.
    package mutating func comment(after node: YAMLNode) -> String? {
        guard node.scalar?.style == .plain, let bytes else { return nil }
        if source == nil { source = ScalarSource(bytes) }
        return source?.comment(at: node.range.end)
    }
}

/// Where a character of a scalar's value stands in the file.
///
/// A value and its source text differ: quotes, escapes (`\"`, `''`), a block scalar's `>-` header, and line
/// folding, which turns a line break and the next line's indentation into one space. The source is walked beside
/// the value, each code point of the value matched with the next source code point that stands for it; what the
/// source has in between (quotes, backslashes, breaks, indentation) is skipped. That places a character of a `when`
/// expression at its own line and column however the expression is written.
package struct ScalarSource {
    let bytes: [UInt8]
    /// The byte index where each line starts, built once per file: lines split where libyaml splits them (LF, CRLF,
    /// CR, NEL, LS, PS), and the first starts after a byte order mark, which libyaml does not count as a column.
    let lineStarts: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0]
        var i = starts[0]
        while i < bytes.count {
            let length = LineBreak.length(at: i, in: bytes)
            i += max(length, 1)
            if length > 0 { starts.append(i) }
        }
        lineStarts = starts
    }

    /// The position of the value's code point at `target` (or just after its last one when `target` is its length);
    /// nil when the source does not hold the value as expected.
    /// - Parameters:
    ///   - target: a code point offset into `value`, as columns count (a `when` token's offset).
    ///   - value: the scalar's value.
    ///   - range: where the scalar is written.
    ///   - style: how it is written: a block scalar's value starts on the line after its header (which may hold a
    ///     comment), and a double-quoted one's escapes stand for the code points they produce.
    ///
    /// The walk goes code point by code point, as columns count: an escape can produce a code point that joins the
    /// character before it (`e\u0301`), which no character of the source stands for.
    ///
    /// A scalar is walked once, however many findings it holds: its source may be far longer than its value (a
    /// double-quoted value folds away each line's indentation), and a walk per finding made 250 findings in a 15 MB
    /// scalar take over a minute.
    mutating func position(of target: Int, in value: String, range: SourceRange, style: ScalarStyle) -> SourcePosition? {
        // An empty value (`when: >` and nothing below) is where it is written, not on the line after its header.
        guard !value.isEmpty else { return target == 0 ? range.start : nil }
        guard let positions = walk(value, range: range, style: style)?.starts, target >= 0, target < positions.count else { return nil }
        return positions[target]
    }

    /// Where the source of the value's code point at `offset` ends (just past its escape, if written as one); nil when
    /// the source does not hold it.
    mutating func position(after offset: Int, in value: String, range: SourceRange, style: ScalarStyle) -> SourcePosition? {
        guard let walked = walk(value, range: range, style: style), offset >= 0, offset < walked.starts.count else { return nil }
        return walked.ends[offset] ?? (offset + 1 < walked.starts.count ? walked.starts[offset + 1] : nil)
    }

    /// The walk of a scalar: the last one walked, or this one, walked now.
    private mutating func walk(_ value: String, range: SourceRange, style: ScalarStyle) -> Walked? {
        if walked?.range != range {
            walked = nil
            guard let text = slice(range) else { return nil }
            walked = Self.walk(value, in: text, range: range, style: style)
        }
        return walked
    }

    /// A scalar walked: where each code point of its value starts (then its end, when the whole value was found in the
    /// source), and where the source of those that end elsewhere than where the next one starts ends (the last of a
    /// line folded into a space, the last one): a few a line, not one a code point (a 16 MB scalar is walked whole).
    private struct Walked {
        var range: SourceRange
        var starts: [SourcePosition] = []
        var ends: [Int: SourcePosition] = [:]
    }

    /// The last scalar walked.
    private var walked: Walked?

    /// The positions of a value's code points in its source text, as far as the source holds them.
    private static func walk(_ value: String, in text: String, range: SourceRange, style: ScalarStyle) -> Walked {
        var walk = Walk(text: text, at: range.start, style: style)
        var walked = Walked(range: range)
        walked.starts.reserveCapacity(value.unicodeScalars.count + 1)
        var end: SourcePosition?
        for c in value.unicodeScalars {
            guard let at = walk.next(producing: c) else { break }
            if let end, end != at { walked.ends[walked.starts.count - 1] = end }
            walked.starts.append(at)
            end = walk.position
        }
        // The whole value found: its end. Else the last code point found keeps its own.
        if walked.starts.count == value.unicodeScalars.count {
            walked.starts.append(walk.position)
        } else if let end {
            walked.ends[walked.starts.count - 1] = end
        }
        return walked
    }

    /// A walk through a scalar's source text, code point by code point, with each one's position and what it stands
    /// for in the value.
    struct Walk {
        /// Double-quoted escapes of one code point (`\x`, `\u` and `\U` are read as hexadecimal).
        static let escapes: [Unicode.Scalar: Unicode.Scalar] = [
            "0": "\u{0}", "a": "\u{7}", "b": "\u{8}", "t": "\t", "\t": "\t", "n": "\n", "v": "\u{B}", "f": "\u{C}", "r": "\r",
            "e": "\u{1B}", " ": " ", "\"": "\"", "/": "/", "\\": "\\", "N": "\u{85}", "_": "\u{A0}", "L": "\u{2028}", "P": "\u{2029}",
        ]
        /// The line breaks libyaml counts lines by; CR LF is read as one.
        static let lineBreaks: Set<Unicode.Scalar> = ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"]

        var scalars: String.UnicodeScalarView.Iterator
        /// A code point read ahead (after a CR that was not followed by LF).
        private var pending: Unicode.Scalar?
        let style: ScalarStyle
        private(set) var position: SourcePosition

        init(text: String, at start: SourcePosition, style: ScalarStyle) {
            scalars = text.unicodeScalars.makeIterator()
            self.style = style
            position = start
            if style == .literal || style == .folded {
                // The header (`>-`, `|2`, a comment) is not the value: it starts on the next line.
                while let c = nextUnit() {
                    step(over: c)
                    if Self.lineBreaks.contains(c) { break }
                }
            } else if style == .singleQuoted || style == .doubleQuoted, let quote = nextUnit() {
                // Nor is the opening quote: a value that starts with a quote (`"\"x"`) starts after it.
                step(over: quote)
            }
        }

        /// The next code point of the source, a CR LF pair read as its CR.
        private mutating func nextUnit() -> Unicode.Scalar? {
            let c: Unicode.Scalar
            if let p = pending {
                pending = nil
                c = p
            } else {
                guard let n = scalars.next() else { return nil }
                c = n
            }
            if c == "\r", let n = scalars.next(), n != "\n" { pending = n }
            return c
        }

        private mutating func step(over c: Unicode.Scalar) {
            if Self.lineBreaks.contains(c) {
                position = SourcePosition(line: position.line + 1, column: 1)
            } else {
                position = SourcePosition(line: position.line, column: position.column + 1)
            }
        }

        /// Moves past source code points until one that stands for `target`; returns where it starts, nil when none
        /// is left.
        mutating func next(producing target: Unicode.Scalar) -> SourcePosition? {
            while let c = nextUnit() {
                let here = position
                step(over: c)
                // libyaml reads CR LF, CR and NEL in a scalar as LF (LS and PS stay as they are).
                var produced: Unicode.Scalar? = c == "\r" || c == "\u{85}" ? "\n" : c
                if style == .doubleQuoted, c == "\\", let e = nextUnit() {
                    step(over: e)
                    produced = Self.lineBreaks.contains(e) ? nil : Walk.escapes[e] ?? hexadecimal(after: e)
                } else if style == .singleQuoted, c == "'" {
                    // `''` is one quote of the value, both its characters; a lone one closes the scalar.
                    guard let e = nextUnit(), e == "'" else { return nil }
                    step(over: e)
                }
                if produced == target { return here }
            }
            return nil
        }

        /// The code point of `\xXX`, `\uXXXX` or `\UXXXXXXXX`, its digits read from the source.
        private mutating func hexadecimal(after e: Unicode.Scalar) -> Unicode.Scalar? {
            let count = e == "x" ? 2 : e == "u" ? 4 : e == "U" ? 8 : 0
            var digits = ""
            for _ in 0..<count {
                guard let d = nextUnit() else { break }
                step(over: d)
                digits.unicodeScalars.append(d)
            }
            guard count > 0, let code = UInt32(digits, radix: 16) else { return nil }
            return Unicode.Scalar(code)
        }
    }

    /// The source text from `range.start` to `range.end`; nil when the range is not in the bytes.
    mutating func slice(_ range: SourceRange) -> String? {
        guard let from = index(of: range.start), let to = index(of: range.end), from <= to else { return nil }
        return String(decoding: bytes[from..<to], as: UTF8.self)
    }

    /// The comment that starts after spaces or tabs from `position` on its line, up to the line's end; nil when the line
    /// holds something else there, or nothing.
    mutating func comment(at position: SourcePosition) -> String? {
        guard var i = index(of: position) else { return nil }
        let start = i
        while i < bytes.count, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") { i += 1 }
        // A `#` starts a comment only after a space (or at the start of a line).
        guard i > start, i < bytes.count, bytes[i] == UInt8(ascii: "#") else { return nil }
        var end = i
        while end < bytes.count, LineBreak.length(at: end, in: bytes) == 0 { end += 1 }
        return String(decoding: bytes[i..<end], as: UTF8.self)
    }

    /// The byte index of a position (columns count Unicode scalars, as libyaml's do).
    /// Findings come in file order: the walk along a line goes on from where the last one stopped, so a file
    /// written on one long line (flow style) is walked once, not once per finding.
    private var cursor = (line: 0, column: 1, index: 0)

    mutating func index(of position: SourcePosition) -> Int? {
        guard position.line >= 1, position.line <= lineStarts.count else { return nil }
        var i = lineStarts[position.line - 1]
        var column = 1
        if cursor.line == position.line, cursor.column <= position.column { (column, i) = (cursor.column, cursor.index) }
        defer { cursor = (position.line, column, i) }
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
