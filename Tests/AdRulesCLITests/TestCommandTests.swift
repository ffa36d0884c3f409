import AdRules
import AdRulesCompiler
import AdRulesTestSupport
import Foundation
import Testing

@testable import AdRulesCLI

@Suite("adrules test and simulate")
struct TestCommandTests {
    /// How the scenario work bound's error begins at a step, up to what the step is.
    static let overWork = "error: the steps up to this one would take more than 200 million steps of the policy's rules and caps (this one, "

    /// cli.md's example scenario, word for word: an app-open ad is shown, the user leaves and comes back with no
    /// `ad_closed`, and the resume show is denied for `ad_not_ready` alone (leaving dismissed the app-open ad), then
    /// a premium offer for `premium_user`. The same steps with a rewarded ad on screen keep it there.
    @Test func theSpecsExampleScenarioPasses() throws {
        let example = """
            tests:
              - name: a resume with no ready ad never shows late
                start: 2026-11-29T09:00:00+09:00   # required, RFC 3339
                device_timezone: Asia/Tokyo        # used when the policy says timezone: device (default UTC)
                installed: 2026-11-01T00:00:00Z    # default: start
                sessions_before: 3                 # sessions before start (default 0)
                history:                           # shows before start, in earlier sessions
                  - {placement: app_open, at: 2026-11-29T08:58:00+09:00}
                context: {premium: false, attributes: {screen: home}}   # default context of asks
                steps:
                  - event: app_launched            # `after:` is time since the previous step (default 0s)
                  # `at: 2026-11-29T08:00:00+09:00` instead of `after:` sets the clock to that time,
                  # earlier than the previous step's when the device clock was set back (r2)
                  - {after: 2s, event: load_completed, placement: app_open}
                  - {ask: show, placement: app_open, trigger: load_completed, expect: allow}
                  - {event: show_started, placement: app_open}
                  - {after: 5m, event: app_backgrounded}
                  - {after: 1m, event: app_resumed}
                  - ask: show
                    placement: app_open
                    trigger: resume
                    expect: deny
                    reasons: [ad_not_ready]        # the exact set of reason codes
                    retry_in: null                 # optional: next_allowed_at - step time, or null
                  - {ask: offer, placement: rewarded_unlock, context: {premium: true}, expect: deny, reasons_include: [premium_user]}

            """
        let policy = """
            version: 1
            timezone: device
            placements:
              app_open: {format: app_open, min_interval: 1m}
              rewarded_unlock: {format: rewarded, daily_cap: 10}
            attributes:
              screen: string

            """
        let rewardedFirst = example
            .replacingOccurrences(of: "{event: show_started, placement: app_open}", with: "{event: show_started, placement: rewarded_unlock}")
            .replacingOccurrences(of: "reasons: [ad_not_ready]  ", with: "reasons: [fullscreen_active]")
        let dir = try temporaryDirectory("adrules-spec-example", ["p.yaml": policy, "a.test.yaml": example, "b.test.yaml": rewardedFirst])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["test", dir])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasSuffix("2 passed, 0 failed\n"), "\(result.stdout)")
    }

    /// Every entry of `test --format json` has the same keys (a broken scenario file or policy has no line and no
    /// failing step, and its findings), and a run that tested nothing says so in the document, not only on stderr.
    @Test func testJSONEntriesShareTheirKeysAndNothingTestedIsAnError() throws {
        let keys: Set<String> = ["file", "line", "name", "passed", "failures", "diagnostics"]
        let dir = try temporaryDirectory("adrules-json-shapes", [
            "p.yaml": "version: 1\nplacements:\n  p: {format: interstitial, min_interval: 1m}\n",
            "good.test.yaml": "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {ask: show, placement: p, expect: deny}\n",
            "bad.test.yaml": "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {ask: show, placement: p, expect: perhaps}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = runCLI(["test", dir, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let tests = try #require(object["tests"] as? [[String: Any]])
        #expect(tests.count == 2)
        for entry in tests { #expect(Set(entry.keys) == keys, "\(entry)") }
        #expect(tests.contains { ($0["diagnostics"] as? [Any])?.isEmpty == false && $0["line"] is NSNull })
        #expect((object["errors"] as? [Any])?.isEmpty == true)

        let empty = try temporaryDirectory("adrules-json-nothing", ["p.yaml": "version: 1\nplacements:\n  p: {format: banner}\n"])
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let nothing = runCLI(["test", empty, "--format", "json"])
        #expect(nothing.exitCode == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(nothing.stdout.utf8)) as? [String: Any])
        let errors = try #require(document["errors"] as? [String])
        #expect(errors.count == 1 && errors[0].hasSuffix("nothing was tested"), "\(errors)")
    }

    /// A path given twice against one policy is walked once (5,000 copies of a directory of 1,000 files took 9 s to
    /// walk), and named once; the same scenario file under another directory's name (a symlink) still runs against
    /// that directory's policy.
    @Test func aPathGivenTwiceIsWalkedOnceAgainstEachPolicy() throws {
        let dir = try temporaryDirectory("adrules-twice", [
            "B/p.yaml": "version: 1\nplacements:\n  p: {format: banner}\n",
            "B/x.test.yaml": "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {event: load_completed, placement: p}\n      - {ask: show, placement: p, trigger: action, expect: allow}\n",
            "A/p.yaml": "version: 1\nplacements:\n  p: {format: banner, enabled: false}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A rule file named twice is told once that it holds no test.
        let rule = runCLI(["test", dir + "/B/p.yaml", dir + "/B/p.yaml", dir + "/B/x.test.yaml"])
        #expect(rule.exitCode == 0 && rule.stdout.hasSuffix("1 passed, 0 failed\n"), "\(rule.stdout)\(rule.stderr)")
        #expect(rule.stderr.components(separatedBy: "is not a scenario file").count == 2, "\(rule.stderr)")
        // A's policy disables p: its link to B's file fails there, whichever comes first.
        try FileManager.default.createSymbolicLink(atPath: dir + "/A/s.test.yaml", withDestinationPath: "../B/x.test.yaml")
        for order in [[dir + "/B/x.test.yaml", dir + "/A/s.test.yaml"], [dir + "/A/s.test.yaml", dir + "/B/x.test.yaml"]] {
            let run = runCLI(["test"] + order)
            #expect(run.exitCode == 1 && run.stdout.hasSuffix("1 passed, 1 failed\n"), "\(order): \(run.stdout)")
        }
    }

    /// Each scenario file is bounded by its own work, and a run of many by their sum: a file that would take the run
    /// past it does not run (a failure that says why, at its first test), and a later file that fits still does.
    @Test func theFilesOfARunAreBoundedTogether() throws {
        let asks = String(repeating: "      - {ask: show, placement: p, trigger: action}\n", count: 40)
        func scenario(_ steps: String) -> String { "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n" + steps }
        let dir = try temporaryDirectory("adrules-run-work", [
            "p.yaml": "version: 1\nplacements:\n  p: {format: interstitial}\nrules:\n  - {id: r, deny: [p], when: \"session.count > 5\"}\n",
            "a.test.yaml": scenario(asks), "b.test.yaml": scenario(asks), "c.test.yaml": scenario(""),
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func prepared(_ limit: Int) -> [ScenarioPolicies.Prepared] {
            var policies = ScenarioPolicies()
            policies.maxRunWork = limit
            return ["a", "b", "c"].map { policies.prepare(file: "\(dir)/\($0).test.yaml", rulesPath: dir) }
        }
        func work(_ prepared: ScenarioPolicies.Prepared) -> Int? {
            if case .ready(let scenario, _, _) = prepared { return scenario.work }
            return nil
        }
        let all = prepared(Int.max)
        let (a, b, c) = (try #require(work(all[0])), try #require(work(all[1])), try #require(work(all[2])))
        #expect(a > c && a == b, "\(a) \(b) \(c)")
        // Room for a and c, not b: b does not run, c still does.
        let bounded = prepared(a + c)
        #expect(work(bounded[0]) == a && work(bounded[2]) == c)
        guard case .broken(let name, let findings) = bounded[1] else {
            Issue.record("b ran: \(bounded[1])")
            return
        }
        #expect(name.hasSuffix("b.test.yaml (not run: the run's scenario files take too long together)"), "\(name)")
        #expect(findings.map(\.rule) == ["schema/range"] && findings[0].range.start.line == 2, "\(findings)")
        #expect(findings[0].message.contains("(the files run before this one about \(a), this one about \(b)), so its tests do not run"), "\(findings[0].message)")
    }

    /// The names of the external sources a test left open count in its own asks only: the next test starts with none
    /// open, and its asks' work does not count their bytes (it did, so a file's bound was reached sooner than its steps
    /// could take).
    @Test func aTestsOpenSourcesDoNotWeighOnTheNext() throws {
        func file(sourceName: String) -> String {
            "tests:\n  - name: opens\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {event: fullscreen_opened, source: \(sourceName)}\n"
                + "  - name: asks\n    start: 2026-11-29T09:00:00Z\n    steps:\n"
                + String(repeating: "      - {ask: load, placement: p}\n", count: 20)
        }
        let dir = try temporaryDirectory("adrules-source-work", [
            "p.yaml": "version: 1\nplacements:\n  p: {format: interstitial}\n",
            "long.test.yaml": file(sourceName: String(repeating: "n", count: 3_200)), "short.test.yaml": file(sourceName: "n"),
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var policies = ScenarioPolicies()
        let works = ["long", "short"].map { name -> Int? in
            if case .ready(let scenario, _, _) = policies.prepare(file: "\(dir)/\(name).test.yaml", rulesPath: dir) { return scenario.work }
            return nil
        }
        let (long, short) = (try #require(works[0]), try #require(works[1]))
        #expect(long == short, "\(long) \(short)")
    }

    /// `simulate --format json` of a policy or scenario file with findings writes the replay's document (no test, and
    /// the findings), not lint's.
    @Test func simulateJSONOfABrokenFileKeepsItsShape() throws {
        let dir = try temporaryDirectory("adrules-simulate-shape", [
            "p.yaml": "version: 1\nplacements:\n  p: {format: interstitial, daily_cap: six}\n",
            "s.test.yaml": "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {ask: show, placement: p}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = runCLI(["simulate", dir + "/s.test.yaml", "--format", "json"])
        #expect(run.exitCode == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["version", "file", "tests", "diagnostics"])
        #expect((object["tests"] as? [Any])?.isEmpty == true)
        #expect(((object["diagnostics"] as? [[String: Any]])?.first?["rule"] as? String) == "schema/type", "\(run.stdout)")
    }

    @Test func rulesOptionPointsAtAnotherPolicy() {
        let result = runCLI(["test", "FIXTURES/failing/fail.test.yaml", "--rules", "FIXTURES/scenarios"])
        #expect(result.exitCode == 1)
        #expect(result.stdout.hasSuffix("1 passed, 1 failed\n"))
    }

    @Test func aScenarioFileUsesItsDirectoryAsThePolicy() {
        let result = runCLI(["test", "FIXTURES/scenarios/pass.test.yaml"])
        #expect(result.exitCode == 0)
        #expect(result.stdout == "PASS a cold start shows when the first load completes\n1 passed, 0 failed\n")
    }

    /// A scenario file named twice, or through a directory and by name, runs once (it ran, and counted, twice).
    @Test func aScenarioFileNamedTwiceRunsOnce() {
        let once = runCLI(["test", "rules"].map { $0 == "rules" ? packageRoot() + "/rules" : $0 })
        let twice = runCLI(["test", packageRoot() + "/rules", packageRoot() + "/rules", packageRoot() + "/rules/app_open.test.yaml"])
        #expect(once.exitCode == 0 && twice.exitCode == 0)
        #expect(twice.stdout.split(separator: "\n").last == once.stdout.split(separator: "\n").last, "\(twice.stdout.suffix(40))")
    }

    @Test func jsonReportsEveryTestAndTheMismatch() throws {
        let result = runCLI(["test", "FIXTURES/failing", "--format", "json"])
        #expect(result.exitCode == 1)
        #expect(result.stderr == "1 passed, 1 failed\n")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["passed"] as? Int == 1)
        #expect(object["failed"] as? Int == 1)
        let tests = try #require(object["tests"] as? [[String: Any]])
        let failing = try #require(tests.first { $0["passed"] as? Bool == false })
        let failure = try #require((failing["failures"] as? [[String: Any]])?.first)
        #expect(failure["line"] as? Int == 16)
        #expect(failure["mismatches"] as? [String] == ["verdict", "reasons", "retry_in"])
        #expect((failure["actual"] as? [String: Any])?["verdict"] as? String == "allow")
    }

    /// A failing step lists the expected codes in the order the decision lists them: for a reward ask, its own
    /// table's order (no_user_choice after no_show), in text and json. A step with an empty source is refused.
    @Test func expectedCodesFollowTheAsksOwnOrder() throws {
        let dir = try temporaryDirectory("adrules-order", ["p.yaml": "version: 1\nplacements:\n  it: {format: interstitial, require_user_choice: true}\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try """
            tests:
              - name: t
                start: 2026-11-29T09:00:00Z
                steps:
                  - event: app_launched
                  - {event: load_completed, placement: it}
                  - {event: show_started, placement: it}
                  - {ask: reward, placement: it, expect: deny, reasons: [reward_not_earned, no_user_choice, not_rewarded_format, reward_already_granted]}

            """.write(toFile: dir + "/a.test.yaml", atomically: true, encoding: .utf8)
        let text = runCLI(["test", dir])
        #expect(text.exitCode == 1)
        #expect(text.stdout.contains("[not_rewarded_format, no_user_choice, reward_not_earned, reward_already_granted]  [not_rewarded_format, no_user_choice, reward_not_earned]"), "\(text.stdout)")
        let json = runCLI(["test", dir, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let failure = try #require(((object["tests"] as? [[String: Any]])?.first?["failures"] as? [[String: Any]])?.first)
        #expect((failure["expected"] as? [String: Any])?["reasons"] as? [String] == [
            "not_rewarded_format", "no_user_choice", "reward_not_earned", "reward_already_granted",
        ])
        try "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {event: fullscreen_closed, source: \"\"}\n"
            .write(toFile: dir + "/a.test.yaml", atomically: true, encoding: .utf8)
        let empty = runCLI(["test", dir])
        #expect(empty.exitCode == 1)
        #expect(empty.stdout.contains("a.test.yaml:5:44: error: source must be the name of the SDK"), "\(empty.stdout)")
    }

    /// A policy with errors is reported as lint reports it: the findings, and the summary on stderr.
    @Test func aBrokenPolicyIsReportedLikeLint() throws {
        let dir = scratchPath("adrules-broken")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "version: 1\nplacements:\n  a: {format: interstitial, daily_cap: x}\n".write(toFile: dir + "/p.yaml", atomically: true, encoding: .utf8)
        try "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n".write(toFile: dir + "/a.test.yaml", atomically: true, encoding: .utf8)
        for command in ["test", "simulate"] {
            let result = runCLI([command, command == "test" ? dir : dir + "/a.test.yaml"])
            #expect(result.exitCode == 1)
            #expect(result.stdout.contains("p.yaml:3:40: error: daily_cap must be a whole number"), "\(command)")
            #expect(result.stderr == "Found 1 error and 0 warnings in 1 file.\n", "\(command)")
        }
    }

    /// A test written in local time (`+09:00`) against a `timezone: device` policy, with no `device_timezone`, runs its
    /// device in UTC (cli.md): a failure says so, and how to name the zone. A test that names it, or writes UTC, or
    /// passes, gets no note.
    @Test func aFailureInLocalTimeWithNoDeviceZoneSaysDaysCountInUTC() throws {
        let policy = "version: 1\ntimezone: device\nplacements:\n  a: {format: interstitial, daily_cap: 1, max_ad_age: 4h}\n"
        func test(start: String, zone: String, expect: String) -> String {
            "tests:\n  - name: t\n    start: \(start)\n\(zone)    steps:\n      - event: app_launched\n"
                + "      - {event: load_completed, placement: a}\n      - {event: show_started, placement: a}\n"
                + "      - {after: 5s, event: ad_closed, placement: a}\n      - {event: load_completed, placement: a}\n"
                + "      - {after: 2h, ask: show, placement: a, trigger: action, expect: \(expect)}\n"
        }
        let note = "note: the policy says timezone: device and this test names no device_timezone, so its device counts days and hours in UTC, not in the +09:00 its start is written in: add device_timezone"
        // 23:00 in Tokyo: two hours later is a new day there, and the same day in UTC.
        let cases: [(start: String, zone: String, expect: String, code: Int32, noted: Bool)] = [
            ("2026-12-01T23:00:00+09:00", "", "allow", 1, true),
            ("2026-12-01T23:00:00+09:00", "    device_timezone: Asia/Tokyo\n", "allow", 0, false),
            ("2026-12-01T23:00:00+09:00", "", "deny", 0, false),
            ("2026-12-01T10:00:00Z", "", "allow", 1, false),
        ]
        for c in cases {
            let dir = try temporaryDirectory("adrules-zone-note", ["p.yaml": policy, "a.test.yaml": test(start: c.start, zone: c.zone, expect: c.expect)])
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let result = runCLI(["test", dir])
            #expect(result.exitCode == c.code, "\(c) \(result.stdout)")
            #expect(result.stdout.contains(note) == c.noted, "\(c) \(result.stdout)")
        }
    }

    @Test func quietDropsTheClosingLine() {
        let result = runCLI(["test", "FIXTURES/scenarios", "--quiet"])
        #expect(result.stdout == "PASS a cold start shows when the first load completes\n")
    }

    @Test func colorAlwaysPaintsTheVerdicts() {
        let result = runCLI(["test", "FIXTURES/scenarios", "--color", "always"])
        #expect(result.stdout.contains("\u{1B}[1;32mPASS\u{1B}[0m"))
        let lint = runCLI(["lint", "FIXTURES/bad.yaml", "--color=always"])
        #expect(lint.stdout.contains("\u{1B}[1;31merror\u{1B}[0m"))
        #expect(!runCLI(["lint", "FIXTURES/bad.yaml", "--color", "never"]).stdout.contains("\u{1B}["))
        // simulate took --color and printed the findings of a broken policy without it.
        let simulate = runCLI(["simulate", "FIXTURES/scenarios/pass.test.yaml", "--rules", "FIXTURES/bad.yaml", "--color", "always"])
        #expect(simulate.stdout.contains("\u{1B}[1;31merror\u{1B}[0m"), "\(simulate.stdout)")
    }

    @Test func missingRulesDirectoryIsAnIOFailure() {
        let result = runCLI(["test", "FIXTURES/scenarios", "--rules", "FIXTURES/nowhere"])
        #expect(result.exitCode == 3)
        #expect(result.stderr.contains("no such file or directory"))
    }

    /// A run that could not read one of its scenario files (a FIFO) writes no json document, as lint writes none: the
    /// tests it did run would read as the complete result. Text still lists them, with the error.
    @Test func aScenarioFileThatCannotBeReadLeavesNoJSONDocument() throws {
        let dir = try temporaryDirectory("adrules-unread-scenario", [
            "p.yaml": "version: 1\nplacements:\n  p: {format: banner}\n",
            "a.test.yaml": "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {ask: load, placement: p, expect: allow}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // An earlier run's report at --output is removed, with a note: CI would read it as this run's.
        let report = dir + "/report.json"
        #expect(runCLI(["test", dir, "--rules", dir + "/p.yaml", "--format", "json", "--output", report]).exitCode == 0)
        try #require(FileManager.default.fileExists(atPath: report))
        try #require(mkfifo(dir + "/b.test.yaml", 0o644) == 0)
        let stale = runCLI(["test", dir, "--rules", dir + "/p.yaml", "--format", "json", "--output", report])
        #expect(stale.exitCode == 3 && !FileManager.default.fileExists(atPath: report), "\(stale.stderr)")
        #expect(stale.stderr.hasSuffix("note: removed the earlier report at \(report): this run has none, and the old one would read as this run's\n"), "\(stale.stderr)")
        // So does a run stopped before it starts, by an entry of its directory that cannot be opened.
        try FileManager.default.removeItem(atPath: dir + "/b.test.yaml")
        #expect(runCLI(["test", dir, "--rules", dir + "/p.yaml", "--format", "json", "--output", report]).exitCode == 0)
        try FileManager.default.createSymbolicLink(atPath: dir + "/c.test.yaml", withDestinationPath: dir + "/nowhere")
        let stopped = runCLI(["test", dir, "--rules", dir + "/p.yaml", "--format", "json", "--output", report])
        #expect(stopped.exitCode == 3 && !FileManager.default.fileExists(atPath: report), "\(stopped.stderr)")
        #expect(stopped.stderr.contains("note: removed the earlier report"), "\(stopped.stderr)")
        try FileManager.default.removeItem(atPath: dir + "/c.test.yaml")
        try #require(mkfifo(dir + "/b.test.yaml", 0o644) == 0)
        // Any other file there is the user's.
        try "notes".write(toFile: report, atomically: false, encoding: .utf8)
        #expect(runCLI(["test", dir, "--rules", dir + "/p.yaml", "--format", "json", "--output", report]).exitCode == 3)
        #expect(try String(contentsOfFile: report, encoding: .utf8) == "notes")
        let json = runCLI(["test", dir, "--rules", dir + "/p.yaml", "--format", "json"])
        #expect(json.exitCode == 3 && json.stdout.isEmpty, "\(json.stdout)")
        #expect(json.stderr.contains("b.test.yaml") && json.stderr.hasSuffix("1 passed, 0 failed\n"), "\(json.stderr)")
        let text = runCLI(["test", dir, "--rules", dir + "/p.yaml"])
        #expect(text.exitCode == 3 && text.stdout.contains("PASS t"), "\(text.stdout)")
        // With nothing read, no count follows the error, in json as in text.
        let nothing = runCLI(["test", dir + "/b.test.yaml", "--rules", dir + "/p.yaml", "--format", "json"])
        #expect(nothing.exitCode == 3 && !nothing.stderr.contains("passed"), "\(nothing.stderr)")
    }

    @Test func simulateNeedsAScenario() {
        let result = runCLI(["simulate"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("error: missing expected argument \"SCENARIO\""))
        #expect(runCLI(["simulate", "FIXTURES/nope.test.yaml"]).exitCode == 3)
    }

    @Test func simulateCountsShowsPerDayInThePolicyZone() {
        let result = runCLI(["simulate", "FIXTURES/scenarios/pass.test.yaml"])
        #expect(result.stdout.contains("  2026-11-29         1\n"))
    }
}
