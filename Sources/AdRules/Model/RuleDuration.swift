/// A length of time written in a rule file as `<integer><unit>` parts (`90s`, `1h30m`, `1d`), held in milliseconds.
public struct RuleDuration: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The length in milliseconds.
    public var milliseconds: Int64

    /// Creates a duration from milliseconds.
    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// Creates a duration from whole seconds (saturating at the ends of `Int64`, as each of these does).
    public static func seconds(_ s: Int64) -> RuleDuration { RuleDuration(milliseconds: saturated(s, 1000)) }
    /// Creates a duration from whole minutes.
    public static func minutes(_ m: Int64) -> RuleDuration { .seconds(saturated(m, 60)) }
    /// Creates a duration from whole hours.
    public static func hours(_ h: Int64) -> RuleDuration { .minutes(saturated(h, 60)) }
    /// Creates a duration from whole days.
    public static func days(_ d: Int64) -> RuleDuration { .hours(saturated(d, 24)) }

    /// `value * factor`, or the end of `Int64` it overflows towards.
    private static func saturated(_ value: Int64, _ factor: Int64) -> Int64 {
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        return overflow ? (value < 0 ? .min : .max) : product
    }

    /// No time at all.
    public static let zero = RuleDuration(milliseconds: 0)
    /// The largest duration a rule file may hold.
    public static let maximum = RuleDuration.days(366)

    public static func < (lhs: RuleDuration, rhs: RuleDuration) -> Bool { lhs.milliseconds < rhs.milliseconds }

    static func + (lhs: RuleDuration, rhs: RuleDuration) -> RuleDuration {
        RuleDuration(milliseconds: lhs.milliseconds.addingReportingOverflow(rhs.milliseconds).overflow ? .max : lhs.milliseconds + rhs.milliseconds)
    }

    /// The units of a duration, largest first, with their milliseconds.
    package static let units: [(suffix: String, ms: Int64)] = [
        ("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1),
    ]

    /// Parses `90s`, `1h30m`, `250ms`; returns nil for anything else (units must go largest first, each once).
    public init?(parsing text: String) {
        var total: Int64 = 0
        var rest = Substring(text).utf8
        var lastUnit = -1
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            var number: Int64 = 0
            var digits = 0
            var significant = 0
            while let byte = rest.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                digits += 1
                if significant > 0 || byte != UInt8(ascii: "0") { significant += 1 }
                // At most 12 digits after any leading zeros: the number stays far below overflow before the unit
                // multiplies it.
                guard significant <= 12 else { return nil }
                number = number * 10 + Int64(byte - UInt8(ascii: "0"))
                rest = rest.dropFirst()
            }
            guard digits > 0, let unit = rest.first else { return nil }
            let unitIndex: Int
            switch unit {
            case UInt8(ascii: "d"): unitIndex = 0
            case UInt8(ascii: "h"): unitIndex = 1
            case UInt8(ascii: "m"): unitIndex = rest.dropFirst().first == UInt8(ascii: "s") ? 4 : 2
            case UInt8(ascii: "s"): unitIndex = 3
            default: return nil
            }
            guard unitIndex > lastUnit else { return nil }
            lastUnit = unitIndex
            rest = rest.dropFirst(unitIndex == 4 ? 2 : 1)
            let (product, overflow) = number.multipliedReportingOverflow(by: RuleDuration.units[unitIndex].ms)
            guard !overflow else { return nil }
            let (sum, overflow2) = total.addingReportingOverflow(product)
            guard !overflow2 else { return nil }
            total = sum
        }
        self.milliseconds = total
    }

    /// The shortest rule-file spelling: `1h30m`, `90s` becomes `1m30s`, zero is `0s`.
    public var description: String {
        if milliseconds == 0 { return "0s" }
        // magnitude, not abs: abs(Int64.min) traps.
        var rest = milliseconds.magnitude
        var text = milliseconds < 0 ? "-" : ""
        for unit in RuleDuration.units where rest >= UInt64(unit.ms) {
            text += "\(rest / UInt64(unit.ms))\(unit.suffix)"
            rest %= UInt64(unit.ms)
        }
        return text
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = RuleDuration(parsing: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a duration: \(text)"))
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
