
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
    public var enabled: Located<Bool> = .unset
    /// Premium users are never shown, offered or loaded this placement.
    public var excludePremium: Located<Bool> = .unset
    /// No show and no load while any fullscreen ad is on screen.
    public var blockDuringFullscreen: Located<Bool> = .unset
    /// Pacing since this placement's last show.
    public var minInterval: Located<RuleDuration> = .unset
    /// Shows per calendar day in the policy time zone.
    public var dailyCap: Located<Int>?
    /// Shows in the last rolling 60 minutes.
    public var hourlyCap: Located<Int>?
    /// Shows in the current session.
    public var sessionCap: Located<Int>?
    /// Extra rolling windows.
    public var caps: [Located<WindowCap>] = []
    /// A cached ad older than this is expired.
    public var maxAdAge: Located<RuleDuration> = .unset
    /// An `action` show needs this many `action` events since the last show.
    public var everyNActions: Located<Int>?
    /// Show only after an explicit user choice.
    public var requireUserChoice: Located<Bool> = .unset
    /// app_open: on a cold start, show when the first load completes.
    public var showOnFirstLoad: Located<Bool> = .unset
    /// app_open: the first-load show only if the load completes within this time of launch.
    public var launchMaxWait: Located<RuleDuration>?
    /// app_open: on resume, show if an ad is ready.
    public var showIfReady: Located<Bool> = .unset
    /// app_open: allow a show when a load completes after a resume.
    public var allowDeferred: Located<Bool> = .unset
    /// app_open: a `resume` show must come within this time of the return from background.
    public var resumeMaxDelay: Located<RuleDuration> = .unset
    /// No show in the first N sessions after install.
    public var graceFirstSessions: Located<Int> = .unset
    /// No show until this long after install.
    public var graceAfterInstall: Located<RuleDuration> = .unset
    /// No show until this long after the session started.
    public var graceAfterSessionStart: Located<RuleDuration> = .unset

    /// A placement of `format` with every other setting at its built-in default, located at the placement.
    package init(id: String, location: SourceLocation, format: Located<AdFormat>) {
        self.id = id
        self.location = location
        self.format = format
        for (setting, value) in PlacementSetting.builtInDefaults[format.value] ?? [] { setting.set(Located(value, at: location), in: &self) }
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
