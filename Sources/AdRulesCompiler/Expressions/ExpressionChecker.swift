import AdRules
import AdRulesYAML

struct ExpressionChecker {
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

    /// The type of an operand that is a literal, a built-in or a declared attribute, without checking it: what an unknown
    /// name beside it is told to be declared as.
    func knownType(_ syntax: Syntax) -> ValueType? {
        switch syntax {
        case .literal(let value, _): return value.type
        case .name(let name, _): return Builtin(rawValue: name)?.type ?? slots[name].map { attributes[$0].type }
        case .list(let items, _): return items.first.flatMap(knownType)?.list
        default: return nil
        }
    }

    /// Checks an expression and gives its type and code; nil after a finding.
    /// - Parameter other: the type of the operand it is compared with, when known: an unknown name is then told to be
    ///   declared with that type, and not to be quoted unless text is what it is compared with.
    mutating func check(_ syntax: Syntax, besides other: ValueType? = nil) -> Typed? {
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
            } else if ["null", "nil", "none", "undefined"].contains(name.lowercased()) {
                // `onboarding == null`: no value is missing at an ask, as the rule reads it.
                message += ": a condition has no null; an attribute the app does not pass takes its default (declare one, as in "
                    + "onboarding: {type: bool, default: false}), and with no default the rule denies rule_error"
            } else if suggestionsLeft > 0, let suggestion = suggestion(for: name) {
                message += ": did you mean \"\(suggestion)\"? "
                if let other, other != .string {
                    message += "(or declare it under `attributes`, as in \(Self.declaration(name, other)))"
                } else {
                    message += "(a text is written in quotes: \"\(name)\")"
                }
            } else if let other, other != .string {
                // `level < 3`: quoting it would compare a text with a number; declaring it with the other side's type fixes it.
                message += ": declare it under `attributes` with the type it is compared with, as in \(Self.declaration(name, other)), "
                    + "or use a built-in (\(Builtin.allCases.map(\.rawValue).joined(separator: ", ")))"
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
            // (Not after `and`: `screen == "a" and "b"` cannot mean the value is both; it gets the general advice.)
            let runs = isAnd ? (told: [:], quiet: []) : Self.valuesAlone(after: operands)
            for (index, operand) in operands.enumerated() {
                guard let typed = check(operand) else {
                    valid = false
                    continue
                }
                if typed.type != .bool {
                    valid = false
                    // `screen == "checkout" or "paywall" or "shop"`: values alone, meant to be compared as the one before
                    // them is; one finding for the run, at its first value.
                    if runs.quiet.contains(index) { continue }
                    var advice = "compare it, for example `x == ...`"
                    if let run = runs.told[index] {
                        let alone = run.values.dropFirst()
                        let listed = "[" + run.values.prefix(4).map(\.description).joined(separator: ", ") + (run.values.count > 4 ? ", …" : "") + "]"
                        advice = (alone.count == 1 ? "compare it as the one before it is" : "compare them as the one before them is")
                            + (alone.count <= 3 ? ": write " + alone.map { "\(run.name) == \($0)" }.joined(separator: " or ") : "")
                            + ", or look in a list: \(run.name) in \(listed)"
                    }
                    findings.append(ExpressionFinding(
                        kind: .type, offset: operand.offset,
                        message: "\(isAnd ? "and" : "or") needs bool operands, but this one is \(typed.type.rawValue): \(advice)"))
                }
                codes.append(typed.code)
            }
            guard valid else { return nil }
            return Typed(type: .bool, code: isAnd ? .and(codes) : .or(codes))
        case .compare(let op, let l, let r, let offset):
            // Both sides are checked, each with its own findings (`foo == bar` names both unknown names).
            let checkedLeft = check(l, besides: knownType(r)), checkedRight = check(r, besides: knownType(l))
            guard var left = checkedLeft, var right = checkedRight else { return nil }
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
            // Days are names: ordering them is alphabetical ("fri" < "tue"), never the order of the week. rules.md
            // allows `<` between two operands of one type, and the condition runs so: a warning.
            if ordered, Self.isWeekday(l) || Self.isWeekday(r) {
                findings.append(ExpressionFinding(
                    kind: .builtInValue, offset: offset,
                    message: "\(op.rawValue) orders days alphabetically (\"fri\" < \"mon\" < \"sat\"), not as the week does: list the days instead, as in now.weekday in [\"mon\", \"tue\"]"))
            } else {
                // (An ordered day is told to list the days: not also how to spell the one it names.)
                checkWeekdays(l, r)
            }
            checkHours(l, r, op, offset: offset)
            return Typed(type: .bool, code: .compare(op, left.code, right.code))
        case .member(let l, let r, let negated, let offset):
            if case .list(let items, let listOffset) = r, items.contains(where: Self.isScalarOnlyLiteral) {
                return checkScalarList(l, items, negated: negated, listOffset: listOffset)
            }
            // An unknown list beside a value is told to be declared as a list of the value's type.
            let checkedLeft = check(l, besides: knownType(r)?.element), checkedRight = check(r, besides: knownType(l)?.list)
            guard let left = checkedLeft, var right = checkedRight else { return nil }
            if let list = left.type.list { right = right.fitted(to: list) }
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
                // `tags in ["a", "b"]`, tags a list itself: whether it holds one of them is asked of each.
                if [ValueType.stringList, .intList].contains(left.type), let list = Self.name(of: l), case .list(let items, _) = r,
                    case let values = items.compactMap({ item -> String? in
                        guard case .literal(let value, _) = item, value.type == left.type.element else { return nil }
                        return value.description
                    }),
                    !values.isEmpty, values.count == items.count, values.count <= 3
                {
                    findings.append(ExpressionFinding(
                        kind: .type, offset: offset,
                        message: "\(list) is a list (\(left.type.rawValue)), and \(word) looks for one value in a list: to ask whether \(list) holds \(negated ? "none" : "one") of these, write "
                            + values.map { "\($0) \(negated ? "not in" : "in") \(list)" }.joined(separator: negated ? " and " : " or ")))
                    return nil
                }
                let advice = Self.membershipAdvice(l, left.type, in: r, right.type, element: element, word: word, example: example)
                findings.append(ExpressionFinding(
                    kind: .type, offset: offset,
                    message: "\(word) looks for \(Article.indefinite(left.type.rawValue)) \(left.type.rawValue) in a list of \(element.rawValue): both must have the same type; "
                        + advice))
                return nil
            }
            checkWeekdays(l, r)
            checkHours(l, r)
            return Typed(type: .bool, code: .member(left.code, right.code, negated: negated))
        }
    }

    /// The runs of values written alone after a comparison with `==` (`screen == "a" or "b" or "c"`), of its value's
    /// type: each run by the index of its first value alone (with the name and every value, the compared one first),
    /// and the indices of the run's other values.
    static func valuesAlone(after operands: [Syntax]) -> (told: [Int: (name: String, values: [AttributeValue])], quiet: Set<Int>) {
        var told: [Int: (name: String, values: [AttributeValue])] = [:]
        var quiet = Set<Int>()
        var index = 0
        while index < operands.count {
            guard case .compare(.equal, .name(let name, _), .literal(let first, _), _) = operands[index] else {
                index += 1
                continue
            }
            var values = [first]
            var next = index + 1
            while next < operands.count, case .literal(let value, _) = operands[next], value.type == first.type {
                values.append(value)
                next += 1
            }
            if next > index + 1 {
                told[index + 1] = (name, values)
                quiet.formUnion((index + 2)..<next)
            }
            index = next
        }
        return (told, quiet)
    }

    /// What to write when `in` looks for a value of another type than the list's items. A list written out is
    /// rewritten as what is looked for; a list the policy declares (an attribute) decides what to look for in it.
    private static func membershipAdvice(
        _ l: Syntax, _ looked: ValueType, in r: Syntax, _ listType: ValueType, element: ValueType, word: String, example: String
    ) -> String {
        if let list = name(of: r), ![ValueType.stringList, .intList].contains(looked) {
            let item = element == .string ? #""a""# : "2"
            return "\(list) is \(Article.indefinite(listType.rawValue)) \(listType.rawValue): look for \(Article.indefinite(element.rawValue)) "
                + "\(element.rawValue) in it, as in \(item) \(word) \(list)"
        }
        let subject = name(of: l).map { "\($0) is \(Article.indefinite(looked.rawValue)) \(looked.rawValue)" }
            ?? "what is looked for is \(Article.indefinite(looked.rawValue)) \(looked.rawValue)"
        switch looked {
        case .int: return "\(subject): list whole numbers, as in \(example)"
        case .number: return "\(subject): list numbers, as in [1.5, 2]"
        case .string: return "\(subject): list texts in double quotes, as in \(example)"
        case .stringList, .intList: return "in looks for one value in a list: write the value on its left, as in x \(word) \(example)"
        case .duration: return "\(subject): list durations, as in [30s, 1m]"
        case .bool: return "\(subject): test it on its own, or list true or false, as in [true]"
        }
    }

    /// A literal of a type no list value holds: a decimal, a duration or a bool.
    private static func isScalarOnlyLiteral(_ syntax: Syntax) -> Bool {
        if case .literal(let value, _) = syntax { return [.number, .duration, .bool].contains(value.type) }
        return false
    }
}
