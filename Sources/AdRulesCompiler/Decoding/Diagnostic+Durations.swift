import AdRules
import AdRulesYAML

/// Messages about durations written wrong (`schema/duration`) or too long.
extension Diagnostic {
    package static func malformedDuration(_ key: String, found: YAMLNode, file: String) -> Diagnostic {
        // A list, a mapping, null or a boolean is a value of another type (schema/type), not a duration written
        // wrong (schema/duration: cli.md keeps that for malformed text and bare numbers).
        guard let scalar = found.scalar, !(scalar.style == .plain && (scalar.isNull || scalar.coreSchemaBool != nil)) else {
            return wrongType(key, expected: "a duration", found: found, file: file, advice: "write a duration such as 90s, 4m, 1h30m or 1d")
        }
        if scalar.style == .plain, Int64(scalar.value) != nil || Double(scalar.value) != nil {
            // Suggest only what is itself valid: a whole number with a unit, never "-5s" or "1.5s".
            let message: String
            if scalar.value.hasPrefix("-") {
                message = "\(key) is a duration, which is never negative: write 0s, or a duration such as 90s or 4m"
            } else if let advice = DurationAdvice.bareNumber(scalar.value) {
                message = "\(key) is a duration, and \(advice)"
            } else {
                message = "\(key) is a duration: whole numbers with units, largest first, such as 90s or 1m30s, not \(scalar.shortValue)"
            }
            return Diagnostic(.error, rule: "schema/duration", message: message, file: file, range: found.range)
        }
        // A well-formed duration whose number has more digits than a duration reads is too long, not malformed.
        if DurationAdvice.isOverlong(scalar.value) {
            return Diagnostic(
                .error, rule: "schema/range",
                message: "\(key) is \(scalar.shortValue), longer than the largest duration 366d: write at most 366d", file: file, range: found.range)
        }
        // A fraction, an exponent, a space or a unit spelt out (`0.5s`, `1e3s`, `1 day`) is told the duration it means,
        // and so are parts written apart (`1h 30m`); quoted digits are a bare number in quotes.
        let advice = (typographicQuotes(around: scalar.value) ?? DurationAdvice.advice(for: scalar.value)).map { ": \($0)" } ?? ""
        return Diagnostic(
            .error, rule: "schema/duration",
            message: "\(key) must be a duration such as 90s, 4m, 1h30m or 1d (units d, h, m, s, ms, largest first), not \(found.kindDescription)\(advice)",
            file: file, range: found.range)
    }

    static func durationTooLong(_ key: String, value: RuleDuration, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "\(key) is \(value), longer than the largest duration 366d: write at most 366d",
            file: file, range: range)
    }
}
