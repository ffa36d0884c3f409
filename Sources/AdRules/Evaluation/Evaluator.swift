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
        var run = Run(policy: policy.storage, facts: facts, index: index, now: now, zone: deviceTimeZone)
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
    let policy: PolicyStorage
    let facts: Facts
    let index: Int
    /// The placement behind a reference: its fields are read in place, never copied.
    let box: Boxed<Placement>
    let state: PlacementFacts
    let now: Int64
    let zone: TimeZone
    var reasons: [Reason] = []
    var notes: [String] = []

    init(policy: PolicyStorage, facts: Facts, index: Int, now: Int64, zone: TimeZone) {
        self.policy = policy
        self.facts = facts
        self.index = index
        self.box = policy.placementBoxes[index]
        self.state = facts.placements[index]
        self.now = now
        self.zone = zone
    }

    /// Weekday names from Thursday, because 1970-01-01 was a Thursday.
    static let weekdays = ["thu", "fri", "sat", "sun", "mon", "tue", "wed"]

    var defaultTrigger: ShowTrigger { box.value.format.value == .appOpen ? .resume : .action }

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
        if !box.value.enabled.value { deny(.placementDisabled, "placement \(box.value.id) is disabled (enabled: false)", at: box.value.enabled.location) }
        if box.value.excludePremium.value && context.premium {
            deny(.premiumUser, "premium users never see \(box.value.id) (exclude_premium)", at: box.value.excludePremium.location)
        }
        let rules = policy.rulesOfPlacement[index]
        if !rules.isEmpty { customRuleReasons(rules, context: context) }
        let isAppOpen = box.value.format.value == .appOpen
        let supported = isAppOpen ? trigger != .action : trigger == .action
        if !supported {
            let fits = isAppOpen ? "resume or load_completed" : "action"
            deny(.triggerNotSupported, "trigger \(trigger.rawValue) does not fit a \(box.value.format.value.rawValue) placement (use \(fits))", at: box.value.format.location)
        }
        let inLaunch = isAppOpen && launchPhaseOpen()
        if isAppOpen && supported {
            if trigger == .resume && !box.value.showIfReady.value {
                deny(.triggerDisabled, "shows on resume are off (resume.show_if_ready: false)", at: box.value.showIfReady.location)
            }
            if trigger == .loadCompleted {
                if inLaunch && !box.value.showOnFirstLoad.value {
                    deny(.triggerDisabled, "the cold-start show is off (launch.show_on_first_load: false)", at: box.value.showOnFirstLoad.location)
                } else if !inLaunch && !box.value.allowDeferred.value {
                    deny(.deferredShow, "the load completed outside the launch phase; a late show would interrupt the user (resume.allow_deferred: false)", at: box.value.allowDeferred.location)
                }
            }
        }
        screenReasons(blockOthers: box.value.blockDuringFullscreen.value)
        graceReasons()
        if !isOffer {
            if box.value.requireUserChoice.value && !state.userChose {
                deny(.noUserChoice, "the user has not chosen to watch \(box.value.id) since its last show (require_user_choice)", at: box.value.requireUserChoice.location)
            }
            if trigger == .action, let n = box.value.everyNActions, state.actions < n.value {
                deny(.everyNActions, "\(state.actions) of \(n.value) actions since the last show (every_n_actions)", at: n.location)
            }
        }
        if let loaded = state.loadedAt {
            let age = now - seen(loaded)
            if age > box.value.maxAdAge.value.milliseconds {
                deny(.adExpired, "the cached ad is \(RuleDuration(milliseconds: age)) old, older than max_ad_age \(box.value.maxAdAge.value)", at: box.value.maxAdAge.location)
            }
        } else {
            deny(.adNotReady, "no ad is loaded for \(box.value.id)", at: box.value.location)
        }
        pacingReasons()
    }

    mutating func customRuleReasons(_ indices: [Int], context: AskContext) {
        var inputs = RuleInputs(
            premium: context.premium, sessionCount: Int64(facts.sessionCount),
            sessionAge: facts.sessionActive ? max(0, now - seen(facts.sessionStart)) : 0,
            installAge: max(0, now - seen(facts.installedAt)), nowHour: 0, nowWeekday: "",
            attributes: context.attributes)
        if policy.rulesReadClock[index] {
            let local = now + Int64(timeZone.secondsFromGMT(for: Milliseconds.date(now))) * 1000
            let days = local >= 0 ? local / 86_400_000 : (local - 86_399_999) / 86_400_000
            inputs.nowHour = (local - days * 86_400_000) / 3_600_000
            // 1970-01-01 was a Thursday.
            inputs.nowWeekday = Run.weekdays[Int(((days % 7) + 7) % 7)]
        }
        for r in indices {
            let rule = policy.ruleBoxes[r].value
            guard let condition = rule.condition else { continue }
            switch condition.evaluate(inputs) {
            case .bool(true)?:
                deny(.customRule, "\(rule.message) (rule \(rule.id))", at: rule.location, rule: rule.id)
            case .bool(false)?:
                break
            default:
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

    func launchPhaseOpen() -> Bool {
        guard state.launchOpen, let launched = facts.launchedAt else { return false }
        if let wait = box.value.launchMaxWait, now - seen(launched) > wait.value.milliseconds { return false }
        if let loading = state.loadingSince, now - seen(loading) > policy.loadTimeout.milliseconds { return false }
        return true
    }

    /// Whether something reported on screen at `since` still counts, with `fullscreen_timeout` applied.
    func stillOnScreen(since: Int64?) -> Bool? {
        guard let since else { return nil }
        return now - seen(since) <= policy.fullscreenTimeout.value.milliseconds
    }

    mutating func timedOutNote(_ what: String) {
        notes.append("\(what) was reported on screen for more than \(policy.fullscreenTimeout.value) and is treated as closed (fullscreen_timeout)")
    }

    mutating func screenReasons(blockOthers: Bool) {
        if blockOthers {
            var other: String?
            for i in policy.fullscreenPlacements where i != index {
                switch stillOnScreen(since: facts.placements[i].showingSince) {
                case true?: other = other ?? "placement \(policy.placementBoxes[i].value.id)"
                case false?: timedOutNote("placement \(policy.placementBoxes[i].value.id)")
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
                deny(.fullscreenActive, "\(other) is on screen (block_during_fullscreen)", at: box.value.blockDuringFullscreen.location)
            }
        }
        switch stillOnScreen(since: state.showingSince) {
        case true?: deny(.alreadyShowing, "\(box.value.id) is already on screen", at: box.value.location)
        case false?: timedOutNote("placement \(box.value.id)")
        case nil: break
        }
    }

    mutating func graceReasons() {
        if box.value.graceFirstSessions.value > 0 && facts.sessionCount <= box.value.graceFirstSessions.value {
            deny(.graceSessions, "session \(facts.sessionCount) is within the first \(box.value.graceFirstSessions.value) sessions (grace.first_sessions)", at: box.value.graceFirstSessions.location)
        }
        let afterInstall = box.value.graceAfterInstall.value.milliseconds
        if afterInstall > 0, now < seen(facts.installedAt) + afterInstall {
            deny(.graceInstall, "less than \(box.value.graceAfterInstall.value) since install (grace.after_install)", at: box.value.graceAfterInstall.location, clearsAt: seen(facts.installedAt) + afterInstall)
        }
        let afterStart = box.value.graceAfterSessionStart.value.milliseconds
        if afterStart > 0, facts.sessionActive, now < seen(facts.sessionStart) + afterStart {
            deny(.graceSessionStart, "less than \(box.value.graceAfterSessionStart.value) since the session started (grace.after_session_start)", at: box.value.graceAfterSessionStart.location, clearsAt: seen(facts.sessionStart) + afterStart)
        }
    }

    // MARK: pacing and caps

    mutating func pacingReasons() {
        let shows = state.shows
        if box.value.minInterval.value.milliseconds > 0, let last = shows.last {
            let clears = seen(last.at) + box.value.minInterval.value.milliseconds
            if now < clears {
                deny(.minInterval, "min_interval \(box.value.minInterval.value) not elapsed since the last show of \(box.value.id)", at: box.value.minInterval.location, clearsAt: clears)
            }
        }
        capReasons(shows, session: box.value.sessionCap, hourly: box.value.hourlyCap, daily: box.value.dailyCap, windows: box.value.caps, group: nil)
        for g in policy.groupsOfPlacement[index] {
            let group = policy.groupBoxes[g].value
            let history = facts.groups[g]
            if let interval = group.minInterval, interval.value.milliseconds > 0, let last = history.last {
                let clears = seen(last.at) + interval.value.milliseconds
                if now < clears {
                    deny(.groupMinInterval, "group \(group.id): min_interval \(interval.value) not elapsed since its last show", at: interval.location, clearsAt: clears, group: group.id)
                }
            }
        }
        for g in policy.groupsOfPlacement[index] {
            let group = policy.groupBoxes[g].value
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
        if !box.value.enabled.value { deny(.placementDisabled, "placement \(box.value.id) is disabled (enabled: false)", at: box.value.enabled.location) }
        if box.value.excludePremium.value && context.premium {
            deny(.premiumUser, "premium users never load \(box.value.id) (exclude_premium)", at: box.value.excludePremium.location)
        }
        if box.value.blockDuringFullscreen.value { screenReasons(blockOthers: true) }
        if let loading = state.loadingSince, now - seen(loading) <= policy.loadTimeout.milliseconds {
            deny(.alreadyLoading, "a load of \(box.value.id) is in progress", at: box.value.location)
        }
        if let loaded = state.loadedAt, now - seen(loaded) <= box.value.maxAdAge.value.milliseconds {
            deny(.alreadyLoaded, "an ad for \(box.value.id) is loaded and not expired (max_ad_age \(box.value.maxAdAge.value))", at: box.value.maxAdAge.location)
        }
    }

    mutating func rewardReasons() {
        if !box.value.format.value.isRewarded {
            deny(.notRewardedFormat, "\(box.value.id) is \(box.value.format.value.rawValue), which grants no reward", at: box.value.format.location)
        }
        guard let show = state.current else {
            deny(.noShow, "no show of \(box.value.id) to reward", at: box.value.location)
            return
        }
        if box.value.requireUserChoice.value && !show.hadChoice {
            deny(.noUserChoice, "the show of \(box.value.id) had no user choice before it (require_user_choice)", at: box.value.requireUserChoice.location)
        }
        if !show.earned { deny(.rewardNotEarned, "the network has not reported reward_earned for this show", at: box.value.location) }
        if show.granted { deny(.rewardAlreadyGranted, "the reward for this show was already granted", at: box.value.location) }
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
