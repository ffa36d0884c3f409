import AdRules
import AdRulesYAML
import Foundation

extension ScenarioDecoder {
    /// - Parameter declared: the type of each attribute the policy declares, by name (found once per file).
    /// - Parameter strayStepsBelow: the steps written just below the test at the level of the tests: an empty `steps:`
    ///   is told they are its own.
    static func decodeTest(_ node: YAMLNode, strayStepsBelow: ArraySlice<YAMLNode>? = nil, policy: Policy, declared: [String: ValueType], reader: inout FieldReader) -> ScenarioTest? {
        guard let pairs = reader.mapping(node, "a test") else { return nil }
        let before = reader.diagnostics.count
        var name: String?
        var start: (ms: Int64, offset: Int)?
        var zone = TimeZone(identifier: "UTC") ?? TimeZone.current
        var zoneIsWritten = false
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
                    // A plain `on` is a label here too, and a string field's warning (a YAML 1.1 tool reads true).
                    if FieldReader.isAmbiguousBool(scalar) {
                        reader.report(.ambiguousBoolInString(key, value: scalar.value, file: reader.file, range: value.range))
                    }
                    name = reader.checkedText(scalar.value, key, value)
                } else {
                    name = reader.string(value, key, required: true)?.value
                }
                // A name with no words prints a bare `PASS ` line that says nothing.
                if let text = name, text.allSatisfy(\.isWhitespace) {
                    reader.report(.wrongType("name", expected: "a sentence saying what the test checks", found: value, file: reader.file))
                    name = nil
                }
            case "start": start = time(value, key, reader: &reader)
            case "device_timezone":
                if let text = reader.string(value, key, quotingHelps: false) {
                    if let named = TimeZoneNames.zone(named: text.value) {
                        zone = named
                        zoneIsWritten = true
                    } else {
                        reader.report(.unknownTimeZone(text.value, file: reader.file, range: value.range, deviceAllowed: false))
                    }
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
                        let present = GluedKey.keysMeant(entry, allowed: ScenarioKeys.history, relocation: { ScenarioKeys.relocation(of: $0, in: .history) })
                        let missing: [String] = ["placement", "at"].filter { !present.contains($0) }
                        if !missing.isEmpty {
                            reader.report(.missingKey(missing.joined(separator: " and "), in: "a history entry", example: "{placement: \(examplePlacement(policy)), at: 2026-11-29T08:58:00Z}", file: reader.file, range: item.range))
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
        // A key misspelt (`starts:`, "did you mean") is told once, there: the test is not also told it lacks the key.
        let present = GluedKey.keysMeant(pairs, allowed: ScenarioKeys.test, relocation: { ScenarioKeys.relocation(of: $0, in: .test) })
        if !present.contains("name") {
            reader.report(.missingKey("name", in: "this test", example: "name: a cold start shows the first ad", file: reader.file, range: SourceRange(at: node.range.start)))
        }
        if !present.contains("start") {
            reader.report(.missingKey("start", in: "this test", example: "start: 2026-11-29T09:00:00Z", file: reader.file, range: SourceRange(at: node.range.start)))
        }
        // A test with no steps checks nothing and would always pass.
        let stepsExample = "steps: [{event: app_launched}, {ask: show, placement: \(examplePlacement(policy)), expect: allow}]"
        if let stepsNode, stepsNode.scalar?.isNull == true || stepsNode.items?.isEmpty == true, let strays = strayStepsBelow {
            reader.report(.stepsAtTestLevel(strays, testAbove: true, emptySteps: stepsNode, file: reader.file))
        } else if let stepsNode, let items = reader.sequence(stepsNode, "steps") {
            if items.isEmpty {
                reader.report(.missingKey("steps", in: "this test", example: stepsExample, listing: "its steps", file: reader.file, range: stepsNode.range))
            }
            // The clock of the steps read so far: a step past the last time RFC 3339 can write would print as no
            // reader (this one included) can read it back.
            var clock = start?.ms
            let nearby = Self.nearbyPlacements(items, policy: policy)
            for (i, item) in items.enumerated() {
                guard let step = decodeStep(item, testContext: context, policy: policy, declared: declared, nearby: nearby[i], reader: &reader) else { continue }
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
        } else if stepsNode == nil, !present.contains("steps") {
            reader.report(.missingKey("steps", in: "this test", example: stepsExample, listing: "its steps", file: reader.file, range: SourceRange(at: node.range.start)))
        }
        guard reader.diagnostics.count == before || !reader.diagnostics[before...].contains(where: { $0.severity == .error }),
            let name, let start
        else { return nil }
        return ScenarioTest(
            name: name, location: reader.location(node), start: start.ms, displayOffset: start.offset, deviceTimeZone: zone,
            deviceTimeZoneIsWritten: zoneIsWritten, installed: installed ?? start.ms, sessionsBefore: sessionsBefore, history: history, context: context, steps: steps)
    }

    /// For each step, the placement of the policy that the nearest step naming one names (before it, else after it):
    /// what a step naming none is told to name. Read in two passes, not searched for at each step: a file of 500,000
    /// steps naming none made that search quadratic.
    static func nearbyPlacements(_ items: [YAMLNode], policy: Policy) -> [String?] {
        let named = items.map { item in
            item.pairs?.first { $0.key.scalar?.value == "placement" }?.value.scalar.flatMap { policy.placement($0.value)?.id }
        }
        var nearby = [String?](repeating: nil, count: named.count)
        var last: String?
        for i in named.indices {
            nearby[i] = last
            if let id = named[i] { last = id }
        }
        var next: String?
        for i in named.indices.reversed() {
            if nearby[i] == nil { nearby[i] = next }
            if let id = named[i] { next = id }
        }
        return nearby
    }
}
