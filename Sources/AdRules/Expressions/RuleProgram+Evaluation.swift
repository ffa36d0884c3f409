/// Reading the tables: a rule's truth or value for an ask, node by node, with the shortcuts chosen at build time.
extension RuleProgram {
    /// Evaluates rule `r`'s condition; nil when an attribute has no value or the rule has no condition
    /// (the caller fails closed).
    func evaluate(rule r: Int, _ inputs: RuleInputs, _ context: borrowing AskContext) -> AttributeValue? {
        roots[r] < 0 ? nil : value(of: roots[r], inputs, context)
    }

    /// Whether rule `r`'s condition holds; nil when it cannot be evaluated (the caller fails closed).
    func holds(rule r: Int, _ inputs: RuleInputs, _ context: borrowing AskContext) -> Bool? {
        roots[r] < 0 ? nil : truth(of: roots[r], inputs, context)
    }

    /// The truth of a `bool` node, read without building a value where the node allows it.
    func truth(of n: Int, _ inputs: RuleInputs, _ context: borrowing AskContext) -> Bool? {
        // What a prepared context knows beforehand.
        if context.prepared?.programID == ObjectIdentifier(self) {
            switch context.prepared?.known[n] {
            case .yes?: return true
            case .no?: return false
            case .unevaluable?: return nil
            case .unknown?, nil: break
            }
        }
        let node = nodes[n]
        switch node.kind {
        case .attribute where node.type == .bool:
            switch attributeValue(node.a, context) {
            case .bool(let b): return b
            case .missing: return node.fallbackTruth
            default: return nil
            }
        case .builtin where node.builtin == .premium:
            return inputs.premium
        case .compare where node.shortcut == .wholeNumbers:
            guard let x = whole(of: node.a, inputs, context), let y = whole(of: node.b, inputs, context) else { return nil }
            switch node.op {
            case .equal: return x == y
            case .notEqual: return x != y
            case .less: return x < y
            case .lessEqual: return x <= y
            case .greater: return x > y
            case .greaterEqual: return x >= y
            }
        case .member where node.shortcut == .stringInList:
            guard let found = isListed(node.a, node.lo..<node.hi, inputs, context) else { return nil }
            return found != node.negated
        case .not:
            return truth(of: node.a, inputs, context).map { !$0 }
        case .and, .or:
            // Every operand is read, with no short cut: a rule that reads an attribute with no value cannot be
            // evaluated, whatever its other operands say (rules.md §5), so `a and b` and `b and a` decide alike.
            // A loop, not recursion on the operand count: a long chain costs no stack.
            let decisive = node.kind == .or
            var result = !decisive
            for k in node.a..<node.b {
                guard let b = truth(of: operands[k], inputs, context) else { return nil }
                if b == decisive { result = decisive }
            }
            return result
        default:
            guard case .bool(let b)? = value(of: n, inputs, context) else { return nil }
            return b
        }
    }

    /// An attribute's value as a shortcut compares it: a bool, a whole number (ms for a duration) or a string.
    private enum Read {
        case bool(Bool)
        case int(Int64)
        /// A duration in ms.
        case duration(Int64)
        case string(String)
        /// The app gave no value.
        case missing
        /// A value of another kind (a list, a number).
        case other
    }

    /// The app's value of the attribute named by `names[k]`, as a shortcut reads it.
    private func attributeValue(_ k: Int, _ context: borrowing AskContext) -> Read {
        switch attribute(k, context) {
        case .value(.bool(let b)): return .bool(b)
        case .value(.int(let i)): return .int(i)
        case .value(.duration(let d)): return .duration(d.milliseconds)
        case .value(.string(let s)): return .string(s)
        case .missing: return .missing
        case .value, .unusable: return .other
        }
    }

    /// An `int` or `duration` node's value as a whole number (ms for a duration); nil when an attribute has no
    /// value and no default, or a value of another type.
    @inline(__always)
    private func whole(of n: Int, _ inputs: RuleInputs, _ context: borrowing AskContext) -> Int64? {
        let node = nodes[n]
        switch node.kind {
        case .constant:
            return node.whole
        case .builtin:
            switch node.builtin {
            case .sessionCount: return inputs.sessionCount
            case .sessionAge: return inputs.sessionAge
            case .installAge: return inputs.installAge
            case .nowHour: return inputs.nowHour
            case .premium, .nowWeekday: return nil
            }
        default:
            // A value of the attribute's type, else its default; a value of another type cannot be compared.
            switch (attributeValue(node.a, context), node.type) {
            case (.int(let i), .int), (.duration(let i), .duration): return i
            case (.missing, _): return node.b < 0 ? nil : node.whole
            default: return nil
            }
        }
    }

    /// Whether a `string` node's value is one of `memberStrings[list]`; nil when an attribute has no value and no
    /// default, or a value of another type.
    private func isListed(_ n: Int, _ list: Range<Int>, _ inputs: RuleInputs, _ context: borrowing AskContext) -> Bool? {
        let node = nodes[n]
        let text: String
        switch node.kind {
        case .builtin where node.builtin == .nowWeekday:
            text = RuleInputs.weekdays[inputs.nowWeekday]
        case .attribute:
            switch attributeValue(node.a, context) {
            case .string(let s): text = s
            case .missing:
                guard node.b >= 0, case .string(let s) = constants[node.b] else { return nil }
                text = s
            default: return nil
            }
        default:
            guard case .string(let s)? = value(of: n, inputs, context) else { return nil }
            text = s
        }
        for k in list where memberStrings[k] == text { return true }
        return false
    }

    private func value(of n: Int, _ inputs: RuleInputs, _ context: borrowing AskContext) -> AttributeValue? {
        let node = nodes[n]
        switch node.kind {
        case .constant:
            return constants[node.a]
        case .attribute:
            // The app's values are read in place: no per-ask copy of the attributes.
            let value: AttributeValue
            switch attribute(node.a, context) {
            case .missing: return node.b < 0 ? nil : constants[node.b]
            case .unusable: return nil
            case .value(let given): value = given
            }
            if value.type == node.type { return value }
            if node.type == .number, case .int(let i) = value { return .number(Double(i)) }
            return nil
        case .builtin:
            switch node.builtin {
            case .premium: return .bool(inputs.premium)
            case .sessionCount: return .int(inputs.sessionCount)
            case .sessionAge: return .duration(RuleDuration(milliseconds: inputs.sessionAge))
            case .installAge: return .duration(RuleDuration(milliseconds: inputs.installAge))
            case .nowHour: return .int(inputs.nowHour)
            case .nowWeekday: return .string(RuleInputs.weekdays[inputs.nowWeekday])
            }
        case .not:
            guard case .bool(let b)? = value(of: node.a, inputs, context) else { return nil }
            return .bool(!b)
        case .and, .or:
            // Every operand is read, as in `truth(of:)`: an attribute with no value anywhere makes the rule an error.
            let decisive = node.kind == .or
            var result = !decisive
            for k in node.a..<node.b {
                guard case .bool(let b)? = value(of: operands[k], inputs, context) else { return nil }
                if b == decisive { result = decisive }
            }
            return .bool(result)
        case .compare:
            guard let a = value(of: node.a, inputs, context), let b = value(of: node.b, inputs, context),
                let order = CompiledExpression.order(a, b)
            else { return nil }
            switch node.op {
            case .equal: return .bool(order == 0)
            case .notEqual: return .bool(order != 0)
            case .less: return .bool(order < 0)
            case .lessEqual: return .bool(order <= 0)
            case .greater: return .bool(order > 0)
            case .greaterEqual: return .bool(order >= 0)
            }
        case .member:
            guard let a = value(of: node.a, inputs, context), let b = value(of: node.b, inputs, context),
                let found = CompiledExpression.contains(b, a)
            else { return nil }
            return .bool(found != node.negated)
        }
    }
}
