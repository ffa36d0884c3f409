import AdRules
internal import CYAML

/// Where libyaml's marks fall in the file's bytes, and what the lines there hold.
extension YAMLEventCursor {
    /// Whether nothing but blanks, comments and `...` document ends follows `offset`: after a `---`, it starts an empty
    /// document (a trailing `---` some editors leave), with nothing to move to a file of its own.
    static func onlyCommentsFollow(_ input: UnsafeBufferPointer<UInt8>, from offset: Int) -> Bool {
        var i = max(0, offset)
        var lineStart = true
        while i < input.count {
            switch input[i] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"): i += 1
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                // A lone CR ends a line as LF does (libyaml counts both).
                i += 1
                lineStart = true
                continue
            case UInt8(ascii: "#"):
                while i < input.count, input[i] != UInt8(ascii: "\n"), input[i] != UInt8(ascii: "\r") { i += 1 }
            case UInt8(ascii: ".") where lineStart && i + 2 < input.count && input[i + 1] == UInt8(ascii: ".") && input[i + 2] == UInt8(ascii: "."):
                i += 3
            default: return false
            }
            lineStart = false
        }
        return true
    }

    /// Whether the character before `mark` is a `-` or `:`, the indicator an empty value stands right after.
    func followsIndicator(_ mark: yaml_mark_t) -> Bool {
        let i = byteOffset(of: mark)
        return i > 0 && i <= input.count && (input[i - 1] == UInt8(ascii: "-") || input[i - 1] == UInt8(ascii: ":"))
    }

    /// Where the text before `mark` ends: at the end of the last line before it that holds more than spaces and tabs
    /// (the blank lines a block scalar's end mark runs over are left out).
    func contentEnd(before mark: yaml_mark_t) -> SourcePosition {
        let end = byteOffset(of: mark)
        var i = end
        var crossedLine = false
        while i > 0, [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(input[i - 1]) {
            if input[i - 1] == UInt8(ascii: "\n") || input[i - 1] == UInt8(ascii: "\r") { crossedLine = true }
            i -= 1
        }
        guard crossedLine else { return SourcePosition(line: Int(mark.line) + 1, column: Int(mark.column) + 1) }
        // The last line with text ends with its spaces and tabs, which a block scalar holds.
        while i < end, input[i] == UInt8(ascii: " ") || input[i] == UInt8(ascii: "\t") { i += 1 }
        // On an earlier line: its number from the breaks before `i`, its column from the characters since its start
        // (as libyaml counts them: a CR LF is one break, and a byte order mark is no column).
        var lineStart = i
        while lineStart > 0, input[lineStart - 1] != UInt8(ascii: "\n"), input[lineStart - 1] != UInt8(ascii: "\r") { lineStart -= 1 }
        var breaks = 0
        var k = end
        while k > lineStart {
            k -= 1
            if input[k] == UInt8(ascii: "\n") || (input[k] == UInt8(ascii: "\r") && (k + 1 >= input.count || input[k + 1] != UInt8(ascii: "\n"))) {
                breaks += 1
            }
        }
        if lineStart == 0, input.starts(with: [0xEF, 0xBB, 0xBF]) { lineStart = 3 }
        let column = input[lineStart..<max(lineStart, i)].count { $0 & 0xC0 != 0x80 } + 1
        return SourcePosition(line: Int(mark.line) + 1 - breaks, column: column)
    }

    /// The byte a libyaml mark points at: its line (counted as libyaml breaks lines) and its column (in characters).
    func byteOffset(of mark: yaml_mark_t) -> Int {
        // Marks come in file order: the line start found last is where the next search begins, so a file of many
        // tags is read once, not once a tag (20,000 `when: !premium` in a 949 KB file ran for minutes).
        var (line, i) = Int(mark.line) >= lastLineStart.line ? lastLineStart : (0, 0)
        while line < Int(mark.line), i < input.count {
            let length = LineBreak.length(at: i, in: input)
            if length > 0 {
                line += 1
                i += length
            } else {
                i += 1
            }
        }
        if line == Int(mark.line) { lastLineStart = (line, i) }
        var column = 0
        // A later mark on the line of the last goes on from it: one line of 20,000 tags or empty values is walked once,
        // not once a mark (a 100 KB line took a minute).
        if line == Int(mark.line), lastMark.line == line, lastMark.column <= Int(mark.column) { (column, i) = (lastMark.column, lastMark.offset) }
        while column < Int(mark.column), i < input.count, LineBreak.length(at: i, in: input) == 0 {
            i += 1
            while i < input.count, input[i] & 0xC0 == 0x80 { i += 1 }
            column += 1
        }
        if line == Int(mark.line) { lastMark = (line, column, i) }
        return i
    }

    /// The text of the line holding the byte at `offset`, without its line break, and the offset's byte in it.
    func line(at offset: Int) -> (text: Substring, byte: Int) {
        guard offset >= 0, offset <= input.count else { return ("", 0) }
        // The line starts after the last break before the offset, found going back from it (going forward from the
        // file's start made a file of 20,000 `when: !premium` take minutes). A file that reaches libyaml breaks lines
        // with LF and CR only: NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR are refused before it is read (UTF8Check).
        var start = offset
        while start > 0, input[start - 1] != 0x0A, input[start - 1] != 0x0D { start -= 1 }
        var end = offset
        while end < input.count, LineBreak.length(at: end, in: input) == 0 { end += 1 }
        return (Substring(String(decoding: input[start..<end], as: UTF8.self)), offset - start)
    }

    /// Whether the rest of the line from `mark` is a comment (`name: #1 test`: libyaml gives an empty value there).
    func commentFollows(_ mark: yaml_mark_t) -> Bool {
        var i = byteOffset(of: mark)
        while i < input.count, input[i] == 0x20 || input[i] == 0x09 { i += 1 }
        return i < input.count && input[i] == UInt8(ascii: "#")
    }

    /// The `[` of the list in brackets, on the line, whose item stands at `offset` (past the items before it, with no
    /// bracket, brace or quote between); nil for a value that is no item of one. Read once, for the plain `*` that
    /// stops the file.
    func openingBracket(before offset: Int) -> Int? {
        var i = min(offset, input.count)
        while i > 0 {
            switch input[i - 1] {
            case UInt8(ascii: "["): return i - 1
            case UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), 0x0A, 0x0D, UInt8(ascii: "\""), UInt8(ascii: "'"): return nil
            default: i -= 1
            }
        }
        return nil
    }

    /// The key whose value starts at `offset`, read back on its line (`deny` in `{id: r, deny: *}`): what the value was
    /// meant to be; nil when the value is no key's.
    ///
    /// Read backwards from the value, over the bytes between it and its key only: a line of 20,000 tags, each read
    /// back to the line's start, took a minute.
    func keyBefore(_ offset: Int) -> String? {
        guard offset >= 0, offset <= input.count else { return nil }
        func isBlank(_ i: Int) -> Bool { input[i] == 0x20 || input[i] == 0x09 }
        func isBreak(_ i: Int) -> Bool { input[i] == 0x0A || input[i] == 0x0D }
        var i = offset
        while i > 0, isBlank(i - 1) { i -= 1 }
        // A value alone on its line (or a list item, `- *`) belongs to the key that ends the line above.
        var lineStart = i
        if lineStart > 0, input[lineStart - 1] == UInt8(ascii: "-") {
            lineStart -= 1
            while lineStart > 0, isBlank(lineStart - 1) { lineStart -= 1 }
        }
        if lineStart == 0 || isBreak(lineStart - 1) {
            // The first line has none above.
            guard lineStart > 0 else { return nil }
            // The end of the line above: before its break (CR LF is one), less its blanks.
            i = lineStart - 1
            if input[i] == 0x0A, i > 0, input[i - 1] == 0x0D { i -= 1 }
            while i > 0, isBlank(i - 1) { i -= 1 }
        }
        guard i > 0, input[i - 1] == UInt8(ascii: ":") else { return nil }
        var start = i - 1
        while start > 0, !isBreak(start - 1), !" \t{,-".utf8.contains(input[start - 1]) { start -= 1 }
        let key = String(decoding: input[start..<(i - 1)], as: UTF8.self)
        // A quoted key (`"deny": *`) is the key it quotes.
        let unquoted = key.count >= 2 && (key.first == "\"" || key.first == "'") && key.last == key.first ? String(key.dropFirst().dropLast()) : key
        return unquoted.isEmpty ? nil : unquoted
    }
}

/// A libyaml mark as a 1-based position. A file is at most ``YAMLReader/maxBytes``, so its lines and columns fit in
/// 32 bits with no check (one for every scalar and collection of a load).
func position(_ mark: yaml_mark_t) -> SourcePosition {
    SourcePosition(line: Int32(truncatingIfNeeded: mark.line &+ 1), column: Int32(truncatingIfNeeded: mark.column &+ 1))
}
