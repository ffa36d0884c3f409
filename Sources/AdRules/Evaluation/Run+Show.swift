import Foundation

/// The reasons of `show` and `offer` asks: switches, triggers, screen, grace, choice, readiness.
extension Run {
    // MARK: show and offer

    mutating func showReasons(trigger: ShowTrigger, context: AskContext, isOffer: Bool) {
        let t = policy.placementLimits[index]
        if !t.enabled { deny(.placementDisabled, t.messages.disabled, at: box.value.enabled.location) }
        if t.excludePremium && context.premium {
            deny(.premiumUser, t.messages.premiumShow, at: box.value.excludePremium.location)
        }
        let rules = policy.rulesOfPlacement[index]
        if !rules.isEmpty { customRuleReasons(rules, context: context) }
        let isAppOpen = t.format == .appOpen
        let supported = isAppOpen ? trigger != .action : trigger == .action
        if !supported {
            let fits = isAppOpen ? "resume or load_completed" : "action"
            deny(.triggerNotSupported, "trigger \(trigger.rawValue) does not fit a \(t.format.rawValue) placement (use \(fits))", at: box.value.format.location)
        }
        if isAppOpen && supported {
            if trigger == .resume && !t.showIfReady {
                deny(.triggerDisabled, "shows on resume are off (resume.show_if_ready: false)", at: box.value.showIfReady.location)
            } else if trigger == .resume && !t.allowDeferred, let late = lateResume(t) {
                deny(.deferredShow, late, at: box.value.resumeMaxDelay.location)
            }
            if trigger == .loadCompleted {
                let inLaunch = launchPhaseOpen(t)
                if inLaunch && !t.showOnFirstLoad {
                    deny(.triggerDisabled, "the cold-start show is off (launch.show_on_first_load: false)", at: box.value.showOnFirstLoad.location)
                } else if !inLaunch && !t.allowDeferred {
                    deny(.deferredShow, "the load completed outside the launch phase; a late show would interrupt the user (resume.allow_deferred: false)", at: box.value.allowDeferred.location)
                }
            }
        }
        screenReasons(blockOthers: t.blockDuringFullscreen)
        graceReasons(t)
        if !isOffer {
            if t.requireUserChoice && !state.userChose {
                deny(.noUserChoice, t.messages.noUserChoice, at: box.value.requireUserChoice.location)
            }
            if trigger == .action, t.everyNActions > 0, state.actions < t.everyNActions {
                deny(.everyNActions, t.messages.everyNActions, at: box.value.everyNActions?.location)
            }
        }
        if let loaded = state.loadedAt {
            let age = now - seen(loaded)
            if age > t.maxAdAge {
                deny(.adExpired, t.messages.expired, at: box.value.maxAdAge.location)
            }
        } else {
            deny(.adNotReady, t.messages.notReady, at: box.value.location)
        }
        pacingReasons(t)
    }

    mutating func customRuleReasons(_ indices: [Int], context: AskContext) {
        var inputs = RuleInputs(
            premium: context.premium, sessionCount: Int64(factsPointer.pointee.sessionCount),
            sessionAge: factsPointer.pointee.sessionActive ? max(0, now.subtractingSaturated(seen(factsPointer.pointee.sessionStart))) : 0,
            installAge: max(0, now.subtractingSaturated(seen(factsPointer.pointee.installedAt))), nowHour: 0, nowWeekday: "",
            attributes: context.attributes)
        if policy.rulesReadClock[index] {
            let local = now + Int64(timeZone.secondsFromGMT(for: Milliseconds.date(now))) * 1000
            let days = local >= 0 ? local / 86_400_000 : (local - 86_399_999) / 86_400_000
            inputs.nowHour = (local - days * 86_400_000) / 3_600_000
            // 1970-01-01 was a Thursday.
            inputs.nowWeekday = Run.weekdays[Int(((days % 7) + 7) % 7)]
        }
        for r in indices {
            let rule = policy.ruleBoxes[r]
            guard let condition = rule.value.condition else { continue }
            switch condition.evaluate(inputs) {
            case .bool(true)?:
                deny(.customRule, "\(rule.value.message) (rule \(rule.value.id))", at: rule.value.location, rule: rule.value.id)
            case .bool(false)?:
                break
            default:
                let missing = policy.attributes.filter { context.attributes[$0.name] == nil && $0.defaultValue == nil }.map(\.name)
                let detail = missing.isEmpty ? "" : ": no value for \(missing.joined(separator: ", "))"
                deny(.ruleError, "rule \(rule.value.id) cannot be evaluated\(detail); denied to be safe", at: rule.value.when.location, rule: rule.value.id)
            }
        }
    }

    var timeZone: TimeZone {
        if case .named(let zone) = policy.timeZone { return zone }
        return zone
    }

    /// Why a `resume` show would be late, or nil when it answers the return: the engine knows from the events
    /// when the app came back, and never takes the trigger on trust (rules.md §6, resume window).
    func lateResume(_ t: Limits) -> String? {
        guard let returned = factsPointer.pointee.returnedAt else {
            return "no return from background to answer: a resume show comes only after app_backgrounded and app_resumed (resume.allow_deferred: false)"
        }
        if state.shownSinceReturn {
            return "\(box.value.id) was already shown since the return from background (resume.allow_deferred: false)"
        }
        if now - seen(returned) > t.resumeMaxDelay {
            return "more than resume.max_delay \(box.value.resumeMaxDelay.value) since the return from background: a late show would interrupt the user (resume.allow_deferred: false)"
        }
        if let loaded = state.loadedAt, seen(loaded) > seen(returned) {
            return "the ad finished loading after the return from background: a late show would interrupt the user (resume.allow_deferred: false)"
        }
        return nil
    }

    func launchPhaseOpen(_ t: Limits) -> Bool {
        guard state.launchOpen, let launched = factsPointer.pointee.launchedAt else { return false }
        if t.launchMaxWait >= 0, now - seen(launched) > t.launchMaxWait { return false }
        if let loading = state.loadingSince, now - seen(loading) > policy.loadTimeoutMs { return false }
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

    mutating func screenReasons(blockOthers: Bool) {
        if blockOthers {
            var other: String?
            for i in policy.fullscreenPlacements where i != index {
                switch stillOnScreen(since: factsPointer.pointee.placements[i].showingSince) {
                case true?: other = other ?? "placement \(policy.placementBoxes[i].value.id)"
                case false?: timedOutNote("placement \(policy.placementBoxes[i].value.id)")
                case nil: break
                }
            }
            if !factsPointer.pointee.external.isEmpty {
                for (source, since) in factsPointer.pointee.external.sorted(by: { $0.key < $1.key }) {
                    let name = source.isEmpty ? "an external fullscreen ad" : "external fullscreen ad \(source)"
                    if stillOnScreen(since: since) == true { other = other ?? name } else { timedOutNote(name) }
                }
            }
            if let other {
                deny(.fullscreenActive, "\(other) is on screen (block_during_fullscreen)", at: box.value.blockDuringFullscreen.location)
            }
        }
        // Only a fullscreen ad is "already showing": a banner or native placement may show and preload freely.
        guard policy.placementLimits[index].format.isFullscreen else { return }
        switch stillOnScreen(since: state.showingSince) {
        case true?: deny(.alreadyShowing, policy.placementLimits[index].messages.alreadyShowing, at: box.value.location)
        case false?: timedOutNote("placement \(box.value.id)")
        case nil: break
        }
    }

    mutating func graceReasons(_ t: Limits) {
        if t.graceSessions > 0 && factsPointer.pointee.sessionCount <= t.graceSessions {
            deny(.graceSessions, t.messages.graceSessions, at: box.value.graceFirstSessions.location)
        }
        if t.graceInstall > 0, now < seen(factsPointer.pointee.installedAt).addingSaturated(t.graceInstall) {
            deny(.graceInstall, t.messages.graceInstall, at: box.value.graceAfterInstall.location, clearsAt: seen(factsPointer.pointee.installedAt).addingSaturated(t.graceInstall))
        }
        if t.graceSessionStart > 0, factsPointer.pointee.sessionActive, now < seen(factsPointer.pointee.sessionStart).addingSaturated(t.graceSessionStart) {
            deny(.graceSessionStart, t.messages.graceSessionStart, at: box.value.graceAfterSessionStart.location, clearsAt: seen(factsPointer.pointee.sessionStart).addingSaturated(t.graceSessionStart))
        }
    }

}
