import AdRules
/// A token of a `when` expression, with its character offset in the expression text.
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

/// A syntax error inside an expression, at a character offset.
struct ExpressionError: Error, Sendable, Hashable {
    var offset: Int
    var message: String
}

/// Splits a `when` expression into tokens.
enum Lexer {
    static func tokens(_ source: String) -> Result<[Token], ExpressionError> {
        let chars = Array(source)
        var tokens: [Token] = []
        var i = 0
        func isNameStart(_ c: Character) -> Bool { c == "_" || (c.isASCII && c.isLetter) }
        func isNamePart(_ c: Character) -> Bool { isNameStart(c) || (c.isASCII && c.isNumber) || c == "." }
        while i < chars.count {
            let c = chars[i]
            let start = i
            if c == " " || c == "\t" || c == "\n" || c == "\r" {
                i += 1
                continue
            }
            if isNameStart(c) {
                while i < chars.count, isNamePart(chars[i]) { i += 1 }
                let word = String(chars[start..<i])
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
                tokens.append(Token(kind: kind, offset: start, text: word))
                continue
            }
            // A `-` right before a digit starts a negative literal (`level == -1`): the language has no subtraction.
            let negative = c == "-" && i + 1 < chars.count && chars[i + 1].isASCII && chars[i + 1].isNumber
            if (c.isASCII && c.isNumber) || negative {
                if negative { i += 1 }
                while i < chars.count, chars[i].isASCII, chars[i].isLetter || chars[i].isNumber || chars[i] == "." {
                    i += 1
                }
                let word = String(chars[start..<i])
                let digits = negative ? word.dropFirst() : Substring(word)
                if let value = Int64(word) {
                    tokens.append(Token(kind: .int(value), offset: start, text: word))
                } else if digits.allSatisfy(\.isNumber) {
                    // Read as a decimal it would compare equal to its nearest neighbours: refuse it instead.
                    return .failure(ExpressionError(
                        offset: start, message: "\"\(word)\" is beyond the whole numbers a rule compares (-9223372036854775808 to 9223372036854775807)"))
                } else if digits.allSatisfy({ $0.isNumber || $0 == "." }), let value = Double(word), value.isFinite {
                    tokens.append(Token(kind: .number(value), offset: start, text: word))
                } else if negative, RuleDuration(parsing: String(digits)) != nil {
                    return .failure(ExpressionError(offset: start, message: "\"\(word)\" is a negative duration: durations are 0s or more"))
                } else if let value = RuleDuration(parsing: word) {
                    guard value <= .days(366) else {
                        return .failure(ExpressionError(
                            offset: start, message: "\"\(word)\" is longer than 366d, the longest duration a rule file may hold"))
                    }
                    tokens.append(Token(kind: .duration(value), offset: start, text: word))
                } else {
                    return .failure(ExpressionError(
                        offset: start,
                        message: "\"\(word)\" is not a number or a duration: write 42, 1.5, or a duration like 30s or 1h30m"))
                }
                continue
            }
            if c == "\"" || c == "'" {
                var text = ""
                i += 1
                var closed = false
                while i < chars.count {
                    let d = chars[i]
                    if d == c {
                        closed = true
                        i += 1
                        break
                    }
                    if d == "\\", i + 1 < chars.count {
                        text.append(chars[i + 1])
                        i += 2
                        continue
                    }
                    text.append(d)
                    i += 1
                }
                guard closed else {
                    return .failure(ExpressionError(offset: start, message: "this string is not closed: add a closing \(c)"))
                }
                tokens.append(Token(kind: .string(text), offset: start, text: String(chars[start..<i])))
                continue
            }
            let next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
            let kind: Token.Kind
            var length = 1
            switch (c, next) {
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
            case ("=", _):
                return .failure(ExpressionError(offset: start, message: "unexpected \"=\": write == to compare"))
            case ("&", "&"):
                return .failure(ExpressionError(offset: start, message: "unexpected \"&&\": write and"))
            case ("|", "|"):
                return .failure(ExpressionError(offset: start, message: "unexpected \"||\": write or"))
            case ("!", _):
                return .failure(ExpressionError(offset: start, message: "unexpected \"!\": write not"))
            default:
                return .failure(ExpressionError(offset: start, message: "unexpected character \"\(c)\""))
            }
            i += length
            tokens.append(Token(kind: kind, offset: start, text: String(chars[start..<i])))
        }
        tokens.append(Token(kind: .end, offset: chars.count, text: "end of expression"))
        return .success(tokens)
    }
}
