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
    /// - Parameter takesZero: whether 0 is a value the key takes (a share is not), which a number too close to 0 is told.
    mutating func number(
        _ node: YAMLNode, _ key: String, in range: ClosedRange<Double>, expected: String? = nil, fractions: ((Double) -> Bool)? = nil,
        takesZero: Bool = true
    ) -> Double? {
        guard let value = ModelReader.number(node) else {
            // A number too close to 0 for a double (`1e-400`) says so, as a rule file's attribute default does.
            if case .tooSmall? = node.scalar?.numberReading {
                let advice = takesZero && range.contains(0) ? NumberReading.tooSmallAdvice : NumberReading.tooSmallAdviceAboveZero
                report(.wrongType(key, expected: advice, found: node, file: file))
                return nil
            }
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
            report(.wrongType(key, expected: "a number", found: node, file: file, advice: advice ?? Self.numberAdvice(in: range, expected: expected)))
            return nil
        }
        guard range.contains(value) else {
            var diagnostic = Diagnostic.modelOutOfRange(
                key, expected ?? "from \(ShareText.format(range.lowerBound)) to \(ShareText.format(range.upperBound))",
                found: node.scalar?.value ?? "", file: file, range: node.range)
            // A percentage written without its sign (`fill_rate: 95`) where a fraction belongs: its fraction. Not below 2
            // (`share: 1.5` is no 1.5%, and "write 0.015" would mislead).
            if let fractions, value >= 2, value <= 100, range.contains(value / 100), fractions(value / 100) {
                diagnostic.message += ": a fraction, not a percentage: write \(ShareText.format(value / 100))"
            }
            report(diagnostic)
            return nil
        }
        return value
    }

    /// What to write where a number belongs and something else was written: the range, when it reads plainly.
    static func numberAdvice(in range: ClosedRange<Double>, expected: String?) -> String {
        if let expected { return "write a number \(expected)" }
        guard range.lowerBound >= -1e6, range.upperBound <= 1e6 else { return "write a number, such as 42 or 0.5" }
        return "write a number from \(ShareText.format(range.lowerBound)) to \(ShareText.format(range.upperBound))"
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
}
