import AdRules
import AdRulesCompiler
import AdRulesYAML

/// Checks a usage model against a policy it is played with.
public enum ModelCheck {
    /// The most segment x placement blocks a report holds (about 3 KB of memory and 1 KB of json each).
    public static let maxReportBlocks = 10_000

    /// Whether the policy is the one under study (`--rules`) or the one it is compared with (`--compare`).
    public enum Role: Sendable {
        /// The policy under study.
        case current
        /// The policy it is compared with.
        case old
    }

    /// The diagnostics of playing the model with the policy: unknown or misused placements, unused
    /// placements (warnings), and attributes the policy does not declare or types it does not accept.
    /// - Parameters:
    ///   - model: the decoded model.
    ///   - policy: a valid policy.
    ///   - name: the policy as named on the command line.
    ///   - role: an unknown placement is an error for the current policy, a warning for the old one.
    ///   - other: with `--compare`, the other policy: a placement the current policy lacks (or holds as an app_open
    ///     placement) that the other one plays is a change under study (the placement removed), a warning, as it is for
    ///     the old policy of a change that adds it.
    public static func check(_ model: UsageModel, against policy: Policy, name: String, role: Role, comparedWith other: NamedPolicy? = nil) -> [Diagnostic] {
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
        var found = findings(model, against: policy, name: name, role: role, comparedWith: other)
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
    /// heaviest segment takes about 17,000 with the shipped rules.
    static let maxWorkPerUserDay = 50_000_000

    /// The most undeclared attribute names a check looks for "did you mean" for; the rest are told to declare or remove
    /// the name.
    static let maxSuggestedNames = 100

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
    private static func findings(_ model: UsageModel, against policy: Policy, name: String, role: Role, comparedWith other: NamedPolicy?) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let file = model.file
        let known = policy.placements.map(\.id)
        var used = Set(policy.placements.filter { $0.format.value == .appOpen }.map(\.id))
        func range(_ location: SourceLocation) -> SourceRange {
            SourceRange(at: SourcePosition(line: location.line, column: location.column))
        }
        let askWork = askWork(of: model.segments, policy: policy)
        let preparedWork = preparedContextWork(of: model.segments, policy: policy)
        let declared = Dictionary(policy.attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let declaredNames = declared.keys.sorted()
        // An undeclared attribute's finding, by name: each segment naming it gets one, built once. "Did you mean" is
        // looked for among the declared names for the first ``maxSuggestedNames`` names only (as in scenario files): each
        // search reads every declared name, and 15,000 undeclared names against 1,000 declared took 19 s.
        var undeclared: [String: Diagnostic] = [:]
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
                // Not playable here but playable in the other policy: the change under study, not a mistake in the model.
                let playedByTheOther = other?.policy.placement(id).map { $0.format.value != .appOpen } ?? false
                let severity: Severity = role == .old || playedByTheOther ? .warning : .error
                guard let placement = policy.placement(id) else {
                    // Lacking from both policies, it is the error the current policy's check reports: not a warning too.
                    if role == .old, let other, other.policy.placement(id) == nil { continue }
                    diagnostics.append(.modelUnknownPlacement(
                        id, segment: segment.name, policy: name, known: known, severity: severity,
                        removedFrom: role == .current && playedByTheOther ? other?.name : nil, file: file, range: range(location)))
                    continue
                }
                if placement.format.value == .appOpen {
                    diagnostics.append(.modelPlacementFormat(
                        id, format: placement.format.value.rawValue, usage: usage, severity: severity, file: file, range: range(location)))
                } else if let mismatch = UsageMismatch(placement, usage: usage) {
                    diagnostics.append(.modelUsageMismatch(id, mismatch, file: file, range: range(location)))
                }
            }
            for attribute in segment.attributes {
                guard let declaration = declared[attribute.name] else {
                    if role == .current {
                        var finding = undeclared[attribute.name] ?? .undeclaredAttribute(
                            attribute.name, declared: declaredNames, searched: undeclared.count < maxSuggestedNames, rule: "model/unknown-attribute",
                            file: file, range: range(attribute.location))
                        undeclared[attribute.name] = finding
                        finding.range = range(attribute.location)
                        diagnostics.append(finding)
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
