import AdRules
import AdRulesCLI
import AdRulesCompiler
import AdRulesImpact
import AdRulesTestSupport
import AdRulesYAML
import Foundation
import Testing

/// Scenario files, the `test` and `simulate` commands, and the command line itself.
extension PlainWordsTests {
    /// A policy written into a scenario file, a retry time of "none", and a lone surrogate in an escape are told what to write.
    @Test func scenarioMistakesAreToldWhatToWrite() throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")
        func messages(_ text: String) -> [String] {
            ScenarioDecoder.decode(Array(text.utf8), file: "s.test.yaml", policy: policy).1.map(\.message)
        }
        let test = "tests:\n  - name: x\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {ask: show, placement: a, expect: deny, retry_in: RETRY}\n"
        #expect(messages("placements: {}\n" + test.replacingOccurrences(of: "RETRY", with: "null")).contains {
            $0.contains("placements belongs in a rule file, not a scenario file")
        })
        for retry in ["none", "\"null\""] {
            #expect(messages(test.replacingOccurrences(of: "RETRY", with: retry)).contains { $0.hasSuffix(": write retry_in: null") }, "\(retry)")
        }
        #expect(messages(test.replacingOccurrences(of: "name: x", with: #"name: "x\ud800""#).replacingOccurrences(of: "RETRY", with: "null")).contains {
            $0.contains("a lone surrogate such as")
        })
        // A test named `on` keeps its name, with the warning any string field gets for a plain on.
        let named = ScenarioDecoder.decode(Array(test.replacingOccurrences(of: "name: x", with: "name: on").replacingOccurrences(of: "RETRY", with: "null").utf8), file: "s.test.yaml", policy: policy)
        #expect(named.1.map(\.rule) == ["yaml/ambiguous-bool"] && named.1.first?.severity == .warning, "\(named.1)")
        #expect(named.0.tests.first?.name == "on")
    }

    /// A required key misspelt (`starts:`, `nam:`, `evnt:`, `placment:` in a history entry) is told "did you mean" where it
    /// stands, and its block is not also told it lacks the key.
    @Test(arguments: [
        ("tests:\n  - name: x\n    starts: 2026-11-29T09:00:00Z\n    steps: [{event: app_launched}]\n", "unknown key \"starts\" in a test: did you mean \"start\"?"),
        ("tests:\n  - nam: x\n    start: 2026-11-29T09:00:00Z\n    steps: [{event: app_launched}]\n", "unknown key \"nam\" in a test: did you mean \"name\"?"),
        ("tests:\n  - name: x\n    start: 2026-11-29T09:00:00Z\n    step: [{event: app_launched}]\n", "unknown key \"step\" in a test: did you mean \"steps\"?"),
        ("tests:\n  - name: x\n    start: 2026-11-29T09:00:00Z\n    steps: [{evnt: app_launched}]\n", "unknown key \"evnt\" in a step: did you mean \"event\"?"),
        ("tests:\n  - name: x\n    start: 2026-11-29T09:00:00Z\n    history: [{placment: a, at: 2026-11-29T08:00:00Z}]\n    steps: [{event: app_launched}]\n",
         "unknown key \"placment\" in a history entry: did you mean \"placement\"?"),
    ])
    func aMisspeltRequiredScenarioKeyIsOneFinding(_ text: String, _ message: String) throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")
        let found = ScenarioDecoder.decode(Array(text.utf8), file: "s.test.yaml", policy: policy).1.map(\.message)
        #expect(found == [message])
    }

    /// A key repeated in a test: the `- ` of a next test may have been lost (a deleted `- name:` line), else a block
    /// written twice is merged; an expectation on an event step is told to move to the ask it checks.
    @Test func aKeyRepeatedInATestSaysItemsMayHaveRunTogether() throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")
        let text = "tests:\n  - name: x\n    start: 2026-11-29T09:00:00Z\n    context: {premium: false}\n    sessions_before: 2\n    context: {premium: true}\n"
            + "    steps:\n      - {event: app_launched, expect: allow}\n"
        let found = ScenarioDecoder.decode(Array(text.utf8), file: "s.test.yaml", policy: policy).1.map(\.message)
        #expect(found == [
            "key \"context\" is repeated in this mapping: two items of the list may have run together (a `- ` lost): begin the second item with `- `; else move its entries into the first context: (keeping one would drop the other's entries)",
            "expect belongs to an ask step, not to an event: move it to the ask it checks (a step takes an event or an ask, not both), or remove it",
        ], "\(found)")
    }

    /// After a syntax error, no other finding about the file (cli.md r2), in scenario files and usage models as in rule
    /// files: a key repeated above the error was reported beside it.
    @Test func aSyntaxErrorInAScenarioFileIsItsOnlyFinding() throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")
        let text = "tests:\n  - name: a\n    name: b\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched: now\n"
        let found = ScenarioDecoder.decode(Array(text.utf8), file: "s.test.yaml", policy: policy).1
        #expect(found.map(\.rule) == ["yaml/syntax"], "\(found)")
        let model = ModelDecoder.read(Array("version: 1\nusers: 10\nusers: 20\nsegments: [\n".utf8), file: "m.model.yaml").diagnostics
        #expect(model.map(\.rule) == ["yaml/syntax"], "\(model)")
    }

    /// Steps written at the level of the tests are one finding for each run of them, where the test they belong to is
    /// (its empty `steps:`), not each a test missing its name, start and steps.
    @Test func stepsWrittenAtTheLevelOfTheTestsAreOneFinding() throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")
        let text = """
            tests:
              - event: app_launched
              - name: with steps
                start: 2026-11-29T09:00:00Z
                steps:
                  - event: app_launched
              - {after: 2s, event: load_completed, placement: a}
              - name: empty steps
                start: 2026-11-29T09:00:00Z
                steps:
              - event: app_launched
              - ask: show
                placement: a
                expect: allow
              - name: last
                start: 2026-11-29T09:00:00Z
                steps: [{event: app_launched}]

            """
        let (scenario, found) = ScenarioDecoder.decode(Array(text.utf8), file: "s.test.yaml", policy: policy)
        #expect(found.map { "\($0.range.start): \($0.message)" } == [
            "2:5: the step on line 2 stands where a test goes: write a test around it, `- name: …` with its `start:` and `steps:`",
            "7:5: the step on line 7 stands at the level of the tests, so YAML reads it as a test: indent it as the steps of the test above are indented",
            "10:11: steps is empty: the 2 steps on lines 11-14 stand at the level of the tests, so YAML reads them as tests: indent them under `steps:`, deeper than its key",
        ])
        #expect(scenario.tests.map(\.name) == ["with steps", "last"])
        // Steps after an item that is no test (a list) have no test above to copy the steps of.
        let afterList = "tests:\n  - [event, app_launched]\n  - {event: app_launched}\n"
        #expect(ScenarioDecoder.decode(Array(afterList.utf8), file: "s.test.yaml", policy: policy).1.map(\.message).contains(
            "the step on line 3 stands where a test goes: write a test around it, `- name: …` with its `start:` and `steps:`"))
        // `steps: []` is as empty as `steps:` with nothing after it.
        let brackets = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps: []\n  - event: app_launched\n"
        #expect(ScenarioDecoder.decode(Array(brackets.utf8), file: "s.test.yaml", policy: policy).1.map(\.message) == [
            "steps is empty: the step on line 5 stands at the level of the tests, so YAML reads it as a test: indent it under `steps:`, deeper than its key, in place of its [ ]",
        ])
    }

    /// Past a file's 1,000 findings an unknown value is counted, its message not built; those listed keep theirs.
    @Test func unknownValuesPastTheLimitAreCounted() throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")
        let codes = (0..<1_006).map { "x\($0)" }
        let text = "tests:\n  - name: x\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {ask: show, placement: a, trigger: action, expect: deny, reasons: [\(codes.joined(separator: ", "))]}\n"
        let found = ScenarioDecoder.decode(Array(text.utf8), file: "s.test.yaml", policy: policy).1
        let summary = try #require(found.first { $0.rule == "lint/too-many-findings" })
        #expect(summary.standsFor?.count == 6, "\(summary.message)")
        let listed = found.filter { $0.rule == "schema/enum" }
        #expect(listed.count == 1_000 && listed.allSatisfy { $0.message.contains("must be one of unknown_placement, placement_disabled") }, "\(listed.first?.message ?? "")")
    }

    /// Names other tools give events, triggers and step times, a custom rule's id as a reason, two codes with no comma,
    /// and another SDK's ad named as a placement, are told what a scenario writes.
    @Test(arguments: [
        ("{event: ad_loaded, placement: a}", "not \"ad_loaded\": an ad SDK's ad_loaded callback is the event load_completed: write event: load_completed"),
        ("{event: ad_dismissed, placement: a}", "an ad SDK's ad_dismissed callback is the event ad_closed: write event: ad_closed"),
        ("{wait: 2s, event: app_backgrounded}", "unknown key \"wait\" in a step: a step's time since the step before is after: write after: 2s"),
        ("{time: 2026-11-29T09:00:05Z, event: app_backgrounded}", "unknown key \"time\" in a step: a step's time is at:"),
        ("{ask: show, placement: o, trigger: launch, expect: allow}", "not \"launch\": a cold-start show is asked when the first load completes: write trigger: load_completed"),
        ("{ask: show, placement: o, trigger: foreground, expect: allow}", "a show on the return from background is trigger: resume"),
        ("{ask: show, trigger: foreground, expect: allow}", "a show on the return from background is trigger: resume"),
        // The advice fits the placement asked about.
        ("{ask: show, placement: a, trigger: launch, expect: allow}",
         "not \"launch\": a is an interstitial placement, which shows at an app moment (a level end, a tap), never on a launch or a return: write trigger: action"),
        ("{ask: show, placement: o, trigger: tap, expect: allow}",
         "not \"tap\": o is an app_open placement, which shows on a launch or a return, not at an app moment: write trigger: load_completed (the first load of a launch) or resume"),
        // An ask that is no show takes no trigger: only that is said.
        ("{ask: load, placement: a, trigger: launch, expect: allow}", "trigger must be one of resume, load_completed, action; not \"launch\""),
        ("{ask: show, placement: a, expect: deny, reasons: [quiet]}", "not \"quiet\": a custom rule denies with the code custom_rule (its message names the rule quiet): write custom_rule"),
        ("{ask: show, placement: a, expect: deny, reasons: [custom_rule ad_not_ready]}", "the items of a list are separated by commas: write reasons: [custom_rule, ad_not_ready]"),
        ("{event: fullscreen_opened, placement: mediation_sdk}", "event fullscreen_opened takes no placement: a fullscreen ad the policy does not manage is named by its source: write source: mediation_sdk"),
        ("{event: fullscreen_opened, placement: a}", "a is one of its placements, whose ad on screen is written event: show_started"),
        // A misspelt value of a long list (the 33 reason codes) is told the one meant, without the list that would bury
        // it; one of a short list, or one with no close value, is told the values.
        ("{ask: show, placement: a, expect: deny, reasons: [ad_not_redy]}", "a reason code must be one of 33 values, not \"ad_not_redy\": did you mean \"ad_not_ready\"?"),
        ("{ask: show, placement: a, expect: deny, reasons: [zzz]}", "a reason code must be one of unknown_placement, placement_disabled,"),
        ("{ask: show, placement: a, expect: alow}", "expect must be one of allow, deny; not \"alow\": did you mean \"allow\"?"),
    ])
    func otherToolsNamesAreToldWhatAScenarioWrites(_ step: String, _ message: String) throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n  o: {format: app_open, min_interval: 4m}\nrules:\n  - {id: quiet, deny: [a], when: premium}\n")
        let text = "tests:\n  - name: x\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n      - \(step)\n"
        let found = ScenarioDecoder.decode(Array(text.utf8), file: "s.test.yaml", policy: policy).1.map(\.message)
        #expect(found.contains { $0.contains(message) }, "\(found)")
        // One finding, or with no placement a second one saying the step lacks it.
        #expect(found.count == (step.contains("placement") || step.contains("event") ? 1 : 2), "\(found)")
    }

    /// Tests (and a usage model's segments) keyed by name, as a rule file keys its placements, are told to make each a
    /// list item with `name:`; the advice, followed as written, reads clean.
    @Test func testsKeyedByNameAreToldToBeListItems() throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")
        let keyed = "tests:\n  cold start:\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {ask: load, placement: a, expect: allow}\n"
        let found = ScenarioDecoder.decode(Array(keyed.utf8), file: "s.test.yaml", policy: policy).1
        #expect(found.map(\.message) == [
            "tests must be a list, not a mapping: write each test as a list item with its name, `- name: cold start` in place of `cold start:`, its settings indented under it as they are",
        ])
        let followed = keyed.replacingOccurrences(of: "  cold start:\n", with: "  - name: cold start\n")
        #expect(ScenarioDecoder.decode(Array(followed.utf8), file: "s.test.yaml", policy: policy).1.isEmpty)
    }

    /// Slips of scenario files that libyaml reads as something else: tests without their `tests:` line, and JSON's habit
    /// of no space after a colon (in rule files too).
    @Test func scenarioShapeSlipsSayWhatToWrite() throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")
        func messages(_ text: String) -> [String] {
            ScenarioDecoder.decode(Array(text.utf8), file: "s.test.yaml", policy: policy).1.map(\.message)
        }
        #expect(messages("- name: x\n  start: 2026-11-29T09:00:00Z\n  steps:\n    - event: app_launched\n") == [
            "a scenario file must be a mapping of keys to values, not a list: the tests need a `tests:` line above them, with the list indented under it",
        ])
        // An ask written as an event, and an event as an ask, are told which they are.
        let swapped = messages("tests:\n  - name: x\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {event: show, placement: a}\n      - {ask: show_started, placement: a}\n")
        #expect(swapped.map { $0.components(separatedBy: "; not ").last ?? "" } == [
            "\"show\": show is an ask, not an event: write ask: show, with expect: allow or deny; or, to record that it happened, event: show_started",
            "\"show_started\": show_started is an event, not an ask: write event: show_started",
        ], "\(swapped)")
        // A misspelt `test:` is one finding, where it stands.
        let misspelt = messages("test:\n  - name: x\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n")
        #expect(misspelt.count == 1 && misspelt[0].contains("did you mean \"tests\"?"), "\(misspelt)")
        let head = "tests:\n  - name: x\n    start: 2026-11-29T09:00:00Z\n    steps:\n"
        // One finding a glued key, and no "this step has no event or ask" or "has no placement" after them.
        #expect(messages(head + "      - {ask:load, placement:a}\n") == [
            "unknown key \"ask:load\" in a step: YAML reads a key only with a space after its colon: write ask: load",
            "unknown key \"placement:a\" in a step: YAML reads a key only with a space after its colon: write placement: a",
        ])
        let rules = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format:interstitial, min_interval: 1m}\n")]).diagnostics
        #expect(rules.map(\.message) == [
            "unknown key \"format:interstitial\" in placement \"a\": YAML reads a key only with a space after its colon: write format: interstitial",
        ])
        // A value that would not read back as written (an alias, a comment) is not shown as what to write.
        let star = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - {id: r, deny:*, when: premium}\n")]).diagnostics
        #expect(star.map(\.message) == ["unknown key \"deny:*\" in rule \"r\": YAML reads a key only with a space after its colon: put one after deny:"], "\(star)")
        #expect(messages("tests:\n  - name: x\n    start: 2026-11-29T09:00:00Z\n    history: [{placement:a, at: 2026-11-29T08:00:00Z}]\n    steps: [{event: app_launched}]\n") == [
            "unknown key \"placement:a\" in a history entry: YAML reads a key only with a space after its colon: write placement: a",
        ])
        // Tests without their `- ` whose first key is a test's own are not told that key is a name.
        let unnamed = messages("tests:\n  context: {premium: true}\n  name: x\n")
        #expect(!unnamed.contains { $0.contains("- name: context") }, "\(unnamed)")
    }

    /// `premium` written as an attribute would run the test as a user who is not premium: it is an error that says
    /// where the flag goes. A negative `after:` says how a clock set back is written.
    @Test func scenarioContextAndClockSlipsSayWhatToWrite() throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: rewarded}\nattributes:\n  screen: string\n")
        func found(_ step: String, context: String = "") -> [Diagnostic] {
            let text = "tests:\n  - name: x\n    start: 2026-11-29T09:00:00Z\n\(context)    steps:\n      - \(step)\n"
            return ScenarioDecoder.decode(Array(text.utf8), file: "s.test.yaml", policy: policy).1
        }
        let premium = found("{ask: offer, placement: a, expect: deny}", context: "    context: {attributes: {premium: true, screen: home}}\n")
        #expect(premium.count == 1, "\(premium)")
        #expect(premium.first?.severity == .error && premium.first?.rule == "schema/unknown-key", "\(premium)")
        #expect(premium.first?.message.contains("write it beside `attributes:`, as in context: {premium: true}") == true, "\(premium)")
        #expect(premium.first?.range.start == SourcePosition(line: 4, column: 28), "\(premium)")
        let inStep = found("{ask: offer, placement: a, expect: deny, context: {attributes: {premium: false}}}")
        #expect(inStep.contains { $0.rule == "schema/unknown-key" && $0.message.contains("as in context: {premium: false}") }, "\(inStep)")
        let back = found("{after: -5m, event: app_launched}")
        #expect(back.count == 1 && back[0].rule == "schema/duration" && back[0].message.contains("to set the clock back, write at:"), "\(back)")
        // A negative number with no unit is still told it is no duration, as any duration key is.
        let bare = found("{after: -5, event: app_launched}")
        #expect(bare.count == 1 && bare[0].message == "after is a duration, which is never negative: write 0s, or a duration such as 90s or 4m", "\(bare)")
        // A false written as YAML 1.2 spells it, quoted, or as a YAML 1.1 no keeps its value in the advice.
        for written in ["False", "\"false\"", "no"] {
            let notPremium = found("{ask: offer, placement: a, expect: allow}", context: "    context: {attributes: {premium: \(written)}}\n")
            #expect(notPremium.first?.message.hasSuffix("as in context: {premium: false}") == true, "\(written): \(notPremium)")
        }
    }

    /// Scenario files kept apart from their policy say to name it with --rules.
    @Test func scenarioFilesWithNoPolicyBesideThemSayToGiveRules() throws {
        let tests = try scratch(["a.test.yaml": "tests:\n  - name: t\n    start: 2026-12-01T09:00:00Z\n    steps:\n      - {ask: load, placement: a, expect: allow}\n"])
        for command in [["test", tests], ["simulate", tests + "/a.test.yaml"]] {
            let run = runCLI(command)
            #expect(run.stderr.contains("no rule files in \(tests)") && run.stderr.contains("add --rules with the policy"), "\(command): \(run.stderr)")
        }
        // Named with --rules, an empty policy directory is only said to be empty.
        let empty = try scratch(["notes.txt": "none\n"])
        let named = runCLI(["test", tests, "--rules", empty])
        #expect(named.stderr.contains("no rule files in \(empty)") && !named.stderr.contains("add --rules"), "\(named.stderr)")
    }

    /// A failing ask shows when its deny clears though the step does not check it, and an app_open show that names no
    /// trigger is told it asked as `resume`: the cold start's show is `trigger: load_completed` (without the note, the
    /// only place named was `resume.allow_deferred`, which a product manager might turn on to pass the test).
    @Test func aFailingShowSaysWhenItClearsAndWhichTriggerItAskedWith() throws {
        let tests = try scratch([
            "p.yaml": "version: 1\nplacements:\n  app_open: {format: app_open, min_interval: 4m}\n  lvl: {format: interstitial, min_interval: 4m}\n",
            "a.test.yaml": """
                tests:
                  - name: cold start
                    start: 2026-11-29T09:00:00Z
                    steps:
                      - event: app_launched
                      - {after: 2s, event: load_completed, placement: app_open}
                      - {ask: show, placement: app_open, expect: allow}
                      - {event: load_completed, placement: lvl}
                      - {event: show_started, placement: lvl}
                      - {after: 1m, event: ad_closed, placement: lvl}
                      - {event: load_completed, placement: lvl}
                      - {ask: show, placement: lvl, expect: allow}

                """,
        ])
        let run = runCLI(["test", tests])
        #expect(run.exitCode == ExitCode.findings)
        let note = "note: this step names no trigger, so it asked as trigger: resume"
        #expect(run.stdout.components(separatedBy: note).count == 2, "only the app_open show, asked as resume: \(run.stdout)")
        #expect(run.stdout.contains("a.test.yaml:7: at 2026-11-29T09:00:02Z: ask show app_open (resume)"), "\(run.stdout)")
        // The last step, an interstitial's show (its default trigger, action, gets no note), is denied by its pacing of 4m:
        // it clears 3m later.
        #expect(run.stdout.contains("retry_in  (not checked)  3m\n"), "\(run.stdout)")
    }

    /// A failing step with no `expect:` still says what the verdict was: an allow has no reason lines to show it.
    @Test func aFailingStepWithNoExpectStillShowsTheVerdict() throws {
        let dir = try scratch([
            "p.yaml": "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n",
            "a.test.yaml": "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {event: load_completed, placement: a}\n      - {ask: show, placement: a, reasons_include: [min_interval]}\n",
        ])
        let run = runCLI(["test", dir])
        #expect(run.exitCode == ExitCode.findings)
        #expect(run.stdout.contains("   verdict          (not checked)   allow\n"), "\(run.stdout)")
        #expect(run.stdout.contains(" x reasons_include  [min_interval]  []\n"), "\(run.stdout)")
    }

    @Test func testingNothingFails() throws {
        let dir = try scratch(["p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n"])
        let result = runCLI(["test", dir])
        #expect(result.exitCode == ExitCode.findings)
        #expect(result.stderr.contains("no scenario tests"))
        #expect(result.stderr.contains(dir))
        #expect(!result.stdout.contains("FAIL"), "\(result.stdout)")
        // A broken policy with no test under it is still reported, as it would stop every test, beside the error.
        let broken = try scratch(["p.yaml": "version: 1\nplacements:\n  a: {format: banner, daily_cap: -1}\n"])
        for format in ["text", "json"] {
            let run = runCLI(["test", broken, "--format", format])
            #expect(run.exitCode == ExitCode.findings, "\(format)")
            #expect(run.stderr.contains("no scenario tests"), "\(format): \(run.stderr)")
            #expect(run.stdout.contains("daily_cap must be >= 0, not -1"), "\(format): \(run.stdout)")
            #expect(run.stdout.contains("the policy in \(broken) has errors: no test ran"), "\(format): \(run.stdout)")
        }
        // Once, however its path is written.
        let spelled = runCLI(["test", broken, broken + "/", broken + "/."])
        #expect(spelled.stdout.components(separatedBy: "has errors: no test ran").count == 2, "\(spelled.stdout)")
        #expect(spelled.stdout.hasSuffix("0 passed, 1 failed\n"), "\(spelled.stdout)")
        // Beside a path that has tests: `test good bad` does not pass on good's tests alone, and a path with a sound
        // policy and no test is warned about.
        let good = try scratch([
            "p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n",
            "a.test.yaml": "tests:\n  - name: t\n    start: 2026-12-01T09:00:00Z\n    steps:\n      - {ask: load, placement: a, expect: allow}\n",
        ])
        let mixed = runCLI(["test", good, broken])
        #expect(mixed.exitCode == ExitCode.findings, "\(mixed.stdout)")
        #expect(mixed.stdout.contains("PASS t") && mixed.stdout.contains("the policy in \(broken) has errors: no test ran"), "\(mixed.stdout)")
        #expect(mixed.stdout.hasSuffix("1 passed, 1 failed\n"), "\(mixed.stdout)")
        let sound = runCLI(["test", good, dir])
        #expect(sound.exitCode == ExitCode.success, "\(sound.stdout)")
        #expect(sound.stderr.contains("warning: no scenario test (*.test.yaml) under \(dir): nothing there was tested"), "\(sound.stderr)")
        // Two paths with no test under one policy (`--rules`) are each warned about.
        let other = try scratch(["notes.txt": "no scenario here\n"])
        let two = runCLI(["test", "--rules", good, good, dir, other])
        #expect(two.stderr.contains("under \(dir): nothing there was tested") && two.stderr.contains("under \(other): nothing there was tested"), "\(two.stderr)")
        // Beside tests that ran, a path whose policy cannot be read fails the run as one with tests would (exit 3); alone,
        // it is a run that tested nothing (exit 1).
        let unreadable = try scratch(["notes.txt": "no rule file here\n"])
        let withTests = runCLI(["test", good, unreadable])
        #expect(withTests.exitCode == ExitCode.failure, "\(withTests.stderr)")
        #expect(withTests.stderr.contains("error: ") && withTests.stderr.contains(unreadable), "\(withTests.stderr)")
        // Alone, the read error is still said: it is why nothing there could have run.
        let alone = runCLI(["test", unreadable])
        #expect(alone.exitCode == ExitCode.findings)
        #expect(alone.stderr.contains("error: ") && alone.stderr.contains(unreadable) && alone.stderr.contains("nothing was tested"), "\(alone.stderr)")
        #expect(alone.stderr.components(separatedBy: "error: ").count == 3, "the read error and nothing tested, once each: \(alone.stderr)")
        // Named twice, it is said once.
        let twice = runCLI(["test", unreadable, unreadable + "/."])
        #expect(twice.stderr.components(separatedBy: "error: ").count == 3, "\(twice.stderr)")
        // An empty list of tests is told where it is, by test and simulate alike (simulate replayed nothing and passed).
        let empty = try scratch(["p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n", "e.test.yaml": "tests: []\n"])
        for command in ["test", "simulate"] {
            let run = runCLI([command, empty + "/e.test.yaml"])
            #expect(run.exitCode == ExitCode.findings, "\(command)")
            #expect((run.stdout + run.stderr).contains("e.test.yaml:1:8: error: tests lists no test: add one, with its name, start and steps (schema/missing-key)"), "\(command): \(run.stdout) \(run.stderr)")
        }
    }

    /// A rule file saved under a scenario file's name (`extra.test.yaml`) is told its name, once: it was told it has no
    /// tests and that each of its keys belongs in a rule file, while the policy silently left its placements out.
    @Test func aRuleFileNamedAsAScenarioFileIsToldItsName() throws {
        let dir = try scratch([
            "p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n",
            "extra.test.yaml": "version: 1\n# more placements\nplacements:\n  b: {format: banner}\n",
        ])
        let result = runCLI(["test", dir])
        #expect(result.exitCode == ExitCode.findings)
        #expect(result.stdout.contains("extra.test.yaml:3:1: error: extra.test.yaml holds rules (`placements:`), not scenario tests: name it extra.yaml, "
            + "so that the policy loads it"), "\(result.stdout)")
        #expect(result.stdout.components(separatedBy: "error:").count == 2, "one finding: \(result.stdout)")
    }

    /// A rule file named to `test` holds no test: it is not decoded as a scenario (every key of it unknown), and with
    /// nothing else to run the run fails as one that tests nothing.
    @Test func aRuleFileNamedToTestHoldsNoTest() throws {
        let dir = try scratch(["p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n"])
        let result = runCLI(["test", dir + "/p.yaml"])
        #expect(result.exitCode == ExitCode.findings)
        #expect(result.stderr.contains("is not a scenario file (*.test.yaml)"), "\(result.stderr)")
        #expect(result.stderr.contains("no scenario tests"))
        #expect(!result.stdout.contains("unknown key"), "\(result.stdout)")
        // simulate replays one scenario file: a rule file named to it is a usage error, not a scenario of unknown keys.
        let replay = runCLI(["simulate", dir + "/p.yaml"])
        #expect(replay.exitCode == ExitCode.usage)
        #expect(replay.stderr.contains("is not a scenario file (*.test.yaml)"), "\(replay.stderr)")
    }

    @Test func aBrokenPolicyIsReportedOnceAndNoTestRuns() throws {
        let test = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n"
        let dir = try scratch(["p.yaml": "version: 1\nplacements:\n  a: {format: banner, daily_cap: six}\n", "a.test.yaml": test, "b.test.yaml": test])
        let result = runCLI(["test", dir])
        #expect(result.exitCode == ExitCode.findings)
        #expect(result.stdout.components(separatedBy: "(schema/type)").count == 2, "one report: \(result.stdout)")
        #expect(!result.stdout.contains("PASS"))
        let simulate = runCLI(["simulate", dir + "/a.test.yaml"])
        #expect(simulate.exitCode == ExitCode.findings)
        #expect(simulate.stdout.contains("(schema/type)"))
    }

    /// cli.md r2: in a scenario file too, a key valid one level deeper or shallower says which block it belongs to, and
    /// the advice, followed, gives a file with no such finding (a step's `start` is not sent beside the test's own).
    @Test func aScenarioKeyAtTheWrongDepthNamesItsBlock() throws {
        let policy = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  p: {format: banner}\n")]).policy
        let marked = MarkedText("""
            1️⃣name: top
            tests:
              - name: t
                start: 2026-11-29T12:00:00Z
                2️⃣premium: true
                history:
                  - {placement: p, at: 2026-11-29T11:00:00Z, 3️⃣event: show_started}
                context: {premium: false, 4️⃣expect: allow}
                steps:
                  - {event: app_launched, 5️⃣premium: true}
                  - {ask: show, placement: p, 6️⃣attributes: {screen: a}}
                  - {ask: show, placement: p, 7️⃣start: 2026-11-29T12:00:00Z, context: {8️⃣name: x}}
                9️⃣expect: allow

            """)
        // Each finding at its marker, with its message in full, and nothing else.
        func expectAdvice(_ text: MarkedText, _ expected: [(String, String)]) {
            let (_, found) = ScenarioDecoder.decode(Array(text.text.utf8), file: "t.test.yaml", policy: policy)
            #expect(found.count == expected.count, "\(found)")
            for (marker, message) in expected {
                #expect(found.contains { $0.range.start == text[marker] && $0.message == message && $0.rule == "schema/unknown-key" }, "\(marker): \(found)")
            }
        }
        expectAdvice(marked, [
            ("1️⃣", "unknown key \"name\" in a scenario file: name is a setting of a test: indent it under an entry of `tests:` (each entry starts with - name:)"),
            ("2️⃣", "unknown key \"premium\" in a test: premium belongs in the test's `context:`, which holds the premium flag and attributes of every ask: write context: {premium: true}"),
            ("3️⃣", "unknown key \"event\" in a history entry: a history entry is a past show, with placement and at only: event belongs to a step in `steps:`"),
            ("4️⃣", "unknown key \"expect\" in context: expect is not part of `context:`, which takes premium and attributes: write it in a step"),
            ("5️⃣", "unknown key \"premium\" in a step: premium is part of a context, which an event does not take: put it in the test's `context:` (every ask) or in an ask step's"),
            ("6️⃣", "unknown key \"attributes\" in a step: attributes belongs in the ask's own `context:`: write context: {attributes: {screen: home}}"),
            ("7️⃣", "unknown key \"start\" in a step: a step sets its time with at: (a time) or after: (a duration since the step before), not start:"),
            ("8️⃣", "unknown key \"name\" in context: a step has no name: say what it does in a comment (# …) above it"),
            ("9️⃣", "unknown key \"expect\" in a test: expect belongs to a step: indent it under an entry of `steps:`"),
        ])
        // A key that the block it belongs to has already is not sent there again.
        let again = MarkedText("""
            tests:
              - name: t
                start: 2026-11-29T12:00:00Z
                context: {1️⃣name: u, 2️⃣steps: []}
                steps:
                  - {ask: show, placement: p, context: {3️⃣placement: p, 4️⃣event: app_launched}}

            """)
        expectAdvice(again, [
            ("1️⃣", "unknown key \"name\" in context: name is a setting of the test, written once beside its `steps:`; it is not part of a context, which takes premium and attributes"),
            ("2️⃣", "unknown key \"steps\" in context: steps is the test's one list of steps: write each step as an entry of it, not inside another block"),
            ("3️⃣", "unknown key \"placement\" in context: placement is not part of `context:`, which takes premium and attributes: the ask has its own placement, beside `context:`"),
            ("4️⃣", "unknown key \"event\" in context: event belongs to an event step, not to an ask's `context:`: write the event as a step of its own"),
        ])
        // Written where the advice says, the keys are read.
        let mended = """
            tests:
              - name: t
                start: 2026-11-29T12:00:00Z
                context: {premium: true}
                history:
                  - {placement: p, at: 2026-11-29T11:00:00Z}
                steps:
                  - event: app_launched
                  - {ask: show, placement: p, context: {attributes: {screen: a}}, expect: deny}
                  - {at: 2026-11-29T12:00:00Z, ask: show, placement: p}

            """
        let (_, none) = ScenarioDecoder.decode(Array(mended.utf8), file: "t.test.yaml", policy: policy)
        #expect(none.filter { $0.rule == "schema/unknown-key" }.isEmpty, "\(none)")
    }

    /// A step or history entry that names no placement is shown one of the policy's (an id it does not have, such as
    /// the app_open it was shown before, would be a second mistake).
    @Test func aMissingPlacementIsShownOneThePolicyHas() throws {
        let policy = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  it: {format: interstitial}\n  b: {format: banner}\n")]).policy
        let text = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    history: [{at: 2026-11-29T08:00:00Z}]\n    steps:\n"
            + "      - event: app_launched\n      - {ask: show}\n      - {event: load_started}\n"
        let (_, found) = ScenarioDecoder.decode(Array(text.utf8), file: "t.test.yaml", policy: policy)
        #expect(found.map(\.message) == [
            "a history entry has no placement: add `{placement: it, at: 2026-11-29T08:58:00Z}`",
            "this ask has no placement: add `placement: it`",
            "event load_started has no placement: add `placement: it`",
        ], "\(found)")
    }

    /// The placement named is one whose format fits the step: a rewarded one for a choice, a reward or an offer, an
    /// app-open one for a resume show, another for an action; the policy's first when none fits. (The first, app_open
    /// here, was named for every step: a test of rewarding an app-open ad.)
    @Test func aMissingPlacementIsShownOneThatFitsTheStep() throws {
        let policy = PolicyLoader.load(texts: [(
            "p.yaml", "version: 1\nplacements:\n  app_open: {format: app_open}\n  hint: {format: rewarded}\n  lvl: {format: interstitial}\n"
        )]).policy
        let text = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n      - {event: user_chose}\n"
            + "      - {ask: reward}\n      - {ask: offer}\n      - {event: action}\n      - {ask: show, trigger: action}\n      - {ask: show, trigger: resume}\n"
            + "      - {ask: load}\n"
        let (_, found) = ScenarioDecoder.decode(Array(text.utf8), file: "t.test.yaml", policy: policy)
        #expect(found.map { $0.message.components(separatedBy: "add ").last ?? "" } == [
            "`placement: hint`", "`placement: hint`", "`placement: hint`", "`placement: lvl`", "`placement: lvl`", "`placement: app_open`",
            "`placement: app_open`",
        ], "\(found)")
    }

    /// A step that names no placement, among steps about one, is shown that one when it fits the step: the nearest
    /// step's before it, else after it (the policy's first, app_open, was named for a `load_completed` among steps
    /// about an interstitial). One that does not fit (an app-open ad to reward) is not named.
    @Test func aMissingPlacementIsShownTheOneTheStepsAroundItName() throws {
        let policy = PolicyLoader.load(texts: [(
            "p.yaml", "version: 1\nplacements:\n  app_open: {format: app_open}\n  hint: {format: rewarded}\n  lvl: {format: interstitial}\n"
                + "  lvl2: {format: interstitial}\n"
        )]).policy
        let text = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {event: load_completed}\n"
            + "      - {ask: show, placement: lvl2, trigger: action}\n      - {event: load_completed}\n      - {ask: show, trigger: action}\n"
            + "      - {ask: reward}\n      - {ask: show, placement: nope, trigger: action}\n      - {event: show_started}\n"
        let (_, found) = ScenarioDecoder.decode(Array(text.utf8), file: "t.test.yaml", policy: policy)
        #expect(found.filter { $0.rule == "schema/missing-key" }.map { $0.message.components(separatedBy: "add ").last ?? "" } == [
            "`placement: lvl2`", "`placement: lvl2`", "`placement: lvl2`", "`placement: hint`", "`placement: lvl2`",
        ], "\(found)")
    }

    /// Two tests of a file with one name get a warning at the second, with a note at the first: the PASS and FAIL lines
    /// could not tell them apart. Both still run; a comment hides it.
    @Test func aTestNamedAsAnEarlierOneIsWarnedOf() throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: banner}\n")
        let test = "  - name: cold start\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n"
        let (scenario, found) = ScenarioDecoder.decode(Array(("tests:\n" + test + test).utf8), file: "t.test.yaml", policy: policy)
        #expect(scenario.tests.count == 2)
        #expect(found.map(\.rule) == ["scenario/duplicate-name"], "\(found)")
        #expect(found.first?.range.start == SourcePosition(line: 6, column: 11), "\(found)")
        #expect(found.first?.notes.map(\.position) == [SourcePosition(line: 2, column: 5)], "\(found)")
        let hidden = "tests:\n" + test + "  - start: 2026-11-29T09:00:00Z\n    # adrules:disable-next-line scenario/duplicate-name\n"
            + "    name: cold start\n    steps:\n      - event: app_launched\n"
        #expect(ScenarioDecoder.decode(Array(hidden.utf8), file: "t.test.yaml", policy: policy).1.isEmpty)
    }

    /// Slips a product manager makes in a step, each told the step to write (from a review of scenario messages: each
    /// got the generic "write key: value pairs" or a list of every value).
    @Test(arguments: [
        ("      - app_resumed\n", "a step must be a mapping of keys to values, not \"app_resumed\": write - event: app_resumed"),
        ("      - event show_started\n", "write - {event: show_started, placement: a}"),
        ("      - ask load\n", "write - {ask: load, placement: a, expect: allow}"),
        ("      - {ask: load, placement: a, reasons: ad_not_ready}\n", "reasons must be a list, not \"ad_not_ready\": write it in brackets, [ad_not_ready], or each item"),
        ("      - ask: load\n        placement: a\n        reasons: ad_not_ready, already_loaded\n", "write it in brackets, [ad_not_ready, already_loaded], or"),
        ("      - {ask: load, placement: a, expect: deny, next_allowed_at: 2026-11-29T09:04:00Z}\n", "unknown key \"next_allowed_at\" in a step: did you mean \"retry_in\"?"),
        ("      - {ask: load, placement: a, expect: deny, retry_in: 2026-11-29T09:04:00Z}\n", "retry_in must be a duration, not the time 2026-11-29T09:04:00Z: it is the wait"),
        ("      - {event: reward, placement: r}\n", "write ask: reward, with expect: allow or deny; or, to record that it happened, event: reward_earned (or reward_granted)"),
        ("      - {event: a}\n", "a is a placement, not an event: write the event with it, as in {event: show_started, placement: a}"),
        ("      - {event: interstitial}\n", "interstitial is an ad format, not an event: write the event with a placement, as in {event: show_started, placement: a}"),
        ("      - {event: banner}\n", "banner is an ad format, not an event: write the event with a placement, as in {event: show_started, placement: a}"),
    ]) func stepSlipsAreToldTheStepToWrite(_ step: String, _ message: String) throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial}\n  r: {format: rewarded}\n")
        let text = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n" + step
        let found = ScenarioDecoder.decode(Array(text.utf8), file: "t.test.yaml", policy: policy).1
        #expect(found.count == 1 && found[0].message.contains(message), "\(found.map(\.message))")
    }

    /// A time that misses a part RFC 3339 requires is told what to add, written out; one no such fix mends is not.
    @Test(arguments: [
        ("2026-11-29T09:00:00+0900", "add the colon of its offset: write 2026-11-29T09:00:00+09:00"),
        ("2026-11-29T09:00Z", "add its seconds: write 2026-11-29T09:00:00Z"),
        ("2026-11-29T09:00:00", "add its offset from UTC, as in 2026-11-29T09:00:00Z or 2026-11-29T09:00:00+09:00"),
        ("2026-11-29T09:00-0530", "add its seconds and the colon of its offset: write 2026-11-29T09:00:00-05:30"),
        ("2026-13-29T09:00:00", nil), ("2026-11-29", "add a time of day and its offset from UTC, as in 2026-11-29T09:00:00Z"), ("2026-13-29", nil),
        // Only what a scenario takes: no fraction past milliseconds, and no year before 0001 in UTC.
        ("2026-11-29T09:00:00.1234", nil), ("2026-11-29T09:00:00.1234+0900", nil),
        ("0001-01-01T00:00", "add its seconds and its offset from UTC, as in 0001-01-01T00:00:00Z"),
        // A part written with one digit.
        ("2026-11-29T9:00:00Z", "months, days, hours, minutes and seconds take two digits: write 2026-11-29T09:00:00Z"),
        ("2026-1-5T09:00:00+09:00", "months, days, hours, minutes and seconds take two digits: write 2026-01-05T09:00:00+09:00"),
        // A time of day alone.
        ("09:30", "add the date and its offset from UTC, as in 2026-11-29T09:30:00Z"),
        ("09:30:15", "add the date and its offset from UTC, as in 2026-11-29T09:30:15Z"), ("25:30", nil), ("09:3", nil),
        // With one digit for the hour, or with its offset written.
        ("9:30", "add the date and its offset from UTC, as in 2026-11-29T09:30:00Z"),
        ("09:30Z", "add the date, as in 2026-11-29T09:30:00Z"), ("09:30+09:00", "add the date, as in 2026-11-29T09:30:00+09:00"),
        ("9:30:15-05:00", "add the date, as in 2026-11-29T09:30:15-05:00"), ("09:30+9", nil), ("9:3", nil), ("09:30.5Z", nil),
        // A date in another order or with other separators, perhaps with a 12-hour time; an order that cannot be told both ways.
        ("11/29/2026 8:00 PM", "write the date as year-month-day, hours from 00 to 23 and the offset from UTC, as in 2026-11-29T20:00:00Z or 2026-11-29T20:00:00+09:00"),
        ("29.11.2026 20:00", "write the date as year-month-day and the offset from UTC, as in 2026-11-29T20:00:00Z or 2026-11-29T20:00:00+09:00"),
        ("2026/11/29 20:00:00Z", "write the date as year-month-day, as in 2026-11-29T20:00:00Z"),
        ("12/25/2026 12:30 am +01:00", "write the date as year-month-day and hours from 00 to 23, as in 2026-12-25T00:30:00+01:00"),
        ("03/04/2026 10:00", "write the date as year-month-day and the offset from UTC: 2026-03-04T10:00:00Z if 03 is the month, 2026-04-03T10:00:00Z if it is the day"),
        ("03/03/2026", "write the date as year-month-day, a time of day and the offset from UTC, as in 2026-03-03T09:00:00Z or 2026-03-03T09:00:00+09:00"),
        ("13/13/2026", nil), ("11/29/26", nil), ("11/29/2026 13:00 PM", nil),
        // One slip away: a comma or a bare point before the fraction, a space before the offset, UTC for Z, an offset's
        // hour of one digit, the compact ISO 8601 form, a year of five digits or with a sign.
        ("2026-11-29T09:00:00,5Z", "write the fraction of a second after a point: 2026-11-29T09:00:00.5Z"),
        ("2026-11-29T09:00:00.Z", "a point is followed by the digits of a fraction: remove it, as in 2026-11-29T09:00:00Z"),
        ("2026-11-29T09:00:00 +09:00", "write the offset right after the time, with no space: 2026-11-29T09:00:00+09:00"),
        ("2026-11-29T09:00:00.5 UTC", "write UTC as Z: 2026-11-29T09:00:00.5Z"),
        ("2026-11-29T09:00:00+9:00", "an offset's hours take two digits: write 2026-11-29T09:00:00+09:00"),
        ("20261129T0900+0900", "write the date and time with their separators: 2026-11-29T09:00:00+09:00"),
        ("10000-01-01T00:00:00Z", "years are written with four digits and no sign, from 0001 to 9999"),
        ("-0001-01-01T00:00:00Z", "years are written with four digits and no sign, from 0001 to 9999"),
        ("2026-11-29T09:00:00Z2026", nil), ("2026-11-29T09:00:00+9:60", nil),
    ] as [(String, String?)])
    func aTimeMissingAPartIsToldWhatToAdd(_ written: String, _ advice: String?) throws {
        let policy = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  p: {format: banner}\n")]).policy
        let text = "tests:\n  - name: t\n    start: \(written)\n    steps:\n      - event: app_launched\n"
        let (_, found) = ScenarioDecoder.decode(Array(text.utf8), file: "t.test.yaml", policy: policy)
        let message = try #require(found.first { $0.rule == "schema/type" }).message
        let head = "start must be an RFC 3339 time such as 2026-11-29T09:00:00+09:00, not \"\(written)\""
        #expect(message == head + (advice.map { ": " + $0 } ?? ""))
    }

    /// rules.md §8 (r2): recorded times later than now, "from a scenario's `history` and `installed` alike", are pinned
    /// to the time of the first step that comes before them: how a clock set back before a test is tested. Unpinned,
    /// the future show would count in its own day (no daily_cap today) and the install's grace would always be an hour
    /// away; pinned to start, the grace would end 10 minutes early.
    @Test func historyAndInstallAfterStartArePinnedToTheFirstStepBeforeThem() throws {
        let policy = PolicyLoader.load(texts: [("p.yaml", """
            version: 1
            timezone: UTC
            placements:
              p: {format: interstitial, min_interval: 4m, daily_cap: 1, grace: {after_install: 1h}}

            """)]).policy
        let text = """
            tests:
              - name: a show recorded tomorrow counts today, where it was pinned
                start: 2026-11-29T09:00:00Z
                installed: 2026-11-01T00:00:00Z
                history:
                  - {placement: p, at: 2026-11-30T10:00:00Z}
                steps:
                  - event: app_launched
                  - {event: load_completed, placement: p}
                  - {after: 1m, ask: show, placement: p, trigger: action, expect: deny, reasons: [min_interval, daily_cap], retry_in: 14h59m}
                  - {at: 2026-11-30T00:00:00Z, event: load_completed, placement: p}
                  - {ask: show, placement: p, trigger: action, expect: allow}
              - name: an install after start starts its grace at the first step
                start: 2026-11-29T09:00:00Z
                installed: 2026-12-05T00:00:00Z
                steps:
                  - event: app_launched
                  - {event: load_completed, placement: p}
                  - {after: 10m, ask: show, placement: p, trigger: action, expect: deny, reasons: [grace_install], retry_in: 50m}
                  - {after: 50m, ask: show, placement: p, trigger: action, expect: allow}
              - name: a time after start is pinned to the first step before it, not to start
                start: 2026-11-29T09:00:00Z
                installed: 2026-11-29T12:00:00Z
                steps:
                  - {after: 10m, event: app_launched}
                  - {event: load_completed, placement: p}
                  - {after: 10m, ask: show, placement: p, trigger: action, expect: deny, reasons: [grace_install], retry_in: 50m}
              - name: a time after start that no step comes before is kept as written
                start: 2026-11-29T09:00:00Z
                installed: 2026-11-29T09:30:00Z
                steps:
                  - {after: 1h, event: app_launched}
                  - {event: load_completed, placement: p}
                  - {ask: show, placement: p, trigger: action, expect: deny, reasons: [grace_install], retry_in: 30m}

            """
        let (scenario, found) = ScenarioDecoder.decode(Array(text.utf8), file: "t.test.yaml", policy: policy)
        #expect(found.isEmpty, "\(found)")
        try #require(scenario.tests.count == 4)
        for test in scenario.tests {
            let outcome = ScenarioRunner.run(test, policy: policy)
            #expect(outcome.passed, "\(test.name): \(outcome.failures.map(\.mismatches))")
        }
    }

    /// cli.md r2: an attribute written beside `premium` in a context belongs one level deeper, under `attributes:`; a
    /// misspelt one gets "did you mean" too. Followed, the advice gives a context the decoder reads.
    @Test func anAttributeBesidePremiumSaysToWriteItUnderAttributes() throws {
        let policy = PolicyLoader.load(texts: [("p.yaml", "version: 1\nattributes:\n  screen: {type: string, default: home}\nplacements:\n  p: {format: banner}\n")]).policy
        let text = MarkedText("""
            tests:
              - name: t
                start: 2026-11-29T12:00:00Z
                context: {1️⃣screen: shop}
                steps:
                  - {ask: show, placement: p, context: {premium: true, 2️⃣scren: a, 3️⃣lvl: 3}}

            """)
        let (_, found) = ScenarioDecoder.decode(Array(text.text.utf8), file: "t.test.yaml", policy: policy)
        func at(_ marker: String) -> String { "\(text[marker]?.line ?? 0):\(text[marker]?.column ?? 0)" }
        #expect(found.map { "\($0.range.start.line):\($0.range.start.column) \($0.message)" } == [
            "\(at("1️⃣")) unknown key \"screen\" in context: screen is an attribute of the policy: write it under `attributes:`, as in context: {attributes: {screen: …}}",
            "\(at("2️⃣")) unknown key \"scren\" in context: did you mean the attribute \"screen\"? Attributes go under `attributes:`, as in context: {attributes: {screen: …}}",
            "\(at("3️⃣")) unknown key \"lvl\" in context: the keys here are premium, attributes",
        ])
        let mended = "tests:\n  - name: t\n    start: 2026-11-29T12:00:00Z\n    context: {attributes: {screen: shop}}\n    steps:\n      - event: app_launched\n"
        let (_, none) = ScenarioDecoder.decode(Array(mended.utf8), file: "t.test.yaml", policy: policy)
        #expect(none.isEmpty, "\(none)")
    }

    /// A trigger on an ask that takes none is reported at the `trigger` key, as every other misplaced step key is
    /// (before, at the step's first key: another line in a block step), and an offer's says what an offer is.
    @Test func aTriggerOnAnAskThatTakesNoneIsReportedAtTheKey() {
        let policy = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  rw: {format: rewarded}\n")]).policy
        let scenario = """
            tests:
              - name: t
                start: 2026-03-01T10:00:00Z
                steps:
                  - ask: load
                    placement: rw
                    trigger: action
                  - ask: offer
                    placement: rw
                    trigger: resume
                  - {ask: offer, placement: rw, trigger: action}

            """
        let (_, found) = ScenarioDecoder.decode(Array(scenario.utf8), file: "t.test.yaml", policy: policy)
        #expect(found.map { "\($0.range.start.line):\($0.range.start.column)-\($0.range.end.column)" } == ["7:9-16", "10:9-16"], "\(found)")
        #expect(found.map(\.rule) == ["schema/unknown-key", "schema/enum"])
        #expect(found.map(\.message) == [
            "trigger applies to show asks only: remove it",
            "an offer is always asked on a user action: remove the trigger (or write trigger: action)",
        ])
    }

    @Test func aMistypedCommandGetsASuggestion() {
        let result = runCLI(["lnit"])
        #expect(result.exitCode == ExitCode.usage)
        #expect(result.stderr.hasPrefix(#"error: unknown command "lnit"; did you mean "lint"?"#))
        #expect(runCLI(["impct"]).stderr.hasPrefix(#"error: unknown command "impct"; did you mean "impact"?"#))
    }

    @Test func anUnknownOptionPrintsTheCommandsUsage() {
        let result = runCLI(["lint", "--frobnicate"])
        #expect(result.exitCode == ExitCode.usage)
        #expect(result.stderr.contains("USAGE: adrules lint"))
        #expect(!result.stderr.contains("COMMANDS:"))
    }

    @Test func helpSimulateDescribesTheScenarioFormat() {
        let result = runCLI(["help", "simulate"])
        #expect(result.stdout.contains("SCENARIO FILES"))
        #expect(result.stdout.contains("at:"))
    }

    @Test func aDailyCapReasonNamesTheDayAndZone() throws {
        let policy = try Policy(yaml: "version: 1\ntimezone: Asia/Tokyo\nplacements:\n  a: {format: interstitial, daily_cap: 1}\n")
        var facts = Facts(policy: policy, installedAt: 0)
        let now: Int64 = 1_795_000_000_000
        facts.apply(.appLaunched, at: now, policy: policy)
        facts.apply(.showStarted("a"), at: now, policy: policy)
        facts.apply(.adClosed("a"), at: now, policy: policy)
        facts.apply(.loadCompleted("a"), at: now, policy: policy)
        let decision = Evaluator.decide(.show("a", trigger: .action), policy: policy, facts: facts, now: now + 1000)
        let reason = try #require(decision.reasons.first { $0.code == .dailyCap })
        #expect(reason.message.contains("in Asia/Tokyo"))
        #expect(decision.description.contains("next at 20"), "a full date and zone: \(decision.description)")
    }
}
