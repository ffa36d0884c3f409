import AdRules
import Foundation
/// A parsed `when` expression, before type checking.
indirect enum Syntax: Sendable, Hashable {
    case literal(AttributeValue, offset: Int)
    case list([Syntax], offset: Int)
    case name(String, offset: Int)
    case not(Syntax, offset: Int)
    /// Two or more operands joined by `and` (a flat list: a long chain never deepens the tree).
    case and([Syntax])
    /// Two or more operands joined by `or`.
    case or([Syntax])
    case compare(CompareOperator, Syntax, Syntax, offset: Int)
    case member(Syntax, Syntax, negated: Bool, offset: Int)

    var offset: Int {
        switch self {
        case .literal(_, let o), .list(_, let o), .name(_, let o), .not(_, let o): return o
        case .and(let operands), .or(let operands): return operands.first?.offset ?? 0
        case .compare(_, let l, _, _), .member(let l, _, _, _): return l.offset
        }
    }
}

/// A recursive-descent parser: `or` < `and` < comparisons < `not`.
struct Parser {
    private let tokens: [Token]
    private var index = 0
    private var depth = 0
    /// Parentheses and `not` nested deeper than this are an error, so recursion stays shallow on any thread.
    static let maxDepth = 32
    /// The longest expression text, in characters, checked before lexing.
    static let maxLength = 4096
    /// The most tokens an expression may have, checked before parsing.
    static let maxTokens = 512

    private init(tokens: [Token]) { self.tokens = tokens }

    /// Parses an expression text.
    static func parse(_ source: String) -> Result<Syntax, ExpressionError> {
        // Limits come before any recursion: a hostile file cannot exhaust a 512 KiB thread stack.
        guard source.utf8.count <= maxLength * 4, source.count <= maxLength else {
            return .failure(ExpressionError(
                offset: 0, message: "the condition is longer than \(maxLength) characters: split it into several rules"))
        }
        switch Lexer.tokens(source) {
        case .failure(let error): return .failure(error)
        case .success(let tokens):
            guard tokens.count <= maxTokens + 1 else {
                return .failure(ExpressionError(
                    offset: tokens[maxTokens].offset,
                    message: "the condition has more than \(maxTokens) names, values and operators: split it into several rules"))
            }
            var parser = Parser(tokens: tokens)
            do {
                if case .end = parser.current.kind {
                    throw ExpressionError(offset: 0, message: "the condition is empty: write an expression such as screen == \"checkout\"")
                }
                let syntax = try parser.orExpression()
                guard case .end = parser.current.kind else {
                    // `1 day`: a number then a unit spelt apart, where a duration was meant.
                    if let duration = parser.spacedDuration {
                        throw ExpressionError(
                            offset: parser.previous.offset,
                            message: "\(parser.previous.text) \(parser.current.text) is not a duration: write \(duration), with no space")
                    }
                    // `AND`, `Or`: the words of another language's case; `is`, `equals`: words for ==.
                    // `NOT premium`, `x and NOT premium`: the name NOT where an operand goes, then the operand it was meant to
                    // negate. (After a whole condition, `x NOT y`, NOT itself is unexpected: below.)
                    let startsOperand = switch parser.current.kind {
                    case .name, .int, .number, .string, .duration, .trueLiteral, .falseLiteral, .leftParen, .leftBracket, .not: true
                    default: false
                    }
                    if startsOperand, parser.previous.text != "not", parser.previous.text.lowercased() == "not" {
                        throw ExpressionError(
                            offset: parser.previous.offset,
                            message: "unexpected \(parser.previous.text) before \(parser.current.text): the language's words are lowercase: write not")
                    }
                    let word = parser.current.text
                    // `contains(screen, "checkout")`: a call, and conditions have no functions.
                    if case .leftParen = parser.current.kind, case .name(let name) = parser.previous.kind {
                        throw ExpressionError(
                            offset: parser.previous.offset,
                            message: "\(name)(…) calls a function, and a condition has none: compare with == or look in a list with in, as in screen in [\"checkout\", \"paywall\"]")
                    }
                    if let english = parser.comparisonInWords {
                        throw ExpressionError(offset: parser.current.offset, message: "unexpected \(word) after a complete expression: \(english)")
                    }
                    let advice = switch word.lowercased() {
                    case "and", "or": "the language's words are lowercase: write \(word.lowercased())"
                    // After a condition a not joins with and / or: `x NOT y` is `x and not y`.
                    case "not": "the language's words are lowercase: write and not, or or not"
                    case "is", "equals", "eq": "write == to compare (or != for is not)"
                    case "isnt", "ne": "write != to compare"
                    case "in": "the language's words are lowercase: write in"
                    // `screen in "checkout", "paywall"`: a list's items go in brackets.
                    case ",": "a list's items go in brackets, as in screen in [\"checkout\", \"paywall\"]; else join conditions with and / or"
                    default: "join conditions with and / or"
                    }
                    throw ExpressionError(offset: parser.current.offset, message: "unexpected \(word) after a complete expression: \(advice)")
                }
                return .success(syntax)
            } catch let error as ExpressionError {
                return .failure(Parser.ledByConditionWord(tokens, source: source, error: error) ?? error)
            } catch {
                return .failure(ExpressionError(offset: 0, message: "\(error)"))
            }
        }
    }

    private var current: Token { tokens[min(index, tokens.count - 1)] }
    private var previous: Token { tokens[max(0, min(index, tokens.count - 1) - 1)] }

    /// A condition led by the word its key already says (`if premium`, `if not premium`, `unless level > 3`), which
    /// failed to parse after that word: told to drop it, with the condition to write. A condition that fails for a
    /// comparison in words (`if less than 5`, where `if` is an attribute) keeps that advice.
    static func ledByConditionWord(_ tokens: [Token], source: String, error: ExpressionError) -> ExpressionError? {
        guard tokens.count > 2, case .name(let lead) = tokens[0].kind, ["if", "when", "unless"].contains(lead.lowercased()),
            error.offset >= tokens[1].offset, !error.message.contains("\" is written "), !error.message.contains("a list holds a value")
        else { return nil }
        // The word after the lead starts an operand: `if == 3` compares an attribute named if.
        switch tokens[1].kind {
        case .name, .int, .number, .string, .duration, .trueLiteral, .falseLiteral, .leftParen, .leftBracket, .not: break
        default: return nil
        }
        // The condition after the word, when it is short enough to show (`unless` negates it).
        let rest = source.dropFirst(tokens[1].offset).trimmingCharacters(in: .whitespaces)
        let negates = lead.lowercased() == "unless"
        let shown = rest.count > 60 ? "…" : negates ? (rest.contains(" ") ? "not (\(rest))" : "not \(rest)") : rest
        return ExpressionError(
            offset: tokens[0].offset, message: "unexpected \(lead) at the start: the key when: already says when the rule denies: write when: \(shown)")
    }

    /// The words of the current token and the two after it, lowercased.
    private var wordsAhead: [String] { (0..<3).map { tokens[min(index + $0, tokens.count - 1)].text.lowercased() } }

    /// What to write for a comparison written in words after an operand (`level less than 5`, `level is at least 3`,
    /// `screen is one of [...]`, `tags contains "vip"`), or nil.
    private var comparisonInWords: String? {
        var words = wordsAhead
        // `is less than`, `is at most`: the `is` adds nothing.
        let said = words[0] == "is" || words[0] == "are" ? words[1] : words[0]
        if words[0] == "is" || words[0] == "are" { words.removeFirst() }
        // The words as written: `less than`, or `less` alone.
        let phrase = words[1] == "than" ? "\(words[0]) than" : words[0]
        switch said {
        case "less", "lower", "fewer", "below", "under", "smaller": return "\"\(phrase)\" is written <: as in level < 5 (<= for at most)"
        case "greater", "more", "higher", "above", "over", "larger", "bigger": return "\"\(phrase)\" is written >: as in level > 5 (>= for at least)"
        case "at" where words[1] == "least": return "\"at least\" is written >=: as in level >= 3"
        case "at" where words[1] == "most": return "\"at most\" is written <=: as in level <= 3"
        case "one" where words[1] == "of": return "\"one of\" is written in, with a list: as in screen in [\"home\", \"shop\"]"
        case "not" where words[1] == "one": return "\"not one of\" is written not in, with a list: as in screen not in [\"home\", \"shop\"]"
        case "between": return "\"between\" is two comparisons: as in level >= 3 and level <= 10"
        case "contains", "contain", "includes", "include", "has":
            return "a list holds a value when the value is in it: write the value first, as in \"vip\" in tags (a text is compared whole, with == or in [...], never searched for a part)"
        default: return nil
        }
    }

    /// The duration a number followed by a unit name means (`1 day` → `1d`), or two durations written apart (`1h
    /// 30m` → `1h30m`), when those are the last token read and the current one.
    private var spacedDuration: String? {
        guard index > 0 else { return nil }
        switch (previous.kind, current.kind) {
        case (.int, .name(let unit)), (.number, .name(let unit)): return DurationAdvice.meant(by: previous.text + unit)?.description
        case (.duration, .duration): return DurationAdvice.joined(previous.text + " " + current.text)?.description
        default: return nil
        }
    }

    private mutating func advance() -> Token {
        let token = current
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    private mutating func orExpression() throws -> Syntax {
        var operands = [try andExpression()]
        while case .or = current.kind {
            _ = advance()
            operands.append(try andExpression())
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    private mutating func andExpression() throws -> Syntax {
        var operands = [try comparison()]
        while case .and = current.kind {
            _ = advance()
            operands.append(try comparison())
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    private mutating func comparison() throws -> Syntax {
        let left = try unary()
        let token = current
        let op: CompareOperator?
        switch token.kind {
        case .equal: op = .equal
        case .notEqual: op = .notEqual
        case .less: op = .less
        case .lessEqual: op = .lessEqual
        case .greater: op = .greater
        case .greaterEqual: op = .greaterEqual
        case .in:
            _ = advance()
            return .member(left, try unary(), negated: false, offset: token.offset)
        case .not:
            if index + 1 < tokens.count, case .in = tokens[index + 1].kind {
                _ = advance()
                _ = advance()
                return .member(left, try unary(), negated: true, offset: token.offset)
            }
            throw ExpressionError(offset: token.offset, message: "unexpected not: write `not in`, or join conditions with and / or")
        default: op = nil
        }
        guard let op else { return left }
        _ = advance()
        let right = try unary()
        switch current.kind {
        case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual:
            throw ExpressionError(
                offset: current.offset,
                message: "comparisons do not chain: write a < b and b < c")
        default:
            return .compare(op, left, right, offset: token.offset)
        }
    }

    private mutating func unary() throws -> Syntax {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Parser.maxDepth else {
            throw ExpressionError(offset: current.offset, message: "the expression nests too deeply: simplify it")
        }
        if case .not = current.kind {
            let token = advance()
            return .not(try unary(), offset: token.offset)
        }
        return try primary()
    }

    private mutating func primary() throws -> Syntax {
        let token = advance()
        switch token.kind {
        case .name(let name): return .name(name, offset: token.offset)
        case .int(let v): return .literal(.int(v), offset: token.offset)
        case .number(let v): return .literal(.number(v), offset: token.offset)
        case .string(let v): return .literal(.string(v), offset: token.offset)
        case .duration(let v): return .literal(.duration(v), offset: token.offset)
        case .trueLiteral: return .literal(.bool(true), offset: token.offset)
        case .falseLiteral: return .literal(.bool(false), offset: token.offset)
        case .leftParen:
            // `screen in ("a", "b")`: a list in parentheses, after in (`index` is past the parenthesis).
            let afterIn = index >= 2 && tokens[index - 2].kind == .in
            depth += 1
            defer { depth -= 1 }
            guard depth <= Parser.maxDepth else {
                throw ExpressionError(offset: token.offset, message: "the expression nests too deeply: simplify it")
            }
            let inner = try orExpression()
            guard case .rightParen = current.kind else {
                // `screen in ("a", "b")`: a list is written in brackets.
                let advice = current.kind == .comma && afterIn ? "a list is written in brackets, as in screen in [\"checkout\", \"paywall\"]" : "close it there, or join the two with and / or"
                throw ExpressionError(offset: current.offset, message: "expected ) to close the ( opened earlier, found \(current.text): \(advice)")
            }
            _ = advance()
            return inner
        case .leftBracket:
            var items: [Syntax] = []
            if case .rightBracket = current.kind {
                _ = advance()
                return .list(items, offset: token.offset)
            }
            while true {
                // List items are literals: parsing them with `literal()` keeps `[[[[…` from recursing.
                items.append(try literal())
                let separator = advance()
                switch separator.kind {
                case .comma: continue
                case .rightBracket: return .list(items, offset: token.offset)
                default:
                    throw ExpressionError(offset: separator.offset, message: "expected , or ] in the list, found \(separator.text): separate the items with commas, as in [1, 2]")
                }
            }
        case .end:
            throw ExpressionError(offset: token.offset, message: "the expression ends too early: an operand is missing; complete it, as in level > 3")
        case .greater where index >= 2 && tokens[index - 2].kind == .less && tokens[index - 2].offset + 1 == token.offset:
            // `screen <> "x"`, as SQL writes not equal.
            throw ExpressionError(offset: tokens[index - 2].offset, message: "unexpected \"<>\": write != for not equal")
        default:
            throw ExpressionError(offset: token.offset, message: "expected a value or a name, found \(token.text): write a value (5, \"home\", 30s) or a name (premium, level) there")
        }
    }

    /// A list item: a literal (a string, a number, a duration, true or false), never a name or a nested list.
    private mutating func literal() throws -> Syntax {
        let token = advance()
        switch token.kind {
        case .int(let v): return .literal(.int(v), offset: token.offset)
        case .number(let v): return .literal(.number(v), offset: token.offset)
        case .string(let v): return .literal(.string(v), offset: token.offset)
        case .duration(let v): return .literal(.duration(v), offset: token.offset)
        case .trueLiteral: return .literal(.bool(true), offset: token.offset)
        case .falseLiteral: return .literal(.bool(false), offset: token.offset)
        case .end:
            throw ExpressionError(offset: token.offset, message: "the list ends too early: close it with ]")
        case .rightBracket:
            throw ExpressionError(offset: token.offset, message: "an item is missing before ]: remove the last comma, or write the item")
        default:
            throw ExpressionError(
                offset: token.offset,
                message: "a list holds values written out (texts, numbers, durations, true or false), not \(token.text): write [\"a\", \"b\"], [1, 2] or [30s, 1m]")
        }
    }
}

/// Conditions compared by what they say, for the impact preview's semantic diff.
package enum Condition {
    /// What an expression text means, as a text to compare: two texts that differ only in spacing, line breaks or
    /// their character offsets mean the same. Nil when the text does not parse.
    package static func meaning(of source: String) -> String? {
        guard case .success(let syntax) = Parser.parse(source) else { return nil }
        return String(reflecting: syntax.withoutOffsets)
    }
}

extension Syntax {
    /// The same expression with every offset 0: what it says, not where.
    var withoutOffsets: Syntax {
        switch self {
        case .literal(let value, _): return .literal(value, offset: 0)
        case .list(let items, _): return .list(items.map(\.withoutOffsets), offset: 0)
        case .name(let name, _): return .name(name, offset: 0)
        case .not(let operand, _): return .not(operand.withoutOffsets, offset: 0)
        case .and(let operands): return .and(operands.map(\.withoutOffsets))
        case .or(let operands): return .or(operands.map(\.withoutOffsets))
        case .compare(let op, let left, let right, _): return .compare(op, left.withoutOffsets, right.withoutOffsets, offset: 0)
        case .member(let item, let list, let negated, _): return .member(item.withoutOffsets, list.withoutOffsets, negated: negated, offset: 0)
        }
    }
}
