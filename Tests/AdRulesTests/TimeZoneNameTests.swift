import AdRules
import AdRulesCompiler
import Foundation
import Testing

/// Which `timezone:` names a policy, a scenario's `device_timezone` and a usage model accept.
@Suite("Time zone names")
struct TimeZoneNameTests {
    /// IANA names that Foundation's list of known identifiers leaves out (it holds canonical names only).
    @Test(arguments: ["Asia/Kolkata", "Asia/Calcutta", "Etc/UTC", "Etc/GMT+5", "US/Eastern", "Asia/Saigon", "America/Buenos_Aires",
                      "America/Argentina/Buenos_Aires", "America/Port-au-Prince", "EST", "UTC", "Japan", "Europe/Berlin"])
    func anIANANameIsAccepted(_ name: String) throws {
        let zone = try #require(TimeZoneNames.zone(named: name))
        if name.contains("/") { #expect(zone.identifier == name) }
        let load = PolicyLoader.load(texts: [("p.yaml", "version: 1\ntimezone: \(name)\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")])
        #expect(load.diagnostics.isEmpty, "\(load.diagnostics)")
    }

    /// Abbreviations and offsets that Foundation accepts or rewrites are not IANA names.
    @Test(arguments: ["PST", "GMT+5", "UTC+1", "GMT+05:30", "Foo/Bar", "utc", "europe/berlin", "../../etc/passwd", "Europe//Berlin", "/UTC", ""])
    func anythingElseIsRefused(_ name: String) {
        #expect(TimeZoneNames.zone(named: name) == nil)
        let load = PolicyLoader.load(texts: [("p.yaml", "version: 1\ntimezone: \"\(name)\"\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")])
        #expect(load.diagnostics.map(\.rule) == ["policy/timezone"])
    }
}
