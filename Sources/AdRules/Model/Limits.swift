/// A placement's or group's settings as plain numbers and flags, built at load time.
///
/// The evaluator reads only this on the allow path; the `Located` settings (with their file
/// names) are read only to build a deny reason.
final class Limits: @unchecked Sendable {
    // Set only in the initialisers; read-only afterwards (so sharing across threads is safe).
    struct Window: Sendable {
        var max: Int
        var length: Int64
    }

    var format: AdFormat = .banner
    var enabled = true
    var excludePremium = true
    var blockDuringFullscreen = true
    var requireUserChoice = false
    var showOnFirstLoad = true
    var showIfReady = true
    var allowDeferred = false
    /// Milliseconds; 0 means no pacing.
    var minInterval: Int64 = 0
    /// -1 means no cap.
    var sessionCap = -1
    var hourlyCap = -1
    var dailyCap = -1
    var windows: [Window] = []
    var maxAdAge: Int64 = 3_600_000
    /// 0 means not set.
    var everyNActions = 0
    /// -1 means not set.
    var launchMaxWait: Int64 = -1
    var graceSessions = 0
    var graceInstall: Int64 = 0
    var graceSessionStart: Int64 = 0

    init(_ p: Placement) {
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
        graceSessions = p.graceFirstSessions.value
        graceInstall = p.graceAfterInstall.value.milliseconds
        graceSessionStart = p.graceAfterSessionStart.value.milliseconds
    }

    init(_ g: PlacementGroup) {
        minInterval = g.minInterval?.value.milliseconds ?? 0
        sessionCap = g.sessionCap?.value ?? -1
        hourlyCap = g.hourlyCap?.value ?? -1
        dailyCap = g.dailyCap?.value ?? -1
        windows = g.caps.map { Window(max: $0.value.max, length: $0.value.window.milliseconds) }
    }

    /// Whether any cap counts shows by calendar day (so the evaluator needs the local day).
    var hasDailyCap: Bool { dailyCap >= 0 }
}
