import Foundation

/// The reasons of `show` and `offer` asks: switches, triggers, screen, grace, choice, readiness.
extension Run {
    // MARK: show and offer

    func showReasons(
        _ policy: PolicyStorage, trigger: ShowTrigger, context: AskContext, isOffer: Bool, _ facts: borrowing Facts, zone: TimeZone,
        _ found: inout Findings
    ) {
        let t = policy.placementLimits[index]
        if !t.enabled { deny(.placementDisabled, .disabled, at: .enabled, &found) }
        if t.excludePremium && context.premium { deny(.premiumUser, .premiumShow, at: .excludePremium, &found) }
        if !policy.rulesOfPlacement.isEmpty(of: index) { customRuleReasons(policy, context: context, facts, zone: zone, &found) }
        let isAppOpen = t.format == .appOpen
        let supported = isAppOpen ? trigger != .action : trigger == .action
        if !supported {
            var site = site(.triggerNotSupported, at: .format)
            site.trigger = trigger
            deny(.triggerNotSupported, site, &found)
        }
        if isAppOpen && supported {
            if trigger == .resume && !t.showIfReady {
                deny(.triggerDisabled, .resumeShowsOff, at: .showIfReady, &found)
            } else if trigger == .resume && !t.allowDeferred, let late = lateResume(t, facts) {
                // A show past the window points at the window; any other late show at what would allow it.
                deny(.deferredShow, late, at: late == .pastResumeDelay ? .resumeMaxDelay : .allowDeferred, &found)
            }
            if trigger == .loadCompleted {
                let phase = launchPhase(policy, t, facts)
                if phase == .open && !t.showOnFirstLoad {
                    deny(.triggerDisabled, .coldStartOff, at: .showOnFirstLoad, &found)
                } else if phase == .pastMaxWait && !t.allowDeferred {
                    // A launch phase that ran out points at the wait, as a show past the resume window does.
                    deny(.deferredShow, .pastLaunchWait, at: .launchMaxWait, &found)
                } else if phase == .closed && !t.allowDeferred {
                    deny(.deferredShow, .afterLaunchPhase, at: .allowDeferred, &found)
                } else if phase == .none && !t.allowDeferred {
                    deny(.deferredShow, .noLaunch, at: .allowDeferred, &found)
                }
            }
        }
        screenReasons(policy, blockOthers: t.blockDuringFullscreen, facts, &found)
        graceReasons(t, facts, &found)
        if !isOffer {
            if t.requireUserChoice && !facts.placements[index].userChose {
                deny(.noUserChoice, .noUserChoice, at: .requireUserChoice, &found)
            }
            if trigger == .action, t.everyNActions > 0, facts.placements[index].actions < t.everyNActions {
                deny(.everyNActions, .everyNActions, at: .everyNActions, &found)
            }
        }
        if let loaded = facts.placements[index].loadedAt {
            if facts.placements[index].adRanOut || now - seen(loaded) > t.maxAdAge { deny(.adExpired, .expired, at: .maxAdAge, &found) }
        } else {
            deny(.adNotReady, .notReady, at: .placement, &found)
        }
        pacingReasons(policy, t, facts, zone: zone, &found)
    }

    /// Custom rules, read from the policy's flat rule program, in rule order.
    @inline(__always)
    func customRuleReasons(
        _ policy: PolicyStorage, context: AskContext, _ facts: borrowing Facts, zone: TimeZone, _ found: inout Findings
    ) {
        var inputs = RuleInputs(
            premium: context.premium, sessionCount: Int64(facts.sessionCount),
            sessionAge: facts.sessionActive ? max(0, now.subtractingSaturated(seen(facts.sessionStart))) : 0,
            installAge: max(0, now.subtractingSaturated(seen(facts.installedAt))), nowHour: 0, nowWeekday: 0)
        if policy.rulesReadClock[index] {
            let local = now + localOffset(policy, facts, zone: zone)
            let days = local >= 0 ? local / 86_400_000 : (local - 86_399_999) / 86_400_000
            inputs.nowHour = (local - days * 86_400_000) / 3_600_000
            // 1970-01-01 was a Thursday.
            inputs.nowWeekday = Int(((days % 7) + 7) % 7)
        }
        // The placement's own rules and the rules for every placement, in rule order.
        let first = found.denials.count
        var failed = false
        var walk = policy.rulesOfPlacement.walk(of: index)
        while let r = policy.rulesOfPlacement.next(&walk) {
            switch policy.ruleProgram.holds(rule: r, inputs, context) {
            case true?:
                var site = site(.customRule, at: .rule)
                site.rule = r
                deny(.customRule, site, &found)
            case false?:
                break
            case nil:
                ruleError(policy, rule: r, context: context, &found)
                failed = true
            }
        }
        // The table's order (rules.md §7): every `custom_rule`, then every `rule_error`, each in rule order.
        if failed { found.sortRuleErrorsLast(from: first) }
    }

    /// A rule that cannot be evaluated denies, naming the attributes it reads that have no value and no default, and
    /// those the app gave a value of another type or one no rule can compare.
    func ruleError(_ policy: PolicyStorage, rule r: Int, context: AskContext, _ found: inout Findings) {
        var site = site(.ruleError, at: .ruleCondition)
        site.rule = r
        var problems: [String] = []
        let missing = policy.attributesWithoutDefault[r].filter { context.attributes[$0] == nil }
        if !missing.isEmpty { problems.append("no value for " + missing.joined(separator: ", ")) }
        for (name, type) in policy.attributesRead[r] {
            guard let value = context.attributes[name] else { continue }
            // (Found once, when the context's attributes were set: only the reason's text is built here.)
            if context.unusable.contains(name), let why = value.unusableBecause {
                problems.append("\(name) \(why)")
            } else if value.type != type && !(type == .number && value.type == .int) {
                problems.append("\(name) has type \(value.type.rawValue), where \(type.rawValue) is declared")
            }
        }
        if !problems.isEmpty { site.detail = found.detail(problems.joined(separator: "; ")) }
        deny(.ruleError, site, &found)
    }

    /// The zone's offset from UTC at now, in ms: the one cached with the facts' day while it holds, else asked of
    /// the zone.
    func localOffset(_ policy: PolicyStorage, _ facts: borrowing Facts, zone: TimeZone) -> Int64 {
        if let day = facts.day, now >= day.offsetFrom, now < day.offsetUntil, isInZone(day, policy, zone: zone) {
            return day.offset
        }
        return Int64(Run.timeZone(policy, device: zone).secondsFromGMT(for: Milliseconds.date(now))) * 1000
    }

    /// The zone caps and rules count in: the policy's own, or the device's when it says `timezone: device`.
    static func timeZone(_ policy: PolicyStorage, device: TimeZone) -> TimeZone {
        if case .named(let zone) = policy.timeZone { return zone }
        return device
    }

    /// Why a `resume` show would be late, or nil when it answers the return: the engine knows from the events
    /// when the app came back, and never takes the trigger on trust (rules.md §6, resume window).
    @inline(__always)
    func lateResume(_ t: PlacementLimits, _ facts: borrowing Facts) -> ReasonSite.Text? {
        guard let returned = facts.returnedAt else { return .noReturn }
        if facts.placements[index].shownSinceReturn { return .shownSinceReturn }
        if facts.placements[index].resumeRanOut || now - seen(returned) > t.resumeMaxDelay { return .pastResumeDelay }
        if let loaded = facts.placements[index].loadedAt, facts.placements[index].loadedAfterReturn || seen(loaded) > seen(returned) {
            return .loadedAfterReturn
        }
        return nil
    }

    /// The launch phase of the placement asked about: open, closed by `launch.max_wait` running out, or closed by an
    /// event (leaving, a failed load or show, a load that timed out).
    enum LaunchPhase {
        case open, pastMaxWait, closed
        /// No `app_launched` yet: no launch phase at all.
        case none
    }

    func launchPhase(_ policy: PolicyStorage, _ t: PlacementLimits, _ facts: borrowing Facts) -> LaunchPhase {
        guard let launched = facts.launchedAt else { return .none }
        guard facts.placements[index].launchOpen else { return .closed }
        if let loading = facts.placements[index].loadingSince, now - seen(loading) > policy.loadTimeoutMs { return .closed }
        if facts.placements[index].launchRanOut || (t.launchMaxWait >= 0 && now - seen(launched) > t.launchMaxWait) { return .pastMaxWait }
        return .open
    }

    /// Whether something reported on screen at `since` still counts, with `fullscreen_timeout` applied.
    func stillOnScreen(_ policy: PolicyStorage, since: Int64?) -> Bool? {
        guard let since else { return nil }
        return Facts.isWithinTimeout(since: since, now: now, timeoutMs: policy.fullscreenTimeoutMs)
    }

    func timedOutNote(_ policy: PolicyStorage, _ what: String, _ found: inout Findings) {
        found.notes.append("\(what) was reported on screen for more than \(policy.fullscreenTimeout.value) and is treated as closed (fullscreen_timeout)")
    }

    @inline(__always)
    func screenReasons(_ policy: PolicyStorage, blockOthers: Bool, _ facts: borrowing Facts, _ found: inout Findings) {
        if blockOthers {
            // The first placement on screen, else the first external source (by name).
            var other = -1
            var source: String?
            // The facts count the placements on screen: with none, there is none to look for.
            if facts.placementsShowing > 0 {
                for i in policy.fullscreenPlacements where i != index {
                    switch stillOnScreen(policy, since: facts.placements[i].showingSince) {
                    case true?: if other < 0 { other = i }
                    case false?: timedOutNote(policy, "placement \(policy.placements[i].id)", &found)
                    case nil: break
                    }
                }
            }
            if !facts.external.isEmpty { source = externalSourceOnScreen(policy, facts, &found) }
            if other >= 0 || source != nil {
                var site = site(.fullscreenActive, at: .blockDuringFullscreen)
                site.other = other
                if other < 0, let source { site.detail = found.detail(source) }
                deny(.fullscreenActive, site, &found)
            }
        }
        // Only a fullscreen ad is "already showing": a banner or native placement may show and preload freely.
        guard policy.placementLimits[index].format.isFullscreen else { return }
        switch stillOnScreen(policy, since: facts.placements[index].showingSince) {
        case true?: deny(.alreadyShowing, .alreadyShowing, at: .placement, &found)
        case false?: timedOutNote(policy, "placement \(policy.placements[index].id)", &found)
        case nil: break
        }
    }

    /// The first external source still on screen, by name; the others are noted as treated as closed.
    func externalSourceOnScreen(_ policy: PolicyStorage, _ facts: borrowing Facts, _ found: inout Findings) -> String? {
        // One source, the usual case, needs no sorting (and no array of them).
        if facts.external.count == 1, let (name, since) = facts.external.first {
            if stillOnScreen(policy, since: since) == true { return name }
            externalTimedOutNote(policy, name, &found)
            return nil
        }
        var source: String?
        for (name, since) in facts.external.sorted(by: { $0.key < $1.key }) {
            if stillOnScreen(policy, since: since) == true {
                if source == nil { source = name }
            } else {
                externalTimedOutNote(policy, name, &found)
            }
        }
        return source
    }

    func externalTimedOutNote(_ policy: PolicyStorage, _ name: String, _ found: inout Findings) {
        timedOutNote(policy, name.isEmpty ? "an external fullscreen ad" : "external fullscreen ad \(name)", &found)
    }

    @inline(__always)
    func graceReasons(_ t: PlacementLimits, _ facts: borrowing Facts, _ found: inout Findings) {
        if t.graceSessions > 0 && facts.sessionCount <= t.graceSessions {
            deny(.graceSessions, .graceSessions, at: .graceFirstSessions, &found)
        }
        if t.graceInstall > 0, now < seen(facts.installedAt).addingSaturated(t.graceInstall) {
            deny(.graceInstall, .graceInstall, at: .graceAfterInstall, clearsAt: seen(facts.installedAt).addingSaturated(t.graceInstall), &found)
        }
        if t.graceSessionStart > 0, facts.sessionActive, now < seen(facts.sessionStart).addingSaturated(t.graceSessionStart) {
            deny(.graceSessionStart, .graceSessionStart, at: .graceAfterSessionStart, clearsAt: seen(facts.sessionStart).addingSaturated(t.graceSessionStart), &found)
        }
    }
}
