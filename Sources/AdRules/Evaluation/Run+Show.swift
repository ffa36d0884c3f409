import Foundation

/// The reasons of `show` and `offer` asks: switches, triggers, screen, grace, choice, readiness.
extension Run {
    // MARK: show and offer

    mutating func showReasons(trigger: ShowTrigger, context: AskContext, isOffer: Bool, _ facts: borrowing Facts) {
        let t = policy.placementLimits[index]
        if !t.enabled { deny(.placementDisabled, message(.disabled), at: policy.placements[index].enabled.location) }
        if t.excludePremium && context.premium {
            deny(.premiumUser, message(.premiumShow), at: policy.placements[index].excludePremium.location)
        }
        let rules = policy.rulesOfPlacement[index]
        if !rules.isEmpty { customRuleReasons(rules, context: context, facts) }
        let isAppOpen = t.format == .appOpen
        let supported = isAppOpen ? trigger != .action : trigger == .action
        if !supported {
            let fits = isAppOpen ? "resume or load_completed" : "action"
            deny(.triggerNotSupported, "trigger \(trigger.rawValue) does not fit a \(t.format.rawValue) placement (use \(fits))", at: policy.placements[index].format.location)
        }
        if isAppOpen && supported {
            if trigger == .resume && !t.showIfReady {
                deny(.triggerDisabled, "shows on resume are off (resume.show_if_ready: false)", at: policy.placements[index].showIfReady.location)
            } else if trigger == .resume && !t.allowDeferred, let late = lateResume(t, facts) {
                deny(.deferredShow, late, at: policy.placements[index].resumeMaxDelay.location)
            }
            if trigger == .loadCompleted {
                let inLaunch = launchPhaseOpen(t, facts)
                if inLaunch && !t.showOnFirstLoad {
                    deny(.triggerDisabled, "the cold-start show is off (launch.show_on_first_load: false)", at: policy.placements[index].showOnFirstLoad.location)
                } else if !inLaunch && !t.allowDeferred {
                    deny(.deferredShow, "the load completed outside the launch phase; a late show would interrupt the user (resume.allow_deferred: false)", at: policy.placements[index].allowDeferred.location)
                }
            }
        }
        screenReasons(blockOthers: t.blockDuringFullscreen, facts)
        graceReasons(t, facts)
        if !isOffer {
            if t.requireUserChoice && !facts.placements[index].userChose {
                deny(.noUserChoice, message(.noUserChoice), at: policy.placements[index].requireUserChoice.location)
            }
            if trigger == .action, t.everyNActions > 0, facts.placements[index].actions < t.everyNActions {
                deny(.everyNActions, message(.everyNActions), at: policy.placements[index].everyNActions?.location)
            }
        }
        if let loaded = facts.placements[index].loadedAt {
            let age = now - seen(loaded)
            if age > t.maxAdAge {
                deny(.adExpired, message(.expired), at: policy.placements[index].maxAdAge.location)
            }
        } else {
            deny(.adNotReady, message(.notReady), at: policy.placements[index].location)
        }
        pacingReasons(t, facts)
    }

    mutating func customRuleReasons(_ indices: [Int], context: AskContext, _ facts: borrowing Facts) {
        var inputs = RuleInputs(
            premium: context.premium, sessionCount: Int64(facts.sessionCount),
            sessionAge: facts.sessionActive ? max(0, now.subtractingSaturated(seen(facts.sessionStart))) : 0,
            installAge: max(0, now.subtractingSaturated(seen(facts.installedAt))), nowHour: 0, nowWeekday: "",
            attributes: context.attributes)
        if policy.rulesReadClock[index] {
            let local = now + Int64(timeZone.secondsFromGMT(for: Milliseconds.date(now))) * 1000
            let days = local >= 0 ? local / 86_400_000 : (local - 86_399_999) / 86_400_000
            inputs.nowHour = (local - days * 86_400_000) / 3_600_000
            // 1970-01-01 was a Thursday.
            inputs.nowWeekday = Run.weekdays[Int(((days % 7) + 7) % 7)]
        }
        for r in indices {
            // The condition comes from a flat table; the rule itself is read only to build a deny.
            guard let condition = policy.ruleConditions[r] else { continue }
            switch condition.evaluate(inputs) {
            case .bool(true)?:
                let rule = policy.rules[r]
                deny(.customRule, "\(rule.message) (rule \(rule.id))", at: rule.location, rule: rule.id)
            case .bool(false)?:
                break
            default:
                let rule = policy.rules[r]
                let missing = policy.attributes.filter { context.attributes[$0.name] == nil && $0.defaultValue == nil }.map(\.name)
                let detail = missing.isEmpty ? "" : ": no value for \(missing.joined(separator: ", "))"
                deny(.ruleError, "rule \(rule.id) cannot be evaluated\(detail); denied to be safe", at: rule.when.location, rule: rule.id)
            }
        }
    }

    var timeZone: TimeZone {
        if case .named(let zone) = policy.timeZone { return zone }
        return zone
    }

    /// Why a `resume` show would be late, or nil when it answers the return: the engine knows from the events
    /// when the app came back, and never takes the trigger on trust (rules.md §6, resume window).
    func lateResume(_ t: PlacementLimits, _ facts: borrowing Facts) -> String? {
        guard let returned = facts.returnedAt else {
            return "no return from background to answer: a resume show comes only after app_backgrounded and app_resumed (resume.allow_deferred: false)"
        }
        if facts.placements[index].shownSinceReturn {
            return "\(policy.placements[index].id) was already shown since the return from background (resume.allow_deferred: false)"
        }
        if now - seen(returned) > t.resumeMaxDelay {
            return "more than resume.max_delay \(policy.placements[index].resumeMaxDelay.value) since the return from background: a late show would interrupt the user (resume.allow_deferred: false)"
        }
        if let loaded = facts.placements[index].loadedAt, seen(loaded) > seen(returned) {
            return "the ad finished loading after the return from background: a late show would interrupt the user (resume.allow_deferred: false)"
        }
        return nil
    }

    func launchPhaseOpen(_ t: PlacementLimits, _ facts: borrowing Facts) -> Bool {
        guard facts.placements[index].launchOpen, let launched = facts.launchedAt else { return false }
        if t.launchMaxWait >= 0, now - seen(launched) > t.launchMaxWait { return false }
        if let loading = facts.placements[index].loadingSince, now - seen(loading) > policy.loadTimeoutMs { return false }
        return true
    }

    /// Whether something reported on screen at `since` still counts, with `fullscreen_timeout` applied.
    func stillOnScreen(since: Int64?) -> Bool? {
        guard let since else { return nil }
        return now - seen(since) <= policy.fullscreenTimeoutMs
    }

    mutating func timedOutNote(_ what: String) {
        notes.append("\(what) was reported on screen for more than \(policy.fullscreenTimeout.value) and is treated as closed (fullscreen_timeout)")
    }

    mutating func screenReasons(blockOthers: Bool, _ facts: borrowing Facts) {
        if blockOthers {
            var other: String?
            for i in policy.fullscreenPlacements where i != index {
                switch stillOnScreen(since: facts.placements[i].showingSince) {
                case true?: other = other ?? "placement \(policy.placements[i].id)"
                case false?: timedOutNote("placement \(policy.placements[i].id)")
                case nil: break
                }
            }
            if !facts.external.isEmpty {
                for (source, since) in facts.external.sorted(by: { $0.key < $1.key }) {
                    let name = source.isEmpty ? "an external fullscreen ad" : "external fullscreen ad \(source)"
                    if stillOnScreen(since: since) == true { other = other ?? name } else { timedOutNote(name) }
                }
            }
            if let other {
                deny(.fullscreenActive, "\(other) is on screen (block_during_fullscreen)", at: policy.placements[index].blockDuringFullscreen.location)
            }
        }
        // Only a fullscreen ad is "already showing": a banner or native placement may show and preload freely.
        guard policy.placementLimits[index].format.isFullscreen else { return }
        switch stillOnScreen(since: facts.placements[index].showingSince) {
        case true?: deny(.alreadyShowing, message(.alreadyShowing), at: policy.placements[index].location)
        case false?: timedOutNote("placement \(policy.placements[index].id)")
        case nil: break
        }
    }

    mutating func graceReasons(_ t: PlacementLimits, _ facts: borrowing Facts) {
        if t.graceSessions > 0 && facts.sessionCount <= t.graceSessions {
            deny(.graceSessions, message(.graceSessions), at: policy.placements[index].graceFirstSessions.location)
        }
        if t.graceInstall > 0, now < seen(facts.installedAt).addingSaturated(t.graceInstall) {
            deny(.graceInstall, message(.graceInstall), at: policy.placements[index].graceAfterInstall.location, clearsAt: seen(facts.installedAt).addingSaturated(t.graceInstall))
        }
        if t.graceSessionStart > 0, facts.sessionActive, now < seen(facts.sessionStart).addingSaturated(t.graceSessionStart) {
            deny(.graceSessionStart, message(.graceSessionStart), at: policy.placements[index].graceAfterSessionStart.location, clearsAt: seen(facts.sessionStart).addingSaturated(t.graceSessionStart))
        }
    }

}
