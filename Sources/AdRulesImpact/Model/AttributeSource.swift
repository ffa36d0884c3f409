import AdRules
import AdRulesCompiler
import AdRulesYAML

/// How a model attribute is drawn, once its policy type is known.
enum AttributeSource: Sendable, Hashable {
    case fixed(AttributeValue)
    case uniformInt(Int64, Int64)
    case uniformNumber(Double, Double)
    /// Milliseconds.
    case uniformDuration(Int64, Int64)
    /// A Poisson count with this mean, as an `int` or (`asNumber`) a `number`.
    case poisson(Double, asNumber: Bool)
    /// An exponential duration with this mean, in milliseconds: a draw past 100 means (or 366d) is cut there, as the
    /// model's other exponential draws are.
    case exponentialDuration(Int64)

    func draw(_ random: inout RandomSource) -> AttributeValue {
        switch self {
        case .fixed(let value): return value
        case .uniformInt(let low, let high): return .int(random.integer(low, high))
        case .uniformNumber(let low, let high): return .number(low + (high - low) * random.unit())
        case .uniformDuration(let low, let high): return .duration(RuleDuration(milliseconds: random.integer(low, high)))
        case .poisson(let mean, let asNumber):
            let count = random.poisson(mean: mean)
            return asNumber ? .number(Double(count)) : .int(Int64(count))
        case .exponentialDuration(let mean):
            let drawn = min(random.exponential(mean: Double(mean)), Double(mean) * 100, Double(RuleDuration.maximum.milliseconds))
            return .duration(RuleDuration(milliseconds: Int64(drawn.rounded())))
        }
    }

    /// How many values it draws, when they are few enough to count (nil for numbers drawn from a range, and for ranges
    /// of more than 2^32 values).
    var distinctValues: Int? {
        switch self {
        case .fixed: return 1
        case .uniformInt(let low, let high), .uniformDuration(let low, let high):
            let span = high.subtractingReportingOverflow(low)
            return span.overflow || span.partialValue >= 1 << 32 ? nil : Int(max(0, span.partialValue)) + 1
        case .uniformNumber(let low, let high): return low == high ? 1 : nil
        case .poisson(let mean, _): return mean == 0 ? 1 : nil
        case .exponentialDuration: return nil
        }
    }

    /// The source of a model attribute for a declared type; nil when the value does not fit the type.
    init?(_ value: ModelAttribute.Value, type: ValueType) {
        switch (value, type) {
        case (.uniform(let low, let high, let whole), .int) where whole:
            self = .uniformInt(Int64(low), Int64(high))
        case (.uniform(let low, let high, _), .number):
            self = .uniformNumber(low, high)
        case (.uniform, _):
            return nil
        case (.uniformDuration(let low, let high), .duration):
            self = .uniformDuration(low.milliseconds, high.milliseconds)
        case (.uniformDuration, _):
            return nil
        case (.poisson(let mean), .int):
            self = .poisson(mean, asNumber: false)
        case (.poisson(let mean), .number):
            self = .poisson(mean, asNumber: true)
        case (.poisson, _):
            return nil
        case (.exponential(let mean), .duration):
            self = .exponentialDuration(mean.milliseconds)
        case (.exponential, _):
            return nil
        case (.list(let items), .stringList):
            let texts = items.compactMap { Self.text($0.text, plain: $0.plain) }
            guard texts.count == items.count else { return nil }
            self = .fixed(.stringList(texts))
        case (.list(let items), .intList):
            let numbers = items.compactMap { Self.whole($0.text, plain: $0.plain) }
            guard numbers.count == items.count else { return nil }
            self = .fixed(.intList(numbers))
        case (.list, _):
            return nil
        case (.scalar(let text, let plain), _):
            switch type {
            case .string:
                guard let text = Self.text(text, plain: plain) else { return nil }
                self = .fixed(.string(text))
            case .int:
                guard let number = Self.whole(text, plain: plain) else { return nil }
                self = .fixed(.int(number))
            case .number:
                guard plain, case .value(let number) = YAMLScalar(value: text, style: .plain).numberReading else { return nil }
                self = .fixed(.number(number))
            case .bool:
                guard let value = YAMLScalar(value: text, style: plain ? .plain : .doubleQuoted).coreSchemaBool else { return nil }
                self = .fixed(.bool(value))
            case .duration:
                // At most 366d, as a rule file or a scenario context may hold.
                guard let duration = RuleDuration(parsing: text), duration <= .maximum else { return nil }
                self = .fixed(.duration(duration))
            case .stringList, .intList:
                return nil
            }
        }
    }

    /// A scalar as text: a plain number or boolean is not text in the YAML 1.2 core schema.
    private static func text(_ text: String, plain: Bool) -> String? {
        let scalar = YAMLScalar(value: text, style: plain ? .plain : .doubleQuoted)
        return scalar.coreSchemaBool == nil && !scalar.isCoreSchemaNumber ? text : nil
    }

    /// A scalar as a whole number of the core schema, of at most 18 digits, as a rule file or a scenario reads one.
    private static func whole(_ text: String, plain: Bool) -> Int64? {
        YAMLScalar(value: text, style: plain ? .plain : .doubleQuoted).wholeNumber.map { Int64($0) }
    }
}
