import AdRulesTestSupport
@testable import AdRules
import Testing

/// Decoding writes settings with plain field writes (``PlacementSetting/set(_:in:)``); the settings table describes
/// each setting with a key path (``PlacementSetting/access``). The two must agree for every setting and value.
@Suite("setting writes")
struct SettingWriteTests {
    static let here = SourceLocation(file: SourceFile("p.yaml"), line: 3, column: 5)
    static let values: [Located<SettingValue>?] = [
        nil,
        Located(.flag(false), at: here), Located(.count(7), at: here), Located(.duration(.hours(2)), at: here),
        Located(.format(.banner), at: here), Located(.text("unit/1"), at: here),
        Located(.windows([Located(WindowCap(max: 2, window: .hours(6)), at: here)]), at: here),
    ]

    @Test(arguments: PlacementSetting.allCases)
    func fieldWritesMatchTheKeyPathTable(_ setting: PlacementSetting) {
        for format in AdFormat.allCases {
            let start = Placement(id: "a", location: SourceLocation(file: SourceFile("q.yaml"), line: 1, column: 1), format: Located(format, at: .unknown))
            for value in Self.values {
                var written = start
                setting.set(value, in: &written)
                var throughKeyPath = start
                setting.access.set(value, in: &throughKeyPath)
                #expect(written == throughKeyPath, "\(setting) \(format) \(String(describing: value?.value))")
                // A write of the setting's own kind changes it; others leave it as it was.
                if let value, setting.access.value(in: written)?.value == value.value {
                    #expect(setting.access.value(in: written)?.location == Self.here)
                }
            }
        }
    }
}
