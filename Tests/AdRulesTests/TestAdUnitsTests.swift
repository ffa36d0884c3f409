@testable import AdRulesCompiler
import Testing

/// The networks' test ad units, as `ids/test-ad-unit` finds them on a unit's bytes.
@Suite("Test ad units")
struct TestAdUnitsTests {
    /// Every known prefix is found, in its own case, in lower and in upper case, and with text after it; the prefix cut
    /// short, with its last character changed, or with a byte before it is no test unit.
    @Test func everyPrefixIsFoundInAnyCaseAndNothingNear() {
        for (prefix, network) in TestAdUnits.prefixes {
            for unit in [prefix, prefix + "1234", prefix.lowercased() + "x", prefix.uppercased() + "/X"] {
                #expect(TestAdUnits.network(of: unit) == network, "\(unit)")
            }
            let last = prefix.last == "#" ? "$" : "9"
            for unit in [String(prefix.dropLast()), String(prefix.dropLast()) + last + "1", "x" + prefix, ""] {
                #expect(TestAdUnits.network(of: unit) == nil, "\(unit)")
            }
        }
        #expect(TestAdUnits.network(of: "ca-app-pub-7412390517230961/1000000000") == nil)
        #expect(TestAdUnits.network(of: "cä-app-pub-3940256099942544/1") == nil)
    }

    /// A unit of plain ASCII is read as it is; spaces, invisible characters and quotes are taken out of any other.
    @Test func aUnitIsReadWithoutWhatAPasteBrings() {
        #expect(TestAdUnits.asTheNetworkReadsIt("ca-app-pub-1/2") == "ca-app-pub-1/2")
        #expect(TestAdUnits.asTheNetworkReadsIt(" \"ca-app\u{200B}-pub-1/2\u{00AD}' ") == "ca-app-pub-1/2")
        #expect(TestAdUnits.asTheNetworkReadsIt("\u{2018}ünit\t\u{2019}") == "ünit")
        #expect(TestAdUnits.asTheNetworkReadsIt("   ").isEmpty)
    }
}
