@testable import AdRules
import AdRulesCompiler
import Foundation
import Testing

/// An event recorded by its kind and its placement's index (what the impact preview records) does what the same event
/// recorded by id does.
@Suite("events by kind and index")
struct EventKindTests {
    static let policyText = """
        version: 1
        placements:
          inter: {format: interstitial, session_cap: 3, min_interval: 1m}
          reward: {format: rewarded, daily_cap: 4}
          open: {format: app_open}
        groups:
          fullscreen: {placements: [inter, reward], hourly_cap: 3}
        """

    /// Every kind of event, with each placement, one the policy lacks and the fullscreen sources, played at random into
    /// two engines, one by event and one by kind and index: after every event their facts are equal, and so is what
    /// each says about the ledger.
    @Test(arguments: Array(UInt64(1)...6))
    func anEventByKindAndIndexDoesWhatTheEventDoes(seed: UInt64) throws {
        let policy = try Policy(yaml: Self.policyText)
        var generator = SplitMix64(seed: seed)
        var byEvent = EngineCore(policy: policy, facts: Facts(policy: policy, installedAt: 0), deviceTimeZone: .gmt)
        var byKind = byEvent
        let ids: [PlacementID] = ["inter", "reward", "open", "gone"]
        let sources: [String?] = [nil, "", "other"]
        var now: Int64 = 1_795_000_000_000
        var kinds = Set<String>()
        for _ in 0..<600 {
            now += Int64.random(in: 0...300_000, using: &generator)
            let id = ids[Int.random(in: 0..<ids.count, using: &generator)]
            let source = sources[Int.random(in: 0..<sources.count, using: &generator)]
            let events: [AdEvent] = [
                .appLaunched, .appBackgrounded, .appResumed, .loadStarted(id), .loadCompleted(id), .loadFailed(id), .action(id),
                .userChose(id), .showStarted(id), .showFailed(id), .adClosed(id), .rewardEarned(id), .rewardGranted(id),
                .fullscreenOpened(source: source), .fullscreenClosed(source: source),
            ]
            let event = events[Int.random(in: 0..<events.count, using: &generator)]
            kinds.insert(event.name)
            let index = event.placement.flatMap { policy.storage.index(of: $0) }
            let written = byEvent.record(event, at: now)
            let writtenByKind = byKind.record(event.kind, placement: index, source: event.source, at: now)
            #expect(writtenByKind == written, "\(event)")
            #expect(byKind.facts == byEvent.facts, "\(event) at \(now)")
        }
        #expect(kinds.count == 15)
    }

    /// An index outside the policy's placements is ignored, as an unknown id is.
    @Test func anIndexOutsideThePolicyIsIgnored() throws {
        let policy = try Policy(yaml: Self.policyText)
        var core = EngineCore(policy: policy, facts: Facts(policy: policy, installedAt: 0), deviceTimeZone: .gmt)
        _ = core.record(.appLaunched, at: 1_000)
        let before = core.facts
        let past = core.record(.showStarted, placement: 3, at: 1_000)
        let negative = core.record(.showStarted, placement: -1, at: 1_000)
        #expect(!past && !negative)
        #expect(core.facts == before)
        let known = core.record(.showStarted, placement: 0, at: 1_000)
        #expect(known)
        #expect(core.facts != before)
    }
}
