import AdRules
import AdRulesYAML
import Foundation

/// Reads scenario files through the same YAML reader and diagnostics as rule files.
public enum ScenarioDecoder {
    /// Decodes a scenario file's bytes.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - file: the path used in diagnostics.
    ///   - policy: the policy the scenario runs against (for attribute types).
    /// - Returns: the scenario and every diagnostic.
    public static func decode(_ bytes: [UInt8], file: String, policy: Policy) -> (Scenario, [Diagnostic]) {
        let document = YAMLReader.read(bytes, file: file)
        var reader = FieldReader(file: file, bytes: bytes)
        // `# adrules:disable-next-line RULE` works as in rule files (cli.md, Diagnostics): it hides warnings.
        let suppressions = Suppressions(file: file, bytes: bytes, document: document)
        reader.suppressions = suppressions
        let aliasesAndTags = document.aliasOrTagPositions
        reader.standsForAliasOrTag = { aliasesAndTags.contains($0) }
        var scenario = Scenario(file: file, tests: [])
        let declared = Dictionary(policy.attributes.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
        if let root = document.root, let items = root.items, items.contains(where: { $0.pairs?.contains { $0.key.scalar?.value == "name" } == true }) {
            // The tests written without their `tests:` line: a list of tests at the top.
            reader.report(.testsWithoutTheirLine(found: root, file: file))
        } else if let root = document.root, let pairs = reader.mapping(root, "a scenario file") {
            var sawTests = false
            for (_, pair) in reader.fields(pairs, allowed: ScenarioKeys.top, context: "a scenario file", belongsIn: { ScenarioKeys.relocation(of: $0, in: .file) }) {
                sawTests = true
                guard let items = reader.namedList(pair.value, "tests", entry: "test", entryKeys: ScenarioKeys.test) else { continue }
                // An empty list tests nothing, as a file without `tests:` does (and `test` would pass it, `simulate` replay
                // nothing, with no word).
                if items.isEmpty {
                    reader.report(.noTests(file: file, range: pair.value.range))
                }
                for item in items {
                    if let test = decodeTest(item, policy: policy, declared: declared, reader: &reader) { scenario.tests.append(test) }
                }
            }
            // A misspelt `test:` is told "did you mean tests" where it stands: not also that the file has no tests.
            let misspelt = pairs.contains { pair in pair.key.scalar.map { Suggestion.closest(to: $0.value, in: ScenarioKeys.top) == "tests" } ?? false }
            if !sawTests, !misspelt {
                reader.report(.missingKey("tests", in: "this scenario file", example: "tests:", file: file, range: SourceRange(at: root.range.start)))
            }
        } else if document.root == nil && document.diagnostics.isEmpty {
            reader.report(.missingKey("tests", in: "this scenario file", example: "tests:", file: file, range: .fileStart))
        }
        boundWork(of: scenario, policy: policy, reader: &reader)
        // Undeclared attribute names past the first hundred are counted: no name is dropped without a word.
        if !reader.notReported.isEmpty {
            reader.report(.undeclaredAttributesNotListed(reader.notReported.count, file: file))
        }
        // Findings past the limit are counted: a dropped error still makes the file malformed, so no test of it runs.
        let found = (document.diagnostics + reader.diagnostics + (reader.tooManyFindings.map { [$0] } ?? [])).withoutRepeatsOfAliasesAndTags()
        let diagnostics = suppressions.applied(to: found).sortedForDisplay()
        return (scenario, diagnostics)
    }

    static func time(_ node: YAMLNode, _ key: String, reader: inout FieldReader) -> (ms: Int64, offset: Int)? {
        guard let text = node.scalar?.value else {
            reader.report(.badTime(key, found: node, problem: .shape, file: reader.file))
            return nil
        }
        let ms: Int64
        switch Timestamps.read(text) {
        case .success(let time): ms = time
        case .failure(let problem):
            reader.report(.badTime(key, found: node, problem: problem, file: reader.file))
            return nil
        }
        var offset = 0
        if !(text.hasSuffix("Z") || text.hasSuffix("z")), text.count >= 6 {
            let tail = Array(text.suffix(6))
            if let h = Int(String(tail[1...2])), let m = Int(String(tail[4...5])) {
                offset = (h * 3600 + m * 60) * (tail[0] == "-" ? -1 : 1)
            }
        }
        return (ms, offset)
    }

    /// - Parameter declared: the type of each attribute the policy declares, by name (found once per file).
    private static func decodeTest(_ node: YAMLNode, policy: Policy, declared: [String: ValueType], reader: inout FieldReader) -> ScenarioTest? {
        guard let pairs = reader.mapping(node, "a test") else { return nil }
        let before = reader.diagnostics.count
        var name: String?
        var start: (ms: Int64, offset: Int)?
        var zone = TimeZone(identifier: "UTC") ?? TimeZone.current
        var installed: Int64?
        var sessionsBefore = 0
        var history: [(placement: String, at: Int64)] = []
        var context = AskContext.standard
        var steps: [ScenarioStep] = []
        var stepsNode: YAMLNode?
        for (key, pair) in reader.fields(pairs, allowed: ScenarioKeys.test, context: "a test", belongsIn: { ScenarioKeys.relocation(of: $0, in: .test) }) {
            let value = pair.value
            switch key {
            case "name":
                // A name is a label: a number or a boolean is taken as written (`name: 42` prints `PASS 42`).
                if let scalar = value.scalar, !scalar.isNull {
                    name = reader.checkedText(scalar.value, key, value)
                } else {
                    name = reader.string(value, key)?.value
                }
                // A name with no words prints a bare `PASS ` line that says nothing.
                if let text = name, text.allSatisfy(\.isWhitespace) {
                    reader.report(.wrongType("name", expected: "a sentence saying what the test checks", found: value, file: reader.file))
                    name = nil
                }
            case "start": start = time(value, key, reader: &reader)
            case "device_timezone":
                if let text = reader.string(value, key) {
                    if let named = TimeZoneNames.zone(named: text.value) { zone = named }
                    else { reader.report(.unknownTimeZone(text.value, file: reader.file, range: value.range, deviceAllowed: false)) }
                }
            case "installed": installed = time(value, key, reader: &reader)?.ms
            case "sessions_before": sessionsBefore = reader.int(value, key, minimum: 0, optional: true)?.value ?? 0
            case "history":
                guard let items = reader.sequence(value, key) else { continue }
                for item in items {
                    guard let entry = reader.mapping(item, "a history entry") else { continue }
                    var placement: String?
                    var at: Int64?
                    for (k, p) in reader.fields(entry, allowed: ScenarioKeys.history, context: "a history entry", belongsIn: { ScenarioKeys.relocation(of: $0, in: .history) }) {
                        if k == "placement" { placement = reader.string(p.value, k)?.value }
                        else { at = time(p.value, k, reader: &reader)?.ms }
                    }
                    if let placement, let at {
                        // A show of a placement the policy does not have counts for nothing: said, not silent.
                        if policy.placement(placement) != nil {
                            history.append((placement, at))
                        } else if let node = entry.first(where: { $0.key.scalar?.value == "placement" })?.value,
                            !reader.isSuppressed("scenario/unknown-placement", at: node.range)
                        {
                            reader.report(.unknownHistoryPlacement(placement, hint: reader.unknownPlacementHint(placement, policy: policy), file: reader.file, range: node.range))
                        }
                    } else {
                        // Name only what is missing: a key written with a bad value, or glued to it, has its own finding.
                        let present = GluedKey.keysPresent(entry)
                        let missing: [String] = ["placement", "at"].filter { !present.contains($0) }
                        if !missing.isEmpty {
                            reader.report(.missingKey(missing.joined(separator: " and "), in: "a history entry", example: "{placement: app_open, at: 2026-11-29T08:58:00Z}", file: reader.file, range: item.range))
                        }
                    }
                }
            case "context":
                context = decodeContext(value, base: .standard, owner: .testContext, policy: policy, declared: declared, reader: &reader) ?? context
            case "steps":
                stepsNode = value
            default: break
            }
        }
        let present = GluedKey.keysPresent(pairs)
        if !present.contains("name") {
            reader.report(.missingKey("name", in: "this test", example: "name: a cold start shows the first ad", file: reader.file, range: SourceRange(at: node.range.start)))
        }
        if !present.contains("start") {
            reader.report(.missingKey("start", in: "this test", example: "start: 2026-11-29T09:00:00Z", file: reader.file, range: SourceRange(at: node.range.start)))
        }
        // A test with no steps checks nothing and would always pass.
        let stepsExample = "steps: [{event: app_launched}, {ask: show, placement: app_open, expect: allow}]"
        if let stepsNode, let items = reader.sequence(stepsNode, "steps") {
            if items.isEmpty {
                reader.report(.missingKey("steps", in: "this test", example: stepsExample, listing: "its steps", file: reader.file, range: stepsNode.range))
            }
            // The clock of the steps read so far: a step past the last time RFC 3339 can write would print as no
            // reader (this one included) can read it back.
            var clock = start?.ms
            for item in items {
                guard let step = decodeStep(item, testContext: context, policy: policy, declared: declared, reader: &reader) else { continue }
                steps.append(step)
                guard let now = clock else { continue }
                let time = step.at ?? now.addingSaturated(step.after)
                if time > Timestamps.latest {
                    reader.report(.stepPastLastTime(file: reader.file, range: item.range))
                    clock = nil
                } else {
                    clock = time
                }
            }
        } else if stepsNode == nil {
            reader.report(.missingKey("steps", in: "this test", example: stepsExample, listing: "its steps", file: reader.file, range: SourceRange(at: node.range.start)))
        }
        guard reader.diagnostics.count == before || !reader.diagnostics[before...].contains(where: { $0.severity == .error }),
            let name, let start
        else { return nil }
        return ScenarioTest(
            name: name, location: reader.location(node), start: start.ms, displayOffset: start.offset, deviceTimeZone: zone,
            installed: installed ?? start.ms, sessionsBefore: sessionsBefore, history: history, context: context, steps: steps)
    }

    /// - Parameter owner: whose context it is, for the advice about a key that belongs elsewhere.
    private static func decodeContext(
        _ node: YAMLNode, base: AskContext, owner: ScenarioKeys.Block, policy: Policy, declared declaredTypes: [String: ValueType],
        reader: inout FieldReader
    ) -> AskContext? {
        guard let pairs = reader.mapping(node, "context") else { return nil }
        var context = base
        // An attribute the policy declares, written beside `premium`, belongs one level deeper (cli.md r2).
        var attributeNames: [String]?  // sorted on the first unknown key: the suggestion must not depend on hashing
        let belongsIn = { (key: String) -> String? in
            if let advice = ScenarioKeys.relocation(of: key, in: owner) { return advice }
            if declaredTypes[key] != nil {
                return "\(key) is an attribute of the policy: write it under `attributes:`, as in context: {attributes: {\(key): …}}"
            }
            // Not a misspelt premium or attributes: perhaps a misspelt attribute, which belongs one level deeper too.
            guard Suggestion.closest(to: key, in: ScenarioKeys.context) == nil else { return nil }
            let names = attributeNames ?? declaredTypes.keys.sorted()
            attributeNames = names
            guard let attribute = Suggestion.closest(to: key, in: names) else { return nil }
            return "did you mean the attribute \"\(attribute)\"? Attributes go under `attributes:`, as in context: {attributes: {\(attribute): …}}"
        }
        for (key, pair) in reader.fields(pairs, allowed: ScenarioKeys.context, context: "context", belongsIn: belongsIn) {
            if key == "premium" {
                if let value = reader.bool(pair.value, "premium") { context.premium = value.value }
                continue
            }
            guard let entries = reader.mapping(pair.value, "attributes") else { continue }
            // An app passes the attributes its policy declares: at most as many as a policy may declare.
            guard entries.count <= PolicyLimits.maxAttributes else {
                reader.report(.tooManyContextAttributes(entries.count, file: reader.file, range: pair.value.range))
                continue
            }
            for entry in entries {
                guard let name = reader.nameKey(entry.key, in: "attributes") else { continue }
                let type = declaredTypes[name]
                // The premium flag is the context's own (no policy may declare an attribute of that name): written as an
                // attribute, the ask would run as a user who is not premium.
                if name == "premium", type == nil {
                    reader.report(.premiumAsAttribute(inModel: false, value: !["false", "no", "off", "n"].contains(entry.value.scalar?.value.lowercased() ?? ""), file: reader.file, range: entry.key.range))
                    continue
                }
                // Said once per name, for the first hundred names of a file: each costs a search for the closest. Where
                // a comment hides it, it is not counted, so the next place it is named still gets it.
                if type == nil, !reader.isSuppressed("scenario/unknown-attribute", at: entry.key.range),
                    reader.firstReport(of: "undeclared attribute \(name)", upTo: 100)
                {
                    reader.report(.undeclaredAttribute(
                        name, declared: policy.attributes.map(\.name), rule: "scenario/unknown-attribute", file: reader.file, range: entry.key.range))
                }
                let declared = type ?? inferType(entry.value)
                if let value = AttributeValueReader.read(entry.value, as: declared, key: name, reader: &reader) {
                    context.attributes[name] = value
                }
            }
        }
        return context
    }

    private static func inferType(_ node: YAMLNode) -> ValueType {
        if let items = node.items {
            return items.allSatisfy { $0.scalar.flatMap(FieldReader.intValue) != nil } && !items.isEmpty ? .intList : .stringList
        }
        guard let scalar = node.scalar else { return .string }
        if FieldReader.boolValue(scalar) != nil { return .bool }
        if FieldReader.intValue(scalar) != nil { return .int }
        if scalar.style == .plain, let value = Double(scalar.value), value.isFinite { return .number }
        return .string
    }

    private static func codes(_ node: YAMLNode, _ key: String, reader: inout FieldReader) -> Set<ReasonCode>? {
        guard let items = reader.sequence(node, key) else { return nil }
        var set = Set<ReasonCode>()
        for item in items {
            if let code = reader.enumeration(item, "a reason code", as: ReasonCode.self) { set.insert(code.value) }
        }
        return set
    }

    private static func decodeStep(
        _ node: YAMLNode, testContext: AskContext, policy: Policy, declared: [String: ValueType], reader: inout FieldReader
    ) -> ScenarioStep? {
        guard let pairs = reader.mapping(node, "a step") else { return nil }
        var after: Int64 = 0
        var at: Int64?
        var eventName: Located<String>?
        var askKind: Located<AskKind>?
        var placement: String?
        var source: String?
        var trigger: ShowTrigger?
        var context: AskContext?
        var expectation = Expectation()
        var eventOnly: [YAMLPair] = []
        // Whether the step asks, for the advice about a key that belongs elsewhere: only an ask takes a context.
        let block: ScenarioKeys.Block = pairs.contains { $0.key.scalar?.value == "ask" } ? .askStep : .eventStep
        // The keys the step is written with (a glued `ask:offer` counted as `ask`): read once, for the advice below.
        let present = GluedKey.keysPresent(pairs)
        for (key, pair) in reader.fields(pairs, allowed: ScenarioKeys.step, context: "a step", belongsIn: { ScenarioKeys.relocation(of: $0, in: block) }) {
            let value = pair.value
            switch key {
            case "after":
                // `after: -5m` means a clock set back, which `at:` writes (cli.md r2).
                if let scalar = value.scalar, scalar.style == .plain, scalar.value.hasPrefix("-"),
                    RuleDuration(parsing: String(scalar.value.dropFirst())) != nil
                {
                    reader.report(.negativeAfter(file: reader.file, range: value.range))
                    continue
                }
                after = reader.duration(value, key)?.value.milliseconds ?? 0
            case "at": at = time(value, key, reader: &reader)?.ms
            case "event":
                if let name = reader.string(value, key) {
                    if AdEvent.names.contains(name.value) {
                        eventName = name
                    } else {
                        // `event: show` is an ask the app makes, not an event it records.
                        let ask = present.contains("ask") ? nil : AskKind(rawValue: name.value).map { "\($0.rawValue) is an ask, not an event: write ask: \($0.rawValue), with expect: allow or deny" }
                        reader.report(.unknownEnum("event", value: name.value, allowed: AdEvent.names, advice: ask, file: reader.file, range: value.range))
                    }
                }
            case "ask":
                // `ask: show_started` is an event the app records, not an ask.
                if let name = value.scalar?.value, AdEvent.names.contains(name), !present.contains("event") {
                    // What an ask takes and an event does not goes with it.
                    let checks = ["expect", "reasons", "reasons_include", "retry_in", "trigger", "context"].filter(present.contains)
                    let drop = checks.isEmpty ? "" : ", without \(checks.joined(separator: ", ")) (an event step checks nothing)"
                    reader.report(.unknownEnum(
                        "ask", value: name, allowed: AskKind.allCases.map(\.rawValue), advice: "\(name) is an event, not an ask: write event: \(name)\(drop)",
                        file: reader.file, range: value.range))
                } else {
                    askKind = reader.enumeration(value, key, as: AskKind.self)
                }
            case "placement": placement = reader.string(value, key)?.value
            case "source":
                source = reader.string(value, key)?.value
                // An empty name would be read as no source, which a close treats otherwise (rules.md §6).
                if source == "" {
                    reader.report(.wrongType("source", expected: "the name of the SDK that shows the ad (or no source key, for an unnamed one)", found: value, file: reader.file))
                    source = nil
                }
            case "trigger":
                trigger = reader.enumeration(value, key, as: ShowTrigger.self)?.value
                eventOnly.append(pair)
            case "context":
                context = decodeContext(value, base: testContext, owner: .askContext, policy: policy, declared: declared, reader: &reader)
                eventOnly.append(pair)
            case "expect":
                expectation.verdict = reader.enumeration(value, key, as: Decision.Verdict.self)?.value
                eventOnly.append(pair)
            case "reasons":
                expectation.reasons = codes(value, key, reader: &reader)
                eventOnly.append(pair)
            case "reasons_include":
                expectation.reasonsInclude = codes(value, key, reader: &reader)
                eventOnly.append(pair)
            case "retry_in":
                eventOnly.append(pair)
                if let scalar = value.scalar, scalar.isNull {
                    expectation.retryIn = .some(nil)
                } else if let scalar = value.scalar, ["none", "never", "nil", "\"null\"", "'null'"].contains(scalar.style == .plain ? scalar.value.lowercased() : "\"\(scalar.value.lowercased())\"") {
                    // "No retry time" written another way: null is what says it.
                    reader.report(.retryInWordForNull(scalar, file: reader.file, range: value.range))
                } else if let duration = reader.duration(value, key) {
                    expectation.retryIn = .some(duration.value)
                }
            default: break
            }
        }
        let location = reader.location(node)
        if present.contains("after") && present.contains("at") {
            reader.report(.afterAndAt(file: reader.file, at: node.range.start))
            return nil
        }
        if present.contains("event") && present.contains("ask") {
            reader.report(.eventAndAsk(file: reader.file, at: node.range.start))
            return nil
        }
        if let eventName {
            for pair in eventOnly {
                reader.report(.askKeyOnEvent(pair.key.scalar?.value ?? "", file: reader.file, range: pair.key.range))
            }
            let needsPlacement = AdEvent.placementEvents.contains(eventName.value)
            // A key the event does not take would be ignored: a test that seems to say more than it does.
            for pair in pairs {
                guard let key = pair.key.scalar?.value else { continue }
                if (key == "placement" && !needsPlacement) || (key == "source" && !AdEvent.sourceEvents.contains(eventName.value)) {
                    reader.report(.keyNotTakenByEvent(key, event: eventName.value, file: reader.file, range: pair.key.range))
                }
            }
            if needsPlacement && placement == nil {
                // A placement that is there but unreadable has had its own error.
                guard !present.contains("placement") else { return nil }
                reader.report(.missingKey("placement", in: "event \(eventName.value)", example: "placement: app_open", file: reader.file, range: SourceRange(at: node.range.start)))
                return nil
            }
            // The engine ignores an event about a placement the policy does not have. The step runs as written (the
            // asks after it are `unknown_placement`); a typo is named, so that the asks it makes fail are explained.
            if let placement, policy.placement(placement) == nil, let pair = pairs.first(where: { $0.key.scalar?.value == "placement" }),
                !reader.isSuppressed("scenario/unknown-placement", at: pair.value.range)
            {
                reader.report(.unknownStepPlacement(placement, event: eventName.value, hint: reader.unknownPlacementHint(placement, policy: policy), file: reader.file, range: pair.value.range))
            }
            guard let event = AdEvent(name: eventName.value, placement: placement, source: source) else { return nil }
            return ScenarioStep(location: location, after: after, at: at, action: .event(event))
        }
        if let askKind {
            if let pair = pairs.first(where: { $0.key.scalar?.value == "source" }) {
                reader.report(.keyNotTakenByEvent("source", event: nil, file: reader.file, range: pair.key.range))
            }
            guard let placement else {
                guard !present.contains("placement") else { return nil }
                reader.report(.missingKey("placement", in: "this ask", example: "placement: app_open", file: reader.file, range: SourceRange(at: node.range.start)))
                return nil
            }
            // An ask about a placement the policy does not have is denied `unknown_placement`, so a step that expects a
            // deny passes over a typo: it is named, unless the step checks for that reason (a test of it).
            let checksUnknown = expectation.reasons?.contains(.unknownPlacement) == true || expectation.reasonsInclude?.contains(.unknownPlacement) == true
            if policy.placement(placement) == nil, !checksUnknown, let pair = pairs.first(where: { $0.key.scalar?.value == "placement" }),
                !reader.isSuppressed("scenario/unknown-placement", at: pair.value.range)
            {
                reader.report(.unknownAskPlacement(placement, ask: askKind.value.rawValue, hint: reader.unknownPlacementHint(placement, policy: policy), file: reader.file, range: pair.value.range))
            }
            var resolvedTrigger = trigger
            if askKind.value == .show && resolvedTrigger == nil {
                resolvedTrigger = policy.placement(placement)?.format.value == .appOpen ? .resume : .action
            }
            if askKind.value != .show && trigger != nil && !(askKind.value == .offer && trigger == .action),
                let pair = pairs.first(where: { $0.key.scalar?.value == "trigger" })
            {
                reader.report(.triggerOutsideShow(ask: askKind.value, file: reader.file, range: pair.key.range))
            }
            return ScenarioStep(location: location, after: after, at: at, action: .ask(Ask(askKind.value, placement: placement, trigger: askKind.value == .show ? resolvedTrigger : nil), context: context, expectation: expectation))
        }
        if !present.contains("event") && !present.contains("ask") {
            reader.report(.missingKey("event or ask", in: "this step", example: "event: app_launched", file: reader.file, range: SourceRange(at: node.range.start)))
        }
        return nil
    }
}

extension FieldReader {
    /// "Did you mean" for a placement a scenario names and the policy does not have, searched once for each name (a
    /// step copied by aliases names it again at the same place), and not past a report's worth of findings, which
    /// are only counted.
    mutating func unknownPlacementHint(_ id: String, policy: Policy) -> String? {
        if let hint = placementHints[id] { return hint }
        guard hasRoom else { return nil }
        let hint = Diagnostic.unknownPlacementHint(id, known: policy.placementIDs)
        placementHints[id] = hint
        return hint
    }
}
