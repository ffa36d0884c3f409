import AdRulesTestSupport
import AdRules
import AdRulesCompiler
import AdRulesYAML
import Testing

/// One test per diagnostic rule: a YAML text in, the exact rule id and position out.
@Suite("Diagnostics by rule")
struct DiagnosticRuleTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let rule: String
        let yaml: String
        var testDescription: String { rule }
    }

    static let header = "version: 1\nplacements:\n"

    static let cases: [Case] = [
        Case(rule: "yaml/syntax", yaml: header + "  a:\n    format: [interstitial\n1️⃣"),
        Case(rule: "yaml/duplicate-key", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    1️⃣min_interval: 2m\n"),
        Case(rule: "yaml/multiple-documents", yaml: header + "  a: {format: interstitial, min_interval: 1m}\n1️⃣---\nversion: 1\n"),
        Case(rule: "yaml/alias", yaml: header + "  a: {format: interstitial, min_interval: 1m}\nrules:\n  - id: r\n    deny: 1️⃣*a\n    when: premium\n"),
        Case(rule: "yaml/tag", yaml: header + "  a: {format: interstitial, min_interval: 1️⃣!!str 1m}\n"),
        Case(rule: "yaml/ambiguous-bool", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    enabled: 1️⃣yes\n"),
        Case(rule: "schema/unknown-key", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    1️⃣dialy_cap: 3\n"),
        Case(rule: "schema/missing-key", yaml: header + "  1️⃣a:\n    min_interval: 1m\n"),
        Case(rule: "schema/type", yaml: header + "  a:\n    format: interstitial\n    daily_cap: 1️⃣six\n"),
        Case(rule: "schema/duration", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1️⃣30\n"),
        Case(rule: "schema/enum", yaml: header + "  a:\n    format: 1️⃣interstital\n    min_interval: 1m\n"),
        Case(rule: "schema/range", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    every_n_actions: 1️⃣0\n"),
        Case(rule: "schema/version", yaml: "version: 1️⃣2\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n"),
        Case(rule: "policy/unknown-placement", yaml: header + "  a: {format: interstitial, min_interval: 1m}\ngroups:\n  g:\n    placements: [a, 1️⃣b]\n"),
        // A typo next to "*" denies nothing more, but it is still a typo.
        Case(rule: "policy/unknown-placement", yaml: header + "  a: {format: interstitial, min_interval: 1m}\nrules:\n  - id: r\n    deny: [1️⃣levelend, \"*\"]\n    when: premium\n"),
        Case(rule: "policy/repeated-placement", yaml: header + "  a: {format: banner}\n  b: {format: banner}\ngroups:\n  g: {placements: [a, b, 1️⃣a]}\n"),
        Case(rule: "policy/repeated-placement", yaml: header + "  a: {format: banner}\nrules:\n  - id: r\n    deny: [a, 1️⃣a]\n    when: premium\n"),
        Case(rule: "policy/timezone", yaml: "version: 1\ntimezone: 1️⃣Asia/Tokio\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n"),
        Case(rule: "policy/format-key", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    1️⃣launch: {max_wait: 5s}\n"),
        Case(rule: "policy/empty", yaml: "1️⃣version: 1\n"),
        // A comment naming no rule hides nothing, and says so.
        Case(rule: "lint/unknown-rule", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    1️⃣# adrules:disable-next-line cap/zeroo\n    daily_cap: 0\n"),
        Case(rule: "rule/syntax", yaml: header + "  a: {format: interstitial, min_interval: 1m}\nrules:\n  - id: r\n    deny: [a]\n    when: premium 1️⃣= true\n"),
        Case(rule: "rule/unknown-name", yaml: header + "  a: {format: interstitial, min_interval: 1m}\nrules:\n  - id: r\n    deny: [a]\n    when: 1️⃣premum\n"),
        Case(rule: "rule/type", yaml: header + "  a: {format: interstitial, min_interval: 1m}\nrules:\n  - id: r\n    deny: [a]\n    when: \"session.count 1️⃣== 'x'\"\n"),
        // "at the exact column" however the expression is written: escapes, folded and literal blocks, plain lines.
        Case(rule: "rule/syntax", yaml: header + "  a: {format: interstitial, min_interval: 1m}\nrules:\n  - id: r\n    deny: [a]\n    when: \"premium == \\\"x\\\" and 1️⃣and\"\n"),
        Case(rule: "rule/syntax", yaml: header + "  a: {format: interstitial, min_interval: 1m}\nrules:\n  - id: r\n    deny: [a]\n    when: 'premium == ''x'' and 1️⃣and'\n"),
        Case(rule: "rule/syntax", yaml: header + "  a: {format: interstitial, min_interval: 1m}\nrules:\n  - id: r\n    deny: [a]\n    when: >-\n      premium and\n      premium 1️⃣= true\n"),
        Case(rule: "rule/unknown-name", yaml: header + "  a: {format: interstitial, min_interval: 1m}\nrules:\n  - id: r\n    deny: [a]\n    when: |\n      premium or\n      1️⃣premum\n"),
        Case(rule: "rule/type", yaml: header + "  a: {format: interstitial, min_interval: 1m}\nrules:\n  - id: r\n    deny: [a]\n    when: premium and\n      session.count 1️⃣== true\n"),
        Case(rule: "rule/unknown-name", yaml: header + "  a: {format: interstitial, min_interval: 1m}\nrules:\n  - id: r\n    deny: [a]\n    when: >- # premum is not a name\n      1️⃣premum\n"),
        Case(rule: "rule/unknown-name", yaml: header + "  a: {format: interstitial, min_interval: 1m}\nrules:\n  - id: r\n    deny: [a]\n    when: \"\\tpremium and\\t1️⃣premum\"\n"),
        Case(rule: "rule/unknown-name", yaml: header + "  a: {format: interstitial, min_interval: 1m}\nrules:\n  - id: r\n    deny: [a]\n    when: \"premium or\\n\n      1️⃣premum\"\n"),
        // Days are names: ordering them is alphabetical. A value a built-in never takes never matches.
        Case(rule: "rule/built-in-value", yaml: header + "  a: {format: interstitial, min_interval: 1m}\nrules:\n  - id: r\n    deny: [a]\n    when: now.weekday 1️⃣< \"tue\"\n"),
        Case(rule: "rule/built-in-value", yaml: header + "  a: {format: interstitial, min_interval: 1m}\nrules:\n  - id: r\n    deny: [a]\n    when: now.hour == 22 or now.hour == 1️⃣24\n"),
        Case(rule: "cap/zero", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    daily_cap: 1️⃣0\n"),
        Case(rule: "cap/unreachable", yaml: header + "  a:\n    format: interstitial\n    daily_cap: 5\n    hourly_cap: 1️⃣5\n"),
        Case(rule: "cap/unreachable", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    caps:\n      - {max: 3, window: 2h}\n      - {max: 1️⃣4, window: 1h}\n"),
        // Equally long windows, the looser written first.
        Case(rule: "cap/unreachable", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    caps:\n      - {max: 1️⃣5, window: 1h}\n      - {max: 3, window: 1h}\n"),
        // daily_cap counts as a window of a day, in both directions; a window of 0s holds no show.
        Case(rule: "cap/unreachable", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    daily_cap: 5\n    caps: [{max: 1️⃣6, window: 1h}]\n"),
        Case(rule: "cap/unreachable", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    daily_cap: 1️⃣5\n    caps: [{max: 3, window: 2d}]\n"),
        Case(rule: "cap/unreachable", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    caps: [{max: 1️⃣3, window: 0s}]\n"),
        // A stricter cap of 0 counts as cli.md's formulas read (cap/zero also says it allows no show), on a group too.
        Case(rule: "cap/unreachable", yaml: header + "  a:\n    format: interstitial\n    daily_cap: 0\n    hourly_cap: 1️⃣3\n"),
        Case(rule: "cap/unreachable", yaml: header + "  a:\n    format: interstitial\n    enabled: false\n    daily_cap: 0\n    session_cap: 1️⃣2\n"),
        Case(rule: "cap/unreachable", yaml: header + "  a:\n    format: interstitial\n    caps: [{max: 1️⃣2, window: 1h}, {max: 0, window: 2h}]\n"),
        Case(rule: "cap/unreachable", yaml: header + "  a: {format: banner}\ngroups:\n  g:\n    placements: [a]\n    daily_cap: 0\n    hourly_cap: 1️⃣4\n"),
        Case(rule: "pacing/missing", yaml: header + "  1️⃣a:\n    format: app_open\n"),
        Case(rule: "rewarded/no-user-choice", yaml: header + "  a:\n    format: rewarded\n    require_user_choice: 1️⃣false\n"),
        Case(rule: "app-open/deferred-show", yaml: header + "  a:\n    format: app_open\n    min_interval: 4m\n    resume:\n      allow_deferred: 1️⃣true\n"),
        Case(rule: "expiry/too-long", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    max_ad_age: 1️⃣2h\n"),
        Case(rule: "ids/test-ad-unit", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    ad_unit: 1️⃣ca-app-pub-3940256099942544/4411468910\n"),
        // Pasted with a space or an invisible character before it, it is the test unit all the same.
        Case(rule: "ids/test-ad-unit", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    ad_unit: 1️⃣\" ca-app-pub-3940256099942544/4411468910\"\n"),
        Case(rule: "ids/test-ad-unit", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    ad_unit: 1️⃣\"\u{200B}\u{00A0}/6499/example/interstitial\"\n"),
        // Pasted with typographic quotes, which YAML keeps in the value.
        Case(rule: "ids/test-ad-unit", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    ad_unit: 1️⃣\u{2018}ca-app-pub-3940256099942544/4411468910\u{2019}\n"),
        Case(rule: "ids/test-ad-unit", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    ad_unit: 1️⃣'\"ca-app-pub-3940256099942544/4411468910\"'\n"),
        Case(rule: "ids/duplicate-ad-unit", yaml: header + "  a: {format: banner, ad_unit: u1}\n  b: {format: banner, ad_unit: 1️⃣u1}\n"),
    ]

    @Test(arguments: cases)
    func ruleFiresAtItsPosition(_ c: Case) throws {
        let input = MarkedText(c.yaml)
        let diagnostics = lint(input.text)
        let expected = try #require(input["1️⃣"])
        let matching = diagnostics.filter { $0.rule == c.rule }
        #expect(matching.count >= 1, "no \(c.rule) in \(diagnostics.map { "\($0.rule)@\($0.range.start)" })")
        #expect(matching.contains { $0.range.start == expected }, "\(c.rule) at \(matching.map(\.range.start)), expected \(expected)")
        #expect(matching.allSatisfy { !$0.message.isEmpty })
        // Each reports with its documented severity (yaml/ambiguous-bool, E/W, has its own tests).
        if c.rule != "yaml/ambiguous-bool" {
            #expect(matching.allSatisfy { $0.severity == LintRule.named(c.rule)?.severity }, "\(matching)")
        }
    }

    static let quiet: [Case] = [
        Case(rule: "cap/zero", yaml: header + "  a: {format: interstitial, min_interval: 1m, daily_cap: 1}\n  b: {format: banner, enabled: false}\n"),
        Case(rule: "cap/unreachable", yaml: header + "  a: {format: interstitial, daily_cap: 6, hourly_cap: 5, session_cap: 5, min_interval: 4m, caps: [{max: 2, window: 10m}, {max: 6, window: 1h30m}]}\n"),
        // cli.md: "a window cap larger than a longer window's cap"; an equal one is not.
        Case(rule: "cap/unreachable", yaml: header + "  a: {format: interstitial, min_interval: 1m, hourly_cap: 5, caps: [{max: 5, window: 1h}, {max: 5, window: 2h}]}\n"),
        // A window cap equal to daily_cap (the window rule says "larger"), a weekly cap above the daily one.
        Case(rule: "cap/unreachable", yaml: header + "  a: {format: interstitial, min_interval: 1m, daily_cap: 5, caps: [{max: 5, window: 6h}, {max: 20, window: 7d}]}\n"),
        // A placement that turns itself off with its own cap of 0 leaves the caps it takes from defaults alone: they bind
        // for the other placements (cap/zero tells it to write enabled: false).
        Case(rule: "cap/unreachable", yaml: "version: 1\ndefaults:\n  hourly_cap: 4\n  session_cap: 2\n  caps: [{max: 9, window: 2h}]\nplacements:\n  a: {format: interstitial, daily_cap: 0}\n  b: {format: interstitial, min_interval: 1m}\n"),
        // A cap of 0 binds: it denies every show (cap/zero), whatever the other caps.
        Case(rule: "cap/unreachable", yaml: header + "  a: {format: interstitial, daily_cap: 0, hourly_cap: 0, session_cap: 0, caps: [{max: 0, window: 1h}]}\n"),
        Case(rule: "pacing/missing", yaml: header + "  a: {format: app_open, daily_cap: 3}\n  b: {format: interstitial}\n  c: {format: banner}\ngroups:\n  g: {placements: [b], min_interval: 1m}\n"),
        // What a merge key (a yaml/alias error) would bring is not read: it may be the pacing, in the placement or in defaults.
        Case(rule: "pacing/missing", yaml: header + "  a:\n    <<: {min_interval: 1m}\n    format: interstitial\n"),
        Case(rule: "pacing/missing", yaml: "version: 1\ndefaults:\n  <<: {min_interval: 1m}\nplacements:\n  a: {format: interstitial}\n"),
        // A merge key at the top level or among the placements may bring any placement's pacing.
        Case(rule: "pacing/missing", yaml: "version: 1\n<<: {defaults: {min_interval: 1m}}\nplacements:\n  a: {format: interstitial}\n"),
        Case(rule: "pacing/missing", yaml: header + "  <<: {b: {format: banner}}\n  a: {format: interstitial}\n"),
        // A group's pacing that could not be read may be its members'.
        Case(rule: "pacing/missing", yaml: header + "  a: {format: interstitial}\ngroups:\n  g:\n    placements: [a]\n    <<: {min_interval: 1m}\n"),
        Case(rule: "pacing/missing", yaml: header + "  a: {format: interstitial}\ngroups:\n  g: {placements: [a], min_interval: 30}\n"),
        Case(rule: "rewarded/no-user-choice", yaml: header + "  a: {format: rewarded}\n  b: {format: rewarded_interstitial, require_user_choice: false}\n"),
        Case(rule: "app-open/deferred-show", yaml: header + "  a: {format: app_open, min_interval: 4m, resume: {allow_deferred: false}}\n"),
        Case(rule: "expiry/too-long", yaml: header + "  a: {format: app_open, min_interval: 4m, max_ad_age: 4h}\n  b: {format: banner, max_ad_age: 1h}\n"),
        Case(rule: "ids/test-ad-unit", yaml: "version: 1\nenvironment: test\nplacements:\n  a: {format: banner, ad_unit: ca-app-pub-3940256099942544/2934735716}\n  b: {format: banner, ad_unit: ca-app-pub-7412390517230961/1}\n"),
        Case(rule: "ids/duplicate-ad-unit", yaml: header + "  a: {format: banner, ad_unit: u1}\n  b: {format: banner, ad_unit: u2}\n"),
        // An empty ad unit names none; a network's test id is shared by design (here in a test policy).
        Case(rule: "ids/duplicate-ad-unit", yaml: header + "  a: {format: banner, ad_unit: \"\"}\n  b: {format: banner, ad_unit: \"\"}\n"),
        Case(rule: "ids/duplicate-ad-unit", yaml: "version: 1\nenvironment: test\nplacements:\n  a: {format: banner, ad_unit: ca-app-pub-3940256099942544/2934735716}\n  b: {format: banner, ad_unit: ca-app-pub-3940256099942544/2934735716}\n"),
        Case(rule: "policy/empty", yaml: header + "  a: {format: banner}\n"),
        // One placement in two groups, or in a group and a rule, is no repeat; a name that is no placement, listed
        // twice, has its policy/unknown-placement findings alone.
        Case(rule: "policy/repeated-placement", yaml: header + "  a: {format: banner}\n  b: {format: banner}\ngroups:\n  g: {placements: [a, b]}\n  h: {placements: [a]}\nrules:\n  - id: r\n    deny: [a, b]\n    when: premium\n  - id: s\n    deny: [a]\n    when: premium\n"),
        Case(rule: "policy/repeated-placement", yaml: header + "  a: {format: banner}\ngroups:\n  g: {placements: [a, c, c]}\n"),
        // Days a built-in reads, hours it reads, and orders some hours pass.
        Case(rule: "rule/built-in-value", yaml: header + "  a: {format: banner}\nrules:\n  - id: r\n    deny: [a]\n    when: now.weekday in [\"sat\", \"sun\"] and (now.hour >= 22 or now.hour < 6) and now.weekday != \"mon\"\n"),
    ]

    @Test(arguments: quiet)
    func semanticRuleStaysQuietOnGoodInput(_ c: Case) {
        let diagnostics = lint(c.yaml)
        #expect(!diagnostics.contains { $0.rule == c.rule }, "\(diagnostics)")
    }

    @Test func everyDocumentedRuleHasACase() {
        // compiled/invalid has its own suite (CompiledPolicyTests): it needs a compiled document, not YAML; so has
        // swift/name-clash (GeneratedSwiftTests), which only `compile --format swift` reports.
        let covered = Set(Self.cases.map(\.rule)).union([
            "policy/duplicate-id", "policy/conflicting-setting", "compiled/invalid", "lint/too-many-findings", "swift/name-clash",
        ])
        #expect(Set(LintRule.all.map(\.id)).subtracting(covered).isEmpty)
    }

    /// Each rule has its row in docs/lint-rules.md, which the warnings send readers to.
    @Test func everyRuleHasARowInTheDocs() throws {
        let page = try String(contentsOfFile: packageRoot() + "/docs/lint-rules.md", encoding: .utf8)
        let missing = LintRule.all.map(\.id).filter { !page.contains("| `\($0)` | ") }
        #expect(missing.isEmpty, "no row in docs/lint-rules.md: \(missing)")
    }

    @Test func shippedRulesHaveNoFindings() throws {
        let load = try PolicyLoader.load(path: packageRoot() + "/rules")
        #expect(load.diagnostics.isEmpty, "\(load.diagnostics)")
        #expect(load.files.count >= 4)
    }
}
