import Foundation

/// A placement's or group's settings as plain numbers and flags, built at load time.
///
/// The evaluator reads only this on the allow path; the `Located` settings (with their file
/// names) are read only to build a deny reason.
final class Limits: @unchecked Sendable {
    // Every setting is a `let`: shared across threads without locks, and read without exclusivity checks.
    struct Window: Sendable {
        var max: Int
        var length: Int64
    }

    let format: AdFormat
    let enabled: Bool
    let excludePremium: Bool
    let blockDuringFullscreen: Bool
    let requireUserChoice: Bool
    let showOnFirstLoad: Bool
    let showIfReady: Bool
    let allowDeferred: Bool
    /// Milliseconds; 0 means no pacing.
    let minInterval: Int64
    /// -1 means no cap.
    let sessionCap: Int
    let hourlyCap: Int
    let dailyCap: Int
    let windows: [Window]
    let maxAdAge: Int64
    /// 0 means not set.
    let everyNActions: Int
    /// -1 means not set.
    let launchMaxWait: Int64
    /// app_open: how long after a return from background a `resume` show may come.
    let resumeMaxDelay: Int64
    let graceSessions: Int
    let graceInstall: Int64
    let graceSessionStart: Int64
    /// Where the deny messages come from; they are written on the first deny, not at load time,
    /// so a policy of 50,000 placements does not hold a million strings it may never show.
    private let placementSource: Boxed<Placement>?
    private let groupSource: Boxed<PlacementGroup>?
    private var messageTable: Messages?
    private static let messageLock = NSLock()

    /// The deny messages of this placement or group, built once and shared.
    var messages: Messages {
        Limits.messageLock.lock()
        defer { Limits.messageLock.unlock() }
        if let table = messageTable { return table }
        let table: Messages
        if let placementSource {
            table = Messages(placementSource.value, self)
        } else if let groupSource {
            table = Messages(groupSource.value, self)
        } else {
            table = Messages()
        }
        messageTable = table
        return table
    }

    /// The texts of deny reasons: they depend only on the policy, so a deny formats no string.
    final class Messages: Sendable {
        let disabled: String, premiumShow: String, premiumLoad: String, alreadyShowing: String
        let graceSessions: String, graceInstall: String, graceSessionStart: String
        let noUserChoice: String, everyNActions: String, expired: String, notReady: String
        let minInterval: String, sessionCap: String, hourlyCap: String, dailyCap: String
        let windowCaps: [String]
        let alreadyLoading: String, alreadyLoaded: String, notRewarded: String, noShow: String, rewardWithoutChoice: String

        init() {
            (disabled, premiumShow, premiumLoad, alreadyShowing) = ("", "", "", "")
            (graceSessions, graceInstall, graceSessionStart) = ("", "", "")
            (noUserChoice, everyNActions, expired, notReady) = ("", "", "", "")
            (minInterval, sessionCap, hourlyCap, dailyCap) = ("", "", "", "")
            windowCaps = []
            (alreadyLoading, alreadyLoaded, notRewarded, noShow, rewardWithoutChoice) = ("", "", "", "", "")
        }

        init(_ p: Placement, _ limits: Limits) {
            let id = p.id
            disabled = "placement \(id) is disabled (enabled: false)"
            premiumShow = "premium users never see \(id) (exclude_premium)"
            premiumLoad = "premium users never load \(id) (exclude_premium)"
            alreadyShowing = "\(id) is already on screen"
            graceSessions = "no \(id) in the first \(limits.graceSessions) sessions after install (grace.first_sessions)"
            graceInstall = "less than \(p.graceAfterInstall.value) since install (grace.after_install)"
            graceSessionStart = "less than \(p.graceAfterSessionStart.value) since the session started (grace.after_session_start)"
            noUserChoice = "the user has not chosen to watch \(id) since its last show (require_user_choice)"
            everyNActions = "fewer than \(limits.everyNActions) actions since the last show of \(id) (every_n_actions)"
            expired = "the cached ad for \(id) is older than max_ad_age \(p.maxAdAge.value)"
            notReady = "no ad is loaded for \(id)"
            minInterval = "min_interval \(p.minInterval.value) not elapsed since the last show of \(id)"
            sessionCap = "session_cap \(limits.sessionCap) reached in this session"
            hourlyCap = "hourly_cap \(limits.hourlyCap) reached in the last hour"
            dailyCap = "daily_cap \(limits.dailyCap) reached today"
            windowCaps = p.caps.map { "\($0.value.max) shows in \($0.value.window) reached (caps)" }
            alreadyLoading = "a load of \(id) is in progress"
            alreadyLoaded = "an ad for \(id) is loaded and not expired (max_ad_age \(p.maxAdAge.value))"
            notRewarded = "\(id) is \(p.format.value.rawValue), which grants no reward"
            noShow = "no show of \(id) to reward"
            rewardWithoutChoice = "the show of \(id) had no user choice before it (require_user_choice)"
        }

        init(_ g: PlacementGroup, _ limits: Limits) {
            let prefix = "group \(g.id): "
            (disabled, premiumShow, premiumLoad, alreadyShowing) = ("", "", "", "")
            (graceSessions, graceInstall, graceSessionStart) = ("", "", "")
            (noUserChoice, everyNActions, expired, notReady) = ("", "", "", "")
            (alreadyLoading, alreadyLoaded, notRewarded, noShow, rewardWithoutChoice) = ("", "", "", "", "")
            minInterval = prefix + "min_interval \(RuleDuration(milliseconds: limits.minInterval)) not elapsed since its last show"
            sessionCap = prefix + "session_cap \(limits.sessionCap) reached in this session"
            hourlyCap = prefix + "hourly_cap \(limits.hourlyCap) reached in the last hour"
            dailyCap = prefix + "daily_cap \(limits.dailyCap) reached today"
            windowCaps = g.caps.map { prefix + "\($0.value.max) shows in \($0.value.window) reached (caps)" }
        }
    }

    init(_ box: Boxed<Placement>) {
        let p = box.value
        placementSource = box
        groupSource = nil
        format = p.format.value
        enabled = p.enabled.value
        excludePremium = p.excludePremium.value
        blockDuringFullscreen = p.blockDuringFullscreen.value
        requireUserChoice = p.requireUserChoice.value
        showOnFirstLoad = p.showOnFirstLoad.value
        showIfReady = p.showIfReady.value
        allowDeferred = p.allowDeferred.value
        minInterval = p.minInterval.value.milliseconds
        sessionCap = p.sessionCap?.value ?? -1
        hourlyCap = p.hourlyCap?.value ?? -1
        dailyCap = p.dailyCap?.value ?? -1
        windows = p.caps.map { Window(max: $0.value.max, length: $0.value.window.milliseconds) }
        maxAdAge = p.maxAdAge.value.milliseconds
        everyNActions = p.everyNActions?.value ?? 0
        launchMaxWait = p.launchMaxWait?.value.milliseconds ?? -1
        resumeMaxDelay = p.resumeMaxDelay.value.milliseconds
        graceSessions = p.graceFirstSessions.value
        graceInstall = p.graceAfterInstall.value.milliseconds
        graceSessionStart = p.graceAfterSessionStart.value.milliseconds
    }

    init(_ box: Boxed<PlacementGroup>) {
        let g = box.value
        placementSource = nil
        groupSource = box
        format = .banner
        (enabled, excludePremium, blockDuringFullscreen, requireUserChoice) = (true, true, true, false)
        (showOnFirstLoad, showIfReady, allowDeferred) = (true, true, false)
        (maxAdAge, everyNActions, launchMaxWait, resumeMaxDelay) = (0, 0, -1, 0)
        (graceSessions, graceInstall, graceSessionStart) = (0, 0, 0)
        minInterval = g.minInterval?.value.milliseconds ?? 0
        sessionCap = g.sessionCap?.value ?? -1
        hourlyCap = g.hourlyCap?.value ?? -1
        dailyCap = g.dailyCap?.value ?? -1
        windows = g.caps.map { Window(max: $0.value.max, length: $0.value.window.milliseconds) }
    }
}
