/// The keys each mapping of a usage model accepts: the single source for decoding and "did you mean".
public enum ModelKeys {
    /// The top-level keys of a usage model.
    public static let top = ["version", "users", "days", "seed", "start", "segments", "network"]
    /// The keys of a segment.
    public static let segment = [
        "name", "share", "timezone", "premium", "installed_days_ago", "sessions_before", "first_open", "cold_starts",
        "resumes", "foreground", "attributes", "actions", "rewarded",
    ]
    /// The keys of one of a segment's `actions:`.
    public static let action = ["placement", "every"]
    /// The keys of one of a segment's `rewarded:` offers.
    public static let rewarded = ["placement", "every", "accept"]
    /// The keys of `network:`.
    public static let network = ["load_time", "fill_rate", "ad_duration", "show_failure"]

    /// Where a key unknown in a block of a model belongs, when another block takes it (cli.md r2: a key valid one
    /// level deeper or shallower says which block it belongs to).
    static func relocation(of key: String, in block: [String]) -> String? {
        if block != network, network.contains(key) {
            return "\(key) is a network setting, the same for every user: put it under the top-level `network:` block"
        }
        if block != action, block != rewarded, action.contains(key) || rewarded.contains(key) {
            return "\(key) belongs in an entry of `actions:` or `rewarded:`, as in rewarded: [{placement: rewarded_hint, every: 10m, accept: 0.3}]"
        }
        if block == action || block == rewarded, segment.contains(key) {
            return "\(key) is a setting of the segment: write it beside `actions:` or `rewarded:`, not inside one of their entries"
        }
        if block != segment, segment.contains(key), key != "name" {
            return "\(key) describes a segment's users: indent it under a segment in `segments:`"
        }
        if block != top, top.contains(key) {
            return "\(key) is a top-level setting of the model: indent it less, at the start of a line"
        }
        if block == action, key == "accept" {
            return "accept belongs to a rewarded offer: list the placement under `rewarded:`, as in {placement: rewarded_hint, every: 10m, accept: 0.3}"
        }
        return nil
    }
}
