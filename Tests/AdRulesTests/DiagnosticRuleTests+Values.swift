import AdRulesTestSupport
import AdRules
import AdRulesCompiler
import AdRulesYAML
import Testing

/// Values of the wrong type or form (durations, yes/no words, ids, zones, invisible characters) and what each is told
/// to write instead.
extension DiagnosticRuleTests {
    @Test func ambiguousBoolInAStringFieldIsAWarning() throws {
        let input = MarkedText(Self.header + "  a:\n    format: banner\n    ad_unit: 1️⃣no\n")
        let d = try #require(lint(input.text).first { $0.rule == "yaml/ambiguous-bool" })
        #expect(d.severity == .warning)
        #expect(d.range.start == input["1️⃣"])
        #expect(d.message.contains("quote"))
    }

    /// Another tool's word for a key is told the key (`members:` is `placements:`), and the block is not also told it
    /// lacks that key.
    @Test func anotherToolsWordForAKeyIsToldTheKey() throws {
        let found = lint(Self.header + "  a: {format: interstitial, min_interval: 1m}\n  b:\n    type: banner\n    cooldown: 30s\n"
            + "groups:\n  g:\n    members: [a]\n    daily_cap: 3\nrules:\n  - id: r\n    deny: [a]\n    condition: premium\n")
        #expect(found.map(\.message) == [
            "unknown key \"type\" in placement \"b\": did you mean \"format\"?",
            "unknown key \"cooldown\" in placement \"b\": did you mean \"min_interval\"?",
            "unknown key \"members\" in group \"g\": did you mean \"placements\"?",
            "unknown key \"condition\" in rule \"r\": did you mean \"when\"?",
        ], "\(found)")
        // Beside the key itself, the other word is not told to be it.
        let both = lint(Self.header + "  a: {format: interstitial, min_interval: 1m}\ngroups:\n  g:\n    placements: [a]\n    members: [a]\n    daily_cap: 3\n")
        #expect(both.count == 1 && both.first?.message.contains("did you mean \"placements\"") == false, "\(both)")
    }

    /// A key both misspelt and out of its block is told the key meant and its block.
    @Test func aMisspeltKeyOfAnotherBlockIsToldItsBlock() throws {
        let found = lint("version: 1\nplacements:\n  o:\n    format: app_open\n    min_interval: 4m\n    show_if_redy: true\n    launch:\n      max_dealy: 3s\n"
            + "  i:\n    format: interstitial\n    min_interval: 1m\n    firstsessions: 1\n")
        #expect(found.map(\.message) == [
            "unknown key \"show_if_redy\" in placement \"o\": did you mean \"show_if_ready\"? It belongs in the `resume:` block of an app_open placement: write show_if_ready: indented under `resume:`",
            "unknown key \"max_dealy\" in launch: did you mean \"max_delay\"? It belongs in the `resume:` block of an app_open placement: write max_delay: indented under `resume:`",
            "unknown key \"firstsessions\" in placement \"i\": did you mean \"first_sessions\"? It belongs in the `grace:` block: write first_sessions: indented under `grace:`",
        ], "\(found)")
        // A key close to one of the placement's own is that key.
        #expect(lint("version: 1\nplacements:\n  i: {format: interstitial, min_intervl: 1m}\n").first?.message.hasSuffix("did you mean \"min_interval\"?") == true)
    }

    /// A rule's condition is a bool: a plain `when: yes` is the error yaml/ambiguous-bool gives where a bool is expected,
    /// once (it was an unknown name of the expression); quoted, or within an expression, it is a name as any other.
    @Test func anAmbiguousBoolConditionIsAnError() throws {
        let input = MarkedText(Self.header + "  a: {format: interstitial, min_interval: 1m}\nrules:\n  - {id: r, deny: [a], when: 1️⃣On}\n")
        let found = lint(input.text)
        #expect(found.map(\.rule) == ["yaml/ambiguous-bool"], "\(found)")
        #expect(found.first?.severity == .error && found.first?.range.start == input["1️⃣"])
        #expect(found.first?.message == "when: \"On\" is not a boolean in YAML 1.2: write true or false")
        let quoted = lint(Self.header + "  a: {format: interstitial, min_interval: 1m}\nrules:\n  - {id: r, deny: [a], when: \"yes\"}\n")
        #expect(quoted.map(\.rule) == ["rule/unknown-name"], "\(quoted)")
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
        // An attribute's type left out is nothing, as any enumerated value is, with an example (it was the type "").
        for written in ["s:", "s: ~", "s: {type: }"] {
            let found = lint("version: 1\nattributes:\n  \(written)\nplacements:\n  a: {format: banner}\n")
            #expect(found.map(\.rule) == ["schema/type"] && found.first?.message.hasSuffix("not nothing (null): write a type, as in screen: string") == true, "\(written): \(found)")
        }
    }

    /// A duration with its parts out of order or repeated is told the one they add up to, largest first.
    @Test(arguments: [("1h1h", "2h"), ("1m1h", "1h1m"), ("30s1m", "1m30s"), ("500ms1s", "1s500ms")])
    func aDurationOutOfOrderIsToldItsForm(_ written: String, _ meant: String) throws {
        let text = Self.header + "  a:\n    format: interstitial\n    min_interval: \(written)\n"
        let finding = try #require(lint(text).first { $0.rule == "schema/duration" })
        #expect(finding.message.hasSuffix("not \"\(written)\": write \(meant)"), "\(finding.message)")
    }

    /// An attribute's default in quotes, or a whole number written as a decimal, is told how to write it, as a cap is.
    @Test func anAttributeDefaultInQuotesIsToldToDropThem() throws {
        let found = lint("version: 1\nattributes:\n  level: {type: int, default: \"1\"}\n  score: {type: number, default: \"2.5\"}\n  lives: {type: int, default: 3.0}\n"
            + "  name: {type: int, default: abc}\nplacements:\n  i: {format: interstitial, min_interval: 1m}\n")
        #expect(found.map(\.message) == [
            "default must be a whole number, not \"1\": remove the quotes (1)", "default must be a finite number, not \"2.5\": remove the quotes (2.5)",
            "default must be a whole number, not \"3.0\": write 3", "default must be a whole number, not \"abc\"",
        ], "\(found)")
    }

    /// A default left empty or written null is told a default of its type to write, or to remove it (it had no advice).
    @Test(arguments: [("bool", "~", "false"), ("int", "null", "0"), ("number", "", "0.5"), ("string", "Null", "\"\""), ("duration", "~", "0s"), ("[int]", "null", "[]")])
    func aNullAttributeDefaultIsToldWhatToWrite(_ type: String, _ written: String, _ example: String) throws {
        let found = lint("version: 1\nattributes:\n  a:\n    type: \"\(type)\"\n    default: \(written)\nplacements:\n  i: {format: interstitial, min_interval: 1m}\n")
        let finding = try #require(found.first)
        #expect(found.map(\.rule) == ["schema/type"] && finding.range.start.line == 5 && finding.range.start.column == (written.isEmpty ? 13 : 14), "\(found)")
        #expect(finding.message.hasPrefix("default must be a value of type \(type), not nothing (null): write a default such as default: \(example), or remove default"),
                "\(finding.message)")
    }

    /// A separator left after a duration (a line copied out of a list) is told to go.
    @Test(arguments: [("30s,", "remove the comma at the end: write 30s"), ("60s;", "remove the semicolon at the end: write 60s")])
    func aSeparatorAfterADurationIsToldToGo(_ written: String, _ advice: String) throws {
        let text = Self.header + "  a:\n    format: interstitial\n    min_interval: 1m\n    grace:\n      after_session_start: \(written)\n"
        let finding = try #require(lint(text).first { $0.rule == "schema/duration" })
        #expect(finding.message.hasSuffix("not \"\(written)\": \(advice)"), "\(finding.message)")
    }

    /// A duration pasted with spaces around it in quotes, or its parts joined by a comma, a plus, a colon or an
    /// underscore, is told the duration it means (these had no advice, where `1h 30m` had).
    @Test(arguments: [
        ("\"4m \"", "remove the spaces around it: write 4m"), ("' 1h 30m'", "write 1h30m"), ("1h, 30m", "write 1h30m"),
        ("3h:30m", "write 3h30m"), ("1h+30m", "write 1h30m"), ("1m_30s", "write 1m30s"), ("\" 30\"", "write 30s or 30m"),
    ])
    func aDurationWithSpacesOrSeparatorsIsToldWhatToWrite(_ written: String, _ advice: String) throws {
        let text = Self.header + "  a:\n    format: interstitial\n    min_interval: \(written)\n"
        let finding = try #require(lint(text).first { $0.rule == "schema/duration" })
        #expect(finding.message.hasSuffix(advice), "\(finding.message)")
    }

    /// The spaces and tabs around a duration are cut by index (a text built back from its reversed characters took 3 of
    /// the 4.5 s lint spent on a value of 8 million characters, the hostile corpus's `duration-bad-17`, which times it):
    /// what is left is the duration inside, spaces within it kept, and a value of spaces alone is no duration.
    @Test(arguments: [(" 4m ", "remove the spaces around it: write 4m"), ("\t1h30m\t ", "remove the spaces around it: write 1h30m"),
                      ("  1h 30m ", "write 1h30m")])
    func theSpacesAroundADurationAreCut(_ written: String, _ advice: String) throws {
        let found = try #require(DurationAdvice.advice(for: written))
        #expect(found.hasSuffix(advice), "\(found)")
    }

    /// A key past YAML's 1024-character limit on implicit keys is named as too long, not as misplaced.
    @Test func aKeyLongerThanYAMLAllowsIsNamedSo() throws {
        let text = "version: 1\nplacements:\n  " + String(repeating: "a", count: 1030) + ":\n    format: banner\n"
        let syntax = try #require(lint(text).first { $0.rule == "yaml/syntax" })
        #expect(syntax.message.contains("a key longer than 1024 characters is not read as a key"), "\(syntax.message)")
    }

    /// In braces or brackets too (libyaml then says a comma or a closing bracket is missing, at the key's colon), plain
    /// or quoted; a mapping that is not closed is still told to close it.
    @Test func aLongKeyInBracesIsNamedSo() throws {
        let long = String(repeating: "k", count: 1100)
        for key in [long, "\"\(long)\"", "'\(long)'"] {
            for text in ["version: 1\nplacements:\n  a: {format: banner, \(key): 1}\n", "version: 1\nrules:\n  - {id: r, deny: [{\(key): 1}]}\n"] {
                let syntax = try #require(lint(text).first { $0.rule == "yaml/syntax" }, "\(text.prefix(40))")
                #expect(syntax.message.contains("a key longer than 1024 characters is not read as a key"), "\(syntax.message)")
            }
        }
        let open = try #require(lint("version: 1\nplacements:\n  a: {format: banner, daily_cap: 1\n").first { $0.rule == "yaml/syntax" })
        #expect(open.message.contains("close the { } mapping with }"), "\(open.message)")
        let short = try #require(lint("version: 1\nplacements:\n  a: {format: banner \(String(repeating: "k", count: 900)): 1}\n").first { $0.rule == "yaml/syntax" })
        #expect(!short.message.contains("a key longer than 1024"), "\(short.message)")
        // A long value with no comma after it is no long key: the mapping's entries are to be separated.
        for value in [String(repeating: "x", count: 1100), "\"\(String(repeating: "x", count: 1100))\""] {
            let text = "version: 1\nplacements:\n  a: {format: banner, ad_unit: \(value) daily_cap: 3}\n"
            let syntax = try #require(lint(text).first { $0.rule == "yaml/syntax" })
            #expect(!syntax.message.contains("a key longer than 1024"), "\(syntax.message)")
        }
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
        ("P1DT2H", "1d2h"), ("1y", "365d"), ("1 year", "365d")])
    func aDurationWrittenOtherwiseIsToldItsForm(_ written: String, _ suggestion: String) throws {
        let found = try #require(lint(Self.header + "  a: {format: interstitial, min_interval: \(written)}\n").first { $0.rule == "schema/duration" })
        #expect(found.message.hasSuffix("not \"\(written)\": write \(suggestion)"), "\(found.message)")
        let plain = lint(Self.header + "  a: {format: interstitial, min_interval: 527041}\n").first?.message ?? ""
        #expect(plain.hasSuffix("a bare number has no unit: write 527041s"), "\(plain)")
        let quoted = lint(Self.header + "  a: {format: interstitial, min_interval: \"30\"}\n").first?.message ?? ""
        #expect(quoted.hasSuffix("not \"30\": a bare number has no unit: write 30s or 30m"), "\(quoted)")
        for other in ["53w", "2y", "P400D", "PT", "P1H", "1h300", "1ms30", "\"1,000ms\"", "\"2,000s\"", "0.0001s", "1.5 fortnights", "400 days", "1.9999999999999999999s", "365.9999999d", "1e-400s", "1.157407407407407407e-8d", "1 30m", "\"400000000\"", "366d 1h", "\"366.000000000001d\"", "\"365.999999999999d\"", "1e-10s", "1.0000000001s"] {
            let message = lint(Self.header + "  a: {format: interstitial, min_interval: \(other)}\n").first?.message ?? ""
            #expect(!message.contains(": write"), "\(other): \(message)")
        }
    }

    /// A duration in full-width or another script's digits (a phone keyboard's, a copy from a document) is told its ASCII form.
    @Test func aDurationInOtherDigitsIsToldItsASCIIForm() {
        for (written, meant) in [("1ｓ", "1s"), ("١s", "1s"), ("１ｈ３０ｍ", "1h30m"), ("٣٠", "30s or 30m")] {
            let message = lint(Self.header + "  a: {format: interstitial, min_interval: \(written)}\n").first?.message ?? ""
            #expect(message.contains("not \"\(written)\": it is written in full-width or another script's digits or letters: "), "\(message)")
            #expect(message.hasSuffix("write \(meant)"), "\(written): \(message)")
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
            "unknown time zone \"UTC\\u{200B}\": it holds U+200B (zero width space), which a zone name never has: write \"UTC\"",
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

    /// A setting that could not be read takes no other finding away (lint prints every diagnostic), but does not
    /// set off `pacing/missing` either: the cap it meant may be the placement's pacing.
    @Test func aPlacementWithAnUnreadSettingIsStillChecked() {
        let found = lint("version: 1\nplacements:\n  a:\n    format: interstitial\n    daily_cap: six\n    ad_unit: ca-app-pub-3940256099942544/1033173712\n  b: {format: rewarded, require_user_choice: false, hourly_cap: -1}\n")
        #expect(found.map(\.rule).sorted() == ["ids/test-ad-unit", "rewarded/no-user-choice", "schema/range", "schema/type"], "\(found)")
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

    /// An abbreviation that most often means one region is told which; an ambiguous one gets examples only (IST is
    /// India's, Ireland's or Israel's time).
    @Test(arguments: [("JST", "Asia/Tokyo"), ("PDT", "America/Los_Angeles"), ("CEST", "Europe/Paris"), ("IST", nil)] as [(String, String?)])
    func anAbbreviationIsToldTheRegionItMostOftenMeans(_ written: String, _ zone: String?) {
        let found = lint("version: 1\ntimezone: \(written)\nplacements:\n  a: {format: banner}\n")
        let advice = zone.map { "\(written) is most often \($0): write \($0), or the region meant" } ?? "write a region such as America/Los_Angeles or Europe/Paris"
        #expect(found.map(\.message) == ["unknown time zone \"\(written)\": abbreviations name no place and no daylight saving rules: " + advice], "\(found)")
    }

    /// An offset or an abbreviation is not "did you mean GMT": an offset is spelt the IANA way, an abbreviation
    /// gets a region.
    @Test func offsetsAndAbbreviationsGetTheirOwnAdvice() {
        let offset = lint("version: 1\ntimezone: GMT+5\nplacements:\n  a: {format: banner}\n").first?.message ?? ""
        #expect(offset.contains("a fixed offset is written Etc/GMT-5"), "\(offset)")
        // A bare offset, as ISO 8601 writes it, is one from UTC.
        for (written, etc) in [("+01:00", "Etc/GMT-1"), ("\"-5\"", "Etc/GMT+5")] {
            let bare = lint("version: 1\ntimezone: \(written)\nplacements:\n  a: {format: banner}\n").first?.message ?? ""
            #expect(bare.contains("a fixed offset is written \(etc) "), "\(written): \(bare)")
        }
        // The offset 0 is UTC, with no sign to reverse.
        let zero = lint("version: 1\ntimezone: \"+00:00\"\nplacements:\n  a: {format: banner}\n").first?.message ?? ""
        #expect(zero == "unknown time zone \"+00:00\": the offset 0 is written UTC", "\(zero)")
        let abbreviation = lint("version: 1\ntimezone: PST\nplacements:\n  a: {format: banner}\n").first?.message ?? ""
        #expect(abbreviation.contains("write America/Los_Angeles, or the region meant") && !abbreviation.contains("GMT"), "\(abbreviation)")
    }

    /// Advice fits where it is given: a group has no `enabled`, and an id in an example is an example.
    @Test func adviceFitsGroupsAndListsOfIds() {
        let zero = lint("version: 1\ngroups:\n  g: {placements: [a], session_cap: 0}\nplacements:\n  a: {format: banner}\n")
        #expect(zero.map(\.message) == ["session_cap is 0, so no member of this group can ever show: to turn placements off, write enabled: false in each of them instead of session_cap: 0"])
        let missing = lint("version: 1\nplacements:\n  a: {format: banner}\ngroups:\n  g: {min_interval: 1m}\nrules:\n  - {id: x, when: premium}\n")
        #expect(missing.map(\.message).contains("group \"g\" has no placements: list its members' placement ids, as in `placements: [interstitial_level_end]`"), "\(missing)")
        #expect(missing.map(\.message).contains("rule \"x\" has no deny: list the placement ids it denies, as in `deny: [interstitial_level_end]`"), "\(missing)")
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

    /// A cap above 100,000, the largest a policy may set (what a history keeps is bounded by it): an error, not a silent no-op.
    @Test func aCapAboveWhatAHistoryKeepsIsAnError() {
        let found = lint(Self.header + "  b: {format: banner, daily_cap: 100001, caps: [{max: 100000, window: 30d}]}\n")
        #expect(found.map(\.rule) == ["schema/range"], "\(found)")
        #expect(found.first?.message.contains("write at most 100000") == true)
    }

    /// An unknown name compared with a number, a duration or a list is told to be declared with that type, not to be
    /// quoted (quoting `level` in `level < 3` compares a text with a number); beside a text, quoting stays a choice.
    /// The declaration it gives, written into the file, lints clean.
    @Test(arguments: [
        ("level < 3", "attributes: {level: int}", false),
        ("lvl in [30s, 1m]", "attributes: {lvl: duration}", false),
        ("level in [1, 2]", "attributes: {level: int}", false),
        ("2 in tags", "attributes: {tags: \"[int]\"}", false),
        ("\"a\" in tags", "attributes: {tags: \"[string]\"}", false),
        ("screen == \"home\"", "declare it under `attributes`, use a built-in", true),
    ])
    func anUnknownNameBesideAValueIsToldItsType(_ when: String, _ advice: String, _ quoting: Bool) {
        let rules = "placements:\n  a: {format: banner}\nrules:\n  - {id: r, deny: \"*\", when: '\(when)'}\n"
        let found = lint("version: 1\n" + rules)
        #expect(found.map(\.rule) == ["rule/unknown-name"], "\(found)")
        #expect(found.first?.message.contains(advice) == true, "\(found)")
        #expect(found.first?.message.contains("in quotes for a text") == quoting, "\(found)")
        guard !quoting else { return }
        let declared = String(advice.dropFirst("attributes: ".count).dropFirst().dropLast())
        #expect(lint("version: 1\nattributes:\n  \(declared)\n" + rules).isEmpty)
    }
}
