import AdRules
import AdRulesCompiler
import AdRulesYAML

extension ModelAttribute.Value {
    /// What to write instead for an attribute declared `type`, as a scenario context is told: the value without its
    /// quotes, in quotes, with a unit, or an example of the type.
    func advice(for type: ValueType) -> String {
        if case .scalar(let text, let plain) = self {
            let shown = YAMLScalar.shortened(text)
            let unquoted = YAMLScalar(value: text, style: .plain)
            if plain, type == .int, unquoted.isWholeNumberTooLong {
                // The limits a rule file's whole numbers have, by the base written in (a `+` does not count, a `-` does).
                let digits = text.lowercased().drop { $0 == "+" || $0 == "-" }
                let limit = digits.hasPrefix("0x") ? "15 digits in hex" : digits.hasPrefix("0o") ? "20 digits in octal" : "18 digits"
                return "it is written with more digits than this tool reads safely (\(limit) at most, a - sign or leading zeros included): write it with fewer digits"
            }
            if !plain, AttributeSource(.scalar(text, plain: true), type: type) != nil { return "remove the quotes (\(shown))" }
            if plain, type == .string, unquoted.coreSchemaBool != nil || unquoted.isCoreSchemaNumber { return "quote it (\"\(shown)\")" }
            if type == .duration, let advice = DurationAdvice.advice(for: text) { return advice }
            if type == .int, case .value(let number)? = plain ? unquoted.numberReading : nil, number == number.rounded(), abs(number) < 1e15 {
                return "write it as a whole number (\(Int64(number)))"
            }
            if type == .stringList || type == .intList, AttributeSource(.list([.init(text: text, plain: plain)]), type: type) != nil {
                // A quoted value keeps its quotes, single ones (a ' inside written twice), which need no escapes.
                return "write it as a list of one ([\(plain ? shown : "'" + shown.replacingOccurrences(of: "'", with: "''") + "'")])"
            }
        }
        switch type {
        case .bool: return "write true or false"
        case .int: return "write a whole number, such as 5, or {uniform: [1, 10]}"
        case .number: return "write a number, such as 0.5, or {uniform: [0, 1]}"
        case .string: return "write one text, such as home"
        case .duration: return "write a duration, such as 10m, or {uniform: [1m, 10m]}"
        case .stringList: return "write a list of texts, such as [a, b]"
        case .intList: return "write a list of whole numbers, such as [1, 2]"
        }
    }

    /// The value as written, for messages: a long one cut short (``YAMLScalar/shortened(_:)``).
    var text: String {
        switch self {
        case .scalar(let text, let plain): return plain ? YAMLScalar.shortened(text) : "\"\(YAMLScalar.shortened(text))\""
        case .uniform(let low, let high, _): return "{uniform: [\(ShareText.format(low)), \(ShareText.format(high))]}"
        case .uniformDuration(let low, let high): return "{uniform: [\(low), \(high)]}"
        case .poisson(let mean): return "{poisson: \(ShareText.format(mean))}"
        case .exponential(let mean): return "{exponential: \(mean)}"
        case .list(let items):
            // The first items, each cut short, and how many more: a list of 1,000 strings of 4,000 characters made
            // one line of 4 MB.
            let shown = items.prefix(5).map { $0.plain ? YAMLScalar.shortened($0.text) : "\"\(YAMLScalar.shortened($0.text))\"" }
            return "[" + shown.joined(separator: ", ") + (items.count > 5 ? ", and \(items.count - 5) more" : "") + "]"
        }
    }
}
