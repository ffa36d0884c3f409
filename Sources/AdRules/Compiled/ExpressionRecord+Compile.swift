/// Conditions to and from their data form; the way in type-checks, because the data may come from a server.
extension ExpressionRecord {
    /// The most nodes and the deepest nesting a condition may have (the rule-file compiler's limits are lower).
    static let maxNodes = 2048
    static let maxDepth = 64

    init(_ expression: CompiledExpression) {
        switch expression {
        case .constant(let value): self = .constant(ValueRecord(value))
        case .builtin(let builtin): self = .builtin(builtin.rawValue)
        case .attribute(let name, _, _): self = .attribute(name)
        case .not(let inner): self = .not(ExpressionRecord(inner))
        case .and(let operands): self = .and(operands.map(ExpressionRecord.init))
        case .or(let operands): self = .or(operands.map(ExpressionRecord.init))
        case .compare(let op, let left, let right): self = .compare(op.rawValue, ExpressionRecord(left), ExpressionRecord(right))
        case .member(let item, let list, let negated): self = .member(ExpressionRecord(item), ExpressionRecord(list), negated: negated)
        }
    }

    /// Type-checks the condition against the declared attributes and compiles it.
    /// - Throws: a ``CompiledPolicyError`` when a name is unknown, types do not fit, or the tree is too large.
    func compiled(attributes: [String: AttributeDeclaration]) throws(CompiledPolicyError) -> CompiledExpression {
        var nodes = 0
        let (code, type) = try check(attributes: attributes, depth: 0, nodes: &nodes)
        guard type == .bool else { throw CompiledPolicyError("the condition is \(type.rawValue), not bool") }
        return code
    }

    private func check(
        attributes: [String: AttributeDeclaration], depth: Int, nodes: inout Int
    ) throws(CompiledPolicyError) -> (CompiledExpression, ValueType) {
        nodes += 1
        guard nodes <= Self.maxNodes, depth <= Self.maxDepth else {
            throw CompiledPolicyError("the condition is larger than \(Self.maxNodes) nodes or deeper than \(Self.maxDepth) levels")
        }
        func operand(_ e: ExpressionRecord, _ nodes: inout Int) throws(CompiledPolicyError) -> (CompiledExpression, ValueType) {
            try e.check(attributes: attributes, depth: depth + 1, nodes: &nodes)
        }
        switch self {
        case .constant(let value):
            // The literals a rule file can write, and no others.
            switch value.value {
            case .string(let s) where ControlCharacters.contains(in: s):
                throw CompiledPolicyError("a string literal holds a control character")
            case .stringList(let list) where list.contains(where: ControlCharacters.contains(in:)):
                throw CompiledPolicyError("a string in a list literal holds a control character")
            // A `when` is at most maxTextLength characters, so no literal of one is longer.
            case .string(let s) where s.unicodeScalars.count > PolicyIDs.maxTextLength:
                throw CompiledPolicyError("a string literal is longer than \(PolicyIDs.maxTextLength) characters, the longest a rule's condition holds")
            case .stringList(let list) where list.contains(where: { $0.unicodeScalars.count > PolicyIDs.maxTextLength }):
                throw CompiledPolicyError("a string in a list literal is longer than \(PolicyIDs.maxTextLength) characters, the longest a rule's condition holds")
            case .number(let n) where !n.isFinite:
                throw CompiledPolicyError("a number literal must be finite")
            case .duration(let d) where !(0...RuleDuration.maximum.milliseconds).contains(d.milliseconds):
                throw CompiledPolicyError("a duration literal must be from 0s to \(RuleDuration.maximum), not \(d.milliseconds) ms")
            default: break
            }
            return (.constant(value.value), value.value.type)
        case .builtin(let name):
            guard let builtin = Builtin(rawValue: name) else { throw CompiledPolicyError("unknown built-in \(ControlCharacters.quoted(name))", kind: .unsupported) }
            return (.builtin(builtin), builtin.type)
        case .attribute(let name):
            guard let declaration = attributes[name] else {
                throw CompiledPolicyError("the condition reads attribute \(ControlCharacters.quoted(name)), which is not declared")
            }
            return (.attribute(name: name, type: declaration.type, fallback: declaration.defaultValue), declaration.type)
        case .not(let inner):
            let (code, type) = try operand(inner, &nodes)
            guard type == .bool else { throw CompiledPolicyError("not needs a bool, not \(type.rawValue)") }
            return (.not(code), .bool)
        case .and(let operands), .or(let operands):
            guard operands.count >= 2 else { throw CompiledPolicyError("and / or need at least two operands") }
            var codes: [CompiledExpression] = []
            for e in operands {
                let (code, type) = try operand(e, &nodes)
                guard type == .bool else { throw CompiledPolicyError("and / or need bool operands, not \(type.rawValue)") }
                codes.append(code)
            }
            if case .and = self { return (.and(codes), .bool) }
            return (.or(codes), .bool)
        case .compare(let name, let left, let right):
            guard let op = CompareOperator(rawValue: name) else { throw CompiledPolicyError("unknown comparison \(ControlCharacters.quoted(name))", kind: .unsupported) }
            let (l, lt) = try operand(left, &nodes)
            let (r, rt) = try operand(right, &nodes)
            guard lt.isComparable(with: rt) else { throw CompiledPolicyError("\(name) compares \(lt.rawValue) with \(rt.rawValue)") }
            if op != .equal && op != .notEqual && !(lt.isNumeric || lt == .duration || lt == .string) {
                throw CompiledPolicyError("\(name) needs numbers, durations or strings, not \(lt.rawValue)")
            }
            return (.compare(op, l, r), .bool)
        case .member(let item, let list, let negated):
            let (i, it) = try operand(item, &nodes)
            let (l, lt) = try operand(list, &nodes)
            guard let element = lt.element else {
                throw CompiledPolicyError("in needs a list on its right, not \(lt.rawValue)")
            }
            // The empty list (`[]`) may stand beside a number, a duration or a bool, as the rule-file compiler writes it:
            // it holds none. (Beside an int or a string it is the list of their type.)
            guard it.isComparable(with: element) || (l.isEmptyList && [.number, .duration, .bool].contains(it)) else {
                throw CompiledPolicyError("in looks for \(it.rawValue) in a list of \(element.rawValue): the two must have the same type")
            }
            return (.member(i, l, negated: negated), .bool)
        }
    }
}
