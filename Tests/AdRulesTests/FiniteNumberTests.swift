import AdRules
import AdRulesYAML
import Testing

/// Numbers in rule files and scenarios are finite: NaN and infinities have no JSON form and compare with nothing.
@Suite("Finite numbers")
struct FiniteNumberTests {
    @Test(arguments: ["nan", "1e999", "-1e999", "inf"])
    func aDefaultThatIsNotFiniteIsAnError(text: String) {
        let found = lint("""
            version: 1
            attributes:
              x: {type: number, default: \(text)}
            placements:
              p:
                format: interstitial
                min_interval: 1m
            """)
        let errors = found.filter { $0.severity == .error }
        #expect(errors.count == 1)
        #expect(errors.first?.message.contains("finite number") == true)
        #expect(errors.first?.location.line == 3)
    }

    @Test func aLiteralTooLargeForADoubleIsAnError() {
        let found = lint("""
            version: 1
            attributes:
              x: {type: number, default: 1}
            placements:
              p:
                format: interstitial
                min_interval: 1m
            rules:
              - id: r
                deny: "*"
                when: x > \(String(repeating: "9", count: 400))
                message: m
            """)
        #expect(found.contains { $0.severity == .error && $0.location.line == 11 })
    }
}
