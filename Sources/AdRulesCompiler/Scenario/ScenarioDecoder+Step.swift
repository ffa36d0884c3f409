import AdRules
import AdRulesYAML

extension ScenarioDecoder {
    /// A placement id for the example of a step or history entry that names none: the policy's first (an example
    /// the policy does not have would be a second mistake), else app_open.
    static func examplePlacement(_ policy: Policy) -> String { policy.placementIDs.first ?? "app_open" }

    /// A placement of the policy that fits what a step does, to name where the step lacks one: a rewarded one for a
    /// choice, a reward or an offer, an app-open one for a show on a return or a completed load, another for an action
    /// or its show; else the policy's first. (Its first for every step named a placement that could only fail there,
    /// an app-open ad to reward.)
    /// - Parameter nearby: the placement the nearest step of the test names, which fits better than any other when it
    ///   fits at all (a `load_completed` among steps about `level_end` is about `level_end`).
    static func examplePlacement(
        _ policy: Policy, event: String? = nil, ask: AskKind? = nil, trigger: ShowTrigger? = nil, nearby: String? = nil
    ) -> String {
        let near = nearby.flatMap { policy.placement($0) }
        let rewarded: Set<AdFormat> = [.rewarded, .rewardedInterstitial]
        // The formats that fit, the likeliest first: an action's show is an interstitial's more often than a rewarded one's.
        let fitting: [(AdFormat) -> Bool]
        let actionShows: [(AdFormat) -> Bool] = [{ $0 != .appOpen && !rewarded.contains($0) }, { $0 != .appOpen }]
        switch (event, ask) {
        case ("user_chose", _), ("reward_earned", _), ("reward_granted", _), (_, .reward?), (_, .offer?): fitting = [rewarded.contains]
        case (_, .show?) where trigger == .resume || trigger == .loadCompleted: fitting = [{ $0 == .appOpen }]
        case ("action", _): fitting = actionShows
        case (_, .show?) where trigger == .action: fitting = actionShows
        default: return near?.id ?? examplePlacement(policy)
        }
        if let near, fitting.contains(where: { $0(near.format.value) }) { return near.id }
        for fits in fitting {
            if let placement = policy.placements.first(where: { fits($0.format.value) }) { return placement.id }
        }
        return examplePlacement(policy)
    }

    private static func codes(_ node: YAMLNode, _ key: String, policy: Policy, reader: inout FieldReader) -> Set<ReasonCode>? {
        guard let items = reader.sequence(node, key, ofWords: true) else { return nil }
        var set = Set<ReasonCode>()
        for item in items {
            if let code = reader.enumeration(item, "a reason code", as: ReasonCode.self, advice: { codeAdvice($0, key: key, policy: policy) }) { set.insert(code.value) }
        }
        return set
    }

    /// What to write for a reason written as a custom rule's id (its reason is `custom_rule`), or as two codes with no
    /// comma between them (`[deferred_show ad_not_ready]` is one item).
    private static func codeAdvice(_ written: String, key: String, policy: Policy) -> String? {
        if policy.rules.contains(where: { $0.id == written }) {
            return "a custom rule denies with the code custom_rule (its message names the rule \(written)): write custom_rule"
        }
        let words = written.split(separator: " ")
        guard words.count > 1, words.allSatisfy({ ReasonCode(rawValue: String($0)) != nil }) else { return nil }
        return "the items of a list are separated by commas: write \(key): [\(words.joined(separator: ", "))]"
    }

    /// - Parameter nearby: the placement the nearest step of the test names, for the example of a step that names none.
    static func decodeStep(
        _ node: YAMLNode, testContext: AskContext, policy: Policy, declared: [String: ValueType], nearby: String? = nil, reader: inout FieldReader
    ) -> ScenarioStep? {
        if isBareStepName(node, policy: policy, reader: &reader) { return nil }
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
        // The keys only an ask takes, as written: each is reported on an event step.
        var askKeys: [YAMLPair] = []
        // Whether the step asks, for the advice about a key that belongs elsewhere: only an ask takes a context.
        let block: ScenarioKeys.Block = pairs.contains { $0.key.scalar?.value == "ask" } ? .askStep : .eventStep
        // The keys the step is written with (a glued `ask:offer` counted as `ask`): read once, for the advice below.
        let present = GluedKey.keysMeant(pairs, allowed: ScenarioKeys.step, relocation: { ScenarioKeys.relocation(of: $0, in: block) })
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
                if let name = reader.string(value, key, required: true) {
                    if AdEvent.names.contains(name.value) {
                        eventName = name
                    } else {
                        reader.report(.unknownEnum(
                            "event", value: name.value, allowed: AdEvent.names, advice: unknownEventAdvice(name.value, present: present, policy: policy),
                            file: reader.file, range: value.range))
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
                // The advice fits the placement a show asks about: an interstitial's show is never a launch's. A step
                // that is no show takes no trigger at all, and is told so below.
                func text(of key: String) -> String? { pairs.first { $0.key.scalar?.value == key }?.value.scalar?.value }
                let asksShow = text(of: "ask") == "show"
                let asked = asksShow ? text(of: "placement").flatMap(policy.placement) : nil
                trigger = reader.enumeration(value, key, as: ShowTrigger.self, advice: { asksShow ? ScenarioKeys.triggerAdvice($0, for: asked) : nil })?.value
                askKeys.append(pair)
            case "context":
                context = decodeContext(value, base: testContext, owner: .askContext, policy: policy, declared: declared, reader: &reader)
                askKeys.append(pair)
            case "expect":
                expectation.verdict = reader.enumeration(value, key, as: Decision.Verdict.self)?.value
                askKeys.append(pair)
            case "reasons":
                expectation.reasons = codes(value, key, policy: policy, reader: &reader)
                askKeys.append(pair)
            case "reasons_include":
                expectation.reasonsInclude = codes(value, key, policy: policy, reader: &reader)
                askKeys.append(pair)
            case "retry_in":
                askKeys.append(pair)
                if let scalar = value.scalar, scalar.isNull {
                    expectation.retryIn = .some(nil)
                } else if let scalar = value.scalar, ["none", "never", "nil", "\"null\"", "'null'"].contains(scalar.style == .plain ? scalar.value.lowercased() : "\"\(scalar.value.lowercased())\"") {
                    // "No retry time" written another way: null is what says it.
                    reader.report(.retryInWordForNull(scalar, file: reader.file, range: value.range))
                } else if let scalar = value.scalar, Timestamps.parse(scalar.value) != nil {
                    reader.report(.retryInAsTime(scalar, file: reader.file, range: value.range))
                } else if let duration = reader.duration(value, key) {
                    expectation.retryIn = .some(duration.value)
                }
            default: break
            }
        }
        if present.contains("after") && present.contains("at") {
            reader.report(.afterAndAt(file: reader.file, at: node.range.start))
            return nil
        }
        if present.contains("event") && present.contains("ask") {
            reader.report(.eventAndAsk(file: reader.file, at: node.range.start))
            return nil
        }
        if let eventName {
            return eventStep(
                eventName, placement: placement, source: source, askKeys: askKeys, pairs: pairs, present: present, node: node, after: after, at: at,
                policy: policy, nearby: nearby, reader: &reader)
        }
        if let askKind {
            return askStep(
                askKind, placement: placement, trigger: trigger, context: context, expectation: expectation, pairs: pairs, present: present, node: node,
                after: after, at: at, policy: policy, nearby: nearby, reader: &reader)
        }
        if !present.contains("event") && !present.contains("ask") {
            reader.report(.missingKey("event or ask", in: "this step", example: "event: app_launched", file: reader.file, range: SourceRange(at: node.range.start)))
        }
        return nil
    }

    /// `- app_resumed` or `- event app_resumed`: an event or ask written without its key, or without the colon after it.
    /// Reported with the step to write; true when it is one.
    private static func isBareStepName(_ node: YAMLNode, policy: Policy, reader: inout FieldReader) -> Bool {
        if let scalar = node.scalar, scalar.style == .plain {
            let words = scalar.value.split(separator: " ")
            let name = words.count == 2 && (words[0] == "event" || words[0] == "ask") ? String(words[1]) : words.count == 1 ? scalar.value : nil
            if let name, AdEvent.names.contains(name) || AskKind(rawValue: name) != nil {
                let ask = AskKind(rawValue: name)
                let step: String
                if let ask {
                    step = "{ask: \(name), placement: \(examplePlacement(policy, ask: ask)), expect: allow}"
                } else if AdEvent.placementEvents.contains(name) {
                    step = "{event: \(name), placement: \(examplePlacement(policy, event: name))}"
                } else {
                    step = "event: \(name)"
                }
                reader.report(.wrongType("a step", expected: "a mapping of keys to values", found: node, file: reader.file, advice: "write - \(step)"))
                return true
            }
        }
        return false
    }

    /// What to write for an `event:` that names no event: the ask of that name, the event an ad SDK's callback of that
    /// name is, or the event to record about a placement or format named there.
    private static func unknownEventAdvice(_ name: String, present: Set<String>, policy: Policy) -> String? {
                // `event: show` is an ask the app makes, not an event it records.
                // An ask may also be the event of that name's moment (`event: reward` for the network's reward callback).
                let ask = present.contains("ask") ? nil : AskKind(rawValue: name).map { kind in
                    let events = ["show": "show_started", "load": "load_started", "reward": "reward_earned (or reward_granted)"][kind.rawValue]
                    return "\(kind.rawValue) is an ask, not an event: write ask: \(kind.rawValue), with expect: allow or deny"
                        + (events.map { "; or, to record that it happened, event: \($0)" } ?? "")
                }
                let synonym = ScenarioKeys.eventSynonyms[name.lowercased()].map { "an ad SDK's \(name) callback is the event \($0): write event: \($0)" }
                // `event: app_open`: a placement (or a format) named where its event belongs.
                var placementAdvice: String?
                if present.contains("placement") {
                    placementAdvice = nil
                } else if policy.placement(name) != nil {
                    placementAdvice = "\(name) is a placement, not an event: write the event with it, as in {event: show_started, placement: \(name)}"
                } else if let format = AdFormat(rawValue: name) {
                    let placement = policy.placements.first { $0.format.value == format }?.id ?? examplePlacement(policy)
                    placementAdvice = "\(name) is an ad format, not an event: write the event with a placement, as in {event: show_started, placement: \(placement)}"
                }
        return ask ?? synonym ?? placementAdvice
    }

    /// An event step, once its keys are read: the keys only an ask takes, and those this event does not, are reported.
    /// - Parameter askKeys: the pairs of keys only an ask takes.
    private static func eventStep(
        _ eventName: Located<String>, placement: String?, source: String?, askKeys: [YAMLPair], pairs: [YAMLPair], present: Set<String>, node: YAMLNode,
        after: Int64, at: Int64?, policy: Policy, nearby: String?, reader: inout FieldReader
    ) -> ScenarioStep? {
        for pair in askKeys {
            reader.report(.askKeyOnEvent(pair.key.scalar?.value ?? "", file: reader.file, range: pair.key.range))
        }
        let needsPlacement = AdEvent.placementEvents.contains(eventName.value)
        // A key the event does not take would be ignored: a test that seems to say more than it does.
        for pair in pairs {
            guard let key = pair.key.scalar?.value else { continue }
            if (key == "placement" && !needsPlacement) || (key == "source" && !AdEvent.sourceEvents.contains(eventName.value)) {
                let value = pair.value.scalar?.value
                reader.report(.keyNotTakenByEvent(
                    key, event: eventName.value, value: value, isPolicyPlacement: value.flatMap { policy.placement($0) } != nil, file: reader.file,
                    range: pair.key.range))
            }
        }
        if needsPlacement && placement == nil {
            // A placement that is there but unreadable has had its own error.
            guard !present.contains("placement") else { return nil }
            let example = examplePlacement(policy, event: eventName.value, nearby: nearby)
            reader.report(.missingKey("placement", in: "event \(eventName.value)", example: "placement: \(example)", file: reader.file, range: SourceRange(at: node.range.start)))
            return nil
        }
        // The engine ignores an event about a placement the policy does not have. The step runs as written (the
        // asks after it are `unknown_placement`); a typo is named, so that the asks it makes fail are explained.
        if needsPlacement, let placement, policy.placement(placement) == nil, let pair = pairs.first(where: { $0.key.scalar?.value == "placement" }),
            !reader.isSuppressed("scenario/unknown-placement", at: pair.value.range)
        {
            reader.report(.unknownStepPlacement(placement, event: eventName.value, hint: reader.unknownPlacementHint(placement, policy: policy), file: reader.file, range: pair.value.range))
        }
        guard let event = AdEvent(name: eventName.value, placement: placement, source: source) else { return nil }
        return ScenarioStep(location: reader.location(node), after: after, at: at, action: .event(event))
    }

    /// An ask step, once its keys are read: its placement named, its trigger what the ask takes.
    private static func askStep(
        _ askKind: Located<AskKind>, placement: String?, trigger: ShowTrigger?, context: AskContext?, expectation: Expectation, pairs: [YAMLPair],
        present: Set<String>, node: YAMLNode, after: Int64, at: Int64?, policy: Policy, nearby: String?, reader: inout FieldReader
    ) -> ScenarioStep? {
        if let pair = pairs.first(where: { $0.key.scalar?.value == "source" }) {
            reader.report(.keyNotTakenByEvent("source", event: nil, file: reader.file, range: pair.key.range))
        }
        guard let placement else {
            guard !present.contains("placement") else { return nil }
            let example = examplePlacement(policy, ask: askKind.value, trigger: trigger, nearby: nearby)
            reader.report(.missingKey("placement", in: "this ask", example: "placement: \(example)", file: reader.file, range: SourceRange(at: node.range.start)))
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
        var step = ScenarioStep(
            location: reader.location(node), after: after, at: at,
            action: .ask(Ask(askKind.value, placement: placement, trigger: askKind.value == .show ? resolvedTrigger : nil), context: context, expectation: expectation))
        step.triggerDefaulted = askKind.value == .show && trigger == nil
        return step
    }
}
