import AdRulesTestSupport
import AdRules
import AdRulesCompiler
import AdRulesYAML
import Testing

/// Where findings are placed (lines and columns as libyaml counts them, spans inside expressions and values) and how
/// suppression comments apply to them.
extension DiagnosticRuleTests {
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
        #expect(found.first?.message == "adrules:disable-next-line names #adrules:disable-next-line, which is no lint rule, so that name hides nothing: name a rule id such as cap/zero (see adrules lint --format sarif, or docs/lint-rules.md)")
    }

    /// A comment naming rules that do not exist gets one warning, for its first such name, with the closest rule;
    /// the rules it names that exist still work.
    @Test func aCommentNamingNoRuleSaysSoOnce() {
        let text = "version: 1\nplacements:\n  a:\n    format: interstitial\n    min_interval: 1m\n"
            + "    # adrules:disable-next-line zzz cap/zeroo cap/zero qqq\n    daily_cap: 0\n"
        let found = lint(text)
        #expect(found.map(\.rule) == ["lint/unknown-rule"], "\(found)")
        #expect(found.first?.message == "adrules:disable-next-line names cap/zeroo, which is no lint rule, so that name hides nothing: did you mean cap/zero? (2 more names in this comment are no rule either)")
        #expect(found.first.map { "\($0.range.start.line):\($0.range.start.column)" } == "6:5")
    }

    /// A reason after `--` (ESLint's convention) is no rule name; reason words written without it are, and the
    /// warning says how to write a reason.
    @Test func aReasonAfterTwoDashesIsNoRuleName() {
        let head = "version: 1\nplacements:\n  a:\n    format: interstitial\n    min_interval: 1m\n"
        #expect(lint(head + "    # adrules:disable-next-line cap/zero -- off until launch, see #42\n    daily_cap: 0\n").isEmpty)
        #expect(lint(head + "    # adrules:disable-next-line cap/zero --off until launch\n    daily_cap: 0\n").isEmpty)
        // With no rule before the reason, the comment names none: every rule that can be hidden is.
        #expect(lint(head + "    # adrules:disable-next-line -- off until launch\n    daily_cap: 0\n").isEmpty)
        let found = lint(head + "    # adrules:disable-next-line cap/zero because we launch later\n    daily_cap: 0\n")
        #expect(found.map(\.rule) == ["lint/unknown-rule"], "\(found)")
        #expect(found.first?.message == "adrules:disable-next-line names because, which is no lint rule, so that name hides nothing: name a rule id such as cap/zero (see adrules lint --format sarif, or docs/lint-rules.md); to give a reason, write it after -- (# adrules:disable-next-line cap/zero -- why) (3 more names in this comment are no rule either)")
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
}
