import AdRulesCompiler
import AdRules
import Foundation
import Testing

/// The engine under real threads: each caller is a `Thread` of its own, released together, so calls truly overlap
/// (a task group would share the 2-thread cooperative pool). Run under ThreadSanitizer by `.ci/run`:
/// `swift test --sanitize=thread --filter EngineThreadTests`.
@Suite("AdEngine under real threads")
struct EngineThreadTests {
    static let policyText = """
        version: 1
        timezone: UTC
        placements:
          inter: {format: interstitial, min_interval: 1m, daily_cap: 3, max_ad_age: 1h}
          hint: {format: rewarded}
        """
    /// The same placements in another order, so that `update(policy:)` remaps every index.
    static let reorderedText = """
        version: 1
        timezone: UTC
        placements:
          hint: {format: rewarded}
          spare: {format: banner}
          inter: {format: interstitial, min_interval: 1m, daily_cap: 3, max_ad_age: 1h}
        """

    @Test func beginShowAllowsExactlyOneCallerPerCachedAdWhilePoliciesSwap() throws {
        let policies = [try policy(Self.policyText), try policy(Self.reorderedText)]
        let clock = ManualClock(engineTestStart)
        let store = InMemoryLedgerStore()
        let engine = AdEngine(policy: policies[0], clock: clock, store: store, deviceTimeZone: TimeZone(identifier: "UTC") ?? .current)
        engine.record(.appLaunched)
        var allowed = 0
        for round in 0..<5 {
            clock.advance(by: 120)
            engine.record(.adClosed("inter"))
            engine.record(.loadCompleted("inter"))
            let shows = Tally()
            onThreads(32) { i in
                switch i % 4 {
                case 0: for k in 0..<20 { engine.update(policy: policies[k % 2]) }
                case 1:
                    _ = engine.ask(.show("inter", trigger: .action))
                    engine.record(.action("hint"))
                    engine.record(.loadStarted("hint"))
                default: if engine.beginShow("inter", trigger: .action).isAllowed { shows.add() }
                }
            }
            #expect(shows.count == (round < 3 ? 1 : 0), "round \(round)")
            allowed += shows.count
        }
        #expect(allowed == 3, "daily_cap 3")
        let stored = try #require(try store.load())
        #expect(stored.shows["inter"]?.count == 3, "the last snapshot written is the newest")
        #expect(engine.currentFacts.showHistory(policy: engine.currentPolicy)["inter"]?.count == 3)
    }

    /// `beginLoad` asks and records `load_started` under one lock: of many callers at once, one starts the load, and the
    /// next load is allowed only once it ends.
    @Test func beginLoadStartsOneLoadWhilePoliciesSwap() throws {
        let policies = [try policy(Self.policyText), try policy(Self.reorderedText)]
        let engine = AdEngine(policy: policies[0], clock: ManualClock(engineTestStart), store: InMemoryLedgerStore())
        engine.record(.appLaunched)
        for round in 0..<5 {
            #expect(allowedWhilePoliciesSwap(engine, policies) { engine.beginLoad("hint") } == 1, "round \(round)")
            #expect(engine.ask(.load("hint")).codes == [.alreadyLoading], "round \(round)")
            engine.record(.loadFailed("hint"))
        }
        // Denied, nothing is recorded: a premium user's load never starts, and the next caller's may.
        engine.context = AskContext(premium: true)
        #expect(engine.beginLoad("hint").codes == [.premiumUser])
        #expect(engine.beginLoad("hint", context: .standard).isAllowed)
    }

    /// How many of 20 callers at once `call` allows, while 4 more threads swap the two policies back and forth.
    func allowedWhilePoliciesSwap(_ engine: AdEngine, _ policies: [Policy], _ call: @escaping @Sendable () -> Decision) -> Int {
        let allowed = Tally()
        onThreads(24) { i in
            if i % 6 == 0 {
                for k in 0..<10 { engine.update(policy: policies[k % 2]) }
            } else if call().isAllowed {
                allowed.add()
            }
        }
        return allowed.count
    }

    @Test func claimRewardGrantsOnceWhilePoliciesSwap() throws {
        let policies = [try policy(Self.policyText), try policy(Self.reorderedText)]
        let engine = AdEngine(policy: policies[0], clock: ManualClock(engineTestStart), store: InMemoryLedgerStore())
        engine.record(.appLaunched)
        for round in 0..<5 {
            engine.record(.adClosed("hint"))
            engine.record(.loadCompleted("hint"))
            engine.record(.userChose("hint"))
            #expect(engine.beginShow("hint", trigger: .action).isAllowed)
            let early = Tally()
            onThreads(8) { _ in if engine.claimReward("hint").isAllowed { early.add() } }
            #expect(early.count == 0, "no reward before reward_earned, round \(round)")
            engine.record(.rewardEarned("hint"))
            #expect(allowedWhilePoliciesSwap(engine, policies) { engine.claimReward("hint") } == 1, "round \(round)")
        }
    }

    @Test func mixedCallsNeverBreakPacingOrCaps() throws {
        let policies = [try policy(Self.policyText), try policy(Self.reorderedText)]
        let clock = ManualClock(engineTestStart)
        let store = InMemoryLedgerStore()
        let engine = AdEngine(policy: policies[0], clock: clock, store: store)
        engine.record(.appLaunched)
        let shows = Tally()
        let rewards = Tally()
        let rewardedShows = Tally()
        let changedDecisions = Tally()
        onThreads(16) { thread in
            var generator = SplitMix64(seed: UInt64(thread))
            for _ in 0..<300 {
                switch generator.next() % 10 {
                case 0: clock.advance(by: 7)  // at most 16 * 300 * 7 s = 9.3 h: one calendar day
                case 1: engine.record(.loadCompleted("inter"))
                case 2: if engine.beginShow("inter", trigger: .action).isAllowed { shows.add() }
                case 3: engine.record(.adClosed("inter"))
                case 4: engine.update(policy: policies[Int(generator.next() % 2)])
                case 5:
                    engine.record(.loadCompleted("hint"))
                    engine.record(.userChose("hint"))
                case 6: if engine.beginShow("hint", trigger: .action).isAllowed { rewardedShows.add() }
                case 7:
                    // The rewarded ad closes too: an ad left on screen would block the other placement
                    // (fullscreen_active) for fullscreen_timeout and starve the race of interstitial shows.
                    engine.record(.rewardEarned("hint"))
                    engine.record(.adClosed("hint"))
                case 8: if engine.claimReward("hint").isAllowed { rewards.add() }
                default:
                    // A decision is read after later asks (on any thread) reused the engine's storage for reasons.
                    let decision = engine.ask(.show("inter", trigger: .action))
                    let codes = decision.codes
                    _ = engine.ask(.show("hint", trigger: .resume))
                    if decision.codes != codes || decision.reasons.map(\.code) != codes { changedDecisions.add() }
                }
            }
        }
        #expect(changedDecisions.count == 0, "a decision keeps its reasons after later asks")
        let history = engine.currentFacts.showHistory(policy: engine.currentPolicy)
        let times = history["inter"]?.map(\.at) ?? []
        #expect(shows.count + rewardedShows.count >= 1, "the race reached shows")
        #expect(shows.count == times.count, "every allowed show is recorded, and only those")
        #expect(shows.count <= 3, "daily_cap 3")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 60_000 }, "min_interval 1m between shows: \(times)")
        #expect(rewards.count <= rewardedShows.count, "at most one reward per show")
        #expect(history["hint"]?.count == rewardedShows.count)
        #expect(try store.load()?.shows == history, "the ledger holds the newest facts")
    }
}

/// Runs `body(i)` for each i in 0..<count on a `Thread` of its own; all start together, and this returns when all have finished.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let ready = DispatchGroup()
    let done = DispatchGroup()
    let go = DispatchSemaphore(value: 0)
    for i in 0..<count {
        ready.enter()
        done.enter()
        Thread {
            ready.leave()
            go.wait()
            body(i)
            done.leave()
        }.start()
    }
    ready.wait()
    for _ in 0..<count { go.signal() }
    done.wait()
}

/// A counter threads can add to.
final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}
