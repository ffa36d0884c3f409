import AdRules
import AdRulesCompiler
import AdRulesYAML

extension ModelReader {
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

    /// Whether a draw's ends are in order; if not, a finding that says what to write (the ends swapped).
    mutating func ordered<T: Comparable>(_ low: T, _ high: T, _ key: String, node: YAMLNode) -> Bool {
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
