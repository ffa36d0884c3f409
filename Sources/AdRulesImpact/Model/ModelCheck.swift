import AdRules
import AdRulesCompiler
import AdRulesYAML

/// A placement played where its policy denies what the play is for: a show that needs the user's choice played as an
/// action (each show is denied), or an offer of a placement that gives no reward (any reward is denied).
enum UsageMismatch: Sendable, Hashable {
    case choiceInActions
    case notRewardedInOffers(format: String)

    /// - Parameter usage: `actions` or `rewarded`, the list of the model that names the placement.
    init?(_ placement: Placement, usage: String) {
        if usage == "actions", placement.requireUserChoice.value {
            self = .choiceInActions
        } else if usage == "rewarded", !placement.format.value.isRewarded {
            self = .notRewardedInOffers(format: placement.format.value.rawValue)
        } else {
            return nil
        }
    }
}

/// How a model attribute is drawn, once its policy type is known.
enum AttributeSource: Sendable, Hashable {
    case fixed(AttributeValue)
    case uniformInt(Int64, Int64)
    case uniformNumber(Double, Double)
    /// Milliseconds.
    case uniformDuration(Int64, Int64)

    func draw(_ random: inout RandomSource) -> AttributeValue {
        switch self {
        case .fixed(let value): return value
        case .uniformInt(let low, let high): return .int(random.integer(low, high))
        case .uniformNumber(let low, let high): return .number(low + (high - low) * random.unit())
        case .uniformDuration(let low, let high): return .duration(RuleDuration(milliseconds: random.integer(low, high)))
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

    /// A scalar as a whole number of the core schema.
    private static func whole(_ text: String, plain: Bool) -> Int64? {
        YAMLScalar(value: text, style: plain ? .plain : .doubleQuoted).coreSchemaInt.map { Int64($0) }
    }
}

/// Checks a usage model against a policy it is played with.
public enum ModelCheck {
    /// The most segment x placement blocks a report holds (about 3 KB of memory and 1 KB of json each).
    public static let maxReportBlocks = 10_000

    /// Whether the policy is the one under study (`--rules`) or the one it is compared with (`--compare`).
    public enum Role: Sendable {
        case current
        case old
    }

    /// The diagnostics of playing the model with the policy: unknown or misused placements, unused
    /// placements (warnings), and attributes the policy does not declare or types it does not accept.
    /// - Parameters:
    ///   - model: the decoded model.
    ///   - policy: a valid policy.
    ///   - name: the policy as named on the command line.
    ///   - role: an unknown placement is an error for the current policy, a warning for the old one.
    public static func check(_ model: UsageModel, against policy: Policy, name: String, role: Role) -> [Diagnostic] {
        // The report holds figures for every placement in every segment: their product bounds its size (and a
        // shard's part, which `impact merge` reads back).
        // A placement the model plays that the policy lacks (the old policy of a change that adds it) is reported
        // too, with its `unknown_placement` denials.
        let lacking = Set(model.segments.flatMap { $0.actions.map(\.placement) + $0.rewarded.map(\.placement) })
            .subtracting(policy.placements.map(\.id))
        let reported = policy.placements.count + lacking.count
        if model.segments.count * reported > maxReportBlocks {
            return [.modelReportTooLarge(
                segments: model.segments.count, placements: reported, policy: name, limit: maxReportBlocks,
                file: model.file, range: SourceRange(at: SourcePosition(line: model.segmentsLocation.line, column: model.segmentsLocation.column)))]
        }
        var found = findings(model, against: policy, name: name, role: role)
        // A finding about the policy compared with says so, or it reads as false of the one under --rules. Those
        // that name their policy already (an unknown or unused placement) are left as they are.
        if role == .old {
            for i in found.indices where !["policy/unknown-placement", "model/unused-placement"].contains(found[i].rule) {
                found[i].message += " (in the --compare policy \(ControlCharacters.escaped(name)))"
            }
        }
        return found
    }

    /// The most steps of the policy's rules and caps a user-day of one segment may take (about 3 ns each when they
    /// are window caps): 1,000 groups of 64 windows made one user-day of 9,600 moments take 34 s. The shipped model's
    /// heaviest segment takes about 24,000 with the shipped rules.
    static let maxWorkPerUserDay = 50_000_000

    /// What an ask of each placement slot costs in the policy's rules and caps (``Policy/ruleWork(listLength:stringLength:contextsPrepared:)``),
    /// with the longest list any segment gives an attribute (or its default): the rules are read once for the whole
    /// model, not once a segment (1,000 segments against 10,000 rules would read them 1,000 times).
    static func askWork(of segments: [Segment], policy: Policy) -> (Int) -> Int {
        let (lists, texts) = attributeWork(of: segments, policy: policy)
        // Each user-day's context is prepared for the policy: what reads attributes only is read once a user-day
        // (``preparedContextWork(of:policy:)``), and an ask reads its truth in one step.
        return policy.ruleWork(listLength: { lists[$0] ?? 0 }, stringLength: { texts[$0] ?? 0 }, contextsPrepared: true)
    }

    /// What preparing a user-day's context takes: every condition read in full, once a user-day.
    static func preparedContextWork(of segments: [Segment], policy: Policy) -> Int {
        let (lists, texts) = attributeWork(of: segments, policy: policy)
        return policy.preparedContextWork(listLength: { lists[$0] ?? 0 }, stringLength: { texts[$0] ?? 0 })
    }

    /// The work of the longest list and the longest text any segment gives each attribute (or its default).
    private static func attributeWork(of segments: [Segment], policy: Policy) -> (lists: [String: Int], texts: [String: Int]) {
        var lists = policy.defaultListLengths
        var texts = policy.defaultStringWork
        for segment in segments {
            for attribute in segment.attributes {
                switch attribute.value {
                case .list(let items): lists[attribute.name] = max(lists[attribute.name] ?? 0, Policy.listWork(of: items.lazy.map(\.text)))
                case .scalar(let text, _): texts[attribute.name] = max(texts[attribute.name] ?? 0, Policy.stringWork(text))
                default: break
                }
            }
        }
        return (lists, texts)
    }

    /// About how many steps of the policy's rules and caps a user-day of `segment` takes: each action asks to show,
    /// each offer asks to offer and then to show, each show reloads its placement (a second ask) and fills its histories
    /// (``Policy/showWork(ofPlacement:)``), each ask looks for a fullscreen ad on screen (``Policy/screenWork``), and each
    /// visit asks to show each app-open placement, its launch or return and its end going over every placement
    /// (``Policy/visitWork``).
    /// - Parameter askWork: ``askWork(of:policy:)``.
    /// - Parameter preparedWork: ``preparedContextWork(of:policy:)``, once a user-day.
    /// - Returns: the steps of a user-day, and the part of them that is shows filling their histories.
    static func work(of segment: Segment, policy: Policy, askWork: (Int) -> Int, preparedWork: Int = 0) -> (total: Double, histories: Double) {
        var histories = 0.0
        func show(_ id: String, asks: Double, times: Double) -> Double {
            guard let slot = policy.placementID(id).map({ Int($0.slot) }) else { return 0 }
            let showWork = Double(policy.showWork(ofPlacement: slot))
            histories += times * showWork
            return times * ((asks + 1) * Double(askWork(slot) + policy.screenWork) + showWork)
        }
        let visits = max(1, segment.coldStarts.mean) + segment.resumes.mean
        let foreground = min(visits * segment.foreground.mean, 86_400_000)
        var work = 0.0
        for action in segment.actions { work += show(action.placement, asks: 1, times: foreground / max(action.every.mean, 1)) }
        for offer in segment.rewarded { work += show(offer.placement, asks: 2, times: foreground / max(offer.every.mean, 1)) }
        for placement in policy.placements where placement.format.value == .appOpen { work += show(placement.id, asks: 1, times: visits) }
        return (work + visits * Double(2 * policy.visitWork) + Double(preparedWork), histories)
    }

    /// What ``check(_:against:name:role:)`` finds in a model of a reportable size.
    private static func findings(_ model: UsageModel, against policy: Policy, name: String, role: Role) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let file = model.file
        let known = policy.placements.map(\.id)
        var used = Set(policy.placements.filter { $0.format.value == .appOpen }.map(\.id))
        func range(_ location: SourceLocation) -> SourceRange {
            SourceRange(at: SourcePosition(line: location.line, column: location.column))
        }
        let askWork = askWork(of: model.segments, policy: policy)
        let preparedWork = preparedContextWork(of: model.segments, policy: policy)
        for segment in model.segments {
            let work = work(of: segment, policy: policy, askWork: askWork, preparedWork: preparedWork)
            if work.total > Double(maxWorkPerUserDay) {
                // The cap is named only when the histories it sets are most of the estimate.
                let showsKept = work.histories * 2 > work.total ? policy.showsKeptPerHistory : nil
                diagnostics.append(.modelTooMuchWork(
                    segment: segment.name, work: work.total, limit: maxWorkPerUserDay, showsKept: showsKept, file: file,
                    range: range(segment.location)))
            }
            let references = segment.actions.map { ($0.placement, $0.location, "actions") } + segment.rewarded.map { ($0.placement, $0.location, "rewarded") }
            for (id, location, usage) in references {
                used.insert(id)
                guard let placement = policy.placement(id) else {
                    diagnostics.append(.modelUnknownPlacement(
                        id, segment: segment.name, policy: name, known: known, severity: role == .current ? .error : .warning,
                        file: file, range: range(location)))
                    continue
                }
                if placement.format.value == .appOpen {
                    diagnostics.append(.modelPlacementFormat(
                        id, format: placement.format.value.rawValue, usage: usage, severity: role == .current ? .error : .warning, file: file, range: range(location)))
                } else if let mismatch = UsageMismatch(placement, usage: usage) {
                    diagnostics.append(.modelUsageMismatch(id, mismatch, file: file, range: range(location)))
                }
            }
            let declared = Dictionary(policy.attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for attribute in segment.attributes {
                guard let declaration = declared[attribute.name] else {
                    if role == .current {
                        diagnostics.append(.undeclaredAttribute(
                            attribute.name, declared: Array(declared.keys).sorted(), rule: "model/unknown-attribute", file: file,
                            range: range(attribute.location)))
                    }
                    continue
                }
                // yes/no/on/off/y/n: a bool in YAML 1.1, a string in 1.2 (cli.md, yaml/ambiguous-bool), as in rule files.
                if case .scalar(let text, plain: true) = attribute.value, YAMLScalar.ambiguousBools.contains(text.lowercased()) {
                    if declaration.type == .bool {
                        diagnostics.append(.ambiguousBoolWhereBool(attribute.name, value: text, file: file, range: range(attribute.valueLocation)))
                        continue
                    }
                    if declaration.type == .string {
                        diagnostics.append(.ambiguousBoolInString(attribute.name, value: text, file: file, range: range(attribute.valueLocation)))
                    }
                }
                if declaration.type == .duration, case .scalar(let text, _) = attribute.value, let long = RuleDuration(parsing: text),
                    long > .maximum
                {
                    diagnostics.append(.modelOutOfRange(
                        "attribute \(attribute.name)", "at most 366d", found: text, file: file, range: range(attribute.valueLocation)))
                } else if AttributeSource(attribute.value, type: declaration.type) == nil {
                    diagnostics.append(.modelAttributeType(
                        attribute.name, declared: declaration.type, value: attribute.value, file: file, range: range(attribute.valueLocation)))
                }
            }
            // One warning a segment, however many attributes it leaves out: 1,000 segments that each left out 1,000
            // attributes made a million warnings (1.2 GB, of which 10,000 were printed).
            let given = Set(segment.attributes.map(\.name))
            let missing = policy.attributes.filter { $0.defaultValue == nil && !given.contains($0.name) }
            if let first = missing.first {
                diagnostics.append(.modelMissingAttribute(
                    missing.prefix(10).map(\.name), more: missing.count - min(missing.count, 10), segment: segment.name,
                    declaredAt: first.location, file: file, range: range(segment.location)))
            }
        }
        // For either policy (impact.md: "a policy placement that no part of the model uses is reported as a
        // warning"); the note names where it is defined, so the two policies' warnings stay apart.
        for placement in policy.placements where !used.contains(placement.id) {
            diagnostics.append(.modelUnusedPlacement(
                placement.id, model: file, policy: role == .old ? name : nil, definedAt: placement.location, file: file,
                range: range(model.segmentsLocation)))
        }
        return diagnostics
    }
}

extension ModelAttribute.Value {
    /// What to write instead for an attribute declared `type`, as a scenario context is told: the value without its
    /// quotes, in quotes, with a unit, or an example of the type.
    func advice(for type: ValueType) -> String {
        if case .scalar(let text, let plain) = self {
            let shown = YAMLScalar.shortened(text)
            let unquoted = YAMLScalar(value: text, style: .plain)
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
        case .list(let items):
            // The first items, each cut short, and how many more: a list of 1,000 strings of 4,000 characters made
            // one line of 4 MB.
            let shown = items.prefix(5).map { $0.plain ? YAMLScalar.shortened($0.text) : "\"\(YAMLScalar.shortened($0.text))\"" }
            return "[" + shown.joined(separator: ", ") + (items.count > 5 ? ", and \(items.count - 5) more" : "") + "]"
        }
    }
}
