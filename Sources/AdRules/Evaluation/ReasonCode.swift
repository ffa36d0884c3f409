/// The stable codes of deny reasons, in the order decisions list them.
public enum ReasonCode: String, Sendable, Hashable, Codable, CaseIterable {
    case unknownPlacement = "unknown_placement"
    case placementDisabled = "placement_disabled"
    case premiumUser = "premium_user"
    case customRule = "custom_rule"
    case ruleError = "rule_error"
    case triggerNotSupported = "trigger_not_supported"
    case triggerDisabled = "trigger_disabled"
    case deferredShow = "deferred_show"
    case fullscreenActive = "fullscreen_active"
    case alreadyShowing = "already_showing"
    case graceSessions = "grace_sessions"
    case graceInstall = "grace_install"
    case graceSessionStart = "grace_session_start"
    case noUserChoice = "no_user_choice"
    case everyNActions = "every_n_actions"
    case adNotReady = "ad_not_ready"
    case adExpired = "ad_expired"
    case minInterval = "min_interval"
    case sessionCap = "session_cap"
    case hourlyCap = "hourly_cap"
    case dailyCap = "daily_cap"
    case windowCap = "window_cap"
    case groupMinInterval = "group_min_interval"
    case groupSessionCap = "group_session_cap"
    case groupHourlyCap = "group_hourly_cap"
    case groupDailyCap = "group_daily_cap"
    case groupWindowCap = "group_window_cap"
    case alreadyLoading = "already_loading"
    case alreadyLoaded = "already_loaded"
    case notRewardedFormat = "not_rewarded_format"
    case noShow = "no_show"
    case rewardNotEarned = "reward_not_earned"
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
