import AdRules

/// What a duration written in another way means, for the advice of a finding.
package enum DurationAdvice {
    /// The duration a number and a unit mean, written as a duration is written: `0.5s` is 500ms, `1e3s` 16m40s,
    /// `2 hours` 2h, `5e-1s` 500ms. Nil when the text is not one number and one unit, or means no whole number of
    /// milliseconds from 0 to 366d.
    package static func meant(by text: String) -> RuleDuration? {
        guard text.utf8.count <= 40 else { return nil }
        let number = text.prefix { $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }
        let unit = String(text.dropFirst(number.count).drop { $0 == " " || $0 == "\t" }).lowercased()
        guard !number.isEmpty, let value = Double(number), let scale = units[unit] else { return nil }
        // Only a number a double holds as written is advised on: at most 15 significant digits (1.9999999999999999999s
        // reads as 2), and not one that reads as 0 unless it is 0 (1e-400s).
        let mantissa = number.prefix { $0 != "e" && $0 != "E" }.filter(\.isNumber).drop { $0 == "0" }
        guard mantissa.count <= 15, value != 0 || mantissa.isEmpty else { return nil }
        // 4.35m is 260,999.99999999997 ms in binary: a value within a millionth of a millisecond is that millisecond
        // (365.9999999d, 0.36 ms off a whole one, is not).
        let ms = (value * scale).rounded()
        guard ms >= 0, ms <= Double(RuleDuration.maximum.milliseconds), abs(value * scale - ms) < 1e-6 else { return nil }
        return RuleDuration(milliseconds: Int64(ms))
    }

    /// Milliseconds a unit, by the names a person may write.
    private static let units: [String: Double] = [
        "ms": 1, "millisecond": 1, "milliseconds": 1, "s": 1000, "sec": 1000, "secs": 1000, "second": 1000, "seconds": 1000,
        "m": 60_000, "min": 60_000, "mins": 60_000, "minute": 60_000, "minutes": 60_000,
        "h": 3_600_000, "hr": 3_600_000, "hrs": 3_600_000, "hour": 3_600_000, "hours": 3_600_000,
        "d": 86_400_000, "day": 86_400_000, "days": 86_400_000,
    ]
}
