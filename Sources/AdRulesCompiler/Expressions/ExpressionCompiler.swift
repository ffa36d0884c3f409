import AdRules
import AdRulesYAML
/// A finding inside a `when` expression, at a code point offset of its text.
struct ExpressionFinding: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case syntax
        case unknownName
        case type
    }

    var kind: Kind
    var offset: Int
    var message: String

    var rule: String {
        switch kind {
        case .syntax: return "rule/syntax"
        case .unknownName: return "rule/unknown-name"
        case .type: return "rule/type"
        }
    }
}

/// Parses, type-checks and compiles a `when` expression against the declared attributes.
enum ExpressionCompiler {
    enum Outcome {
        case success(CompiledExpression)
        case failure([ExpressionFinding])
    }

    /// The "did you mean" suggestions the conditions of one policy get for unknown names; the names past them are
    /// reported without one. Each looks at every declared attribute: a 16 MB file of conditions full of unknown names
    /// against 1,000 attributes ran over a minute. A file prints 1,000 diagnostics at most.
    static let maxSuggestions = 1_000

    /// One condition on its own, with the whole budget of suggestions.
    static func compile(_ source: String, attributes: [AttributeDeclaration], broken: Set<String> = []) -> Outcome {
        var suggestionsLeft = maxSuggestions
        return compile(source, attributes: attributes, broken: broken, suggestionsLeft: &suggestionsLeft)
    }

    /// Compiles an expression text.
    /// - Parameters:
    ///   - source: the expression.
    ///   - attributes: declared attributes; a name's slot is its index here.
    ///   - broken: attributes declared with an error already reported: an expression using one fails with no
    ///     finding of its own, rather than calling a declared name unknown.
    ///   - suggestionsLeft: what is left of ``maxSuggestions`` for the policy; each suggestion made counts.
    /// - Returns: the compiled expression, or every finding (none when only a broken attribute stood in the way).
    static func compile(
        _ source: String, attributes: [AttributeDeclaration], broken: Set<String> = [], suggestionsLeft: inout Int
    ) -> Outcome {
        let syntax: Syntax
        switch Parser.parse(source) {
        case .failure(let error):
            return .failure([ExpressionFinding(kind: .syntax, offset: error.offset, message: error.message)])
        case .success(let parsed): syntax = parsed
        }
        var checker = Checker(attributes: attributes, broken: broken)
        checker.suggestionsLeft = suggestionsLeft
        defer { suggestionsLeft = checker.suggestionsLeft }
        let typed = checker.check(syntax)
        if !checker.findings.isEmpty { return .failure(checker.findings) }
        guard let typed else { return .failure(checker.findings) }
        if typed.type != .bool {
            return .failure([ExpressionFinding(
                kind: .type, offset: syntax.offset,
                message: "the condition is \(typed.type.rawValue), not bool: compare it, for example `x == ...`")])
        }
        return .success(typed.code)
    }
}

private struct Checker {
    struct Typed {
        var type: ValueType
        var code: CompiledExpression
        /// `[]`: a list of no type yet, which takes the type of the list or item it meets.
        var isEmptyList = false

        /// The empty list as a list of `type`; anything else unchanged.
        func fitted(to type: ValueType) -> Typed {
            guard isEmptyList else { return self }
            switch type {
            case .intList: return Typed(type: .intList, code: .constant(.intList([])))
            case .stringList: return Typed(type: .stringList, code: .constant(.stringList([])))
            default: return self
            }
        }
    }

    let attributes: [AttributeDeclaration]
    let broken: Set<String>
    let slots: [String: Int]
    var findings: [ExpressionFinding] = []
    /// The suggestions this condition may still make (``ExpressionCompiler/maxSuggestions``).
    var suggestionsLeft = 0

    init(attributes: [AttributeDeclaration], broken: Set<String>) {
        self.attributes = attributes
        self.broken = broken
        var slots: [String: Int] = [:]
        for (index, attribute) in attributes.enumerated() where slots[attribute.name] == nil {
            slots[attribute.name] = index
        }
        self.slots = slots
    }

    /// The closest built-in or declared attribute to an unknown name, counting the look against the policy's budget.
    mutating func suggestion(for name: String) -> String? {
        suggestionsLeft -= 1
        return Suggestion.closest(to: name, in: Builtin.allCases.map(\.rawValue) + attributes.map(\.name))
    }

    mutating func check(_ syntax: Syntax) -> Typed? {
        switch syntax {
        case .literal(let value, _):
            return Typed(type: value.type, code: .constant(value))
        case .list(let items, let offset):
            return checkList(items, offset: offset)
        case .name(let name, let offset):
            if let builtin = Builtin(rawValue: name) {
                return Typed(type: builtin.type, code: .builtin(builtin))
            }
            if let slot = slots[name] {
                let declaration = attributes[slot]
                return Typed(type: declaration.type, code: .attribute(name: declaration.name, type: declaration.type, fallback: declaration.defaultValue))
            }
            // Declared, with an error already reported at the declaration: the type is unknown, so say nothing more.
            if broken.contains(name) { return nil }
            var message = "unknown name \"\(name)\""
            if name.lowercased() == "true" || name.lowercased() == "false" || YAMLScalar.ambiguousBools.contains(name.lowercased()) {
                // A bool written another way (True, yes) or a text without its quotes.
                message += ": write true or false for a bool, or \"\(name)\" in quotes for a text"
            } else if suggestionsLeft > 0, let suggestion = suggestion(for: name) {
                message += ": did you mean \"\(suggestion)\"? (a text is written in quotes: \"\(name)\")"
            } else {
                message += ": declare it under `attributes`, use a built-in (\(Builtin.allCases.map(\.rawValue).joined(separator: ", "))), or write \"\(name)\" in quotes for a text"
            }
            findings.append(ExpressionFinding(kind: .unknownName, offset: offset, message: message))
            return nil
        case .not(let inner, let offset):
            guard let typed = check(inner) else { return nil }
            guard typed.type == .bool else {
                findings.append(ExpressionFinding(
                    kind: .type, offset: offset, message: "not needs a bool, but its operand is \(typed.type.rawValue): negate a comparison, as in not (level > 3)"))
                return nil
            }
            return Typed(type: .bool, code: .not(typed.code))
        case .and(let operands), .or(let operands):
            let isAnd: Bool
            if case .and = syntax { isAnd = true } else { isAnd = false }
            var codes: [CompiledExpression] = []
            var valid = true
            for operand in operands {
                guard let typed = check(operand) else {
                    valid = false
                    continue
                }
                if typed.type != .bool {
                    findings.append(ExpressionFinding(
                        kind: .type, offset: operand.offset,
                        message: "\(isAnd ? "and" : "or") needs bool operands, but this one is \(typed.type.rawValue): compare it, for example `x == ...`"))
                    valid = false
                }
                codes.append(typed.code)
            }
            guard valid else { return nil }
            return Typed(type: .bool, code: isAnd ? .and(codes) : .or(codes))
        case .compare(let op, let l, let r, let offset):
            guard var left = check(l), var right = check(r) else { return nil }
            left = left.fitted(to: right.type)
            right = right.fitted(to: left.type)
            guard left.type.isComparable(with: right.type) else {
                findings.append(ExpressionFinding(
                    kind: .type, offset: offset,
                    message: "\(op.rawValue) compares \(left.type.rawValue) with \(right.type.rawValue): both sides must have the same type; "
                        + Self.sameTypeAdvice(l, left.type, r, right.type)))
                return nil
            }
            let ordered = op != .equal && op != .notEqual
            if ordered && !(left.type.isNumeric || left.type == .duration || left.type == .string) {
                findings.append(ExpressionFinding(
                    kind: .type, offset: offset,
                    message: "\(op.rawValue) needs numbers, durations or strings, not \(left.type.rawValue): use == or !="))
                return nil
            }
            // Days are names: ordering them would be alphabetical ("fri" < "tue"), never the order of the week.
            if ordered, Self.isWeekday(l) || Self.isWeekday(r) {
                findings.append(ExpressionFinding(
                    kind: .type, offset: offset,
                    message: "\(op.rawValue) would order days alphabetically, not as the week does: list the days instead, as in now.weekday in [\"mon\", \"tue\"]"))
                return nil
            }
            checkWeekdays(l, r)
            checkHours(l, r, op, offset: offset)
            return Typed(type: .bool, code: .compare(op, left.code, right.code))
        case .member(let l, let r, let negated, let offset):
            if case .list(let items, let listOffset) = r, items.contains(where: Self.isScalarOnlyLiteral) {
                return checkScalarList(l, items, negated: negated, listOffset: listOffset)
            }
            guard let left = check(l), var right = check(r) else { return nil }
            if left.type == .int || left.type == .string { right = right.fitted(to: left.type == .int ? .intList : .stringList) }
            // `[]` holds no value of any type: beside a number, a duration or a bool it is no type error (`in []` is
            // false, `not in []` true, and an attribute with no value still makes the rule an error).
            if right.isEmptyList && left.type.element == nil {
                return Typed(type: .bool, code: .member(left.code, right.code, negated: negated))
            }
            let word = negated ? "not in" : "in"
            let example = left.type == .string || left.type == .stringList ? #"["a", "b"]"# : "[1, 2]"
            guard let element = right.type.element else {
                findings.append(ExpressionFinding(
                    kind: .type, offset: offset,
                    message: "\(word) needs a list on its right, not \(right.type.rawValue): write x \(word) \(example)"))
                return nil
            }
            guard left.type.isComparable(with: element) else {
                // What is looked for decides the list: its items are written as its type.
                let looked = Article.indefinite(left.type.rawValue) + " " + left.type.rawValue
                let subject = Self.name(of: l).map { "\($0) is \(looked)" } ?? "what is looked for is \(looked)"
                let advice: String
                switch left.type {
                case .int: advice = "\(subject): list whole numbers, as in \(example)"
                case .number: advice = "\(subject): list numbers, as in [1.5, 2]"
                case .string: advice = "\(subject): list texts in double quotes, as in \(example)"
                case .stringList, .intList: advice = "in looks for one value in a list: write the value on its left, as in x \(word) \(example)"
                case .duration: advice = "\(subject): list durations, as in [30s, 1m]"
                case .bool: advice = "\(subject): test it on its own, or list true or false, as in [true]"
                }
                findings.append(ExpressionFinding(
                    kind: .type, offset: offset,
                    message: "\(word) looks for \(Article.indefinite(left.type.rawValue)) \(left.type.rawValue) in a list of \(element.rawValue): both must have the same type; "
                        + advice))
                return nil
            }
            checkWeekdays(l, r)
            if !negated { checkHours(l, r) }
            return Typed(type: .bool, code: .member(left.code, right.code, negated: negated))
        }
    }

    /// A literal of a type no list value holds: a decimal, a duration or a bool.
    private static func isScalarOnlyLiteral(_ syntax: Syntax) -> Bool {
        if case .literal(let value, _) = syntax { return [.number, .duration, .bool].contains(value.type) }
        return false
    }

    /// A list of decimals, durations or bools (rules.md lists lists `[..]` among the literals) after `in` is the
    /// comparisons it stands for: `d in [30s, 1m]` is `d == 30s or d == 1m`, `d not in [..]` is `d != 30s and d != 1m`.
    /// What is looked for must be a name: it is read once per item, and a larger operand copied per item would grow the
    /// condition past what a compiled policy holds (nested lists grew it exponentially). So the condition stays within
    /// the tokens the parser allows: an item of two tokens (it and its comma) gives three nodes.
    private mutating func checkScalarList(_ l: Syntax, _ items: [Syntax], negated: Bool, listOffset: Int) -> Typed? {
        let word = negated ? "not in" : "in"
        guard case .name = l else {
            findings.append(ExpressionFinding(
                kind: .type, offset: listOffset,
                message: "a list of decimals, durations or bools needs a name on the left of \(word), as in session.age \(word) [30s, 1m]: compare the value with == or != instead"))
            return nil
        }
        guard let left = check(l) else { return nil }
        guard left.type.element == nil else {
            findings.append(ExpressionFinding(
                kind: .type, offset: listOffset,
                message: "\(word) looks for one value in a list, and \(Self.name(of: l) ?? "this") is a list (\(left.type.rawValue)): write the value on its left, as in \(left.type == .intList ? "2" : "\"a\"") \(word) \(Self.name(of: l) ?? "x")"))
            return nil
        }
        var comparisons: [CompiledExpression] = []
        for item in items {
            guard case .literal(let value, let itemOffset) = item else { continue }
            guard left.type.isComparable(with: value.type) else {
                findings.append(ExpressionFinding(
                    kind: .type, offset: itemOffset,
                    message: "\(word) looks for \(Article.indefinite(left.type.rawValue)) \(left.type.rawValue) in a list holding \(Article.indefinite(value.type.rawValue)) \(value.type.rawValue); "
                        + Self.advice(for: Self.name(of: l), of: left.type)))
                return nil
            }
            // Checked as the comparison it stands for, at the item: an hour or a day the name never reads is an error.
            guard let comparison = check(.compare(negated ? .notEqual : .equal, l, item, offset: itemOffset)) else { return nil }
            comparisons.append(comparison.code)
        }
        if comparisons.count == 1 { return Typed(type: .bool, code: comparisons[0]) }
        return Typed(type: .bool, code: negated ? .and(comparisons) : .or(comparisons))
    }

    /// The name an operand is, when it is one.
    private static func name(of syntax: Syntax) -> String? {
        if case .name(let n, _) = syntax { return n }
        return nil
    }

    /// What to write when two values of different types are compared: a literal is rewritten as the other side's type
    /// (the name's type is the one the policy gives it); two names cannot be made alike by rewriting either.
    static func sameTypeAdvice(_ l: Syntax, _ lType: ValueType, _ r: Syntax, _ rType: ValueType) -> String {
        func isLiteral(_ s: Syntax) -> Bool {
            switch s {
            case .literal, .list: return true
            default: return false
            }
        }
        if isLiteral(r), !isLiteral(l) { return advice(for: name(of: l), of: lType) }
        if isLiteral(l), !isLiteral(r) { return advice(for: name(of: r), of: rType) }
        return "compare a name with a value of its type: \(Article.indefinite(lType.rawValue)) \(lType.rawValue) with \(example(of: lType))"
    }

    /// "level is an int: write the value as a whole number, as in 5".
    private static func advice(for name: String?, of type: ValueType) -> String {
        let subject = name.map { "\($0) is \(Article.indefinite(type.rawValue)) \(type.rawValue)" } ?? "the other side is \(Article.indefinite(type.rawValue)) \(type.rawValue)"
        if type == .bool, let name { return "\(subject): test it on its own (\(name), or not \(name)), or compare it with true or false" }
        return "\(subject): write the value as \(example(of: type))"
    }

    /// A value of a type as a rule writes it.
    static func example(of type: ValueType) -> String {
        switch type {
        case .bool: return "true or false"
        case .int: return "a whole number, as in 5"
        case .number: return "a number, as in 2.5"
        case .string: return #"text in double quotes, as in "home""#
        case .duration: return "a duration with its unit, as in 30s or 5m"
        case .stringList: return #"a list of texts, as in ["a", "b"]"#
        case .intList: return "a list of whole numbers, as in [1, 2]"
        }
    }

    /// `now.weekday` compared with a day it never reads as (`"monday"`, `"Mon"`): well typed, and never true.
    private static func isWeekday(_ syntax: Syntax) -> Bool {
        if case .name(let name, _) = syntax { return name == Builtin.nowWeekday.rawValue }
        return false
    }

    /// `now.hour` compared with an hour it never reads as (24, -1, 6.5), or ordered so that no hour passes
    /// (`now.hour > 23`): well typed, and a rule that never denies. An order every hour passes (`now.hour >= 0`, half
    /// of a window written out in full) is left alone.
    /// - Parameter op: the comparison, nil for `in`.
    private mutating func checkHours(_ l: Syntax, _ r: Syntax, _ op: CompareOperator? = nil, offset: Int = 0) {
        func isHour(_ syntax: Syntax) -> Bool {
            if case .name(let name, _) = syntax { return name == Builtin.nowHour.rawValue }
            return false
        }
        func number(_ syntax: Syntax) -> (value: Double, text: String, offset: Int)? {
            switch syntax {
            case .literal(.int(let n), let offset): return (Double(n), String(n), offset)
            case .literal(.number(let x), let offset): return (x, String(x), offset)
            default: return nil
            }
        }
        let other: Syntax
        if isHour(l) { other = r } else if isHour(r) { other = l } else { return }
        // `!=` and `not in` an hour it never reads are always true: left alone, as `>= 0` is.
        guard op != .notEqual else { return }
        let hours = (0...23).map(Double.init)
        if let op, op != .equal, op != .notEqual {
            guard let bound = number(other) else { return }
            let hourFirst = isHour(l)
            let passes = hours.contains { hour in
                let (a, b) = hourFirst ? (hour, bound.value) : (bound.value, hour)
                switch op {
                case .less: return a < b
                case .lessEqual: return a <= b
                case .greater: return a > b
                default: return a >= b
                }
            }
            if !passes {
                let text = hourFirst ? "now.hour \(op.rawValue) \(bound.text)" : "\(bound.text) \(op.rawValue) now.hour"
                findings.append(ExpressionFinding(
                    kind: .type, offset: offset,
                    message: "\(text) is never true (now.hour reads the local hour, a whole number from 0 to 23): write a bound some hours pass, as in now.hour >= 22"))
            }
            return
        }
        let literals: [(value: Double, text: String, offset: Int)]
        if case .list(let items, _) = other { literals = items.compactMap(number) } else { literals = number(other).map { [$0] } ?? [] }
        for literal in literals where !hours.contains(literal.value) {
            findings.append(ExpressionFinding(
                kind: .type, offset: literal.offset,
                message: "now.hour is never \(literal.text): it reads the local hour, a whole number from 0 to 23; write one of those"))
        }
    }

    private mutating func checkWeekdays(_ l: Syntax, _ r: Syntax) {
        let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        let other: Syntax
        if Self.isWeekday(l) { other = r } else if Self.isWeekday(r) { other = l } else { return }
        var literals: [(String, Int)] = []
        switch other {
        case .literal(.string(let text), let offset): literals = [(text, offset)]
        case .list(let items, _):
            for case .literal(.string(let text), let offset) in items { literals.append((text, offset)) }
        default: break
        }
        for (text, offset) in literals where !days.contains(text) {
            let near = String(text.lowercased().prefix(3))
            let advice = days.contains(near) ? "write \"\(near)\"" : "write one of \(days.map { "\"\($0)\"" }.joined(separator: ", "))"
            findings.append(ExpressionFinding(
                kind: .type, offset: offset, message: "now.weekday is never \"\(text)\": it reads mon, tue, wed, thu, fri, sat or sun; \(advice)"))
        }
    }

    private mutating func checkList(_ items: [Syntax], offset: Int) -> Typed? {
        var strings: [String] = []
        var ints: [Int64] = []
        var elementType: ValueType?
        for item in items {
            guard case .literal(let value, let itemOffset) = item else {
                findings.append(ExpressionFinding(
                    kind: .type, offset: item.offset, message: "a list holds values written out (texts, numbers, durations, true or false), not names or lists"))
                return nil
            }
            switch value {
            case .string(let s): strings.append(s)
            case .int(let i): ints.append(i)
            default:
                findings.append(ExpressionFinding(
                    kind: .type, offset: itemOffset,
                    message: "a list of \(value.type.rawValue) values only stands on the right of in or not in, after a name, as in session.age in [30s, 1m]"))
                return nil
            }
            if let elementType, elementType != value.type {
                findings.append(ExpressionFinding(
                    kind: .type, offset: itemOffset, message: "every item of a list must have the same type: this one is \(value.type.rawValue), the first is \(elementType.rawValue); write it as \(Self.example(of: elementType))"))
                return nil
            }
            elementType = value.type
        }
        if elementType == .int { return Typed(type: .intList, code: .constant(.intList(ints))) }
        return Typed(type: .stringList, code: .constant(.stringList(strings)), isEmptyList: items.isEmpty)
    }
}
