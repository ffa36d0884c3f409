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
    /// The nested blocks of a placement and their keys.
    public static let placementBlocks = [("launch", launch), ("resume", resume), ("grace", grace)]

    /// Where a key that is unknown in a mapping belongs, when it is valid one level deeper or shallower:
    /// the advice for a product manager who indented it wrongly.
    static func relocation(of key: String, allowed: [String]) -> String? {
        if allowed == placement {
            if let block = placementBlocks.first(where: { $0.1.contains(key) })?.0 {
                return "\(key) belongs in the `\(block):` block: indent it under `\(block):`"
            }
            if top.contains(key) { return "\(key) is a top-level setting: indent it less, at the start of a line" }
        }
        if let block = placementBlocks.first(where: { $0.1 == allowed })?.0, placement.contains(key) {
            return "\(key) is a placement setting, not part of `\(block):`: indent it one level less, beside `\(block):`"
        }
        if allowed == top, placement.contains(key) || placementBlocks.contains(where: { $0.1.contains(key) }) {
            return "\(key) is a placement setting: indent it under a placement in `placements:`, or under `defaults:` for every placement"
        }
        return nil
    }

    /// Top-level settings that several files may repeat only with equal values.
    public static let sharedSettings = ["environment", "timezone", "session_timeout", "fullscreen_timeout", "load_timeout", "defaults"]
}
