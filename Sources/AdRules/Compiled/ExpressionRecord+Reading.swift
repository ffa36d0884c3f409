/// Conditions and literals read from a document's JSON. A condition is refused as soon as it grows past the
/// limits ``ExpressionRecord/compiled(attributes:)`` checks, so a hostile one is never held whole.
extension ExpressionRecord {
    /// Why a condition is refused for its size.
    static let tooLarge = "the condition is larger than \(maxNodes) nodes or deeper than \(maxDepth) levels"

    /// The nodes read so far of one condition.
    private struct Budget {
        var nodes = 0
        /// The nodes of the policy's conditions read before this one.
        let before: Int
        var isExceeded = false

        /// Why the condition is refused once it is over a limit: its own size, or the policy's conditions in all.
        var message: String {
            nodes <= ExpressionRecord.maxNodes && before + nodes > PolicyLimits.maxConditionNodes
                ? "the rules' conditions hold more than \(PolicyLimits.maxConditionNodes) nodes in all: a policy's conditions hold at most that many" : tooLarge
        }
    }

    /// Reads a rule's condition.
    /// - Throws: the path of a bad node inside it, or, for a condition over the limits, ``tooLarge`` for the
    ///   condition as a whole.
    /// - Parameter policyNodes: the nodes of the conditions read before this one, which this one's are added to: past
    ///   ``PolicyLimits/maxConditionNodes`` in all, the condition is refused as it is read.
    static func condition(from json: inout RecordReader, policyNodes: inout Int) throws(CompiledPolicyError) -> ExpressionRecord {
        var budget = Budget(nodes: 0, before: policyNodes)
        do {
            let condition = try ExpressionRecord(from: &json, depth: 0, budget: &budget)
            policyNodes += budget.nodes
            return condition
        } catch {
            throw budget.isExceeded ? CompiledPolicyError(budget.message) : error
        }
    }

    private init(from json: inout RecordReader, depth: Int, budget: inout Budget) throws(CompiledPolicyError) {
        budget.nodes += 1
        guard budget.nodes <= Self.maxNodes, depth <= Self.maxDepth, budget.before + budget.nodes <= PolicyLimits.maxConditionNodes else {
            budget.isExceeded = true
            throw CompiledPolicyError(budget.message)
        }
        var constant: ValueRecord?, builtin: String?, attribute: String?, not: ExpressionRecord?, and: [ExpressionRecord]?
        var or: [ExpressionRecord]?, compare: String?, left: ExpressionRecord?, right: ExpressionRecord?, member: ExpressionRecord?
        var list: ExpressionRecord?, negated: Bool?
        try json.object { key, json throws(CompiledPolicyError) in
            func operand(_ json: inout RecordReader) throws(CompiledPolicyError) -> ExpressionRecord {
                try ExpressionRecord(from: &json, depth: depth + 1, budget: &budget)
            }
            switch key {
            case "constant": constant = try ValueRecord(from: &json)
            case "builtin": builtin = try json.string()
            case "attribute": attribute = try json.string()
            case "not": not = try operand(&json)
            case "and": and = try json.array(operand)
            case "or": or = try json.array(operand)
            case "compare": compare = try json.string()
            case "left": left = try operand(&json)
            case "right": right = try operand(&json)
            case "member": member = try operand(&json)
            case "list": list = try operand(&json)
            case "negated": negated = try json.bool()
            default: throw CompiledPolicyError.unknownKey(key)
            }
        }
        let operators = (constant == nil ? 0 : 1) + (builtin == nil ? 0 : 1) + (attribute == nil ? 0 : 1) + (not == nil ? 0 : 1)
            + (and == nil ? 0 : 1) + (or == nil ? 0 : 1) + (compare == nil ? 0 : 1) + (member == nil ? 0 : 1)
        switch operators {
        case 0:
            throw CompiledPolicyError("an expression node is one of constant, builtin, attribute, not, and, or, compare, member")
        case 1: break
        default: throw CompiledPolicyError("an expression node has one operator")
        }
        let comparesSides = left != nil || right != nil
        let testsMembership = list != nil || negated != nil
        guard !comparesSides || compare != nil, !testsMembership || member != nil else {
            throw CompiledPolicyError("left and right belong to a compare node, list and negated to a member node")
        }
        if let constant {
            self = .constant(constant)
        } else if let builtin {
            self = .builtin(builtin)
        } else if let attribute {
            self = .attribute(attribute)
        } else if let not {
            self = .not(not)
        } else if let and {
            self = .and(and)
        } else if let or {
            self = .or(or)
        } else if let compare {
            self = .compare(compare, try required(left, "left"), try required(right, "right"))
        } else {
            self = .member(try required(member, "member"), try required(list, "list"), negated: try required(negated, "negated"))
        }
    }
}

extension ValueRecord {
    /// Reads `{"type": …, "value": …}`. The value is read once the type is known: where it comes first (the
    /// keys are sorted, so it never does in a document `adrules compile` wrote), it is skipped and read again.
    init(from json: inout RecordReader) throws(CompiledPolicyError) {
        var type: ValueType?, value: RecordReader?
        try json.object { key, json throws(CompiledPolicyError) in
            switch key {
            case "type": type = try json.oneOf("a value type")
            case "value":
                // A copy of the reader is a bookmark: it reads on from here when asked, over the same bytes.
                value = json
                try json.skip()
            default: throw CompiledPolicyError.unknownKey(key)
            }
        }
        let valueType = try required(type, "type")
        guard var reader = value else { throw CompiledPolicyError.missing("value") }
        self.value = try inside("value") { () throws(CompiledPolicyError) in try Self.value(valueType, from: &reader) }
    }

    /// A literal of `type`.
    private static func value(_ type: ValueType, from json: inout RecordReader) throws(CompiledPolicyError) -> AttributeValue {
        switch type {
        case .bool: return .bool(try json.bool())
        case .int: return .int(try json.int64())
        case .number: return .number(try json.number())
        case .string: return .string(try json.string())
        case .duration: return .duration(RuleDuration(milliseconds: try json.int64()))
        case .stringList: return .stringList(try json.array(entries: 0...PolicyLimits.maxListItems) { json throws(CompiledPolicyError) in try json.string() })
        case .intList: return .intList(try json.array(entries: 0...PolicyLimits.maxListItems) { json throws(CompiledPolicyError) in try json.int64() })
        }
    }
}
