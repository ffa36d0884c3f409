import AdRulesYAML
import Foundation

/// The decision function: a pure function of (policy, ask, context, facts, now).
///
/// It reads tables built when the policy was loaded (limits, group membership, compiled
/// rules) and the caller's facts in place; message strings are built only for deny reasons.
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
        guard let index = policy.storage.index(of: ask.placement) else {
            return Decision(ask: ask, reasons: [Reason(
                code: .unknownPlacement,
                message: "placement \"\(ask.placement)\" is not in the policy (\(policy.storage.placementBoxes.count) placements)")], nextAllowedAt: nil)
        }
        // The facts are read in place through a pointer that never leaves this call: copying them
        // (their arrays and dictionary) would cost more than the whole allow path.
        return withUnsafePointer(to: facts) { factsPointer in
            var run = Run(policy: policy.storage, facts: factsPointer, index: index, now: now, zone: deviceTimeZone)
            switch ask.kind {
            case .show: run.showReasons(trigger: ask.trigger ?? run.defaultTrigger, context: context, isOffer: false)
            case .offer: run.showReasons(trigger: .action, context: context, isOffer: true)
            case .load: run.loadReasons(context: context)
            case .reward: run.rewardReasons()
            }
            return run.decision(for: ask)
        }
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
    /// Valid only during `Evaluator.decide`, which owns the facts.
    let factsPointer: UnsafePointer<Facts>
    let index: Int
    /// The placement behind a reference: its fields are read in place, never copied.
    let box: Boxed<Placement>
    /// This placement's facts, read in place.
    var state: PlacementFacts {
        _read { yield factsPointer.pointee.placements[index] }
    }
    let now: Int64
    let zone: TimeZone
    var reasons: [Reason] = []
    var notes: [String] = []

    init(policy: PolicyStorage, facts: UnsafePointer<Facts>, index: Int, now: Int64, zone: TimeZone) {
        self.policy = policy
        self.factsPointer = facts
        self.index = index
        self.box = policy.placementBoxes[index]
        self.now = now
        self.zone = zone
    }

    /// Weekday names from Thursday, because 1970-01-01 was a Thursday.
    static let weekdays = ["thu", "fri", "sat", "sun", "mon", "tue", "wed"]

    var defaultTrigger: ShowTrigger { policy.placementLimits[index].format == .appOpen ? .resume : .action }

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
        let t = policy.placementLimits[index]
        if !t.enabled { deny(.placementDisabled, "placement \(box.value.id) is disabled (enabled: false)", at: box.value.enabled.location) }
        if t.excludePremium && context.premium {
            deny(.premiumUser, "premium users never see \(box.value.id) (exclude_premium)", at: box.value.excludePremium.location)
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
                deny(.noUserChoice, "the user has not chosen to watch \(box.value.id) since its last show (require_user_choice)", at: box.value.requireUserChoice.location)
            }
            if trigger == .action, t.everyNActions > 0, state.actions < t.everyNActions {
                deny(.everyNActions, "\(state.actions) of \(t.everyNActions) actions since the last show (every_n_actions)", at: box.value.everyNActions?.location)
            }
        }
        if let loaded = state.loadedAt {
            let age = now - seen(loaded)
            if age > t.maxAdAge {
                deny(.adExpired, "the cached ad is \(RuleDuration(milliseconds: age)) old, older than max_ad_age \(box.value.maxAdAge.value)", at: box.value.maxAdAge.location)
            }
        } else {
            deny(.adNotReady, "no ad is loaded for \(box.value.id)", at: box.value.location)
        }
        pacingReasons(t)
    }

    mutating func customRuleReasons(_ indices: [Int], context: AskContext) {
        var inputs = RuleInputs(
            premium: context.premium, sessionCount: Int64(factsPointer.pointee.sessionCount),
            sessionAge: factsPointer.pointee.sessionActive ? max(0, now - seen(factsPointer.pointee.sessionStart)) : 0,
            installAge: max(0, now - seen(factsPointer.pointee.installedAt)), nowHour: 0, nowWeekday: "",
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
        switch stillOnScreen(since: state.showingSince) {
        case true?: deny(.alreadyShowing, "\(box.value.id) is already on screen", at: box.value.location)
        case false?: timedOutNote("placement \(box.value.id)")
        case nil: break
        }
    }

    mutating func graceReasons(_ t: Limits) {
        if t.graceSessions > 0 && factsPointer.pointee.sessionCount <= t.graceSessions {
            deny(.graceSessions, "session \(factsPointer.pointee.sessionCount) is within the first \(t.graceSessions) sessions (grace.first_sessions)", at: box.value.graceFirstSessions.location)
        }
        if t.graceInstall > 0, now < seen(factsPointer.pointee.installedAt) + t.graceInstall {
            deny(.graceInstall, "less than \(box.value.graceAfterInstall.value) since install (grace.after_install)", at: box.value.graceAfterInstall.location, clearsAt: seen(factsPointer.pointee.installedAt) + t.graceInstall)
        }
        if t.graceSessionStart > 0, factsPointer.pointee.sessionActive, now < seen(factsPointer.pointee.sessionStart) + t.graceSessionStart {
            deny(.graceSessionStart, "less than \(box.value.graceAfterSessionStart.value) since the session started (grace.after_session_start)", at: box.value.graceAfterSessionStart.location, clearsAt: seen(factsPointer.pointee.sessionStart) + t.graceSessionStart)
        }
    }

    // MARK: pacing and caps

    mutating func pacingReasons(_ t: Limits) {
        let shows = state.shows
        if t.minInterval > 0, let last = shows.last {
            let clears = seen(last.at) + t.minInterval
            if now < clears {
                deny(.minInterval, "min_interval \(box.value.minInterval.value) not elapsed since the last show of \(box.value.id)", at: box.value.minInterval.location, clearsAt: clears)
            }
        }
        capReasons(shows, t, group: -1)
        let groups = policy.groupsOfPlacement[index]
        guard !groups.isEmpty else { return }
        for g in groups {
            let limits = policy.groupLimits[g]
            if limits.minInterval > 0, let last = factsPointer.pointee.groups[g].last {
                let clears = seen(last.at) + limits.minInterval
                if now < clears {
                    let group = policy.groupBoxes[g].value
                    deny(.groupMinInterval, "group \(group.id): min_interval \(RuleDuration(milliseconds: limits.minInterval)) not elapsed since its last show", at: group.minInterval?.location, clearsAt: clears, group: group.id)
                }
            }
        }
        for g in groups {
            capReasons(factsPointer.pointee.groups[g], policy.groupLimits[g], group: g)
        }
    }

    /// Where a cap is written: in the placement (group < 0) or in a group.
    func capLocation(_ key: WritableKeyPath<Limits, Int>?, window: Int?, group: Int) -> SourceLocation? {
        if group < 0 {
            let p = box.value
            if let window { return p.caps[window].location }
            switch key {
            case \Limits.sessionCap: return p.sessionCap?.location
            case \Limits.hourlyCap: return p.hourlyCap?.location
            default: return p.dailyCap?.location
            }
        }
        let g = policy.groupBoxes[group].value
        if let window { return g.caps[window].location }
        switch key {
        case \Limits.sessionCap: return g.sessionCap?.location
        case \Limits.hourlyCap: return g.hourlyCap?.location
        default: return g.dailyCap?.location
        }
    }

    /// Session, hourly, daily and window caps over one show history, in that order.
    mutating func capReasons(_ shows: [ShowRecord], _ t: Limits, group: Int) {
        let isGroup = group >= 0
        if t.sessionCap >= 0 {
            var count = 0
            if factsPointer.pointee.sessionActive {
                var i = shows.count - 1
                while i >= 0, shows[i].session == factsPointer.pointee.sessionCount {
                    count += 1
                    i -= 1
                }
            }
            if count >= t.sessionCap {
                deny(isGroup ? .groupSessionCap : .sessionCap, "\(prefix(group))\(count) of \(t.sessionCap) shows this session (session_cap)", at: capLocation(\.sessionCap, window: nil, group: group), group: groupID(group))
            }
        }
        if t.hourlyCap >= 0 {
            windowCap(shows, max: t.hourlyCap, window: 3_600_000, code: isGroup ? .groupHourlyCap : .hourlyCap, windowIndex: nil, group: group)
        }
        if t.dailyCap >= 0 {
            let day = localDay()
            var count = 0
            var i = shows.count - 1
            while i >= 0, seen(shows[i].at) >= day.start {
                count += 1
                i -= 1
            }
            if count >= t.dailyCap {
                deny(isGroup ? .groupDailyCap : .dailyCap, "\(prefix(group))\(count) of \(t.dailyCap) shows today (daily_cap)", at: capLocation(\.dailyCap, window: nil, group: group), clearsAt: t.dailyCap > 0 ? day.end : nil, group: groupID(group))
            }
        }
        for (k, cap) in t.windows.enumerated() {
            windowCap(shows, max: cap.max, window: cap.length, code: isGroup ? .groupWindowCap : .windowCap, windowIndex: k, group: group)
        }
    }

    func prefix(_ group: Int) -> String { group >= 0 ? "group \(policy.groupBoxes[group].value.id): " : "" }
    func groupID(_ group: Int) -> String? { group >= 0 ? policy.groupBoxes[group].value.id : nil }

    /// A rolling window holds the shows with `time > now - window`; it clears when enough of them leave.
    mutating func windowCap(_ shows: [ShowRecord], max: Int, window: Int64, code: ReasonCode, windowIndex: Int?, group: Int) {
        var i = shows.count - 1
        var count = 0
        while i >= 0, seen(shows[i].at) > now - window {
            count += 1
            i -= 1
        }
        guard count >= max else { return }
        // The shows in the window are shows[i+1 ... end]; the (count - max + 1)-th oldest must leave.
        let clears: Int64? = max > 0 ? seen(shows[i + 1 + (count - max)].at) + window : nil
        let span = windowIndex == nil ? "hour (hourly_cap)" : "\(RuleDuration(milliseconds: window)) (caps)"
        deny(code, "\(prefix(group))\(count) of \(max) shows in the last \(span)", at: capLocation(\.hourlyCap, window: windowIndex, group: group), clearsAt: clears, group: groupID(group))
    }

    /// The calendar day of now: the one cached in the facts when it is still today, else computed.
    func localDay() -> (start: Int64, end: Int64) {
        if let day = factsPointer.pointee.day, now >= day.start, now < day.end,
            day.zone == (policy.namedZoneID ?? zone.identifier)
        {
            return (day.start, day.end)
        }
        let day = LocalDay.containing(now, in: timeZone)
        return (day.start, day.end)
    }

    // MARK: load and reward

    mutating func loadReasons(context: AskContext) {
        let t = policy.placementLimits[index]
        if !t.enabled { deny(.placementDisabled, "placement \(box.value.id) is disabled (enabled: false)", at: box.value.enabled.location) }
        if t.excludePremium && context.premium {
            deny(.premiumUser, "premium users never load \(box.value.id) (exclude_premium)", at: box.value.excludePremium.location)
        }
        if t.blockDuringFullscreen { screenReasons(blockOthers: true) }
        if let loading = state.loadingSince, now - seen(loading) <= policy.loadTimeoutMs {
            deny(.alreadyLoading, "a load of \(box.value.id) is in progress", at: box.value.location)
        }
        if let loaded = state.loadedAt, now - seen(loaded) <= t.maxAdAge {
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
