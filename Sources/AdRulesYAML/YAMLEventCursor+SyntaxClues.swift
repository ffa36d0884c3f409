import AdRules

/// Where in the source a common mistake lies behind a syntax error libyaml reports elsewhere: a stray bracket, a
/// byte-order mark or no-break space in the indentation, a key out of line, a merge conflict, a quote left open.
extension YAMLEventCursor {
    /// What to write when the problem is a `,`, `}` or `]` just after a `{ }` or `[ ]` that closed on its line (`- {…},`
    /// or `{…}}`, JSON's habits in a block list or mapping), else nil.
    func strayAfterClosingBracket(at offset: Int) -> String? {
        guard offset < input.count, let stray = [UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].first(where: { $0 == input[offset] }) else {
            return nil
        }
        var before = offset - 1
        while before >= 0, input[before] == 0x20 { before -= 1 }
        guard before >= 0, input[before] == UInt8(ascii: "}") || input[before] == UInt8(ascii: "]") else { return nil }
        let closed = input[before] == UInt8(ascii: "}") ? "{ } mapping" : "[ ] list"
        let character = String(UnicodeScalar(stray))
        guard stray == UInt8(ascii: ",") else { return "remove this \(character): the \(closed) before it is already closed" }
        // A comma that ends its line is JSON's habit; one with another item after it puts two items on a line.
        var after = offset + 1
        while after < input.count, input[after] == 0x20 { after += 1 }
        let endsLine = after >= input.count || input[after] == 0x0A || input[after] == 0x0D || input[after] == UInt8(ascii: "#")
        return endsLine
            ? "remove this , after the \(closed): items on lines of their own take no comma"
            : "in a block each item stands on its own line, with no comma: put what follows this , on a line of its own"
    }

    /// A byte-order mark (U+FEFF) that starts the line of a problem at `offset` or the line before it (after spaces, or
    /// after the one a file may start with): invisible, it is where libyaml went wrong (a key that seems lined up, a
    /// document that seems to start), and its offset is where to look. One in a comment or a quoted value is text.
    func strayByteOrderMark(before offset: Int) -> Int? {
        lineStart(holding: isByteOrderMark, before: offset)
    }

    /// A no-break space (U+00A0, pasted from a document) or another ``PastedSpace`` in the indentation of the line of a
    /// problem at `offset` or the line before it: YAML reads it as text, not indentation, so the line's key is not where
    /// it looks. Its offset, and the first such scalar.
    func pastedSpaceIndentation(before offset: Int, pastBlankLines: Bool) -> (offset: Int, scalar: Unicode.Scalar)? {
        let start = lineStart(holding: { self.isPastedSpaceIndentation(at: $0) }, before: offset, pastBlankLines: pastBlankLines)
        return start.flatMap { start in PastedSpace.scalar(in: input, at: start).map { (start, $0.scalar) } }
    }

    /// Whether pasted spaces (``PastedSpace``, and spaces) at `i` lead to a key (`word:`), a list item (`- `), an explicit key (`? `), a
    /// comment (`#`) or the end of their line: YAML reads them as text, so the comment or the blank line is the start of a
    /// value that needs a colon. Text that only starts with one (a line of a block or quoted value) is not indentation, nor
    /// is a line inside a value read over several lines (a `|` block's line of no-break spaces is text of it).
    func isPastedSpaceIndentation(at i: Int) -> Bool {
        guard pastedSpacesLeadToSyntax(at: i) else { return false }
        // The line's number, found by reading the file from its start, only for a line its bytes could blame.
        let line = UTF8Check.position(ofByte: i, in: input).line
        return !textScalars.contains { $0.start.line < line && line <= $0.end.line }
    }

    /// Whether pasted spaces at `i`, then spaces, lead to a key, a list item, an explicit key, a comment or the end of the
    /// line (``isPastedSpaceIndentation(at:)`` without the check that the line is no text of a value).
    private func pastedSpacesLeadToSyntax(at i: Int) -> Bool {
        guard PastedSpace.scalar(in: input, at: i) != nil else { return false }
        var j = i
        while j < input.count {
            if input[j] == 0x20 {
                j += 1
            } else if let space = PastedSpace.scalar(in: input, at: j) {
                j += space.length
            } else {
                break
            }
        }
        func isWordByte(_ b: UInt8) -> Bool { (0x61...0x7A).contains(b) || (0x41...0x5A).contains(b) || (0x30...0x39).contains(b) || b == 0x5F }
        if j >= input.count || [UInt8(ascii: "#"), 0x0A, 0x0D].contains(input[j]) { return true }
        if j + 1 < input.count, input[j] == UInt8(ascii: "-") || input[j] == UInt8(ascii: "?"), [0x20, 0x0A, 0x0D].contains(input[j + 1]) { return true }
        var k = j
        while k < input.count, isWordByte(input[k]) { k += 1 }
        guard k > j, k < input.count, input[k] == UInt8(ascii: ":") else { return false }
        return k + 1 >= input.count || [0x20, 0x0A, 0x0D].contains(input[k + 1])
    }

    func isByteOrderMark(_ i: Int) -> Bool {
        i + 2 < input.count && input[i] == 0xEF && input[i + 1] == 0xBB && input[i + 2] == 0xBF
    }

    /// Where `isMark` holds at the start of the line of `offset` or of the line before it, past the line's spaces; with
    /// `pastBlankLines`, the line before that holds something (blank lines and comments between them passed over: a key
    /// libyaml refuses as not lined up is the first that holds something after the line to blame).
    func lineStart(holding isMark: (Int) -> Bool, before offset: Int, pastBlankLines: Bool = false) -> Int? {
        let end = min(max(offset, 0), input.count)
        var start = end
        while start > 0, input[start - 1] != 0x0A, input[start - 1] != 0x0D { start -= 1 }
        if pastBlankLines, let previous = previousContentLine(before: end) {
            start = previous.start
        } else if start > 0 {
            start = lineBefore(start).start
        }
        var lineEnd = end
        while lineEnd < input.count, input[lineEnd] != 0x0A, input[lineEnd] != 0x0D { lineEnd += 1 }
        var i = start
        while i < lineEnd {
            // The start of each line in the range, past its spaces (and past the mark the file may start with).
            if i == 0, isByteOrderMark(0) { i = 3 }
            while i < lineEnd, input[i] == 0x20 { i += 1 }
            if i < lineEnd, isMark(i) { return i }
            while i < lineEnd, input[i] != 0x0A, input[i] != 0x0D { i += 1 }
            while i < lineEnd, input[i] == 0x0A || input[i] == 0x0D { i += 1 }
        }
        return nil
    }

    /// `- max: 3` then `window: 30m` under the `-`, or between it and `max`: a key of a list item lined up under no key
    /// of the item (libyaml then expects the next item's `-`). Nil for a line that is no `key:` line, or one that is not
    /// between an item's `-` and its first key.
    func listItemKeyAdvice(at offset: Int) -> String? {
        let (text, column) = line(at: offset)
        guard let written = Self.keyLine(text) else { return nil }
        var lineStart = offset - column
        // Up to the item's `-` line, past the item's other keys and what is nested under them (at most 200 lines).
        for _ in 0..<200 {
            guard let above = previousContentLine(before: lineStart) else { return nil }
            lineStart = above.start
            let dash = above.text.prefix { $0 == " " }.count
            let rest = above.text.dropFirst(dash)
            guard rest.hasPrefix("- ") else {
                // A line indented less than the key, and no item's: the key is no item's key.
                if dash < written.indentation { return nil }
                continue
            }
            let keyIndentation = dash + 1 + rest.dropFirst().prefix { $0 == " " }.count
            guard dash <= written.indentation, written.indentation < keyIndentation,
                let first = Self.keyLine(Substring(String(repeating: " ", count: keyIndentation)) + rest.dropFirst(keyIndentation - dash))
            else { return nil }
            let line = UTF8Check.position(ofByte: above.start, in: input).line
            let (key, firstKey) = (Self.shortened(written.key), Self.shortened(first.key))
            let underDash = written.indentation == dash
            let stands = underDash ? "under the - of the list item on line \(line)" : "between the - of the list item on line \(line) and its first key"
            return "\(key) is indented \(written.indentation) spaces, \(stands), and a list item's keys line up under its first key, \(firstKey): "
                + "indent it \(keyIndentation) spaces, as \(firstKey) is" + (underDash ? " (or write - \(key): … to start another item)" : "")
        }
        return nil
    }

    /// `   daily_cap: 6` lined up with no key above it (3 spaces, among keys at 4 and 2): the indentations it may take,
    /// from the nearest key line above indented more (a key it meant to line up with) and the nearest indented less (the
    /// block it may belong beside), each named with its line. Nil for a line that is no `key:` line.
    /// - Returns: the advice, and where the key to indent starts when it is not the line libyaml refused.
    func misalignedKeyAdvice(at offset: Int) -> (advice: String, keyToIndent: Int?)? {
        let (text, column) = line(at: offset)
        guard let written = Self.keyLine(text) else { return nil }
        if let odd = keyOutOfLine(above: offset - column, below: written) { return (odd.advice, odd.keyStart) }
        var deeper: (indentation: Int, key: Substring, line: Int)?
        var shallower: (indentation: Int, key: Substring, line: Int)?
        var lineStart = offset - column
        // Up to 200 lines up: a long block of comments or values is not read to its start.
        for _ in 0..<200 {
            guard shallower == nil, let above = previousContentLine(before: lineStart) else { break }
            lineStart = above.start
            guard let found = Self.keyLine(above.text) else { continue }
            // Lined up with a key of its block: libyaml refused something else.
            if found.indentation == written.indentation { return nil }
            // A line's number is counted from the start of the file: only for the (at most two) lines named.
            func number() -> Int { UTF8Check.position(ofByte: above.start, in: input).line }
            if found.indentation > written.indentation, deeper == nil { deeper = (found.indentation, found.key, number()) }
            if found.indentation < written.indentation { shallower = (found.indentation, found.key, number()) }
        }
        let choices = [deeper, shallower].compactMap { $0 }.map { "\($0.indentation) spaces, as \(Self.shortened($0.key)) on line \($0.line)" }
        guard !choices.isEmpty else { return nil }
        return ("\(Self.shortened(written.key)) is indented \(written.indentation) spaces, which lines it up with no key above it: "
            + "indent it \(choices.joined(separator: ", or "))", nil)
    }

    /// A `key: …` line's indentation and key (plain characters of an id), and whether a value follows on its line; nil
    /// for any other line.
    static func keyLine(_ line: Substring) -> (indentation: Int, key: Substring, hasValue: Bool)? {
        let indentation = line.prefix { $0 == " " }.count
        let rest = line.dropFirst(indentation)
        guard let colon = rest.firstIndex(of: ":"), colon > rest.startIndex, rest.first != "-",
            rest[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "_.-".contains($0) })
        else { return nil }
        let value = rest[rest.index(after: colon)...].drop { $0 == " " }
        return (indentation, rest[..<colon], !value.isEmpty && value.first != "#")
    }

    /// The key line right above the line starting at `lineStart` (a `key:` line, `below`) when that one is out of line
    /// rather than this one: a key with its value on its line, indented less than `below`, while the key line above it
    /// is lined up with `below` (it left its block: `    min_interval: 4m`, `  daily_cap: 6`, `    max_ad_age: 4h`), or
    /// is a block's key (`  app_open:`, then `  format: app_open`, `    ad_unit: …`: it did not enter the block); or the
    /// first key of a block indented more than the next (`  app_open:`, `     format: app_open`, `    ad_unit: …`).
    /// - Returns: the advice, and where the key to indent starts.
    func keyOutOfLine(above lineStart: Int, below: (indentation: Int, key: Substring, hasValue: Bool)) -> (advice: String, keyStart: Int)? {
        // A key in the first column is at the top of the file, where a key may stand (`timezone: UTC` after a placement),
        // and one whose value is a { } mapping or [ ] list may well be where it belongs: the line below is then to blame.
        guard let above = previousContentLine(before: lineStart), let odd = Self.keyLine(above.text), odd.hasValue, odd.indentation > 0,
            case let value = above.text.dropFirst(odd.indentation + odd.key.count + 1).drop(while: { $0 == " " }),
            value.first != "{", value.first != "[",
            odd.indentation != below.indentation, let before = previousContentLine(before: above.start), let neighbour = Self.keyLine(before.text)
        else { return nil }
        let line = UTF8Check.position(ofByte: above.start, in: input).line, keyStart = above.start + odd.indentation
        let (oddKey, belowKey, neighbourKey) = (Self.shortened(odd.key), Self.shortened(below.key), Self.shortened(neighbour.key))
        if odd.indentation > below.indentation {
            // The first key under a block's key, indented more than the next (`  app_open:`, `     format: …`, `    ad_unit: …`).
            guard !neighbour.hasValue, neighbour.indentation < below.indentation else { return nil }
            // Which of the two is out of line: the one off the file's step (`  a:` in a file indented by 2, then
            // `    format: …` and `   min_interval: …`: the second is).
            if let step = indentationStep(of: neighbour.indentation, above: before.start), odd.indentation == neighbour.indentation + step {
                return ("\(belowKey) is indented \(below.indentation) spaces, less than \(oddKey) above it on line \(line) (\(odd.indentation)), and the keys of "
                    + "\(neighbourKey)'s block share one indentation: indent it \(odd.indentation) spaces", lineStart + below.indentation)
            }
            return ("\(oddKey) on line \(line) is indented \(odd.indentation) spaces, more than \(belowKey) below it (\(below.indentation)), and the keys of "
                + "\(neighbourKey)'s block share one indentation: indent it \(below.indentation) spaces", keyStart)
        }
        if neighbour.indentation == below.indentation {
            return ("\(oddKey) on line \(line) is indented \(odd.indentation) spaces, less than the keys beside it (\(neighbourKey) above it and \(belowKey) "
                + "below, at \(below.indentation)): indent it \(below.indentation) spaces", keyStart)
        }
        // (Only when lined up with the block's key: one indented under it is in the block, and the key below is out.)
        if !neighbour.hasValue, neighbour.indentation == odd.indentation {
            return ("\(oddKey) on line \(line) is indented \(odd.indentation) spaces, less than \(belowKey) below it (\(below.indentation)), and \(neighbourKey) "
                + "above it holds a block: indent it \(below.indentation) spaces, under \(neighbourKey)", keyStart)
        }
        return nil
    }

    /// How far the file indents a block under its key, as the key at `indentation` (on the line starting at
    /// `lineStart`) is indented under the closest key line above it that is indented less; nil for a key at the top.
    func indentationStep(of indentation: Int, above lineStart: Int) -> Int? {
        var start = lineStart
        // Up to 200 lines up, as a misaligned key is looked for.
        for _ in 0..<200 {
            guard indentation > 0, let above = previousContentLine(before: start) else { return nil }
            start = above.start
            if let key = Self.keyLine(above.text), key.indentation < indentation { return indentation - key.indentation }
        }
        return nil
    }

    /// The line before the line of `offset` that holds more than spaces and a comment, and where it starts; nil when
    /// none does.
    func previousContentLine(before offset: Int) -> (text: Substring, start: Int)? {
        var lineStart = min(max(offset, 0), input.count)
        while lineStart > 0, input[lineStart - 1] != 0x0A, input[lineStart - 1] != 0x0D { lineStart -= 1 }
        while lineStart > 0 {
            let (start, end) = lineBefore(lineStart)
            var i = start
            while i < end, input[i] == 0x20 { i += 1 }
            if i < end, input[i] != UInt8(ascii: "#") { return (Substring(String(decoding: input[start..<end], as: UTF8.self)), start) }
            lineStart = start
        }
        return nil
    }

    /// The key of a `key: value` line right above the line starting at `lineStart`, lined up with it, whose plain value
    /// that line may have been meant to continue (`message: Never interrupt a` then `purchase flow`: YAML reads a
    /// continuation only when it is indented more than the key); nil otherwise.
    func plainValueAbove(_ lineStart: Int) -> Substring? {
        guard lineStart > 0 else { return nil }
        let (start, end) = lineBefore(lineStart)
        let above = String(decoding: input[start..<end], as: UTF8.self)
        let indentation = above.prefix { $0 == " " }.count
        // A comment holds no value (its `: ` is text), and ends any value above it.
        guard above.dropFirst(indentation).first != "#" else { return nil }
        let line = input[lineStart...].prefix { $0 != 0x0A && $0 != 0x0D }
        guard line.prefix(while: { $0 == 0x20 }).count == indentation, let colon = above.range(of: ": ") else { return nil }
        let value = above[colon.upperBound...].trimmingCharacters(in: .whitespaces)
        guard let first = value.first, !"\"'[{|>#&*!".contains(first) else { return nil }
        return Substring(above[..<colon.lowerBound].drop { $0 == " " || $0 == "-" })
    }

    /// The line before the one starting at `lineStart` (> 0): where it starts, and where it ends, at its line break (a
    /// CR LF pair is one).
    func lineBefore(_ lineStart: Int) -> (start: Int, end: Int) {
        var end = lineStart - 1
        if input[end] == 0x0A, end > 0, input[end - 1] == 0x0D { end -= 1 }
        var start = end
        while start > 0, input[start - 1] != 0x0A, input[start - 1] != 0x0D { start -= 1 }
        return (start, end)
    }

    /// The file's first key when it is indented (the first line that holds more than spaces and a comment starts with a
    /// space) and a later line starts in the first column; its text and the offset of its first character.
    func indentedFirstKey() -> (key: Substring, offset: Int)? {
        var i = isByteOrderMark(0) ? 3 : 0
        var first: (key: Substring, offset: Int)?
        while i < input.count {
            var lineEnd = i
            while lineEnd < input.count, input[lineEnd] != 0x0A, input[lineEnd] != 0x0D { lineEnd += 1 }
            var j = i
            while j < lineEnd, input[j] == 0x20 { j += 1 }
            // The first line that holds something is an indented key; the first line after it in the first column is a
            // key too (a `...`, a list item or a bracket there is another mistake, which this advice would not fix).
            if j < lineEnd, input[j] != UInt8(ascii: "#"), first == nil || j == i {
                let key = Self.plainKey(Substring(String(decoding: input[j..<lineEnd], as: UTF8.self)))
                if let first { return key == nil ? nil : first }
                guard let key, j > i else { return nil }
                first = (key, j)
            }
            i = lineEnd
            while i < input.count, input[i] == 0x0A || input[i] == 0x0D { i += 1 }
        }
        return nil
    }

    /// The opening line of a git merge conflict (`<<<<<<< HEAD`, then `=======` and `>>>>>>> branch`, each seven
    /// characters at the start of a line): its text, up to the line's end.
    /// A conflict is told only when the file holds both its opening `<<<<<<<` and its closing `>>>>>>>` line: a
    /// `=======` alone may be a line of text in a quoted value.
    func conflictMarker() -> (range: Range<Int>, text: String)? {
        var opening: Range<Int>?
        var i = isByteOrderMark(0) ? 3 : 0
        while i < input.count {
            var lineEnd = i
            while lineEnd < input.count, input[lineEnd] != 0x0A, input[lineEnd] != 0x0D { lineEnd += 1 }
            if lineEnd - i >= 7, input[i] == UInt8(ascii: "<") || input[i] == UInt8(ascii: ">"), (i..<i + 7).allSatisfy({ input[$0] == input[i] }),
                i + 7 == lineEnd || input[i + 7] == 0x20
            {
                if input[i] == UInt8(ascii: "<"), opening == nil { opening = i..<lineEnd }
                if input[i] == UInt8(ascii: ">"), let opening { return (opening, String(decoding: input[opening], as: UTF8.self)) }
            }
            i = lineEnd
            while i < input.count, input[i] == 0x0A || input[i] == 0x0D { i += 1 }
        }
        return nil
    }

    /// The first quote on the line of `offset` (before it) that closes a quoted value opened on an earlier line: the
    /// offsets of the opening quote and of that one. Nil when the line's first quote closes nothing opened above: the
    /// quote read back to must open a value (after `: `, `- `, `[`, `{` or `,`) and have no closing quote on its line.
    func quoteClosingARunOnValue(before offset: Int) -> (opened: Int, closed: Int)? {
        let (_, column) = line(at: offset)
        let lineStart = offset - column
        guard let first = (lineStart..<min(offset, input.count)).first(where: { input[$0] == UInt8(ascii: "\"") || input[$0] == UInt8(ascii: "'") }),
            let opened = unclosedQuote(closingAt: first)
        else { return nil }
        var before = opened - 1
        while before >= 0, input[before] == 0x20 { before -= 1 }
        guard before >= 0, [UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ",")].contains(input[before]) else { return nil }
        // A quote that closes the value on its own line: not an escape (`''` in single quotes, `\"` in double ones).
        let quote = input[opened]
        var after = opened + 1
        func endsLine(_ i: Int) -> Bool { i >= input.count || input[i] == 0x0A || input[i] == 0x0D }
        while !endsLine(after) {
            if quote == UInt8(ascii: "\""), input[after] == UInt8(ascii: "\\"), !endsLine(after + 1) {
                after += 2
                continue
            }
            if input[after] == quote {
                if quote == UInt8(ascii: "'"), !endsLine(after + 1), input[after + 1] == quote {
                    after += 2
                    continue
                }
                return nil
            }
            after += 1
        }
        return (opened, first)
    }

    /// Where the quoted value that a quote at `closing` ends was opened, when that is on an earlier line: a quote left
    /// open there ran on to this one. Read back from `closing` for the same quote (a `\"` in double quotes, and `''` in
    /// single ones, are escapes, not ends, but `\\"` is a backslash and an end); nil when the quote at `closing` opened
    /// on its own line.
    func unclosedQuote(closingAt closing: Int) -> Int? {
        guard closing >= 0, closing < input.count, input[closing] == UInt8(ascii: "\"") || input[closing] == UInt8(ascii: "'") else { return nil }
        let quote = input[closing]
        var i = closing - 1
        var lineBreaks = 0
        while i >= 0 {
            if input[i] == 0x0A || input[i] == 0x0D { lineBreaks += 1 }
            if input[i] == quote {
                if quote == UInt8(ascii: "'"), i > 0, input[i - 1] == quote {
                    i -= 2
                    continue
                }
                // Escaped after an odd number of backslashes (`\"`); after an even number (`"C:\\"`) it is a close.
                var backslashes = 0
                while quote == UInt8(ascii: "\""), i - 1 - backslashes >= 0, input[i - 1 - backslashes] == UInt8(ascii: "\\") { backslashes += 1 }
                if backslashes % 2 == 1 {
                    i -= 1 + backslashes
                    continue
                }
                return lineBreaks > 0 ? i : nil
            }
            i -= 1
        }
        return nil
    }
}
