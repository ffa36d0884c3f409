/// A setting a rule file may write on a placement, and for pacing and caps on a group as well.
///
/// This is the one table of settings: what each key is called, what kind of value it takes, its
/// built-in default, where it may be written, its one-line description and where it lives on a
/// ``Placement`` (and a ``PlacementGroup``). Decoding, `defaults:` resolution, the JSON Schema, the
/// compiled document, the semantic diff and the docs' table of keys are all read from it. Adding a
/// setting means a case here, its field on ``Placement`` (the source form) and on the evaluator's
/// limits (the compiled form), and the code that gives it meaning.
///
/// The cases are in rule-file key order, the order of the schema and the docs; each case's meaning is its ``summary``
/// (one text, which the docs and the schema print), so the cases carry no comment of their own.
public enum PlacementSetting: String, CaseIterable, Sendable {
    case format
    case adUnit = "ad_unit"
    case enabled
    case excludePremium = "exclude_premium"
    case blockDuringFullscreen = "block_during_fullscreen"
    case minInterval = "min_interval"
    case dailyCap = "daily_cap"
    case hourlyCap = "hourly_cap"
    case sessionCap = "session_cap"
    case caps
    case maxAdAge = "max_ad_age"
    case everyNActions = "every_n_actions"
    case requireUserChoice = "require_user_choice"
    case showOnFirstLoad = "launch.show_on_first_load"
    case launchMaxWait = "launch.max_wait"
    case showIfReady = "resume.show_if_ready"
    case allowDeferred = "resume.allow_deferred"
    case resumeMaxDelay = "resume.max_delay"
    case graceFirstSessions = "grace.first_sessions"
    case graceAfterInstall = "grace.after_install"
    case graceAfterSessionStart = "grace.after_session_start"

    /// A nested block of placement keys.
    public enum Block: String, CaseIterable, Sendable {
        /// `launch:`, `resume:` and `grace:`.
        case launch, resume, grace

        /// Whether only `app_open` placements may write the block (`policy/format-key` otherwise).
        public var isAppOpenOnly: Bool { self != .grace }

        /// The block's one-line description.
        public var summary: String {
            switch self {
            case .launch: return "app_open only: the cold-start show."
            case .resume: return "app_open only: shows on resume."
            case .grace: return "Grace periods for new users and new sessions."
            }
        }
    }

    /// What a setting's value is.
    public enum Kind: Sendable, Hashable {
        /// `true` or `false`.
        case flag
        /// A whole number of at least `minimum`.
        case count(minimum: Int)
        /// A duration (`30s`, `4m`).
        case duration
        /// An ad format.
        case format
        /// A text.
        case text
        /// A list of `{max, window}` rolling windows.
        case windows
    }

    /// The key as a rule file writes it, with its block: `min_interval`, `launch.max_wait`.
    public var key: String { rawValue }

    /// The block the key is written in (its key's prefix, `launch.`); nil for a key written on the placement itself.
    /// (A `switch`, not a look-up: resolving each placement of a policy reads it for every default it takes.)
    public var block: Block? {
        switch self {
        case .showOnFirstLoad, .launchMaxWait: return .launch
        case .showIfReady, .allowDeferred, .resumeMaxDelay: return .resume
        case .graceFirstSessions, .graceAfterInstall, .graceAfterSessionStart: return .grace
        case .format, .adUnit, .enabled, .excludePremium, .blockDuringFullscreen, .minInterval, .dailyCap, .hourlyCap, .sessionCap, .caps,
            .maxAdAge, .everyNActions, .requireUserChoice:
            return nil
        }
    }

    /// The key inside its block (`max_wait`), or the whole key.
    public var name: String {
        guard let dot = rawValue.firstIndex(of: ".") else { return rawValue }
        return String(rawValue[rawValue.index(after: dot)...])
    }

    /// The settings written in `block`, in key order.
    public static func settings(in block: Block) -> [PlacementSetting] { blockSettings[block] ?? [] }
    private static let blockSettings = Dictionary(grouping: allCases.filter { $0.block != nil }) { $0.block ?? .grace }

    /// The most `caps` windows a placement or group may have, in rule files and in compiled policies.
    package static let maxWindowCaps = 64

    /// Whether the setting caps shows (session, hourly, daily): a history must be able to reach it.
    package var isCap: Bool {
        switch self {
        case .dailyCap, .hourlyCap, .sessionCap: return true
        default: return false
        }
    }

    /// The kind of value the setting takes.
    public var kind: Kind {
        switch self {
        case .format: return .format
        case .adUnit: return .text
        case .enabled, .excludePremium, .blockDuringFullscreen, .requireUserChoice, .showOnFirstLoad, .showIfReady, .allowDeferred:
            return .flag
        case .minInterval, .maxAdAge, .launchMaxWait, .resumeMaxDelay, .graceAfterInstall, .graceAfterSessionStart:
            return .duration
        case .dailyCap, .hourlyCap, .sessionCap, .graceFirstSessions: return .count(minimum: 0)
        case .everyNActions: return .count(minimum: 1)
        case .caps: return .windows
        }
    }

    /// The value a placement of `format` has when neither it nor `defaults:` sets the key; nil when it
    /// then has none (no cap, no wait).
    public func builtInDefault(for format: AdFormat) -> SettingValue? {
        switch self {
        case .format, .adUnit, .dailyCap, .hourlyCap, .sessionCap, .everyNActions, .launchMaxWait: return nil
        case .enabled, .excludePremium, .blockDuringFullscreen, .showOnFirstLoad, .showIfReady: return .flag(true)
        case .allowDeferred: return .flag(false)
        case .requireUserChoice: return .flag(format == .rewarded)
        case .minInterval, .graceAfterInstall, .graceAfterSessionStart: return .duration(.zero)
        case .maxAdAge: return .duration(.hours(1))
        case .resumeMaxDelay: return .duration(.seconds(3))
        case .graceFirstSessions: return .count(0)
        case .caps: return .windows([])
        }
    }

    /// Whether `defaults:` may set the key (a placement's format and ad unit are its own).
    public var isAllowedInDefaults: Bool { self != .format && self != .adUnit }

    /// The one-line description of the setting on a placement.
    public var summary: String {
        switch self {
        case .format: return "The ad format; fullscreen formats are the first four."
        case .adUnit: return "The network's ad unit id (documentation; linted for test ids)."
        case .enabled: return "false: every ask is denied placement_disabled."
        case .excludePremium: return "Premium users are never shown, offered or loaded this placement."
        case .blockDuringFullscreen: return "No show and no load while any fullscreen ad is on screen."
        case .minInterval: return "Pacing: time since the last show of this placement."
        case .dailyCap: return "Shows per calendar day in the policy time zone."
        case .hourlyCap: return "Shows in the last rolling 60 minutes."
        case .sessionCap: return "Shows in the current session."
        case .caps: return "Extra rolling windows: at most `max` shows in any `window`."
        case .maxAdAge: return "A cached ad older than this is expired (AdMob app open: 4h; Pangle and most networks: 1h, past which a show is not counted as an impression)."
        case .everyNActions: return "An action show needs at least N recorded action events since the last show."
        case .requireUserChoice: return "Show only after an explicit user choice (default true for rewarded, else false)."
        case .showOnFirstLoad: return "On a cold start, show when the first load completes."
        case .launchMaxWait: return "The first-load show only if the load completes within this time of launch."
        case .showIfReady: return "On resume, show if an ad is ready."
        case .allowDeferred: return "Allow a show when a load completes after a resume (discouraged)."
        case .resumeMaxDelay: return "A resume show must come within this time of the return from background."
        case .graceFirstSessions: return "No show in the first N sessions after install."
        case .graceAfterInstall: return "No show until this long after install."
        case .graceAfterSessionStart: return "No show until this long after the session started."
        }
    }

    /// The one-line description of the setting on a group; nil when groups do not have it.
    ///
    /// A group has pacing and caps only, none of them set unless written.
    public var groupSummary: String? {
        switch self {
        case .minInterval: return "Pacing: time since the last show of any member."
        case .dailyCap: return "Shows of all members per calendar day."
        case .hourlyCap: return "Shows of all members in the last rolling 60 minutes."
        case .sessionCap: return "Shows of all members in the current session."
        case .caps: return summary
        default: return nil
        }
    }

    /// Where the setting lives on a placement. `set(_:in:)` (PlacementSetting+Set.swift) writes the same fields with a
    /// `switch`, for decoding speed: a setting added here is added there too (`SettingWriteTests` holds them equal).
    package var access: SettingAccess<Placement> {
        switch self {
        case .format: return .format(\.format)
        case .adUnit: return .text(\.adUnit)
        case .enabled: return .flag(\.enabled)
        case .excludePremium: return .flag(\.excludePremium)
        case .blockDuringFullscreen: return .flag(\.blockDuringFullscreen)
        case .minInterval: return .duration(\.minInterval)
        case .dailyCap: return .optionalCount(\.dailyCap)
        case .hourlyCap: return .optionalCount(\.hourlyCap)
        case .sessionCap: return .optionalCount(\.sessionCap)
        case .caps: return .windows(\.caps)
        case .maxAdAge: return .duration(\.maxAdAge)
        case .everyNActions: return .optionalCount(\.everyNActions)
        case .requireUserChoice: return .flag(\.requireUserChoice)
        case .showOnFirstLoad: return .flag(\.showOnFirstLoad)
        case .launchMaxWait: return .optionalDuration(\.launchMaxWait)
        case .showIfReady: return .flag(\.showIfReady)
        case .allowDeferred: return .flag(\.allowDeferred)
        case .resumeMaxDelay: return .duration(\.resumeMaxDelay)
        case .graceFirstSessions: return .count(\.graceFirstSessions)
        case .graceAfterInstall: return .duration(\.graceAfterInstall)
        case .graceAfterSessionStart: return .duration(\.graceAfterSessionStart)
        }
    }

    /// Where the setting lives on a group; nil when groups do not have it.
    package var groupAccess: SettingAccess<PlacementGroup>? {
        switch self {
        case .minInterval: return .optionalDuration(\.minInterval)
        case .dailyCap: return .optionalCount(\.dailyCap)
        case .hourlyCap: return .optionalCount(\.hourlyCap)
        case .sessionCap: return .optionalCount(\.sessionCap)
        case .caps: return .windows(\.caps)
        default: return nil
        }
    }

    /// The settings a group may write, in key order.
    public static let groupSettings = allCases.filter { $0.groupSummary != nil }
}

/// The value of one setting.
public enum SettingValue: Sendable, Hashable, CustomStringConvertible {
    /// `true` or `false`.
    case flag(Bool)
    /// A whole number.
    case count(Int)
    /// A duration.
    case duration(RuleDuration)
    /// An ad format.
    case format(AdFormat)
    /// A text.
    case text(String)
    /// Rolling windows, each with its location.
    case windows([Located<WindowCap>])

    /// The value as a rule file writes it (`true`, `3`, `4m`, `app_open`); windows as `max/window` pairs.
    public var description: String {
        switch self {
        case .flag(let v): return "\(v)"
        case .count(let v): return "\(v)"
        case .duration(let v): return v.description
        case .format(let v): return v.rawValue
        case .text(let v): return v
        case .windows(let caps): return caps.map { "\($0.value.max)/\($0.value.window)" }.joined(separator: ",")
        }
    }

    /// The value as a rule file writes it, windows as a `caps:` list (`[{max: 3, window: 1h}]`): what findings and
    /// change lists quote. Durations are in their shortest form (`60s` reads as `1m`).
    package var written: String {
        guard case .windows(let caps) = self else { return description }
        return "[" + caps.map { "{max: \($0.value.max), window: \($0.value.window)}" }.joined(separator: ", ") + "]"
    }

    /// What two values are compared by, in a policy split over files and in a report of changes: as ``written``, but
    /// windows in order of their length (each window is a cap of its own, and the order they are written in means
    /// nothing).
    package var compared: String {
        guard case .windows(let caps) = self else { return written }
        return SettingValue.windows(caps.sorted { ($0.value.window.milliseconds, $0.value.max) < ($1.value.window.milliseconds, $1.value.max) }).written
    }
}
