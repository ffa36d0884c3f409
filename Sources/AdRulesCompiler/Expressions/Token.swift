import AdRules
import AdRulesYAML
/// A token of a `when` expression, with its offset in the expression text in code points (as columns count them,
/// so that a combining mark after a name is a column of its own).
struct Token: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case name(String)
        case int(Int64)
        case number(Double)
        case string(String)
        case duration(RuleDuration)
        case trueLiteral, falseLiteral
        case and, or, not, `in`
        case equal, notEqual, less, lessEqual, greater, greaterEqual
        case leftParen, rightParen, leftBracket, rightBracket, comma
        case end
    }

    var kind: Kind
    /// Offset of the first character, in characters.
    var offset: Int
    /// The token's text, for messages.
    var text: String
}

/// A syntax error inside an expression, at a code point offset.
struct ExpressionError: Error, Sendable, Hashable {
    var offset: Int
    var message: String
}

/// Splits a `when` expression into tokens.
///
/// It walks the text's UTF-8 bytes: everything outside string literals is ASCII (any other character is an
/// error), so a byte is a character there, and a literal's characters are counted once it is read. Offsets are
/// in characters, as the positions of findings are.
enum Lexer {
    /// Whether the tokens end with `now.hour` and a comparison: what a time of day written next is compared with.
    static func comparesTheHour(_ tokens: ArraySlice<Token>) -> Bool {
        guard tokens.count >= 2, case .name("now.hour") = tokens[tokens.endIndex - 2].kind else { return false }
        switch tokens[tokens.endIndex - 1].kind {
        case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual: return true
        default: return false
        }
    }

    /// `10pm`, `7am`: an hour of a 12-hour clock, where now.hour counts 0-23. Nil for any other word.
    static func clockHourAdvice(_ word: String) -> String? {
        guard let hour = Int(word.dropLast(2)), let counted = hourOfTheDay(hour, clock: String(word.suffix(2))) else { return nil }
        return "\"\(word)\" is an hour of a 12-hour clock, and now.hour counts the hours 0-23: write \(counted)"
    }

    /// The hour 0-23 that `hour` of a 12-hour clock is, `clock` saying `am` or `pm` (any case); nil for any other hour or word.
    static func hourOfTheDay(_ hour: Int, clock: String) -> Int? {
        let lower = clock.lowercased()
        guard lower == "am" || lower == "pm", (1...12).contains(hour) else { return nil }
        return hour % 12 + (lower == "pm" ? 12 : 0)
    }

    static func tokens(_ source: String) -> Result<[Token], ExpressionError> {
        let bytes = Array(source.utf8)
        var tokens: [Token] = []
        var i = 0
        /// The code point offset of `bytes[i]`.
        var offset = 0
        func isNameStart(_ b: UInt8) -> Bool { b == UInt8(ascii: "_") || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z")) }
        func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        func isNamePart(_ b: UInt8) -> Bool { isNameStart(b) || isDigit(b) || b == UInt8(ascii: ".") }
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        func byte(_ k: Int) -> UInt8? { k < bytes.count ? bytes[k] : nil }
        /// The end of digits grouped after the digits that end at `i` (`1_000`, or `1,000` outside a list): groups of
        /// digits, each after an `_` (any number of digits) or a `,` (three), and nil when none follows.
        func groupedDigits(after i: Int, insideList: Bool) -> (end: Int, separator: UInt8)? {
            guard let separator = byte(i), separator == UInt8(ascii: "_") || (separator == UInt8(ascii: ",") && !insideList) else { return nil }
            var end = i
            while byte(end) == separator, let digit = byte(end + 1), isDigit(digit) {
                var groupEnd = end + 1
                while let next = byte(groupEnd), isDigit(next) { groupEnd += 1 }
                if separator == UInt8(ascii: ","), groupEnd - end - 1 != 3 { break }
                end = groupEnd
            }
            // A fraction after the groups is part of the number (`1_000.5`).
            if end > i, byte(end) == UInt8(ascii: "."), let digit = byte(end + 1), isDigit(digit) {
                end += 1
                while let next = byte(end), isDigit(next) { end += 1 }
            }
            // A comma's group ends the number: `1,0000` or `1,000x` is not one.
            if separator == UInt8(ascii: ","), let next = byte(end), isNamePart(next) { return nil }
            return end > i ? (end, separator) : nil
        }
        while i < bytes.count {
            let c = bytes[i]
            let start = i
            let startOffset = offset
            if c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\r") {
                i += 1
                offset += 1
                continue
            }
            if isNameStart(c) {
                while i < bytes.count, isNamePart(bytes[i]) { i += 1 }
                offset += i - start
                let word = text(start..<i)
                let kind: Token.Kind
                switch word {
                case "and": kind = .and
                case "or": kind = .or
                case "not": kind = .not
                case "in": kind = .in
                case "true": kind = .trueLiteral
                case "false": kind = .falseLiteral
                default: kind = .name(word)
                }
                tokens.append(Token(kind: kind, offset: startOffset, text: word))
                continue
            }
            // A `-` right before a digit starts a negative literal (`level == -1`): the language has no subtraction.
            let negative = c == UInt8(ascii: "-") && byte(i + 1).map(isDigit) == true
            if isDigit(c) || negative {
                if negative { i += 1 }
                while i < bytes.count, isNamePart(bytes[i]), bytes[i] != UInt8(ascii: "_") { i += 1 }
                offset += i - start
                let word = text(start..<i)
                let digits = negative ? word.dropFirst() : Substring(word)
                // `1_000` and `1,000` (outside a list's brackets): digits grouped as people write them, which a rule
                // reads as a number and then another word. They were told "unexpected _000 after a complete expression"
                // or that a list's items go in brackets.
                if digits.allSatisfy(\.isNumber), let grouped = groupedDigits(after: i, insideList: tokens.isInsideList) {
                    let separators = grouped.separator == UInt8(ascii: "_") ? "underscores" : "commas"
                    return .failure(ExpressionError(
                        offset: startOffset,
                        message: "\"\(text(start..<grouped.end))\" groups its digits with \(separators), which a rule does not read: write \(text(start..<grouped.end).filter { $0 != "_" && $0 != "," })"))
                }
                if let value = Int64(word) {
                    tokens.append(Token(kind: .int(value), offset: startOffset, text: word))
                } else if digits.allSatisfy(\.isNumber) {
                    // Read as a decimal it would compare equal to its nearest neighbours: refuse it instead.
                    return .failure(ExpressionError(
                        offset: startOffset, message: "\"\(word)\" is beyond the whole numbers a rule compares (-9223372036854775808 to 9223372036854775807)"))
                } else if digits.allSatisfy({ $0.isNumber || $0 == "." }), digits.filter({ $0 == "." }).count == 1, let value = Double(word) {
                    // A decimal a double cannot hold is refused, never read as 0 or infinity.
                    guard value.isFinite else {
                        return .failure(ExpressionError(offset: startOffset, message: "\"\(YAMLScalar.shortened(word))\" is beyond the numbers a rule compares: write a number closer to 0"))
                    }
                    guard !FloatText.readsAsZero(digits, value: value) else {
                        return .failure(ExpressionError(
                            offset: startOffset, message: "\"\(YAMLScalar.shortened(word))\" is too close to 0 for a rule to tell from 0: write 0, or a number further from 0"))
                    }
                    tokens.append(Token(kind: .number(value), offset: startOffset, text: word))
                } else if negative, RuleDuration(parsing: String(digits)) != nil {
                    return .failure(ExpressionError(offset: startOffset, message: "\"\(word)\" is a negative duration: durations are 0s or more: write it without the minus, as \(digits)"))
                } else if let value = RuleDuration(parsing: word) {
                    guard value <= .days(366) else {
                        return .failure(ExpressionError(
                            offset: startOffset, message: "\"\(word)\" is longer than 366d, the longest duration a rule file may hold: write at most 366d"))
                    }
                    tokens.append(Token(kind: .duration(value), offset: startOffset, text: word))
                } else if DurationAdvice.isOverlong(word) {
                    // Well formed, with more digits than a duration reads: too long, as in a setting.
                    return .failure(ExpressionError(
                        offset: startOffset, message: "\"\(YAMLScalar.shortened(word))\" is longer than 366d, the longest duration a rule file may hold: write at most 366d"))
                } else {
                    // An exponent with a sign (`1e-400`) stops the word at the sign: quote what was written.
                    var shown = word
                    if word.last == "e" || word.last == "E", let sign = byte(i), sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                        var end = i + 1
                        while end < bytes.count, isDigit(bytes[end]) { end += 1 }
                        shown = text(start..<end)
                    }
                    // A duration written with a fraction (`1.5h`), with its parts out of order (`30s1m`) or with its last
                    // unit left out (`1h30`) is told its form, as in a setting.
                    let meant = DurationAdvice.meant(by: shown) ?? DurationAdvice.reordered(shown) ?? DurationAdvice.lastUnitLeftOut(shown)
                    let advice = meant.map { "\"\(shown)\" is not a duration: write \($0)" } ?? (comparesTheHour(tokens[...]) ? clockHourAdvice(shown) : nil)
                    return .failure(ExpressionError(
                        offset: startOffset,
                        message: advice ?? "\"\(shown)\" is not a number or a duration: write 42, 1.5 (no exponent), or a duration like 30s or 1h30m"))
                }
                continue
            }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                // The quote and the backslash are ASCII, so no byte of another character is taken for one.
                i += 1
                var closed = false
                while i < bytes.count {
                    if bytes[i] == c {
                        closed = true
                        i += 1
                        break
                    }
                    i += bytes[i] == UInt8(ascii: "\\") && i + 1 < bytes.count ? 2 : 1
                }
                let token = text(start..<i)
                offset += token.unicodeScalars.count
                guard closed else {
                    return .failure(ExpressionError(offset: startOffset, message: "this string is not closed: add a closing \(Character(Unicode.Scalar(c)))"))
                }
                // A backslash escapes a quote or a backslash, nothing else: `"caf\u00e9"` would otherwise read as
                // "cafu00e9" and the rule would never match. The value is what lies between the quote bytes, read on
                // its own: a character that joins onto a quote stays in it.
                var value = ""
                var escaped = false
                // Code point offsets in the string, of this character and of the one before it (a backslash).
                var k = 0
                var previous = 0
                for character in text((start + 1)..<(i - 1)) {
                    defer { (previous, k) = (k, k + character.unicodeScalars.count) }
                    // A string holds printable text: a compiled policy refuses a control character in one, so lint
                    // does too (a tab or line break written in the YAML value, `"a\tb"` in double quotes).
                    if let control = character.unicodeScalars.first(where: ControlCharacters.isControl) {
                        // Named as it is: a direction control or a byte-order mark is invisible, no tab or line break.
                        let code = CodePoints.codePoint(control)
                        let what = switch control {
                        case "\t": "a tab (\(code))"
                        case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}": "a line break (\(code))"
                        default: InvisibleCharacters.invisibleControl(control) ?? "the control character \(code)"
                        }
                        return .failure(ExpressionError(
                            offset: startOffset + 1 + k, message: "a string in a rule holds \(what): remove it (strings hold printable text only)"))
                    }
                    if !escaped, character == "\\" {
                        escaped = true
                        continue
                    }
                    // A backslash that a combining mark joins is one character with it: neither an escape nor text.
                    if escaped || character.unicodeScalars.first == "\\" {
                        guard escaped, character == "\"" || character == "'" || character == "\\" else {
                            let at = escaped ? startOffset + 1 + previous : startOffset + 1 + k
                            let shown = escaped ? "\\\(character)" : String(character)
                            let advice = escaped && "tnr".contains(character)
                                ? "a string in a rule holds printable text, so it cannot hold a tab or line break"
                                : "write the character itself (a string in a rule holds printable text: no tab or line break)"
                            return .failure(ExpressionError(
                                offset: at,
                                message: "\(shown) is no escape: in a string a backslash escapes only a quote or a backslash (\\\" \\' \\\\); \(advice)"))
                        }
                    }
                    escaped = false
                    value.append(character)
                }
                tokens.append(Token(kind: .string(value), offset: startOffset, text: token))
                continue
            }
            let next = byte(i + 1)
            let kind: Token.Kind
            var length = 1
            switch (Character(Unicode.Scalar(c)), next.map { Character(Unicode.Scalar($0)) }) {
            case ("=", "="): kind = .equal; length = 2
            case ("!", "="): kind = .notEqual; length = 2
            case ("<", "="): kind = .lessEqual; length = 2
            case (">", "="): kind = .greaterEqual; length = 2
            case ("<", _): kind = .less
            case (">", _): kind = .greater
            case ("(", _): kind = .leftParen
            case (")", _): kind = .rightParen
            case ("[", _): kind = .leftBracket
            case ("]", _): kind = .rightBracket
            case (",", _): kind = .comma
            case ("=", ">"):
                // `level => 3`: at least, with its two characters the other way round (as `=<` is at most).
                return .failure(ExpressionError(offset: startOffset, message: "unexpected \"=>\": write >= for at least"))
            case ("=", "<"):
                return .failure(ExpressionError(offset: startOffset, message: "unexpected \"=<\": write <= for at most"))
            case ("=", _):
                // `hour > = 22`: the two characters of >= (or <=) written apart.
                if let last = tokens.last, last.kind == .greater || last.kind == .less {
                    return .failure(ExpressionError(offset: startOffset, message: "unexpected \"=\": write \(last.text)= with no space between \(last.text) and ="))
                }
                return .failure(ExpressionError(offset: startOffset, message: "unexpected \"=\": write == to compare"))
            case ("&", "&"):
                return .failure(ExpressionError(offset: startOffset, message: "unexpected \"&&\": write and"))
            case ("|", "|"):
                return .failure(ExpressionError(offset: startOffset, message: "unexpected \"||\": write or"))
            case ("&", _):
                return .failure(ExpressionError(offset: startOffset, message: "unexpected \"&\": write and"))
            case ("|", _):
                return .failure(ExpressionError(offset: startOffset, message: "unexpected \"|\": write or"))
            case ("!", "i") where byte(i + 2) == UInt8(ascii: "n") && !(byte(i + 3).map(isNamePart) ?? false):
                // `screen !in [...]`: the negation of in is written in words.
                return .failure(ExpressionError(offset: startOffset, message: "unexpected \"!\": write not in"))
            case ("!", _):
                // After an operand, `level ! 3` most likely meant `!=`; before one, `!premium` meant `not premium`.
                let afterOperand = switch tokens.last?.kind {
                case .name?, .int?, .number?, .duration?, .string?, .trueLiteral?, .falseLiteral?, .rightParen?, .rightBracket?: true
                default: false
                }
                return .failure(ExpressionError(
                    offset: startOffset, message: afterOperand ? "unexpected \"!\": write != to compare" : "unexpected \"!\": write not"))
            default:
                // The whole character, however many bytes it takes.
                let character = text(start..<bytes.count).first.map(String.init) ?? ""
                // A no-break space or a zero width space looks like a space or nothing: it is named by its code point.
                if let scalar = character.unicodeScalars.first, let described = InvisibleCharacters.described(scalar) {
                    return .failure(ExpressionError(offset: startOffset, message: "unexpected character \(described), which \(InvisibleCharacters.remedy(scalar))"))
                }
                // A typographic quote (“checkout”, as a word processor or a chat app types it) is no quote to a rule.
                if let scalar = character.unicodeScalars.first, TypographicQuotes.all.contains(scalar) {
                    // The straight quote of the same kind comes first: double for “, single for ‘.
                    let (quote, other) = TypographicQuotes.double.contains(scalar) ? ("\"", "'") : ("'", "\"")
                    return .failure(ExpressionError(offset: startOffset, message: "unexpected character \"\(character)\", a typographic quote: text goes in straight quotes, as in screen == \(quote)checkout\(quote) (type \(quote) or \(other))"))
                }
                // `now.hour >= 22:00`: a time of day, where the rule reads the hour alone.
                if character == ":", case .int(let hour)? = tokens.last?.kind, (0...23).contains(hour), comparesTheHour(tokens.dropLast()),
                    start + 2 < bytes.count, isDigit(bytes[start + 1]), isDigit(bytes[start + 2])
                {
                    let minutes = text((start + 1)..<(start + 3))
                    // `9:30pm`, `9:30 PM`: the hour of a 12-hour clock, counted 0-23 (a word that only starts so, `9:30pmx`, is not one).
                    var at = start + 3
                    while at < bytes.count, bytes[at] == UInt8(ascii: " ") { at += 1 }
                    let clock = at + 2 <= bytes.count && (at + 2 == bytes.count || !isNamePart(bytes[at + 2])) ? text(at..<(at + 2)) : ""
                    let twelveHour = hourOfTheDay(Int(hour), clock: clock)
                    let counted = twelveHour ?? Int(hour)
                    // A rule compares whole hours: 22:30 is no bound it can write, and 22 would move it. (No hour follows 23.)
                    let write = minutes == "00" ? "write \(counted)"
                        : "a rule compares whole hours, not minutes: write \(counted)" + (counted < 23 ? " or \(counted + 1)" : "")
                    return .failure(ExpressionError(
                        offset: tokens.last?.offset ?? startOffset,
                        message: "\(tokens.last?.text ?? ""):\(minutes)\(twelveHour != nil ? text((start + 3)..<(at + 2)) : "") is a time of day, and now.hour is the hour alone (0-23): \(write)"))
                }
                // `.5`: a decimal with no digit before its point.
                if character == ".", let digit = byte(start + 1), isDigit(digit) {
                    var end = start + 1
                    while end < bytes.count, isDigit(bytes[end]) { end += 1 }
                    let written = text(start..<end)
                    return .failure(ExpressionError(offset: startOffset, message: "\"\(written)\" needs a digit before its point: write 0\(written)"))
                }
                // `.nan`, `.inf`, `-.inf`: YAML's spellings of NaN and infinity, which no comparison of numbers can use.
                let dot = character == "." ? start : character == "-" && byte(start + 1) == UInt8(ascii: ".") ? start + 1 : nil
                if let dot, let word = ["nan", "inf", "NaN", "Inf", "NAN", "INF"].first(where: { bytes[(dot + 1)...].starts(with: $0.utf8) }),
                    !(byte(dot + 1 + word.utf8.count).map(isNamePart) ?? false)
                {
                    let meaning = word.lowercased() == "nan" ? "NaN (not a number), which no number compares with" : "infinity, which a rule does not compare with"
                    return .failure(ExpressionError(
                        offset: startOffset, message: "\".\(word)\" is YAML's \(meaning): write a number, such as 1000000 for a bound no value reaches"))
                }
                // A letter of another script looks like an ASCII one (a Cyrillic е in scrеen): it is named.
                let named = character.unicodeScalars.first.flatMap { $0.isASCII ? nil : Suggestion.described($0) }.map { " (\($0))" } ?? ""
                return .failure(ExpressionError(offset: startOffset, message: "unexpected character \"\(character)\"\(named): names are ASCII letters, digits, _ and . (as in session.count), and text goes in quotes"))
            }
            i += length
            offset += length
            tokens.append(Token(kind: kind, offset: startOffset, text: text(start..<i)))
        }
        tokens.append(Token(kind: .end, offset: offset, text: "end of expression"))
        return .success(tokens)
    }
}

extension [Token] {
    /// Whether the tokens so far leave a list's `[` open: a comma there separates its items.
    fileprivate var isInsideList: Bool {
        reduce(0) { depth, token in
            switch token.kind {
            case .leftBracket: depth + 1
            case .rightBracket: depth - 1
            default: depth
            }
        } > 0
    }
}
