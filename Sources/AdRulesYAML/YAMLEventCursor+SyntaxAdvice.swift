import AdRules
internal import CYAML

/// libyaml's syntax errors in plain words, with where to look when a common mistake is behind one.
extension YAMLEventCursor {
    /// Where libyaml stopped, as the advice reads it.
    struct ParserStop {
        let problem: String
        let context: String?
        /// A reader error: a control character or a bad encoding, not a mistake of YAML's syntax.
        let isReaderError: Bool
        /// libyaml's position, where every finding stands.
        let at: SourcePosition
        /// The byte libyaml's problem mark points at, and that byte (0 past the end of the file).
        let byte: Int
        let character: UInt8
        /// The line holding ``byte``, and ``byte``'s place in it (bytes from its start).
        let line: Substring
        let column: Int
        /// Where the value, key or bracket libyaml was reading started.
        let contextMark: yaml_mark_t
        /// Whether libyaml stopped inside brackets.
        let inBrackets: Bool

        /// libyaml refuses a key as not lined up: its colon is the first of its line.
        var refusesKeyColon: Bool {
            problem == "mapping values are not allowed in this context"
                && line.utf8.firstIndex(of: UInt8(ascii: ":")).map { line.utf8.distance(from: line.utf8.startIndex, to: $0) == column } == true
        }
    }

    /// libyaml's error in plain words where a common mistake has better ones.
    func parserError() -> Diagnostic {
        let stop = parserStop()
        if let found = mistakeFinding(stop) { return found }
        let (advice, slip) = advice(for: stop)
        if let slip { return finding(stop, advice, notes: [slip]) }
        var diagnostic = Diagnostic.libyamlProblem(problem: stop.problem, context: stop.context, advice: advice, file: file, at: stop.at)
        // libyaml's position is where it gave up, often the end of the file: a note points at where the unclosed
        // value or bracket opens, which is what to fix.
        let opened: String? = switch stop.context {
        case "while scanning a quoted scalar": "the quoted value starts here"
        case "while parsing a flow mapping": "the { } mapping starts here"
        case "while parsing a flow sequence": "the [ ] list starts here"
        default: nil
        }
        let start = position(stop.contextMark)
        if let opened, start != stop.at {
            diagnostic.notes.append(DiagnosticNote(message: opened, file: file, position: start))
        }
        return diagnostic
    }

    /// Where libyaml stopped, read from its parser.
    private func parserStop() -> ParserStop {
        let state = parser.pointee
        // A reader error (a control character, a bad encoding) has no mark: libyaml gives its byte offset.
        // libyaml's mark counts characters, not bytes: its line and column lead to the byte.
        let problemByte = byteOffset(of: state.problem_mark)
        // libyaml reads a file that does not end in a line break as if it did: its end-of-file mark is on a line after
        // the last, which no editor shows. The end of the last line is where the file ends.
        let endsWithoutLineBreak = problemByte >= input.count && input.last.map { $0 != 0x0A && $0 != 0x0D } == true
        let at = if state.error == YAML_READER_ERROR {
            UTF8Check.position(ofByte: state.problem_offset, in: input)
        } else if endsWithoutLineBreak {
            UTF8Check.position(ofByte: input.count, in: input)
        } else {
            position(state.problem_mark)
        }
        let (line, column) = line(at: problemByte)
        return ParserStop(
            problem: state.problem.map { String(cString: $0) } ?? "unknown problem", context: state.context.map { String(cString: $0) },
            isReaderError: state.error == YAML_READER_ERROR, at: at, byte: problemByte, character: problemByte < input.count ? input[problemByte] : 0,
            line: line, column: column, contextMark: state.context_mark, inBrackets: state.flow_level > 0)
    }

    /// A finding at libyaml's position with its problem text (cli.md's `yaml/syntax`). When what to fix stands
    /// elsewhere (a line above, where a value opened), the advice names it and a note points at it.
    private func finding(_ stop: ParserStop, _ advice: String?, notes: [(String, Int)] = []) -> Diagnostic {
        var diagnostic = Diagnostic.libyamlProblem(problem: stop.problem, context: stop.context, advice: advice, file: file, at: stop.at)
        for (message, byte) in notes {
            let position = UTF8Check.position(ofByte: byte, in: input)
            if position != stop.at { diagnostic.notes.append(DiagnosticNote(message: message, file: file, position: position)) }
        }
        return diagnostic
    }

    /// The line of a byte, when it is not libyaml's.
    private func otherLine(_ byte: Int, from stop: ParserStop) -> Int? {
        let line = UTF8Check.position(ofByte: byte, in: input).line
        return line == stop.at.line ? nil : line
    }

    /// "here" at libyaml's position, "on this line" elsewhere on its line, else "on line N".
    private func place(_ byte: Int, from stop: ParserStop) -> String {
        otherLine(byte, from: stop).map { "on line \($0)" } ?? (UTF8Check.position(ofByte: byte, in: input) == stop.at ? "here" : "on this line")
    }

    /// A mistake that explains whatever libyaml stopped at, wherever it stands: merge-conflict markers, a tab, a stray
    /// byte-order mark, indentation pasted with no-break spaces, a word processor's dash, a quoted value left open, a
    /// bare `*`. Nil when none is there.
    private func mistakeFinding(_ stop: ParserStop) -> Diagnostic? {
        let (problem, context, problemByte) = (stop.problem, stop.context, stop.byte)
        // The lines of both sides of a git merge: whatever libyaml trips over, the markers are what to fix.
        if !stop.isReaderError, let marker = conflictMarker() {
            let advice = Diagnostic.mergeConflictAdvice(String(decoding: input[marker.range], as: UTF8.self), place: place(marker.range.lowerBound, from: stop))
            return finding(stop, advice, notes: [("the merge-conflict marker is here", marker.range.lowerBound)])
        }
        if stop.character == 0x09 || problem.contains("tab character") {
            return .tabIndentation(problem: problem, context: context, file: file, at: stop.at)
        }
        if !stop.isReaderError, let mark = strayByteOrderMark(before: problemByte) {
            return finding(stop, Diagnostic.strayByteOrderMarkAdvice(place: place(mark, from: stop)), notes: [("the byte-order mark is here", mark)])
        }
        // A key libyaml refuses as not lined up (its colon the first of its line, ``ParserStop/refusesKeyColon``) may be the
        // first key after a line indented with no-break spaces and blank lines or comments; other problems are looked for on
        // their line and the one before.
        // A comment after the line ends its plain value: libyaml then finds no colon on the next line; and a key
        // indented with them stands at the top, so an indented key below, past blank lines and comments, is no key
        // libyaml expected. (A line of a block scalar or a quoted value read before is text, never blamed.)
        let pastBlankLines = stop.refusesKeyColon || problem == "could not find expected ':'" || problem == "did not find expected key"
        if !stop.isReaderError, let space = pastedSpaceIndentation(before: problemByte, pastBlankLines: pastBlankLines) {
            let advice = Diagnostic.pastedSpaceIndentationAdvice(space.scalar, line: otherLine(space.offset, from: stop).map { "line \($0)" } ?? "this line")
            return finding(stop, advice, notes: [("the \(PastedSpace.shortName(space.scalar)) is here", space.offset)])
        }
        // `– max: 3` then `  window: 1h`: a list item begun with a word processor's dash, which YAML reads as the start of a
        // key; what libyaml refuses is on its line or the next. The dash's line is named, with a note at it.
        // (Not a line of a value read over several lines, whose text may start with a dash; and only for an item that holds
        // a key, which YAML then reads as the line's: `– abc` alone is a value YAML reads, and the next line is to blame.)
        if let above = previousContentLine(before: problemByte), Self.typographicDashAdvice(above.text) != nil, Self.dashItemHoldsKey(above.text),
            case let line = UTF8Check.position(ofByte: above.start, in: input).line, !textScalars.contains(where: { $0.start.line < line && line <= $0.end.line }),
            case let dash = above.start + above.text.utf8.prefix(while: { $0 == 0x20 }).count,
            let advice = Self.typographicDashAdvice(above.text, name: otherLine(dash, from: stop).map { "line \($0)" } ?? "this line")
        {
            return finding(stop, advice, notes: [("the dash is here", dash)])
        }
        // `environment: 'production` with no closing quote, closed by the apostrophe of `user's` in a comment lines below:
        // what follows that quote is what libyaml refuses, and the quote left open is what to fix.
        if ["did not find expected key", "could not find expected ':'", "mapping values are not allowed in this context", "did not find expected '-' indicator"]
            .contains(problem), let (opened, closed) = quoteClosingARunOnValue(before: problemByte)
        {
            return finding(
                stop, unclosedQuoteAdvice(opened: opened, closed: closed),
                notes: [("the quoted value starts here", opened), ("the quoted value ends here", closed)])
        }
        if context == "while scanning an alias" || context == "while scanning an anchor" {
            let offset = byteOffset(of: stop.contextMark)
            // `"*"` read as `"` closing a quoted value opened lines above (`version: "1`), then a bare `*`: the quote
            // left open is what to fix, not this value.
            if let opened = unclosedQuote(closingAt: offset - 1) {
                return finding(
                    stop, unclosedQuoteAdvice(opened: opened, closed: offset - 1),
                    notes: [("the quoted value starts here", opened), ("the quoted value ends here", offset - 1)])
            }
            // `placements:` indented is a group's list of members; at the top it is the map of placements.
            let indented = line(at: offset).text.first == " "
            // `deny: [*]` or `deny: [a, *]`: an item of a list in brackets belongs to the key before the bracket.
            let bracket = openingBracket(before: offset)
            return .bareAsterisk(
                key: keyBefore(bracket ?? offset), indented: indented, inList: bracket != nil, isAnchor: context == "while scanning an anchor",
                file: file, at: position(stop.contextMark))
        }
        return nil
    }

    /// The advice for what libyaml stopped at, and where what to fix stands when it is on another line (a note goes
    /// there).
    private func advice(for stop: ParserStop) -> (advice: String?, slip: (String, Int)?) {
        let (problem, context, problemByte, problemLine, problemColumn) = (stop.problem, stop.context, stop.byte, stop.line, stop.column)
        var advice: String?
        // Where what to fix stands, when libyaml trips over a later line.
        var slip: (String, Int)?
        // `-id: r` or `-{max: 3}`: a list item's dash glued to it, on libyaml's line or the one before.
        let dashProblems = ["mapping values are not allowed in this context", "did not find expected key", "did not find expected '-' indicator"]
        // The line before counts only when indented less than libyaml's: a line indented more may be the text of a block
        // value (`message: |`, then `-no ads here`), which YAML reads as it is.
        let problemIndentation = problemLine.utf8.prefix { $0 == 0x20 }.count
        let lineBefore = previousContentLine(before: problemByte).flatMap { before in
            before.text.utf8.prefix { $0 == 0x20 }.count < problemIndentation ? (Substring(before.text), before.start) : nil
        }
        let dashLines = dashProblems.contains(problem) ? [(problemLine, problemByte - problemColumn)] + (lineBefore.map { [$0] } ?? []) : []
        let gluedDash = dashLines.lazy.compactMap { text, start in
            Self.dashGluedToItemAdvice(text).map { (advice: $0, dash: start + text.utf8.prefix { $0 == 0x20 }.count) }
        }.first
        if let (glued, dash) = gluedDash {
            advice = otherLine(dash, from: stop).map { "on line \($0), " + glued } ?? glued
            if otherLine(dash, from: stop) != nil { slip = ("the list item is here", dash) }
        } else if context == "while scanning a simple key", problem == "could not find expected ':'" {
            // libyaml notices only on the next line (or past blank lines and comments); the key it was reading starts
            // at the context mark, and that is the line to fix.
            let key = byteOffset(of: stop.contextMark)
            let (text, column) = line(at: key)
            advice = Self.spaceAfterColonAdvice(text, lineNumber: otherLine(key, from: stop), valueAbove: plainValueAbove(key - column))
            slip = ("the key starts here", key)
        } else if problem == "mapping values are not allowed in this context" {
            (advice, slip) = mappingValuesAdvice(stop)
        } else if problem == "did not find expected <document start>" || problem == "did not find expected key",
            let written = previousContentLine(before: problemByte), written.start < problemByte,
            case let text = Substring(written.text.drop { $0 == "\u{FEFF}" }),
            let slipped = Self.isKeyGluedToValue(text) ? Self.spaceAfterColonAdvice(text) : Self.missingColonAdvice(text)
        {
            // `version:1` (or `version 1`), then a comment: the comment ends that line's plain value, and the key below
            // is a second value where libyaml expected the document's end or a key. That line is what to fix.
            let key = written.start + Self.keyStart(written.text)
            advice = otherLine(key, from: stop).map { "on line \($0), " + slipped } ?? slipped
            slip = ("what to fix is here", key)
        } else if problem == "did not find expected <document start>", let first = indentedFirstKey() {
            // `  version: 1` then `placements:`: the file's first key is indented, so a key in the first column ends
            // the document it started.
            advice = "the first key of the file, \(Self.shortened(first.key)) \(place(first.offset, from: stop)), is indented, and a key at the top of a "
                + "file starts in the first column: remove the spaces before \(Self.shortened(first.key))"
            slip = ("the indented first key is here", first.offset)
        } else if problem == "did not find expected key" || problem == "did not find expected '-' indicator", let closer = strayAfterClosingBracket(at: problemByte) {
            advice = closer
        } else if problem == "did not find expected '-' indicator", let itemKey = listItemKeyAdvice(at: problemByte) {
            advice = itemKey
        } else if problem == "did not find expected key" || problem == "did not find expected ',' or '}'" || problem == "did not find expected ',' or ']'" {
            let (text, byte) = line(at: problemByte)
            if problem != "did not find expected key", let long = Self.longFlowKeyAdvice(text, colonAt: byte) {
                advice = long
            } else if problem == "did not find expected ',' or '}'", let bracket = Self.bracketInFlowValueAdvice(text, at: byte) {
                advice = bracket
            } else if let quoted = Self.quotedValueAdvice(line(at: problemByte).text) {
                advice = quoted
            } else if problem == "did not find expected key", let misaligned = misalignedKeyAdvice(at: problemByte) {
                advice = misaligned.advice
                // A key that left its block above: the finding stays at libyaml's position, a note points at the key.
                slip = misaligned.keyToIndent.map { ("the key to indent is here", $0) }
            }
        } else if problem == "found character that cannot start any token" {
            let (text, column) = line(at: problemByte)
            let before = String(decoding: Array(text.utf8.prefix(column)), as: UTF8.self).trimmingCharacters(in: .whitespaces)
                .replacingOccurrences(of: "\u{FEFF}", with: "")
            // A byte-order mark at the file's start is no part of what is quoted.
            let rest = Substring(String(decoding: Array(text.utf8.dropFirst(column)), as: UTF8.self)).drop { $0 == "\u{FEFF}" }
            // What the character starts: a list item (`- @a`), a key (`@a: …` at the start of its line), or the value
            // of the key before it, on its line or ending the line above.
            let inBrackets = stop.inBrackets
            let written: ReservedStart? = if before.isEmpty || before == "-", let key = Self.keyStarting(rest, inBrackets: inBrackets) {
                .key(key)
            } else if before == "-" {
                .listItem
            } else {
                keyBefore(problemByte).map { .value(of: $0) }
            }
            if let written { advice = Self.reservedCharacterAdvice(written, rest: rest, inBrackets: inBrackets) }
        }
        return (advice, slip)
    }

    /// A key's colon refused ("mapping values are not allowed in this context"): a line above that runs on into this
    /// one, a key above that left its block, or a value that holds ": ".
    private func mappingValuesAdvice(_ stop: ParserStop) -> (advice: String?, slip: (String, Int)?) {
        let (problemByte, problemLine, problemColumn) = (stop.byte, stop.line, stop.column)
        var advice: String?
        var slip: (String, Int)?
        // `version:1` then `placements:`: the first line is one plain value that runs on into the second, whose own
        // key colon (the first on its line) libyaml then refuses. The colon with no space after it is what to fix.
        let indentation = problemLine.utf8.prefix { $0 == 0x20 }.count
        if stop.refusesKeyColon, let glued = previousContentLine(before: problemByte), Self.isKeyGluedToValue(glued.text),
            glued.text.utf8.prefix(while: { $0 == 0x20 }).count <= indentation
        {
            // A byte-order mark opening the file is no part of the key (libyaml skips it, and so do columns).
            let key = glued.start + Self.keyStart(glued.text)
            advice = Self.spaceAfterColonAdvice(Substring(glued.text.replacingOccurrences(of: "\u{FEFF}", with: "")), lineNumber: otherLine(key, from: stop))
            slip = ("the key glued to its value is here", key)
        } else if stop.refusesKeyColon, let written = previousContentLine(before: problemByte),
            case let number = UTF8Check.position(ofByte: written.start, in: input).line,
            // A byte-order mark opening the file is no part of the line's text.
            case let text = Substring(written.text.drop { $0 == "\u{FEFF}" }),
            let lost = (Self.equalsForColonAdvice(text) ?? Self.missingColonAdvice(text, valueAbove: plainValueAbove(written.start))
                ?? Self.blockKeyWithoutColonAdvice(text, above: problemLine))
                .map({ "on line \(number), " + $0 }) ?? Self.wordsWithNoKeyAdvice(text, name: "line \(number)"),
            written.text.utf8.prefix(while: { $0 == 0x20 }).count <= indentation
        {
            // `format = banner`, or a comment that lost its #, then `daily_cap: 3`: the first line runs on into the
            // second as one plain value; the line before is what to fix. The finding stays at libyaml's position
            // (cli.md), names the line, and a note points at it.
            advice = lost
            slip = ("what to fix is here", written.start + Self.keyStart(written.text))
        } else if stop.refusesKeyColon, let below = Self.keyLine(problemLine),
            let odd = keyOutOfLine(above: problemByte - problemColumn, below: below)
        {
            // `    ad_unit: …`, `  daily_cap: 6`, `    max_ad_age: 4h`: the key above left its block, not this one.
            advice = odd.advice
            slip = ("the key to indent is here", odd.keyStart)
        } else if stop.refusesKeyColon, let above = previousContentLine(before: problemByte),
            let deeper = Self.indentedUnderAValueAdvice(Substring(above.text), line: UTF8Check.position(ofByte: above.start, in: input).line, problemLine)
        {
            advice = deeper
        } else {
            advice = Self.mappingValueAdvice(problemLine, colonAt: problemColumn)
        }
        return (advice, slip)
    }

    /// A quoted value left open on its line, which ran on to a quote lines below (where libyaml then tripped).
    func unclosedQuoteAdvice(opened: Int, closed: Int) -> String {
        let (start, end) = (UTF8Check.position(ofByte: opened, in: input), UTF8Check.position(ofByte: closed, in: input))
        return "the quoted value opened at line \(start.line), column \(start.column) is not closed on its line, so it runs on to the quote at "
            + "line \(end.line), column \(end.column), and what follows that quote is read as YAML: close the value with its quote on its line"
    }
}
