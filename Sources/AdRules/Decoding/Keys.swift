/// The keys each mapping of a rule file accepts: the single source for decoding, "did you mean" and the JSON Schema.
enum Keys {
    static let top = [
        "version", "environment", "timezone", "session_timeout", "fullscreen_timeout", "load_timeout",
        "defaults", "placements", "groups", "attributes", "rules",
    ]
    static let placement = [
        "format", "ad_unit", "enabled", "exclude_premium", "block_during_fullscreen", "min_interval",
        "daily_cap", "hourly_cap", "session_cap", "caps", "max_ad_age", "every_n_actions",
        "require_user_choice", "launch", "resume", "grace",
    ]
    static let launch = ["show_on_first_load", "max_wait"]
    static let resume = ["show_if_ready", "allow_deferred"]
    static let grace = ["first_sessions", "after_install", "after_session_start"]
    static let cap = ["max", "window"]
    static let group = ["placements", "min_interval", "daily_cap", "hourly_cap", "session_cap", "caps"]
    static let attribute = ["type", "default"]
    static let rule = ["id", "deny", "when", "message"]
    /// Top-level settings that several files may repeat only with equal values.
    static let sharedSettings = ["environment", "timezone", "session_timeout", "fullscreen_timeout", "load_timeout", "defaults"]
}
