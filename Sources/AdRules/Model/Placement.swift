
/// An extra rolling-window cap: at most `max` shows in any `window`.
public struct WindowCap: Sendable, Hashable {
    /// The most shows the window may hold.
    public var max: Int
    /// The window's length.
    public var window: RuleDuration

    /// Creates a window cap.
    public init(max: Int, window: RuleDuration) {
        self.max = max
        self.window = window
    }
}

/// A place in the app where an ad of one format may appear, with every setting resolved.
public struct Placement: Sendable, Hashable {
    /// The placement id.
    public var id: String
    /// Where the placement's id is written.
    public var location: SourceLocation
    /// The ad format.
    public var format: Located<AdFormat>
    /// The network's ad unit id, if given.
    public var adUnit: Located<String>?
    /// `false`: every ask is denied.
    public var enabled: Located<Bool>
    /// Premium users are never shown, offered or loaded this placement.
    public var excludePremium: Located<Bool>
    /// No show and no load while any fullscreen ad is on screen.
    public var blockDuringFullscreen: Located<Bool>
    /// Pacing since this placement's last show.
    public var minInterval: Located<RuleDuration>
    /// Shows per calendar day in the policy time zone.
    public var dailyCap: Located<Int>?
    /// Shows in the last rolling 60 minutes.
    public var hourlyCap: Located<Int>?
    /// Shows in the current session.
    public var sessionCap: Located<Int>?
    /// Extra rolling windows.
    public var caps: [Located<WindowCap>]
    /// A cached ad older than this is expired.
    public var maxAdAge: Located<RuleDuration>
    /// An `action` show needs this many `action` events since the last show.
    public var everyNActions: Located<Int>?
    /// Show only after an explicit user choice.
    public var requireUserChoice: Located<Bool>
    /// app_open: on a cold start, show when the first load completes.
    public var showOnFirstLoad: Located<Bool>
    /// app_open: the first-load show only if the load completes within this time of launch.
    public var launchMaxWait: Located<RuleDuration>?
    /// app_open: on resume, show if an ad is ready.
    public var showIfReady: Located<Bool>
    /// app_open: allow a show when a load completes after a resume.
    public var allowDeferred: Located<Bool>
    /// app_open: a `resume` show must come within this time of the return from background.
    public var resumeMaxDelay: Located<RuleDuration>
    /// No show in the first N sessions after install.
    public var graceFirstSessions: Located<Int>
    /// No show until this long after install.
    public var graceAfterInstall: Located<RuleDuration>
    /// No show until this long after the session started.
    public var graceAfterSessionStart: Located<RuleDuration>

    package init(id: String, location: SourceLocation, format: Located<AdFormat>, adUnit: Located<String>?, enabled: Located<Bool>, excludePremium: Located<Bool>, blockDuringFullscreen: Located<Bool>, minInterval: Located<RuleDuration>, dailyCap: Located<Int>?, hourlyCap: Located<Int>?, sessionCap: Located<Int>?, caps: [Located<WindowCap>], maxAdAge: Located<RuleDuration>, everyNActions: Located<Int>?, requireUserChoice: Located<Bool>, showOnFirstLoad: Located<Bool>, launchMaxWait: Located<RuleDuration>?, showIfReady: Located<Bool>, allowDeferred: Located<Bool>, resumeMaxDelay: Located<RuleDuration>, graceFirstSessions: Located<Int>, graceAfterInstall: Located<RuleDuration>, graceAfterSessionStart: Located<RuleDuration>) {
        self.id = id
        self.location = location
        self.format = format
        self.adUnit = adUnit
        self.enabled = enabled
        self.excludePremium = excludePremium
        self.blockDuringFullscreen = blockDuringFullscreen
        self.minInterval = minInterval
        self.dailyCap = dailyCap
        self.hourlyCap = hourlyCap
        self.sessionCap = sessionCap
        self.caps = caps
        self.maxAdAge = maxAdAge
        self.everyNActions = everyNActions
        self.requireUserChoice = requireUserChoice
        self.showOnFirstLoad = showOnFirstLoad
        self.launchMaxWait = launchMaxWait
        self.showIfReady = showIfReady
        self.allowDeferred = allowDeferred
        self.resumeMaxDelay = resumeMaxDelay
        self.graceFirstSessions = graceFirstSessions
        self.graceAfterInstall = graceAfterInstall
        self.graceAfterSessionStart = graceAfterSessionStart
    }
}

/// Shared pacing and caps across placements.
public struct PlacementGroup: Sendable, Hashable {
    /// The group id.
    public var id: String
    /// Where the group's id is written.
    public var location: SourceLocation
    /// The member placement ids, as written.
    public var placements: [Located<String>]
    /// Pacing since the last show of any member.
    public var minInterval: Located<RuleDuration>?
    /// Shows of all members per calendar day.
    public var dailyCap: Located<Int>?
    /// Shows of all members in the last rolling 60 minutes.
    public var hourlyCap: Located<Int>?
    /// Shows of all members in the current session.
    public var sessionCap: Located<Int>?
    /// Extra rolling windows over all members.
    public var caps: [Located<WindowCap>]

    package init(id: String, location: SourceLocation, placements: [Located<String>], minInterval: Located<RuleDuration>?, dailyCap: Located<Int>?, hourlyCap: Located<Int>?, sessionCap: Located<Int>?, caps: [Located<WindowCap>]) {
        self.id = id
        self.location = location
        self.placements = placements
        self.minInterval = minInterval
        self.dailyCap = dailyCap
        self.hourlyCap = hourlyCap
        self.sessionCap = sessionCap
        self.caps = caps
    }
}
