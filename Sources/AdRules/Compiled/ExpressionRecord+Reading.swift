/// Conditions and literals read from a document's JSON. A condition is refused as soon as it grows past the
/// limits ``ExpressionRecord/compiled(attributes:)`` checks, so a hostile one is never held whole.
extension ExpressionRecord {
    /// Why a condition is refused for its size.
    static let tooLarge = "the condition is larger than \(maxNodes) nodes or deeper than \(maxDepth) levels"

    /// The nodes read so far of one condition.
    private struct Budget {
        var nodes = 0
        var isExceeded = false
    }

    /// Reads a rule's condition.
    /// - Throws: the path of a bad node inside it, or, for a condition over the limits, ``tooLarge`` for the
    ///   condition as a whole.
    static func condition(from json: inout RecordReader) throws(CompiledPolicyError) -> ExpressionRecord {
        var budget = Budget()
        do {
            return try ExpressionRecord(from: &json, depth: 0, budget: &budget)
        } catch {
            throw budget.isExceeded ? CompiledPolicyError(tooLarge) : error
        }
    }

    private init(from json: inout RecordReader, depth: Int, budget: inout Budget) throws(CompiledPolicyError) {
        budget.nodes += 1
        guard budget.nodes <= Self.maxNodes, depth <= Self.maxDepth else {
            budget.isExceeded = true
            throw CompiledPolicyError(Self.tooLarge)
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
            default: try json.skip()
            }
        }
        let operators = [constant != nil, builtin != nil, attribute != nil, not != nil, and != nil, or != nil, compare != nil, member != nil]
        switch operators.count(where: { $0 }) {
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
    /// Reads `{"type": …, "value": …}`; the value is read whole first, as the type may come after it.
    init(from json: inout RecordReader) throws(CompiledPolicyError) {
        var type: ValueType?, value: JSONValue?
        try json.object { key, json throws(CompiledPolicyError) in
            switch key {
            case "type": type = try json.oneOf("a value type")
            case "value": value = try json.value()
            default: try json.skip()
            }
        }
        let valueType = try required(type, "type")
        let written = try required(value, "value")
        self.value = try inside("value") { () throws(CompiledPolicyError) in try Self.value(written, as: valueType) }
    }

    /// A JSON value as a literal of `type`.
    private static func value(_ json: JSONValue, as type: ValueType) throws(CompiledPolicyError) -> AttributeValue {
        switch (type, json) {
        case (.bool, .bool(let value)): return .bool(value)
        case (.int, .int(let value)): return .int(Int64(value))
        case (.number, .int(let value)): return .number(Double(value))
        case (.number, .double(let value)): return .number(value)
        case (.string, .string(let value)): return .string(value)
        case (.duration, .int(let value)): return .duration(RuleDuration(milliseconds: Int64(value)))
        case (.stringList, .array(let items)):
            return .stringList(try elements(items) { item throws(CompiledPolicyError) in
                guard case .string(let value) = item else { throw mismatch(.string, item) }
                return value
            })
        case (.intList, .array(let items)):
            return .intList(try elements(items) { item throws(CompiledPolicyError) in
                guard case .int(let value) = item else { throw mismatch(.int, item) }
                return Int64(value)
            })
        default: throw mismatch(type, json)
        }
    }

    private static func elements<T>(_ items: [JSONValue], _ read: (JSONValue) throws(CompiledPolicyError) -> T) throws(CompiledPolicyError) -> [T] {
        var values: [T] = []
        values.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            values.append(try inside(index) { () throws(CompiledPolicyError) in try read(item) })
        }
        return values
    }

    private static func mismatch(_ type: ValueType, _ found: JSONValue) -> CompiledPolicyError {
        let expected: String
        switch type {
        case .bool: expected = "a boolean (true or false)"
        case .int, .duration: expected = RecordReader.wholeNumber
        case .number: expected = "a number"
        case .string: expected = "a string"
        case .stringList: expected = "an array of strings"
        case .intList: expected = "an array of whole numbers"
        }
        return CompiledPolicyError("expected \(expected) for a \(type.rawValue) value, found \(RecordReader.describe(found))")
    }
}
