/// The stable codes of deny reasons, in the order decisions list them.
public enum ReasonCode: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The placement is not in the policy (then the only reason).
    case unknownPlacement = "unknown_placement"
    /// The placement says `enabled: false`.
    case placementDisabled = "placement_disabled"
    /// The placement excludes premium users (`exclude_premium`) and the user is premium.
    case premiumUser = "premium_user"
    /// A custom rule denies; the reason names the rule.
    case customRule = "custom_rule"
    /// A custom rule cannot be evaluated (an attribute with no value and no default): denied to be safe.
    case ruleError = "rule_error"
    /// The trigger does not fit the format (`resume` or `load_completed` for a format other than app_open, `action` for app_open).
    case triggerNotSupported = "trigger_not_supported"
    /// A `resume` show with `show_if_ready: false`, or a first-load show with `show_on_first_load: false`.
    case triggerDisabled = "trigger_disabled"
    /// A show that would come late: a first-load show after the launch phase, or a resume outside the resume window or of an ad cached after the return.
    case deferredShow = "deferred_show"
    /// Another fullscreen ad (another placement, or another SDK's) is on screen.
    case fullscreenActive = "fullscreen_active"
    /// This placement's ad is on screen.
    case alreadyShowing = "already_showing"
    /// The user is in the first sessions after install that `grace.first_sessions` keeps ad-free.
    case graceSessions = "grace_sessions"
    /// Less than `grace.after_install` since the install.
    case graceInstall = "grace_install"
    /// Less than `grace.after_session_start` since the session started.
    case graceSessionStart = "grace_session_start"
    /// `require_user_choice` and no `user_chose` since the last show (for a reward: that show had no choice before it).
    case noUserChoice = "no_user_choice"
    /// Fewer than `every_n_actions` actions since the last show.
    case everyNActions = "every_n_actions"
    /// No ad is cached.
    case adNotReady = "ad_not_ready"
    /// The cached ad is older than `max_ad_age`.
    case adExpired = "ad_expired"
    /// Less than `min_interval` since this placement's last show.
    case minInterval = "min_interval"
    /// `session_cap` is reached.
    case sessionCap = "session_cap"
    /// `hourly_cap` is reached.
    case hourlyCap = "hourly_cap"
    /// `daily_cap` is reached for the local day.
    case dailyCap = "daily_cap"
    /// A `caps` window is full.
    case windowCap = "window_cap"
    /// Less than the group's `min_interval` since a show of any member; the reason names the group.
    case groupMinInterval = "group_min_interval"
    /// The group's `session_cap` is reached.
    case groupSessionCap = "group_session_cap"
    /// The group's `hourly_cap` is reached.
    case groupHourlyCap = "group_hourly_cap"
    /// The group's `daily_cap` is reached for the local day.
    case groupDailyCap = "group_daily_cap"
    /// A window of the group's `caps` is full.
    case groupWindowCap = "group_window_cap"
    /// A load of this placement is in progress.
    case alreadyLoading = "already_loading"
    /// An ad is cached and not expired.
    case alreadyLoaded = "already_loaded"
    /// A reward asked for a placement that is not rewarded or rewarded_interstitial.
    case notRewardedFormat = "not_rewarded_format"
    /// No show of this placement to reward.
    case noShow = "no_show"
    /// No `reward_earned` for the current show.
    case rewardNotEarned = "reward_not_earned"
    /// The current show's reward was already granted.
    case rewardAlreadyGranted = "reward_already_granted"
}


extension ReasonCode {
    /// The codes in the order a decision on an ask of `kind` lists them (rules.md §7): the show table's order
    /// (`allCases`), except that a `reward` ask lists `no_user_choice` after `no_show`, as its own table does.
    package static func listed(for kind: AskKind) -> [ReasonCode] {
        guard kind == .reward else { return allCases }
        let reward: [ReasonCode] = [
            .unknownPlacement, .placementDisabled, .notRewardedFormat, .noShow, .noUserChoice, .rewardNotEarned, .rewardAlreadyGranted,
        ]
        return reward + allCases.filter { !reward.contains($0) }
    }

    /// Codes in the order a decision on an ask of `kind` lists them.
    package static func sorted(_ codes: Set<ReasonCode>, for kind: AskKind) -> [ReasonCode] {
        listed(for: kind).filter(codes.contains)
    }
}

extension ReasonCode {
    /// What a log line or `print` shows: the spelling of rule files, scenario files and reports (`ad_not_ready`), not the
    /// Swift case name (`adNotReady`).
    public var description: String { rawValue }
}
