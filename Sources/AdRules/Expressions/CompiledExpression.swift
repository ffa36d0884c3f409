/// A type-checked `when` expression, resolved to slots and built-ins, ready to evaluate.
package indirect enum CompiledExpression: Sendable, Equatable {
    case constant(AttributeValue)
    case builtin(Builtin)
    case attribute(name: String, type: ValueType, fallback: AttributeValue?)
    case not(CompiledExpression)
    /// True when every operand is. Every operand is evaluated (``RuleProgram`` takes no short cut), so an operand
    /// that cannot be evaluated makes the whole condition unevaluable, in whatever order it is written.
    case and([CompiledExpression])
    /// True when any operand is; every operand is evaluated, as for `and`.
    case or([CompiledExpression])
    case compare(CompareOperator, CompiledExpression, CompiledExpression)
    case member(CompiledExpression, CompiledExpression, negated: Bool)

    /// The nodes of the expression: what ``PolicyLimits/maxConditionNodes`` counts, as a compiled policy's condition
    /// holds them.
    package var nodeCount: Int {
        switch self {
        case .constant, .builtin, .attribute: return 1
        case .not(let inner): return 1 + inner.nodeCount
        case .and(let operands), .or(let operands): return operands.reduce(1) { $0 + $1.nodeCount }
        case .compare(_, let left, let right): return 1 + left.nodeCount + right.nodeCount
        case .member(let item, let list, _): return 1 + item.nodeCount + list.nodeCount
        }
    }

    /// -1, 0, 1 for two values of comparable types; nil otherwise.
    static func order(_ a: AttributeValue, _ b: AttributeValue) -> Int? {
        func sign<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (x == y ? 0 : 1) }
        switch (a, b) {
        case (.int(let x), .int(let y)): return sign(x, y)
        case (.int(let x), .number(let y)): return sign(Double(x), y)
        case (.number(let x), .int(let y)): return sign(x, Double(y))
        case (.number(let x), .number(let y)): return sign(x, y)
        case (.string(let x), .string(let y)): return sign(x, y)
        case (.duration(let x), .duration(let y)): return sign(x.milliseconds, y.milliseconds)
        case (.bool(let x), .bool(let y)): return x == y ? 0 : 1
        case (.stringList(let x), .stringList(let y)): return x == y ? 0 : 1
        case (.intList(let x), .intList(let y)): return x == y ? 0 : 1
        default: return nil
        }
    }

    /// The names of the attributes the expression reads.
    var attributesRead: Set<String> {
        var names: Set<String> = []
        collectAttributes(into: &names)
        return names
    }

    /// Adds the names of the attributes the expression reads to `names` (one set for the whole tree).
    private func collectAttributes(into names: inout Set<String>) {
        switch self {
        case .constant, .builtin: return
        case .attribute(let name, _, _): names.insert(name)
        case .not(let e): e.collectAttributes(into: &names)
        case .and(let operands), .or(let operands): for operand in operands { operand.collectAttributes(into: &names) }
        case .compare(_, let l, let r), .member(let l, let r, _):
            l.collectAttributes(into: &names)
            r.collectAttributes(into: &names)
        }
    }

    /// Whether the expression reads `now.hour` or `now.weekday` (so the evaluator computes local time only when needed).
    var readsClock: Bool {
        switch self {
        case .constant, .attribute: return false
        case .builtin(let b): return b == .nowHour || b == .nowWeekday
        case .not(let e): return e.readsClock
        case .and(let operands), .or(let operands): return operands.contains { $0.readsClock }
        case .compare(_, let l, let r), .member(let l, let r, _):
            return l.readsClock || r.readsClock
        }
    }
}

/// A comparison operator.
package enum CompareOperator: String, Sendable, Hashable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessEqual = "<="
    case greater = ">"
    case greaterEqual = ">="
}


extension CompiledExpression {
    /// Evaluates the expression alone, through the same flat program the evaluator runs (tests, tools).
    func evaluate(_ inputs: RuleInputs, attributes: [String: AttributeValue]) -> AttributeValue? {
        RuleProgram([self]).evaluate(rule: 0, inputs, AskContext(attributes: attributes))
    }
}

extension CompiledExpression {
    var isAnd: Bool {
        if case .and = self { return true }
        return false
    }

    /// Whether this is the constant `[]`.
    package var isEmptyList: Bool {
        switch self {
        case .constant(.stringList(let list)): return list.isEmpty
        case .constant(.intList(let list)): return list.isEmpty
        default: return false
        }
    }

    /// Whether a list value holds an element; nil for values of other types. The empty list (`[]`, which a condition
    /// may hold beside a value of any type but a list) holds nothing.
    static func contains(_ list: AttributeValue, _ element: AttributeValue) -> Bool? {
        switch (element, list) {
        case (.string(let s), .stringList(let list)): return list.contains(s)
        case (.int(let i), .intList(let list)): return list.contains(i)
        case (.number(let d), .intList(let list)): return list.contains { Double($0) == d }
        // The rarer cases after the ones every ask meets: a list looked for, then `[]` beside any other value.
        case (.stringList, _), (.intList, _): return nil
        case (_, .stringList([])), (_, .intList([])): return false
        default: return nil
        }
    }
}
