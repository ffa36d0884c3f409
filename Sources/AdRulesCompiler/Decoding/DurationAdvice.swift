import AdRules

/// What a duration written in another way means, for the advice of a finding.
enum DurationAdvice {
    /// The duration a number and a unit mean in the way a duration is written: `0.5s` → `500ms`, `1e3s` → `16m40s`,
    /// `2 hours` → `2h`; nil when the text is not one number and one unit, or means no whole number of milliseconds
    /// from 1ms to 366d.
    static func suggested(for text: String) -> String? {
        guard text.utf8.count <= 40 else { return nil }
        let number = text.prefix { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "e" || $0 == "E" || $0 == "+") }
        let unit = String(text.dropFirst(number.count).drop { $0 == " " }).lowercased()
        guard !number.isEmpty, let value = Double(number), let scale = units[unit] else { return nil }
        let ms = value * scale
        guard ms >= 1, ms <= Double(RuleDuration.maximum.milliseconds), ms == ms.rounded() else { return nil }
        return RuleDuration(milliseconds: Int64(ms)).description
    }

    /// Milliseconds a unit, by the names a person may write.
    private static let units: [String: Double] = [
        "ms": 1, "millisecond": 1, "milliseconds": 1, "s": 1000, "sec": 1000, "secs": 1000, "second": 1000, "seconds": 1000,
        "m": 60_000, "min": 60_000, "mins": 60_000, "minute": 60_000, "minutes": 60_000,
        "h": 3_600_000, "hr": 3_600_000, "hrs": 3_600_000, "hour": 3_600_000, "hours": 3_600_000,
        "d": 86_400_000, "day": 86_400_000, "days": 86_400_000,
    ]
}
