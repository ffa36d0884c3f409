
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
///
/// Its settings are listed, with their keys, kinds and defaults, in ``PlacementSetting``.
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
}

extension Placement {
    /// A placement of `format` with every other setting at its built-in default
    /// (``PlacementSetting/builtInDefault(for:)``), located at the placement.
    ///
    /// Each field is written once, with its value: every placement of a policy is made here, by the loader and by
    /// `Policy(compiled:)`, and going through the table (a look-up, then a `SettingValue` made and taken apart for
    /// each setting) cost about 3,700 instructions a placement. `PlacementDefaultsTests` holds the two equal. (Through
    /// the memberwise initializer, declared here so that the struct keeps it: assigning the fields one by one left the
    /// optimizer a retain and a release of the whole placement at the end.)
    package init(id: String, location: SourceLocation, format: Located<AdFormat>) {
        self.init(
            id: id, location: location, format: format, adUnit: nil, enabled: Located(true, at: location),
            excludePremium: Located(true, at: location), blockDuringFullscreen: Located(true, at: location),
            minInterval: Located(.zero, at: location), dailyCap: nil, hourlyCap: nil, sessionCap: nil, caps: [],
            maxAdAge: Located(.hours(1), at: location), everyNActions: nil,
            requireUserChoice: Located(format.value == .rewarded, at: location), showOnFirstLoad: Located(true, at: location),
            launchMaxWait: nil, showIfReady: Located(true, at: location), allowDeferred: Located(false, at: location),
            resumeMaxDelay: Located(.seconds(3), at: location), graceFirstSessions: Located(0, at: location),
            graceAfterInstall: Located(.zero, at: location), graceAfterSessionStart: Located(.zero, at: location))
    }
}

/// Shared pacing and caps across placements: a group has its own settings, not a placement's.
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
    public var caps: [Located<WindowCap>] = []

    /// A group with no pacing and no caps yet: its settings (``PlacementSetting/groupSettings``) are set as read.
    package init(id: String, location: SourceLocation, placements: [Located<String>]) {
        self.id = id
        self.location = location
        self.placements = placements
    }
}
