import AdRules
import Foundation
import Testing

/// Behaviour rules.md gives meaning to that no other test pinned down (found by mutation testing): each test fails
/// with one small, plausible bug in the decision code and passes on the correct code. Expected values come from
/// rules.md, not from the code's output.
@Suite("Mutation gaps")
struct MutationGapTests {
    /// rules.md §7, time-based reasons: "`daily_cap` (a cap above 0)" is time-based; "caps of 0" have no clear time,
    /// "and a decision with one of them has `next_allowed_at: null`".
    @Test func aDailyCapOfZeroHasNoClearTime() throws {
        var h = try Harness("version: 1\nplacements:\n  a: {format: interstitial, daily_cap: 0}\n")
        h.record(.appLaunched, .loadCompleted("a"))
        let d = h.ask(.show("a", trigger: .action))
        #expect(d.codes == [.dailyCap])
        #expect(d.reasons.first?.clearsAt == nil)
        #expect(d.nextAllowedAt == nil, "midnight does not lift a cap of 0")

        // Next to a time-based reason, a cap of 0 still makes the decision's next_allowed_at null.
        var m = try Harness("version: 1\nplacements:\n  a: {format: interstitial, min_interval: 5m, daily_cap: 0}\n")
        m.record(.appLaunched, .loadCompleted("a"), .showStarted("a"), .adClosed("a"), .loadCompleted("a"))
        m.advance("1m")
        let both = m.ask(.show("a", trigger: .action))
        #expect(both.codes == [.minInterval, .dailyCap])
        #expect(both.nextAllowedAt == nil)
    }

    /// rules.md §7: `already_showing` is for "fullscreen formats only"; for load, "a native or banner placement may
    /// preload its next ad while one is on screen".
    @Test func aNativeOrBannerAdOnScreenIsNotAlreadyShowing() throws {
        var h = try Harness("""
            version: 1
            placements:
              feed: {format: native}
              strip: {format: banner}
            """)
        h.record(.appLaunched, .loadCompleted("feed"), .showStarted("feed"), .loadCompleted("strip"), .showStarted("strip"))
        #expect(h.ask(.load("feed")).isAllowed)
        #expect(h.ask(.load("strip")).isAllowed)
        h.record(.loadCompleted("feed"))
        #expect(h.ask(.show("feed", trigger: .action)).isAllowed)
    }

    /// rules.md §3, `block_during_fullscreen`: "`false` drops `fullscreen_active` for show, offer and load, and
    /// `already_showing` for load".
    @Test func blockDuringFullscreenFalseDropsFullscreenActiveForShowOfferAndLoad() throws {
        var h = try Harness("""
            version: 1
            placements:
              free: {format: rewarded_interstitial, block_during_fullscreen: false}
              other: {format: interstitial}
            """)
        h.record(.appLaunched, .loadCompleted("other"), .showStarted("other"), .fullscreenOpened(source: "sdk_a"))
        h.record(.loadCompleted("free"), .userChose("free"))
        #expect(h.ask(.show("free", trigger: .action)).isAllowed)
        #expect(h.ask(.offer("free")).isAllowed)
        #expect(h.ask(.load("free")).codes == [.alreadyLoaded])
        // The other placement still blocks: its own setting is the default (the outside ad closed, so only `free` is on
        // screen).
        h.record(.fullscreenClosed(source: "sdk_a"), .adClosed("other"), .loadCompleted("other"), .showStarted("free"))
        h.advance("1s")
        #expect(h.ask(.show("other", trigger: .action)).codes == [.fullscreenActive])
        // With its own ad on screen, it may load its next one: no `already_showing` for load.
        #expect(h.ask(.load("free")).isAllowed)
        // A show is still `already_showing` ("always checked for show").
        h.record(.loadCompleted("free"), .userChose("free"))
        #expect(h.ask(.show("free", trigger: .action)).codes == [.alreadyShowing])
    }

    /// rules.md §7, `reward`: "`unknown_placement`, `placement_disabled` *(r2)*, `not_rewarded_format`, `no_show` …", and
    /// reason sets: "every other reason that applies is listed, `placement_disabled` … included".
    @Test func aRewardOfADisabledPlacementIsDenied() throws {
        var h = try Harness("version: 1\nplacements:\n  bonus: {format: rewarded, enabled: false}\n")
        h.record(.appLaunched)
        #expect(h.ask(.reward("bonus")).codes == [.placementDisabled, .noShow])
        // Even a show that was chosen and earned (the app showed it anyway) is not rewarded.
        h.record(.loadCompleted("bonus"), .userChose("bonus"), .showStarted("bonus"), .rewardEarned("bonus"))
        let d = h.ask(.reward("bonus"))
        #expect(d.codes == [.placementDisabled])
        #expect(d.nextAllowedAt == nil)
    }

    /// rules.md §6, `fullscreen_opened` / `fullscreen_closed`: "a `fullscreen_closed` without a source closes every
    /// external one, and one with a source that is not open changes nothing".
    @Test func aFullscreenClosedWithoutASourceClosesEveryExternalAd() throws {
        var h = try Harness("version: 1\nplacements:\n  a: {format: interstitial}\n")
        h.record(.appLaunched, .loadCompleted("a"), .fullscreenOpened(source: "sdk_a"), .fullscreenOpened(source: "sdk_b"))
        #expect(h.ask(.show("a", trigger: .action)).codes == [.fullscreenActive])
        h.record(.fullscreenClosed(source: "not_open"))
        #expect(h.ask(.show("a", trigger: .action)).codes == [.fullscreenActive])
        h.record(.fullscreenClosed(source: nil))
        #expect(h.ask(.show("a", trigger: .action)).isAllowed)
        #expect(h.ask(.load("a")).codes == [.alreadyLoaded])
    }

    /// rules.md §6, `app_launched`: "cold start: a new session; nothing is loading, cached or showing (external
    /// fullscreen ads included)".
    @Test func aColdStartForgetsExternalFullscreenAds() throws {
        var h = try Harness("version: 1\nplacements:\n  a: {format: interstitial}\n")
        h.record(.appLaunched, .fullscreenOpened(source: "sdk_a"), .fullscreenOpened(source: nil))
        h.advance("1m")
        h.record(.appLaunched, .loadCompleted("a"))
        #expect(h.ask(.show("a", trigger: .action)).isAllowed)
        #expect(h.ask(.load("a")).codes == [.alreadyLoaded])
    }

    /// rules.md §6, resume window: a `resume` show at any other moment "is `deferred_show` unless
    /// `resume.allow_deferred: true`".
    @Test func allowDeferredAllowsALateResumeShow() throws {
        var h = try Harness("""
            version: 1
            placements:
              app_open:
                format: app_open
                min_interval: 1m
                resume: {allow_deferred: true}
            """)
        // No return in this run.
        h.record(.appLaunched, .loadCompleted("app_open"))
        #expect(h.ask(.show("app_open", trigger: .resume)).isAllowed)
        // Past resume.max_delay (3s), for an ad that finished loading after the return.
        h.record(.appBackgrounded, .appResumed)
        h.advance("10s")
        h.record(.loadCompleted("app_open"))
        #expect(h.ask(.show("app_open", trigger: .resume)).isAllowed)
    }

    /// rules.md §6, `load_started`: a load in progress past `load_timeout` is a `load_failed` at
    /// `load_started + load_timeout`, "(at exactly that instant it is still loading)".
    @Test func aLoadIsStillInProgressExactlyAtLoadTimeout() throws {
        let text = """
            version: 1
            load_timeout: 10s
            placements:
              a: {format: interstitial}
              app_open: {format: app_open, min_interval: 1m}
            """
        // An event at the deadline: the load has not timed out yet.
        var h = try Harness(text)
        h.record(.appLaunched, .loadStarted("a"))
        h.advance("10s")
        h.record(.action("a"))
        #expect(h.ask(.load("a")).codes == [.alreadyLoading])
        h.advance("1ms")
        h.record(.action("a"))
        #expect(h.ask(.load("a")).isAllowed, "1 ms later it is a failed load")

        // Two loads: when the earlier one times out, the later one is still in progress exactly at its own deadline.
        var two = try Harness(text)
        two.record(.appLaunched, .loadStarted("a"))
        two.advance("5s")
        two.record(.loadStarted("app_open"))
        two.advance("10s")
        two.record(.action("a"))
        #expect(two.ask(.load("a")).isAllowed)
        #expect(two.ask(.load("app_open")).codes == [.alreadyLoading])

        // A cold-start load that completes exactly at the deadline did not fail: the launch phase is still open.
        var c = try Harness(text)
        c.record(.appLaunched, .loadStarted("app_open"))
        c.advance("10s")
        c.record(.loadCompleted("app_open"))
        #expect(c.ask(.show("app_open", trigger: .loadCompleted)).isAllowed)
        // A reload in progress during the launch phase, next to a cached ad: exactly at the deadline it is still
        // loading, so the phase is open; 1 ms later it failed, which closed the phase.
        var r = try Harness(text)
        r.record(.appLaunched, .loadCompleted("app_open"), .loadStarted("app_open"))
        r.advance("10s")
        #expect(r.ask(.show("app_open", trigger: .loadCompleted)).isAllowed)
        r.advance("1ms")
        #expect(r.ask(.show("app_open", trigger: .loadCompleted)).codes == [.deferredShow])
        // One that completes 1 ms later failed first, which closed the launch phase: the late show is deferred.
        var l = try Harness(text)
        l.record(.appLaunched, .loadStarted("app_open"))
        l.advance("10001ms")
        l.record(.loadCompleted("app_open"))
        #expect(l.ask(.show("app_open", trigger: .loadCompleted)).codes == [.deferredShow])
    }

    /// rules.md §2 and §8: `daily_cap` counts "the shows of the current calendar day in `timezone`", a named zone, not
    /// the device's. Through the engine, which keeps the day between asks: a show at 23:30 in Tokyo (14:30 UTC) and an
    /// ask 40 minutes later, on Tokyo's next day, with the device in UTC, where both are on one day.
    @Test func theEngineCountsADailyCapInThePolicysZoneNotTheDevices() throws {
        let policy = try Policy(yaml: "version: 1\ntimezone: Asia/Tokyo\nplacements:\n  inter: {format: interstitial, daily_cap: 1}\n")
        let start = try #require(Timestamps.parseMilliseconds("2026-11-29T14:00:00Z"))
        let clock = ManualClock(Milliseconds.date(start))
        let engine = AdEngine(policy: policy, clock: clock, deviceTimeZone: try #require(TimeZone(identifier: "UTC")))
        engine.record(.appLaunched)
        engine.record(.loadCompleted("inter"))
        clock.advance(by: 30 * 60)
        engine.record(.showStarted("inter"))
        engine.record(.adClosed("inter"))
        engine.record(.loadCompleted("inter"))
        clock.advance(by: 20 * 60)
        // 14:50 UTC, 23:50 in Tokyo: the day's one show is taken until Tokyo's midnight, 15:00 UTC.
        let capped = engine.ask(.show("inter", trigger: .action))
        #expect(capped.codes == [.dailyCap])
        #expect(capped.nextAllowedAt.map(Timestamps.format) == "2026-11-29T15:00:00Z")
        clock.advance(by: 20 * 60)
        // 15:10 UTC: a new day in Tokyo, the same day in UTC.
        #expect(engine.ask(.show("inter", trigger: .action)).isAllowed)
    }
}
