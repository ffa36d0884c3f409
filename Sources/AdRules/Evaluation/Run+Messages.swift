/// The texts of deny reasons, built from the compiled policy when a reason is given: nothing is cached,
/// so a policy of 50,000 placements holds no strings it may never show.
extension Run {
    enum Message {
        case disabled, premiumShow, premiumLoad, alreadyShowing, graceSessions, graceInstall, graceSessionStart
        case noUserChoice, everyNActions, expired, notReady, minInterval, alreadyLoading, alreadyLoaded
        case notRewarded, noShow, rewardWithoutChoice
    }

    /// The text of a reason about this placement.
    func message(_ kind: Message) -> String {
        let id = policy.placements[index].id
        switch kind {
        case .disabled: return "placement \(id) is disabled (enabled: false)"
        case .premiumShow: return "premium users never see \(id) (exclude_premium)"
        case .premiumLoad: return "premium users never load \(id) (exclude_premium)"
        case .alreadyShowing: return "\(id) is already on screen"
        case .graceSessions:
            return "no \(id) in the first \(policy.placements[index].graceFirstSessions.value) sessions after install (grace.first_sessions)"
        case .graceInstall: return "less than \(policy.placements[index].graceAfterInstall.value) since install (grace.after_install)"
        case .graceSessionStart:
            return "less than \(policy.placements[index].graceAfterSessionStart.value) since the session started (grace.after_session_start)"
        case .noUserChoice: return "the user has not chosen to watch \(id) since its last show (require_user_choice)"
        case .everyNActions:
            return "fewer than \(policy.placementLimits[index].everyNActions) actions since the last show of \(id) (every_n_actions)"
        case .expired: return "the cached ad for \(id) is older than max_ad_age \(policy.placements[index].maxAdAge.value)"
        case .notReady: return "no ad is loaded for \(id)"
        case .minInterval: return "min_interval \(policy.placements[index].minInterval.value) not elapsed since the last show of \(id)"
        case .alreadyLoading: return "a load of \(id) is in progress"
        case .alreadyLoaded: return "an ad for \(id) is loaded and not expired (max_ad_age \(policy.placements[index].maxAdAge.value))"
        case .notRewarded: return "\(id) is \(policy.placementLimits[index].format.rawValue), which grants no reward"
        case .noShow: return "no show of \(id) to reward"
        case .rewardWithoutChoice: return "the show of \(id) had no user choice before it (require_user_choice)"
        }
    }

    /// The text of a pacing or cap reason, of this placement (group < 0) or of a group.
    func capMessage(_ kind: CapKind, window: Int?, group: Int) -> String {
        let prefix = group >= 0 ? "group \(policy.groups[group].id): " : ""
        let limits = group >= 0 ? policy.groupLimits[group] : policy.placementLimits[index].pacing
        if let window {
            let cap = limits.windows[window]
            return prefix + "\(cap.max) shows in \(RuleDuration(milliseconds: cap.length)) reached (caps)"
        }
        switch kind {
        case .session: return prefix + "session_cap \(limits.sessionCap) reached in this session"
        case .hourly: return prefix + "hourly_cap \(limits.hourlyCap) reached in the last hour"
        case .daily: return prefix + "daily_cap \(limits.dailyCap) reached today"
        case .minInterval:
            return prefix + "min_interval \(RuleDuration(milliseconds: limits.minInterval)) not elapsed since its last show"
        }
    }
}
