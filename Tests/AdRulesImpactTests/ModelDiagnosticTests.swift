import AdRulesTestSupport
import AdRules
import AdRulesCompiler
import AdRulesYAML
import Foundation
import Testing

@testable import AdRulesImpact

/// A usage model in, diagnostics with their exact rule and position out.
@Suite("Usage model diagnostics")
struct ModelDiagnosticTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let rule: String
        let yaml: String
        let message: String
        var testDescription: String { name }
    }

    static let head = "version: 1\nsegments:\n  - name: all\n    share: 1\n"

    static let cases: [Case] = [
        Case(name: "unknown top-level key", rule: "schema/unknown-key", yaml: head + "1️⃣sead: 3\n", message: "did you mean \"seed\"?"),
        Case(name: "unknown segment key", rule: "schema/unknown-key", yaml: head + "    1️⃣resume: 3\n", message: "did you mean \"resumes\"?"),
        Case(name: "unknown distribution", rule: "schema/unknown-key", yaml: head + "    resumes: {1️⃣poison: 3}\n", message: "did you mean \"poisson\"?"),
        // The segment's share of premium users written as an attribute would play every user as not premium.
        Case(name: "premium as an attribute", rule: "schema/unknown-key", yaml: head + "    attributes: {screen: game, 1️⃣premium: 0.5}\n", message: "premium is the segment's share of premium users, not an attribute: write it beside `attributes:`, as in premium: 0.05"),
        Case(name: "unknown attribute distribution", rule: "schema/unknown-key", yaml: head + "    attributes: {level: {1️⃣unifrom: [1, 4]}}\n", message: "did you mean \"uniform\"?"),
        // A control character is reported where it stands, in a quoted value and in a block.
        Case(name: "control character in a value", rule: "schema/range", yaml: head + "    attributes: {screen: \"ga1️⃣\\tme\"}\n", message: "holds the control character U+0009"),
        Case(name: "control character in a block", rule: "schema/range", yaml: head + "    attributes:\n      screen: |\n        game1️⃣\n        over\n", message: "holds the control character U+000A"),
        Case(name: "wrong type", rule: "schema/type", yaml: head + "    resumes: 1️⃣many\n", message: "resumes must be a whole number, {uniform: [a, b]} or {poisson: mean}, not \"many\""),
        // A whole number written another way is told its digits, where the key takes them.
        Case(name: "users as an exponent", rule: "schema/type", yaml: head + "users: 1️⃣1e3\n", message: "not \"1e3\": write 1000"),
        Case(name: "days as a decimal", rule: "schema/type", yaml: head + "days: 1️⃣7.0\n", message: "not \"7.0\": write 7"),
        Case(name: "resumes with underscores", rule: "schema/type", yaml: head + "    resumes: 1️⃣1_0\n", message: "not \"1_0\": write 10, with no underscores"),
        Case(name: "distribution of the wrong kind", rule: "schema/type", yaml: head + "    cold_starts: {1️⃣exponential: 2m}\n", message: "cold_starts cannot be drawn from {exponential: ...}"),
        Case(name: "bare number for a duration", rule: "schema/duration", yaml: head + "    foreground: 1️⃣300\n", message: "write 300s or 300m"),
        Case(name: "probability above 1", rule: "schema/range", yaml: head + "    premium: 1️⃣1.5\n", message: "premium must be from 0 to 1, not 1.5"),
        Case(name: "reversed uniform", rule: "schema/range", yaml: head + "    first_open: {uniform: 1️⃣[10h, 7h]}\n", message: "[low, high] with low <= high"),
        // Every message says what to write instead: the range where a number belongs, the ends of an attribute swapped.
        Case(name: "a mapping for a probability", rule: "schema/type", yaml: head + "    premium: 1️⃣{x: 1}\n", message: "premium must be a number, not a mapping: write a number from 0 to 1"),
        Case(name: "a word for a share", rule: "schema/type", yaml: "version: 1\nsegments:\n  - name: all\n    share: 1️⃣all\n", message: "share must be a number, not \"all\": write a number above 0 and at most 1"),
        Case(name: "reversed attribute uniform", rule: "schema/range", yaml: head + "    attributes: {level: {uniform: 1️⃣[9, 3]}}\n", message: "not [9, 3], whose low end is higher: write [3, 9]"),
        Case(name: "reversed attribute durations", rule: "schema/range", yaml: head + "    attributes: {wait: {uniform: 1️⃣[20s, 5s]}}\n", message: "not [20s, 5s], whose low end is higher: write [5s, 20s]"),
        // The advice for a distribution of another kind is what first_open takes, not what other durations take.
        Case(name: "first open drawn from a count", rule: "schema/type", yaml: head + "    first_open: {1️⃣poisson: 3}\n", message: "first_open cannot be drawn from {poisson: ...}: write a time of day such as 8h or {uniform: [7h, 10h]}"),
        Case(name: "direction override in a name", rule: "schema/range", yaml: "version: 1\nsegments:\n  - name: \"a1️⃣\\u202Eb\"\n    share: 1\n", message: "holds U+202E, an invisible direction control that reorders what a reader sees: remove it"),
        // The text report starts lines with segment names: GitHub Actions would run `::error …` (past spaces) and `##[…`.
        Case(name: "name read as a CI command", rule: "schema/range", yaml: "version: 1\nsegments:\n  - name: 1️⃣\"  ::error file=a.yaml::x\"\n    share: 1\n", message: "not a name starting with \"::\", which CI logs read as a command"),
        Case(name: "name holding a legacy CI command", rule: "schema/range", yaml: "version: 1\nsegments:\n  - name: 1️⃣\"heavy ##[error]x\"\n    share: 1\n", message: "not a name holding \"##\" then \"[\", which CI logs read as a command"),
        Case(name: "name holding a legacy CI command under a combining mark", rule: "schema/range", yaml: "version: 1\nsegments:\n  - name: 1️⃣\"a ##[\\u0301error]x\"\n    share: 1\n", message: "not a name holding \"##\" then \"[\""),
        Case(name: "invisible name", rule: "schema/range", yaml: "version: 1\nsegments:\n  - name: 1️⃣\"\\u200B \"\n    share: 1\n", message: "not only spaces or invisible characters"),
        Case(name: "first open after midnight", rule: "schema/range", yaml: head + "    first_open: 1️⃣25h\n", message: "a local time before 24h"),
        Case(name: "unknown time zone", rule: "policy/timezone", yaml: head + "    timezone: 1️⃣Asia/Tokio\n", message: "did you mean \"Asia/Tokyo\"?"),
        Case(name: "shares that do not add up", rule: "model/shares", yaml: "version: 1\nsegments:\n  1️⃣- {name: a, share: 0.5}\n  - {name: b, share: 0.3}\n", message: "add up to 0.8, not 1: make them add up to 1; with the others as written, the last segment, b, would take 0.5"),
        Case(name: "thirds written to seven decimals", rule: "model/shares", yaml: "version: 1\nsegments:\n  1️⃣- {name: a, share: 0.3333333}\n  - {name: b, share: 0.3333333}\n  - {name: c, share: 0.3333333}\n", message: "add up to 0.9999999, not 1: make them add up to 1; with the others as written, the last segment, c, would take 0.3333334"),
        Case(name: "shares a hair over 1", rule: "model/shares", yaml: "version: 1\nsegments:\n  1️⃣- {name: a, share: 0.5}\n  - {name: b, share: 0.5000001}\n", message: "add up to 1.0000001, not 1"),
        Case(name: "shares a hair under 1", rule: "model/shares", yaml: "version: 1\nsegments:\n  1️⃣- {name: a, share: 0.5}\n  - {name: b, share: 0.49999999}\n", message: "add up to 0.99999999, not 1"),
        Case(name: "shares off in the ninth decimal", rule: "model/shares", yaml: "version: 1\nsegments:\n  1️⃣- {name: a, share: 0.5}\n  - {name: b, share: 0.500000002}\n", message: "add up to 1.000000002, not 1"),
        Case(name: "duplicate segment", rule: "model/duplicate-segment", yaml: head + "  - name: 1️⃣all\n    share: 1\n", message: "segment \"all\" is defined twice"),
        Case(
            name: "duplicate segment through an alias", rule: "model/duplicate-segment",
            yaml: "version: 1\nsegments:\n  - &all {name: all, share: 0.5}\n  - 1️⃣*all\n", message: "segment \"all\" is defined twice"),
        Case(name: "missing share", rule: "schema/missing-key", yaml: "version: 1\nsegments:\n  - 1️⃣name: a\n", message: "a segment has no share"),
        Case(name: "wrong version", rule: "schema/version", yaml: "version: 1️⃣2\nsegments: [{name: a, share: 1}]\n", message: "version must be 1"),
        Case(name: "quoted version", rule: "schema/type", yaml: "version: 1️⃣\"1\"\nsegments: [{name: a, share: 1}]\n", message: "version must be the whole number 1, not \"1\""),
        Case(name: "bad start date", rule: "schema/range", yaml: head + "start: 1️⃣2026-02-30\n", message: "start: 2026-02-30 is not a date: that month has 28 days"),
        Case(name: "not a leap year", rule: "schema/range", yaml: head + "start: 1️⃣2100-02-29\n", message: "start: 2100-02-29 is not a date: that month has 28 days"),
        Case(name: "no such month", rule: "schema/range", yaml: head + "start: 1️⃣2026-13-01\n", message: "months run from 01 to 12"),
        Case(name: "a day of the Julian switch", rule: "schema/range", yaml: head + "start: 1️⃣1582-10-07\n", message: "a day from 1971-01-01 to 2199-12-31"),
        // A day written as a time, with one-digit parts or with no dashes is told the day to write.
        Case(name: "start as a time", rule: "schema/type", yaml: head + "start: 1️⃣2026-12-07T00:00:00Z\n", message: "a model's start is a day, with no time of day (each user's day starts at local midnight): write 2026-12-07"),
        Case(name: "start with one-digit parts", rule: "schema/type", yaml: head + "start: 1️⃣2026-2-7\n", message: "months and days take two digits: write 2026-02-07"),
        Case(name: "start with no dashes", rule: "schema/type", yaml: head + "start: 1️⃣20261207\n", message: "write the day with its dashes: 2026-12-07"),
        Case(name: "yaml syntax", rule: "yaml/syntax", yaml: head + "    resumes: [1\n1️⃣", message: "YAML syntax error"),
        // cli.md r2: a key valid in another block says which block it belongs to.
        Case(name: "network key at the top", rule: "schema/unknown-key", yaml: head + "1️⃣load_time: 2s\n", message: "put it under the top-level `network:` block"),
        Case(name: "network key in a segment", rule: "schema/unknown-key", yaml: head + "    1️⃣fill_rate: 0.5\n", message: "put it under the top-level `network:` block"),
        Case(name: "segment key at the top", rule: "schema/unknown-key", yaml: head + "1️⃣premium: 0.5\n", message: "indent it under a segment in `segments:`"),
        Case(name: "top-level key in a segment", rule: "schema/unknown-key", yaml: head + "    1️⃣users: 10\n", message: "a top-level setting of the model"),
        Case(name: "rewarded key in a segment", rule: "schema/unknown-key", yaml: head + "    1️⃣accept: 0.3\n", message: "belongs in an entry of `actions:` or `rewarded:`"),
        Case(name: "a segment named true", rule: "schema/type", yaml: "version: 1\nsegments:\n  - name: 1️⃣true\n    share: 1\n", message: "quote a name that is a number or true/false"),
        Case(name: "a segment named 12", rule: "schema/type", yaml: "version: 1\nsegments:\n  - name: 1️⃣12\n    share: 1\n", message: "a name, such as casual"),
        Case(name: "segment key in an action", rule: "schema/unknown-key", yaml: head + "    actions: [{placement: p, every: 1m, 1️⃣share: 1}]\n", message: "write it beside `actions:` or `rewarded:`"),
        // A range written with its ends named, and a decimal comma.
        Case(name: "a range as min and max", rule: "schema/type", yaml: head + "    installed_days_ago: 1️⃣{min: 0, max: 60}\n", message: "a value drawn between them is written {uniform: [0, 60]}"),
        Case(name: "an attribute range as min and max", rule: "schema/type", yaml: head + "    attributes: {level: 1️⃣{min: 1, max: 40}}\n", message: "attribute level gives two ends, which is no distribution here: a value drawn between them is written {uniform: [1, 40]}"),
        Case(name: "a decimal comma", rule: "schema/type", yaml: "version: 1\nsegments:\n  - name: all\n    share: 1️⃣0,6\n", message: "a decimal takes a point: write 0.6"),
        Case(name: "uniform ends reversed", rule: "schema/range", yaml: head + "    resumes: {uniform: 1️⃣[9, 2]}\n", message: "resumes.uniform must be [low, high] with low <= high, not [9, 2], whose low end is higher: write [2, 9]"),
        // Ends out of order, or that would not read back, and thousands, are not advised so.
        Case(name: "a range with its ends reversed", rule: "schema/unknown-key", yaml: head + "    installed_days_ago: {1️⃣min: 60, max: 0}\n", message: "the keys here are uniform, poisson, exponential"),
        Case(name: "a range of durations", rule: "schema/type", yaml: head + "    foreground: 1️⃣{min: 1m, max: 10m}\n", message: "a value drawn between them is written {uniform: [1m, 10m]}"),
        Case(name: "durations reversed", rule: "schema/unknown-key", yaml: head + "    foreground: {1️⃣min: 10m, max: 1m}\n", message: "the keys here are uniform, poisson, exponential"),
        Case(name: "numbers for a duration", rule: "schema/type", yaml: head + "    foreground: 1️⃣{min: 1, max: 10}\n", message: "a value drawn between them is written {uniform: [1, 10]}"),
        Case(name: "durations for a count", rule: "schema/unknown-key", yaml: head + "    installed_days_ago: {1️⃣min: 1m, max: 2m}\n", message: "the keys here are uniform, poisson, exponential"),
        Case(name: "an attribute range of words", rule: "schema/unknown-key", yaml: head + "    attributes: {level: {1️⃣min: a, max: b}}\n", message: "the keys here are uniform"),
        Case(name: "a number and a duration", rule: "schema/unknown-key", yaml: head + "    attributes: {level: {1️⃣min: 1, max: 10m}}\n", message: "the keys here are uniform"),
        Case(name: "thousands with a comma", rule: "schema/type", yaml: "version: 1\nsegments:\n  - name: all\n    share: 1️⃣1,000\n", message: "share must be a number, not \"1,000\""),
        Case(name: "a number too close to 0", rule: "schema/type", yaml: "version: 1\nsegments:\n  - name: all\n    share: 1\n    premium: 1️⃣1e-400\n",
             message: "premium must be a number a double can tell from 0 (about 5e-324 or larger), or 0, not \"1e-400\""),
        // A share is above 0: it is not told 0 would do.
        Case(name: "a share too close to 0", rule: "schema/type", yaml: "version: 1\nsegments:\n  - name: all\n    share: 1️⃣1e-400\n",
             message: "share must be a number a double can tell from 0 (about 5e-324 or larger), not \"1e-400\""),
        // Segments keyed by name, as a rule file keys its placements.
        Case(name: "segments keyed by name", rule: "schema/type", yaml: "version: 1\nsegments:\n  1️⃣casual:\n    share: 1\n", message: "write each segment as a list item with its name, `- name: casual` in place of `casual:`"),
    ]

    /// A key glued to its value in an action (`placement:level_end`) is one finding, not also "has no placement".
    @Test func aGluedKeyInAnActionIsOneFinding() {
        let (_, diagnostics) = ModelDecoder.decode(Self.head + "    actions: [{placement:level_end, every: 1m}]\n", file: "m.model.yaml")
        #expect(diagnostics.map(\.message) == [
            "unknown key \"placement:level_end\" in an action: YAML reads a key only with a space after its colon: write placement: level_end",
        ])
    }

    /// A required key misspelt is told "did you mean" where it stands, and its block is not also told it lacks the key.
    @Test(arguments: [
        ("version: 1\nsegment:\n  - {name: a, share: 1}\n", "unknown key \"segment\" in the usage model: did you mean \"segments\"?"),
        ("version: 1\nsegments:\n  - {nam: a, share: 1}\n", "unknown key \"nam\" in a segment: did you mean \"name\"?"),
        ("version: 1\nsegments:\n  - {name: a, shares: 1}\n", "unknown key \"shares\" in a segment: did you mean \"share\"?"),
        ("version: 1\nsegments:\n  - {name: a, share: 1, actions: [{placement: p, evry: 1m}]}\n", "unknown key \"evry\" in an action: did you mean \"every\"?"),
    ])
    func aMisspeltRequiredKeyIsOneFinding(_ yaml: String, _ message: String) {
        let (_, diagnostics) = ModelDecoder.decode(yaml, file: "m.model.yaml")
        #expect(diagnostics.map(\.message) == [message])
    }

    /// A key told where it belongs (`start`, a top-level setting, in a segment) was no misspelling of `share`: the segment
    /// is still told it has no share.
    @Test func aRelocatedKeyLeavesTheMissingKeyToldToo() {
        let (_, diagnostics) = ModelDecoder.decode("version: 1\nsegments:\n  - name: casual\n    start: 2026-12-07\n", file: "m.model.yaml")
        #expect(diagnostics.map(\.rule).sorted() == ["schema/missing-key", "schema/unknown-key"], "\(diagnostics)")
    }

    @Test(arguments: cases) func reportsTheRuleAtItsPosition(_ c: Case) throws {
        let marked = MarkedText(c.yaml)
        let (model, diagnostics) = ModelDecoder.decode(marked.text, file: "m.model.yaml")
        #expect(model == nil)
        let found = try #require(diagnostics.first { $0.rule == c.rule }, "no \(c.rule) in \(diagnostics)")
        #expect(found.range.start == marked["1️⃣"], "\(found)")
        #expect(found.message.contains(c.message), "\(found.message)")
        #expect(found.file == "m.model.yaml")
    }

    /// The last segment's share that would make the shares add up is offered only when there is one: not when the
    /// others already pass 1, nor for a last segment with no share.
    @Test func sharesThatNoLastShareMends() throws {
        for yaml in [
            "version: 1\nsegments:\n  - {name: a, share: 0.7}\n  - {name: b, share: 0.6}\n  - {name: c, share: 0.1}\n",
            "version: 1\nsegments:\n  - {name: a, share: 1}\n  - {name: b, share: 0.2}\n",
        ] {
            let (_, diagnostics) = ModelDecoder.decode(yaml, file: "m.model.yaml")
            let found = try #require(diagnostics.first { $0.rule == "model/shares" }, "\(diagnostics)")
            #expect(found.message.hasSuffix(", not 1: make them add up to 1"), "\(found.message)")
        }
    }

    /// A segment with an error of its own (a misspelt time zone) still has the name and share its author wrote: one
    /// run reports a repeated name and shares that do not add up beside it, rather than one fix at a time.
    @Test func aSegmentWithAnErrorStillCountsForSharesAndNames() throws {
        let marked = MarkedText("""
            version: 1
            segments:
              3️⃣- name: 1️⃣casual
                share: 0.5
                timezone: 2️⃣Europe/Berln
              - name: 4️⃣casual
                share: 0.4
            """)
        let (model, diagnostics) = ModelDecoder.decode(marked.text, file: "m.model.yaml")
        #expect(model == nil)
        let found = diagnostics.map { "\($0.rule)@\($0.range.start.line):\($0.range.start.column)" }.sorted()
        let expected = [("policy/timezone", "2️⃣"), ("model/shares", "3️⃣"), ("model/duplicate-segment", "4️⃣")].map { rule, mark in
            "\(rule)@\(marked[mark]?.line ?? 0):\(marked[mark]?.column ?? 0)"
        }
        #expect(found == expected.sorted(), "\(diagnostics)")
        #expect(diagnostics.first { $0.rule == "model/duplicate-segment" }?.notes.first?.position == marked["1️⃣"])
    }

    /// A model's numbers are read as the core schema reads them, as rule files read theirs: hex and octal whole
    /// numbers are numbers, and a float too small for a double is refused rather than read as 0.
    @Test func modelNumbersAreCoreSchemaNumbers() throws {
        for (line, refused) in [("    premium: 1e-400\n", true), ("    cold_starts: {poisson: 1e-400}\n", true), ("    premium: 0x1p3\n", true),
                                ("    premium: 0x0\n", false), ("    cold_starts: {poisson: 0o3}\n", false), ("    premium: .5\n", false)] {
            let (model, diagnostics) = ModelDecoder.decode(Self.head + line, file: "m.model.yaml")
            #expect((model == nil) == refused, "\(line): \(diagnostics)")
        }
    }

    /// A duration a usage model's key takes is told its form, within what the key takes; a segment named with what
    /// YAML reads as a number (`.inf`) is refused as a number is.
    @Test func modelDurationsAndNamesFollowTheRuleFiles() throws {
        let foreground = ModelDecoder.decode(Self.head + "    foreground: \"30\"\n", file: "m.model.yaml").diagnostics.first?.message ?? ""
        #expect(foreground.hasSuffix(": a bare number has no unit: write 30s or 30m"), "\(foreground)")
        let open = ModelDecoder.decode(Self.head + "    first_open: 7h 30m\n", file: "m.model.yaml").diagnostics.first?.message ?? ""
        #expect(open.hasSuffix(": write 7h30m"), "\(open)")
        let name = ModelDecoder.decode("version: 1\nsegments:\n  - name: .inf\n    share: 1\n", file: "m.model.yaml").diagnostics
        #expect(name.contains { $0.rule == "schema/type" && $0.message.contains("quote a name that is a number") }, "\(name)")
    }

    /// A day always has its first cold start: `cold_starts` that is always 0 is played as 1, with a warning; one
    /// that is only sometimes 0 is not flagged.
    @Test(arguments: ["0", "{poisson: 0}", "{uniform: [0, 0]}"]) func noColdStartIsAWarning(_ value: String) throws {
        let marked = MarkedText(Self.head + "    cold_starts: 1️⃣\(value)\n")
        let (model, diagnostics) = ModelDecoder.decode(marked.text, file: "m.model.yaml")
        #expect(model != nil)
        let found = try #require(diagnostics.first { $0.rule == "model/cold-starts" }, "\(diagnostics)")
        #expect(found.severity == .warning && found.range.start == marked["1️⃣"])
        #expect(found.message.hasPrefix("cold_starts is always 0 here, and every simulated day starts with a cold start, so it is played as 1"))
        #expect(ModelDecoder.decode(Self.head + "    cold_starts: {poisson: 0.5}\n", file: "m.model.yaml").diagnostics.isEmpty)
    }

    /// A segment's name is a string field: a plain `no` is read as the text "no", with the warning a rule file's
    /// string fields get (many YAML tools read it as false).
    @Test func aPlainNoAsASegmentNameIsAWarning() throws {
        let marked = MarkedText("version: 1\nsegments:\n  - name: 1️⃣no\n    share: 1\n")
        let (model, diagnostics) = ModelDecoder.decode(marked.text, file: "m.model.yaml")
        #expect(model?.segments.first?.name == "no")
        let found = try #require(diagnostics.first { $0.rule == "yaml/ambiguous-bool" }, "\(diagnostics)")
        #expect(found.severity == .warning)
        #expect(found.range.start == marked["1️⃣"])
        #expect(found.message.contains("quote it (\"no\")"), "\(found.message)")
    }

    /// A model has the limit of findings a rule file has: a hostile one cannot flood a CI log.
    /// A share's range reads the same whether it is below 0 or 0 itself (it said "from 0 to 1" for -1, then refused 0).
    @Test func aShareIsAboveZero() {
        for share in ["-1", "0", "1.5"] {
            let text = "version: 1\nsegments:\n  - {name: a, share: \(share)}\n"
            let (_, diagnostics) = ModelDecoder.decode(text, file: "m.model.yaml")
            #expect(diagnostics.contains { $0.message.contains("above 0 and at most 1") }, "\(share): \(diagnostics)")
            #expect(!diagnostics.contains { $0.message.contains("from 0 to 1") }, "\(share)")
        }
    }

    @Test func aFloodOfFindingsIsCapped() {
        // 20 segments of 60 actions, each with an unknown key: 1,200 findings.
        var text = "version: 1\nsegments:\n"
        for s in 0..<20 {
            text += "  - name: s\(s)\n    share: 0.05\n    actions:\n"
            for _ in 0..<60 { text += "      - {placement: p, every: 1m, x: 1}\n" }
        }
        let (model, diagnostics) = ModelDecoder.decode(text, file: "m.model.yaml")
        #expect(model == nil)
        #expect(diagnostics.count == 1_001, "\(diagnostics.count)")
        let summary = diagnostics.first { $0.rule == "lint/too-many-findings" }
        #expect(summary?.severity == .error)
        #expect(summary?.message.hasPrefix("200 more findings in this file are not shown") == true, "\(String(describing: summary))")
    }

    @Test func theShippedModelIsClean() throws {
        let path = packageRoot() + "/rules/usage.model.yaml"
        let policy = try Policy(contentsOf: packageRoot() + "/rules")
        let (model, diagnostics) = ModelDecoder.decode(String(decoding: try PolicyLoader.readBytes(path), as: UTF8.self), file: path)
        #expect(diagnostics.isEmpty)
        let decoded = try #require(model)
        #expect(ModelCheck.check(decoded, against: policy, name: "rules", role: .current).isEmpty)
        #expect(decoded.segments.map(\.name) == ["casual", "heavy", "new"])
    }

    /// A user-day's work is bounded by what the policy makes each ask and show cost: 1,000 groups of 64 windows and
    /// a level end every 9 s all day made one user-day take 34 s.
    @Test func aUserDayOfTooMuchWorkIsRefused() throws {
        let path = packageRoot() + "/rules/usage.model.yaml"
        let (shipped, _) = ModelDecoder.decode(String(decoding: try PolicyLoader.readBytes(path), as: UTF8.self), file: path)
        let rules = try Policy(contentsOf: packageRoot() + "/rules")
        let segments = try #require(shipped).segments
        let askWork = ModelCheck.askWork(of: segments, policy: rules)
        let heaviest = segments.map { ModelCheck.work(of: $0, policy: rules, askWork: askWork).total }.max() ?? 0
        #expect(heaviest > 1_000 && heaviest < 100_000, "\(heaviest)")
        let windows = (1...64).map { "{max: \(1000 + $0), window: \($0)h}" }.joined(separator: ", ")
        let groups = (0..<1000).map { "  g\($0): {placements: [level_end], caps: [\(windows)]}\n" }.joined()
        let policy = try Policy(yaml: "version: 1\nplacements:\n  level_end: {format: interstitial}\ngroups:\n" + groups, file: "p.yaml")
        let text = """
            version: 1
            segments:
              - name: all
                share: 1
                first_open: 0s
                foreground: 24h
                actions: [{placement: level_end, every: 9s}]
            network: {load_time: 2s}
            """
        let model = try #require(ModelDecoder.decode(text, file: "m.model.yaml").model)
        let found = ModelCheck.check(model, against: policy, name: "p", role: .current).filter { $0.rule == "schema/range" }
        // 9,600 shows a day, each asked of 1,000 groups of 65 caps (16 steps each: 1,040,000, and one fullscreen
        // placement to look at) twice (the show and the reload), and filling their histories (1 + 1,000 + (1,065 +
        // 1,000 x 1,066) / 16 = 67,692: a history keeps one more than the largest cap, a group its cap and one more
        // than its one member): about 20,618 million steps.
        #expect(found.map(\.message) == [
            "a user-day of segment all would take about 20618 million steps of the policy's rules and caps, more than the 50 million a simulation plays: write fewer visits (cold_starts, resumes), longer gaps (every), fewer streams, shorter visits or shorter attribute lists, or preview a policy with fewer placements, groups, window caps or rules per placement",
        ])
        // (Filling histories of about 1,065 shows is 3% of that estimate: the cap is not named.)
        #expect(found.first?.range.start.line == 3)
        // Caps of 100,000 make every history count 100,000 shows: the message names it (nothing else pointed at it).
        let bigCap = try Policy(
            yaml: "version: 1\nplacements:\n  p0: {format: interstitial, daily_cap: 100000}\ngroups:\n"
                + (1...3).map { "  g\($0): {placements: [p0], daily_cap: 100000}\n" }.joined(), file: "p.yaml")
        let busy = try #require(ModelDecoder.decode(
            "version: 1\nsegments:\n  - {name: all, share: 1, cold_starts: 2, resumes: 6, foreground: 5m, actions: [{placement: p0, every: 1s}]}\nnetwork: {load_time: 2s}\n",
            file: "m.model.yaml").model)
        let capFound = ModelCheck.check(busy, against: bigCap, name: "p", role: .current).filter { $0.rule == "schema/range" }
        #expect(capFound.count == 1 && capFound.allSatisfy { $0.message.hasSuffix("histories of 100001 shows, one more than the policy's largest cap: a cap that high makes the estimate large") }, "\(capFound)")
        // Each ask looks at every fullscreen placement: 10,000 app-open placements and 130 resumes a day took 32 s.
        let appOpen = try Policy(
            yaml: "version: 1\nplacements:\n" + (0..<10_000).map { "  ao\($0): {format: app_open, min_interval: 1s}\n" }.joined(), file: "p.yaml")
        let resumes = try #require(ModelDecoder.decode(
            "version: 1\nsegments:\n  - {name: all, share: 1, first_open: 8h, resumes: 130, foreground: 10s}\nnetwork: {load_time: 2s}\n",
            file: "m.model.yaml").model)
        #expect(ModelCheck.check(resumes, against: appOpen, name: "p", role: .current).contains { $0.rule == "schema/range" })
    }

    /// A list attribute's strings count by their length in a user-day's work, as in scenario files (1 + bytes / 32
    /// steps an item outside ASCII, else 1 + bytes / 256): once a user-day, when its context is prepared, for a
    /// condition that reads attributes only, which an ask then reads in one step; on every ask for one that reads a
    /// built-in too.
    @Test func longStringsInAModelsListCountByTheirLength() throws {
        let policy = try Policy(
            yaml: "version: 1\nattributes:\n  tags: \"[string]\"\nplacements:\n  it: {format: interstitial, min_interval: 1m}\n"
                + "rules:\n  - {id: r, deny: [it], when: \"\\\"x\\\" in tags\"}\n"
                + "  - {id: s, deny: [it], when: \"\\\"y\\\" in tags and session.count > 1\"}\n", file: "p.yaml")
        func work(_ item: String) throws -> (ask: Int, prepared: Int) {
            let tags = Array(repeating: item, count: 1000).joined(separator: ", ")
            let text = "version: 1\nsegments:\n  - {name: all, share: 1, attributes: {tags: [\(tags)]}, actions: [{placement: it, every: 1m}]}\nnetwork: {load_time: 2s}\n"
            let (model, found) = ModelDecoder.decode(text, file: "m.model.yaml")
            #expect(found.isEmpty, "\(found)")
            let segments = try #require(model).segments
            return (ModelCheck.askWork(of: segments, policy: policy)(0), ModelCheck.preparedContextWork(of: segments, policy: policy))
        }
        // Composed, 601 bytes an item (1 + 601 / 32 = 19 steps); 901 bytes of ASCII, 1 + 901 / 256 = 4.
        let accented = try work("x" + String(repeating: "e\u{301}", count: 300))
        let plain = try work("x" + String(repeating: "e", count: 900))
        // Both rules' lists once a user-day; an ask reads each `in` in one step.
        #expect(accented.prepared - plain.prepared == 2 * 1000 * (19 - 4), "\(accented) \(plain)")
        #expect(accented.ask == plain.ask, "\(accented) \(plain)")
    }

    /// Strings compared count by the length read: as far as the shorter of the two goes, for `==` and for each item
    /// of a constant list, with the longest value the asks give an attribute (1,000 rules of `s == "…"` against a long
    /// accented value took 3.5 ms an ask, counted as 4 steps a rule).
    @Test func stringsComparedCountByTheLengthRead() throws {
        let long = "x" + String(repeating: "e\u{301}", count: 300)  // composed, 601 bytes: 18 steps beyond the one
        let policy = try Policy(
            yaml: "version: 1\nattributes:\n  s: string\nplacements:\n  it: {format: interstitial, min_interval: 1m}\nrules:\n"
                + "  - {id: eq, deny: [it], when: \"s == \\\"\(long)\\\"\"}\n"
                + "  - {id: in, deny: [it], when: \"s in [\\\"\(long)\\\", \\\"short\\\"]\"}\n", file: "p.yaml")
        let short = policy.ruleWork(listLength: { _ in 0 }, stringLength: { _ in 0 })(0)
        let longValue = policy.ruleWork(listLength: { _ in 0 }, stringLength: { _ in 56 })(0)
        // `==` reads the constant's 18 more, and the list's long item 18 more (its short one no further than 5 bytes).
        #expect(longValue - short == 18 + 18, "\(short) \(longValue)")
        let tiny = policy.ruleWork(listLength: { _ in 0 }, stringLength: { _ in 3 })(0)
        #expect(tiny - short == 3 + 3, "as far as the shorter goes: \(tiny)")
        // Two lists compared read each item of both.
        let lists = try Policy(
            yaml: "version: 1\nattributes:\n  a: \"[string]\"\n  b: \"[string]\"\nplacements:\n  it: {format: interstitial, min_interval: 1m}\n"
                + "rules:\n  - {id: eq, deny: [it], when: \"a == b\"}\n", file: "p.yaml")
        let empty = lists.ruleWork(listLength: { _ in 0 })(0)
        #expect(lists.ruleWork(listLength: { $0 == "a" ? 700 : 300 })(0) - empty == 1000)
        // Composed when read: a decomposed constant equals the composed value an app gives, as before.
        let accented = try Policy(
            yaml: "version: 1\nattributes:\n  s: string\nplacements:\n  it: {format: interstitial, min_interval: 1m}\n"
                + "rules:\n  - {id: r, deny: [it], when: \"s == \\\"caf\u{65}\u{301}\\\"\"}\n", file: "p.yaml")
        var facts = Facts(policy: accented, installedAt: 0)
        facts.apply(.loadCompleted("it"), at: 1000, policy: accented)
        let decision = Evaluator.decide(
            .show("it", trigger: .action), context: AskContext(attributes: ["s": .string("caf\u{e9}")]), policy: accented, facts: facts, now: 2000)
        #expect(decision.reasons.map(\.code) == [.customRule], "\(decision.reasons)")
    }

    static let policyText = """
        version: 1
        placements:
          app_open: {format: app_open, daily_cap: 4}
          level_end: {format: interstitial, min_interval: 1m}
          banner_home: {format: banner}
        attributes:
          level: int
        """

    /// A model's size is bounded where the work grows with it unseen: segments are planned for every day, and each
    /// stream is drawn all through every visit.
    @Test func segmentsAndStreamsHaveALimit() {
        let segments = "version: 1\nsegments:\n" + (0..<1001).map { "  - {name: s\($0), share: 0.000999000999}\n" }.joined()
        #expect(ModelDecoder.decode(segments, file: "m.model.yaml").diagnostics.contains { $0.rule == "schema/range" && $0.message == "segments must be a list of at most 1000 segments, not 1001 segments" })
        let streams = Self.head + "    actions:\n" + (0..<65).map { _ in "      - {placement: a, every: 1m}\n" }.joined()
        #expect(ModelDecoder.decode(streams, file: "m.model.yaml").diagnostics.contains { $0.message == "actions must be a list of at most 64 streams, not 65 streams" })
    }

    /// A model may share values through anchors and aliases; an alias of no anchor is one finding, with no type error
    /// beside it at the same place, and a value copied by aliases is reported once.
    @Test func aliasesInAModel() {
        let shared = """
            version: 1
            segments:
              - {name: a, share: 0.5, timezone: &zone Europe/Berlin, foreground: &visit {exponential: 5m}}
              - {name: b, share: 0.5, timezone: *zone, foreground: *visit}
            network: {load_time: 2s}
            """
        let (model, found) = ModelDecoder.decode(shared, file: "m.model.yaml")
        #expect(found.isEmpty, "\(found)")
        #expect(model?.segments.map(\.timeZone) == ["Europe/Berlin", "Europe/Berlin"])
        let broken = """
            version: 1
            segments:
              - {name: a, share: 0.5, timezone: *nope, premium: &p 2}
              - {name: b, share: 0.5, premium: *p}
            network: {load_time: 2s}
            """
        let (_, problems) = ModelDecoder.decode(broken, file: "m.model.yaml")
        #expect(problems.filter { $0.range.start.line == 3 }.map(\.rule) == ["yaml/alias", "schema/range"], "\(problems)")
        #expect(problems.filter { $0.range.start.line == 4 }.map(\.rule) == ["schema/range"], "the copy is reported at the alias: \(problems)")
    }

    /// yes/no/on/off in a model's attributes: an error where the policy declares a bool, a warning in a string.
    @Test func ambiguousBoolsInAttributesAreFlaggedAsInRuleFiles() throws {
        let marked = MarkedText("""
            version: 1
            segments:
              - name: all
                share: 1
                attributes: {screen: 1️⃣on, onboarding: 2️⃣no}
            """)
        let model = try #require(ModelDecoder.decode(marked.text, file: "m.model.yaml").model)
        let policy = try Policy(yaml: "version: 1\nplacements: {a: {format: banner}}\nattributes: {screen: string, onboarding: bool}\n", file: "p.yaml")
        let found = ModelCheck.check(model, against: policy, name: "rules", role: .current).filter { $0.rule == "yaml/ambiguous-bool" }
        #expect(found.map(\.severity) == [.warning, .error], "\(found)")
        #expect(found.map(\.range.start) == [marked["1️⃣"], marked["2️⃣"]])
        #expect(found.last?.message.contains("write true or false") == true)
    }

    /// A duration attribute holds at most 366d, as a rule file or a scenario context does.
    @Test func durationAttributesAreRangeChecked() throws {
        let marked = MarkedText("version: 1\nsegments:\n  - name: all\n    share: 1\n    attributes: {wait: 1️⃣400d, pause: 2m}\n")
        let model = try #require(ModelDecoder.decode(marked.text, file: "m.model.yaml").model)
        let policy = try Policy(yaml: "version: 1\nplacements: {a: {format: banner}}\nattributes: {wait: duration, pause: duration}\n", file: "p.yaml")
        let found = ModelCheck.check(model, against: policy, name: "rules", role: .current)
        #expect(found.filter { $0.severity == .error }.map(\.rule) == ["schema/range"], "\(found)")
        #expect(found.first?.range.start == marked["1️⃣"])
        #expect(found.first?.message.contains("at most 366d") == true, "\(found)")
    }

    /// A placement the model plays that the old policy of a comparison lacks is reported for it too, so it counts
    /// toward the report's blocks: a run is refused before it plays rather than writing parts a merge refuses.
    @Test func placementsThePolicyLacksCountTowardTheReportSize() throws {
        let placements = (0..<5000).map { "  p\($0): {format: banner}" }.joined(separator: "\n")
        let policy = try Policy(yaml: "version: 1\nplacements:\n" + placements + "\n", file: "p.yaml")
        func segments(_ placement: String) throws -> UsageModel {
            try #require(ModelDecoder.decode("""
                version: 1
                segments:
                  - {name: a, share: 0.5, actions: [{placement: \(placement), every: 1m}]}
                  - {name: b, share: 0.5, actions: [{placement: \(placement), every: 1m}]}
                """, file: "m.model.yaml").model)
        }
        // 2 segments x 5,000 placements: exactly the limit.
        #expect(!ModelCheck.check(try segments("p1"), against: policy, name: "old", role: .old).contains { $0.rule == "schema/range" })
        let lacking = ModelCheck.check(try segments("fresh"), against: policy, name: "old", role: .old)
        #expect(lacking.first { $0.rule == "schema/range" }?.message.contains("2 segments x 5001 placements") == true, "\(lacking)")
    }

    /// A placement played where its policy denies what the play is for is a warning at the model's line: a rewarded
    /// placement as an action (each show denied: no choice), an interstitial or banner offered as rewarded (any reward
    /// denied).
    @Test func aPlacementPlayedAgainstItsFormatIsAWarning() throws {
        let marked = MarkedText("""
            version: 1
            segments:
              - name: all
                share: 1
                actions:
                  - {placement: 1️⃣hint, every: 1m}
                  - {placement: 2️⃣level_end, every: 1m}
                  - {placement: 3️⃣free_hint, every: 1m}
                rewarded:
                  - {placement: 4️⃣level_end, every: 1m, accept: 1}
                  - {placement: 5️⃣hint, every: 1m, accept: 1}
                  - {placement: 6️⃣banner_home, every: 1m, accept: 1}
            """)
        let model = try #require(ModelDecoder.decode(marked.text, file: "m.model.yaml").model)
        let policy = try Policy(yaml: """
            version: 1
            placements:
              hint: {format: rewarded}
              free_hint: {format: rewarded_interstitial}
              level_end: {format: interstitial, min_interval: 1m}
              banner_home: {format: banner}
            """, file: "p.yaml")
        let found = ModelCheck.check(model, against: policy, name: "rules", role: .current).filter { $0.rule == "model/placement-format" }
        #expect(found.map(\.range.start) == [marked["1️⃣"], marked["4️⃣"], marked["6️⃣"]], "\(found)")
        #expect(found.allSatisfy { $0.severity == .warning })
        #expect(found.first?.message == "placement hint requires the user's choice (require_user_choice), which an action never gives, so each of its shows is denied no_user_choice: list it under rewarded, where the user accepts an offer")
        #expect(found.last?.message == "placement banner_home is banner, so any reward after an accepted offer is denied not_rewarded_format: offers are for rewarded and rewarded_interstitial placements; list it under actions")
        let old = ModelCheck.check(model, against: policy, name: "old", role: .old).filter { $0.rule == "model/placement-format" }
        #expect(old.count == 3 && old.allSatisfy { $0.message.hasSuffix(" (in the --compare policy old)") }, "\(old)")
    }

    /// Under --compare, what the policy under --rules cannot play but the other policy plays is the change under study, a
    /// warning: a placement it removes (asks denied unknown_placement), or one it made app-open (asks denied
    /// trigger_not_supported). What neither plays stays an error.
    @Test func whatOnlyTheComparedPolicyPlaysIsAWarning() throws {
        let model = try #require(ModelDecoder.decode("""
            version: 1
            segments:
              - {name: all, share: 1, actions: [{placement: level_end, every: 1m}, {placement: bonus, every: 1m}]}
            """, file: "m.model.yaml").model)
        let old = try Policy(yaml: "version: 1\nplacements:\n  level_end: {format: interstitial, min_interval: 1m}\n", file: "old.yaml")
        let new = try Policy(yaml: "version: 1\nplacements:\n  level_end: {format: app_open, min_interval: 1m}\n", file: "new.yaml")
        let none = try Policy(yaml: "version: 1\nplacements:\n  other: {format: interstitial, min_interval: 1m}\n", file: "none.yaml")
        func severities(_ policy: Policy, comparedWith other: Policy?) -> [String: Severity] {
            let found = ModelCheck.check(
                model, against: policy, name: "new", role: .current, comparedWith: other.map { NamedPolicy(name: "old", policy: $0, written: [:]) })
            return Dictionary(found.filter { $0.rule != "model/unused-placement" }.map { ($0.rule, $0.severity) }) { a, _ in a }
        }
        // Alone, both are errors: an app-open placement in actions, and a placement the policy lacks.
        #expect(severities(new, comparedWith: nil) == ["model/placement-format": .error, "policy/unknown-placement": .error])
        // Against the old policy, level_end (an interstitial there) is a change of format; bonus is in neither.
        #expect(severities(new, comparedWith: old) == ["model/placement-format": .warning, "policy/unknown-placement": .error])
        let removed = ModelCheck.check(model, against: none, name: "new", role: .current, comparedWith: NamedPolicy(name: "old", policy: old, written: [:]))
        #expect(removed.first { $0.message.contains("\"level_end\"") }?.severity == .warning, "\(removed)")
        #expect(removed.first { $0.message.contains("\"level_end\"") }?.message.hasSuffix("(the --compare policy old does): its asks are denied unknown_placement") == true)
        #expect(removed.first { $0.message.contains("\"bonus\"") }?.severity == .error)
    }

    /// `timezone: EST` is a fixed offset with no daylight saving: a warning names the region's zone; a region's zone
    /// and a fixed zone named as one (`America/Panama`) get none.
    @Test func aFixedOffsetZoneNameIsAWarning() {
        func found(_ zone: String) -> [Diagnostic] {
            ModelDecoder.decode("version: 1\nsegments:\n  - {name: a, share: 1, timezone: \(zone)}\n", file: "m.model.yaml").diagnostics
        }
        let est = found("EST")
        #expect(est.map(\.rule) == ["model/fixed-offset-zone"] && est.first?.severity == .warning, "\(est)")
        #expect(est.first?.message == "EST is the fixed offset UTC-05:00, with no daylight saving, so its users are played an hour off in summer: write America/New_York (or America/Panama, a place that keeps UTC-05:00 all year)")
        #expect(found("America/New_York").isEmpty && found("America/Panama").isEmpty && found("MST").first?.message.contains("America/Denver") == true)
    }

    /// A `start` day a segment's zone skipped (Samoa crossed the date line: 2011-12-29, then 2011-12-31) is a warning
    /// that names the day its users are played from, once a zone; the day before and after, and zones that had the day,
    /// get none.
    @Test func aStartDayTheZoneSkippedIsAWarning() {
        func found(_ start: String, _ zones: [String]) -> [Diagnostic] {
            let segments = zones.enumerated().map { "  - {name: s\($0.offset), share: \(1.0 / Double(zones.count)), timezone: \($0.element)}\n" }
            return ModelDecoder.decode("version: 1\nstart: \(start)\nsegments:\n" + segments.joined(), file: "m.model.yaml").diagnostics
        }
        let skipped = found("2011-12-30", ["Pacific/Apia", "Europe/Paris", "Pacific/Apia"])
        #expect(skipped.map(\.rule) == ["model/skipped-start"] && skipped.first?.severity == .warning, "\(skipped)")
        #expect(skipped.first?.message == "start: 2011-12-30 is no day in Pacific/Apia (its clocks skipped it), so the users of segments s0, s2 are played from 2011-12-31: write start: 2011-12-31, or another day")
        #expect(skipped.first?.range.start.line == 2 && skipped.first?.range.start.column == 8)
        #expect(found("2011-12-29", ["Pacific/Apia"]).isEmpty && found("2011-12-31", ["Pacific/Apia"]).isEmpty)
        #expect(found("2011-12-30", ["Europe/Paris", "UTC"]).isEmpty)
        // A day whose midnight alone is skipped (São Paulo began daylight saving at 00:00) is a day the zone has.
        #expect(found("2018-11-04", ["America/Sao_Paulo"]).isEmpty)
        #expect(CalendarDate(year: 2011, month: 12, day: 30).dayPlayed(in: TimeZone(identifier: "Pacific/Apia")!) == CalendarDate(year: 2011, month: 12, day: 31))
    }

    /// A time of day as a clock shows it is told its hours and minutes with units.
    @Test(arguments: [("8pm", "20h"), ("08:00", "8h"), ("\"8:30\"", "8h30m"), ("12am", "0h"), ("8:30 PM", "20h30m")])
    func aTimeOfDayAsAClockShowsItIsToldItsUnits(_ written: String, _ meant: String) {
        let found = ModelDecoder.decode("version: 1\nsegments:\n  - {name: a, share: 1, first_open: \(written)}\n", file: "m.model.yaml").diagnostics.map(\.message)
        #expect(found.count == 1 && found.first?.hasSuffix(": a time of day is written with units: write \(meant)") == true, "\(found)")
    }

    /// A uniform draw with other than two bounds is told so, not that it is "a mapping".
    @Test func aUniformDrawNeedsTwoBounds() {
        func messages(_ value: String) -> [String] {
            ModelDecoder.decode("version: 1\nsegments:\n  - {name: a, share: 1, attributes: {level: \(value)}}\n", file: "m.model.yaml").diagnostics.map(\.message)
        }
        let percent = ModelDecoder.decode("version: 1\nsegments:\n  - {name: a, share: 1, premium: 12%}\n", file: "m.model.yaml").diagnostics.map(\.message)
        #expect(percent == [#"premium must be a number, not "12%": write it as a fraction (0.12)"#], "\(percent)")
        // A percentage without its sign is told its fraction too; a segment with no share is told what a share is.
        let whole = ModelDecoder.decode("version: 1\nsegments:\n  - {name: a, share: 1, premium: 12}\n  - {name: b}\nnetwork: {fill_rate: 95}\n", file: "m.model.yaml")
            .diagnostics.map(\.message)
        #expect(whole.contains("premium must be from 0 to 1, not 12: a fraction, not a percentage: write 0.12"), "\(whole)")
        #expect(whole.contains("fill_rate must be from 0 to 1, not 95: a fraction, not a percentage: write 0.95"), "\(whole)")
        // Just over 1 reads as no percentage: no advice to write 0.015.
        let over = ModelDecoder.decode("version: 1\nsegments:\n  - {name: a, share: 1.5}\n", file: "m.model.yaml").diagnostics.map(\.message)
        #expect(over == ["share must be above 0 and at most 1, not 1.5"], "\(over)")
        #expect(whole.contains("a segment has no share: add `share:` with the fraction of users in it (the segments' shares add up to 1), as in `share: 0.5`"), "\(whole)")
        #expect(messages("{uniform: [1, 40, 50]}") == ["attribute level must be {uniform: [low, high]}, one key with a list of two bounds, not 3 bounds"])
        #expect(messages("{uniform: 5}") == ["attribute level must be {uniform: [low, high]}, one key with a list of two bounds, not the bound 5"])
        // A share of 0% is no share: no advice to write 0, which is refused too.
        let zero = ModelDecoder.decode("version: 1\nsegments:\n  - {name: a, share: 0%}\n", file: "m.model.yaml").diagnostics.map(\.message)
        #expect(zero.contains(#"share must be a number, not "0%": write a number above 0 and at most 1"#), "\(zero)")
    }

    /// An attribute drawn `{poisson: mean}` or `{exponential: mean}` takes a mean in range; the draws are accepted.
    @Test func poissonAndExponentialAttributesTakeAMeanInRange() {
        func messages(_ value: String) -> [String] {
            ModelDecoder.decode("version: 1\nsegments:\n  - {name: a, share: 1, attributes: {level: \(value)}}\n", file: "m.model.yaml").diagnostics.map(\.message)
        }
        #expect(messages("{poisson: 3}").isEmpty)
        #expect(messages("{exponential: 20s}").isEmpty)
        #expect(messages("{poisson: 1001}") == ["level.poisson must be from 0 to 1000, not 1001"], "\(messages("{poisson: 1001}"))")
        #expect(messages("{exponential: 0s}") == ["level.exponential must be a mean of at least 1ms, not 0s"], "\(messages("{exponential: 0s}"))")
        #expect(messages("{poisson: 3, x: 1}").first?.hasPrefix("unknown key \"x\" in attribute level") == true, "\(messages("{poisson: 3, x: 1}"))")
    }

    /// A model's attribute of the wrong type is told what to write, as a scenario context is.
    @Test func attributeTypeErrorsSayWhatToWrite() throws {
        let policy = try Policy(yaml: """
            version: 1
            placements:
              a: {format: banner}
            attributes: {b: bool, i: int, n: number, s: string, d: duration, ls: "[string]", li: "[int]", lt: "[string]"}
            """, file: "p.yaml")
        let model = try #require(ModelDecoder.decode("""
            version: 1
            segments:
              - name: all
                share: 1
                attributes: {b: "true", i: 5.0, n: "2.5", s: 5, d: 10, ls: a, li: [x], lt: "it's"}
                actions: [{placement: a, every: 1m}]
            """, file: "m.model.yaml").model)
        let messages = ModelCheck.check(model, against: policy, name: "rules", role: .current).filter { $0.rule == "model/attribute-type" }.map(\.message)
        for advice in [
            "\"true\" is not one: remove the quotes (true)", "5.0 is not one: write it as a whole number (5)", "\"2.5\" is not one: remove the quotes (2.5)",
            "5 is not one: quote it (\"5\")", "10 is not one: a bare number has no unit: write 10s or 10m", "a is not one: write it as a list of one ([a])",
            #""it's" is not one: write it as a list of one (['it''s'])"#,
            "[x] is not one: write a list of whole numbers, such as [1, 2]",
        ] {
            #expect(messages.contains { $0.hasSuffix(advice) }, "\(advice): \(messages)")
        }
    }

    /// An undeclared attribute gets its finding in each segment that names it, at its place there; "did you mean" is
    /// looked for for the first ``ModelCheck/maxSuggestedNames`` names only (each search reads every declared name).
    @Test func undeclaredAttributesAreEachToldWhereTheyStand() throws {
        let names = (0...ModelCheck.maxSuggestedNames).map { "levle\($0)" }
        let attributes = names.map { "\($0): 1" }.joined(separator: ", ")
        let text = "version: 1\nsegments:\n  - {name: a, share: 0.5, attributes: {\(attributes)}}\n  - {name: b, share: 0.5, attributes: {\(attributes)}}\n"
        let model = try #require(ModelDecoder.decode(text, file: "m.model.yaml").model)
        let policy = try Policy(yaml: Self.policyText, file: "p.yaml")
        let found = ModelCheck.check(model, against: policy, name: "rules", role: .current).filter { $0.rule == "model/unknown-attribute" }
        #expect(found.count == 2 * names.count, "\(found.count)")
        #expect(Set(found.map(\.range.start.line)) == [3, 4])
        let first = try #require(found.first), last = try #require(found.last)
        #expect(first.message.contains("did you mean \"level\"?"), "\(first.message)")
        #expect(last.message.hasSuffix("check its spelling against the policy's `attributes`, declare it there, or remove it here"), "\(last.message)")
        #expect(found.filter { $0.message.contains("\"levle0\"") }.map(\.range.start.line) == [3, 4])
    }

    @Test func placementsAndAttributesAreCheckedAgainstThePolicy() throws {
        let marked = MarkedText("""
            version: 1
            1️⃣segments:
              - name: all
                share: 1
                attributes: {level: 2️⃣high, 3️⃣levle: 3}
                actions:
                  - {placement: 4️⃣level_edn, every: 1m}
                  - {placement: 5️⃣app_open, every: 1m}
            """)
        let model = try #require(ModelDecoder.decode(marked.text, file: "m.model.yaml").model)
        let policy = try Policy(yaml: Self.policyText, file: "p.yaml")
        let diagnostics = ModelCheck.check(model, against: policy, name: "rules", role: .current)
        func at(_ marker: String, _ rule: String) -> Diagnostic? {
            diagnostics.first { $0.rule == rule && $0.range.start == marked[marker] }
        }
        #expect(at("4️⃣", "policy/unknown-placement")?.message.contains("did you mean \"level_end\"?") == true)
        #expect(at("4️⃣", "policy/unknown-placement")?.severity == .error)
        #expect(at("5️⃣", "model/placement-format")?.severity == .error)
        #expect(at("2️⃣", "model/attribute-type")?.message.contains("declared int") == true)
        #expect(at("3️⃣", "model/unknown-attribute")?.severity == .warning)
        let unused = diagnostics.filter { $0.rule == "model/unused-placement" }
        #expect(unused.map(\.severity) == [.warning, .warning])
        #expect(unused.allSatisfy { $0.range.start == marked["1️⃣"] })
        #expect(unused.map { $0.notes.first?.file } == ["p.yaml", "p.yaml"])
        // Against the old policy of a comparison, an unknown placement is only a warning: it may be new.
        let old = ModelCheck.check(model, against: policy, name: "old", role: .old)
        #expect(old.first { $0.rule == "policy/unknown-placement" }?.severity == .warning)
        // An unused placement is a warning for either policy.
        #expect(old.filter { $0.rule == "model/unused-placement" }.map(\.severity) == [.warning, .warning])
    }

    @Test func anEmptyFileSaysWhatToWrite() {
        let (model, diagnostics) = ModelDecoder.decode("", file: "m.model.yaml")
        #expect(model == nil)
        #expect(diagnostics.map(\.rule) == ["schema/missing-key"])
    }

    /// One missing-attribute warning a segment, naming ten attributes and counting the others: 1,000 segments that
    /// each left out 1,000 attributes made a million warnings (1.2 GB).
    @Test func aSegmentsMissingAttributesAreOneWarning() throws {
        let attributes = (0..<12).map { "  a\($0): string\n" }.joined()
        let policy = try Policy(yaml: "version: 1\nplacements: {p: {format: interstitial}}\nattributes:\n" + attributes, file: "p.yaml")
        let model = try #require(ModelDecoder.decode("""
            version: 1
            segments:
              - {name: one, share: 0.5, attributes: {a0: x, a1: x, a2: x, a3: x, a4: x, a5: x, a6: x, a7: x, a8: x, a9: x, a10: x}, actions: [{placement: p, every: 1m}]}
              - {name: all, share: 0.5, actions: [{placement: p, every: 1m}]}
            """, file: "m.model.yaml").model)
        let found = ModelCheck.check(model, against: policy, name: "p", role: .current).filter { $0.rule == "model/missing-attribute" }
        #expect(found.map(\.message) == [
            "segment one gives no value for attribute a11, which has no default: asks of placements whose rules read it are denied rule_error",
            "segment all gives no value for attributes a0, a1, a2, a3, a4, a5, a6, a7, a8, a9 and 2 more, which have no default: asks of placements whose rules read them are denied rule_error",
        ])
        #expect(found.map(\.notes.first?.message) == ["attribute a11 is declared here", "attribute a0 is declared here"])
    }
}
