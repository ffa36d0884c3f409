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
        #expect(engine.currentFacts.showHistory(policy: engine.currentPolicy)["rew"]?.count == 1)
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
}
