import AdRules
import AdRulesCLI
import AdRulesCompiler
import AdRulesTestSupport
import Foundation
import Testing

/// What bounds a scenario run and its reports: the decisions a report lists, the failures it shows, and the work a
/// file of asks, events, histories and long values may ask for (docs/limits.md).
extension TestCommandTests {
    /// A decision with thousands of reasons lists the first fifty in text and counts the rest (a 6 KB scenario
    /// against 10,000 rules that all deny took 760 MB to report); json lists them all.
    @Test func aDecisionWithManyReasonsIsListedInPart() throws {
        let rules = (0..<120).map { "  - {id: r\($0), deny: \"*\", when: \"not premium\"}\n" }.joined()
        let dir = try temporaryDirectory("adrules-many-reasons", [
            "p.yaml": "version: 1\nplacements:\n  p0: {format: interstitial, min_interval: 1s}\nrules:\n" + rules,
            "s.test.yaml": "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n      - {event: load_completed, placement: p0}\n      - {ask: show, placement: p0, expect: deny, reasons: [min_interval]}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let failed = runCLI(["test", dir])
        #expect(failed.exitCode == 1)
        #expect(failed.stdout.components(separatedBy: "custom_rule:").count - 1 == 50, "\(failed.stdout.prefix(300))")
        #expect(failed.stdout.contains("70 more reasons are not listed (--format json lists them all)"))
        // Past 50 codes each distinct one is given once with its count: the one that differs is never cut.
        #expect(failed.stdout.contains("[custom_rule ×120]"), "\(failed.stdout.prefix(600))")
        let simulated = runCLI(["simulate", dir + "/s.test.yaml"])
        #expect(simulated.stdout.components(separatedBy: "custom_rule:").count - 1 == 50)
        let json = runCLI(["simulate", dir + "/s.test.yaml", "--format", "json"])
        #expect(json.stdout.components(separatedBy: "\"custom_rule\"").count - 1 == 120)
        // The json of a replay holds at most about 64 MB of reasons (2,000 asks of 121 short ones, at 256 bytes and
        // twice its message's each, are 70 MB); the text lists 50 a step.
        let asks = Array(repeating: "      - {ask: show, placement: p0}\n", count: 2000).joined()
        try ("tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n" + asks)
            .write(toFile: dir + "/long.test.yaml", atomically: false, encoding: .utf8)
        let long = runCLI(["simulate", dir + "/long.test.yaml", "--format", "json"])
        #expect(long.exitCode == 1 && long.stdout.isEmpty)
        #expect(long.stderr.hasSuffix("error: the replay's json would hold more than 64 MB of deny reasons and notes: use --format text, which lists 50 a step, or replay fewer asks\n"), "\(long.stderr)")
        #expect(runCLI(["simulate", dir + "/long.test.yaml"]).exitCode == 0)
        // test's json shares the bound over its tests: 20 tests of 100 failing asks of 121 reasons (ad_not_ready too)
        // would be 70 MB; the tests list all their failing steps until one lists those that fit, and the rest none.
        let failing = Array(repeating: "      - {ask: show, placement: p0, expect: allow}\n", count: 100).joined()
        let tests = (0..<20).map { "  - name: t\($0)\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n" + failing }.joined()
        try ("tests:\n" + tests).write(toFile: dir + "/many.test.yaml", atomically: false, encoding: .utf8)
        let report = runCLI(["test", dir + "/many.test.yaml", "--rules", dir + "/p.yaml", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let records = try #require(object["tests"] as? [[String: Any]])
        let listed = records.map { ($0["failures"] as? [Any])?.count ?? -1 }
        let full = listed.prefix { $0 == 100 }.count
        // How many fit depends on the length of the file's path, which each reason's location repeats.
        #expect((1..<20).contains(full) && listed[full] < 100 && listed.dropFirst(full + 1).allSatisfy { $0 == 0 }, "\(listed)")
        #expect(records.map { $0["more_failures"] as? Int ?? 0 } == listed.map { 100 - $0 })
    }

    /// The text reports of `test` and `simulate` hold about 64 MB of failing steps and reasons over a run, as the json
    /// does: 150 tests of 100 failing asks, each denied by 200 rules with 4,000-character messages, made 3 GB of text
    /// and crashed (`test --format json` built that text too, and threw it away).
    @Test func theTextReportsAreBounded() throws {
        let message = String(repeating: "m", count: 4_000)
        let rules = (0..<20).map { "  - {id: r\($0), deny: \"*\", when: \"not premium\", message: \"\(message)\"}\n" }.joined()
        let failing = Array(repeating: "      - {ask: show, placement: p0, expect: allow}\n", count: 100).joined()
        let tests = (0..<40).map { "  - name: t\($0)\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n" + failing }.joined()
        let dir = try temporaryDirectory("adrules-long-text", [
            "p.yaml": "version: 1\nplacements:\n  p0: {format: interstitial, min_interval: 1s}\nrules:\n" + rules,
            "many.test.yaml": "tests:\n" + tests,
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 40 tests x 100 steps x 20 reasons of 4 KB: 320 MB of messages unbounded.
        let tested = runCLI(["test", dir + "/many.test.yaml", "--rules", dir + "/p.yaml"])
        #expect(tested.exitCode == 1)
        #expect((60_000_000..<66_000_000).contains(tested.stdout.utf8.count), "\(tested.stdout.utf8.count)")
        // A test none of whose failing steps fits says that the run's bound, not its own, left them out.
        #expect(tested.stdout.hasSuffix("FAIL t39\n  100 failing steps not shown: the report reached 64 MB; fix the failures it lists, or test fewer files at once\n0 passed, 40 failed\n"))
        let simulated = runCLI(["simulate", dir + "/many.test.yaml", "--rules", dir + "/p.yaml"])
        #expect(simulated.exitCode == 0)
        #expect((60_000_000..<70_000_000).contains(simulated.stdout.utf8.count), "\(simulated.stdout.utf8.count)")
        // Past the bound each step keeps its line, and its reasons their codes; each test says so once.
        #expect(simulated.stdout.contains("    reasons [custom_rule ×20, ad_not_ready]\n"))
        let notice = "    (the report passed 64 MB: from here on reasons are listed by code, without their messages, and notes are counted)\n"
        let notices = simulated.stdout.components(separatedBy: notice).count - 1
        #expect((30..<40).contains(notices), "\(notices)")
        #expect(simulated.stdout.components(separatedBy: " -> deny").count - 1 == 4_000)
    }

    /// Notes count towards the bounds too: each ask after external fullscreen ads ran out notes each one (1,000
    /// sources with 1,000-character names and 100 asks made 114 MB of text, and as much json).
    @Test func notesCountTowardsTheBounds() throws {
        let opened = (0..<200).map { "      - {event: fullscreen_opened, source: s\($0)\(String(repeating: "x", count: 1_000))}\n" }.joined()
        let asks = Array(repeating: "      - {ask: show, placement: p0}\n", count: 400).joined()
        let dir = try temporaryDirectory("adrules-notes", [
            "p.yaml": "version: 1\nplacements:\n  p0: {format: interstitial, min_interval: 1s}\n",
            "n.test.yaml": "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n" + opened
                + "      - {after: 31m, event: app_backgrounded}\n" + asks,
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 400 asks of 200 notes of 1 KB: 80 MB unbounded.
        let simulated = runCLI(["simulate", dir + "/n.test.yaml", "--rules", dir + "/p.yaml"])
        #expect(simulated.exitCode == 0)
        #expect((60_000_000..<70_000_000).contains(simulated.stdout.utf8.count), "\(simulated.stdout.utf8.count)")
        #expect(simulated.stdout.contains("    200 notes\n"))
        let json = runCLI(["simulate", dir + "/n.test.yaml", "--rules", dir + "/p.yaml", "--format", "json"])
        #expect(json.exitCode == 1 && json.stdout.isEmpty && json.stderr.contains("MB of deny reasons and notes"), "\(json.stderr)")
    }

    /// A test lists its first 100 failing steps in full and counts the rest, in text and json.
    @Test func aTestReportsItsFirstHundredFailuresAndCountsTheRest() throws {
        let dir = try temporaryDirectory("adrules-many", ["p.yaml": "version: 1\nplacements:\n  it: {format: interstitial, min_interval: 1m}\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let steps = Array(repeating: "      - {ask: show, placement: it, expect: allow}\n", count: 250).joined()
        try ("tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n" + steps)
            .write(toFile: dir + "/a.test.yaml", atomically: true, encoding: .utf8)
        let text = runCLI(["test", dir])
        #expect(text.exitCode == 1)
        #expect(text.stdout.components(separatedBy: ": ask show it").count - 1 == 100)
        #expect(text.stdout.contains("  150 more failing steps in this test are not shown: fix the ones listed and test again\n"))
        let json = runCLI(["test", dir, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let test = try #require((object["tests"] as? [[String: Any]])?.first)
        #expect((test["failures"] as? [Any])?.count == 100)
        #expect(test["more_failures"] as? Int == 150)
    }

    /// A replay keeps the decisions its report shows, not every step's: `test` only the first failing ones, `simulate`
    /// none (each step is printed as it is played). Each kept decision holds every reason, and 3,000 asks against
    /// 10,000 rules that all deny ran out of memory at 2.4 GB.
    @Test func aReplayKeepsOnlyTheDecisionsItsReportShows() throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  it: {format: interstitial, min_interval: 1m}\n", file: "p.yaml")
        let steps = "      - event: app_launched\n      - {event: load_completed, placement: it}\n"
            + Array(repeating: "      - {ask: show, placement: it, expect: deny}\n", count: 3).joined()
            + Array(repeating: "      - {ask: show, placement: it, expect: allow}\n", count: 3).joined()
        let (scenario, diagnostics) = ScenarioDecoder.decode(Array(("tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n" + steps).utf8), file: "s.test.yaml", policy: policy)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let test = try #require(scenario.tests.first)
        var seen = 0
        let all = ScenarioRunner.run(test, policy: policy) { if $0.decision != nil { seen += 1 } }
        #expect(seen == 6 && all.steps.compactMap(\.decision).count == 6)
        let failures = ScenarioRunner.run(test, policy: policy, keeping: .failures(2, reasons: 1000))
        #expect(failures.failures.count == 3)
        // The asks are allowed: the three that expect deny fail, and the first two of them keep their decisions.
        #expect(failures.steps.map { $0.decision != nil } == [false, false, true, true, false, false, false, false])
        #expect(ScenarioRunner.run(test, policy: policy, keeping: .none).steps.allSatisfy { $0.decision == nil })
        // And up to a number of reasons in all, the first failing step whatever its reasons.
        let denied = "      - event: app_launched\n      - {event: load_completed, placement: it}\n      - {event: show_started, placement: it}\n"
            + Array(repeating: "      - {ask: show, placement: it, expect: allow}\n", count: 3).joined()
        let shown = try #require(ScenarioDecoder.decode(Array(("tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n" + denied).utf8), file: "s.test.yaml", policy: policy).0.tests.first)
        let few = ScenarioRunner.run(shown, policy: policy, keeping: .failures(3, reasons: 1))
        #expect(few.failures.count == 3 && few.failures.map { $0.decision != nil } == [true, false, false], "\(few.failures.map { $0.decision?.codes ?? [] })")
        // Past the first failing step not kept, none is: a later one with fewer reasons would leave a gap.
        let gap = "      - event: app_launched\n      - {event: load_completed, placement: it}\n      - {event: show_started, placement: it}\n"
            + "      - {ask: show, placement: it, expect: allow}\n      - {ask: show, placement: it, expect: allow}\n      - {event: ad_closed, placement: it}\n"
            + "      - {ask: show, placement: it, expect: allow}\n"
        let gapTest = try #require(ScenarioDecoder.decode(Array(("tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n" + gap).utf8), file: "s.test.yaml", policy: policy).0.tests.first)
        let all3 = ScenarioRunner.run(gapTest, policy: policy).failures.map { $0.decision?.reasonCount ?? 0 }
        #expect(all3 == [3, 3, 2], "\(all3): the third would fit the 5 left after the first")
        let kept = ScenarioRunner.run(gapTest, policy: policy, keeping: .failures(3, reasons: 5))
        #expect(kept.failures.count == 3 && kept.failures.map { $0.decision != nil } == [true, false, false], "\(kept.failures.map { $0.decision?.codes ?? [] })")
    }

    /// A file of asks is bounded by the work the rules of each asked placement take, with the lists its contexts give:
    /// past it, an error at the first ask over the bound, and no test runs (a 35 KB file against a policy of 10,000
    /// long rules ran for over 20 s). Only `show` and `offer` asks of placements the rules name are charged.
    @Test func aFileOfAsksIsBoundedByThePolicysRules() throws {
        // Each of 200 rules reads a list the app gives, 1,000 items in the test's context.
        let rules = (0..<200).map { "  - {id: r\($0), deny: [it], when: \"\\\"x\($0)\\\" in tags\"}\n" }.joined()
        let policy = "version: 1\nattributes:\n  tags: {type: \"[string]\", default: []}\nplacements:\n  it: {format: interstitial, min_interval: 1m}\n"
            + "  other: {format: interstitial, min_interval: 1m}\nrules:\n" + rules
        let tags = (0..<1000).map { "t\($0)" }.joined(separator: ", ")
        func scenario(_ ask: String, context: Bool = true) -> String {
            "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n" + (context ? "    context: {attributes: {tags: [\(tags)]}}\n" : "")
                + "    steps:\n      - event: app_launched\n" + Array(repeating: "      - {\(ask)}\n", count: 1001).joined()
        }
        let dir = try temporaryDirectory("adrules-work", [
            "p.yaml": policy, "s.test.yaml": scenario("ask: show, placement: it"),
            "load.test.yaml": scenario("ask: load, placement: it"), "other.test.yaml": scenario("ask: show, placement: other"),
            "short.test.yaml": scenario("ask: show, placement: it", context: false),
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(runCLI(["lint", dir]).exitCode == 0, "\(runCLI(["lint", dir]).stdout)")
        let result = runCLI(["test", dir + "/s.test.yaml", "--rules", dir + "/p.yaml"])
        #expect(result.exitCode == 1)
        // 200 rules of 1,000 items, three nodes and one step for the rule each, and the two fullscreen placements looked at:
        // 200,802 an ask; the 997th passes the bound.
        #expect(result.stdout.contains("s.test.yaml:1003:9: " + Self.overWork + "an ask of it, about 200802): split the file into smaller ones"), "\(result.stdout.prefix(400))")
        #expect(result.stdout.hasSuffix("0 passed, 1 failed\n"), "\(result.stdout.suffix(200))")
        // Loads read no rule, no rule names the other placement, and without the long list the rules are short.
        let cheap = runCLI(["test", dir + "/load.test.yaml", dir + "/other.test.yaml", dir + "/short.test.yaml", "--rules", dir + "/p.yaml"])
        #expect(cheap.stdout.hasSuffix("3 passed, 0 failed\n"), "\(cheap.stdout.suffix(300))")
    }

    /// The strings of a list count by their length too, read composed: a comparison may read a string to its end,
    /// more slowly outside ASCII (10,000 rules reading 1,000 strings of `e` and a combining accent made one ask take
    /// 27 s, which counted as 10 million steps).
    @Test func longStringsInAListCountByTheirLength() throws {
        let rules = (0..<200).map { "  - {id: r\($0), deny: [it], when: \"\\\"x\($0)\\\" in tags\"}\n" }.joined()
        let policy = "version: 1\nattributes:\n  tags: {type: \"[string]\", default: []}\nplacements:\n  it: {format: interstitial, min_interval: 1m}\n"
            + "  other: {format: interstitial, min_interval: 1m}\nrules:\n" + rules
        func scenario(_ item: String, asks: Int = 60) -> String {
            let tags = Array(repeating: item, count: 1000).joined(separator: ", ")
            return "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    context: {attributes: {tags: [\(tags)]}}\n"
                + "    steps:\n      - event: app_launched\n" + Array(repeating: "      - {ask: show, placement: it}\n", count: asks).joined()
        }
        // Read composed: 601 bytes, 1 + 601 / 32 steps an item; 901 bytes of ASCII, 1 + 901 / 256.
        let accented = "x" + String(repeating: "e\u{301}", count: 300)
        let plain = "x" + String(repeating: "e", count: 900)
        let longer = "x" + String(repeating: "e\u{301}", count: 1000)
        let many = (0..<4000).map { "  - {id: r\($0), deny: [it], when: \"\\\"x\($0)\\\" in tags\"}\n" }.joined()
        let policy20 = "version: 1\nattributes:\n  tags: {type: \"[string]\", default: []}\nplacements:\n  it: {format: interstitial, min_interval: 1m}\n"
            + "  other: {format: interstitial, min_interval: 1m}\nrules:\n" + many
        let dir = try temporaryDirectory("adrules-string-work", [
            "p.yaml": policy, "accented.test.yaml": scenario(accented), "plain.test.yaml": scenario(plain),
            "longer.test.yaml": scenario(longer, asks: 1),
        ])
        let dir20 = try temporaryDirectory("adrules-string-work-4000", ["p20.yaml": policy20])
        defer { try? FileManager.default.removeItem(atPath: dir20) }
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["test", dir + "/accented.test.yaml", "--rules", dir + "/p.yaml"])
        #expect(result.exitCode == 1)
        // 200 rules of 1,000 items of 19 steps, four steps a rule, two fullscreen placements: 3,800,802 an ask; the 53rd passes.
        #expect(result.stdout.contains("accented.test.yaml:59:9: " + Self.overWork + "an ask of it, about 3800802)"), "\(result.stdout.prefix(400))")
        let cheap = runCLI(["test", dir + "/plain.test.yaml", "--rules", dir + "/p.yaml"])
        #expect(cheap.stdout.hasSuffix("1 passed, 0 failed\n"), "\(cheap.stdout.suffix(300))")
        // One ask over the bound on its own: splitting the file would not help, and the advice says what would.
        // 4,000 rules of 1,000 items of 1 + 2,001 / 32 = 63 steps: 252,016,002 for the one ask.
        let single = runCLI(["test", dir + "/longer.test.yaml", "--rules", dir20 + "/p20.yaml"])
        #expect(single.stdout.contains("longer.test.yaml:7:9: " + Self.overWork + "an ask of it, about 252016002): this step alone is over it: give the rules shorter lists (fewer or shorter strings) or test against a smaller policy"), "\(single.stdout.prefix(400))")
    }

    /// Show events count too: each fills the history of its placement and of each of its groups (10,000 groups keeping
    /// 600 shows made each show take 5.6 ms).
    @Test func showEventsAreBoundedByTheHistoriesTheyFill() throws {
        let groups = (0..<1000).map { "  g\($0): {placements: [p], daily_cap: 600}\n" }.joined()
        let shows = Array(repeating: "      - {event: show_started, placement: p}\n", count: 5200).joined()
        let dir = try temporaryDirectory("adrules-show-work", [
            "p.yaml": "version: 1\nplacements:\n  p: {format: banner}\ngroups:\n" + groups,
            "s.test.yaml": "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n" + shows,
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["test", dir + "/s.test.yaml", "--rules", dir + "/p.yaml"])
        // 1 + 1,000 groups + (601 + 1,000 x 602) / 16 = 38,663 a show (a history keeps one more than the cap of 600,
        // and each group its cap and one more than its one member): the 5,173rd passes 200 million.
        #expect(result.stdout.contains("s.test.yaml:5178:9: " + Self.overWork + "show_started of p, about 38663)"), "\(result.stdout.prefix(300))")
    }

    /// Lifecycle events visit every placement, and an ask reads every external fullscreen source open: both count
    /// (20,000 `app_launched` against 50,000 placements took 40 s; 5,000 loads with 50,000 sources open, 53 s).
    @Test func lifecycleEventsAndOpenSourcesAreBounded() throws {
        let placements = (0..<5000).map { "  b\($0): {format: banner}\n" }.joined()
        let head = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n"
        let sources = (0..<1000).map { "      - {event: fullscreen_opened, source: s\($0)}\n" }.joined()
        let dir = try temporaryDirectory("adrules-event-work", [
            "p.yaml": "version: 1\nplacements:\n" + placements,
            "launch.test.yaml": head + Array(repeating: "      - {event: app_launched}\n", count: 20_001).joined(),
            "sources.test.yaml": head + sources + Array(repeating: "      - {ask: load, placement: b0}\n", count: 16_668).joined(),
            "closed.test.yaml": head + sources + "      - {event: fullscreen_closed}\n"
                + Array(repeating: "      - {ask: load, placement: b0}\n", count: 16_668).joined(),
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 5,000 placements x 2 as the test starts and for each launch: the 20,000th launch (line 20,004) passes 200 million.
        let launches = runCLI(["test", dir + "/launch.test.yaml", "--rules", dir + "/p.yaml"])
        #expect(launches.stdout.contains("launch.test.yaml:20004:9: " + Self.overWork + "app_launched, which visits each of the 5000 placements, about 10000)"), "\(launches.stdout.prefix(400))")
        // 10,000 as the test starts, then 1,000 sources x 12 an ask and one for each 16 bytes of their names (3,890):
        // the 16,336th load (line 17,340) passes it.
        let loads = runCLI(["test", dir + "/sources.test.yaml", "--rules", dir + "/p.yaml"])
        #expect(loads.stdout.contains("sources.test.yaml:17340:9: " + Self.overWork + "an ask of b0 with 1000 external fullscreen sources open (3890 bytes of names), about 12243)"), "\(loads.stdout.prefix(400))")
        // Long names count by their bytes: an ask sorts them and notes each that timed out (3,500 sources of 4,000
        // characters took 16 ms an ask, and 4,700 asks 77 s). 100 sources of 4,000 bytes: 26,200 an ask, so the
        // 7,634th load (line 7,738) passes it, where counted by the sources alone 8,000 loads ran.
        let long = (0..<100).map { "      - {event: fullscreen_opened, source: \(String(repeating: "s", count: 3_997))\($0 + 100)}\n" }.joined()
        try (head + long + Array(repeating: "      - {ask: load, placement: b0}\n", count: 8_000).joined())
            .write(toFile: dir + "/long.test.yaml", atomically: false, encoding: .utf8)
        let named = runCLI(["test", dir + "/long.test.yaml", "--rules", dir + "/p.yaml"])
        #expect(named.stdout.contains("long.test.yaml:7738:9: " + Self.overWork + "an ask of b0 with 100 external fullscreen sources open (400000 bytes of names), about 26200)"), "\(named.stdout.prefix(400))")
        // Closed, they cost nothing: the file runs.
        let closed = runCLI(["test", dir + "/closed.test.yaml", "--rules", dir + "/p.yaml"])
        #expect(closed.stdout.hasSuffix("1 passed, 0 failed\n"), "\(closed.stdout.suffix(300))")
    }

    /// Time costs too: a step that sets the clock back pins every placement's times, and one that passes a load's
    /// deadline settles every placement's loads; an ask looks at every fullscreen placement and every ad on screen
    /// (30,000 steps moving the clock back and forth against 50,000 placements ran 29 s; 5,000 shows never closed
    /// made 500 loads take 20 s).
    @Test func timeAndAdsOnScreenAreBounded() throws {
        let head = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n"
        let pair = "      - {at: 2026-11-29T10:00:00Z, event: action, placement: b0}\n      - {at: 2026-11-29T09:00:00Z, event: action, placement: b0}\n"
        let dir = try temporaryDirectory("adrules-time-work", [
            "p.yaml": "version: 1\nplacements:\n" + (0..<5000).map { "  b\($0): {format: banner}\n" }.joined(),
            "back.test.yaml": head + String(repeating: pair, count: 20_001),
            "loads.test.yaml": head + String(repeating: "      - {after: 61s, event: load_started, placement: b0}\n", count: 20_010),
            "i.yaml": "version: 1\nplacements:\n" + (0..<2000).map { "  i\($0): {format: interstitial, min_interval: 1m}\n" }.joined(),
            "screen.test.yaml": head + "      - event: app_launched\n" + (0..<2000).map { "      - {event: show_started, placement: i\($0)}\n" }.joined()
                + String(repeating: "      - {ask: load, placement: i0}\n", count: 8000),
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 5,000 placements x 2 as the test starts and each time the clock goes back: the 20,000th going back (step 40,000,
        // line 40,004).
        let back = runCLI(["test", dir + "/back.test.yaml", "--rules", dir + "/p.yaml"])
        #expect(back.stdout.contains("back.test.yaml:40004:9: " + Self.overWork + "action, whose clock set back pins the times of each of the 5000 placements, about 10000)"), "\(back.stdout.prefix(400))")
        // 10,000 as the test starts; from the second load on, each passes the one before's deadline (60 s): the 20,001st
        // (line 20,005).
        let loads = runCLI(["test", dir + "/loads.test.yaml", "--rules", dir + "/p.yaml"])
        #expect(loads.stdout.contains("loads.test.yaml:20005:9: " + Self.overWork + "load_started, whose time settles the loads of each of the 5000 placements, about 10000)"), "\(loads.stdout.prefix(400))")
        // A launch (4,000) and 2,000 shows (33 each: 66,000), then 26,000 an ask (2,000 fullscreen placements, 2,000
        // ads on screen x 12): the 7,690th ask (line 9,695).
        let screen = runCLI(["test", dir + "/screen.test.yaml", "--rules", dir + "/i.yaml"])
        #expect(screen.stdout.contains("screen.test.yaml:9695:9: " + Self.overWork + "an ask of i0 with 2000 placements on screen, about 26000)"), "\(screen.stdout.prefix(400))")
    }

    /// A test's history fills the histories of its placements and their groups before the first step, and a clock
    /// set back pins every show kept and every external source open: all three count (14,000 shows of history in
    /// 10,000 capped groups took 3.8 GB and crashed; 20,000 clocks set back against 20,000 shows in 32 groups ran 27 s,
    /// and 40,000 against 40,000 sources open, over 30 s). What groups keep is bounded by the policy itself now: 100
    /// groups of a cap of 50,000 are refused before any test runs.
    @Test func historiesAndWhatAClockSetBackPinsAreBounded() throws {
        func groups(_ count: Int) -> String { (0..<count).map { "  g\($0): {placements: [p], daily_cap: 50000}\n" }.joined() }
        let head = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n"
        func history(_ count: Int) -> String {
            "    history:\n" + (0..<count).map { "      - {placement: p, at: 2026-11-28T\(String(format: "%02d:%02d:%02d", $0 / 3600, $0 / 60 % 60, $0 % 60))Z}\n" }.joined()
        }
        let pair = "      - {at: 2026-11-29T10:00:00Z, event: action, placement: p}\n      - {at: 2026-11-29T09:00:00Z, event: action, placement: p}\n"
        let sources = (0..<1000).map { "      - {event: fullscreen_opened, source: s\($0)}\n" }.joined()
        let policy = "version: 1\nplacements:\n  p: {format: interstitial, daily_cap: 50000}\ngroups:\n"
        let dir = try temporaryDirectory("adrules-pin-work", [
            "p.yaml": policy + groups(39),
            "many.yaml": policy + groups(100),
            "long.test.yaml": head + history(40_000) + "    steps:\n      - event: app_launched\n",
            "back.test.yaml": head + history(20_000) + "    steps:\n" + String(repeating: pair, count: 2000),
            "sources.test.yaml": head + "    steps:\n      - event: app_launched\n" + sources + String(repeating: pair, count: 16_700),
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 100 groups keeping 50,002 shows each (their cap and one more than their one member): 5,000,200 records, where
        // 2,000,000 are allowed. The 40th group (g39, line 44) passes the bound.
        let long = runCLI(["test", dir + "/long.test.yaml", "--rules", dir + "/many.yaml"])
        #expect(long.stdout.contains("many.yaml:44:3: error: the groups keep up to 5000200 show records in all (a group with a cap keeps its largest cap, one more for each member up to 512 and one besides; a group without one, one more than its members up to 512; each show of a member goes into each), more than the 2000000 a policy may keep: lower the groups' caps, or use fewer groups (put placements that share caps in one group) (schema/range)"), "\(long.stdout.prefix(400))")
        // 39 groups are within it: 40,000 shows in p and in each of its groups, 1,600,000 records, run.
        let within = runCLI(["test", dir + "/long.test.yaml", "--rules", dir + "/p.yaml"])
        #expect(within.exitCode == ExitCode.success, "\(within.stdout.prefix(400))")
        // 800,000 records to fill, then 2 + 800,000 / 8 = 100,002 each time the clock goes back: the 1,992nd going back
        // (step 3,984, line 20,005 + 3,984).
        let back = runCLI(["test", dir + "/back.test.yaml", "--rules", dir + "/p.yaml"])
        #expect(back.stdout.contains("back.test.yaml:23989:9: " + Self.overWork + "action, whose clock set back pins the times of each of the 1 placements, of up to 800000 show records kept (a show is kept once for its placement and once for each of its groups), about 100002)"), "\(back.stdout.prefix(400))")
        // 2 + 1,000 sources x 12 = 12,002 each time the clock goes back: the 16,664th going back (step 1,001 + 33,328,
        // line 34,333).
        let open = runCLI(["test", dir + "/sources.test.yaml", "--rules", dir + "/p.yaml"])
        #expect(open.stdout.contains("sources.test.yaml:34333:9: " + Self.overWork + "action, whose clock set back pins the times of each of the 1 placements, of 1000 external fullscreen sources open, about 12002)"), "\(open.stdout.prefix(400))")
    }

    /// Each test starts with facts for every placement: many short tests against a large policy count too (20,000
    /// one-step tests against 100,000 placements ran over 30 s).
    @Test func eachTestCountsThePlacementsItSetsUp() throws {
        let tests = (0..<20_001).map { "  - {name: t\($0), start: 2026-11-29T09:00:00Z, steps: [{event: action, placement: b0}]}\n" }.joined()
        let dir = try temporaryDirectory("adrules-test-work", [
            "p.yaml": "version: 1\nplacements:\n" + (0..<5000).map { "  b\($0): {format: banner}\n" }.joined(),
            "many.test.yaml": "tests:\n" + tests,
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 5,000 placements x 2 a test: the 20,001st test (line 20,002) passes 200 million.
        let result = runCLI(["test", dir + "/many.test.yaml", "--rules", dir + "/p.yaml"])
        #expect(result.stdout.contains("many.test.yaml:20002:5: error: the tests up to this one would take more than 200 million steps of the policy's rules and caps (this one, its start, which sets up each of the 5000 placements, about 10000)"), "\(result.stdout.prefix(400))")
    }
}

/// Reports of many tests or many malformed files: bounded over the whole run.
extension TestCommandTests {
    /// A run prints at most as many findings as a lint report over all its scenario files: 12 malformed files of 1,000
    /// findings each print 10,000 and a line counting the rest in each file cut (1,000 such files printed 1,000,000 lines); every file
    /// still fails, and json holds the same.
    @Test func findingsOfMalformedScenarioFilesAreBoundedOverTheRun() throws {
        var files = ["p.yaml": "version: 1\nplacements:\n  p: {format: interstitial, min_interval: 1m}\n"]
        for i in 0..<12 {
            files[String(format: "t%02d.test.yaml", i)] = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps: [" + Array(repeating: "{}", count: 1_500).joined(separator: ",") + "]\n"
        }
        let dir = try temporaryDirectory("adrules-many-findings", files)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = runCLI(["test", dir, "--rules", dir + "/p.yaml"])
        #expect(text.exitCode == 1)
        let lines = text.stdout.split(separator: "\n")
        // Each file keeps 1,000 findings and a line counting the rest: 9 files fit, the 10th shows 991 and a line, and
        // the last two a line each.
        #expect(lines.count { $0.contains(": error: ") } == 10_003, "\(lines.count)")
        #expect(text.stdout.contains("more diagnostics are not printed (a report prints 10,000): fix the ones listed and run again (lint/too-many-findings)"))
        #expect(lines.count { $0.hasPrefix("FAIL ") } == 12)
        #expect(text.stdout.hasSuffix("0 passed, 12 failed\n"))
        let json = runCLI(["test", dir, "--rules", dir + "/p.yaml", "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let tests = try #require(document["tests"] as? [[String: Any]])
        #expect(tests.count == 12)
        #expect(tests.reduce(0) { $0 + (($1["diagnostics"] as? [Any])?.count ?? 0) } == 10_003)
    }

    /// Each test's header (simulate) and json entry (test) repeats its file's path: 25,000 one-step tests named by a
    /// 4 KB path would print 102 MB. simulate stops replaying at 96 MB and says how many tests it left; test runs every
    /// test and counts it, and its json says how many it does not list (past 64 MB of entries counted at twice their
    /// texts).
    @Test func reportsOfManyTestsNamedByALongPathAreBounded() throws {
        let tests = (0..<25_000).map { "  - {name: t\($0), start: 2026-11-29T09:00:00Z, steps: [{event: app_launched}]}\n" }.joined()
        let dir = try temporaryDirectory("adrules-many-tests", [
            "p.yaml": "version: 1\nplacements:\n  p: {format: interstitial, min_interval: 1m}\n", "s/t.test.yaml": "tests:\n" + tests,
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // About 4,050 bytes whatever the temporary directory's length: under PATH_MAX (4,096), which a longer TMPDIR
        // passed with a fixed 2,000 `./`.
        let path = dir + "/" + String(repeating: "./", count: (4_050 - dir.utf8.count - "/s/t.test.yaml".utf8.count) / 2) + "s/t.test.yaml"
        let simulated = runCLI(["simulate", path, "--rules", dir + "/p.yaml"])
        #expect(simulated.exitCode == 0)
        #expect((96_000_000..<96_200_000).contains(simulated.stdout.utf8.count), "\(simulated.stdout.utf8.count)")
        #expect(simulated.stdout.hasSuffix("more tests are not replayed: the replay reached 96 MB; replay fewer tests at once (split the file), or shorten the path that names it\n"))
        #expect(simulated.stderr.contains("warning: "))
        let json = runCLI(["test", path, "--rules", dir + "/p.yaml", "--format", "json"])
        #expect(json.exitCode == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let listed = try #require(document["tests"] as? [Any]).count
        #expect(document["passed"] as? Int == 25_000)
        #expect(listed > 0 && listed + (document["more_tests"] as? Int ?? 0) == 25_000 && listed < 25_000, "\(listed)")
        #expect(json.stdout.utf8.count < 64_000_000)
    }
}
