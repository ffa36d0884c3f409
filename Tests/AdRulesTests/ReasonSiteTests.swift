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
            site(.notReady, .placement, placement: (1 << 18) - 1),
        ]
        let keys = try variants.map { try #require($0.key) }
        // Every setting has its own small number.
        let ordinals = PlacementSetting.allCases.map { ReasonSite.Setting.of($0).ordinal } + [0, 1, 2, 3]
        #expect(Set(ordinals).count == ordinals.count && ordinals.allSatisfy { $0 < 64 })
        #expect(Set(keys).count == variants.count)
        // The day of a daily cap is not part of the site.
        var withDay = base
        withDay.day = 86_400_000
        #expect(withDay.key == base.key)
    }

    @Test func indicesTooLargeToPackHaveNoKey() {
        #expect(site(.notReady, .placement, placement: 1 << 18).key == nil)
        #expect(site(.customRule, .rule, placement: 0, rule: 1 << 13).key == nil)
        #expect(site(.groupMinInterval, .minInterval, placement: 0, group: 1 << 14).key == nil)
    }
}
