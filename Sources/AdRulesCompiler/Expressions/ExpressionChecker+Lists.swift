import AdRules

extension ExpressionChecker {
    /// A list of decimals, durations or bools (rules.md lists lists `[..]` among the literals) after `in` is the
    /// comparisons it stands for: `d in [30s, 1m]` is `d == 30s or d == 1m`, `d not in [..]` is `d != 30s and d != 1m`.
    /// What is looked for must be a name: it is read once per item, and a larger operand copied per item would grow the
    /// condition past what a compiled policy holds (nested lists grew it exponentially). So the condition stays within
    /// the tokens the parser allows: an item of two tokens (it and its comma) gives three nodes.
    mutating func checkScalarList(_ l: Syntax, _ items: [Syntax], negated: Bool, listOffset: Int) -> Typed? {
        let word = negated ? "not in" : "in"
        guard case .name = l else {
            findings.append(ExpressionFinding(
                kind: .type, offset: listOffset,
                message: "a list of decimals, durations or bools needs a name on the left of \(word), as in session.age \(word) [30s, 1m]: compare the value with == or != instead"))
            return nil
        }
        guard let left = check(l, besides: items.first.flatMap(knownType)) else { return nil }
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

    mutating func checkList(_ items: [Syntax], offset: Int) -> Typed? {
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
