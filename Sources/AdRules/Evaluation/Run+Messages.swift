import Foundation

/// The texts of deny reasons, built from the compiled policy only when a reason's message is read: a deny
/// records which template and which placement, nothing is formatted on the decision path and nothing is
/// cached, so a policy of 50,000 placements holds no strings it may never show.
extension Run {
    enum Message: Sendable {
        case disabled, premiumShow, premiumLoad, alreadyShowing, graceSessions, graceInstall, graceSessionStart
        case noUserChoice, everyNActions, expired, notReady, minInterval, alreadyLoading, alreadyLoaded
        case notRewarded, noShow, rewardWithoutChoice
    }

    /// The text of a reason about this placement, rendered when it is read.
    func message(_ kind: Message) -> ReasonText { ReasonText(.placement(kind, policy: policy, index: index)) }

    /// The text of a pacing or cap reason, of this placement (group < 0) or of a group, rendered when it is read.
    func capMessage(_ kind: CapKind, window: Int?, group: Int, day: (start: Int64, zone: TimeZone)? = nil) -> ReasonText {
        ReasonText(.cap(kind, window: window, group: group, policy: policy, index: index, day: day?.start, zone: day?.zone))
    }

    static func text(_ kind: Message, policy: PolicyStorage, index: Int) -> String {
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

    static func capText(_ kind: CapKind, window: Int?, group: Int, policy: PolicyStorage, index: Int) -> String {
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

/// A reason's message, kept as a template and its arguments until it is read.
struct ReasonText: Sendable {
    enum Source: Sendable {
        case literal(String)
        case placement(Run.Message, policy: PolicyStorage, index: Int)
        case cap(Run.CapKind, window: Int?, group: Int, policy: PolicyStorage, index: Int, day: Int64?, zone: TimeZone?)
    }

    let source: Source

    init(_ source: Source) { self.source = source }

    /// The message.
    var string: String {
        switch source {
        case .literal(let text): return text
        case .placement(let kind, let policy, let index): return Run.text(kind, policy: policy, index: index)
        case .cap(let kind, let window, let group, let policy, let index, let day, let zone):
            let text = Run.capText(kind, window: window, group: group, policy: policy, index: index)
            guard let day, let zone else { return text }
            // The day and the zone it is counted in: a product manager reading "today" needs both.
            let local = Timestamps.format(milliseconds: day, offsetSeconds: zone.secondsFromGMT(for: Milliseconds.date(day)))
            return text + " (\(local.prefix(10)) in \(zone.identifier); it resets at the next local midnight)"
        }
    }
}
