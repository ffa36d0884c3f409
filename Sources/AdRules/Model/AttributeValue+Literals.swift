/// Literals for an app's attribute values: `["screen": "checkout", "level": 12, "onboarding": false]` in place of
/// `.string("checkout")`, `.int(12)` and `.bool(false)`. A value held in a variable still names its case
/// (`.int(Int64(level))`), and a duration or a list is always written with its case.
extension AttributeValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral
{
    /// A `bool` value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An `int` value.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// A `number` value.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A `string` value.
    public init(stringLiteral value: String) { self = .string(value) }
}
