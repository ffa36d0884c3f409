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
    func attribute(_ k: Int, _ context: borrowing AskContext) -> AppAttribute {
        if context.prepared?.programID == ObjectIdentifier(self) {
            let slot = slots[k]
            guard slot >= 0, let prepared = context.prepared else { return .missing }
            if prepared.unusable[slot] { return .unusable }
            return prepared.values[slot].map { .value($0) } ?? .missing
        }
        guard !context.attributes.isEmpty, let value = context.attributes[names[k]] else { return .missing }
        return context.unusable.isEmpty || !context.unusable.contains(names[k]) ? .value(value) : .unusable
    }
}
