import AdRulesTestSupport
import Foundation
import Testing

@testable import AdRulesCLI

/// What `adrules lint` must find (or must not) as cli.md's "Lint rules" table and docs/lint-rules.md say: each test is a
/// rule file in, `line:column severity rule` for each finding out. Each kills a mutant of the semantic lint rules or of
/// the suppression comments that the suite let live.
@Suite("lint rules: what mutation testing found unchecked")
struct LintMutationGapTests {
    /// The findings of `adrules lint` on one rule file holding `text`, as `line:column severity rule`, in output order
    /// (notes left out), and the whole output.
    func lint(_ text: String) throws -> (findings: [String], output: String) {
        let dir = try temporaryDirectory("adrules-lint-gap", ["p.yaml": text])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["lint", "--format", "xcode", "--quiet", "--color", "never", dir])
        var findings: [String] = []
        for line in result.stdout.split(separator: "\n") {
            guard let match = line.firstMatch(of: /p\.yaml:(\d+):(\d+): (error|warning): .* \(([a-z-]+\/[a-z-]+)\)$/) else { continue }
            findings.append("\(match.1):\(match.2) \(match.3) \(match.4)")
        }
        return (findings, result.stdout)
    }

    /// cli.md: `cap/unreachable` for `session_cap >= daily_cap`. At equality the session cap never binds alone (the
    /// daily cap denies at the same show), so `session_cap: 5` beside `daily_cap: 5` is a finding, as `hourly_cap: 6`
    /// with `daily_cap: 6` is.
    @Test func aSessionCapEqualToTheDailyCapCanNeverBind() throws {
        let (findings, output) = try lint("""
            version: 1
            placements:
              a:
                format: interstitial
                min_interval: 1m
                daily_cap: 5
                session_cap: 5

            """)
        #expect(findings == ["7:18 warning cap/unreachable"], "\(output)")
        #expect(output.contains("session_cap 5 can never bind"), "\(output)")
    }

    /// docs/lint-rules.md: `# adrules:disable-next-line RULE` suppresses that rule on the next line; a finding of another
    /// rule on the same line stays. (A comment naming `cap/zero` does not hide `expiry/too-long` or `pacing/missing`.)
    @Test func aCommentNamingOneRuleHidesOnlyThatRule() throws {
        let (findings, output) = try lint("""
            version: 1
            placements:
              # adrules:disable-next-line cap/zero
              a: {format: interstitial, daily_cap: 0, max_ad_age: 2h}
              # adrules:disable-next-line expiry/too-long
              b: {format: app_open, max_ad_age: 5h}

            """)
        #expect(findings == ["4:55 warning expiry/too-long", "6:3 warning pacing/missing"], "\(output)")
    }

    /// docs/lint-rules.md: the errors that judge a value kept as written can be suppressed, `policy/format-key` among
    /// them: a named comment hides `launch:` on an interstitial, with no "cannot hide" note.
    @Test func aFormatKeyErrorCanBeSuppressed() throws {
        let (findings, output) = try lint("""
            version: 1
            placements:
              a:
                format: interstitial
                min_interval: 1m
                # adrules:disable-next-line policy/format-key
                launch: {max_wait: 5s}

            """)
        #expect(findings == [], "\(output)")
        #expect(!output.contains("cannot hide"), "\(output)")
    }

    /// cli.md: `policy/format-key` for `launch`/`resume` on a placement that is not app_open: `resume:` as well as
    /// `launch:` (a rewarded placement's `resume:` block is as much a mistake as an interstitial's `launch:`).
    @Test func aResumeBlockOnAnotherFormatIsAFormatKeyError() throws {
        let (findings, output) = try lint("""
            version: 1
            placements:
              a:
                format: rewarded
                resume: {allow_deferred: false}
              b:
                format: interstitial
                min_interval: 1m
                resume: {show_if_ready: true}

            """)
        #expect(findings == ["5:5 error policy/format-key", "9:5 error policy/format-key"], "\(output)")
    }

    /// cli.md: `expiry/too-long` for `max_ad_age` above 4h for app_open and above 1h for other formats: at the limit
    /// nothing, a second past it a warning, for each kind of limit (each threshold was pinned by one broad test only).
    @Test func expiryTooLongStartsJustAboveEachFormatsLimit() throws {
        let (findings, output) = try lint("""
            version: 1
            placements:
              a: {format: app_open, min_interval: 1m, max_ad_age: 4h}
              b: {format: app_open, min_interval: 1m, max_ad_age: 4h1s}
              c: {format: interstitial, min_interval: 1m, max_ad_age: 1h}
              d: {format: interstitial, min_interval: 1m, max_ad_age: 1h1s}
              e: {format: rewarded, max_ad_age: 1h1s}

            """)
        #expect(findings == ["4:55 warning expiry/too-long", "6:59 warning expiry/too-long", "7:37 warning expiry/too-long"], "\(output)")
    }

    /// cli.md: `ids/test-ad-unit` in a `production` policy only (rules.md: test policies may use test ids), and
    /// `ids/duplicate-ad-unit` for one `ad_unit` used by two placements, but not for a network's test id, which every
    /// app shares by design, nor for an empty one, which names none.
    @Test func adUnitRulesKeepToTheirCases() throws {
        let units = """
              a: {format: banner, ad_unit: "ca-app-pub-3940256099942544/6300978111"}
              b: {format: banner, ad_unit: "ca-app-pub-3940256099942544/6300978111"}
              c: {format: banner, ad_unit: ""}
              d: {format: banner, ad_unit: ""}
              e: {format: banner, ad_unit: "ca-app-pub-1111111111111111/2222222222"}
              f: {format: banner, ad_unit: "ca-app-pub-1111111111111111/2222222222"}

            """
        let (test, testOutput) = try lint("version: 1\nenvironment: test\nplacements:\n" + units)
        #expect(test == ["9:32 warning ids/duplicate-ad-unit"], "\(testOutput)")
        let (production, productionOutput) = try lint("version: 1\nplacements:\n" + units)
        #expect(production == ["3:32 error ids/test-ad-unit", "4:32 error ids/test-ad-unit", "8:32 warning ids/duplicate-ad-unit"], "\(productionOutput)")
    }

    /// One ad unit pasted with a trailing space or an invisible character (U+200B, U+00AD) is still the unit of the
    /// placement before it, and AdMob's test id typed in capitals is still a test id: both passed.
    @Test func adUnitsAreComparedAsTheNetworkReadsThem() throws {
        let units = """
              a: {format: banner, ad_unit: "ca-app-pub-1111111111111111/2222222222"}
              b: {format: banner, ad_unit: "ca-app-pub-1111111111111111/2222222222 "}
              c: {format: banner, ad_unit: "ca-app-pub-1111111111111111\\u200B/2222222222"}
              d: {format: banner, ad_unit: "ca-app-pub-11111111111\\u00AD11111/2222222222"}
              e: {format: banner, ad_unit: "ca-app-pub-1111111111111111/2222222223"}
              f: {format: banner, ad_unit: "CA-APP-PUB-3940256099942544/6300978111"}

            """
        let (found, output) = try lint("version: 1\nplacements:\n" + units)
        #expect(found == ["4:32 warning ids/duplicate-ad-unit", "5:32 warning ids/duplicate-ad-unit", "6:32 warning ids/duplicate-ad-unit", "8:32 error ids/test-ad-unit"], "\(output)")
        // Both rules read a unit alike: an invisible character inside a test id's prefix (only one before it was seen)
        // is the test id, and units of spaces alone name none, as empty ones do (they were one unit of two placements).
        let (more, moreOutput) = try lint("""
            version: 1
            placements:
              a: {format: banner, ad_unit: "ca-app-pub-39402\\u200B56099942544/6300978111"}
              b: {format: banner, ad_unit: "  "}
              c: {format: banner, ad_unit: "  "}

            """)
        #expect(more == ["3:32 error ids/test-ad-unit"], "\(moreOutput)")
    }
}
