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

/// The built-ins a compiled expression reads at ask time, as plain numbers; the app's attributes are read
/// from its own dictionary, passed alongside.
struct RuleInputs {
    var premium: Bool
    var sessionCount: Int64
    var sessionAge: Int64
    var installAge: Int64
    var nowHour: Int64
    /// Days since a Thursday: an index into ``weekdays``.
    var nowWeekday: Int

    /// Weekday names from Thursday, because 1970-01-01 was a Thursday.
    static let weekdays = ["thu", "fri", "sat", "sun", "mon", "tue", "wed"]
}
