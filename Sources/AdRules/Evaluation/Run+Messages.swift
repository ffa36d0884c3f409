import Foundation

/// Where a deny reason points in the compiled policy, and which sentence it says.
///
/// The evaluator records a site, plain values and indices; the message and the `SourceLocation` are
/// built from the compiled policy only when a reason's `message` or `location` is read. Nothing is
/// formatted on the decision path and nothing is cached, so a policy of 50,000 placements holds no
/// strings it may never show.
struct ReasonSite: Sendable {
    /// The sentences of deny reasons.
    enum Text: UInt8, Sendable {
        case disabled, premiumShow, premiumLoad, alreadyShowing, graceSessions, graceInstall, graceSessionStart
        case noUserChoice, everyNActions, expired, notReady, minInterval, alreadyLoading, alreadyLoaded
        case notRewarded, noShow, rewardWithoutChoice, rewardNotEarned, rewardAlreadyGranted
        case triggerNotSupported, resumeShowsOff, coldStartOff, afterLaunchPhase, noLaunch
        case noReturn, shownSinceReturn, pastResumeDelay, loadedAfterReturn, pastLaunchWait
        case fullscreenActive, customRule, ruleError
        /// A cap or a group's pacing: the placement's (group < 0) or a group's.
        case sessionCap, hourlyCap, dailyCap, windowCap, groupMinInterval
    }

    /// The YAML value a reason points at: the placement's id, one of its settings or a group's, a `caps`
    /// window, or a rule.
    enum Setting: Sendable, Hashable {
        case placement, window, rule, ruleCondition
        case of(PlacementSetting)

        // The settings deny reasons point at, as the evaluator names them.
        static var enabled: Self { .of(.enabled) }
        static var format: Self { .of(.format) }
        static var excludePremium: Self { .of(.excludePremium) }
        static var blockDuringFullscreen: Self { .of(.blockDuringFullscreen) }
        static var requireUserChoice: Self { .of(.requireUserChoice) }
        static var everyNActions: Self { .of(.everyNActions) }
        static var maxAdAge: Self { .of(.maxAdAge) }
        static var showOnFirstLoad: Self { .of(.showOnFirstLoad) }
        static var showIfReady: Self { .of(.showIfReady) }
        static var allowDeferred: Self { .of(.allowDeferred) }
        static var resumeMaxDelay: Self { .of(.resumeMaxDelay) }
        static var launchMaxWait: Self { .of(.launchMaxWait) }
        static var graceFirstSessions: Self { .of(.graceFirstSessions) }
        static var graceAfterInstall: Self { .of(.graceAfterInstall) }
        static var graceAfterSessionStart: Self { .of(.graceAfterSessionStart) }
        static var minInterval: Self { .of(.minInterval) }
        static var sessionCap: Self { .of(.sessionCap) }
        static var hourlyCap: Self { .of(.hourlyCap) }
        static var dailyCap: Self { .of(.dailyCap) }
    }

    var text: Text
    var setting: Setting
    /// The placement asked about.
    var placement: Int
    /// The group, for a group's pacing and caps; -1 otherwise.
    var group = -1
    /// The custom rule; -1 otherwise.
    var rule = -1
    /// The `caps` entry, for `window_cap`; -1 otherwise.
    var window = -1
    /// The placement on screen, for `fullscreen_active`; -1 otherwise.
    var other = -1
    /// The trigger asked with, for `trigger_not_supported`.
    var trigger: ShowTrigger = .action
    /// The local day a daily cap counts (in the zone of the decision's ``SiteContext``).
    var day: Int64?
    /// Where in the decision's ``SiteContext/details`` the external source on screen (`fullscreen_active`) or the
    /// attributes with no value (`rule_error`) are; -1 for none. A site holds no reference, so finding one
    /// copies plain values only.
    var detail = -1

    init(_ text: Text, at setting: Setting, placement: Int) {
        self.text = text
        self.setting = setting
        self.placement = placement
    }

    /// Whether the summary (the message without the day of a daily cap) depends only on where the reason points.
    var summaryIsFixed: Bool {
        switch text {
        case .fullscreenActive, .ruleError, .triggerNotSupported: return false
        default: return true
        }
    }

    /// What identifies the site, packed into one integer (equal keys give equal locations and summaries), or nil
    /// when an index is too large to pack. Every index a policy may hold fits (``PolicyLimits``: 64 windows, 10,000
    /// groups and rules, 100,000 placements): a policy of 10,000 rules whose reasons did not fit made each ask of the
    /// impact preview search its counters one by one.
    var key: Int64? {
        // 6 + 5 + 7 + 14 + 14 + 18 bits: text, setting, window + 1, group + 1, rule + 1, placement.
        func fits(_ value: Int, _ bits: Int) -> Bool { value >= 0 && value < 1 << bits }
        let setting = setting.ordinal
        guard fits(Int(text.rawValue), 6), fits(setting, 5), fits(window + 1, 7), fits(group + 1, 14), fits(rule + 1, 14),
            fits(placement, 18)
        else { return nil }
        var key = Int64(text.rawValue) << 5 | Int64(setting)
        key = key << 7 | Int64(window + 1)
        key = key << 14 | Int64(group + 1)
        key = key << 14 | Int64(rule + 1)
        return key << 18 | Int64(placement)
    }

    // MARK: location

    func location(in policy: PolicyStorage) -> SourceLocation? {
        if rule >= 0 {
            let rule = policy.rules[rule]
            return setting == .ruleCondition ? rule.when.location : rule.location
        }
        if group >= 0 {
            let g = policy.groups[group]
            switch setting {
            case .window: return g.caps[window].location
            case .of(let setting):
                guard let access = setting.groupAccess else { return g.location }
                return access.value(in: g)?.location
            case .placement, .rule, .ruleCondition: return g.location
            }
        }
        let p = policy.placements[placement]
        switch setting {
        case .placement, .rule, .ruleCondition: return p.location
        case .window: return p.caps[window].location
        case .of(let setting): return setting.access.value(in: p)?.location
        }
    }

    // MARK: message

    /// The message; `withDay: false` leaves out the local day a daily cap counts (for reports over many days).
    func message(in context: SiteContext, withDay: Bool = true) -> String {
        let policy = context.policy
        let detail = self.detail >= 0 ? context.details?[self.detail] : nil
        let p = policy.placements[placement]
        let id = p.id
        let deferred = "(resume.allow_deferred: false)"
        switch text {
        case .disabled: return "placement \(id) is disabled (enabled: false)"
        case .premiumShow: return "premium users never see \(id) (exclude_premium)"
        case .premiumLoad: return "premium users never load \(id) (exclude_premium)"
        case .alreadyShowing: return "\(id) is already on screen"
        case .graceSessions: return "no \(id) in the first \(Article.counted(p.graceFirstSessions.value, "session")) after install (grace.first_sessions)"
        case .graceInstall: return "less than \(p.graceAfterInstall.value) since install (grace.after_install)"
        case .graceSessionStart: return "less than \(p.graceAfterSessionStart.value) since the session started (grace.after_session_start)"
        case .noUserChoice: return "the user has not chosen to watch \(id) since its last show (require_user_choice)"
        case .everyNActions:
            return "fewer than \(Article.counted(policy.placementLimits[placement].everyNActions, "action")) since the last show of \(id) (every_n_actions)"
        case .expired: return "the cached ad for \(id) is older than max_ad_age \(p.maxAdAge.value)"
        case .notReady: return "no ad is loaded for \(id)"
        case .minInterval: return "min_interval \(p.minInterval.value) not elapsed since the last show of \(id)"
        case .alreadyLoading: return "a load of \(id) is in progress"
        case .alreadyLoaded: return "an ad for \(id) is loaded and not expired (max_ad_age \(p.maxAdAge.value))"
        case .notRewarded: return "\(id) is \(p.format.value.rawValue), which grants no reward"
        case .noShow: return "no show of \(id) to reward"
        case .rewardWithoutChoice: return "the show of \(id) had no user choice before it (require_user_choice)"
        case .rewardNotEarned: return "the network has not reported reward_earned for this show"
        case .rewardAlreadyGranted: return "the reward for this show was already granted"
        case .triggerNotSupported:
            let format = p.format.value
            let fits = format == .appOpen ? "resume or load_completed" : "action"
            return "trigger \(trigger.rawValue) does not fit \(Article.indefinite(format.rawValue)) \(format.rawValue) placement (use \(fits))"
        case .resumeShowsOff: return "shows on resume are off (resume.show_if_ready: false)"
        case .coldStartOff: return "the cold-start show is off (launch.show_on_first_load: false)"
        case .afterLaunchPhase:
            // The phase may have closed after the ad loaded inside it (rules.md §6): the message says what ends it.
            return "the launch phase is over (it ends when the app leaves, when this placement's ad shows, or when its load or show fails or its load times out): a late show would interrupt the user \(deferred)"
        case .noLaunch:
            return "no app_launched yet, so no launch phase: a load_completed show answers a cold start, and a late one would interrupt the user \(deferred)"
        case .pastLaunchWait:
            let wait = p.launchMaxWait.map { " \($0.value)" } ?? ""
            return "the show comes more than launch.max_wait\(wait) after the launch: a late show would interrupt the user \(deferred)"
        case .noReturn:
            return "no return from background to answer: a resume show comes only after app_backgrounded and app_resumed \(deferred)"
        // `show_started` uses up the return's one show, even when the show then failed: "already shown" would send a
        // reader looking for a show that never happened.
        case .shownSinceReturn: return "a show of \(id) already started since the return from background, and a return gets one show \(deferred)"
        case .pastResumeDelay:
            return "more than resume.max_delay \(p.resumeMaxDelay.value) since the return from background: a late show would interrupt the user \(deferred)"
        case .loadedAfterReturn:
            return "the ad finished loading after the return from background: a late show would interrupt the user \(deferred)"
        case .fullscreenActive:
            let what: String
            if other >= 0 {
                what = "placement \(policy.placements[other].id)"
            } else {
                what = detail.map { $0.isEmpty ? "an external fullscreen ad" : "external fullscreen ad \($0)" } ?? "an external fullscreen ad"
            }
            return "\(what) is on screen (block_during_fullscreen)"
        case .customRule:
            let rule = policy.rules[rule]
            // The default message names the rule already.
            return rule.message == CustomRule.defaultMessage(id: rule.id) ? rule.message : "\(rule.message) (rule \(rule.id))"
        case .ruleError:
            let missing = detail.map { ": \($0)" } ?? ""
            return "rule \(policy.rules[rule].id) cannot be evaluated\(missing); denied to be safe"
        case .sessionCap, .hourlyCap, .dailyCap, .windowCap, .groupMinInterval:
            return capMessage(in: policy, zone: context.zone, withDay: withDay)
        }
    }

    private func capMessage(in policy: PolicyStorage, zone: TimeZone, withDay: Bool) -> String {
        let prefix = group >= 0 ? "group \(policy.groups[group].id): " : ""
        let limits = group >= 0 ? policy.groupLimits[group] : policy.placementLimits[placement].pacing
        let text: String
        switch self.text {
        case .windowCap:
            let cap = policy.windows[limits.windows.lowerBound + window]
            text = cap.max == 0
                ? "a caps window of 0 shows in \(RuleDuration(milliseconds: cap.length)), so it never shows (caps)"
                : "\(cap.max) \(cap.max == 1 ? "show" : "shows") in \(RuleDuration(milliseconds: cap.length)) reached (caps)"
        case .sessionCap: text = limits.sessionCap == 0 ? "session_cap is 0, so it never shows" : "session_cap \(limits.sessionCap) reached in this session"
        case .hourlyCap: text = limits.hourlyCap == 0 ? "hourly_cap is 0, so it never shows" : "hourly_cap \(limits.hourlyCap) reached in the last hour"
        case .dailyCap: text = limits.dailyCap == 0 ? "daily_cap is 0, so it never shows" : "daily_cap \(limits.dailyCap) reached today"
        default: text = "min_interval \(RuleDuration(milliseconds: limits.minInterval)) not elapsed since its last show"
        }
        // A cap of 0 never clears: no day to name.
        guard withDay, let day, limits.dailyCap != 0 else { return prefix + text }
        // The day and the zone it is counted in: a product manager reading "today" needs both.
        return prefix + text + " (\(Timestamps.localDate(milliseconds: day, in: zone)) in \(TimeZoneNames.name(of: zone)); it resets at the next local midnight)"
    }
}

/// What the sites of one decision's reasons are read against: the policy, the zone its daily caps were counted
/// in, and the texts some reasons name (an external source on screen, attributes with no value).
///
/// A decision holds one for its reasons, so it holds only what they need: the device's zone only when a daily cap
/// counted in it was read, and the texts only when a reason names one. Most denials keep the policy alone, and
/// retain and release nothing else.
struct SiteContext: Sendable {
    let policy: PolicyStorage
    /// The device's zone, kept when the policy counts days in it (`timezone: device`) and a daily cap needed the day.
    let deviceZone: TimeZone?
    let details: [String]?

    /// The zone daily caps were counted in: the policy's own, or the device's kept with the decision.
    var zone: TimeZone {
        if case .named(let zone) = policy.timeZone { return zone }
        return deviceZone ?? .gmt
    }
}

extension ReasonSite.Setting {
    /// A small number per setting, for packing into a key: below 32, distinct for each (a switch, not a search of
    /// `PlacementSetting.allCases`: a key is made for every reason the impact preview counts).
    var ordinal: Int {
        switch self {
        case .placement: return 0
        case .window: return 1
        case .rule: return 2
        case .ruleCondition: return 3
        case .of(let setting): return 4 + setting.ordinal
        }
    }
}

extension PlacementSetting {
    /// The setting's position in the cases, below 28.
    fileprivate var ordinal: Int {
        switch self {
        case .format: return 0
        case .adUnit: return 1
        case .enabled: return 2
        case .excludePremium: return 3
        case .blockDuringFullscreen: return 4
        case .minInterval: return 5
        case .dailyCap: return 6
        case .hourlyCap: return 7
        case .sessionCap: return 8
        case .caps: return 9
        case .maxAdAge: return 10
        case .everyNActions: return 11
        case .requireUserChoice: return 12
        case .showOnFirstLoad: return 13
        case .launchMaxWait: return 14
        case .showIfReady: return 15
        case .allowDeferred: return 16
        case .resumeMaxDelay: return 17
        case .graceFirstSessions: return 18
        case .graceAfterInstall: return 19
        case .graceAfterSessionStart: return 20
        }
    }
}
