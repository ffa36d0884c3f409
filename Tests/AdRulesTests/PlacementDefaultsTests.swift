import AdRulesTestSupport
@testable import AdRules
import Testing

/// A new placement writes each field once (``Placement/init(id:location:format:)``); the settings table says what
/// each setting's built-in default is (``PlacementSetting/builtInDefault(for:)``). The two must agree.
@Suite("placement defaults")
struct PlacementDefaultsTests {
    @Test(arguments: AdFormat.allCases)
    func aNewPlacementHoldsTheTablesDefaults(_ format: AdFormat) {
        let here = SourceLocation(file: SourceFile("p.yaml"), line: 4, column: 3)
        let placement = Placement(id: "p", location: here, format: Located(format, at: here))
        for setting in PlacementSetting.allCases where setting != .format {
            let held = setting.access.value(in: placement)
            #expect(held?.value == setting.builtInDefault(for: format), "\(setting) of \(format)")
            // A default sits at the placement that takes it (an empty list of windows has no place of its own).
            if let held, setting.kind != .windows { #expect(held.location == here, "\(setting) of \(format)") }
        }
        #expect(placement.format == Located(format, at: here))
    }
}
