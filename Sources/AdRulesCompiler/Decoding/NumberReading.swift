import AdRulesYAML

/// How a scalar reads as a number (a `number` attribute's value, a usage model's number).
package enum NumberReading: Equatable {
    case value(Double)
    /// A float too small for a double, not 0 as written (`1e-400`): it would read as 0.
    case tooSmall

    /// What a key takes that was given a number too close to 0 (``tooSmall``), as its finding says.
    package static let tooSmallAdvice = "a number a double can tell from 0 (about 5e-324 or larger), or 0"
    /// The same, for a key that does not take 0 (a segment's `share`).
    package static let tooSmallAdviceAboveZero = "a number a double can tell from 0 (about 5e-324 or larger)"
    /// A hex or octal whole number with more digits than are read safely.
    case tooLong
    /// Not a finite number in the core schema (`0x1p3` and `nan` are Swift's, and text in YAML).
    case notANumber
}

extension YAMLScalar {
    /// The scalar as the YAML 1.2 core schema reads a number: a whole number in any of its forms (`12`, `0o17`,
    /// `0x1F`) or a float, finite (NaN and infinities compare with nothing and have no JSON form).
    package var numberReading: NumberReading {
        guard isCoreSchemaNumber else { return .notANumber }
        if let whole = FieldReader.intValue(self) { return .value(Double(whole)) }
        // A long decimal whole number reads as the nearest double; a long hex or octal one does not read.
        if let digits = coreSchemaIntDigits, digits.radix != 10 { return .tooLong }
        guard let value = Double(value), value.isFinite else { return .notANumber }
        return FloatText.readsAsZero(self.value, value: value) ? .tooSmall : .value(value)
    }
}

/// Facts about a number written as text, for what a double makes of it.
package enum FloatText {
    /// Whether a float written as `text` reads as 0 (`value`) though it is not 0 as written (`1e-400`, too small for a
    /// double): it must be refused, not read as 0.
    package static func readsAsZero<S: StringProtocol>(_ text: S, value: Double) -> Bool {
        value == 0 && text.prefix { $0 != "e" && $0 != "E" }.contains { ("1"..."9").contains($0) }
    }

    /// A double as a message writes it: `8` for 8.0, `10.5`, `1e+20` as Swift describes a large one.
    package static func shortest(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// The significant digits of a number's mantissa: leading zeros, and trailing zeros after the point, do not count.
    package static func significantDigits<S: StringProtocol>(_ text: S) -> Int {
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }
        var digits = Substring(mantissa.filter { $0.isNumber }).drop { $0 == "0" }
        if mantissa.contains(".") { while digits.last == "0" { digits = digits.dropLast() } }
        return digits.count
    }
}
