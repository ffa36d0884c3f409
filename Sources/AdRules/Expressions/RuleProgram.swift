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

    /// The truth of a condition that reads attributes and constants only, found once when a context is prepared
    /// (``knownTruths(_:)``): an ask then reads it instead of evaluating the condition.
    enum Known: UInt8, Sendable {
        /// Not found beforehand: the node reads a builtin (the session, the clock), or is not a condition.
        case unknown
        case no
        case yes
        /// The condition cannot be evaluated with the context's attributes (the caller fails closed).
        case unevaluable
    }

    /// How a `compare` or `member` node is read, chosen when the program is built from its operands' types.
    enum Shortcut: UInt8, Sendable {
        /// Through ``AttributeValue``s, for any operand types.
        case none
        /// Two `int` or two `duration` operands, compared as whole numbers (durations in ms), with no
        /// ``AttributeValue`` built.
        case wholeNumbers
        /// A `string` operand in a constant list of strings: `memberStrings[lo..<hi]`.
        case stringInList
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
        /// The node's value type (of a constant, a builtin or an attribute; `bool` for the others).
        var type: ValueType = .bool
        var a = -1
        var b = -1
        /// For a `bool` attribute: the truth of its default, nil when it has none.
        var fallbackTruth: Bool?
        var shortcut: Shortcut = .none
        /// An `int` or `duration` constant, or an attribute's default of those types, as a whole number (ms for
        /// a duration): what ``Shortcut/wholeNumbers`` reads.
        var whole: Int64 = 0
        /// For ``Shortcut/stringInList``: the list's strings in `memberStrings`.
        var lo = 0
        var hi = 0
    }

    let nodes: [Node]
    let operands: [Int]
    let constants: [AttributeValue]
    /// The strings of the constant lists that ``Shortcut/stringInList`` nodes search, one run per node.
    let memberStrings: [String]
    let names: [String]
    /// Per name: its index among the policy's declared attributes (-1 when it is not declared), where a
    /// context prepared for this program (``AskContext/prepared``) holds its value.
    let slots: [Int]
    /// The root node of each rule's condition, by rule index; -1 for a rule without one.
    let roots: [Int]
    /// Per node: whether its value depends on attributes and constants only (no builtin), so that a prepared
    /// context knows it beforehand.
    let attributesOnly: [Bool]

    /// - Parameters:
    ///   - conditions: each rule's compiled condition.
    ///   - attributes: the policy's declared attribute names, in order: the slots a prepared context fills.
    init(_ conditions: [CompiledExpression?], attributes: [String] = []) {
        var builder = Builder()
        roots = conditions.map { condition in condition.map { builder.add($0) } ?? -1 }
        nodes = builder.nodes
        operands = builder.operands
        constants = builder.constants
        memberStrings = builder.memberStrings
        names = builder.names
        // One dictionary of the declared names, not a scan per node: a policy may hold thousands of both.
        var declared: [String: Int] = [:]
        for (i, name) in attributes.enumerated() where declared[name] == nil { declared[name] = i }
        slots = builder.names.map { declared[$0] ?? -1 }
        // Children come before their parents in the table.
        var attributesOnly: [Bool] = []
        attributesOnly.reserveCapacity(builder.nodes.count)
        for node in builder.nodes {
            switch node.kind {
            case .constant, .attribute: attributesOnly.append(true)
            case .builtin: attributesOnly.append(false)
            case .not: attributesOnly.append(attributesOnly[node.a])
            case .and, .or: attributesOnly.append((node.a..<node.b).allSatisfy { attributesOnly[builder.operands[$0]] })
            case .compare, .member: attributesOnly.append(attributesOnly[node.a] && attributesOnly[node.b])
            }
        }
        self.attributesOnly = attributesOnly
    }

    /// The truth of every condition node that reads attributes and constants only, for the attributes an app
    /// gives: what a context prepared for this program (``AskContext/prepared``) holds.
    func knownTruths(_ context: AskContext) -> [Known] {
        // Such a node reads no input: these are never read.
        let inputs = RuleInputs(premium: false, sessionCount: 0, sessionAge: 0, installAge: 0, nowHour: 0, nowWeekday: 0)
        return nodes.indices.map { n in
            guard attributesOnly[n], nodes[n].type == .bool else { return .unknown }
            switch truth(of: n, inputs, context) {
            case true?: return .yes
            case false?: return .no
            case nil: return .unevaluable
            }
        }
    }

    /// What the app gave for an attribute.
    enum AppAttribute {
        case value(AttributeValue)
        case missing
        /// A value no rule can compare (``AttributeValue/unusableBecause``): the rule cannot be evaluated, whatever the
        /// default.
        case unusable
    }

    /// The app's value of the attribute named by `names[k]`: from the context's slots when it was prepared for
    /// this program (checked once, there), else from its dictionary.
    private func attribute(_ k: Int, _ context: borrowing AskContext) -> AppAttribute {
        if context.prepared?.programID == ObjectIdentifier(self) {
            let slot = slots[k]
            guard slot >= 0, let prepared = context.prepared else { return .missing }
            if prepared.unusable[slot] { return .unusable }
            return prepared.values[slot].map { .value($0) } ?? .missing
        }
        guard !context.attributes.isEmpty, let value = context.attributes[names[k]] else { return .missing }
        return context.unusable.isEmpty || !context.unusable.contains(names[k]) ? .value(value) : .unusable
    }

    /// Flattens expression trees into the tables, children before parents.
    private struct Builder {
        var nodes: [Node] = []
        var operands: [Int] = []
        var constants: [AttributeValue] = []
        var memberStrings: [String] = []
        var names: [String] = []

        /// A constant or default as a whole number, for ``Shortcut/wholeNumbers``.
        static func whole(_ value: AttributeValue?) -> Int64 {
            switch value {
            case .int(let i)?: return i
            case .duration(let d)?: return d.milliseconds
            default: return 0
            }
        }

        /// Whether a node is read as a whole number: an `int` or `duration` constant, builtin or attribute.
        func isWhole(_ n: Int, _ type: ValueType) -> Bool {
            let node = nodes[n]
            return node.type == type && (type == .int || type == .duration)
                && (node.kind == .constant || node.kind == .builtin || node.kind == .attribute)
        }

        mutating func add(_ e: CompiledExpression) -> Int {
            var node: Node
            switch e {
            case .constant(let value):
                node = Node(kind: .constant, type: value.type, a: constants.count)
                node.whole = Builder.whole(value)
                // Texts kept composed (``Swift/String/composed``): an app's composed value then compares fast.
                switch value {
                case .string(let text): constants.append(.string(text.composed))
                case .stringList(let list): constants.append(.stringList(list.map(\.composed)))
                default: constants.append(value)
                }
            case .builtin(let builtin):
                node = Node(kind: .builtin, builtin: builtin, type: builtin.type)
            case .attribute(let name, let type, let fallback):
                node = Node(kind: .attribute, type: type, a: names.count, b: fallback == nil ? -1 : constants.count)
                if case .bool(let truth)? = fallback { node.fallbackTruth = truth }
                node.whole = Builder.whole(fallback)
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
                let type = nodes[node.a].type
                if isWhole(node.a, type) && isWhole(node.b, type) { node.shortcut = .wholeNumbers }
            case .member(let l, let r, let negated):
                node = Node(kind: .member, negated: negated, a: add(l), b: add(r))
                if nodes[node.a].type == .string, nodes[node.b].kind == .constant, case .stringList(let list) = constants[nodes[node.b].a] {
                    node.shortcut = .stringInList
                    node.lo = memberStrings.count
                    memberStrings += list
                    node.hi = memberStrings.count
                }
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
