import AdRules
import Foundation
import Testing

/// What a hunt through the engine's public API found: a clock at the ends of time, a policy update between a clock
/// and its set-back, a clock past 2200 across a relaunch, and a `show_failed` after a reward.
@Suite("Engine: clocks, updates and rewards at the edges")
struct EngineRuntimeHuntTests {
    static let policyText = """
        version: 1
        timezone: UTC
        placements:
          inter: {format: interstitial, min_interval: 30s, daily_cap: 10, max_ad_age: 1h}
          rew: {format: rewarded, daily_cap: 4, session_cap: 3}
        groups:
          fs: {placements: [inter, rew], daily_cap: 10, min_interval: 1m}
        """

    /// A clock that read -infinity and then +infinity: times are clamped to ±2^61 ms, so their difference fits (at
    /// ±2^62 it trapped with an arithmetic overflow).
    @Test func aClockAtTheEndsOfTimeDoesNotTrap() throws {
        let clock = ManualClock(Date(timeIntervalSince1970: -.infinity))
        let engine = AdEngine(policy: try policy(Self.policyText), clock: clock)
        engine.record(.appLaunched)
        engine.record(.loadCompleted("inter"))
        engine.record(.fullscreenOpened(source: "sdk"))
        clock.set(Date(timeIntervalSince1970: .infinity))
        #expect(engine.ask(.show("inter", trigger: .action)).codes.contains(.adExpired))
        clock.set(Date(timeIntervalSince1970: -1e300))
        #expect(!engine.ask(.show("inter", trigger: .action)).isAllowed)
    }

    /// An update to the same policy between an ad expiring and the clock set back: the ad stays expired (the update
    /// forgot the latest time handled, and the set-back made the ad fresh again).
    @Test func anUpdateKeepsWhatHadRunOut() throws {
        let policy = try policy(Self.policyText)
        let clock = ManualClock(engineTestStart)
        let engine = AdEngine(policy: policy, clock: clock)
        engine.record(.appLaunched)
        engine.record(.loadCompleted("inter"))
        clock.advance(by: 2 * 3600)
        #expect(engine.ask(.show("inter", trigger: .action)).codes == [.adExpired])
        engine.update(policy: policy)
        clock.set(engineTestStart.addingTimeInterval(30 * 60))
        #expect(engine.beginShow("inter", trigger: .action).codes == [.adExpired])
    }

    /// A clock past 2200: the ledger held times up to 2200 only, so a show written then read back as decades old at the
    /// next start (the next show was allowed at once, past `min_interval`). It now holds times to 9999: the show keeps
    /// its time, and what it paces clears when it should (reading it as "now" at each start never cleared).
    @Test func showsWrittenPast2200AreNotForgottenAtTheNextStart() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            let policy = try policy(Self.policyText)
            let clock = ManualClock(Date(timeIntervalSince1970: 10_000_000_000))
            let first = AdEngine(policy: policy, clock: clock, store: FileLedgerStore(path: path))
            first.record(.appLaunched)
            first.record(.loadCompleted("inter"))
            #expect(first.beginShow("inter", trigger: .action).isAllowed)
            first.record(.adClosed("inter"))
            clock.advance(by: 10)
            let second = AdEngine(policy: policy, clock: clock, store: FileLedgerStore(path: path))
            second.record(.appLaunched)
            second.record(.loadCompleted("inter"))
            let decision = second.ask(.show("inter", trigger: .action))
            #expect(decision.codes.contains(.minInterval) && decision.codes.contains(.groupMinInterval), "\(decision.codes)")
            clock.advance(by: 2 * 86_400)
            let third = AdEngine(policy: policy, clock: clock, store: FileLedgerStore(path: path))
            third.record(.appLaunched)
            third.record(.loadCompleted("inter"))
            #expect(third.ask(.show("inter", trigger: .action)).isAllowed, "two days on, nothing paces it")
        }
    }

    /// The public `Facts` entries clamp the times they are given, as the engine does: a time pinned to Int64.min made
    /// the next decision trap.
    @Test func factsClampTheTimesTheyAreGiven() throws {
        let policy = try policy(Self.policyText)
        var facts = Facts(policy: policy, installedAt: .max)
        facts.apply(.appLaunched, at: 0, policy: policy)
        facts.apply(.loadCompleted("inter"), at: 0, policy: policy)
        facts.addHistoricalShow(placement: "inter", at: .max, session: 1, policy: policy)
        facts.prepare(at: .min, policy: policy)
        facts.prepareDay(at: .max, policy: policy, deviceTimeZone: TimeZone(identifier: "Pacific/Kiritimati")!)
        #expect(!Evaluator.decide(.show("inter", trigger: .action), policy: policy, facts: facts, now: 0).isAllowed)
        #expect(!Evaluator.decide(.show("inter", trigger: .action), policy: policy, facts: facts, now: .max).isAllowed)
    }

    /// A `show_failed` after the show's reward was earned and granted takes nothing back: one choice, one reward (it
    /// gave the choice and the show back, and ten rewards were paid past every cap).
    @Test func aShowFailedAfterARewardTakesNothingBack() throws {
        let clock = ManualClock(engineTestStart)
        let engine = AdEngine(policy: try policy(Self.policyText), clock: clock)
        engine.record(.appLaunched)
        engine.record(.userChose("rew"))
        var shows = 0, rewards = 0
        for _ in 0..<10 {
            engine.record(.loadCompleted("rew"))
            if engine.beginShow("rew", trigger: .action).isAllowed { shows += 1 }
            engine.record(.rewardEarned("rew"))
            if engine.claimReward("rew").isAllowed { rewards += 1 }
            engine.record(.showFailed("rew"))
            clock.advance(by: 1)
        }
        #expect(shows == 1 && rewards == 1, "\(shows) shows, \(rewards) rewards")
        #expect(engine.showHistory["rew"]?.count == 1)
        // A show that failed before its reward is still taken back, its choice given back.
        engine.record(.userChose("rew"))
        clock.advance(by: 120)
        engine.record(.loadCompleted("rew"))
        #expect(engine.beginShow("rew", trigger: .action).isAllowed)
        engine.record(.showFailed("rew"))
        #expect(engine.currentFacts.showHistory(policy: engine.currentPolicy)["rew"]?.count == 1)
        engine.record(.loadCompleted("rew"))
        #expect(engine.ask(.show("rew", trigger: .action)).isAllowed, "the choice was given back")
    }

    /// A `show_failed` with no `show_started` after the last show is over (its close lost, and `fullscreen_timeout`
    /// past) fails a new attempt: the old show still counts and its choice stays used (it gave back the impression,
    /// past `daily_cap: 1`, and the choice, for a reward never chosen). So after a clock set back that brings the old
    /// show within the timeout again.
    @Test func aShowFailedAfterTheShowIsOverTakesNothingBack() throws {
        let policy = try policy("version: 1\ntimezone: UTC\nplacements:\n  i: {format: interstitial, daily_cap: 1}\n  r: {format: rewarded}\n")
        let clock = ManualClock(engineTestStart)
        let engine = AdEngine(policy: policy, clock: clock)
        engine.record(.appLaunched)
        /// Shows `id`, fails it `seconds` later (`setBack` seconds after the clock was set back that far) and loads
        /// again: the codes of the next show's ask.
        func codesAfterFailing(_ id: PlacementID, after seconds: TimeInterval, setBack: TimeInterval = 0, choosing: Bool = false) -> [ReasonCode] {
            engine.record(.loadCompleted(id))
            if choosing { engine.record(.userChose(id)) }
            #expect(engine.beginShow(id, trigger: .action).isAllowed)
            clock.advance(by: seconds)
            engine.record(.loadCompleted(id))
            clock.advance(by: -setBack)
            engine.record(.showFailed(id))
            engine.record(.loadCompleted(id))
            return engine.ask(.show(id, trigger: .action)).codes
        }
        #expect(codesAfterFailing("i", after: 2 * 3600) == [.dailyCap])
        #expect(codesAfterFailing("r", after: 31 * 60, choosing: true) == [.noUserChoice])
        // Timed out, then the clock set back within the timeout: the show is still over.
        clock.advance(by: 86_400)
        #expect(codesAfterFailing("i", after: 2 * 3600, setBack: 2 * 3600 - 600).contains(.dailyCap))
        // Within the timeout, the show is still taken back.
        clock.advance(by: 86_400)
        #expect(codesAfterFailing("i", after: 30 * 60).isEmpty)
    }

    /// An app that adds AdRules in an update passes its users' install date and sessions: a ledger started fresh
    /// takes them (no grace for a long-time user), and a ledger already kept keeps its own.
    @Test func aFreshLedgerTakesTheAppsInstallDateAndSessions() throws {
        let policy = try policy("version: 1\nplacements:\n  i: {format: interstitial, grace: {after_install: 1d, first_sessions: 2}}\n")
        let clock = ManualClock(engineTestStart)
        func showCodes(_ engine: AdEngine) -> [ReasonCode] {
            engine.record(.appLaunched)
            engine.record(.loadCompleted("i"))
            return engine.ask(.show("i", trigger: .action)).codes
        }
        #expect(showCodes(AdEngine(policy: policy, clock: clock, store: InMemoryLedgerStore())) == [.graceSessions, .graceInstall])
        let store = InMemoryLedgerStore()
        let installed = engineTestStart.addingTimeInterval(-30 * 86_400)
        let upgraded = AdEngine(policy: policy, clock: clock, store: store, installedAt: installed, sessionsBefore: 10)
        #expect(showCodes(upgraded).isEmpty)
        #expect(try store.load()?.installedAt == Int64(installed.timeIntervalSince1970 * 1000))
        // The ledger now kept is read as it is: the values passed are for a fresh one only.
        let later = AdEngine(policy: policy, clock: clock, store: store, installedAt: engineTestStart, sessionsBefore: 0)
        #expect(later.currentFacts.installedAt == Int64(installed.timeIntervalSince1970 * 1000))
        #expect(showCodes(later).isEmpty)
        // An install time later than now is now.
        let future = AdEngine(policy: policy, clock: clock, installedAt: engineTestStart.addingTimeInterval(3600))
        #expect(future.currentFacts.installedAt == Int64(engineTestStart.timeIntervalSince1970 * 1000))
    }

    /// The engine writes its ledger for a `show_failed` only when it takes a show back: within `fullscreen_timeout`
    /// of the show's start, not past it.
    @Test func aShowFailedWritesTheLedgerOnlyWhenItTakesAShowBack() throws {
        let policy = try policy("version: 1\nplacements:\n  i: {format: interstitial, daily_cap: 5}\n")
        let i = try #require(policy.placementIDs.firstIndex(of: "i"))
        let minute: Int64 = 60_000
        var core = EngineCore(policy: policy, facts: Facts(policy: policy, installedAt: 0), deviceTimeZone: .gmt)
        _ = core.record(.appLaunched, placement: nil, at: minute)
        let written = [
            core.record(.showStarted, placement: i, at: 2 * minute), core.record(.showFailed, placement: i, at: 3 * minute),
            core.record(.showStarted, placement: i, at: 4 * minute), core.record(.showFailed, placement: i, at: 40 * minute),
        ]
        #expect(written == [true, true, true, false])
    }

    /// Facts read from an engine and its policy read in a second call, with an update between them on another thread:
    /// the two do not match. The show history and a remap read what both have (they indexed the facts by the policy
    /// passed, out of range when it had more placements).
    @Test func factsOfAnotherPolicyAreReadWithoutATrap() throws {
        let small = try policy("version: 1\nplacements:\n  rew: {format: rewarded}\n")
        let large = try policy(Self.policyText)
        let clock = ManualClock(engineTestStart)
        let engine = AdEngine(policy: small, clock: clock)
        engine.record(.appLaunched)
        engine.record(.loadCompleted("rew"))
        engine.record(.userChose("rew"))
        #expect(engine.beginShow("rew", trigger: .action).isAllowed)
        let facts = engine.currentFacts
        engine.update(policy: large)
        // Read by position, as the evaluator fits facts of another policy: one placement's shows, and no trap.
        #expect(facts.showHistory(policy: large).values.map(\.count) == [1])
        // Remapped from the large policy, the facts' one placement stands for inter, which the small one lacks: by
        // position, as the evaluator fits facts of another policy. AdEngine.showHistory reads both under one lock.
        // Read by position as inter's, which the small policy lacks: not charged to rew.
        let remapped = facts.remapped(from: large, to: small)
        #expect(remapped.showHistory(policy: small)["rew"] == nil)
        #expect(facts.remapped(from: small, to: large).showHistory(policy: large)["rew"]?.count == 1)
    }

    /// A clock that reads NaN once is taken to read the latest time handled, not 1970: the show stays where it was,
    /// and the next real reading sees its interval as it is (read as 1970, the show was pinned there and every
    /// interval and cap had lapsed).
    @Test func aNaNClockReadingIsTheLatestTimeHandled() throws {
        let clock = ManualClock(engineTestStart)
        let engine = AdEngine(policy: try policy(Self.policyText), clock: clock)
        engine.record(.appLaunched)
        engine.record(.loadCompleted("inter"))
        #expect(engine.beginShow("inter", trigger: .action).isAllowed)
        engine.record(.adClosed("inter"))
        clock.set(Date(timeIntervalSince1970: .nan))
        engine.record(.loadCompleted("inter"))
        #expect(engine.ask(.show("inter", trigger: .action)).codes.contains(.minInterval))
        clock.set(engineTestStart.addingTimeInterval(10))
        #expect(engine.ask(.show("inter", trigger: .action)).codes.contains(.minInterval))
        #expect(engine.showHistory["inter"]?.map(\.at) == [engineTestStartMs])
    }

    /// A clock that reads NaN when the engine starts is no reading either: the ledger's shows and install time are not
    /// pinned to 1970 (written back, every cap and grace had lapsed), and a fresh install is dated by the first real one.
    @Test func aNaNClockReadingAtStartUpPinsNothing() throws {
        let store = InMemoryLedgerStore(LedgerSnapshot(
            installedAt: engineTestStartMs - 60_000, sessionCount: 1, shows: ["inter": [ShowRecord(at: engineTestStartMs - 10_000, session: 1)]]))
        let clock = ManualClock(Date(timeIntervalSince1970: .nan))
        let engine = AdEngine(policy: try policy(Self.policyText), clock: clock, store: store)
        clock.set(engineTestStart)
        engine.record(.appLaunched)
        engine.record(.loadCompleted("inter"))
        #expect(engine.ask(.show("inter", trigger: .action)).codes.contains(.minInterval))
        #expect(try store.load()?.shows["inter"]?.map(\.at) == [engineTestStartMs - 10_000])
        #expect(engine.currentFacts.installedAt == engineTestStartMs - 60_000)
        let fresh = AdEngine(policy: try policy(Self.policyText), clock: ManualClock(Date(timeIntervalSince1970: .nan)))
        let freshFacts = fresh.currentFacts
        #expect(freshFacts.installedAt > engineTestStartMs, "not 1970")
    }

    /// Facts built for another policy handed to an engine (an app swapping policies with the old engine's facts), or
    /// brought to a time by `Facts.prepare`: fitted to the policy, never an index out of range (a `show_failed` of
    /// the last placement, and a clock set back over facts larger than the policy, trapped).
    @Test func factsOfAnotherPolicyAreFittedNotTrappedOn() throws {
        let small = try policy("version: 1\nplacements:\n  a: {format: interstitial}\n")
        let large = try policy(Self.policyText)
        let clock = ManualClock(engineTestStart)
        let grown = AdEngine(policy: large, facts: Facts(policy: small, installedAt: engineTestStartMs), clock: clock)
        grown.record(.appLaunched)
        grown.record(.showFailed("rew"))
        #expect(grown.ask(.show("rew", trigger: .action)).codes == [.noUserChoice, .adNotReady])
        var old = Facts(policy: large, installedAt: engineTestStartMs)
        old.apply(.appLaunched, at: engineTestStartMs, policy: large)
        old.apply(.showStarted("rew"), at: engineTestStartMs + 60_000, policy: large)
        let shrunk = AdEngine(policy: small, facts: old, clock: clock)
        shrunk.record(.loadCompleted("a"))
        #expect(shrunk.ask(.show("a", trigger: .action)).isAllowed)
        var prepared = old
        prepared.prepare(at: 0, policy: .empty)
        #expect(prepared.showHistory(policy: .empty).isEmpty)
    }

    /// A decision an app made or edited prints and encodes whatever dates it holds; public helpers given the ends of
    /// their ranges saturate or keep nothing (a NaN `nextAllowedAt`, `RuleDuration.days(.max)` and a negative `cut`
    /// limit trapped).
    @Test func appMadeValuesAtTheirEndsDoNotTrap() throws {
        for date in [Date(timeIntervalSince1970: .nan), Date(timeIntervalSince1970: .infinity), Date(timeIntervalSince1970: -1e300)] {
            let decision = Decision(
                ask: .show("a", trigger: .action), reasons: [Reason(code: .minInterval, message: "m", clearsAt: date)], nextAllowedAt: date)
            #expect(decision.description.contains("next at"))
            #expect(try JSONEncoder().encode(decision).count > 0)
        }
        #expect(RuleDuration.days(.max).milliseconds == .max)
        #expect(RuleDuration.seconds(.min).milliseconds == .min)
        #expect(RuleDuration.hours(2) == RuleDuration(milliseconds: 7_200_000))
        #expect(ControlCharacters.cut("abc", limit: -1) == "…")
        #expect(ControlCharacters.cut("abc", limit: .max) == "abc")
        #expect(ControlCharacters.cut("abcdef", limit: 3) == "abc…")
    }
}

/// An app's attribute values no rule can compare: NaN (it ordered as "greater than everything", on one side only), a
/// text of a long run of combining marks (200,000 made one ask take 20 s), and a value of another type, which is
/// named in the reason now.
@Suite("Custom rules: values no rule can compare")
struct UnusableAttributeTests {
    static let text = """
        version: 1
        attributes:
          score: number
          screen: {type: string, default: home}
          level: int
        placements:
          a: {format: banner}
          b: {format: banner}
          c: {format: banner}
          d: {format: banner}
        rules:
          - {id: above, deny: [a], when: score > 5}
          - {id: below, deny: [b], when: 5 < score}
          - {id: checkout, deny: [c], when: 'screen in ["checkout", "paywall"]'}
          - {id: deep, deny: [d], when: level > 5}
        """

    func codes(_ placement: String, _ context: AskContext, _ policy: Policy) -> [ReasonCode] {
        var facts = Facts(policy: policy, installedAt: 0)
        facts.apply(.loadCompleted(PlacementID(rawValue: placement)), at: 0, policy: policy)
        return Evaluator.decide(.show(PlacementID(rawValue: placement), trigger: .action), context: context, policy: policy, facts: facts, now: 0).codes
    }

    @Test func nanIsARuleErrorOnEitherSide() throws {
        let policy = try policy(Self.text)
        for context in [AskContext(attributes: ["score": .number(.nan)]), policy.prepared(AskContext(attributes: ["score": .number(.nan)]))] {
            #expect(codes("a", context, policy) == [.ruleError])
            #expect(codes("b", context, policy) == [.ruleError])
        }
        let decision = Evaluator.decide(.show("a", trigger: .action), context: AskContext(attributes: ["score": .number(.nan)]), policy: policy, facts: Facts(policy: policy, installedAt: 0), now: 0)
        #expect(decision.reasons.contains { $0.message == "rule above cannot be evaluated: score is NaN, which no number compares with; denied to be safe" }, "\(decision.reasons.map(\.message))")
        // Infinities order as numbers do.
        #expect(codes("a", AskContext(attributes: ["score": .number(.infinity)]), policy) == [.customRule])
        #expect(codes("b", AskContext(attributes: ["score": .number(-.infinity)]), policy) == [])
    }

    @Test func aTextOfManyCombiningMarksIsARuleErrorAtOnce() throws {
        let policy = try policy(Self.text)
        let marks = "a" + String(repeating: "\u{301}\u{316}", count: 200_000)
        // Each ask took 20 s before the check. The value is found unusable once, where the context is made, so no rule
        // compares it (or normalizes it to compare) on an ask.
        #expect(AttributeValue.string(marks).unusableBecause != nil)
        for context in [AskContext(attributes: ["screen": .string(marks)]), policy.prepared(AskContext(attributes: ["screen": .string(marks)]))] {
            #expect(codes("c", context, policy) == [.ruleError], "its default is not used either: the app gave a value")
        }
        // Thirty marks in a row are text like any other.
        #expect(codes("c", AskContext(attributes: ["screen": .string("e" + String(repeating: "\u{301}", count: 30))]), policy) == [])
    }

    /// Texts Swift takes for equal are both usable or both not: runs are counted as decomposed.
    @Test func equalTextsAreJudgedAlike() throws {
        let policy = try policy(Self.text)
        let decomposed = "a" + String(repeating: "\u{301}", count: 31)
        let composed = "\u{E1}" + String(repeating: "\u{301}", count: 30)
        #expect(decomposed == composed)
        #expect(codes("c", AskContext(attributes: ["screen": .string(decomposed)]), policy) == [.ruleError])
        #expect(codes("c", AskContext(attributes: ["screen": .string(composed)]), policy) == [.ruleError])
    }

    /// Changing one attribute checks that one again and keeps what the others were found to be.
    @Test func settingAttributesKeepsTheirCheckCurrent() throws {
        let policy = try policy(Self.text)
        var context = AskContext(attributes: ["score": .number(.nan), "screen": .string("home")])
        context.attributes["level"] = .int(1)
        #expect(codes("a", context, policy) == [.ruleError])
        context.attributes["screen"] = .string("a" + String(repeating: "\u{301}", count: 40))
        #expect(codes("c", context, policy) == [.ruleError])
        context.attributes["score"] = .number(1)
        context.attributes["screen"] = nil
        #expect(codes("a", context, policy) == [])
        #expect(codes("c", context, policy) == [], "the default, home, once the app's value is gone")
    }

    @Test func aValueOfAnotherTypeIsNamed() throws {
        let policy = try policy(Self.text)
        let decision = Evaluator.decide(.show("d", trigger: .action), context: AskContext(attributes: ["level": .number(9)]), policy: policy, facts: Facts(policy: policy, installedAt: 0), now: 0)
        #expect(decision.reasons.contains { $0.message == "rule deep cannot be evaluated: level has type number, where int is declared; denied to be safe" }, "\(decision.reasons.map(\.message))")
    }
}
