@testable import AdRules
import AdRulesCompiler
import Foundation
import Testing

/// An event recorded, or an ask made, by its kind and its placement's index (as the impact preview does) does what the
/// same event or ask by id does.
@Suite("events and asks by kind and index")
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
    /// each says about the ledger. After each, an ask of every kind, by id and by kind and index, finds the same reasons.
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
        var asked = 0, denied = 0
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
            // An ask by kind and index finds what the ask by id finds.
            let kind = AskKind.allCases[Int.random(in: 0..<AskKind.allCases.count, using: &generator)]
            let trigger = kind == .show ? ShowTrigger.allCases[Int.random(in: 0..<ShowTrigger.allCases.count, using: &generator)] : nil
            let ask = Ask(kind, placement: id, trigger: trigger)
            var foundByID = Findings(), foundByIndex = Findings()
            let knownByID = byEvent.find(ask, context: .standard, at: now, into: &foundByID)
            // (A placement the policy lacks is asked by id, as the impact preview asks it: the engine brings its facts to now.)
            let knownByIndex =
                policy.storage.index(of: id.rawValue).map {
                    byKind.find(kind, placement: $0, trigger: trigger, context: .standard, at: now, into: &foundByIndex)
                } ?? byKind.find(ask, context: .standard, at: now, into: &foundByIndex)
            #expect(knownByIndex == knownByID, "\(ask)")
            if knownByID {
                asked += 1
                let reasons = (0..<foundByID.reasonCount).map { (foundByID.code(at: $0), foundByID.siteKey(at: $0)) }
                let reasonsByIndex = (0..<foundByIndex.reasonCount).map { (foundByIndex.code(at: $0), foundByIndex.siteKey(at: $0)) }
                #expect(reasons.elementsEqual(reasonsByIndex, by: ==), "\(ask) at \(now)")
                if !reasons.isEmpty { denied += 1 }
            }
        }
        #expect(kinds.count == 15)
        #expect(asked > 300 && denied > 100 && denied < asked)
    }

    /// Each event's kind, and the source of a fullscreen one, as the engine applies them: written out here, since both
    /// routes above decompose an event alike (a kind mapped wrongly passes them).
    @Test func eachEventHasItsKindAndSource() {
        let id: PlacementID = "a"
        let kinds: [(AdEvent, AdEvent.Kind)] = [
            (.appLaunched, .appLaunched), (.appBackgrounded, .appBackgrounded), (.appResumed, .appResumed),
            (.loadStarted(id), .loadStarted), (.loadCompleted(id), .loadCompleted), (.loadFailed(id), .loadFailed), (.action(id), .action),
            (.userChose(id), .userChose), (.showStarted(id), .showStarted), (.showFailed(id), .showFailed), (.adClosed(id), .adClosed),
            (.rewardEarned(id), .rewardEarned), (.rewardGranted(id), .rewardGranted),
            (.fullscreenOpened(source: "s"), .fullscreenOpened), (.fullscreenClosed(source: nil), .fullscreenClosed),
        ]
        #expect(Set(kinds.map(\.0.name)).count == AdEvent.names.count)
        for (event, kind) in kinds { #expect(event.kind == kind, "\(event.name)") }
        #expect(AdEvent.fullscreenOpened(source: "s").source == "s")
        #expect(AdEvent.fullscreenOpened(source: "").source == "")
        #expect(AdEvent.fullscreenClosed(source: nil).source == nil)
        #expect(AdEvent.showStarted(id).source == nil)
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
