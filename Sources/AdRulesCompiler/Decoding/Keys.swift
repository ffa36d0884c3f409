import AdRules
/// The keys each mapping of a rule file accepts: the single source for decoding, "did you mean" and the JSON Schema.
public enum RuleFileKeys {
    public static let top = [
        "version", "environment", "timezone", "session_timeout", "fullscreen_timeout", "load_timeout",
        "defaults", "placements", "groups", "attributes", "rules",
    ]
    public static let placement = [
        "format", "ad_unit", "enabled", "exclude_premium", "block_during_fullscreen", "min_interval",
        "daily_cap", "hourly_cap", "session_cap", "caps", "max_ad_age", "every_n_actions",
        "require_user_choice", "launch", "resume", "grace",
    ]
    public static let launch = ["show_on_first_load", "max_wait"]
    public static let resume = ["show_if_ready", "allow_deferred", "max_delay"]
    public static let grace = ["first_sessions", "after_install", "after_session_start"]
    public static let cap = ["max", "window"]
    public static let group = ["placements", "min_interval", "daily_cap", "hourly_cap", "session_cap", "caps"]
    public static let attribute = ["type", "default"]
    public static let rule = ["id", "deny", "when", "message"]
    /// Top-level settings that several files may repeat only with equal values.
    public static let sharedSettings = ["environment", "timezone", "session_timeout", "fullscreen_timeout", "load_timeout", "defaults"]
}
