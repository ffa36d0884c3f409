@testable import AdRules
import AdRulesCompiler
import Foundation
import Testing

/// The impact preview counts the caps a denied show or offer meets from its reasons, and the caps an impression fills
/// from ``Evaluator/forEachCapReached(placement:policy:facts:now:deviceTimeZone:into:_:)``: both must name the same caps.
@Suite("caps reached")
struct CapsReachedTests {
    /// Caps, caps of groups and the pacing and premium rules around them, played at random: at every step, the caps
    /// (with their groups) among a show's or an offer's reasons are those `forEachCapReached` visits, and an allowed
    /// ask meets none.
    @Test(arguments: Array(UInt64(1)...8))
    func aDenialListsEveryCapReached(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        func cap() -> String { Int.random(in: 0..<3, using: &generator) == 0 ? "" : ", daily_cap: \(Int.random(in: 0...4, using: &generator))" }
        func hourly() -> String { Bool.random(using: &generator) ? ", hourly_cap: \(Int.random(in: 1...3, using: &generator))" : "" }
        func window() -> String { Bool.random(using: &generator) ? ", caps: [{max: \(Int.random(in: 1...3, using: &generator)), window: 90m}]" : "" }
        let policy = try Policy(yaml: """
            version: 1
            timezone: Europe/Berlin
            placements:
              inter: {format: interstitial, session_cap: \(Int.random(in: 1...5, using: &generator))\(cap())\(hourly())}
              reward: {format: rewarded\(cap())\(window()), exclude_premium: true}
              banner: {format: banner\(hourly())}
            groups:
              fullscreen: {placements: [inter, reward], min_interval: 5m\(cap())\(window())}
              all: {placements: [inter, reward, banner]\(hourly())}
            """)
        var core = EngineCore(policy: policy, facts: Facts(policy: policy, installedAt: 0), deviceTimeZone: .gmt)
        let ids: [PlacementID] = ["inter", "reward", "banner"]
        var now: Int64 = 1_795_000_000_000
        _ = core.record(.appLaunched, at: now)
        var found = Findings()
        var compared = 0, capped = 0
        for _ in 0..<400 {
            now += Int64.random(in: 1_000...1_800_000, using: &generator)
            if Int.random(in: 0..<20, using: &generator) == 0 {
                _ = core.record(.appBackgrounded, at: now)
                now += 60_000
                _ = core.record(.appLaunched, at: now)
            }
            let slot = Int.random(in: 0..<ids.count, using: &generator)
            _ = core.record(.loadCompleted(ids[slot]), at: now)
            let context = AskContext(premium: Int.random(in: 0..<5, using: &generator) == 0)
            for ask in [Ask.show(ids[slot], trigger: .action), .offer(ids[slot])] {
                #expect(core.find(ask, context: context, at: now, into: &found))
                let listed = (0..<found.reasonCount).filter { Self.caps.contains(found.code(at: $0)) }
                    .map { "\(found.code(at: $0)) \(found.group(at: $0) ?? -1)" }
                var visited: [String] = []
                core.forEachCapReached(placement: slot, at: now) { code, group in visited.append("\(code) \(group ?? -1)") }
                #expect(listed.sorted() == visited.sorted(), "\(ask) at \(now): \(listed) against \(visited)")
                if found.isAllowed { #expect(visited.isEmpty) }
                compared += 1
                if !visited.isEmpty { capped += 1 }
            }
            if core.find(.show(ids[slot], trigger: .action), context: context, at: now, into: &found), found.isAllowed {
                _ = core.record(.showStarted(ids[slot]), at: now)
                _ = core.record(.adClosed(ids[slot]), at: now + 5_000)
            }
        }
        #expect(compared == 800 && capped > 50, "the caps are reached often enough to test (\(capped))")
    }

    static let caps: Set<ReasonCode> = [
        .sessionCap, .hourlyCap, .dailyCap, .windowCap, .groupSessionCap, .groupHourlyCap, .groupDailyCap, .groupWindowCap,
    ]
}
