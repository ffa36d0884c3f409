import AdRulesTestSupport
import AdRules
import AdRulesCompiler
import Foundation
import Synchronization
import Testing

@testable import AdRulesImpact

/// Figures a person can check by hand, and the properties every run must have.
@Suite("Impact simulation")
struct SimulationTests {
    @Test func aCapDeniedInTheBackgroundAfterTheLastVisitCountsForThatDay() throws {
        // Visits of 5 s and loads of 10 s: the cold start's load completes after the user left, and the app asks
        // `show` in the background. After Monday's last visit that ask is denied daily_cap (one show a day), which
        // is Monday's cap, not Tuesday's: on Tuesday a rule denies every show and the cap is never full.
        let policy = try Policy(yaml: """
            version: 1
            timezone: device
            placements:
              app_open:
                format: app_open
                daily_cap: 1
                max_ad_age: 366d
            rules:
              - id: no-ads-on-tuesday
                deny: [app_open]
                when: now.weekday == "tue"
            """, file: "p.yaml")
        let text = """
            version: 1
            users: 10
            days: DAYS
            seed: 1
            start: 2026-12-07
            segments:
              - name: flat
                share: 1
                timezone: UTC
                first_open: 8h
                cold_starts: 2
                resumes: 1
                foreground: 5s
            network:
              load_time: 10s
              fill_rate: 1
              ad_duration: 5s
            """
        for (days, histogram, capDays) in [(1, [0, 10], 10), (2, [10, 10], 10), (3, [10, 20], 20)] {
            let appOpen = try play(try model(text.replacingOccurrences(of: "DAYS", with: "\(days)")), policy).total.placements[0]
            #expect(appOpen.histogram == histogram, "\(days) days")
            #expect(appOpen.capDays[CapKind.dailyCap.rawValue] == capDays, "\(days) days")
        }
        // On the last day too: with daily_cap 0 nothing shows, and the one ask of the day (in the background, after
        // the only visit) is what meets the cap.
        let never = try Policy(yaml: "version: 1\ntimezone: device\nplacements:\n  app_open: {format: app_open, daily_cap: 0}\n", file: "p.yaml")
        let oneVisit = text.replacingOccurrences(of: "DAYS", with: "1").replacingOccurrences(of: "cold_starts: 2", with: "cold_starts: 1")
            .replacingOccurrences(of: "resumes: 1", with: "resumes: 0")
        let appOpen = try play(try model(oneVisit), never).total.placements[0]
        #expect(appOpen.impressions == 0)
        #expect(appOpen.capDays[CapKind.dailyCap.rawValue] == 10)
    }

    @Test func aFlatModelGivesExactFigures() throws {
        // One cold start and ten resumes a day, daily_cap: 3: the cold start shows, the first resumes
        // show until the cap, every later resume is denied daily_cap.
        let result = try play(try model(flatModel), try appOpenPolicy(dailyCap: 3))
        let total = result.total
        #expect(total.users == 60)
        #expect(total.userDays == 180)
        let appOpen = total.placements[0]
        let summary = ImpressionSummary(histogram: appOpen.histogram)
        #expect(summary.mean == 3.0)
        #expect(summary.p50 == 3 && summary.p90 == 3 && summary.p99 == 3 && summary.max == 3)
        #expect(appOpen.histogram == [0, 0, 0, 180])
        #expect(appOpen.impressions == 540)
        // Three impressions fill the cap every day, whether or not a later resume meets it.
        #expect(appOpen.capDays[CapKind.dailyCap.rawValue] == 180)
        #expect(appOpen.denials.first { $0.code == .dailyCap }?.location == ImpactLocation(file: "p.yaml", line: 6, column: 16))
        #expect(appOpen.offers == 0 && appOpen.showFailures == 0 && appOpen.loadsFailed == 0)
        // Every completed load is shown or wasted.
        #expect(appOpen.loadsCompleted == appOpen.impressions + appOpen.wastedLoads)
    }

    /// A first open in the last second of the day still opens the app: the day's first visit always happens.
    @Test func aFirstOpenJustBeforeMidnightStillHappens() throws {
        let late = flatModel.replacingOccurrences(of: "first_open: 8h", with: "first_open: 23h59m59s")
            .replacingOccurrences(of: "resumes: 10", with: "resumes: 0")
        let appOpen = try play(try model(late), try appOpenPolicy(dailyCap: 3)).total.placements[0]
        // One cold start a day, 2 s before midnight: each day's load is asked and completes (none did when such a
        // visit was dropped).
        #expect(appOpen.loadsCompleted >= 180)
    }

    /// An `every` draw shorter than a second waits a second: with exponential gaps of mean 1 s, the mean gap is
    /// 1 + 1/e s (about 44 actions in a minute), not 1 s (60).
    /// The flat model with no resumes and an action on level_end about every second of its minute in the foreground.
    static let busyModel = flatModel.replacingOccurrences(of: "resumes: 10", with: "resumes: 0")
        .replacingOccurrences(of: "foreground: 1m", with: "foreground: 1m\n    actions: [{placement: level_end, every: {exponential: 1s}}]")

    @Test func actionsComeAtMostOnceASecond() throws {
        let busy = Self.busyModel
        let policy = try Policy(yaml: "version: 1\nplacements:\n  level_end: {format: interstitial, enabled: false}\n", file: "p.yaml")
        let levelEnd = try play(try model(busy), policy).total.placements[0]
        // A minute of foreground a day: each action asks a show, denied placement_disabled.
        let perDay = Double(levelEnd.denials.first { $0.code == .placementDisabled }?.count ?? 0) / 180
        #expect(perDay > 40 && perDay < 48, "\(perDay)")
    }

    /// Reason sites past the few scanned are looked up by key (a policy of 10,000 rules that all deny made one ask take
    /// a second): each of 40 rules that always deny is its own row, counted as often as the others.
    @Test func manyReasonSitesAreEachCounted() throws {
        let busy = Self.busyModel
        let rules = (0..<40).map { "  - {id: r\($0), deny: \"*\", when: \"not premium\"}\n" }.joined()
        let policy = try Policy(yaml: "version: 1\nplacements:\n  level_end: {format: interstitial}\nrules:\n" + rules, file: "p.yaml")
        let levelEnd = try play(try model(busy), policy).total.placements[0]
        let ruled = levelEnd.denials.filter { $0.code == .customRule }
        #expect(ruled.count == 40)
        #expect(Set(ruled.map(\.count)).count == 1 && (ruled.first?.count ?? 0) > 0, "\(ruled.map(\.count))")
        #expect(Set(ruled.compactMap { $0.location?.line }) == Set(5..<45))
    }

    @Test func premiumUsersSeeNothing() throws {
        let premium = try model(flatModel.replacingOccurrences(of: "    cold_starts: 1", with: "    premium: 1\n    cold_starts: 1"))
        let appOpen = try play(premium, try appOpenPolicy(dailyCap: 3)).total.placements[0]
        #expect(appOpen.impressions == 0)
        #expect(appOpen.histogram == [180])
        #expect(appOpen.loadsStarted == 0)
        #expect(appOpen.denials.contains { $0.code == .premiumUser })
    }

    /// List attributes are given as lists, and a duration attribute may be drawn from durations: rules read them as
    /// the policy declares them. A rule that holds on every draw denies every show; one that never holds, none.
    @Test(arguments: [
        ("{tags: [x, y], lv: [1, 3], wait: 1m}", "\"x\" in tags", true),
        ("{tags: [y, z], lv: [1, 3], wait: 1m}", "\"x\" in tags", false),
        ("{tags: [y], lv: [1, 3], wait: {uniform: [5s, 20s]}}", "wait >= 5s and wait <= 20s and 3 in lv", true),
        ("{tags: [y], lv: [1, 2], wait: {uniform: [5s, 20s]}}", "wait >= 5s and wait <= 20s and 3 in lv", false),
        ("{tags: [y], lv: [1, 3], wait: {uniform: [5s, 20s]}}", "wait > 20s or wait < 5s", false),
        // An exponential draw is a duration, cut at 100 means.
        ("{tags: [y], lv: [1, 3], wait: {exponential: 1m}}", "wait <= 100m", true),
        ("{tags: [y], lv: [1, 3], wait: {exponential: 1m}}", "wait > 100m", false),
    ])
    func listAndDurationAttributesReachRules(_ attributes: String, _ when: String, _ deniesAll: Bool) throws {
        try expectRuled(attributes, when, deniesAll, declared: "{tags: \"[string]\", lv: \"[int]\", wait: duration}")
    }

    /// A count attribute may be drawn `{poisson: mean}`, as an `int` or a `number` (impact.md's distributions): a mean of 0
    /// always draws 0, and a draw is never negative.
    @Test(arguments: [
        ("{level: {poisson: 0}, score: 1}", "level == 0", true),
        ("{level: {poisson: 4}, score: 1}", "level < 0", false),
        ("{level: 2, score: {poisson: 0}}", "score == 0", true),
        ("{level: 2, score: {poisson: 3}}", "score < 0 or score != score", false),
    ])
    func poissonAttributesReachRules(_ attributes: String, _ when: String, _ deniesAll: Bool) throws {
        try expectRuled(attributes, when, deniesAll, declared: "{level: int, score: number}")
    }

    /// Plays the flat model with a segment's `attributes` against a policy declaring `declared` whose one rule denies
    /// app_open `when`: every show denied by it, or none.
    func expectRuled(_ attributes: String, _ when: String, _ deniesAll: Bool, declared: String) throws {
        let policy = try Policy(yaml: """
            version: 1
            timezone: device
            attributes: \(declared)
            placements:
              app_open: {format: app_open, daily_cap: 3, max_ad_age: 4h}
            rules:
              - {id: r, deny: [app_open], when: '\(when)'}
            """, file: "p.yaml")
        let played = try play(try model(flatModel.replacingOccurrences(of: "    cold_starts: 1", with: "    attributes: \(attributes)\n    cold_starts: 1")), policy)
        let appOpen = played.total.placements[0]
        let ruled = appOpen.denials.first { $0.code == .customRule }?.count ?? 0
        if deniesAll {
            #expect(appOpen.impressions == 0)
            #expect(ruled > 0)
        } else {
            #expect(appOpen.impressions > 0)
            #expect(ruled == 0)
        }
    }

    /// A cap is reached by the impression that fills it: two returns and a cold start under `daily_cap: 3` reach
    /// it every day although no ask is ever denied by it; a group's cap counts for each member.
    @Test func aCapFilledByTheLastImpressionIsReached() throws {
        let policy = try Policy(yaml: """
            version: 1
            timezone: device
            placements:
              app_open: {format: app_open, daily_cap: 3, max_ad_age: 1d}
              level_end: {format: interstitial, min_interval: 1m}
            groups:
              fs: {placements: [app_open, level_end], daily_cap: 3}
            """, file: "p.yaml")
        let result = try play(try model(flatModel.replacingOccurrences(of: "resumes: 10", with: "resumes: 2")), policy).total
        let appOpen = result.placements[0], levelEnd = result.placements[1]
        #expect(appOpen.histogram == [0, 0, 0, 180])
        #expect(!appOpen.denials.contains { $0.code == .dailyCap || $0.code == .groupDailyCap })
        #expect(appOpen.capDays[CapKind.dailyCap.rawValue] == 180)
        #expect(appOpen.capDays[CapKind.groupDailyCap.rawValue] == 180)
        #expect(levelEnd.capDays[CapKind.groupDailyCap.rawValue] == 180)
        #expect(levelEnd.capDays[CapKind.dailyCap.rawValue] == 0)

        // A group cap of 0 is reached with no impression, for every member, whichever member asked.
        let closed = try Policy(yaml: """
            version: 1
            timezone: device
            placements:
              app_open: {format: app_open, max_ad_age: 1d}
              level_end: {format: interstitial, min_interval: 1m}
            groups:
              fs: {placements: [app_open, level_end], daily_cap: 0}
            """, file: "p.yaml")
        let none = try play(try model(flatModel.replacingOccurrences(of: "resumes: 10", with: "resumes: 2")), closed).total
        #expect(none.placements[0].impressions == 0)
        #expect(none.placements[0].capDays[CapKind.groupDailyCap.rawValue] == 180)
        #expect(none.placements[1].capDays[CapKind.groupDailyCap.rawValue] == 180)
    }

    /// Every return drawn happens, however long the visits: a visit is cut short when the next one starts, rather
    /// than the later ones being pushed past midnight and dropped. Premium users are denied once per resume.
    @Test func everyReturnOfTheDayHappens() throws {
        let long = try model(flatModel.replacingOccurrences(of: "    cold_starts: 1", with: "    premium: 1\n    cold_starts: 1")
            .replacingOccurrences(of: "foreground: 1m", with: "foreground: 3h"))
        let appOpen = try play(long, try appOpenPolicy(dailyCap: 3)).total.placements[0]
        // 60 users, 3 days, 10 resumes: one show ask per resume.
        #expect(appOpen.denials.first { $0.code == .premiumUser }?.count == 1800)
        // 200 users are played in chunks of 64, each counted apart and added up: every denial is in the sum.
        let more = try model(flatModel.replacingOccurrences(of: "users: 60", with: "users: 200")
            .replacingOccurrences(of: "    cold_starts: 1", with: "    premium: 1\n    cold_starts: 1")
            .replacingOccurrences(of: "foreground: 1m", with: "foreground: 3h"))
        for threads in [1, 2] {
            let counted = try play(more, try appOpenPolicy(dailyCap: 3), threads: threads).total.placements[0]
            #expect(ImpactRunner.chunkSize < 200 && counted.denials.first { $0.code == .premiumUser }?.count == 6000)
        }
    }

    /// Events at one millisecond: an ad that closes when an action is due, or when the visit ends, closes first.
    @Test func anAdClosesBeforeAnActionOrTheEndAtTheSameInstant() throws {
        // Offers at 2m (an ad until 2m15s); actions at 1m (an ad until 1m15s), then at 2m15s, as the offer's ad closes.
        let (levelEnd, hint) = try playLevelEnd(
            besides: "hint: {format: rewarded}",
            "foreground: 2m15s, actions: [{placement: level_end, every: 1m}], rewarded: [{placement: hint, every: 2m, accept: 1}]")
        // The visit ends at 2m15s with the offer's ad closing: the reward is granted before the app goes away.
        #expect(hint.accepted == 1 && hint.granted == 1)
        #expect(!levelEnd.denials.contains { $0.code == .fullscreenActive })
    }

    /// Two streams with the same constant `every`: the moment an ad put off goes before the other at their next tie.
    /// Before, the offer due at 1m (as the interstitial due then showed its ad) came due again with the next action,
    /// after every ad, lost every time, and was never made.
    @Test func aMomentAnAdPutOffIsNotPutOffForEver() throws {
        let (levelEnd, hint) = try playLevelEnd(
            besides: "hint: {format: rewarded}",
            "foreground: 10m, actions: [{placement: level_end, every: 1m}], rewarded: [{placement: hint, every: 1m, accept: 1}]")
        // Interstitials at 1m, 3m30s, 6m and 8m30s; offers, each accepted, at 2m15s, 4m45s, 7m15s and 9m45s (its ad closes
        // as the visit ends). Each ad holds the user 15 s and puts the other stream off to 1m after it.
        #expect(levelEnd.impressions == 4, "\(levelEnd)")
        #expect(hint.offers == 4 && hint.accepted == 4 && hint.granted == 4, "\(hint)")
        #expect(!levelEnd.denials.contains { $0.code == .fullscreenActive } && !hint.denials.contains { $0.code == .fullscreenActive })
    }

    /// A banner leaves the app usable: while one is shown the user's moments go on, so it holds back no interstitial.
    /// Before, every ad held the user for its `ad_duration`, and a banner shown at 50 s pushed the interstitial due at
    /// 1 m to 2 m 05 s.
    @Test func aBannerDoesNotHoldTheUser() throws {
        let (levelEnd, footer) = try playLevelEnd(
            besides: "footer: {format: banner}", "foreground: 10m, actions: [{placement: level_end, every: 1m}, {placement: footer, every: 50s}]")
        // Interstitials at 1m, 2m15s, 3m30s, 4m45s, 6m, 7m15s, 8m30s and 9m45s, each holding the user 15 s. Banner
        // moments every 50 s from 50 s to 9m10s, none due while an interstitial is on screen: all eleven are asked. A
        // banner that closes while an interstitial is on screen may not load its next ad then (`fullscreen_active`,
        // block_during_fullscreen), so the moment after it finds none: shown at 50 s, 2m30s, 3m20s, 5m, 5m50s, 7m30s
        // and 8m20s; not ready at 1m40s, 4m10s, 6m40s and 9m10s.
        #expect(levelEnd.impressions == 8, "\(levelEnd)")
        #expect(footer.impressions == 7, "\(footer.denials)")
        #expect(footer.denials.map(\.code) == [.adNotReady] && footer.denials.first?.count == 4, "\(footer.denials)")
    }

    /// A user installs the app when first opening it: one installed 0 days ago is inside `grace.after_install` at the
    /// first visit of the first day. (Installed at local midnight, as before, a user opening at 08:00 was past any grace
    /// under 8 hours, and the shipped model's new users never met the interstitial's 10-minute grace.)
    @Test func aNewUserInstallsAtTheFirstOpen() throws {
        let policy = try Policy(yaml: """
            version: 1
            placements:
              level_end: {format: interstitial, grace: {after_install: 10m}}
            """)
        func played(daysAgo: Int) throws -> PlacementCounters {
            try play(try oneUserDay(installedDaysAgo: daysAgo, "foreground: 20m, actions: [{placement: level_end, every: 1m}]"), policy).total.placements[0]
        }
        // Actions at 1 to 9 minutes after the first open are inside the grace; at 10 minutes it is over.
        let new = try played(daysAgo: 0)
        #expect(new.denials.map(\.code) == [.graceInstall] && new.denials.first?.count == 9, "\(new.denials)")
        #expect(new.impressions > 0)
        // Installed a day before, at the same clock time: no grace left.
        let older = try played(daysAgo: 1)
        #expect(!older.denials.contains { $0.code == .graceInstall }, "\(older.denials)")
        #expect(older.impressions > new.impressions)
    }

    /// `first_open` is a clock time: 08:30 in New York on the day clocks go forward is still 08:30 local.
    @Test func firstOpenIsALocalClockTime() throws {
        let policy = try Policy(yaml: """
            version: 1
            timezone: America/New_York
            placements:
              app_open: {format: app_open, daily_cap: 1}
            rules:
              - {id: early, deny: [app_open], when: now.hour < 9}
            """)
        let dst = try model("""
            version: 1
            users: 4
            days: 3
            seed: 1
            start: 2026-03-07
            segments:
              - {name: ny, share: 1, timezone: America/New_York, installed_days_ago: 30, first_open: 8h30m, cold_starts: 1,
                 resumes: 0, foreground: 10m}
            network: {load_time: 1s, fill_rate: 1, ad_duration: 5s, show_failure: 0}
            """)
        let appOpen = try play(dst, policy).total.placements[0]
        // 2026-03-08 is the spring-forward day: every cold start is still before 09:00, so none shows.
        #expect(appOpen.impressions == 0)
        #expect(appOpen.denials.first { $0.code == .customRule }?.count == 12)
    }

    /// 08:30 and 23:30 are those clock times on days whose clocks jump at 00:00 (Havana, Santiago) or 02:00
    /// (New York), go back (New York in November), or do nothing; 02:30 skipped in New York is the jump itself.
    @Test(arguments: [
        ("America/Havana", 2026, 3, 8), ("America/Santiago", 2026, 9, 6), ("America/New_York", 2026, 3, 8),
        ("America/New_York", 2026, 11, 1), ("Europe/Berlin", 2026, 6, 1), ("Asia/Kolkata", 2026, 3, 8),
    ])
    func aClockTimeIsThatTimeOnTheClock(_ zoneName: String, _ year: Int, _ month: Int, _ day: Int) throws {
        let zone = try #require(TimeZone(identifier: zoneName))
        let midnights = SimulationPlan.midnights(from: CalendarDate(year: year, month: month, day: day), days: 1, in: zone)
        let shift = ClockShift.within(midnights[0], midnights[1], in: zone)
        let start = ClockShift.clockTime(at: midnights[0], in: zone)
        for clock: Int64 in [30_600_000, 84_600_000] {
            let instant = ClockShift.instant(ofClockTime: clock, dayStart: midnights[0], startClock: start, shift: shift)
            #expect(ClockShift.clockTime(at: instant, in: zone) == clock, "\(zoneName) \(clock)")
            #expect(instant >= midnights[0] && instant < midnights[1])
        }
        if zoneName == "America/New_York", month == 3 {
            let skipped = ClockShift.instant(ofClockTime: 9_000_000, dayStart: midnights[0], startClock: start, shift: shift)
            #expect(ClockShift.clockTime(at: skipped, in: zone) == 10_800_000)
        }
    }

    /// A run that starts on a day whose midnight the clocks skip starts that day at 01:00, and every later day at
    /// its own midnight (not at 01:00, which would put late visits on the next calendar day).
    @Test(arguments: [("America/Santiago", 2026, 9, 6), ("America/Havana", 2026, 3, 8)])
    func daysAfterASkippedMidnightStartAtMidnight(_ zoneName: String, _ year: Int, _ month: Int, _ day: Int) throws {
        let zone = try #require(TimeZone(identifier: zoneName))
        let midnights = SimulationPlan.midnights(from: CalendarDate(year: year, month: month, day: day), days: 3, in: zone)
        #expect(ClockShift.clockTime(at: midnights[0], in: zone) == 3_600_000, "the skipped midnight's day starts at 01:00")
        for k in 1...3 { #expect(ClockShift.clockTime(at: midnights[k], in: zone) == 0, "day \(k) starts at midnight") }
        #expect(midnights[1] - midnights[0] == 23 * 3_600_000)
    }

    /// Where a zone fell back across midnight (Newfoundland at 00:01 on 2010-11-07: 00:00-00:01 of the 7th, then 23:01
    /// of the 6th again), the 7th's user-day starts where daily caps start it, at the midnight after the fall back
    /// (03:30Z), not at the first 00:00 (02:30Z): a user-day holds one day of the caps, and a daily cap of 1 shows at
    /// most one ad in it.
    @Test func aUserDayIsTheCapsDayWhereAZoneFellBackAcrossMidnight() throws {
        let zone = try #require(TimeZone(identifier: "America/St_Johns"))
        let midnights = SimulationPlan.midnights(from: CalendarDate(year: 2010, month: 11, day: 7), days: 1, in: zone)
        #expect(midnights[0] == 1_289_100_600_000, "2010-11-07T00:00:00-03:30")
        #expect(midnights[1] == 1_289_100_600_000 + 86_400_000)
        let twoColdStarts = try model("""
            version: 1
            users: 10
            days: 1
            seed: 3
            start: 2010-11-07
            segments:
              - {name: s, share: 1, timezone: America/St_Johns, installed_days_ago: 30, first_open: 0s, cold_starts: 2,
                 resumes: 0, foreground: {exponential: 10s}}
            network: {load_time: 1s, fill_rate: 1, ad_duration: 5s, show_failure: 0}
            """)
        let policy = try Policy(yaml: """
            version: 1
            environment: test
            placements:
              app_open: {format: app_open, daily_cap: 1, exclude_premium: false, launch: {max_wait: 30s}}
            """)
        let appOpen = try play(twoColdStarts, policy).total.placements[0]
        #expect(appOpen.histogram.count <= 2, "no user-day has more impressions than the daily cap: \(appOpen.histogram)")
        #expect(appOpen.impressions == 10)
    }

    /// A load started after the last visit's ad closed still ends before the run's last midnight: its ad, never
    /// shown, is a wasted load (a load that would end after that midnight stays in flight).
    /// A cold-start load that completes after the user left is asked about (impact.md's integration), but an app in
    /// the background cannot present: allowed or not, it is no impression; the ad stays cached for the return.
    @Test func aFirstLoadCompletingInTheBackgroundIsAskedButNotShown() throws {
        let slow = try model(flatModel.replacingOccurrences(of: "resumes: 10", with: "resumes: 1")
            .replacingOccurrences(of: "foreground: 1m", with: "foreground: 2s").replacingOccurrences(of: "days: 3", with: "days: 1")
            .replacingOccurrences(of: "load_time: 1s", with: "load_time: 10s"))
        for deferred in [false, true] {
            let policy = try Policy(yaml: """
                version: 1
                placements:
                  app_open:
                    format: app_open
                    daily_cap: 5
                    max_ad_age: 24h
                    resume: {allow_deferred: \(deferred)}
                """, file: "p.yaml")
            let appOpen = try play(slow, policy).total.placements[0]
            // The resume show finds the ad loaded before the return: one impression a user, never two.
            #expect(appOpen.impressions == 60, "allow_deferred \(deferred): \(appOpen.denials.map { ($0.code, $0.count) })")
            let deferredShows = appOpen.denials.filter { $0.code == .deferredShow }.reduce(0) { $0 + $1.count }
            #expect(deferredShows == (deferred ? 0 : 60), "allow_deferred \(deferred): \(appOpen.denials)")
        }
    }

    @Test func loadsAfterTheLastVisitEnd() throws {
        let oneVisit = try model(flatModel.replacingOccurrences(of: "resumes: 10", with: "resumes: 0")
            .replacingOccurrences(of: "foreground: 1m", with: "foreground: 10s").replacingOccurrences(of: "days: 3", with: "days: 1"))
        let appOpen = try play(oneVisit, try appOpenPolicy(dailyCap: 3)).total.placements[0]
        #expect(appOpen.impressions == 60)
        #expect(appOpen.loadsStarted == 120)
        #expect(appOpen.loadsCompleted == 120)
        #expect(appOpen.wastedLoads == 60)
    }

    @Test func theOldPolicyIsListedFirstAndDifferencesAreNamed() throws {
        let old = try appOpenPolicy(dailyCap: 3, file: "old/app_open.yaml")
        let new = try appOpenPolicy(dailyCap: 5, file: "new/app_open.yaml")
        let report = try ImpactRunner.run(
            model: try model(flatModel),
            policies: [NamedPolicy(name: "old", policy: old), NamedPolicy(name: "new", policy: new)],
            changes: PolicyDiff.changes(from: old, to: new), options: ImpactOptions(threads: 2))
        #expect(report.results.map(\.policy) == ["old", "new"])
        #expect(ImpressionSummary(histogram: report.results[0].total.placements[0].histogram).mean == 3.0)
        #expect(ImpressionSummary(histogram: report.results[1].total.placements[0].histogram).mean == 5.0)
        #expect(report.changes == [PolicyChange(
            kind: .changed, subject: "placement app_open", setting: "daily_cap", old: "3", new: "5",
            oldLocation: ImpactLocation(file: "old/app_open.yaml", line: 6, column: 16),
            newLocation: ImpactLocation(file: "new/app_open.yaml", line: 6, column: 16))])
    }

    @Test(arguments: [2, 3, 8]) func resultsDoNotDependOnTheThreadCount(threads: Int) throws {
        let model = try shippedModel()
        let policy = try Policy(contentsOf: packageRoot() + "/rules")
        let options = ImpactOptions(users: 150, days: 3)
        let one = try ImpactRunner.run(model: model, policies: [NamedPolicy(name: "rules", policy: policy)], options: options)
        var many = options
        many.threads = threads
        #expect(try ImpactRunner.run(model: model, policies: [NamedPolicy(name: "rules", policy: policy)], options: many) == one)
    }

    /// Eight segments of 80 users, each an interstitial with no cap; segment `busy` gets an action every 20 s, the others
    /// every 2 minutes, over 30 minutes a day.
    static let segmentsModel: String = {
        var text = "version: 1\nusers: 640\ndays: 1\nseed: 3\nstart: 2026-03-02\nsegments:\n"
        for i in 0..<8 {
            let every = i == 0 ? "20s" : "2m"
            text += "  - {name: \(i == 0 ? "busy" : "s\(i)"), share: 0.125, timezone: UTC, installed_days_ago: 30, first_open: 8h, cold_starts: 1, "
                + "resumes: 0, foreground: 30m, actions: [{placement: level_end, every: {exponential: \(every)}}]}\n"
        }
        return text + "network: {load_time: 1s, fill_rate: 1, ad_duration: 5s, show_failure: 0}\n"
    }()

    /// A run whose histograms pass the report's bound (what `impact merge` reads a part in) stops as soon as its counters
    /// do, and names the block with the longest histogram.
    @Test func aRunWhoseHistogramsPassTheBoundStopsAndNamesTheLongest() throws {
        let model = try model(Self.segmentsModel)
        let policy = try Policy(yaml: "version: 1\nplacements:\n  level_end: {format: interstitial}\n", file: "p.yaml")
        let whole = try ImpactRunner.run(model: model, policies: [NamedPolicy(name: "p", policy: policy)], options: ImpactOptions(threads: 1))
        let entries = whole.histogramEntryCount
        let busiest = whole.results[0].segments[0].placements[0].histogram.count - 1
        #expect(whole.results[0].segments.dropFirst().allSatisfy { $0.placements[0].histogram.count - 1 < busiest })

        // Within a bound of a tenth of the whole run's entries, the first chunk of 64 users already passes it.
        let played = Mutex(0)
        #expect {
            _ = try ImpactRunner.run(
                model: model, policies: [NamedPolicy(name: "p", policy: policy)], options: ImpactOptions(threads: 1),
                progress: { done, _ in played.withLock { $0 = done } }, bounds: ReportBounds(histogramEntries: entries / 10, histogramLength: 100_001))
        } throws: { error in
            guard case .histogramsTooLong(let name, let segment, let placement, let impressions) = error as? ImpactRunError else { return false }
            return name == "p" && segment == "busy" && placement == "level_end" && impressions > 0 && impressions <= busiest
        }
        #expect(played.withLock { $0 } == ImpactRunner.chunkSize)
        // One histogram longer than its bound stops the run too.
        #expect(throws: ImpactRunError.self) {
            try ImpactRunner.run(
                model: model, policies: [NamedPolicy(name: "p", policy: policy)], options: ImpactOptions(threads: 2),
                bounds: ReportBounds(histogramEntries: entries, histogramLength: busiest / 2))
        }
        // With --compare the bound is over both results: each within it alone, together past it.
        #expect {
            try ImpactRunner.run(
                model: model, policies: [NamedPolicy(name: "old", policy: policy), NamedPolicy(name: "new", policy: policy)],
                options: ImpactOptions(threads: 2), bounds: ReportBounds(histogramEntries: entries * 3 / 2, histogramLength: 100_001))
        } throws: { error in
            guard case .histogramsTooLong(let name, _, _, _) = error as? ImpactRunError else { return false }
            return name == "new"
        }
        #expect(try ImpactRunner.run(
            model: model, policies: [NamedPolicy(name: "old", policy: policy), NamedPolicy(name: "new", policy: policy)],
            options: ImpactOptions(threads: 2), bounds: ReportBounds(histogramEntries: entries * 2, histogramLength: 100_001)).histogramEntryCount == entries * 2)
    }

    /// A run whose deny reasons pass what a report holds (rows, their texts) stops as soon as its counters do, where it
    /// was refused only once it had played every user (1,000 segments of 10 placements against 1,000 rules that all deny
    /// played for 55 s and took 851 MB first); one that counts more a user-day than a part may hold is refused too.
    @Test func aRunWhoseDenyReasonsPassTheBoundsStops() throws {
        let model = try model(Self.segmentsModel)
        let rules = (0..<40).map { "  - {id: r\($0), deny: \"*\", when: \"not premium\"}\n" }.joined()
        let policy = [NamedPolicy(name: "p", policy: try Policy(yaml: "version: 1\nplacements:\n  level_end: {format: interstitial}\nrules:\n" + rules, file: "p.yaml"))]
        /// The run's error within these bounds, and the users it played.
        func run(_ bounds: ReportBounds) -> (error: ImpactRunError?, played: Int) {
            let played = Mutex(0)
            let result = Result { () throws(ImpactRunError) in
                try ImpactRunner.run(model: model, policies: policy, options: ImpactOptions(threads: 1), progress: { done, _ in played.withLock { $0 = done } }, bounds: bounds)
            }
            guard case .failure(let error) = result else { return (nil, played.withLock { $0 }) }
            return (error, played.withLock { $0 })
        }
        #expect(run(ReportBounds()).error == nil)
        // 8 segments of 40 rows: the first chunk of 64 users (of the first segment) passes a bound of 30 rows, and the
        // run stops there.
        let rows = run(ReportBounds(denyRows: 30))
        guard case .tooManyDenyRows(let count) = rows.error else {
            Issue.record("\(String(describing: rows))")
            return
        }
        #expect(count > 30 && count <= 8 * 40)
        #expect(rows.played == ImpactRunner.chunkSize)
        guard case .tooMuchDenyText = run(ReportBounds(denyText: 1_000)).error else {
            Issue.record("no tooMuchDenyText")
            return
        }
        // Each action is denied by the 40 rules: far more than 5 reasons a user-day.
        guard case .countsTooLarge(let name, let segment, let placement, let perUserDay) = run(ReportBounds(countPerUserDay: 5)).error else {
            Issue.record("no countsTooLarge")
            return
        }
        #expect(name == "p" && segment == "busy" && placement == "level_end" && perUserDay > 5)
    }

    /// The text a run bounds counts a rule file's name as json writes it: a path of control characters, six bytes each
    /// there, made a report within every bound 170 MB of json, too large for any `--shard` part to be written.
    @Test func theTextARunBoundsCountsFileNamesAsJSONWritesThem() throws {
        let model = try model(Self.segmentsModel)
        let rules = (0..<40).map { "  - {id: r\($0), deny: \"*\", when: \"not premium\"}\n" }.joined()
        /// Whether a run of the policy in a file of this name passes a bound of 3,000 bytes a row.
        func passes(file: String) throws -> Bool {
            let policy = try Policy(yaml: "version: 1\nplacements:\n  level_end: {format: interstitial}\nrules:\n" + rules, file: file)
            let result = Result { () throws(ImpactRunError) in
                try ImpactRunner.run(
                    model: model, policies: [NamedPolicy(name: "p", policy: policy)], options: ImpactOptions(threads: 1),
                    bounds: ReportBounds(denyText: 8 * 40 * 3_000))
            }
            if case .failure(.tooMuchDenyText) = result { return false }
            _ = try result.get()
            return true
        }
        // 1,000 bytes of the file name a row either way; in json, 1,000 or 6,000.
        #expect(try passes(file: String(repeating: "a", count: 1_000)))
        #expect(try !passes(file: String(repeating: "\u{1}", count: 1_000)))
    }

    /// A row keeps the smallest of its messages (they differ where they name the placement on screen), so its text may
    /// shrink as counts are added up; what a report bounds is its longest message, which only grows. (Bounded by the
    /// kept text, a run that stopped at the bound added a chunk already playing whose shorter messages took the text back
    /// under it, and reported 128 of 2,000 users with exit 0.)
    @Test func theTextARunBoundsOnlyGrows() {
        func counters(_ message: String) -> PlacementCounters {
            var c = PlacementCounters()
            _ = c.appendDenial(.fullscreenActive, at: ImpactLocation(file: "p.yaml", line: 3, column: 5), message: message)
            return c
        }
        let long = "fullscreen ad of placement_with_a_long_name on screen", short = "fullscreen ad of a on screen"
        var sum = counters(long)
        let shorter = sum.add(counters(short))
        #expect(sum.denials[0].message == short && sum.denials[0].count == 2)
        #expect(shorter.denyText == 0 && shorter.isEmpty)
        #expect(sum.denials[0].boundedTextBytes == long.utf8.count + "p.yaml".utf8.count)
        var other = counters(short)
        let longer = other.add(counters(long))
        #expect(longer.denyText == long.utf8.count - short.utf8.count)
        #expect(other == sum, "the same rows whatever the order")
        #expect(sum.countDenial(entry: 0, messageIsFixed: false, message: short + " and more") == 0)
        #expect(sum.countDenial(entry: 0, messageIsFixed: false, message: long + " and more") == " and more".utf8.count)
    }

    /// Parts that are each within the histogram bound but together pass it are refused by the merge, as the run of the
    /// whole population is.
    @Test func aMergeWhoseHistogramsPassTheBoundIsRefused() throws {
        let model = try model(Self.segmentsModel)
        let policy = try Policy(yaml: "version: 1\nplacements:\n  level_end: {format: interstitial}\n  other: {format: interstitial}\n", file: "p.yaml")
        var parts = try (1...2).map { k in
            try ImpactRunner.run(model: model, policies: [NamedPolicy(name: "p", policy: policy)], options: ImpactOptions(shard: Shard(index: k, count: 2)))
        }
        // In each of the 8 segments, a histogram of 100,000 entries: level_end's in the first part, other's in the
        // second. Each part holds about 800,000 entries; together they hold 1,600,000.
        let long = [1] + Array(repeating: 0, count: 99_998) + [1]
        for (k, slot) in [(0, 0), (1, 1)] {
            for s in 0..<8 { parts[k].results[0].segments[s].placements[slot].histogram = long }
        }
        #expect(parts.allSatisfy { $0.histogramEntryCount <= ImpactReport.maxHistogramEntries })
        #expect {
            try ImpactReport.merge(parts)
        } throws: { error in
            guard case .histogramsTooLong(1, let entries, let longest) = error as? ImpactReport.MergeError else { return false }
            return entries > ImpactReport.maxHistogramEntries && longest == 100_000
        }
        // One histogram longer than a report holds is refused in a part alone.
        parts[0].results[0].segments[0].placements[0].histogram = long + [1, 1]
        #expect {
            try ImpactReport.merge(parts)
        } throws: { error in
            guard case .histogramsTooLong(0, _, let longest) = error as? ImpactReport.MergeError else { return false }
            return longest == 100_002
        }
    }

    @Test func shardsAddUpToTheWholeRun() throws {
        let model = try shippedModel()
        let policies = [NamedPolicy(name: "rules", policy: try Policy(contentsOf: packageRoot() + "/rules"))]
        let whole = try ImpactRunner.run(model: model, policies: policies, options: ImpactOptions(users: 100, days: 2))
        let parts = try (1...3).map { k in
            try ImpactRunner.run(model: model, policies: policies, options: ImpactOptions(users: 100, days: 2, shard: Shard(index: k, count: 3)))
        }
        #expect(parts.map { $0.results[0].total.users } == [34, 33, 33])
        #expect(try ImpactReport.merge(parts.reversed()) == whole)
        #expect(throws: ImpactReport.MergeError.missingShards([2], of: 1)) { try ImpactReport.merge([parts[0], parts[2]]) }
        // Of many shards, the first ten missing are named and the rest counted.
        let few = try (1...2).map { k in
            try ImpactRunner.run(model: model, policies: policies, options: ImpactOptions(users: 100, days: 1, shard: Shard(index: k, count: 50)))
        }
        #expect(throws: ImpactReport.MergeError.missingShards(Array(3...12), of: 48)) { try ImpactReport.merge(few) }
        #expect(throws: ImpactReport.MergeError.duplicateShard(1, part: 1)) { try ImpactReport.merge([parts[0], parts[0], parts[1]]) }
        #expect(throws: ImpactReport.MergeError.notPartial(0)) { try ImpactReport.merge([whole]) }
        // A part emptied of its users (each part alone is consistent) does not pass for a whole shard.
        var emptied = parts[2]
        for s in emptied.results[0].segments.indices {
            emptied.results[0].segments[s] = SegmentCounters(placements: emptied.results[0].placements.count)
        }
        #expect(throws: ImpactReport.MergeError.shardUsers(2, shard: 3, played: 0, expected: 33)) { try ImpactReport.merge([parts[0], parts[1], emptied]) }
        // Nor does a part that claims a user of another shard, though the total still adds up to the population.
        var claimed = parts[0]
        claimed.results[0].segments[0].users += 1
        var gave = parts[1]
        gave.results[0].segments[0].users -= 1
        #expect(throws: ImpactReport.MergeError.shardUsers(0, shard: 1, played: 35, expected: 34)) { try ImpactReport.merge([claimed, gave, parts[2]]) }
    }

    /// A shard of more shards than users plays nobody, and the users a run plays are not listed up front.
    @Test func playedUsersAreComputedNotListed() {
        #expect(PlayedUsers(users: 10, shard: nil).count == 10)
        let shard = PlayedUsers(users: 10, shard: Shard(index: 3, count: 4))
        #expect((0..<shard.count).map { shard[$0] } == [2, 6])
        #expect(PlayedUsers(users: 2, shard: Shard(index: 5, count: 7)).count == 0)
        #expect(PlayedUsers(users: 100_000_000, shard: nil)[99_999_999] == 99_999_999)
    }

    /// A day's context is prepared once for each segment, premium and attribute values, and kept within a bound: each
    /// one kept is the context the values make, prepared, and decides as that context prepared afresh does.
    @Test func preparedContextsAreKeptWithinTheirBound() throws {
        let policy = try Policy(yaml: """
            version: 1
            timezone: UTC
            attributes: {level: int}
            placements:
              a: {format: interstitial}
            rules:
              - {id: r, deny: [a], when: 'level > 5'}
            """, file: "p.yaml")
        let text = flatModel.replacingOccurrences(of: "    cold_starts: 1", with: "    attributes: {level: {uniform: [1, 10]}}\n    cold_starts: 1")
        let plan = SimulationPlan(model: try model(text), policy: policy, users: 1, days: 1, seed: 1)
        #expect(plan.segments[0].contextsRepeat)
        var player = UserPlayer(plan: plan)
        #expect(player.preparedContextsKept == UserPlayer.maxPreparedContexts)
        let facts = Facts(policy: policy, installedAt: 0)
        for value in 0..<(player.preparedContextsKept + 10) {
            let key = PreparedContextKey(segment: 0, premium: value % 3 == 0, values: [.int(Int64(value % 4_100))])
            let context = player.preparedContext(key)
            let plain = AskContext(premium: key.premium, attributes: ["level": .int(Int64(value % 4_100))])
            #expect(context == plain && context.isPrepared(for: policy))
            #expect(player.preparedContexts.count <= player.preparedContextsKept)
            let kept = Evaluator.decide(.show("a", trigger: .action), context: context, policy: policy, facts: facts, now: 0, deviceTimeZone: .gmt)
            let afresh = Evaluator.decide(.show("a", trigger: .action), context: policy.prepared(plain), policy: policy, facts: facts, now: 0, deviceTimeZone: .gmt)
            #expect(kept.codes == afresh.codes)
            #expect(kept.codes.contains(.customRule) == (value % 4_100 > 5))
        }
    }

    /// Contexts are kept by segment: two segments that draw the same value for different attributes each get their
    /// own (the rule reads `level`, which only the first segment sets). Attributes drawn from a wide range are
    /// prepared each day, not kept, and a policy whose prepared contexts are large keeps fewer.
    @Test func preparedContextsAreKeptBySegment() throws {
        let policy = try Policy(yaml: """
            version: 1
            timezone: UTC
            attributes: {level: {type: int, default: 0}, other: {type: int, default: 0}, score: {type: number, default: 0}}
            placements:
              a: {format: interstitial, min_interval: 10s}
            rules:
              - {id: r, deny: [a], when: 'level == 3'}
            """, file: "p.yaml")
        let segment = """
              - name: NAME
                share: 0.5
                timezone: UTC
                first_open: 8h
                cold_starts: 1
                resumes: 2
                foreground: 5m
                attributes: {ATTRIBUTES}
                actions:
                  - {placement: a, every: 20s}

            """
        func segments(_ first: String, _ second: String) -> String {
            segment.replacingOccurrences(of: "NAME", with: "levels").replacingOccurrences(of: "ATTRIBUTES", with: first)
                + segment.replacingOccurrences(of: "NAME", with: "others").replacingOccurrences(of: "ATTRIBUTES", with: second)
        }
        let text = "version: 1\nusers: 40\ndays: 2\nseed: 3\nstart: 2026-03-02\nsegments:\n" + segments("level: 3", "other: 3")
            + "network: {load_time: 1s, fill_rate: 1, ad_duration: 5s, show_failure: 0}\n"
        let played = try play(try model(text), policy)
        let denied = played.segments.map { $0.placements[0].denials.first { $0.code == .customRule }?.count ?? 0 }
        let shown = played.segments.map { $0.placements[0].impressions }
        #expect(denied[0] > 0 && shown[0] == 0, "\(denied), \(shown)")
        #expect(denied[1] == 0 && shown[1] > 0, "\(denied), \(shown)")
        // A number drawn from a range, or an int from a range of millions, is prepared afresh each day.
        let wide = try model(text.replacingOccurrences(of: "other: 3", with: "other: {uniform: [1, 10000000]}"))
        #expect(!SimulationPlan(model: wide, policy: policy, users: 2, days: 1, seed: 1).segments[1].contextsRepeat)
        let numbers = try model(text.replacingOccurrences(of: "other: 3", with: "score: {uniform: [0.5, 2.5]}"))
        #expect(!SimulationPlan(model: numbers, policy: policy, users: 2, days: 1, seed: 1).segments[1].contextsRepeat)
        #expect(SimulationPlan(model: try model(text), policy: policy, users: 2, days: 1, seed: 1).segments.allSatisfy(\.contextsRepeat))
        // A rule program of 20,000 nodes: a prepared context of about 20 KB, of which a player keeps about 800.
        let big = try Policy(yaml: """
            version: 1
            attributes: {level: {type: int, default: 0}}
            placements:
              a: {format: interstitial}
            rules:
            """ + (0..<2_000).map { "\n  - {id: r\($0), deny: [a], when: 'level == \($0) or level == \($0 + 1) or level == \($0 + 2)'}" }.joined(), file: "big.yaml")
        let player = UserPlayer(plan: SimulationPlan(model: try model(text), policy: big, users: 2, days: 1, seed: 1))
        #expect(big.preparedContextBytes > 10_000)
        #expect(player.preparedContextsKept < UserPlayer.maxPreparedContexts)
        #expect(player.preparedContextsKept * big.preparedContextBytes <= UserPlayer.preparedContextBudget)
    }

    /// Sites whose keys share an entry of the site cache (``SiteCacheEntry``) are told apart: 500 keys, more than the
    /// cache holds, each find their own site, in the order met and again in reverse.
    @Test func sitesSharingACacheEntryAreToldApart() throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial}\n", file: "p.yaml")
        var player = UserPlayer(plan: SimulationPlan(model: try model(flatModel), policy: policy, users: 1, days: 1, seed: 1))
        let reason = Reason(code: .adNotReady, message: "no ad is loaded")
        let keys = (0..<500).map { Int64($0) * 7_919 }
        #expect(Set(keys.map(SiteCacheEntry.position)).count == SiteCacheEntry.entries)
        let sites = keys.map { player.site($0, slot: 0, summaryIsFixed: true, reason: .given(reason)) }
        #expect(Set(sites).count == keys.count)
        for k in keys.indices.reversed() {
            #expect(player.site(keys[k], slot: 0, summaryIsFixed: true, reason: .given(reason)) == sites[k], "key \(keys[k])")
        }
    }

    /// A reason site is of one placement: its counter entries grow with the sites met, not with sites × placements
    /// (10,000 app-open placements made 1.3 GB of entries for one user), and each placement's reasons are still
    /// counted for it alone.
    @Test func siteEntriesGrowWithTheSitesMet() throws {
        let count = 300
        let yaml = "version: 1\ntimezone: UTC\nplacements:\n"
            + (0..<count).map { "  ao\($0): {format: app_open, min_interval: 1s}\n" }.joined()
        let policy = try Policy(yaml: yaml, file: "p.yaml")
        let plan = SimulationPlan(model: try model(flatModel), policy: policy, users: 2, days: 1, seed: 1)
        var player = UserPlayer(plan: plan)
        for user in 0..<plan.users { player.play(user: user) }
        #expect(player.siteLocations.count >= count)
        #expect(player.siteCells.count == player.siteLocations.count * plan.segments.count)
        // Each placement's reasons are counted for it: all point at its own line (its settings are written on it).
        let placements = player.counters[0].placements
        #expect(placements.allSatisfy { !$0.denials.isEmpty })
        for (i, placement) in placements.enumerated() {
            #expect(placement.denials.allSatisfy { $0.location?.line == i + 4 }, "ao\(i): \(placement.denials.map(\.location))")
        }
    }

    /// Plays the shipped model with the shipped rules and checks every impression against every cap and pacing.
    @Test func aRealisticModelStaysWithinEveryCap() throws {
        let policy = try Policy(contentsOf: packageRoot() + "/rules")
        let plan = SimulationPlan(model: try shippedModel(), policy: policy, users: 240, days: 7, seed: 3)
        var player = UserPlayer(plan: plan)
        var checked = 0
        for user in 0..<plan.users {
            player.impressionLog = []
            player.play(user: user)
            let shows = player.impressionLog ?? []
            let segment = plan.segments[plan.segmentIndex(ofUser: user)]
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = segment.zone
            func day(_ ms: Int64) -> DateComponents { calendar.dateComponents([.year, .month, .day], from: Milliseconds.date(ms)) }
            func check(_ times: [Int64], daily: Int?, hourly: Int?, windows: [WindowCap], minInterval: Int64, what: String) {
                for (i, t) in times.enumerated() {
                    if i > 0 { #expect(t - times[i - 1] >= minInterval, "\(what): two impressions closer than min_interval (user \(user))") }
                    if let daily { #expect(times.filter { day($0) == day(t) }.count <= daily, "\(what): daily_cap exceeded (user \(user))") }
                    if let hourly { #expect(times.filter { $0 > t - 3_600_000 && $0 <= t }.count <= hourly, "\(what): hourly_cap exceeded (user \(user))") }
                    for cap in windows {
                        #expect(times.filter { $0 > t - cap.window.milliseconds && $0 <= t }.count <= cap.max, "\(what): window cap exceeded (user \(user))")
                    }
                }
                checked += times.count
            }
            for (slot, placement) in policy.placements.enumerated() {
                check(shows.filter { $0.slot == slot }.map(\.at), daily: placement.dailyCap?.value, hourly: placement.hourlyCap?.value,
                      windows: placement.caps.map(\.value), minInterval: placement.minInterval.value.milliseconds, what: placement.id)
            }
            for group in policy.groups {
                let members = Set(group.placements.compactMap { id in policy.placements.firstIndex { $0.id == id.value } })
                check(shows.filter { members.contains($0.slot) }.map(\.at).sorted(), daily: group.dailyCap?.value, hourly: group.hourlyCap?.value,
                      windows: group.caps.map(\.value), minInterval: group.minInterval?.value.milliseconds ?? 0, what: "group \(group.id)")
            }
        }
        #expect(checked > 5000, "the model should show plenty of ads to check")
        for (slot, placement) in policy.placements.enumerated() {
            var c = PlacementCounters()
            for segment in player.counters { c.add(segment.placements[slot]) }
            #expect(c.loadsCompleted == c.impressions + c.showFailures + c.wastedLoads, "every completed load of \(placement.id) is shown, fails or is wasted")
            // Loads still in flight at a cold start die with the process.
            #expect(c.loadsStarted >= c.loadsCompleted + c.loadsFailed)
            #expect(c.offers >= c.accepted && c.accepted >= c.granted)
        }
    }

    @Test func segmentsGetTheirShareOfUsers() {
        #expect(SimulationPlan.allocate(10, shares: [0.7, 0.3]) == [7, 3])
        #expect(SimulationPlan.allocate(10, shares: [1.0 / 3, 1.0 / 3, 1.0 / 3]) == [4, 3, 3])
        #expect(SimulationPlan.allocate(1, shares: [0.5, 0.5]) == [1, 0])
    }

    @Test func deterministicMathAgreesWithTheSystemLibrary() {
        var random = RandomSource(derivedFrom: 42)
        for _ in 0..<10_000 {
            let x = 1 - random.unit()
            #expect(abs(DeterministicMath.log(x) - Foundation.log(x)) <= 4e-16 * max(1, abs(Foundation.log(x))))
        }
        for x in stride(from: -30.0, through: 0, by: 0.37) {
            #expect(abs(DeterministicMath.exp(x) - Foundation.exp(x)) <= 4e-15 * Foundation.exp(x))
        }
        // The exponent and significand read from the bits are exactly the properties', so every draw is as it was; a
        // subnormal number takes the properties.
        let values = (0..<10_000).map { _ in random.unit() * pow(2, Double(Int(random.unit() * 2_000) - 1_000)) }
            + [.leastNormalMagnitude, .greatestFiniteMagnitude, 1, 0.5, 2.squareRoot(), .leastNonzeroMagnitude, .leastNormalMagnitude / 3]
        for x in values where x > 0 {
            let parts = DeterministicMath.exponentAndSignificand(x)
            #expect(parts.exponent == Double(x.exponent) && parts.significand == x.significand, "\(x)")
        }
        #expect(abs(DeterministicMath.log(.leastNonzeroMagnitude) - Foundation.log(Double.leastNonzeroMagnitude)) < 1e-12)
    }

    @Test func drawsFollowTheirDistributions() {
        var random = RandomSource(seed: 1, user: 0, stream: .chance)
        let n = 20_000
        let poisson = (0..<n).map { _ in random.poisson(mean: 4) }
        #expect(abs(Double(poisson.reduce(0, +)) / Double(n) - 4) < 0.1)
        let exponential = (0..<n).map { _ in DurationDistribution.exponential(120_000).draw(&random) }
        #expect(abs(Double(exponential.reduce(0, +)) / Double(n) - 120_000) < 4000)
        let uniform = (0..<n).map { _ in CountDistribution.uniform(2, 5).draw(&random) }
        #expect(Set(uniform) == [2, 3, 4, 5])
    }

    func shippedModel() throws -> UsageModel {
        let path = packageRoot() + "/rules/usage.model.yaml"
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let (model, diagnostics) = ModelDecoder.decode(bytes, file: path)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        return try #require(model)
    }
}

@Suite("Impact diff settings")
struct PolicyDiffSettingsTests {
    @Test func everyPlacementAndGroupSettingIsCompared() throws {
        let yaml = { (delay: String) in
            "version: 1\nplacements:\n  a:\n    format: app_open\n    min_interval: 1m\n    resume: {max_delay: \(delay)}\ngroups:\n  g: {placements: [a], daily_cap: 3}\n"
        }
        let old = try Policy(yaml: yaml("3s"), file: "p.yaml")
        let new = try Policy(yaml: yaml("5s"), file: "p.yaml")
        #expect(PolicyDiff.changes(from: old, to: new).map(\.setting) == ["resume.max_delay"])
        #expect(PolicySettings.placement(new.placements[0]).map(\.key) == PlacementSetting.allCases.map(\.key))
        #expect(PolicySettings.group(new.groups[0]).map(\.key) == ["placements"] + PlacementSetting.groupSettings.map(\.key))
    }

    @Test func reorderedListsRespacedConditionsAndUTCAliasesAreNoChange() throws {
        let yaml = { (zone: String, members: String, deny: String, when: String, caps: String) in
            """
            version: 1
            timezone: \(zone)
            attributes:
              level: {type: int, default: 1}
            placements:
              a: {format: interstitial, caps: \(caps)}
              b: {format: interstitial}
            groups:
              g: {placements: \(members), daily_cap: 3}
            rules:
              - id: r
                deny: \(deny)
                when: "\(when)"
                message: m
            """
        }
        let old = try Policy(yaml: yaml("UTC", "[a, b]", "[a, b]", "level<5", "[{max: 1, window: 1h}, {max: 3, window: 1d}]"), file: "old.yaml")
        let same = try Policy(
            yaml: yaml("Etc/UTC", "[b, a]", "[b, a]", "level < 5", "[{max: 3, window: 1d}, {max: 1, window: 1h}]"), file: "new.yaml")
        #expect(PolicyDiff.changes(from: old, to: same) == [])
        // What does change is named, shown as written.
        let other = try Policy(yaml: yaml("UTC", "[a]", "[a, b]", "level <= 5", "[{max: 1, window: 1h}]"), file: "new.yaml")
        let changes = PolicyDiff.changes(from: old, to: other)
        #expect(changes.map { "\($0.subject) \($0.setting): \($0.old ?? "-") -> \($0.new ?? "-")" } == [
            "placement a caps: [{max: 1, window: 1h}, {max: 3, window: 1d}] -> [{max: 1, window: 1h}]",
            "group g placements: [a, b] -> [a]",
            "rule r when: level<5 -> level <= 5",
        ])
    }

    /// A changed attribute type or default, or a rule's message, is located at the value that changed (the item itself
    /// holds no location for them); a compiled policy, which keeps none, points at the item.
    @Test func attributeAndRuleValuesAreLocatedWhereWritten() throws {
        let yaml = { (type: String, value: String, message: String) in
            "version: 1\nattributes:\n  level:\n    type: \(type)\n    default: \(value)\nplacements:\n  a: {format: interstitial}\n"
                + "rules:\n  - id: r\n    deny: [a]\n    when: level < 5\n    message: \(message)\n"
        }
        func named(_ text: String, _ file: String) throws -> NamedPolicy {
            let load = PolicyLoader.load(texts: [(file, text)])
            let policy = try #require(load.validPolicy, "\(load.diagnostics)")
            return NamedPolicy(name: file, policy: policy, written: load.written, valueLocations: load.valueLocations)
        }
        let old = try named(yaml("int", "1", "old words"), "old.yaml"), new = try named(yaml("number", "2", "new words"), "new.yaml")
        let changes = PolicyDiff.changes(from: old, to: new)
        #expect(changes.map { "\($0.subject) \($0.setting) \($0.oldLocation.map { "\($0.line):\($0.column)" } ?? "-") \($0.newLocation.map { "\($0.line):\($0.column)" } ?? "-")" } == [
            "attribute level type 4:11 4:11", "attribute level default 5:14 5:14", "rule r message 12:14 12:14",
        ])
        let compiled = PolicyDiff.changes(from: old.policy, to: new.policy)
        #expect(compiled.map { $0.newLocation.map { "\($0.line):\($0.column)" } ?? "-" } == ["3:3", "3:3", "9:9"])
    }
}
