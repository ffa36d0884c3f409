@testable import AdRules
import AdRulesCompiler
import AdRulesTestSupport
import Foundation
import Testing

/// What the engine keeps of the past is enough for every rule: caps above 512, local days longer than a day,
/// and loads whose start was pinned by a clock set back (rules.md §6, §8).
@Suite("Engine: history limits and pinned loads")
struct HistoryLimitTests {
    static let minute: TimeInterval = 60

    /// `count` shows of a placement one minute apart, each closed, on a running engine.
    static func show(_ engine: AdEngine, clock: ManualClock, placement: PlacementID, count: Int) {
        for _ in 0..<count {
            engine.record(.showStarted(placement))
            engine.record(.adClosed(placement))
            clock.advance(by: minute)
        }
    }

    /// A policy in UTC of a banner `b` with a daily cap of `cap`, and a banner `c` alone in a group with that cap.
    static func cappedAlone(_ cap: Int) -> String {
        "version: 1\ntimezone: UTC\nplacements:\n  b: {format: banner, daily_cap: \(cap)}\n  c: {format: banner}\n"
            + "groups:\n  g: {placements: [c], daily_cap: \(cap)}\n"
    }

    /// An engine of a policy in UTC at midnight (a day of shows a minute apart fits in it), after `app_launched`.
    static func launchedAtMidnight(_ yaml: String) throws -> (engine: AdEngine, clock: ManualClock, policy: Policy) {
        let policy = try Policy(yaml: yaml)
        let clock = ManualClock(Date(timeIntervalSince1970: 1_796_083_200))
        let engine = AdEngine(policy: policy, clock: clock, store: InMemoryLedgerStore())
        engine.record(.appLaunched)
        return (engine, clock, policy)
    }

    /// A group keeps one show record more for each member, which a show_failed may take back: a member listed twice
    /// is one member, and keeps no more (a group listing one placement 5,000 times passed the policy's bound on records).
    @Test func aMemberListedTwiceKeepsNoMoreRecords() throws {
        let members = "placements: [a, b]"
        let repeated = "placements: [a, b, a, a, b]"
        func kept(_ list: String) throws -> Int {
            try Policy(yaml: "version: 1\nplacements:\n  a: {format: banner}\n  b: {format: banner}\ngroups:\n  g: {\(list), daily_cap: 3}\n")
                .recordsKeptAtMost
        }
        #expect(try kept(repeated) == kept(members))
    }

    /// Shows older than every window are kept (up to the caps' count): a clock set back brings them back into their
    /// window or calendar day, where they count again (rules.md §8). They were forgotten at the next show, and a
    /// set-back of a minute past the window then allowed a capped show.
    @Test(arguments: [false, true])
    func showsPastEveryWindowCountAgainAfterAClockSetBack(restarted: Bool) throws {
        let policy = try Policy(yaml: """
            version: 1
            timezone: UTC
            placements:
              ie: {format: interstitial, caps: [{max: 2, window: 3d}]}
              daily: {format: interstitial, daily_cap: 2}
            """)
        let day: TimeInterval = 86_400
        let start = Date(timeIntervalSince1970: 1_780_531_200)  // 2026-06-04T00:00:00Z
        let history = [ShowRecord(at: Milliseconds.from(start) - 3 * 86_400_000 + 10_000, session: 1),
                       ShowRecord(at: Milliseconds.from(start) - 3 * 86_400_000 + 20_000, session: 1)]
        let store = InMemoryLedgerStore(LedgerSnapshot(installedAt: Milliseconds.from(start) - 30 * 86_400_000, sessionCount: 1, shows: ["ie": history, "daily": history]))
        let clock = ManualClock(start)
        var engine = AdEngine(policy: policy, clock: clock, store: store)
        engine.record(.appLaunched)
        clock.advance(by: 30)
        // 2026-06-04T00:00:30Z: both old shows are past the 3d window; the show recorded now forgot them.
        for placement: PlacementID in ["ie", "daily"] {
            engine.record(.loadCompleted(placement))
            #expect(engine.beginShow(placement, trigger: .action).isAllowed)
            engine.record(.adClosed(placement))
        }
        if restarted { engine = AdEngine(policy: policy, clock: clock, store: store) }
        // A minute back: the old shows are inside the window again, beside the new one pinned to now.
        clock.set(start.addingTimeInterval(-30))
        engine.record(.loadCompleted("ie"))
        let window = engine.ask(.show("ie", trigger: .action))
        #expect(window.codes == [.windowCap], "\(window.codes)")
        #expect(window.nextAllowedAt == start.addingTimeInterval(-3 * day + 3 * day + 20), "when the show at 00:00:20 leaves the window")
        // Three days back, to the day of the old shows: with the new one pinned there, it holds three against a cap of 2.
        clock.set(start.addingTimeInterval(-3 * day + 12 * 3600))
        engine.record(.loadCompleted("daily"))
        #expect(engine.ask(.show("daily", trigger: .action)).codes == [.dailyCap])
    }

    /// A group with no cap keeps one show more than its members, not a cap's worth (10,000 such groups of one placement
    /// kept every show 10,000 times over): its min_interval still reads the right last show after every member's show
    /// in progress is taken back.
    @Test func aGroupWithNoCapKeepsOnlyWhatItsPacingReads() throws {
        let policy = try Policy(yaml: """
            version: 1
            placements:
              a: {format: banner, daily_cap: 600}
              b: {format: banner}
            groups:
              g: {placements: [a, b], min_interval: 10m}
              h: {placements: [a], daily_cap: 3}
            """)
        let clock = ManualClock(Date(timeIntervalSince1970: 1_796_083_200))
        let engine = AdEngine(policy: policy, clock: clock, store: InMemoryLedgerStore())
        engine.record(.appLaunched)
        for _ in 0..<20 {
            engine.record(.showStarted("a"))
            engine.record(.adClosed("a"))
            clock.advance(by: 11 * Self.minute)
        }
        #expect(engine.currentFacts.groups[0].count == 3, "two members and one more")
        #expect(engine.currentFacts.groups[1].count == 5, "a capped group keeps its largest cap and one more than its members")
        // The last kept show at t, then a show of each member in progress, both taken back.
        clock.advance(by: -Self.minute)
        engine.record(.showStarted("a"))
        engine.record(.showStarted("b"))
        engine.record(.showFailed("a"))
        engine.record(.showFailed("b"))
        engine.record(.loadCompleted("b"))
        // 10 minutes after the last show that stood: allowed; 9 minutes after it: group_min_interval.
        clock.advance(by: -Self.minute)
        #expect(engine.ask(.show("b", trigger: .action)).codes == [.groupMinInterval])
        clock.advance(by: Self.minute)
        #expect(engine.ask(.show("b", trigger: .action)).isAllowed)
    }

    /// A scenario's history, a ledger and a policy update give a cap-less group only what it keeps, never a copy of
    /// every member's shows first (10,000 such groups of one placement took 3.2 GB for 20,000 shows of history).
    @Test func historyGivesAGroupOnlyWhatItKeeps() throws {
        let policy = try Policy(yaml: """
            version: 1
            placements:
              a: {format: banner, daily_cap: 600}
            groups:
              g: {placements: [a], min_interval: 1m}
              h: {placements: [a], daily_cap: 3}
            """)
        var facts = Facts(policy: policy, installedAt: 0)
        facts.addHistoricalShows((1...1000).map { ("a", Int64($0) * 60_000) }, session: 0, policy: policy)
        #expect(facts.groups.map(\.count) == [2, 5])
        #expect(facts.groups[0].map(\.at) == [999 * 60_000, 1000 * 60_000])
        let remapped = facts.remapped(from: policy, to: policy)
        #expect(remapped.groups.map(\.count) == [2, 5] && remapped.groups[0] == facts.groups[0])
        // Shows at one time stay in session order (a session cap counts back from the end, to another session's show).
        let tied = Facts.newest([ShowRecord(at: 5, session: 2), ShowRecord(at: 5, session: 1), ShowRecord(at: 4, session: 3)], keep: 3)
        #expect(tied.map(\.session) == [3, 1, 2])
    }

    /// A group's newest shows are taken from the ends of its members' lists: the same records, in the same order, as
    /// sorting all of them and keeping the newest, whatever the lists' lengths, overlaps and ties.
    @Test func theNewestOfManyListsAreTheNewestOfAllOfThem() {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<300 {
            let lists = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                Facts.newest((0..<Int.random(in: 0...12, using: &generator)).map { _ in
                    ShowRecord(at: Int64.random(in: 0...20, using: &generator), session: Int.random(in: 0...2, using: &generator))
                }, keep: .max)
            }
            let keep = Int.random(in: 0...40, using: &generator)
            #expect(Facts.newest(of: lists, keep: keep) == Facts.newest(lists.flatMap { $0 }, keep: keep), "\(lists) keep \(keep)")
        }
    }

    /// Groups of the same many placements with a long history each get what they keep, and every placement what it
    /// keeps. (The lists are merged from their ends: 500 such groups of 500 placements took 2.1 GB when each group
    /// copied every member's list first; memory is not measured here.)
    @Test func manyGroupsOfManyMembersGetOnlyWhatTheyKeep() throws {
        let ids = (0..<50).map { "a\($0)" }
        let groups = (0..<50).map { "  g\($0): {placements: [\(ids.joined(separator: ", "))], daily_cap: 2}\n" }.joined()
        let policy = try Policy(yaml: "version: 1\nplacements:\n" + ids.map { "  \($0): {format: banner}\n" }.joined() + "groups:\n" + groups)
        var facts = Facts(policy: policy, installedAt: 0)
        let history = (0..<100).flatMap { minute in ids.map { ($0, Int64(minute) * 60_000) } }
        facts.addHistoricalShows(history, session: 0, policy: policy)
        let kept = policy.storage.groupShowsKept[0]
        #expect(facts.groups.allSatisfy { $0.count == kept && $0.last?.at == 99 * 60_000 }, "\(facts.groups.map(\.count))")
        #expect(facts.placementShows.allSatisfy { $0.count == 100 })
    }

    @Test(arguments: [599, 600])
    func aCapAbove512BindsForShowsRecordedLive(shows: Int) throws {
        // Midnight UTC: 600 shows a minute apart stay within one day.
        let (engine, clock, _) = try Self.launchedAtMidnight(Self.cappedAlone(600))
        Self.show(engine, clock: clock, placement: "b", count: shows)
        Self.show(engine, clock: clock, placement: "c", count: shows)
        engine.record(.loadCompleted("b"))
        engine.record(.loadCompleted("c"))
        let reached = shows >= 600
        #expect(engine.ask(.show("b", trigger: .action)).codes == (reached ? [.dailyCap] : []))
        #expect(engine.ask(.show("c", trigger: .action)).codes == (reached ? [.groupDailyCap] : []))
    }

    /// A reached cap of 512 or more, the policy's largest, stays reached after a show past it fails: the show taken back
    /// is the one in progress, not one of the cap's (a history that kept exactly the cap dropped its oldest show for the
    /// failed one, and then allowed a 601st show of the day).
    @Test(arguments: [512, 600])
    func aFailedShowPastALargeCapLeavesTheCapReached(cap: Int) throws {
        let (engine, clock, _) = try Self.launchedAtMidnight(Self.cappedAlone(cap))
        for (placement, code) in [("b", ReasonCode.dailyCap), ("c", .groupDailyCap)] {
            Self.show(engine, clock: clock, placement: PlacementID(placement), count: cap)
            engine.record(.loadCompleted(PlacementID(placement)))
            #expect(engine.ask(.show(PlacementID(placement), trigger: .action)).codes == [code])
            // The app shows anyway, and the show fails.
            engine.record(.showStarted(PlacementID(placement)))
            engine.record(.showFailed(PlacementID(placement)))
            engine.record(.loadCompleted(PlacementID(placement)))
            #expect(engine.ask(.show(PlacementID(placement), trigger: .action)).codes == [code], "\(placement)")
        }
    }

    /// A group whose cap is the policy's largest keeps one more show for each member, past what a placement keeps: the
    /// shows of two members failing at once leave its cap reached (held to a placement's 601, it was one short).
    @Test func twoMembersFailingAtOnceLeaveTheGroupCapReached() throws {
        let (engine, clock, policy) = try Self.launchedAtMidnight("""
            version: 1
            timezone: UTC
            placements:
              a: {format: banner}
              b: {format: banner}
            groups:
              g: {placements: [a, b], daily_cap: 600}
            """)
        Self.show(engine, clock: clock, placement: "a", count: 300)
        Self.show(engine, clock: clock, placement: "b", count: 300)
        engine.record(.loadCompleted("a"))
        #expect(engine.ask(.show("a", trigger: .action)).codes == [.groupDailyCap])
        // Both show anyway, at once, and both shows fail.
        engine.record(.showStarted("a"))
        engine.record(.showStarted("b"))
        engine.record(.showFailed("a"))
        engine.record(.showFailed("b"))
        engine.record(.loadCompleted("a"))
        #expect(engine.ask(.show("a", trigger: .action)).codes == [.groupDailyCap])
        #expect(policy.storage.groupShowsKept == [603])
    }

    /// What a group keeps: its largest cap, one more for each member up to 512, and one besides; without a cap, one more
    /// than its members up to 512, whatever the placements' caps (five cap-less groups of 100,000 placements, beside
    /// one daily_cap of 100,000, kept 100,001 records each and passed the policy's bound).
    @Test func aGroupKeepsItsCapAndAMarginForFailedShows() throws {
        let ids = (0..<600).map { "p\($0)" }
        let placements = ids.map { "  \($0): {format: banner}\n" }.joined()
        let all = "[" + ids.joined(separator: ", ") + "]"
        let policy = try Policy(yaml: "version: 1\nplacements:\n  big: {format: banner, daily_cap: 5000}\n" + placements + "groups:\n"
            + "  capped: {placements: \(all), daily_cap: 10}\n  small: {placements: [p0, p1], hourly_cap: 3}\n"
            + "  free: {placements: \(all), min_interval: 1m}\n  pair: {placements: [p0, p1], min_interval: 1m}\n")
        #expect(policy.storage.showsKept == 5001)
        #expect(policy.storage.groupShowsKept == [10 + 512 + 1, 3 + 2 + 1, 512, 3])
    }

    @Test func aShowEarlyInA27HourDayStillCountsForTheDailyCap() throws {
        // Antarctica/Casey went from UTC+11 to UTC+8 on 2021-03-14 at 00:00 local: 13 March lasted 27 hours.
        let policy = try Policy(yaml: """
            version: 1
            timezone: Antarctica/Casey
            placements:
              b: {format: banner, daily_cap: 2}
            """)
        let first = Date(timeIntervalSince1970: 1_615_555_800)  // 2021-03-12T13:30:00Z, 00:30 local on 13 March
        let clock = ManualClock(first)
        let engine = AdEngine(policy: policy, clock: clock, store: InMemoryLedgerStore())
        engine.record(.appLaunched)
        engine.record(.showStarted("b"))
        engine.record(.adClosed("b"))
        // 26 h 10 min later, still 13 March locally, in a new session: the first show is older than 26 hours.
        clock.advance(by: 26 * 3600 + 10 * 60)
        engine.record(.appLaunched)
        engine.record(.showStarted("b"))
        engine.record(.adClosed("b"))
        engine.record(.loadCompleted("b"))
        clock.advance(by: Self.minute)
        let decision = engine.ask(.show("b", trigger: .action))
        #expect(decision.codes == [.dailyCap])
        // 13 March ends at 2021-03-13T16:00:00Z (00:00 local on 14 March, UTC+8).
        #expect(decision.nextAllowedAt == Date(timeIntervalSince1970: 1_615_651_200))
    }

    @Test(arguments: [false, true])
    func aLoadPinnedByAClockSetBackStillTimesOutAndClosesTheLaunchPhase(askInBetween: Bool) throws {
        let policy = try Policy(yaml: """
            version: 1
            timezone: UTC
            load_timeout: 60s
            placements:
              ao: {format: app_open, min_interval: 1m}
            """)
        let start = Date(timeIntervalSince1970: 1_796_115_600)
        let clock = ManualClock(start)
        let engine = AdEngine(policy: policy, clock: clock, store: InMemoryLedgerStore())
        engine.record(.appLaunched)
        engine.record(.loadStarted("ao"))
        // The clock goes back an hour: the load's start is pinned to the new now, and times out 60 s later.
        clock.set(start.addingTimeInterval(-3600))
        if askInBetween {
            #expect(engine.ask(.load("ao")).codes == [.alreadyLoading])
        } else {
            engine.record(.action("ao"))
        }
        clock.advance(by: 61)
        engine.record(.loadCompleted("ao"))
        #expect(engine.ask(.show("ao", trigger: .loadCompleted)).codes == [.deferredShow], "the timed-out load closed the launch phase")
    }

    /// A scenario's history in many groups keeps only what a history keeps: 20,000 shows in 300 groups are not
    /// copied into each group (that took gigabytes and ended the process).
    @Test func aLongHistoryInManyGroupsIsTrimmed() throws {
        var yaml = "version: 1\nplacements:\n  a: {format: banner}\ngroups:\n"
        for g in 0..<300 { yaml += "  g\(g): {placements: [a], daily_cap: 5}\n" }
        let policy = try Policy(yaml: yaml, file: "p.yaml")
        var facts = Facts(policy: policy, installedAt: 0)
        let shows = (0..<20_000).reversed().map { (placement: "a", at: Int64($0) * 1000) }
        facts.addHistoricalShows(shows, session: 0, policy: policy)
        let keep = policy.storage.showsKept
        #expect(facts.placementShows[0].count == keep)
        #expect(facts.groups.allSatisfy { $0.count == 5 + 1 + 1 }, "its cap and one more than its members")
        // The newest are kept, in time order.
        #expect(facts.placementShows[0].last?.at == 19_999_000)
        #expect(facts.placementShows[0].map(\.at) == facts.placementShows[0].map(\.at).sorted())
    }

    /// What the engine writes loads again: shows that caps of 100,000 keep for two placements would make a file over
    /// the 4 MiB bound, which the next start would move aside as corrupt (losing every show). The oldest shows of
    /// all placements are dropped instead, until the file fits.
    @Test func aWrittenLedgerAlwaysFitsTheFileBound() throws {
        let start: Int64 = 1_795_000_000_000
        let shows = (0..<100_000).map { ShowRecord(at: start + Int64($0) * 1000, session: 3) }
        // "rare" showed once, before all the others: that show is the one its min_interval reads, and it stays.
        let rare = [ShowRecord(at: start - 1000, session: 3)]
        let snapshot = LedgerSnapshot(
            installedAt: start - 1000, sessionCount: 3, shows: ["a": shows, "b": shows.map { ShowRecord(at: $0.at + 500, session: 3) }, "rare": rare])
        let written = snapshot.clampedToBounds()
        let path = scratchPath("adrules-fit") + ".json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileLedgerStore(path: path).save(written)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? .max
        #expect(size <= 4 << 20, "\(size) bytes")
        let loaded = try #require(try FileLedgerStore(path: path).load())
        let a = loaded.shows["a"] ?? [], b = loaded.shows["b"] ?? []
        #expect(a.count + b.count < 200_000)
        // The newest shows stay, of both placements, and the oldest kept is newer than every one dropped.
        #expect(a.last == shows.last)
        #expect(b.last?.at == start + 99_999_000 + 500)
        #expect(abs(a.count - b.count) <= 1, "the oldest of all are dropped, not one placement's")
        #expect(loaded.shows["rare"] == rare, "each placement keeps its newest show")
        // A ledger within the bound is written whole.
        let small = LedgerSnapshot(installedAt: start, sessionCount: 3, shows: ["a": Array(shows.prefix(512))])
        #expect(small.clampedToBounds() == small)
    }

    /// When each placement's newest show alone is too much (45,000 placements with 64-character ids, each shown once),
    /// the placements shown longest ago lose theirs, entry and all: the file fits and loads again, where it was
    /// written at 4.2 MB and moved aside as corrupt at the next start.
    @Test func theNewestShowsOfManyPlacementsAlsoFitTheFileBound() throws {
        let start: Int64 = 1_795_000_000_000
        func id(_ i: Int) -> String { "p\(String(format: "%05d", i))" + String(repeating: "x", count: 58) }
        var lists: [String: [ShowRecord]] = [:]
        for i in 0..<45_000 { lists[id(i)] = [ShowRecord(at: start + Int64(i) * 1000, session: 10_000_000)] }
        lists["never"] = []
        let written = LedgerSnapshot(installedAt: start, sessionCount: 10_000_000, shows: lists).clampedToBounds()
        let path = scratchPath("adrules-fit") + ".json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileLedgerStore(path: path).save(written)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? .max
        #expect(size <= 4 << 20, "\(size) bytes")
        let loaded = try #require(try FileLedgerStore(path: path).load())
        #expect(loaded.shows["never"] == nil, "an entry with no show goes first")
        #expect(loaded.shows.count > 20_000 && loaded.shows.count < 45_000, "\(loaded.shows.count)")
        // The newest placements stay, and every one kept was shown later than every one dropped.
        #expect(loaded.shows[id(44_999)]?.count == 1)
        let kept = loaded.shows.keys.compactMap { Int($0.dropFirst().prefix(5)) }
        #expect(kept.count == loaded.shows.count)
        #expect(kept.min() == 45_000 - kept.count, "the oldest were dropped, not others")
    }
}
