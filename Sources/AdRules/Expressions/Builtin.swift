/// Names every `when` expression can read without declaring them.
package enum Builtin: String, Sendable, Hashable, CaseIterable {
    case premium
    case sessionCount = "session.count"
    case sessionAge = "session.age"
    case installAge = "install.age"
    case nowHour = "now.hour"
    case nowWeekday = "now.weekday"

    package var type: ValueType {
        switch self {
        case .premium: return .bool
        case .sessionCount, .nowHour: return .int
        case .sessionAge, .installAge: return .duration
        case .nowWeekday: return .string
        }
    }
}

/// What a compiled expression reads at ask time: built-ins, and attributes by slot (no look-up by name).
struct RuleInputs {
    var premium: Bool
    var sessionCount: Int64
    var sessionAge: Int64
    var installAge: Int64
    var nowHour: Int64
    var nowWeekday: String
    var attributes: [String: AttributeValue]
}
