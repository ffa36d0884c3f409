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
        // Days are names: ordering them would be alphabetical.
        Case(rule: "rule/type", yaml: header + "  a: {format: interstitial, min_interval: 1m}\nrules:\n  - id: r\n    deny: [a]\n    when: now.weekday 1️⃣< \"tue\"\n"),
        Case(rule: "cap/zero", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    daily_cap: 1️⃣0\n"),
        Case(rule: "cap/unreachable", yaml: header + "  a:\n    format: interstitial\n    daily_cap: 5\n    hourly_cap: 1️⃣5\n"),
        Case(rule: "cap/unreachable", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    caps:\n      - {max: 3, window: 2h}\n      - {max: 1️⃣4, window: 1h}\n"),
        // Equally long windows, the looser written first.
        Case(rule: "cap/unreachable", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    caps:\n      - {max: 1️⃣5, window: 1h}\n      - {max: 3, window: 1h}\n"),
        // daily_cap counts as a window of a day, in both directions; a window of 0s holds no show.
        Case(rule: "cap/unreachable", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    daily_cap: 5\n    caps: [{max: 1️⃣6, window: 1h}]\n"),
        Case(rule: "cap/unreachable", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    daily_cap: 1️⃣5\n    caps: [{max: 3, window: 2d}]\n"),
        Case(rule: "cap/unreachable", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    caps: [{max: 1️⃣3, window: 0s}]\n"),
        Case(rule: "pacing/missing", yaml: header + "  1️⃣a:\n    format: app_open\n"),
        Case(rule: "rewarded/no-user-choice", yaml: header + "  a:\n    format: rewarded\n    require_user_choice: 1️⃣false\n"),
        Case(rule: "app-open/deferred-show", yaml: header + "  a:\n    format: app_open\n    min_interval: 4m\n    resume:\n      allow_deferred: 1️⃣true\n"),
        Case(rule: "expiry/too-long", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    max_ad_age: 1️⃣2h\n"),
        Case(rule: "ids/test-ad-unit", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    ad_unit: 1️⃣ca-app-pub-3940256099942544/4411468910\n"),
        // Pasted with a space or an invisible character before it, it is the test unit all the same.
        Case(rule: "ids/test-ad-unit", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    ad_unit: 1️⃣\" ca-app-pub-3940256099942544/4411468910\"\n"),
        Case(rule: "ids/test-ad-unit", yaml: header + "  a:\n    format: interstitial\n    min_interval: 1m\n    ad_unit: 1️⃣\"\u{200B}\u{00A0}/6499/example/interstitial\"\n"),
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
    }

    static let quiet: [Case] = [
        Case(rule: "cap/zero", yaml: header + "  a: {format: interstitial, min_interval: 1m, daily_cap: 1}\n  b: {format: banner, enabled: false}\n"),
        Case(rule: "cap/unreachable", yaml: header + "  a: {format: interstitial, daily_cap: 6, hourly_cap: 5, session_cap: 5, min_interval: 4m, caps: [{max: 2, window: 10m}, {max: 6, window: 1h30m}]}\n"),
        // cli.md: "a window cap larger than a longer window's cap"; an equal one is not.
        Case(rule: "cap/unreachable", yaml: header + "  a: {format: interstitial, min_interval: 1m, hourly_cap: 5, caps: [{max: 5, window: 1h}, {max: 5, window: 2h}]}\n"),
        // A window cap equal to daily_cap (the window rule says "larger"), a weekly cap above the daily one.
        Case(rule: "cap/unreachable", yaml: header + "  a: {format: interstitial, min_interval: 1m, daily_cap: 5, caps: [{max: 5, window: 6h}, {max: 20, window: 7d}]}\n"),
        Case(rule: "pacing/missing", yaml: header + "  a: {format: app_open, daily_cap: 3}\n  b: {format: interstitial}\n  c: {format: banner}\ngroups:\n  g: {placements: [b], min_interval: 1m}\n"),
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
    ]

    @Test(arguments: quiet)
    func semanticRuleStaysQuietOnGoodInput(_ c: Case) {
        let diagnostics = lint(c.yaml)
        #expect(!diagnostics.contains { $0.rule == c.rule }, "\(diagnostics)")
    }

    @Test func everyDocumentedRuleHasACase() {
        // compiled/invalid has its own suite (CompiledPolicyTests): it needs a compiled document, not YAML.
        let covered = Set(Self.cases.map(\.rule)).union(["policy/duplicate-id", "policy/conflicting-setting", "compiled/invalid", "lint/too-many-findings"])
        #expect(Set(LintRule.all.map(\.id)).subtracting(covered).isEmpty)
    }

    @Test func ambiguousBoolInAStringFieldIsAWarning() throws {
        let input = MarkedText(Self.header + "  a:\n    format: banner\n    ad_unit: 1️⃣no\n")
        let d = try #require(lint(input.text).first { $0.rule == "yaml/ambiguous-bool" })
        #expect(d.severity == .warning)
        #expect(d.range.start == input["1️⃣"])
        #expect(d.message.contains("quote"))
    }

    /// A type error says what to write instead: a number or bool without its quotes, a bool as text in quotes, a
    /// value where a mapping or list belongs in YAML's two ways.
    @Test func typeErrorsSayWhatToWriteInstead() {
        let text = Self.header + "  a:\n    format: interstitial\n    daily_cap: \"3\"\n    enabled: \"true\"\n    ad_unit: true\n    min_interval: 1m\n  b: 5\ngroups: [1]\n"
        #expect(lint(text).map(\.message) == [
            "daily_cap must be a whole number >= 0, not \"3\": remove the quotes (3)",
            "enabled must be true or false, not \"true\": remove the quotes (true)",
            "ad_unit must be a string, not the boolean true: quote it (\"true\")",
            "placement \"b\" must be a mapping of keys to values, not \"5\": write key: value pairs, one a line, or {key: value}",
            "groups must be a mapping of keys to values, not a list: write key: value pairs, one a line, or {key: value}",
        ])
        // No advice that the key refuses next: a fraction or a negative number for a count.
        let refused = Self.header + "  a:\n    format: interstitial\n    min_interval: 1m\n    daily_cap: \"3.5\"\n    hourly_cap: \"-2\"\n    every_n_actions: \"0\"\n"
        #expect(lint(refused).map(\.message) == [
            "daily_cap must be a whole number >= 0, not \"3.5\"", "hourly_cap must be a whole number >= 0, not \"-2\"",
            "every_n_actions must be a whole number >= 1, not \"0\"",
        ])
        // A whole number written as a decimal, an exponent or with YAML 1.1's underscores is told its digits, where
        // the key takes them; a fraction, or a number the key refuses, is not.
        let written = Self.header + "  a:\n    format: interstitial\n    min_interval: 1m\n    daily_cap: 6.0\n    hourly_cap: 1e2\n    session_cap: 1_000\n    every_n_actions: 0.0\n  c:\n    format: interstitial\n    min_interval: 1m\n    daily_cap: 1e5\n    every_n_actions: 1e18\n  b:\n    format: interstitial\n    min_interval: 1m\n    daily_cap: 2.5\n    hourly_cap: 1e6\n"
        #expect(lint(written).filter { $0.rule == "schema/type" }.map(\.message) == [
            "daily_cap must be a whole number >= 0, not \"6.0\": write 6", "hourly_cap must be a whole number >= 0, not \"1e2\": write 100",
            "session_cap must be a whole number >= 0, not \"1_000\": write 1000, with no underscores",
            "every_n_actions must be a whole number >= 1, not \"0.0\"", "daily_cap must be a whole number >= 0, not \"1e5\": write 100000",
            // 19 digits are more than a whole number is read with: not advised.
            "every_n_actions must be a whole number >= 1, not \"1e18\"",
            "daily_cap must be a whole number >= 0, not \"2.5\": a count is whole: write 2 or 3", "hourly_cap must be a whole number >= 0, not \"1e6\"",
        ])
        // YAML's infinity for a cap means "no cap", which is the key left out; a count below its minimum says what to write.
        let unlimited = Self.header + "  a:\n    format: interstitial\n    min_interval: 1m\n    daily_cap: .inf\n    hourly_cap: -1\n    every_n_actions: 0\n"
        #expect(lint(unlimited).map(\.message) == [
            "daily_cap must be a whole number >= 0, not \".inf\": leave daily_cap out for no cap",
            "hourly_cap must be >= 0, not -1: write 0 or more, or leave hourly_cap out",
            "every_n_actions must be >= 1, not 0: write 1 or more, or leave every_n_actions out",
        ])
        // A duration for a cap is told that a cap counts shows; a quoted version, to write it plain.
        #expect(lint("version: \"1\"\nplacements:\n  a: {format: interstitial, min_interval: 1m, daily_cap: 5m}\n").map(\.message) == [
            "version must be the whole number 1, not \"1\": write version: 1",
            "daily_cap must be a whole number >= 0, not \"5m\": daily_cap counts shows, not time: write a number of shows (the time between shows is min_interval)",
        ])
        // Thousands with commas, and a count with words after it, are told the count alone.
        let worded = Self.header + "  a:\n    format: interstitial\n    min_interval: 1m\n    daily_cap: 20 per day\n    hourly_cap: 1,000\n    session_cap: 3/session\n  b:\n    format: interstitial\n    min_interval: 1m\n    daily_cap: 20%\n    hourly_cap: 1,00\n"
        #expect(lint(worded).filter { $0.rule == "schema/type" }.map(\.message) == [
            "daily_cap must be a whole number >= 0, not \"20 per day\": write 20 alone: the key says what it counts",
            "hourly_cap must be a whole number >= 0, not \"1,000\": write 1000, with no commas",
            "session_cap must be a whole number >= 0, not \"3/session\": write 3 alone: the key says what it counts",
            // A percentage is no count to guess, nor are commas that group no thousands.
            "daily_cap must be a whole number >= 0, not \"20%\"", "hourly_cap must be a whole number >= 0, not \"1,00\"",
        ])
        // An empty count is told it may go (a cap's `max` may not: it is required). A number in words gets no advice:
        // cli.md's example message for `daily_cap: six` has none.
        let spelled = Self.header + "  a:\n    format: interstitial\n    min_interval: 1m\n    session_cap:\n    every_n_actions: zero\n    caps:\n      - {max: , window: 1h}\n"
        #expect(lint(spelled).filter { $0.rule == "schema/type" }.map(\.message) == [
            "session_cap must be a whole number >= 0, not nothing (null): write a whole number, or remove session_cap",
            "every_n_actions must be a whole number >= 1, not \"zero\"", "max must be a whole number >= 0, not nothing (null)",
        ])
    }

    /// A duration with its parts out of order or repeated is told the one they add up to, largest first.
    @Test(arguments: [("1h1h", "2h"), ("1m1h", "1h1m"), ("30s1m", "1m30s"), ("500ms1s", "1s500ms")])
    func aDurationOutOfOrderIsToldItsForm(_ written: String, _ meant: String) throws {
        let text = Self.header + "  a:\n    format: interstitial\n    min_interval: \(written)\n"
        let finding = try #require(lint(text).first { $0.rule == "schema/duration" })
        #expect(finding.message.hasSuffix("not \"\(written)\": write \(meant)"), "\(finding.message)")
    }

    /// A key past YAML's 1024-character limit on implicit keys is named as too long, not as misplaced.
    @Test func aKeyLongerThanYAMLAllowsIsNamedSo() throws {
        let text = "version: 1\nplacements:\n  " + String(repeating: "a", count: 1030) + ":\n    format: banner\n"
        let syntax = try #require(lint(text).first { $0.rule == "yaml/syntax" })
        #expect(syntax.message.contains("a key longer than 1024 characters is not read as a key"), "\(syntax.message)")
    }

    /// An id written as a key is a string field too: plain yes/no/on/off/y/n there is a warning.
    @Test func ambiguousBoolAsAnIDKeyIsAWarning() throws {
        let input = MarkedText("version: 1\nplacements:\n  1️⃣no: {format: banner}\ngroups:\n  2️⃣off: {placements: [\"no\"]}\nattributes:\n  3️⃣on: bool\n")
        let found = lint(input.text).filter { $0.rule == "yaml/ambiguous-bool" }
        #expect(found.map(\.severity) == [.warning, .warning, .warning])
        #expect(found.map(\.range.start) == [input["1️⃣"], input["2️⃣"], input["3️⃣"]])
        #expect(found.first?.message.contains("quote it (\"no\")") == true)
    }

    /// A bad id is one finding among the others of its block: the settings of a placement, a group or a rule with a
    /// bad id are still read and checked.
    @Test func aBadIDHidesNoOtherFinding() throws {
        let input = MarkedText("""
            version: 1
            placements:
              1️⃣"level end":
                format: 2️⃣bogus
                daily_cap: 3️⃣six
              ok: {format: interstitial}
            groups:
              4️⃣"g g": {placements: [ok], 5️⃣dialy_cap: 2}
            rules:
              - id: 6️⃣No-Ads
                deny: [7️⃣okk]
                when: 8️⃣scren == "x"

            """)
        let found = lint(input.text).map { "\($0.rule)@\($0.range.start.line):\($0.range.start.column)" }
        for (marker, rule) in [
            ("1️⃣", "schema/range"), ("2️⃣", "schema/enum"), ("3️⃣", "schema/type"), ("4️⃣", "schema/range"),
            ("5️⃣", "schema/unknown-key"), ("6️⃣", "schema/range"), ("7️⃣", "policy/unknown-placement"),
        ] {
            let at = try #require(input[marker])
            #expect(found.contains("\(rule)@\(at.line):\(at.column)"), "\(marker) \(rule) in \(found)")
        }
        let condition = try #require(input["8️⃣"])
        #expect(found.contains { $0.hasPrefix("rule/") && $0.hasSuffix("@\(condition.line):\(condition.column)") }, "\(found)")
    }

    @Test func unknownKeySuggestsTheClosest() throws {
        let d = try #require(lint(Self.header + "  a:\n    format: interstitial\n    min_intervall: 1m\n").first)
        #expect(d.message.contains("did you mean \"min_interval\"?"))
    }

    @Test func typeMessageMatchesTheReference() throws {
        let d = try #require(lint(Self.header + "  a:\n    format: app_open\n    daily_cap: six\n").first { $0.rule == "schema/type" })
        #expect(d.message == "daily_cap must be a whole number >= 0, not \"six\"")
    }

    @Test func bareNumberDurationSaysWhatToWrite() throws {
        let d = try #require(lint(Self.header + "  a:\n    format: app_open\n    min_interval: 30\n").first)
        #expect(d.message.contains("write 30s or 30m"))
    }

    /// cli.md: `schema/duration` is a malformed duration or a bare number; a list, a mapping, a boolean or null where
    /// a duration belongs is a value of the wrong type (`schema/type`), as for every other field.
    @Test func aDurationOfAnotherTypeIsATypeError() {
        let input = MarkedText(
            "version: 1\nsession_timeout: 1️⃣{a: 1}\nplacements:\n  a: {format: interstitial, min_interval: 2️⃣true}\n"
                + "  b: {format: interstitial, min_interval: 3️⃣[1m]}\n  c: {format: interstitial, min_interval: 4️⃣~}\n"
                + "  d: {format: interstitial, min_interval: 5️⃣\"true\", max_ad_age: 6️⃣30}\n")
        let found = lint(input.text).filter { $0.rule.hasPrefix("schema/") }
        #expect(found.map { "\($0.rule)@\($0.range.start.line):\($0.range.start.column)" } == [
            ("1️⃣", "schema/type"), ("2️⃣", "schema/type"), ("3️⃣", "schema/type"), ("4️⃣", "schema/type"),
            ("5️⃣", "schema/duration"), ("6️⃣", "schema/duration"),
        ].map { marker, rule in "\(rule)@\(input[marker]?.line ?? 0):\(input[marker]?.column ?? 0)" }, "\(found)")
        #expect(found.first?.message == "session_timeout must be a duration, not a mapping: write a duration such as 90s, 4m, 1h30m or 1d")
    }

    /// A duration written with a fraction, an exponent, a space or a unit spelt out is told the duration it means.
    @Test(arguments: [("0.5s", "500ms"), ("1e3s", "16m40s"), ("1 day", "1d"), ("2 hours", "2h"), ("1.5h", "1h30m"), ("90 Seconds", "1m30s"),
        ("5e-1s", "500ms"), ("4.35m", "4m21s"), ("0.0s", "0s"), ("1h 30m", "1h30m"), ("128.2d", "128d4h48m"), ("1.0000000000000000s", "1s"),
        // Weeks, a last unit left out as a clock reads, and ISO 8601 durations, as other tools write them.
        ("1w", "7d"), ("2 weeks", "14d"), ("1h30", "1h30m"), ("2m30", "2m30s"), ("1d12", "1d12h"), ("PT30S", "30s"), ("PT1H30M", "1h30m"), ("P1D", "1d"),
        ("P1DT2H", "1d2h")])
    func aDurationWrittenOtherwiseIsToldItsForm(_ written: String, _ suggestion: String) throws {
        let found = try #require(lint(Self.header + "  a: {format: interstitial, min_interval: \(written)}\n").first { $0.rule == "schema/duration" })
        #expect(found.message.hasSuffix("not \"\(written)\": write \(suggestion)"), "\(found.message)")
        let plain = lint(Self.header + "  a: {format: interstitial, min_interval: 527041}\n").first?.message ?? ""
        #expect(plain.hasSuffix("a bare number has no unit: write 527041s"), "\(plain)")
        let quoted = lint(Self.header + "  a: {format: interstitial, min_interval: \"30\"}\n").first?.message ?? ""
        #expect(quoted.hasSuffix("not \"30\": a bare number has no unit: write 30s or 30m"), "\(quoted)")
        for other in ["53w", "P400D", "PT", "P1H", "1h300", "1ms30", "\"1,000ms\"", "\"2,000s\"", "0.0001s", "1.5 fortnights", "400 days", "1.9999999999999999999s", "365.9999999d", "1e-400s", "1.157407407407407407e-8d", "1 30m", "\"400000000\"", "366d 1h", "\"366.000000000001d\"", "\"365.999999999999d\"", "1e-10s", "1.0000000001s"] {
            let message = lint(Self.header + "  a: {format: interstitial, min_interval: \(other)}\n").first?.message ?? ""
            #expect(!message.contains(": write"), "\(other): \(message)")
        }
    }

    /// A duration written negative is told it never is, and a decimal comma is read as the point it stands for.
    @Test func aNegativeDurationAndADecimalCommaAreToldWhatToWrite() {
        let negative = lint(Self.header + "  a: {format: interstitial, min_interval: -30s}\n").first?.message ?? ""
        #expect(negative.hasSuffix("not \"-30s\": a duration is never negative: write 30s"), "\(negative)")
        let comma = lint(Self.header + "  a:\n    format: interstitial\n    min_interval: 1,5h\n").first?.message ?? ""
        #expect(comma.hasSuffix("not \"1,5h\": write 1h30m"), "\(comma)")
    }

    /// `when: True` is the bool YAML 1.2 reads, as `when: true` is: the expression of that bool, in any of its spellings.
    @Test(arguments: [("True", true), ("TRUE", true), ("False", false), ("FALSE", false), ("true", true)])
    func aWhenOfACoreSchemaBoolIsThatBool(_ written: String, _ denies: Bool) throws {
        let text = "version: 1\nplacements:\n  p: {format: banner}\nrules:\n  - {id: r, deny: \"*\", when: \(written)}\n"
        #expect(lint(text).isEmpty, "\(lint(text))")
        let loaded = try policy(text)
        var facts = Facts(policy: loaded, installedAt: 0)
        facts.apply(.loadCompleted("p"), at: 0, policy: loaded)
        #expect(Evaluator.decide(.show("p", trigger: .action), policy: loaded, facts: facts, now: 0).codes == (denies ? [.customRule] : []))
    }

    /// A rule's `deny:` written as one id is read as an item of a list is: a plain yes/no warns, a number is refused.
    @Test func aDenyOfOneIDIsReadAsAString() throws {
        let input = MarkedText(Self.header + "  \"n\": {format: banner}\nrules:\n  - {id: r, deny: 1️⃣n, when: premium}\n  - {id: s, deny: 2️⃣12, when: premium}\n")
        let found = lint(input.text)
        let warning = try #require(found.first { $0.rule == "yaml/ambiguous-bool" })
        #expect((warning.severity, warning.range.start) == (.warning, input["1️⃣"]))
        let number = try #require(found.first { $0.rule == "schema/type" })
        #expect(number.range.start == input["2️⃣"])
        #expect(number.message.contains("an id of digits in quotes: deny: [\"12\"]"), "\(number.message)")
        // A boolean names no placement: the advice is what deny takes, not quotes (a placement "true" is unknown next).
        let bool = lint(Self.header + "  a: {format: banner}\nrules:\n  - {id: r, deny: true, when: premium}\n")
        #expect(bool.map(\.message) == [
            "deny must be placement ids or \"*\", not \"true\": list the placement ids the rule denies, as in deny: [interstitial_level_end], or write deny: \"*\" for every placement",
        ])
    }

    /// A character that does not show, or looks like a space, is named by its code point: a time zone copied with a
    /// zero width space looked like "UTC" and was unknown, and a no-break space in a condition read as "unexpected \" \"".
    @Test func invisibleCharactersAreNamed() {
        let text = Self.header + "  a: {format: interstitial, min_interval: 1m}\nrules:\n  - {id: r, deny: [a], when: \"premium\\u00A0and premium\"}\n"
        #expect(lint("version: 1\ntimezone: \"UTC\\u200B\"\n" + text.dropFirst("version: 1\n".count)).map(\.message) == [
            "unknown time zone \"UTC\u{200B}\": it holds U+200B (zero width space), which a zone name never has: write \"UTC\"",
            "unexpected character U+00A0 (no-break space), which looks like a space: write a plain space, or none",
        ])
        // Without the character the name is no zone either: the closest zone is suggested, as for any other name.
        #expect(lint("version: 1\ntimezone: \"America/New\\u00A0York\"\nplacements:\n  a: {format: banner}\n").map(\.message) == [
            "unknown time zone \"America/New\u{A0}York\": it holds U+00A0 (no-break space), which a zone name never has: did you mean \"America/New_York\"?",
        ])
        // Inside quotes, in text, such a character is the text's own.
        #expect(lint(Self.header + "  a: {format: interstitial, min_interval: 1m}\nrules:\n  - {id: r, deny: [a], when: 'premium and \"\u{00A0}\" == \"x\"'}\n").isEmpty)
    }

    /// `min_interval: 0s` paces nothing: the warning is at the placement, with a note at the value to raise.
    @Test func pacingMissingNotesAWrittenZeroInterval() throws {
        let input = MarkedText(Self.header + "  1️⃣a: {format: interstitial, min_interval: 2️⃣0s}\n")
        let d = try #require(lint(input.text).first { $0.rule == "pacing/missing" })
        #expect(d.range.start == input["1️⃣"])
        #expect(d.notes.map(\.position) == [try #require(input["2️⃣"])])
    }

    @Test func columnsCountCharactersAfterNonASCII() throws {
        let input = MarkedText(Self.header + "  a: {format: banner, ad_unit: 日本語の広告, daily_cap: 1️⃣six}\n")
        let d = try #require(lint(input.text).first { $0.rule == "schema/type" })
        #expect(d.range.start == input["1️⃣"])
    }

    /// A block `when:` written with CR LF or CR line breaks places a finding where it is, as with LF: libyaml
    /// reads those breaks as LF inside the value. (NEL, LS and PS are refused: see `hiddenLineBreaksAreRefused`.)
    @Test(arguments: ["\n", "\r\n", "\r"])
    func aBlockWhenPlacesFindingsWhateverItsLineBreaks(_ lineBreak: String) {
        let text = ["version: 1", "placements:", "  a: {format: interstitial, min_interval: 1m}", "rules:", "  - id: r",
                    "    deny: [a]", "    when: |", "      premium or", "      scren == 1", ""].joined(separator: lineBreak)
        let found = lint(text).first { $0.rule == "rule/unknown-name" }
        #expect(found?.range.start == SourcePosition(line: 9, column: 7), "\(lint(text))")
        #expect(found?.range.end == SourcePosition(line: 9, column: 12))
    }

    /// Lines are counted as libyaml counts them, a line break editors do not show (LS) is refused where it stands
    /// rather than counted, and a byte order mark is no column.
    @Test func positionsInsideAnExpressionCountLinesAndColumnsAsLibyaml() {
        let rule = "rules:\n  - id: r\n    deny: [a]\n    when: premium or\n      premum\n"
        let separated = lint(Self.header + "  a: {format: interstitial, min_interval: 1m, ad_unit: \"x\u{2028}y\"}\n" + rule)
        #expect(separated.map(\.rule) == ["yaml/syntax"])
        #expect(separated.first?.range.start == SourcePosition(line: 3, column: 58))
        let plain = lint(Self.header + "  a: {format: interstitial, min_interval: 1m}\n" + rule).first { $0.rule == "rule/unknown-name" }?.range.start
        #expect(plain == SourcePosition(line: 8, column: 7))
        let flow = "{version: 1, placements: {a: {format: interstitial, min_interval: 1m}}, rules: [{id: r, deny: [a], when: \"premum or\n  premium\"}]}\n"
        for text in [flow, "\u{FEFF}" + flow] {
            #expect(lint(text).first { $0.rule == "rule/unknown-name" }?.range.start == SourcePosition(line: 1, column: 107))
        }
    }

    /// A token inside a quoted `when` spans its escaped quotes (`''b''`, `\"b\"`, a string's own `\"`) and both
    /// characters of a comparison: the finding covers the whole token (1️⃣ to 2️⃣), its start placed past escaped
    /// quotes before it.
    @Test(arguments: [
        #"'screen == ''a'' 1️⃣''b''2️⃣'"#, #""screen == \"a\" 1️⃣\"b\"2️⃣""#, #"'screen == ''it''1️⃣''s''2️⃣'"#, #"screen == 'a' 1️⃣'b'2️⃣"#,
        #"'screen == "x" 1️⃣"a\"b"2️⃣ or premium'"#, #"premium 1️⃣==2️⃣ 1"#,
        "premium and 1️⃣premum2️⃣\n      or premium", "\"premium and 1️⃣premum2️⃣\n      or premium\"", ">\n      premium and 1️⃣premum2️⃣\n      or premium",
        // A finding at the end of a block value whose last line holds spaces deeper than its indentation (text of it).
        "|\n      screen == \"a\" and1️⃣2️⃣\n         \n",
    ])
    func aTokenInAQuotedExpressionSpansItsEscapes(_ when: String) throws {
        let marked = MarkedText("version: 1\nattributes:\n  screen: string\nplacements:\n  p: {format: interstitial, min_interval: 4m}\nrules:\n  - id: r1\n    deny: [p]\n    when: \(when)\n")
        let found = try #require(lint(marked.text).first { $0.rule.hasPrefix("rule/") }, "\(lint(marked.text))")
        #expect(found.range == SourceRange(start: try #require(marked.markers["1️⃣"]), end: try #require(marked.markers["2️⃣"])), "\(found)")
    }

    /// Past 500 findings in a file each is still placed whole (placing a finding's two ends counts as one placing).
    @Test func manyExpressionFindingsAreEachPlacedWhole() {
        let rules = (0..<700).map { "  - {id: r\($0), deny: [p], when: premum or premium}\n" }.joined()
        let found = lint("version: 1\nplacements:\n  p: {format: banner}\nrules:\n" + rules).filter { $0.rule == "rule/unknown-name" }
        #expect(found.count == 700)
        #expect(found.allSatisfy { $0.range.end.column - $0.range.start.column == 6 }, "\(found.suffix(1))")
    }

    /// A block list or mapping ends with its last value (1️⃣ to 2️⃣), not at the line of the next key below blank lines
    /// and comments (where libyaml ends it): a code scanner shows an alert only when all its lines are in the change.
    @Test(arguments: [
        "    daily_cap:\n      1️⃣- 1\n      - 22️⃣\n\n# a comment\n",
        "    hourly_cap:\n      1️⃣x: 1\n      y: {z: 2}2️⃣\n\n    min_interval: 4m\n",
        "    daily_cap:\n      1️⃣- 1\n      - |-\n        x2️⃣\n\n\n# c\n    min_interval: 4m\n",
        "    daily_cap:\n      1️⃣- 1\n      - >+\n        x\n          y2️⃣\n\n    min_interval: 4m\n",
        "    daily_cap:\n      1️⃣a: 1\n      b:2️⃣\n    min_interval: 4m\n",
        "    daily_cap:\n      1️⃣-2️⃣\n\n\n# c\n    min_interval: 4m\n",
        "    daily_cap:\n      1️⃣? a2️⃣\n\n\n# c\n    min_interval: 4m\n",
    ])
    func aBlockValueEndsWithItsLastItem(_ value: String) throws {
        let marked = MarkedText(Self.header + "  a:\n    format: interstitial\n" + value)
        let found = try #require(lint(marked.text).first { $0.rule == "schema/type" }, "\(lint(marked.text))")
        #expect(found.range == SourceRange(start: try #require(marked.markers["1️⃣"]), end: try #require(marked.markers["2️⃣"])), "\(found)")
    }

    /// `defaults:` takes no format or ad unit: an unknown key there is not told to write one.
    @Test func anUnknownKeyInDefaultsListsOnlyWhatDefaultsTake() throws {
        let found = lint("version: 1\ndefaults:\n  foo: 1\nplacements:\n  p: {format: banner}\n")
        let message = try #require(found.first { $0.rule == "schema/unknown-key" }?.message)
        #expect(message.hasPrefix("unknown key \"foo\" in defaults: the keys here are enabled, "), "\(message)")
        #expect(!message.contains("format") && !message.contains("ad_unit"), "\(message)")
        // A key of a block, or a top-level one, is told where it belongs, as on a placement.
        let nested = lint("version: 1\ndefaults:\n  max_wait: 5s\n  timezone: UTC\nplacements:\n  p: {format: banner}\n").map(\.message)
        #expect(nested.contains { $0.hasSuffix("indent it under `launch:`") } && nested.contains { $0.hasSuffix("is a top-level setting: indent it less, at the start of a line") }, "\(nested)")
        // Written there anyway, each is told to go on each placement.
        #expect(lint("version: 1\ndefaults:\n  format: banner\nplacements:\n  p: {format: banner}\n").map(\.message) == ["format is not allowed in defaults: set it on each placement"])
    }

    /// Many findings on one line (a flow-style file) are each placed at their own column.
    @Test func findingsOnOneLineAreEachPlaced() {
        let rules = (0..<5).map { #"{id: r\#($0), deny: "*", when: "premium or premum\#($0)"}"# }
        let text = "{version: 1, placements: {a: {format: banner}}, rules: [" + rules.joined(separator: ", ") + "]}\n"
        let found = lint(text).filter { $0.rule == "rule/unknown-name" }.map(\.range.start)
        let expected = (0..<5).map { k -> SourcePosition in
            let at = text.range(of: "premum\(k)").map { text.distance(from: text.startIndex, to: $0.lowerBound) } ?? 0
            return SourcePosition(line: 1, column: at + 1)
        }
        #expect(found == expected)
    }

    @Test func suppressionCommentSilencesTheNextLine() {
        let text = Self.header + "  a:\n    format: interstitial\n    min_interval: 1m\n    # adrules:disable-next-line cap/zero\n    daily_cap: 0\n    hourly_cap: 0\n"
        let rules = lint(text).map(\.rule)
        #expect(rules == ["cap/zero"])
    }

    /// Lines are counted as libyaml counts them (CR, CR LF), and a `#` inside a scalar is text, not
    /// a comment: a message or a quoted string cannot hide a finding.
    @Test(arguments: ["\n", "\r\n", "\r"])
    func suppressionLinesAreLibyamlLines(_ lineBreak: String) {
        let text = ["version: 1", "placements:", "  a:", "    format: interstitial", "    min_interval: 1m",
                    "    # adrules:disable-next-line cap/zero", "    daily_cap: 0", "    hourly_cap: 0", ""].joined(separator: lineBreak)
        #expect(lint(text).map(\.message) == ["hourly_cap is 0, so this can never show: to turn a placement off, write enabled: false instead of hourly_cap: 0"])
    }

    @Test(arguments: [
        "version: 1\nplacements:\n  a:\n    format: interstitial\n    min_interval: 1m\n    ad_unit: \"x\n      # adrules:disable-next-line\n      y\"\n    daily_cap: 0\n",
        "version: 1\nrules:\n  - id: r\n    deny: [a]\n    when: premium\n    message: >-\n      no ads\n      # adrules:disable-next-line\nplacements: {a: {format: interstitial, min_interval: 1m, daily_cap: 0}}\n",
        "version: 1\nplacements:\n  a:\n    format: interstitial\n    min_interval: 1m\n    ad_unit: x#adrules:disable-next-line\n    daily_cap: 0\n",
        "version: 1\nplacements:\n  a:\n    format: interstitial\n    min_interval: 1m\n    ad_unit: \"x # adrules:disable-next-line cap/zero\"\n    daily_cap: 0\n",
    ])
    func aDirectiveInsideAScalarIsText(_ text: String) {
        #expect(lint(text).map(\.rule) == ["cap/zero"], "\(lint(text))")
    }

    /// A comment runs to the end of its line and is read once: a line of 200,000 directives is linear (it took
    /// seconds at 64 KiB when each `#` re-read the rest of the line), and only its first directive counts.
    @Test(.timeLimit(.minutes(1))) func aLineOfDirectivesIsReadOnce() {
        let line = "# adrules:disable-next-line cap/zero" + String(repeating: " #adrules:disable-next-line", count: 200_000)
        let text = "version: 1\nplacements:\n  a:\n    format: interstitial\n    min_interval: 1m\n    \(line)\n    daily_cap: 0\n    hourly_cap: 0\n"
        // The other words of the line are names too, of no rule: one warning says so.
        let found = lint(text)
        #expect(found.map(\.rule) == ["lint/unknown-rule", "cap/zero"])
        #expect(found.first?.message == "adrules:disable-next-line names #adrules:disable-next-line, which is no lint rule, so it hides nothing: name a rule id such as cap/zero (see adrules lint --format sarif, or docs/lint-rules.md)")
    }

    /// A comment naming rules that do not exist gets one warning, for its first such name, with the closest rule;
    /// the rules it names that exist still work.
    @Test func aCommentNamingNoRuleSaysSoOnce() {
        let text = "version: 1\nplacements:\n  a:\n    format: interstitial\n    min_interval: 1m\n"
            + "    # adrules:disable-next-line zzz cap/zeroo cap/zero qqq\n    daily_cap: 0\n"
        let found = lint(text)
        #expect(found.map(\.rule) == ["lint/unknown-rule"], "\(found)")
        #expect(found.first?.message == "adrules:disable-next-line names cap/zeroo, which is no lint rule, so it hides nothing: did you mean cap/zero? (2 more names in this comment are no rule either)")
        #expect(found.first.map { "\($0.range.start.line):\($0.range.start.column)" } == "6:5")
    }

    /// At most 1,000 such warnings a file are built, the rest counted (a 16 MiB file of them built 507 MB); a comment
    /// after a byte-order mark is placed as libyaml places things, the mark being no character.
    @Test func unknownRuleWarningsAreBoundedAndPlaced() {
        let text = "version: 1\nplacements:\n  a: {format: banner}\n" + String(repeating: "# adrules:disable-next-line cap/zeroo\n", count: 1200)
        let found = lint(text)
        #expect(found.filter { $0.rule == "lint/unknown-rule" }.count == 1000)
        #expect(found.filter { $0.rule == "lint/too-many-findings" }.map(\.message) == [
            "200 more findings in this file are not shown: fix the ones listed and lint again",
        ])
        let marked = lint("\u{FEFF}# adrules:disable-next-line cap/zeroo\nversion: 1\nplacements:\n  a: {format: banner}\n")
        #expect(marked.map { "\($0.rule) \($0.range.start.line):\($0.range.start.column)" } == ["lint/unknown-rule 1:1"])
    }

    /// A comment hides a warning, an error about a value kept as written, or (named, in a rule file) an unknown key.
    /// An error that means something was not read cannot be hidden: `lint` would pass while the policy silently loses a rule, a placement or a file (a
    /// hidden bare `*` dropped its whole file; a hidden attribute error turned off every rule reading it).
    @Test func onlyErrorsAboutKeptValuesCanBeSuppressed() throws {
        let unread = [
            "  a: {format: interstitial, min_interval: 1m}\nrules:\n  - id: r\n    # adrules:disable-next-line yaml/alias\n    deny: *\n    when: premium\n",
            "  # adrules:disable-next-line yaml/alias\n  a: {<<: {format: interstitial}, min_interval: 1m}\n",
            "  a:\n    format: interstitial\n    # adrules:disable-next-line schema/type\n    daily_cap: six\n",
            // A bare comment, meant for a warning on the line, does not hide a misspelt setting.
            "  a:\n    format: interstitial\n    min_interval: 1m\n    # adrules:disable-next-line\n    daly_cap: 3\n",
            "  a: {format: banner}\nrules:\n  # adrules:disable-next-line schema/missing-key\n  - {id: r, when: premium}\n",
            "  a: {format: banner}\n# adrules:disable-next-line policy/timezone\ntimezone: Mars/Olympus\n",
        ]
        for tail in unread {
            let text = Self.header + tail
            let errors = lint(text).filter { $0.severity == .error }
            #expect(!errors.isEmpty, "\(tail)")
            // The comment that did not work says so, where it is.
            let note = errors.flatMap(\.notes).first { $0.message.contains("cannot hide") }
            let commentLine = text.split(separator: "\n", omittingEmptySubsequences: false)
                .firstIndex { $0.contains("adrules:disable-next-line") }.map { $0 + 1 }
            #expect(note?.position.line == commentLine, "\(errors)")
        }
        let kept = Self.header + "  a:\n    format: rewarded\n    daily_cap: 3\n    # adrules:disable-next-line rewarded/no-user-choice\n    require_user_choice: false\n"
        #expect(lint(kept).isEmpty, "\(lint(kept))")
        _ = try policy(kept)
        // A key of the team's own, hidden by a comment that names the rule (cli.md: "suppresses that rule").
        let own = Self.header + "  a:\n    format: interstitial\n    min_interval: 1m\n    # adrules:disable-next-line schema/unknown-key\n    x_owner: growth team\n"
        #expect(lint(own).isEmpty, "\(lint(own))")
        _ = try policy(own)
        // Not a misspelt or misplaced setting, even under a comment that names the rule: its value would be lost.
        for line in ["daly_cap: 3", "max_wait: 5s", "when: premium", "id: x", "b: {format: interstitial, min_interval: 1m, daly_cap: 3, x_owner: me}"] {
            let indent = line.hasPrefix("b:") ? "  " : "    "
            let text = Self.header + "  a:\n    format: app_open\n    min_interval: 1m\n    launch: {show_on_first_load: true}\n\(indent)# adrules:disable-next-line schema/unknown-key\n\(indent)\(line)\n"
            let errors = lint(text).filter { $0.rule == "schema/unknown-key" }
            #expect(errors.count == 1 && errors.first?.notes.first?.message.contains("cannot hide schema/unknown-key") == true, "\(line): \(lint(text))")
        }
        // A bare comment says how to keep a key of one's own.
        let bare = Self.header + "  a:\n    format: interstitial\n    min_interval: 1m\n    # adrules:disable-next-line\n    x_owner: growth team\n"
        #expect(lint(bare).first?.notes.first?.message.hasPrefix("a bare adrules:disable-next-line does not hide an unknown key") == true, "\(lint(bare))")
        // Not in a scenario file: a hidden misspelt expectation would leave a step that cannot fail.
        let scenario = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n"
            + "      # adrules:disable-next-line schema/unknown-key\n      - {ask: show, placement: a, expcet: allow}\n"
        let (_, found) = ScenarioDecoder.decode(Array(scenario.utf8), file: "s.test.yaml", policy: try policy(own))
        #expect(found.map(\.rule).contains("schema/unknown-key"), "\(found)")
        // A cap above what a history keeps is a range error whose value is not read: it cannot be hidden either.
        let huge = Self.header + "  a:\n    format: interstitial\n    min_interval: 1m\n    # adrules:disable-next-line schema/range\n    daily_cap: 999999999\n"
        #expect(lint(huge).map(\.rule) == ["schema/range"])
    }

    /// Only a finding about a value is widened: one about the whole file (a missing `version`) or where libyaml
    /// stopped keeps its point; a byte order mark and text that is not ASCII before the value do not shift the span.
    @Test func onlyValuesAreWidenedAndByCharacters() {
        let missing = lint("# Ads policy: growth\nplacements:\n  a: {format: banner}\n")
        #expect(missing.first { $0.rule == "schema/missing-key" }.map { $0.range.start == $0.range.end } == true, "\(missing)")
        for prefix in ["", "\u{FEFF}"] {
            let text = prefix + "version: 1\nplacements:\n  é日: {format: banner}\n  b: {format: banner, hourly_cap: 0} # ünï\n"
            let zero = lint(text).first { $0.rule == "cap/zero" }
            #expect(zero.map { "\($0.range.start.line):\($0.range.start.column)-\($0.range.end.column)" } == "4:35-36", "\(lint(text))")
        }
        let flow = "\u{FEFF}{version: 1, placements: {a: {format: banner, daily_cap: 0}}}\n"
        let first = lint(flow).first { $0.rule == "cap/zero" }
        #expect(first.map { "\($0.range.start.column)-\($0.range.end.column)" } == "58-59", "\(lint(flow))")
    }

    /// A setting that could not be read takes no other finding away (lint prints every diagnostic), but does not
    /// set off `pacing/missing` either: the cap it meant may be the placement's pacing.
    @Test func aPlacementWithAnUnreadSettingIsStillChecked() {
        let found = lint("version: 1\nplacements:\n  a:\n    format: interstitial\n    daily_cap: six\n    ad_unit: ca-app-pub-3940256099942544/1033173712\n  b: {format: rewarded, require_user_choice: false, hourly_cap: -1}\n")
        #expect(found.map(\.rule).sorted() == ["ids/test-ad-unit", "rewarded/no-user-choice", "schema/range", "schema/type"], "\(found)")
    }

    /// A finding about the assembled policy spans its value, as a decoding finding does (json `end_column`, SARIF
    /// `endColumn`, the text format's underline), not a single point.
    @Test func semanticFindingsSpanTheirValue() {
        let text = """
            version: 1
            environment: production
            timezone: Asia/Tokio # near
            placements:
              a:
                format: interstitial
                min_interval: 1m
                daily_cap: 0 # off
                ad_unit: "ca-app-pub-3940256099942544/1033173712"
              b: {format: banner, hourly_cap: 0, ad_unit: 'ünï'}
            groups:
              g: {placements: [a, bb]}
            rules:
              - {id: r, deny: [a], when: 'screen == "x"'}

            """
        let spans = lint(text).map { "\($0.rule) \($0.range.start.line):\($0.range.start.column)-\($0.range.end.column)" }
        #expect(spans.sorted() == [
            "cap/zero 10:35-36", "cap/zero 8:16-17", "ids/test-ad-unit 9:14-54", "policy/timezone 3:11-21",
            "policy/unknown-placement 12:23-25", "rule/unknown-name 14:31-37",
        ], "\(spans)")
    }

    /// Zone names are case-sensitive; one written in other letters is named as it is spelt.
    @Test(arguments: [("utc", "UTC"), ("Device", "device"), ("asia/tokyo", "Asia/Tokyo")])
    func aZoneInOtherLettersSuggestsItsSpelling(_ written: String, _ suggested: String) {
        let found = lint("version: 1\ntimezone: \(written)\nplacements:\n  a: {format: banner}\n")
        #expect(found.map(\.message) == ["unknown time zone \"\(written)\": did you mean \"\(suggested)\"?"], "\(found)")
    }

    /// A city written alone (the most likely thing a product manager writes) is told its zone, accents and case aside;
    /// a word that is no city gets no guess, not even one a letter away (`China` is not `Asia/Chita`).
    @Test(arguments: [
        ("Paris", "Europe/Paris"), ("New York", "America/New_York"), ("tokyo", "Asia/Tokyo"), ("São Paulo", "America/Sao_Paulo"),
        ("Zürich", "Europe/Zurich"), ("port au prince", "America/Port-au-Prince"), ("New-York", "America/New_York"),
        ("Mars", nil), ("China", nil), ("Nice", nil),
    ] as [(String, String?)])
    func aCityAloneIsToldItsZone(_ written: String, _ zone: String?) {
        let found = lint("version: 1\ntimezone: \(written)\nplacements:\n  a: {format: banner}\n")
        let expected = zone.map { "unknown time zone \"\(written)\": a zone is named Region/City: did you mean \"\($0)\"?" }
            ?? "unknown time zone \"\(written)\": write an IANA name such as Asia/Tokyo or Europe/Berlin, or device"
        #expect(found.map(\.message) == [expected], "\(found)")
    }

    /// An offset or an abbreviation is not "did you mean GMT": an offset is spelt the IANA way, an abbreviation
    /// gets a region.
    @Test func offsetsAndAbbreviationsGetTheirOwnAdvice() {
        let offset = lint("version: 1\ntimezone: GMT+5\nplacements:\n  a: {format: banner}\n").first?.message ?? ""
        #expect(offset.contains("a fixed offset is written Etc/GMT-5"), "\(offset)")
        // A bare offset, as ISO 8601 writes it, is one from UTC.
        for (written, etc) in [("+01:00", "Etc/GMT-1"), ("\"-5\"", "Etc/GMT+5"), ("\"+00:00\"", "UTC")] {
            let bare = lint("version: 1\ntimezone: \(written)\nplacements:\n  a: {format: banner}\n").first?.message ?? ""
            #expect(bare.contains("a fixed offset is written \(etc) "), "\(written): \(bare)")
        }
        let abbreviation = lint("version: 1\ntimezone: PST\nplacements:\n  a: {format: banner}\n").first?.message ?? ""
        #expect(abbreviation.contains("write a region such as America/Los_Angeles") && !abbreviation.contains("GMT"), "\(abbreviation)")
    }

    /// Advice fits where it is given: a group has no `enabled`, and an id in an example is an example.
    @Test func adviceFitsGroupsAndListsOfIds() {
        let zero = lint("version: 1\ngroups:\n  g: {placements: [a], session_cap: 0}\nplacements:\n  a: {format: banner}\n")
        #expect(zero.map(\.message) == ["session_cap is 0, so no member of this group can ever show: to turn placements off, write enabled: false in each of them instead of session_cap: 0"])
        let missing = lint("version: 1\nplacements:\n  a: {format: banner}\ngroups:\n  g: {min_interval: 1m}\nrules:\n  - {id: x, when: premium}\n")
        #expect(missing.map(\.message).contains("group \"g\" has no placements: list its members' placement ids, as in `placements: [interstitial_level_end]`"), "\(missing)")
        #expect(missing.map(\.message).contains("rule \"x\" has no deny: list the placement ids it denies, as in `deny: [interstitial]`"), "\(missing)")
    }

    @Test(arguments: ["\"\"", "\"  \""])
    func anEmptyRuleMessageIsAnError(_ message: String) {
        let found = lint("version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - {id: r, deny: [a], when: premium, message: \(message)}\n")
        #expect(found.map(\.rule) == ["schema/type"], "\(found)")
        #expect(found.first?.message.contains("denied by rule") == true)
    }

    /// A tagged value is reported once, as a tag: not again as the type its tag would have changed.
    @Test func aTaggedValueIsOneFinding() {
        #expect(lint(Self.header + "  a: {format: banner, ad_unit: !!str 5}\n").map(\.rule) == ["yaml/tag"])
    }

    /// A cap above the 100,000 shows a history keeps could never be reached: an error, not a silent no-op.
    @Test func aCapAboveWhatAHistoryKeepsIsAnError() {
        let found = lint(Self.header + "  b: {format: banner, daily_cap: 100001, caps: [{max: 100000, window: 30d}]}\n")
        #expect(found.map(\.rule) == ["schema/range"], "\(found)")
        #expect(found.first?.message.contains("write at most 100000") == true)
    }

    @Test func shippedRulesHaveNoFindings() throws {
        let load = try PolicyLoader.load(path: packageRoot() + "/rules")
        #expect(load.diagnostics.isEmpty, "\(load.diagnostics)")
        #expect(load.files.count >= 4)
    }
}
