/// A type-checked `when` expression, resolved to slots and built-ins, ready to evaluate.
package indirect enum CompiledExpression: Sendable {
    case constant(AttributeValue)
    case builtin(Builtin)
    case attribute(name: String, type: ValueType, fallback: AttributeValue?)
    case not(CompiledExpression)
    /// True when every operand is; evaluated left to right, stopping at the first false.
    case and([CompiledExpression])
    /// True when any operand is; evaluated left to right, stopping at the first true.
    case or([CompiledExpression])
    case compare(CompareOperator, CompiledExpression, CompiledExpression)
    case member(CompiledExpression, CompiledExpression, negated: Bool)

    /// Evaluates the expression; nil when an attribute has no value (the caller fails closed).
    func evaluate(_ inputs: RuleInputs) -> AttributeValue? {
        switch self {
        case .constant(let value): return value
        case .attribute(let name, let type, let fallback):
            // The app's dictionary is read directly: no per-ask copy of the attributes.
            guard !inputs.attributes.isEmpty, let value = inputs.attributes[name] else { return fallback }
            if value.type == type { return value }
            if type == .number, case .int(let i) = value { return .number(Double(i)) }
            return nil
        case .builtin(let builtin):
            switch builtin {
            case .premium: return .bool(inputs.premium)
            case .sessionCount: return .int(inputs.sessionCount)
            case .sessionAge: return .duration(RuleDuration(milliseconds: inputs.sessionAge))
            case .installAge: return .duration(RuleDuration(milliseconds: inputs.installAge))
            case .nowHour: return .int(inputs.nowHour)
            case .nowWeekday: return .string(inputs.nowWeekday)
            }
        case .not(let inner):
            guard case .bool(let b)? = inner.evaluate(inputs) else { return nil }
            return .bool(!b)
        case .and(let operands):
            // A loop, not recursion on the operand count: a long chain costs no stack.
            for operand in operands {
                guard case .bool(let value)? = operand.evaluate(inputs) else { return nil }
                if !value { return .bool(false) }
            }
            return .bool(true)
        case .or(let operands):
            for operand in operands {
                guard case .bool(let value)? = operand.evaluate(inputs) else { return nil }
                if value { return .bool(true) }
            }
            return .bool(false)
        case .compare(let op, let l, let r):
            guard let a = l.evaluate(inputs), let b = r.evaluate(inputs) else { return nil }
            guard let order = CompiledExpression.order(a, b) else { return nil }
            switch op {
            case .equal: return .bool(order == 0)
            case .notEqual: return .bool(order != 0)
            case .less: return .bool(order < 0)
            case .lessEqual: return .bool(order <= 0)
            case .greater: return .bool(order > 0)
            case .greaterEqual: return .bool(order >= 0)
            }
        case .member(let l, let r, let negated):
            guard let a = l.evaluate(inputs), let b = r.evaluate(inputs) else { return nil }
            let found: Bool
            switch (a, b) {
            case (.string(let s), .stringList(let list)): found = list.contains(s)
            case (.int(let i), .intList(let list)): found = list.contains(i)
            case (.number(let d), .intList(let list)): found = list.contains { Double($0) == d }
            default: return nil
            }
            return .bool(found != negated)
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

