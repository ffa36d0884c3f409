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

    /// An offset written for a zone is told how to write it: a whole hour as its `Etc/GMT` name, 0 as UTC, and an offset
    /// of part of an hour, which no `Etc/` zone has, as a region that keeps it.
    @Test(arguments: [
        ("GMT+5", "a fixed offset is written Etc/GMT-5 (the sign is reversed in these names)"),
        ("UTC-03:00", "a fixed offset is written Etc/GMT+3"),
        ("UTC+0", "the offset 0 is written UTC"), ("+00:00", "the offset 0 is written UTC"),
        ("+05:30", "write the region's own zone, such as Asia/Kolkata (UTC+05:30)"),
        ("UTC+5:45", "write the region's own zone, such as Asia/Kathmandu (UTC+05:45)"),
        ("GMT-3:30", "write the region's own zone, such as America/St_Johns (UTC-03:30)"),
    ])
    func anOffsetIsToldItsName(_ name: String, _ advice: String) {
        let load = PolicyLoader.load(texts: [("p.yaml", "version: 1\ntimezone: \"\(name)\"\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")])
        #expect(load.diagnostics.map(\.rule) == ["policy/timezone"])
        let message = load.diagnostics.first?.message ?? ""
        #expect(message.hasPrefix("unknown time zone \"\(name)\": ") && message.contains(advice), "\(message)")
        // Only an Etc/GMT name has its sign reversed.
        #expect(message.contains("sign is reversed") == advice.hasPrefix("a fixed offset"), "\(message)")
    }

    /// Abbreviations and offsets that Foundation accepts or rewrites are not IANA names.
    @Test(arguments: ["PST", "GMT+5", "UTC+1", "GMT+05:30", "Foo/Bar", "utc", "europe/berlin", "../../etc/passwd", "Europe//Berlin", "/UTC", ""])
    func anythingElseIsRefused(_ name: String) {
        #expect(TimeZoneNames.zone(named: name) == nil)
        let load = PolicyLoader.load(texts: [("p.yaml", "version: 1\ntimezone: \"\(name)\"\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")])
        #expect(load.diagnostics.map(\.rule) == ["policy/timezone"])
    }
}

/// A zone name pasted with spaces inside its quotes is told the name without them.
@Suite("Time zone names with spaces")
struct TimeZoneSpacesTests {
    @Test(arguments: [("UTC ", "UTC"), (" Europe/Berlin", "Europe/Berlin"), (" device ", "device"), ("Asia/Tokyo  ", "Asia/Tokyo")])
    func aNameWithSpacesAroundItIsToldTheName(_ written: String, _ meant: String) throws {
        let load = PolicyLoader.load(texts: [("p.yaml", "version: 1\ntimezone: \"\(written)\"\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")])
        let finding = try #require(load.diagnostics.first)
        #expect(load.diagnostics.map(\.rule) == ["policy/timezone"])
        #expect(finding.message.hasSuffix(": a zone name has no spaces around it: write \"\(meant)\""), "\(finding.message)")
    }

    /// Spaces around a name that is no zone either leave the usual advice.
    @Test func aWrongNameWithSpacesGetsTheUsualAdvice() throws {
        let load = PolicyLoader.load(texts: [("p.yaml", "version: 1\ntimezone: \" Europe/Berln \"\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")])
        let finding = try #require(load.diagnostics.first)
        #expect(!finding.message.contains("no spaces around it"), "\(finding.message)")
    }
}

/// The zone an unknown name suggests: the city's own zone when the region is wrong, never a nearer spelling hours away.
@Suite("Time zone suggestions")
struct TimeZoneSuggestionTests {
    /// A city under another region, run together, or misspelt under another region gets its own zone; a misspelt city
    /// under its region gets the closest name; a short city with no close zone gets no guess (`Europe/Nice` is not
    /// Pacific/Niue, 12 hours away).
    @Test(arguments: [
        ("Europe/Tokyo", "Asia/Tokyo"), ("America/London", "Europe/London"), ("Asia/Paris", "Europe/Paris"),
        ("US/NewYork", "America/New_York"), ("Europe/Tokio", "Asia/Tokyo"), ("Asia/Tokio", "Asia/Tokyo"),
        ("Europe/Berln", "Europe/Berlin"), ("America/Sao_Paolo", "America/Sao_Paulo"), ("Europe/Nice", nil),
    ] as [(String, String?)])
    func aZoneNameIsSuggestedByItsCity(_ name: String, _ meant: String?) throws {
        let load = PolicyLoader.load(texts: [("p.yaml", "version: 1\ntimezone: \(name)\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")])
        let message = try #require(load.diagnostics.first { $0.rule == "policy/timezone" }).message
        if let meant {
            #expect(message == "unknown time zone \"\(name)\": did you mean \"\(meant)\"?")
        } else {
            #expect(message == "unknown time zone \"\(name)\": write an IANA name such as Asia/Tokyo or Europe/Berlin, or device")
        }
    }
}
