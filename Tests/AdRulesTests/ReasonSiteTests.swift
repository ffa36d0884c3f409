import Foundation
@testable import AdRules
import Testing

/// Reason sites: the packed key tools count reasons by.
@Suite("Reason sites")
struct ReasonSiteTests {
    func site(_ text: ReasonSite.Text, _ setting: ReasonSite.Setting, placement: Int, group: Int = -1, rule: Int = -1, window: Int = -1) -> ReasonSite {
        var site = ReasonSite(text, at: setting, placement: placement)
        site.group = group
        site.rule = rule
        site.window = window
        return site
    }

    @Test func sitesThatDifferInAnyPartHaveDifferentKeys() throws {
        let base = site(.dailyCap, .dailyCap, placement: 3, group: 2, rule: -1, window: -1)
        let variants = [
            base,
            site(.sessionCap, .dailyCap, placement: 3, group: 2),
            site(.dailyCap, .sessionCap, placement: 3, group: 2),
            site(.dailyCap, .dailyCap, placement: 4, group: 2),
            site(.dailyCap, .dailyCap, placement: 3, group: 1),
            site(.dailyCap, .dailyCap, placement: 3, group: -1),
            site(.dailyCap, .dailyCap, placement: 3, group: 2, rule: 0),
            site(.windowCap, .window, placement: 3, group: 2, window: 0),
            site(.windowCap, .window, placement: 3, group: 2, window: 63),
            site(.customRule, .rule, placement: 0, rule: 8_190),
            // The last index of each table a policy may hold.
            site(.customRule, .rule, placement: PolicyLimits.maxPlacements - 1, rule: PolicyLimits.maxRules - 1),
            site(.groupMinInterval, .minInterval, placement: 0, group: PolicyLimits.maxGroups - 1),
            site(.windowCap, .window, placement: 3, window: PlacementSetting.maxWindowCaps - 1),
            site(.notReady, .placement, placement: (1 << 18) - 1),
        ]
        let keys = try variants.map { try #require($0.key) }
        // Every setting has its own small number.
        let ordinals = PlacementSetting.allCases.map { ReasonSite.Setting.of($0).ordinal } + [0, 1, 2, 3]
        #expect(Set(ordinals).count == ordinals.count && ordinals.allSatisfy { $0 < 32 })
        #expect(Set(keys).count == variants.count)
        // The day of a daily cap is not part of the site.
        var withDay = base
        withDay.day = 86_400_000
        #expect(withDay.key == base.key)
    }

    @Test func indicesTooLargeToPackHaveNoKey() {
        #expect(site(.notReady, .placement, placement: 1 << 18).key == nil)
        #expect(site(.customRule, .rule, placement: 0, rule: (1 << 14) - 1).key == nil)
        #expect(site(.groupMinInterval, .minInterval, placement: 0, group: 1 << 14).key == nil)
    }

    /// A load that completes after `launch.max_wait` points at the wait (the key that closed the launch phase); one
    /// that completes after the user left points at `allow_deferred`, which would allow it.
    @Test func aLateFirstLoadPointsAtWhatMadeItLate() throws {
        let policy = try Policy(yaml: """
            version: 1
            placements:
              app_open:
                format: app_open
                min_interval: 1m
                launch:
                  max_wait: 5s

            """, file: "p.yaml")
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let engine = AdEngine(policy: policy, clock: clock, deviceTimeZone: .gmt)
        engine.record(.appLaunched)
        engine.record(.loadStarted("app_open"))
        clock.advance(by: 8)
        engine.record(.loadCompleted("app_open"))
        let late = engine.ask(.show("app_open", trigger: .loadCompleted))
        #expect(late.codes == [.deferredShow])
        #expect(late.reasons.first?.location?.line == 7, "\(late)")
        #expect(late.reasons.first?.message.contains("launch.max_wait 5s") == true, "\(late)")

        engine.record(.appLaunched)
        engine.record(.loadStarted("app_open"))
        engine.record(.appBackgrounded)
        clock.advance(by: 2)
        engine.record(.loadCompleted("app_open"))
        let left = engine.ask(.show("app_open", trigger: .loadCompleted))
        #expect(left.codes == [.deferredShow])
        #expect(left.reasons.first?.location?.line == 3, "\(left)")
    }
}
