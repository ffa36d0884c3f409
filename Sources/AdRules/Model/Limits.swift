/// A placement's or group's pacing and caps as plain numbers and flags, built at load time.
///
/// The evaluator reads only these on the allow path; the `Located` settings, with their file
/// names, are read only to build a deny reason.
struct Limits: Sendable {
    struct Window: Sendable {
        var max: Int
        var length: Int64
    }

    /// Milliseconds; 0 means no pacing.
    let minInterval: Int64
    /// -1 means no cap.
    let sessionCap: Int
    let hourlyCap: Int
    let dailyCap: Int
    let windows: [Window]

    init(_ g: PlacementGroup) {
        minInterval = g.minInterval?.value.milliseconds ?? 0
        sessionCap = g.sessionCap?.value ?? -1
        hourlyCap = g.hourlyCap?.value ?? -1
        dailyCap = g.dailyCap?.value ?? -1
        windows = g.caps.map { Window(max: $0.value.max, length: $0.value.window.milliseconds) }
    }

    init(_ p: Placement) {
        minInterval = p.minInterval.value.milliseconds
        sessionCap = p.sessionCap?.value ?? -1
        hourlyCap = p.hourlyCap?.value ?? -1
        dailyCap = p.dailyCap?.value ?? -1
        windows = p.caps.map { Window(max: $0.value.max, length: $0.value.window.milliseconds) }
    }
}

/// A placement's settings as plain values, built at load time: its format, switches, readiness, grace
/// and pacing. Group limits are `Limits` alone; a group is not a placement.
struct PlacementLimits: Sendable {
    let format: AdFormat
    let enabled: Bool
    let excludePremium: Bool
    let blockDuringFullscreen: Bool
    let requireUserChoice: Bool
    let showOnFirstLoad: Bool
    let showIfReady: Bool
    let allowDeferred: Bool
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
    /// Pacing and caps, shaped as a group's are.
    let pacing: Limits

    init(_ p: Placement) {
        format = p.format.value
        enabled = p.enabled.value
        excludePremium = p.excludePremium.value
        blockDuringFullscreen = p.blockDuringFullscreen.value
        requireUserChoice = p.requireUserChoice.value
        showOnFirstLoad = p.showOnFirstLoad.value
        showIfReady = p.showIfReady.value
        allowDeferred = p.allowDeferred.value
        maxAdAge = p.maxAdAge.value.milliseconds
        everyNActions = p.everyNActions?.value ?? 0
        launchMaxWait = p.launchMaxWait?.value.milliseconds ?? -1
        resumeMaxDelay = p.resumeMaxDelay.value.milliseconds
        graceSessions = p.graceFirstSessions.value
        graceInstall = p.graceAfterInstall.value.milliseconds
        graceSessionStart = p.graceAfterSessionStart.value.milliseconds
        pacing = Limits(p)
    }
}
