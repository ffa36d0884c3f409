import AdRules
import AdRulesCompiler
import Foundation
import Testing

/// The device's zone of a `timezone: device` policy is fixed between a launch, a return, a new day and a policy update,
/// and read again at each of them: a user who flies from New York to Tokyo counts days in Tokyo from the next return.
@Suite("The device's zone")
struct DeviceZoneTests {
    static let policyText = """
        version: 1
        timezone: device
        placements:
          inter: {format: interstitial, daily_cap: 1}
        """

    /// A zone the test changes, as the system's changes when the user travels.
    final class TravellingZone: @unchecked Sendable {
        private let lock = NSLock()
        private var zone: TimeZone
        init(_ identifier: String) { zone = TimeZone(identifier: identifier) ?? .gmt }
        func move(to identifier: String) { lock.withLock { zone = TimeZone(identifier: identifier) ?? .gmt } }
        var current: TimeZone { lock.withLock { zone } }
    }

    func at(_ text: String) -> Int64 { Timestamps.parseMilliseconds(text) ?? 0 }

    /// One show at 14:30 UTC, 09:30 in New York (its day ends at 05:00 UTC) and 23:30 in Tokyo (its day ends at 15:00
    /// UTC). The user is in New York at launch and in Tokyo at 15:05 UTC: asks count New York's day until the app comes
    /// back from the background, and Tokyo's from then on.
    @Test func theZoneIsReadAgainAtAReturnNotAtEveryAsk() throws {
        let policy = try Policy(yaml: Self.policyText)
        let zone = TravellingZone("America/New_York")
        var core = EngineCore(policy: policy, facts: Facts(policy: policy, installedAt: at("2026-11-01T00:00:00Z")), deviceZone: { zone.current })
        let inter: PlacementID = "inter"
        _ = core.record(.appLaunched, at: at("2026-11-29T14:00:00Z"))
        _ = core.record(.loadCompleted(inter), at: at("2026-11-29T14:00:01Z"))
        #expect(core.ask(.show(inter, trigger: .action), context: .standard, at: at("2026-11-29T14:30:00Z")).isAllowed)
        _ = core.record(.showStarted(inter), at: at("2026-11-29T14:30:00Z"))
        _ = core.record(.adClosed(inter), at: at("2026-11-29T14:30:30Z"))
        _ = core.record(.loadCompleted(inter), at: at("2026-11-29T14:31:00Z"))
        zone.move(to: "Asia/Tokyo")
        // Still New York's day: the zone is not read on an ask.
        let before = core.ask(.show(inter, trigger: .action), context: .standard, at: at("2026-11-29T15:10:00Z"))
        #expect(before.codes == [.dailyCap], "\(before)")
        #expect(core.deviceTimeZone.identifier == "America/New_York")
        // A return from the background reads it: in Tokyo, 15:20 UTC is past midnight, a new day.
        _ = core.record(.appBackgrounded, at: at("2026-11-29T15:15:00Z"))
        _ = core.record(.appResumed, at: at("2026-11-29T15:20:00Z"))
        #expect(core.deviceTimeZone.identifier == "Asia/Tokyo")
        let after = core.ask(.show(inter, trigger: .action), context: .standard, at: at("2026-11-29T15:21:00Z"))
        #expect(after.isAllowed, "\(after)")
    }

    /// A new day in the zone held (New York's midnight, 05:00 UTC) reads the zone again, as a launch does.
    @Test func theZoneIsReadAgainAtANewDayAndAtALaunch() throws {
        let policy = try Policy(yaml: Self.policyText)
        let zone = TravellingZone("America/New_York")
        var core = EngineCore(policy: policy, facts: Facts(policy: policy, installedAt: at("2026-11-01T00:00:00Z")), deviceZone: { zone.current })
        _ = core.record(.appLaunched, at: at("2026-11-29T14:00:00Z"))
        _ = core.ask(.show("inter", trigger: .action), context: .standard, at: at("2026-11-29T14:00:00Z"))
        zone.move(to: "Europe/Paris")
        _ = core.ask(.show("inter", trigger: .action), context: .standard, at: at("2026-11-29T20:00:00Z"))
        #expect(core.deviceTimeZone.identifier == "America/New_York")
        _ = core.ask(.show("inter", trigger: .action), context: .standard, at: at("2026-11-30T05:00:00Z"))
        #expect(core.deviceTimeZone.identifier == "Europe/Paris")
        zone.move(to: "Asia/Tokyo")
        _ = core.record(.appLaunched, at: at("2026-11-30T06:00:00Z"))
        #expect(core.deviceTimeZone.identifier == "Asia/Tokyo")
    }

    /// An engine for another user (the impact preview plays many on one) keeps the local days it has worked out, and
    /// decides as a new engine does: users in zones whose days differ, on days with and without a change of offset
    /// (New York's on 2026-11-01), each with a show a day under `daily_cap: 1` and asks around their midnights.
    @Test func anEngineForAnotherUserDecidesAsANewOne() throws {
        let policy = try Policy(yaml: Self.policyText)
        let inter: PlacementID = "inter"
        var reused = EngineCore(policy: policy, facts: Facts(policy: policy, installedAt: 0), deviceTimeZone: .gmt)
        var compared = 0
        for (user, zoneName) in ["America/New_York", "Asia/Tokyo", "America/New_York", "Europe/Berlin", "Asia/Tokyo"].enumerated() {
            let zone = try #require(TimeZone(identifier: zoneName))
            let facts = Facts(policy: policy, installedAt: at("2026-10-01T00:00:00Z"))
            reused = reused.forAnotherUser(facts: facts, deviceTimeZone: zone)
            var fresh = EngineCore(policy: policy, facts: facts, deviceTimeZone: zone)
            var time = at("2026-10-31T12:00:00Z") + Int64(user) * 60_000
            _ = reused.record(.appLaunched, at: time)
            _ = fresh.record(.appLaunched, at: time)
            while time < at("2026-11-03T12:00:00Z") {
                _ = reused.record(.loadCompleted(inter), at: time)
                _ = fresh.record(.loadCompleted(inter), at: time)
                let decision = reused.ask(.show(inter, trigger: .action), context: .standard, at: time)
                #expect(decision == fresh.ask(.show(inter, trigger: .action), context: .standard, at: time), "\(zoneName) at \(time)")
                if decision.isAllowed {
                    _ = reused.record(.showStarted(inter), at: time)
                    _ = fresh.record(.showStarted(inter), at: time)
                    _ = reused.record(.adClosed(inter), at: time + 1000)
                    _ = fresh.record(.adClosed(inter), at: time + 1000)
                }
                compared += 1
                time += 3 * 3_600_000 + 17 * 60_000
            }
        }
        #expect(compared > 50)
    }

    /// Facts whose cached day is New York's (one show at 14:30 UTC, 09:30 there), from one engine.
    func factsWithNewYorksDay(_ policy: Policy) -> Facts {
        let inter: PlacementID = "inter"
        var core = EngineCore(policy: policy, facts: Facts(policy: policy, installedAt: at("2026-11-01T00:00:00Z")), deviceTimeZone: TimeZone(identifier: "America/New_York") ?? .gmt)
        _ = core.record(.appLaunched, at: at("2026-11-29T14:00:00Z"))
        _ = core.record(.loadCompleted(inter), at: at("2026-11-29T14:00:01Z"))
        _ = core.ask(.show(inter, trigger: .action), context: .standard, at: at("2026-11-29T14:30:00Z"))
        _ = core.record(.showStarted(inter), at: at("2026-11-29T14:30:00Z"))
        _ = core.record(.adClosed(inter), at: at("2026-11-29T14:30:30Z"))
        _ = core.record(.loadCompleted(inter), at: at("2026-11-29T14:31:00Z"))
        return core.facts
    }

    /// An engine takes its facts' cached day on trust, so it drops a day worked out in another zone: facts from a device in
    /// New York given to an engine in Tokyo count Tokyo's day, where 15:10 UTC is past midnight and the show was
    /// yesterday. (The evaluator, given the same facts and zone, compares the zones itself.)
    @Test func anEngineDropsADayOfAnotherZone() throws {
        let policy = try Policy(yaml: Self.policyText)
        let facts = factsWithNewYorksDay(policy)
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let now = at("2026-11-29T15:10:00Z")
        let ask = Ask.show("inter", trigger: .action)
        #expect(!Evaluator.decide(ask, policy: policy, facts: facts, now: now, deviceTimeZone: try #require(TimeZone(identifier: "America/New_York"))).isAllowed)
        #expect(Evaluator.decide(ask, policy: policy, facts: facts, now: now, deviceTimeZone: tokyo).isAllowed)
        var core = EngineCore(policy: policy, facts: facts, deviceTimeZone: tokyo)
        let decision = core.ask(ask, context: .standard, at: now)
        #expect(decision.isAllowed, "\(decision)")
    }

    /// A policy update that moves the caps to a named zone does not keep the device zone's day: the same facts, in New
    /// York, under a policy counting in Tokyo. (The facts remapped to the new policy carry no cached day; the engine's drop
    /// when its policy is set guards the day if they ever do, and this test then checks it.)
    @Test func aPolicyUpdateDropsADayOfAnotherZone() throws {
        let policy = try Policy(yaml: Self.policyText)
        let tokyoPolicy = try Policy(yaml: Self.policyText.replacingOccurrences(of: "timezone: device", with: "timezone: Asia/Tokyo"))
        var core = EngineCore(policy: policy, facts: factsWithNewYorksDay(policy), deviceTimeZone: try #require(TimeZone(identifier: "America/New_York")))
        let ask = Ask.show("inter", trigger: .action)
        #expect(!core.ask(ask, context: .standard, at: at("2026-11-29T15:10:00Z")).isAllowed)
        core.update(policy: tokyoPolicy)
        let decision = core.ask(ask, context: .standard, at: at("2026-11-29T15:11:00Z"))
        #expect(decision.isAllowed, "\(decision)")
    }

}
