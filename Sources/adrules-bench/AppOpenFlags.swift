/// The app-open rules of the shipped policy as an app writes them by hand: its own records of what happened
/// (show times, the time the ad loaded, when the app came back) and one `if` per rule.
///
/// It gets the same situation the evaluator gets, not figures derived from it: it finds the last show and counts
/// today's shows in its own show histories (the placement's and the `fullscreen` group's), as the evaluator does,
/// and reads the local day's start from a value cached with its records, as the evaluator reads the day the facts
/// cached. It checks every rule of `rules/` that applies to a resume show of `app_open`.
struct AppOpenFlags {
    var premium = false
    /// The `onboarding` attribute of `rules/custom.yaml` (default false).
    var onboarding = false
    /// When this placement's ad went on screen, if it is showing.
    var showingSince: Int64?
    /// When another SDK's fullscreen ad went on screen, if one is showing.
    var otherFullscreenSince: Int64?
    var loadedAt: Int64?
    /// When the app last came back from the background in this session.
    var returnedAt: Int64?
    var shownSinceReturn = false
    /// This placement's show times, oldest first.
    var shows: [Int64] = []
    /// The show times of every placement in the `fullscreen` group, oldest first.
    var groupShows: [Int64] = []
    var sessionCount = 0
    /// The start of the local day of `now`.
    var dayStart: Int64 = 0
    var now: Int64 = 0

    @inline(never)
    func handWrittenAllows() -> Bool {
        if premium || onboarding { return false }
        // fullscreen_timeout: 30m
        if let since = otherFullscreenSince, now - since <= 30 * 60_000 { return false }
        if let since = showingSince, now - since <= 30 * 60_000 { return false }
        // resume: a return in the last 3s, answered once, with an ad cached before it
        guard let returnedAt, !shownSinceReturn, now - returnedAt <= 3_000 else { return false }
        // grace.first_sessions: 2
        if sessionCount <= 2 { return false }
        // max_ad_age: 4h
        guard let loadedAt, loadedAt <= returnedAt, now - loadedAt <= 4 * 3_600_000 else { return false }
        // min_interval: 4m, daily_cap: 6
        if let last = shows.last, now - last < 4 * 60_000 { return false }
        if shows.count >= 6 && shows[shows.count - 6] >= dayStart { return false }
        // group fullscreen: min_interval 1m, daily_cap 20
        if let last = groupShows.last, now - last < 60_000 { return false }
        if groupShows.count >= 20 && groupShows[groupShows.count - 20] >= dayStart { return false }
        return true
    }
}
