/// Every custom rule's condition as one flat table of nodes, built when the policy is loaded.
///
/// A node refers to its operands, constants and attribute names by index, so evaluating a rule reads
/// plain values from arrays and copies no expression tree. `CompiledExpression` stays the form rules
/// are compiled and stored in; this is the form the evaluator reads. Conditions are type-checked, so a
/// `bool` node is tested for its truth without building an `AttributeValue`.
///
/// The tables are immutable and shared by reference: the policy holds one program, and reading it copies
/// no array.
final class RuleProgram: Sendable {
    enum Kind: UInt8, Sendable {
        case constant, builtin, attribute, not, and, or, compare, member
    }

    /// One node. What `a` and `b` hold depends on the kind:
    /// - `constant`: `a` is the constant's index;
    /// - `attribute`: `a` is the name's index, `b` the fallback constant's index or -1;
    /// - `not`: `a` is the operand;
    /// - `and`, `or`: the operands are `operands[a..<b]`;
    /// - `compare`, `member`: `a` and `b` are the two operands.
    struct Node: Sendable {
        var kind: Kind
        var builtin: Builtin = .premium
        var op: CompareOperator = .equal
        var negated = false
        var type: ValueType = .bool
        var a = -1
        var b = -1
        /// For a `bool` attribute: the truth of its default, nil when it has none.
        var fallbackTruth: Bool?
    }

    let nodes: [Node]
    let operands: [Int]
    let constants: [AttributeValue]
    let names: [String]
    /// Per name: its index among the policy's declared attributes (-1 when it is not declared), where a
    /// context prepared for this program (``AskContext/prepared``) holds its value.
    let slots: [Int]
    /// The root node of each rule's condition, by rule index; -1 for a rule without one.
    let roots: [Int]

    /// - Parameters:
    ///   - conditions: each rule's compiled condition.
    ///   - attributes: the policy's declared attribute names, in order: the slots a prepared context fills.
    init(_ conditions: [CompiledExpression?], attributes: [String] = []) {
        var builder = Builder()
        roots = conditions.map { condition in condition.map { builder.add($0) } ?? -1 }
        nodes = builder.nodes
        operands = builder.operands
        constants = builder.constants
        names = builder.names
        // One dictionary of the declared names, not a scan per node: a policy may hold thousands of both.
        var declared: [String: Int] = [:]
        for (i, name) in attributes.enumerated() where declared[name] == nil { declared[name] = i }
        slots = builder.names.map { declared[$0] ?? -1 }
    }

    /// The app's value of the attribute named by `names[k]`: from the context's slots when it was prepared for
    /// this program, else from its dictionary.
    private func attribute(_ k: Int, _ context: borrowing AskContext) -> AttributeValue? {
        if context.prepared?.programID == ObjectIdentifier(self) {
            let slot = slots[k]
            return slot >= 0 ? context.prepared?.values[slot] ?? nil : nil
        }
        guard !context.attributes.isEmpty else { return nil }
        return context.attributes[names[k]]
    }

    /// Flattens expression trees into the tables, children before parents.
    private struct Builder {
        var nodes: [Node] = []
        var operands: [Int] = []
        var constants: [AttributeValue] = []
        var names: [String] = []

        mutating func add(_ e: CompiledExpression) -> Int {
            var node: Node
            switch e {
            case .constant(let value):
                node = Node(kind: .constant, a: constants.count)
                constants.append(value)
            case .builtin(let builtin):
                node = Node(kind: .builtin, builtin: builtin)
            case .attribute(let name, let type, let fallback):
                node = Node(kind: .attribute, type: type, a: names.count, b: fallback == nil ? -1 : constants.count)
                if case .bool(let truth)? = fallback { node.fallbackTruth = truth }
                names.append(name)
                if let fallback { constants.append(fallback) }
            case .not(let inner):
                node = Node(kind: .not, a: add(inner))
            case .and(let list), .or(let list):
                let children = list.map { add($0) }
                node = Node(kind: e.isAnd ? .and : .or, a: operands.count, b: operands.count + children.count)
                operands += children
            case .compare(let op, let l, let r):
                node = Node(kind: .compare, op: op, a: add(l), b: add(r))
            case .member(let l, let r, let negated):
                node = Node(kind: .member, negated: negated, a: add(l), b: add(r))
            }
            nodes.append(node)
            return nodes.count - 1
        }
    }

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
    private func truth(of n: Int, _ inputs: RuleInputs, _ context: borrowing AskContext) -> Bool? {
        let node = nodes[n]
        switch node.kind {
        case .attribute where node.type == .bool:
            guard let value = attribute(node.a, context) else { return node.fallbackTruth }
            guard case .bool(let b) = value else { return nil }
            return b
        case .builtin where node.builtin == .premium:
            return inputs.premium
        case .not:
            return truth(of: node.a, inputs, context).map { !$0 }
        case .and, .or:
            // A loop, not recursion on the operand count: a long chain costs no stack.
            let stopAt = node.kind == .or
            for k in node.a..<node.b {
                guard let b = truth(of: operands[k], inputs, context) else { return nil }
                if b == stopAt { return stopAt }
            }
            return !stopAt
        default:
            guard case .bool(let b)? = value(of: n, inputs, context) else { return nil }
            return b
        }
    }

    private func value(of n: Int, _ inputs: RuleInputs, _ context: borrowing AskContext) -> AttributeValue? {
        let node = nodes[n]
        switch node.kind {
        case .constant:
            return constants[node.a]
        case .attribute:
            // The app's values are read in place: no per-ask copy of the attributes.
            guard let value = attribute(node.a, context) else {
                return node.b < 0 ? nil : constants[node.b]
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
            // A loop, not recursion on the operand count: a long chain costs no stack.
            let stopAt = node.kind == .or
            for k in node.a..<node.b {
                guard case .bool(let b)? = value(of: operands[k], inputs, context) else { return nil }
                if b == stopAt { return .bool(stopAt) }
            }
            return .bool(!stopAt)
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

extension CompiledExpression {
    var isAnd: Bool {
        if case .and = self { return true }
        return false
    }

    /// Whether a list value holds an element; nil for values of other types.
    static func contains(_ list: AttributeValue, _ element: AttributeValue) -> Bool? {
        switch (element, list) {
        case (.string(let s), .stringList(let list)): return list.contains(s)
        case (.int(let i), .intList(let list)): return list.contains(i)
        case (.number(let d), .intList(let list)): return list.contains { Double($0) == d }
        default: return nil
        }
    }
}
