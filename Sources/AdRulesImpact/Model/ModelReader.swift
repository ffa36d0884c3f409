import AdRules
import AdRulesCompiler
import AdRulesYAML

/// Reads typed values and distributions out of a model's YAML nodes, recording a diagnostic for every bad one.
struct ModelReader: NodeReader {
    let file: String
    var diagnostics: [Diagnostic] = []

    /// Exact positions inside the model's scalars (a control character in an attribute value, at the character).
    private var positions: ScalarPositions

    init(file: String, bytes: [UInt8]? = nil) {
        self.file = file
        positions = ScalarPositions(bytes: bytes)
    }

    mutating func position(ofCodePoint offset: Int, in node: YAMLNode) -> SourcePosition? {
        positions.position(ofCodePoint: offset, in: node)
    }

    func location(_ node: YAMLNode) -> SourceLocation { SourceLocation(file: file, position: node.range.start) }

    /// The file's `# adrules:disable-next-line` comments: a finding they hide is dropped as it is reported.
    var suppressions: Suppressions?
    /// Where the document has an alias that stands for nothing or a tag (``YAMLDocument/aliasOrTagPositions``).
    var aliasOrTagPositions: Set<SourcePosition> = []
    /// Findings past the limit a rule file has too: counted, not kept.
    var droppedFindings = DroppedFindings()

    mutating func report(_ diagnostic: Diagnostic) {
        // A type error where an alias stands for nothing, or a tag stands, only repeats that finding.
        if diagnostic.rule.hasPrefix("schema/") && aliasOrTagPositions.contains(diagnostic.range.start) { return }
        if suppressions?.suppresses(diagnostic) == true { return }
        guard droppedFindings.keeps(diagnostic, kept: diagnostics.count) else { return }
        diagnostics.append(diagnostic)
    }

    /// The finding of a file that held more than the limit: how many more there are, or nil.
    var tooManyFindings: Diagnostic? { droppedFindings.summary(file: file) }

    /// A plain scalar read as a number, as the core schema reads one (``NumberReading``); nil for anything else,
    /// a float that would read as 0 though it is not 0 included.
    static func number(_ node: YAMLNode) -> Double? {
        guard case .value(let value)? = node.scalar?.numberReading else { return nil }
        return value
    }

    /// A whole number as the YAML 1.2 core schema writes one (`[-+]?[0-9]+`, `0o17`, `0x1F`: not `1e3` or `3.0`),
    /// in `range`.
    mutating func int(_ node: YAMLNode, _ key: String, in range: ClosedRange<Int>) -> Int? {
        guard let scalar = node.scalar, scalar.isCoreSchemaInt else {
            report(.wrongType(
                key, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)", found: node, file: file,
                advice: Diagnostic.unquoting(node) { $0.coreSchemaInt.map(range.contains) ?? false }
                    ?? Diagnostic.wholeNumber(node, takes: range.contains)))
            return nil
        }
        // Digits that do not fit an Int are out of the range as surely as a large Int is.
        guard let value = scalar.coreSchemaInt, range.contains(value) else {
            report(.modelOutOfRange(key, "from \(range.lowerBound) to \(range.upperBound)", found: scalar.shortValue, file: file, range: node.range))
            return nil
        }
        return value
    }

    /// - Parameter expected: what the range is in words, when it is not "from a to b" (a share is above 0).
    /// - Parameter fractions: the fractions a percentage (`95%`) may be told to be written as: those of a share or a
    ///   probability, nil where a number is no fraction.
    mutating func number(
        _ node: YAMLNode, _ key: String, in range: ClosedRange<Double>, expected: String? = nil, fractions: ((Double) -> Bool)? = nil
    ) -> Double? {
        guard let value = ModelReader.number(node) else {
            let takes = { (plain: YAMLScalar) in ModelReader.number(YAMLNode(.scalar(plain), range: node.range)).map(range.contains) ?? false }
            var advice = Diagnostic.unquoting(node, takes: takes)
            // A percentage (`95%`) where a fraction from 0 to 1 belongs: its fraction.
            if advice == nil, let fractions, let text = node.scalar?.value, text.hasSuffix("%"), let percent = Double(text.dropLast()),
                percent.isFinite, range.contains(percent / 100), fractions(percent / 100)
            {
                advice = "write it as a fraction (\(ShareText.format(percent / 100)))"
            }
            // A decimal comma (`0,6`): the number with a point.
            // (Not thousands, `1,200`, and not 0, which no share is.)
            if advice == nil, let text = node.scalar?.value, text.filter({ $0 == "," }).count == 1, text.split(separator: ",").last?.count != 3,
                case let dotted = text.replacingOccurrences(of: ",", with: "."), let number = Double(dotted), number != 0, range.contains(number),
                dotted.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
            {
                advice = "a decimal takes a point: write \(dotted)"
            }
            report(.wrongType(key, expected: "a number", found: node, file: file, advice: advice))
            return nil
        }
        guard range.contains(value) else {
            report(.modelOutOfRange(
                key, expected ?? "from \(ShareText.format(range.lowerBound)) to \(ShareText.format(range.upperBound))",
                found: node.scalar?.value ?? "", file: file, range: node.range))
            return nil
        }
        return value
    }

    /// A probability: a number from 0 to 1.
    mutating func probability(_ node: YAMLNode, _ key: String) -> Double? { number(node, key, in: 0...1, fractions: { _ in true }) }

    /// A duration in milliseconds, up to 366 days.
    /// - Parameters:
    ///   - minimum: the least the caller accepts (it says so itself), so that advice never names less.
    ///   - below: for a time of day, the first time the caller does not accept (24h).
    mutating func duration(_ node: YAMLNode, _ key: String, minimum: Int64 = 0, below: Int64? = nil) -> Int64? {
        guard let scalar = node.scalar, let value = RuleDuration(parsing: scalar.value) else {
            var diagnostic = Diagnostic.malformedDuration(key, found: node, file: file)
            // Advice the same key would refuse next (`write 0s` where at least 1s is needed, `366d` for a time of day)
            // is replaced by what it takes.
            if minimum > 0 || below != nil, let scalar = node.scalar {
                let takes = below != nil ? "a local time before 24h, such as 8h or 18h30m"
                    : "a duration from \(RuleDuration(milliseconds: minimum)) to 366d, such as 90s or 4m"
                if diagnostic.rule == "schema/range" {
                    // Too many digits for any duration.
                    diagnostic.message = "\(key) is \(scalar.shortValue), longer than the largest duration 366d: write \(takes)"
                } else if scalar.style == .plain, Double(scalar.value) != nil {
                    // Units only for plain decimal digits (`5.0s`, `+5s` and `1e3s` are not durations), the ones that fit;
                    // a time of day most likely counts hours.
                    let units: [(String, Int64)] = below != nil ? [("h", 3_600_000), ("m", 60_000), ("s", 1000)] : [("s", 1000), ("m", 60_000)]
                    let digits = scalar.value.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                    let n = digits ? Int64(scalar.value) : nil
                    let fitting = n.map { n in
                        units.filter { _, ms in
                            let (value, overflow) = n.multipliedReportingOverflow(by: ms)
                            return !overflow && value >= minimum && value < (below ?? RuleDuration.maximum.milliseconds + 1)
                        }.prefix(2)
                    } ?? []
                    diagnostic.message = fitting.isEmpty
                        ? "\(key) must be \(takes), not \(scalar.shortValue)"
                        : "\(key) is a duration, and a bare number has no unit: write " + fitting.map { "\(n ?? 0)\($0.0)" }.joined(separator: " or ")
                } else {
                    // Quoted, or not a number: the general example ("1d") may be what this key refuses; a duration
                    // written otherwise (`1.5h`) is told its form when the key takes it.
                    diagnostic.message = "\(key) must be \(takes), not \(node.kindDescription)"
                    let accepts = { (meant: RuleDuration) in
                        meant.milliseconds >= minimum && meant.milliseconds < (below ?? RuleDuration.maximum.milliseconds + 1)
                    }
                    if let advice = DurationAdvice.advice(for: scalar.value, accepts: accepts, bareNumbers: below == nil) {
                        diagnostic.message += ": \(advice)"
                    }
                }
            }
            report(diagnostic)
            return nil
        }
        if let below, value.milliseconds >= below {
            report(.modelOutOfRange(key, "a local time before \(below == 86_400_000 ? "24h" : RuleDuration(milliseconds: below).description), such as 8h or 18h30m", found: scalar.value, file: file, range: node.range))
            return nil
        }
        guard value <= .maximum else {
            report(.modelOutOfRange(key, "at most 366d", found: scalar.value, file: file, range: node.range))
            return nil
        }
        return value.milliseconds
    }

    /// A non-empty string.
    mutating func string(_ node: YAMLNode, _ key: String) -> String? {
        guard let scalar = node.scalar, !scalar.isNull else {
            report(.wrongType(key, expected: "a string", found: node, file: file))
            return nil
        }
        return checkedText(scalar.value, key, node)
    }

    static let distributionKinds = ["uniform", "poisson", "exponential"]

    /// The one `{kind: value}` pair of a distribution mapping, or nil (with a diagnostic).
    /// - Parameter expected: what the setting takes, for the message when the mapping is not one pair.
    /// - Parameter ends: what a range's ends must be for `{min, max}` to be advised as `uniform`.
    private mutating func distribution(
        _ pairs: [YAMLPair], _ key: String, node: YAMLNode, expected: String, ends: RangeEnds
    ) -> (kind: String, pair: YAMLPair)? {
        guard !reportIfRangeWrittenAsBounds(pairs, key, node: node, ends: ends) else { return nil }
        let known = fields(pairs, allowed: ModelReader.distributionKinds, context: key)
        guard known.count == pairs.count else { return nil }
        guard known.count == 1, let only = known.first else {
            report(.wrongType(key, expected: expected, found: node, file: file))
            return nil
        }
        return (only.key, only.pair)
    }

    /// Reports `{min: 0, max: 60}` (or `low`/`high`, `from`/`to`), a range to draw from, with one finding that writes it
    /// as `uniform`. Only ends that read back as written, two numbers or two durations in order, are advised: what they
    /// must be (whole, a duration) is checked once they are written so.
    /// - Returns: whether the mapping was such a range (and reported).
    mutating func reportIfRangeWrittenAsBounds(_ pairs: [YAMLPair], _ key: String, node: YAMLNode, ends: RangeEnds = .either) -> Bool {
        func end(_ names: [String]) -> YAMLScalar? {
            guard let scalar = pairs.first(where: { names.contains($0.key.scalar?.value ?? "") })?.value.scalar, scalar.style == .plain,
                !scalar.isNull, GluedKey.isPlain(scalar.value)
            else { return nil }
            return scalar
        }
        // Two numbers or two durations, low to high: what `uniform` draws between.
        func inOrder(_ low: YAMLScalar, _ high: YAMLScalar) -> Bool {
            if let a = ModelReader.number(YAMLNode(.scalar(low), range: node.range)),
                let b = ModelReader.number(YAMLNode(.scalar(high), range: node.range))
            {
                return a <= b
            }
            if ends == .either, let a = RuleDuration(parsing: low.value), let b = RuleDuration(parsing: high.value) { return a <= b }
            return false
        }
        guard pairs.count == 2, let low = end(["min", "low", "from"]), let high = end(["max", "high", "to"]), inOrder(low, high) else { return false }
        report(.rangeWrittenAsBounds(key, low: low.shortValue, high: high.shortValue, found: node, file: file))
        return true
    }

    /// What the ends of a range a setting takes are: numbers (a count, a share), or either numbers or durations (a
    /// duration, whose bare numbers are then told their unit; an attribute).
    enum RangeEnds { case numbers, either }

    /// The two ends of `{uniform: [a, b]}` as nodes.
    private mutating func ends(_ node: YAMLNode, _ key: String) -> (YAMLNode, YAMLNode)? {
        guard let items = node.items, items.count == 2 else {
            var diagnostic = Diagnostic.wrongType("\(key).uniform", expected: "a list of two values [low, high]", found: node, file: file)
            if let items = node.items { diagnostic.message = "\(key).uniform must be a list of two values [low, high], not \(items.count) value\(items.count == 1 ? "" : "s")" }
            report(diagnostic)
            return nil
        }
        return (items[0], items[1])
    }

    private mutating func ordered<T: Comparable>(_ low: T, _ high: T, _ key: String, node: YAMLNode) -> Bool {
        guard low <= high else {
            // The ends as written, swapped: what to write.
            let ends = (node.items ?? []).compactMap { $0.scalar?.shortValue }
            let found = ends.count == 2 ? "[\(ends[0]), \(ends[1])], whose low end is higher: write [\(ends[1]), \(ends[0])]" : "a higher low end"
            report(.modelOutOfRange("\(key).uniform", "[low, high] with low <= high", found: found, file: file, range: node.range))
            return false
        }
        return true
    }

    /// A count: a whole number, `{uniform: [a, b]}` or `{poisson: mean}`.
    mutating func count(_ node: YAMLNode, _ key: String, in range: ClosedRange<Int> = 0...10_000) -> CountDistribution? {
        let expected = "a whole number, {uniform: [a, b]} or {poisson: mean}"
        guard let pairs = node.pairs else {
            guard ModelReader.number(node) != nil else {
                report(.wrongType(key, expected: expected, found: node, file: file, advice: Diagnostic.wholeNumber(node, takes: range.contains)))
                return nil
            }
            return int(node, key, in: range).map(CountDistribution.constant)
        }
        guard let (kind, pair) = distribution(pairs, key, node: node, expected: expected, ends: .numbers) else { return nil }
        switch kind {
        case "uniform":
            guard let (a, b) = ends(pair.value, key),
                let low = int(a, "\(key).uniform", in: range), let high = int(b, "\(key).uniform", in: range),
                ordered(low, high, key, node: pair.value)
            else { return nil }
            return .uniform(low, high)
        case "poisson":
            return number(pair.value, "\(key).poisson", in: 0...Double(range.upperBound)).map(CountDistribution.poisson)
        default:
            report(.modelDistributionKind(key, kind: kind, expected: expected, file: file, range: pair.key.range))
            return nil
        }
    }

    /// A duration: a constant, `{uniform: [d1, d2]}` or `{exponential: mean}`.
    /// - Parameter below: for a time of day, the first time it may not reach (24h).
    /// - Parameter expected: what the key takes, for the advice on another kind of distribution.
    mutating func durationDistribution(
        _ node: YAMLNode, _ key: String, minimum: Int64 = 0, below: Int64? = nil,
        expected: String = "a duration, {uniform: [1m, 5m]} or {exponential: 2m}"
    ) -> DurationDistribution? {
        guard let pairs = node.pairs else {
            guard let value = duration(node, key, minimum: minimum, below: below) else { return nil }
            guard value >= minimum else {
                report(.modelOutOfRange(key, "at least \(RuleDuration(milliseconds: minimum))", found: node.scalar?.value ?? "", file: file, range: node.range))
                return nil
            }
            return .constant(value)
        }
        guard let (kind, pair) = distribution(pairs, key, node: node, expected: expected, ends: .either) else { return nil }
        switch kind {
        case "uniform":
            guard let (a, b) = ends(pair.value, key), let low = duration(a, "\(key).uniform", minimum: minimum, below: below),
                let high = duration(b, "\(key).uniform", minimum: minimum, below: below), ordered(low, high, key, node: pair.value)
            else { return nil }
            guard low >= minimum else {
                report(.modelOutOfRange("\(key).uniform", "at least \(RuleDuration(milliseconds: minimum))", found: a.scalar?.value ?? "", file: file, range: a.range))
                return nil
            }
            return .uniform(low, high)
        case "exponential":
            guard let mean = duration(pair.value, "\(key).exponential", minimum: max(1, minimum)) else { return nil }
            guard mean > 0, mean >= minimum else {
                report(.modelOutOfRange("\(key).exponential", "a mean of at least \(RuleDuration(milliseconds: max(1, minimum)))", found: pair.value.scalar?.value ?? "", file: file, range: pair.value.range))
                return nil
            }
            return .exponential(mean)
        default:
            report(.modelDistributionKind(key, kind: kind, expected: expected, file: file, range: pair.key.range))
            return nil
        }
    }

    /// A real number: a constant, `{uniform: [a, b]}`, `{exponential: mean}` or `{poisson: mean}`.
    mutating func numberDistribution(_ node: YAMLNode, _ key: String, in range: ClosedRange<Double>) -> NumberDistribution? {
        let expected = "a number, {uniform: [a, b]}, {exponential: mean} or {poisson: mean}"
        guard let pairs = node.pairs else {
            guard ModelReader.number(node) != nil else {
                report(.wrongType(key, expected: expected, found: node, file: file))
                return nil
            }
            return number(node, key, in: range).map(NumberDistribution.constant)
        }
        guard let (kind, pair) = distribution(pairs, key, node: node, expected: expected, ends: .numbers) else { return nil }
        switch kind {
        case "uniform":
            guard let (a, b) = ends(pair.value, key), let low = number(a, "\(key).uniform", in: range),
                let high = number(b, "\(key).uniform", in: range), ordered(low, high, key, node: pair.value)
            else { return nil }
            return .uniform(low, high)
        case "exponential":
            return number(pair.value, "\(key).exponential", in: range).map(NumberDistribution.exponential)
        default:
            return number(pair.value, "\(key).poisson", in: range).map(NumberDistribution.poisson)
        }
    }
}
