import AdRulesYAML
import Foundation

/// The decision function: a pure function of (policy, ask, context, facts, now).
///
/// It reads precomputed indices of the policy and never allocates on the allow path of a
/// placement without custom rules.
public enum Evaluator {
    /// Decides an ask.
    /// - Parameters:
    ///   - ask: what the app asks.
    ///   - context: premium flag and attributes.
    ///   - policy: the loaded policy.
    ///   - facts: what has happened.
    ///   - now: the time, in ms since 1970.
    ///   - deviceTimeZone: the zone used when the policy says `timezone: device`.
    /// - Returns: allow, or deny with every reason.
    public static func decide(
        _ ask: Ask, context: AskContext = .standard, policy: Policy, facts: Facts, now: Int64,
        deviceTimeZone: TimeZone = .current
    ) -> Decision {
        guard let index = policy.placementIndex[ask.placement] else {
            return Decision(ask: ask, reasons: [Reason(
                code: .unknownPlacement,
                message: "placement \"\(ask.placement)\" is not in the policy (\(policy.placements.count) placements)")], nextAllowedAt: nil)
        }
        var run = Run(policy: policy, facts: facts, index: index, now: now, zone: deviceTimeZone)
        switch ask.kind {
        case .show: run.showReasons(trigger: ask.trigger ?? run.defaultTrigger, context: context, isOffer: false)
        case .offer: run.showReasons(trigger: .action, context: context, isOffer: true)
        case .load: run.loadReasons(context: context)
        case .reward: run.rewardReasons()
        }
        return run.decision(for: ask)
    }

    /// Decides an ask with the time as a `Date`.
    public static func decide(
        _ ask: Ask, context: AskContext = .standard, policy: Policy, facts: Facts, now: Date,
        deviceTimeZone: TimeZone = .current
    ) -> Decision {
        decide(ask, context: context, policy: policy, facts: facts, now: Milliseconds.from(now), deviceTimeZone: deviceTimeZone)
    }
}

/// Conversions between `Date` and milliseconds since 1970.
public enum Milliseconds {
    /// Milliseconds since 1970 of a date.
    public static func from(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
    /// The date of a millisecond count.
    public static func date(_ ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }
}

/// One evaluation: collects reasons in the documented order.
private struct Run {
    let policy: Policy
    let facts: Facts
    let index: Int
    let placement: Placement
    let state: PlacementFacts
    let now: Int64
    let zone: TimeZone
    var reasons: [Reason] = []
    var notes: [String] = []

    init(policy: Policy, facts: Facts, index: Int, now: Int64, zone: TimeZone) {
        self.policy = policy
        self.facts = facts
        self.index = index
        self.placement = policy.placements[index]
        self.state = facts.placements[index]
        self.now = now
        self.zone = zone
    }

    var defaultTrigger: ShowTrigger { placement.format.value == .appOpen ? .resume : .action }

    /// A recorded time, never later than now (a clock set back never grants a show).
    func seen(_ t: Int64) -> Int64 { t > now ? now : t }

    mutating func deny(_ code: ReasonCode, _ message: String, at location: SourceLocation?, clearsAt: Int64? = nil, rule: String? = nil, group: String? = nil) {
        reasons.append(Reason(
            code: code, message: message, location: location, clearsAt: clearsAt.map(Milliseconds.date), rule: rule, group: group))
    }

    func decision(for ask: Ask) -> Decision {
        var next: Date?
        if !reasons.isEmpty, reasons.allSatisfy({ $0.clearsAt != nil }) { next = reasons.compactMap(\.clearsAt).max() }
        return Decision(ask: ask, reasons: reasons, nextAllowedAt: next, notes: notes)
    }

    // MARK: show and offer

    mutating func showReasons(trigger: ShowTrigger, context: AskContext, isOffer: Bool) {
        let p = placement
        if !p.enabled.value { deny(.placementDisabled, "placement \(p.id) is disabled (enabled: false)", at: p.enabled.location) }
        if p.excludePremium.value && context.premium {
            deny(.premiumUser, "premium users never see \(p.id) (exclude_premium)", at: p.excludePremium.location)
        }
        let rules = policy.rulesOfPlacement[index]
        if !rules.isEmpty { customRuleReasons(rules, context: context) }
        let isAppOpen = p.format.value == .appOpen
        let supported = isAppOpen ? trigger != .action : trigger == .action
        if !supported {
            let fits = isAppOpen ? "resume or load_completed" : "action"
            deny(.triggerNotSupported, "trigger \(trigger.rawValue) does not fit a \(p.format.value.rawValue) placement (use \(fits))", at: p.format.location)
        }
        let inLaunch = isAppOpen && launchPhaseOpen()
        if isAppOpen && supported {
            if trigger == .resume && !p.showIfReady.value {
                deny(.triggerDisabled, "shows on resume are off (resume.show_if_ready: false)", at: p.showIfReady.location)
            }
            if trigger == .loadCompleted {
                if inLaunch && !p.showOnFirstLoad.value {
                    deny(.triggerDisabled, "the cold-start show is off (launch.show_on_first_load: false)", at: p.showOnFirstLoad.location)
                } else if !inLaunch && !p.allowDeferred.value {
                    deny(.deferredShow, "the load completed outside the launch phase; a late show would interrupt the user (resume.allow_deferred: false)", at: p.allowDeferred.location)
                }
            }
        }
        screenReasons(blockOthers: p.blockDuringFullscreen.value)
        graceReasons()
        if !isOffer {
            if p.requireUserChoice.value && !state.userChose {
                deny(.noUserChoice, "the user has not chosen to watch \(p.id) since its last show (require_user_choice)", at: p.requireUserChoice.location)
            }
            if trigger == .action, let n = p.everyNActions, state.actions < n.value {
                deny(.everyNActions, "\(state.actions) of \(n.value) actions since the last show (every_n_actions)", at: n.location)
            }
        }
        if let loaded = state.loadedAt {
            let age = now - seen(loaded)
            if age > p.maxAdAge.value.milliseconds {
                deny(.adExpired, "the cached ad is \(RuleDuration(milliseconds: age)) old, older than max_ad_age \(p.maxAdAge.value)", at: p.maxAdAge.location)
            }
        } else {
            deny(.adNotReady, "no ad is loaded for \(p.id)", at: p.location)
        }
        pacingReasons()
    }

    mutating func customRuleReasons(_ indices: [Int], context: AskContext) {
        var inputs = RuleInputs(
            premium: context.premium, sessionCount: Int64(facts.sessionCount),
            sessionAge: facts.sessionActive ? max(0, now - seen(facts.sessionStart)) : 0,
            installAge: max(0, now - seen(facts.installedAt)), nowHour: 0, nowWeekday: "",
            attributes: policy.attributes.map { declaration in
                guard let value = context.attributes[declaration.name] ?? declaration.defaultValue else { return nil }
                if value.type == declaration.type { return value }
                if declaration.type == .number, case .int(let i) = value { return .number(Double(i)) }
                return nil
            })
        if policy.rulesReadClock {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let parts = calendar.dateComponents([.hour, .weekday], from: Milliseconds.date(now))
            inputs.nowHour = Int64(parts.hour ?? 0)
            inputs.nowWeekday = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][((parts.weekday ?? 1) - 1 + 7) % 7]
        }
        for r in indices {
            let rule = policy.rules[r]
            guard let condition = rule.condition else { continue }
            switch condition.evaluate(inputs) {
            case .bool(true)?:
                deny(.customRule, "\(rule.message) (rule \(rule.id))", at: rule.location, rule: rule.id)
            case .bool(false)?:
                break
            default:
                let missing = policy.attributes.enumerated().filter { inputs.attributes[$0.offset] == nil }.map(\.element.name)
                let detail = missing.isEmpty ? "" : ": no value for \(missing.joined(separator: ", "))"
                deny(.ruleError, "rule \(rule.id) cannot be evaluated\(detail); denied to be safe", at: rule.when.location, rule: rule.id)
            }
        }
    }

    var timeZone: TimeZone {
        if case .named(let zone) = policy.timeZone { return zone }
        return zone
    }

    func launchPhaseOpen() -> Bool {
        guard state.launchOpen, let launched = facts.launchedAt else { return false }
        if let wait = placement.launchMaxWait, now - seen(launched) > wait.value.milliseconds { return false }
        if let loading = state.loadingSince, now - seen(loading) > policy.loadTimeout.milliseconds { return false }
        return true
    }

    /// Whether something is on screen, with `fullscreen_timeout` applied.
    func onScreen(since: Int64?, what: String, notes: inout [String]) -> Bool {
        guard let since else { return false }
        if now - seen(since) > policy.fullscreenTimeout.value.milliseconds {
            notes.append("\(what) was reported on screen for more than \(policy.fullscreenTimeout.value) and is treated as closed (fullscreen_timeout)")
            return false
        }
        return true
    }

    mutating func screenReasons(blockOthers: Bool) {
        if blockOthers {
            var other: String?
            for (i, p) in policy.placements.enumerated() where i != index && p.format.value.isFullscreen {
                if onScreen(since: facts.placements[i].showingSince, what: "placement \(p.id)", notes: &notes) {
                    other = other ?? "placement \(p.id)"
                }
            }
            for (source, since) in facts.external.sorted(by: { $0.key < $1.key }) {
                let name = source.isEmpty ? "an external fullscreen ad" : "external fullscreen ad \(source)"
                if onScreen(since: since, what: name, notes: &notes) { other = other ?? name }
            }
            if let other {
                deny(.fullscreenActive, "\(other) is on screen (block_during_fullscreen)", at: placement.blockDuringFullscreen.location)
            }
        }
        if onScreen(since: state.showingSince, what: "placement \(placement.id)", notes: &notes) {
            deny(.alreadyShowing, "\(placement.id) is already on screen", at: placement.location)
        }
    }

    mutating func graceReasons() {
        let p = placement
        if p.graceFirstSessions.value > 0 && facts.sessionCount <= p.graceFirstSessions.value {
            deny(.graceSessions, "session \(facts.sessionCount) is within the first \(p.graceFirstSessions.value) sessions (grace.first_sessions)", at: p.graceFirstSessions.location)
        }
        let afterInstall = p.graceAfterInstall.value.milliseconds
        if afterInstall > 0, now < seen(facts.installedAt) + afterInstall {
            deny(.graceInstall, "less than \(p.graceAfterInstall.value) since install (grace.after_install)", at: p.graceAfterInstall.location, clearsAt: seen(facts.installedAt) + afterInstall)
        }
        let afterStart = p.graceAfterSessionStart.value.milliseconds
        if afterStart > 0, facts.sessionActive, now < seen(facts.sessionStart) + afterStart {
            deny(.graceSessionStart, "less than \(p.graceAfterSessionStart.value) since the session started (grace.after_session_start)", at: p.graceAfterSessionStart.location, clearsAt: seen(facts.sessionStart) + afterStart)
        }
    }

    // MARK: pacing and caps

    mutating func pacingReasons() {
        let p = placement
        let shows = state.shows
        if p.minInterval.value.milliseconds > 0, let last = shows.last {
            let clears = seen(last.at) + p.minInterval.value.milliseconds
            if now < clears {
                deny(.minInterval, "min_interval \(p.minInterval.value) not elapsed since the last show of \(p.id)", at: p.minInterval.location, clearsAt: clears)
            }
        }
        capReasons(shows, session: p.sessionCap, hourly: p.hourlyCap, daily: p.dailyCap, windows: p.caps, group: nil)
        for g in policy.groupsOfPlacement[index] {
            let group = policy.groups[g]
            let history = facts.groups[g]
            if let interval = group.minInterval, interval.value.milliseconds > 0, let last = history.last {
                let clears = seen(last.at) + interval.value.milliseconds
                if now < clears {
                    deny(.groupMinInterval, "group \(group.id): min_interval \(interval.value) not elapsed since its last show", at: interval.location, clearsAt: clears, group: group.id)
                }
            }
        }
        for g in policy.groupsOfPlacement[index] {
            let group = policy.groups[g]
            capReasons(facts.groups[g], session: group.sessionCap, hourly: group.hourlyCap, daily: group.dailyCap, windows: group.caps, group: group.id)
        }
    }

    /// Session, hourly, daily and window caps over one show history, in that order.
    mutating func capReasons(
        _ shows: [ShowRecord], session: Located<Int>?, hourly: Located<Int>?, daily: Located<Int>?,
        windows: [Located<WindowCap>], group: String?
    ) {
        if let cap = session {
            var count = 0
            if facts.sessionActive {
                var i = shows.count - 1
                while i >= 0, shows[i].session == facts.sessionCount {
                    count += 1
                    i -= 1
                }
            }
            if count >= cap.value {
                deny(group == nil ? .sessionCap : .groupSessionCap, "\(Run.prefix(group))\(count) of \(cap.value) shows this session (session_cap)", at: cap.location, group: group)
            }
        }
        if let cap = hourly {
            windowCap(shows, max: cap.value, window: RuleDuration.hours(1), code: group == nil ? .hourlyCap : .groupHourlyCap, isHourly: true, at: cap.location, group: group)
        }
        if let cap = daily {
            let day = localDay()
            var count = 0
            var i = shows.count - 1
            while i >= 0, seen(shows[i].at) >= day.start {
                count += 1
                i -= 1
            }
            if count >= cap.value {
                deny(group == nil ? .dailyCap : .groupDailyCap, "\(Run.prefix(group))\(count) of \(cap.value) shows today (daily_cap)", at: cap.location, clearsAt: cap.value > 0 ? day.end : nil, group: group)
            }
        }
        for cap in windows {
            windowCap(shows, max: cap.value.max, window: cap.value.window, code: group == nil ? .windowCap : .groupWindowCap, isHourly: false, at: cap.location, group: group)
        }
    }

    /// A rolling window holds the shows with `time > now - window`; it clears when enough of them leave.
    static func prefix(_ group: String?) -> String { group.map { "group \($0): " } ?? "" }

    mutating func windowCap(_ shows: [ShowRecord], max: Int, window duration: RuleDuration, code: ReasonCode, isHourly: Bool, at location: SourceLocation, group: String?) {
        let window = duration.milliseconds
        var i = shows.count - 1
        var count = 0
        while i >= 0, seen(shows[i].at) > now - window {
            count += 1
            i -= 1
        }
        guard count >= max else { return }
        // The shows in the window are shows[i+1 ... end]; the (count - max + 1)-th oldest must leave.
        let clears: Int64? = max > 0 ? seen(shows[i + 1 + (count - max)].at) + window : nil
        let span = isHourly ? "hour (hourly_cap)" : "\(duration) (caps)"
        deny(code, "\(Run.prefix(group))\(count) of \(max) shows in the last \(span)", at: location, clearsAt: clears, group: group)
    }

    func localDay() -> LocalDay {
        let zone = timeZone
        if let day = facts.day, day.contains(now, zone: zone.identifier) { return day }
        return LocalDay.containing(now, in: zone)
    }

    // MARK: load and reward

    mutating func loadReasons(context: AskContext) {
        let p = placement
        if !p.enabled.value { deny(.placementDisabled, "placement \(p.id) is disabled (enabled: false)", at: p.enabled.location) }
        if p.excludePremium.value && context.premium {
            deny(.premiumUser, "premium users never load \(p.id) (exclude_premium)", at: p.excludePremium.location)
        }
        if p.blockDuringFullscreen.value { screenReasons(blockOthers: true) }
        if let loading = state.loadingSince, now - seen(loading) <= policy.loadTimeout.milliseconds {
            deny(.alreadyLoading, "a load of \(p.id) is in progress", at: p.location)
        }
        if let loaded = state.loadedAt, now - seen(loaded) <= p.maxAdAge.value.milliseconds {
            deny(.alreadyLoaded, "an ad for \(p.id) is loaded and not expired (max_ad_age \(p.maxAdAge.value))", at: p.maxAdAge.location)
        }
    }

    mutating func rewardReasons() {
        let p = placement
        if !p.format.value.isRewarded {
            deny(.notRewardedFormat, "\(p.id) is \(p.format.value.rawValue), which grants no reward", at: p.format.location)
        }
        guard let show = state.current else {
            deny(.noShow, "no show of \(p.id) to reward", at: p.location)
            return
        }
        if p.requireUserChoice.value && !show.hadChoice {
            deny(.noUserChoice, "the show of \(p.id) had no user choice before it (require_user_choice)", at: p.requireUserChoice.location)
        }
        if !show.earned { deny(.rewardNotEarned, "the network has not reported reward_earned for this show", at: p.location) }
        if show.granted { deny(.rewardAlreadyGranted, "the reward for this show was already granted", at: p.location) }
    }
}

extension LocalDay {
    /// The calendar day containing a time, in a zone (23 or 25 hours long on DST days).
    static func containing(_ ms: Int64, in zone: TimeZone) -> LocalDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let date = Milliseconds.date(ms)
        if let interval = calendar.dateInterval(of: .day, for: date) {
            return LocalDay(zone: zone.identifier, start: Milliseconds.from(interval.start), end: Milliseconds.from(interval.end))
        }
        let start = ms - ((ms % 86_400_000) + 86_400_000) % 86_400_000
        return LocalDay(zone: zone.identifier, start: start, end: start + 86_400_000)
    }
}

extension Facts {
    /// Caches the calendar day of `now`, so that daily caps cost no calendar work until midnight.
    public mutating func prepareDay(at now: Int64, policy: Policy, deviceTimeZone: TimeZone) {
        let zone: TimeZone
        if case .named(let named) = policy.timeZone { zone = named } else { zone = deviceTimeZone }
        if let day, day.contains(now, zone: zone.identifier) { return }
        day = LocalDay.containing(now, in: zone)
    }
}
