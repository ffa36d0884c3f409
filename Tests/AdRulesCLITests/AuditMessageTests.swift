import AdRules
import AdRulesCLI
import AdRulesTestSupport
import Foundation
import Testing

/// Messages and checks a reader can act on: what a command says when given the wrong kind of path, keys a step
/// does not take, and advice that fits where it is given.
@Suite("messages that fit the input")
struct AuditMessageTests {
    /// Writes files into a fresh directory and returns its path.
    static func directory(_ files: [String: String]) throws -> String { try temporaryDirectory("adrules-audit", files) }

    static let policy = """
        version: 1
        timezone: UTC
        placements:
          lvl: {format: interstitial, min_interval: 1m}
        """

    @Test func aDirectoryWhereAFileIsExpectedIsNamedAsOne() throws {
        let dir = try Self.directory(["p.yaml": Self.policy])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let impact = runCLI(["impact", dir, "--rules", dir])
        #expect(impact.exitCode == 2)
        #expect(impact.stderr.contains("\(dir) is a directory: impact takes a usage model file"), "\(impact.stderr)")
        let simulate = runCLI(["simulate", dir, "--rules", dir])
        #expect(simulate.exitCode == 2)
        #expect(simulate.stderr.contains("\(dir) is a directory: simulate replays one scenario file"), "\(simulate.stderr)")
    }

    @Test func aStepKeyTheEventDoesNotTakeIsAnError() throws {
        let dir = try Self.directory([
            "p.yaml": Self.policy,
            "s.test.yaml": """
                tests:
                  - name: keys
                    start: 2026-11-29T09:00:00Z
                    steps:
                      - {event: fullscreen_opened, source: x, placement: lvl}
                      - {event: load_completed, placement: lvl, source: x}
                      - {event: app_launched, trigger: action}
                      - {ask: load, placement: lvl, source: x}
                """,
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["test", dir + "/s.test.yaml", "--rules", dir + "/p.yaml"])
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("s.test.yaml:5:47: error: event fullscreen_opened takes no placement"), "\(result.stdout)")
        #expect(result.stdout.contains("s.test.yaml:6:49: error: event load_completed takes no source"), "\(result.stdout)")
        #expect(result.stdout.contains("s.test.yaml:7:31: error: trigger belongs to an ask step"), "\(result.stdout)")
        #expect(result.stdout.contains("s.test.yaml:8:37: error: an ask takes no source"), "\(result.stdout)")
    }

    @Test func triggerMessagesUseTheRightArticle() throws {
        let dir = try Self.directory([
            "p.yaml": Self.policy,
            "s.test.yaml": """
                tests:
                  - name: article
                    start: 2026-11-29T09:00:00Z
                    steps:
                      - event: app_launched
                      - {ask: show, placement: lvl, trigger: resume}
                """,
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["simulate", dir + "/s.test.yaml", "--rules", dir + "/p.yaml"])
        #expect(result.stdout.contains("does not fit an interstitial placement"), "\(result.stdout)")
    }

    /// `--output` never overwrites what the run reads: the input named, or a rule or scenario file in an input
    /// directory. The file is left as it was, and the exit code is 2.
    @Test func anOutputThatIsAnInputIsRefused() throws {
        let scenario = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n"
        let dir = try Self.directory(["p.yaml": Self.policy, "p.test.yaml": scenario])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let runs: [[String]] = [
            ["compile", dir, "-o", dir + "/p.yaml"], ["lint", dir, "--format", "json", "--output", dir + "/p.yaml"],
            ["test", dir + "/p.test.yaml", "--output", dir + "/p.yaml"],
            ["test", dir, "--output", dir + "/p.test.yaml"], ["lint", dir + "/p.yaml", "--output", dir + "/./p.yaml"],
            ["simulate", dir + "/p.test.yaml", "--rules", dir + "/p.yaml", "--output", dir + "/p.test.yaml"],
        ]
        for arguments in runs {
            let result = runCLI(arguments)
            #expect(result.exitCode == 2, "\(arguments)")
            #expect(result.stderr.contains("would overwrite a file this run reads"), "\(result.stderr)")
        }
        // Nor through a hard link or a symlink to it.
        let hard = scratchPath("adrules-hard") + ".yaml"
        try FileManager.default.linkItem(atPath: dir + "/p.yaml", toPath: hard)
        defer { try? FileManager.default.removeItem(atPath: hard) }
        #expect(runCLI(["lint", dir, "--output", hard]).exitCode == 2)
        // Nor through a symlinked directory, `..` after a symlink, or a dangling symlink into the input directory.
        let links = try Self.directory([:])
        defer { try? FileManager.default.removeItem(atPath: links) }
        try FileManager.default.createSymbolicLink(atPath: links + "/dir", withDestinationPath: dir)
        try FileManager.default.createSymbolicLink(atPath: links + "/dangling.json", withDestinationPath: dir + "/new.yaml")
        for output in [links + "/dir/p.yaml", links + "/dir/../" + (dir as NSString).lastPathComponent + "/p.yaml", links + "/dangling.json", links + "/dir/new.yaml"] {
            #expect(runCLI(["lint", dir, "--output", output]).exitCode == 2, "\(output)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/new.yaml"))
        // A run that fails to read its input writes no report over the file named.
        let report = links + "/report.txt"
        try "kept".write(toFile: report, atomically: true, encoding: .utf8)
        #expect(runCLI(["lint", dir + "/missing.yaml", "--output", report]).exitCode == 3)
        #expect(try String(contentsOfFile: report, encoding: .utf8) == "kept")
        // Nor a new YAML file in an input directory, which the next run would read.
        let fresh = runCLI(["compile", dir, "-o", dir + "/compiled.yaml"])
        #expect(fresh.exitCode == 2 && fresh.stderr.contains("which the next run would read"), "\(fresh.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/compiled.yaml"))
        #expect(try String(contentsOfFile: dir + "/p.yaml", encoding: .utf8) == Self.policy)
        #expect(try String(contentsOfFile: dir + "/p.test.yaml", encoding: .utf8) == scenario)
        // A report next to the rules is fine.
        #expect(runCLI(["lint", dir, "--output", dir + "/report.txt"]).exitCode == 0)
        #expect(runCLI(["lint", dir, "--output", dir + "/report.txt"]).exitCode == 0)
    }

    @Test func aDashIsStandardOutput() throws {
        let dir = try Self.directory(["p.yaml": Self.policy])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let compiled = runCLI(["compile", dir, "-o", "-"])
        #expect(compiled.exitCode == 0)
        #expect(compiled.stdout.contains("\"format\":\"adrules-compiled-policy\""))
        #expect(!FileManager.default.fileExists(atPath: "-"))
    }

    /// Messages quote at most 60 characters of a value, and a value that is there but wrong is one error, not two.
    @Test func longValuesAreShortenedAndABadPlacementIsOneError() throws {
        let dir = try Self.directory([
            "p.yaml": Self.policy,
            "s.test.yaml": "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {after: \(String(repeating: "9", count: 5000))s, event: app_launched}\n      - {ask: show, placement: 123}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["test", dir + "/s.test.yaml", "--rules", dir + "/p.yaml"])
        let errors = result.stdout.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.allSatisfy { $0.count < 400 }, "\(errors)")
        #expect(errors.last?.contains("placement must be a string, not the number 123") == true)
    }

    /// The shows-per-day table counts what the engine counts: a show_failed with no show in progress takes nothing
    /// back, a time pinned by a clock set back counts in the day it was pinned to, and unknown placements not at all.
    @Test func theShowsTableCountsWhatTheEngineCounts() throws {
        let dir = try Self.directory([
            "p.yaml": "version: 1\ntimezone: UTC\nplacements:\n  lvl: {format: interstitial, daily_cap: 2}\n",
            "s.test.yaml": """
                tests:
                  - name: failed after close
                    start: 2026-11-29T09:00:00Z
                    steps:
                      - event: app_launched
                      - {event: show_started, placement: lvl}
                      - {event: ad_closed, placement: lvl}
                      - {after: 10m, event: show_failed, placement: lvl}
                      - {event: show_started, placement: lvl}
                      - {event: ad_closed, placement: lvl}
                      - {event: load_completed, placement: lvl}
                      - {ask: show, placement: lvl, expect: deny, reasons: [daily_cap]}
                  - name: pinned
                    start: 2026-11-30T00:30:00Z
                    steps:
                      - event: app_launched
                      - {event: show_started, placement: lvl}
                      - {at: 2026-11-29T23:00:00Z, event: ad_closed, placement: lvl}
                """,
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["simulate", dir + "/s.test.yaml", "--rules", dir + "/p.yaml"])
        let tables = result.stdout.components(separatedBy: "Shows per placement per day").dropFirst().map { $0.split(separator: "\n").dropFirst().joined(separator: "\n") }
        #expect(tables.count == 2)
        #expect(tables.first?.hasPrefix("  day         lvl\n  2026-11-29    2") == true, "\(tables)")
        #expect(tables.last?.hasPrefix("  day         lvl\n  2026-11-29    1") == true, "\(tables)")
    }

    @Test func versionTakesNoArguments() {
        #expect(runCLI(["--version"]).exitCode == 0)
        #expect(runCLI(["--version", "extra"]).exitCode == 2)
    }

    /// A scenario file or a usage model named to `lint` is not read as a rule file (which would advise removing
    /// `tests:`): the message names the command that reads it, and it is a usage error.
    @Test func aScenarioOrModelNamedToLintSaysWhichCommandReadsIt() throws {
        let dir = try Self.directory([
            "p.yaml": Self.policy, "a.test.yaml": "tests: []\n", "u.model.yaml": "version: 1\n", "w.yaml": "version: 1\nplacements:\n  a: {format: interstitial}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scenario = runCLI(["lint", dir + "/a.test.yaml"])
        #expect(scenario.exitCode == 2)
        #expect(scenario.stderr.contains("a.test.yaml is a scenario file, not a rule file: a policy is rule files or their directory (adrules test runs scenarios)"), "\(scenario.stderr)")
        #expect(scenario.stdout.isEmpty, "\(scenario.stdout)")
        let model = runCLI(["lint", dir + "/u.model.yaml"])
        #expect(model.exitCode == 2)
        #expect(model.stderr.contains("u.model.yaml is a usage model, not a rule file: a policy is rule files or their directory (adrules impact reads a model)"), "\(model.stderr)")
        // Among rule files (a glob: `lint rules/*.yaml`), it is still a usage error, said before anything is linted:
        // the rule files get no findings, and the usage follows the errors.
        #expect(runCLI(["lint", dir + "/w.yaml"]).stdout.contains("(pacing/missing)"))
        let glob = runCLI(["lint", dir + "/a.test.yaml", dir + "/w.yaml", dir + "/u.model.yaml"])
        #expect(glob.exitCode == 2)
        #expect(glob.stdout.isEmpty, "\(glob.stdout)")
        #expect(glob.stderr.components(separatedBy: "\n").filter { $0.hasPrefix("error: ") }.count == 2, "\(glob.stderr)")
        #expect(glob.stderr.contains("USAGE: adrules lint") && !glob.stderr.contains("Found "), "\(glob.stderr)")
    }

    /// `compile` takes a compiled policy as every other command does: it is validated and written unchanged; a bad
    /// one is `compiled/invalid` and nothing is written.
    @Test func compileTakesACompiledPolicy() throws {
        let dir = try Self.directory(["p.yaml": Self.policy])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = runCLI(["compile", dir + "/p.yaml", "-o", dir + "/p.json"])
        #expect(first.exitCode == 0, "\(first.stderr)")
        let again = runCLI(["compile", dir + "/p.json", "-o", dir + "/q.json"])
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(FileManager.default.contents(atPath: dir + "/q.json") == FileManager.default.contents(atPath: dir + "/p.json"))
        // Named otherwise, it is still read as what its document says it is.
        try FileManager.default.copyItem(atPath: dir + "/p.json", toPath: dir + "/p.bak")
        let renamed = runCLI(["lint", dir + "/p.bak"])
        #expect(renamed.exitCode == 0 && renamed.stdout.isEmpty, "\(renamed.stdout)")
        let swift = runCLI(["compile", dir + "/p.json", "--format", "swift"])
        #expect(swift.exitCode == 0 && swift.stdout.contains("Placements"), "\(swift.stderr)")
        try "{\"format\": \"adrules-policy\"}".write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        let bad = runCLI(["compile", dir + "/bad.json", "-o", dir + "/r.json"])
        #expect(bad.exitCode == 1)
        #expect(bad.stderr.contains("(compiled/invalid)"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/r.json"))
        // A value the runtime refuses says what is wrong, and what to do: compile again, as the document cannot say it.
        let text = try String(contentsOfFile: dir + "/p.json", encoding: .utf8)
        #expect(text.contains(#"["interstitial","#))
        try text.replacingOccurrences(of: #"["interstitial","#, with: #"["popup","#).write(toFile: dir + "/edited.json", atomically: true, encoding: .utf8)
        let edited = runCLI(["lint", dir + "/edited.json"])
        #expect(edited.exitCode == 1)
        // A format this runtime does not know is what a newer adrules writes: unsupported, as the runtime tells an app.
        #expect(
            edited.stdout.contains("is not an ad format")
                && edited.stdout.contains("(written by another version of adrules than this one: compile the rule files again with this adrules) (compiled/invalid)"),
            "\(edited.stdout)")
        #expect {
            try Policy(compiled: Data(contentsOf: URL(fileURLWithPath: dir + "/edited.json")))
        } throws: { error in
            (error as? CompiledPolicyError)?.kind == .unsupported
        }
        // A value type and an environment likewise; a value of the wrong kind (a number for the format) stays invalid.
        for (from, to, kind) in [(#""environment":"production""#, #""environment":"staging""#, CompiledPolicyError.Kind.unsupported),
            (#"["interstitial","#, #"[7,"#, .invalid)] {
            #expect(text.contains(from))
            #expect {
                try Policy(compiled: Data(text.replacingOccurrences(of: from, with: to).utf8))
            } throws: { error in
                (error as? CompiledPolicyError)?.kind == kind
            }
        }
    }

    /// `--strict` is a shared option: `test` and `simulate` fail a policy with warnings before any step.
    @Test func strictFailsAPolicyWithWarningsInTestAndSimulate() throws {
        let scenario = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {ask: show, placement: a, expect: deny}\n"
        let dir = try Self.directory(["p.yaml": "version: 1\nplacements:\n  a: {format: interstitial}\n", "a.test.yaml": scenario])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(runCLI(["test", dir]).exitCode == 0)
        let strict = runCLI(["test", dir, "--strict"])
        #expect(strict.exitCode == 1)
        #expect(strict.stdout.contains("(pacing/missing)") && strict.stdout.contains("has warnings (--strict): no test ran"), "\(strict.stdout)")
        #expect(runCLI(["simulate", dir + "/a.test.yaml"]).exitCode == 0)
        #expect(runCLI(["simulate", dir + "/a.test.yaml", "--strict", "--quiet"]).exitCode == 1)
        #expect(runCLI(["help", "help"]).exitCode == 0)
    }

    /// Scenario files get scenario words: what a history entry lacks, a history placement the policy does not have,
    /// and a merge key refused without a word of `defaults`.
    @Test func scenarioFindingsNameWhatIsWrongInAScenario() throws {
        let scenario = """
            tests:
              - name: t
                start: 2026-11-29T09:00:00Z
                history:
                  - {placement: lvl}
                  - {placement: lvx, at: 2026-11-29T08:00:00Z}
                steps:
                  - &s {event: app_launched}
                  - *s

            """
        let dir = try Self.directory(["p.yaml": Self.policy, "a.test.yaml": scenario])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["test", dir])
        #expect(result.exitCode == 1)
        let lines = result.stdout.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(lines.count == 1, "\(result.stdout)")
        #expect(result.stdout.contains("a.test.yaml:5:9: error: a history entry has no at:"), "\(result.stdout)")
        #expect(result.stdout.contains("a.test.yaml:6:21: warning: history names placement \"lvx\", which the policy does not have (the show counts for nothing): did you mean \"lvl\"? (scenario/unknown-placement)"), "\(result.stdout)")
        #expect(!result.stdout.contains("rule files") && !result.stdout.contains("schema/type"), "\(result.stdout)")
        // A scenario file may use anchors and aliases: only merge keys are refused, with no word of `defaults`,
        // which a scenario file does not have.
        let merged = try Self.directory(["p.yaml": Self.policy, "a.test.yaml": "tests:\n  - {<<: {name: t}, start: 2026-11-29T09:00:00Z, steps: [{event: app_launched}]}\n"])
        defer { try? FileManager.default.removeItem(atPath: merged) }
        let mergedResult = runCLI(["test", merged])
        #expect(mergedResult.stdout.contains("a.test.yaml:2:6: error: merge key << is not allowed (a YAML 1.1 merge, which YAML 1.2 does not do): write the keys out; an alias (*name) may stand for a whole value (yaml/alias)"), "\(mergedResult.stdout)")
    }

    /// A test that cannot fail is a finding (a test with no steps, or no name); an event about a placement the
    /// policy does not have is a warning, and the test runs as written: the engine ignores the event.
    @Test func scenarioTestsThatCheckNothingAreFindings() throws {
        let scenario = """
            tests:
              - name: empty
                start: 2026-11-29T09:00:00Z
                steps: []
              - name: none
                start: 2026-11-29T09:00:00Z
              - name: "  "
                start: 2026-11-29T09:00:00Z
                steps: [{event: app_launched}]

            """
        let dir = try Self.directory(["p.yaml": Self.policy, "a.test.yaml": scenario])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["test", dir])
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("a.test.yaml:4:12: error: this test has no steps: list its steps"), "\(result.stdout)")
        #expect(result.stdout.contains("a.test.yaml:5:5: error: this test has no steps: list its steps"), "\(result.stdout)")
        #expect(result.stdout.contains("a.test.yaml:7:11: error: name must be a sentence saying what the test checks, not \"  \" (schema/type)"), "\(result.stdout)")
        #expect(!result.stdout.contains("PASS"), "\(result.stdout)")
    }

    /// A test's name is a label: one written as a number or a boolean is taken as written, and the file's tests run.
    @Test func aTestNamedWithANumberRuns() throws {
        let scenario = "tests:\n  - name: 42\n    start: 2026-11-29T09:00:00Z\n    steps: [{event: app_launched}]\n"
            + "  - name: 1.50\n    start: 2026-11-29T09:00:00Z\n    steps: [{event: app_launched}]\n"
        let dir = try Self.directory(["p.yaml": Self.policy, "a.test.yaml": scenario])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["test", dir])
        #expect(result.exitCode == 0, "\(result.stdout)")
        #expect(result.stdout.contains("PASS 42\n") && result.stdout.contains("PASS 1.50\n"), "\(result.stdout)")
    }

    /// A scenario file may share values through anchors and aliases (cli.md forbids them in rule files only): an
    /// aliased step runs, and fails at the alias's own line.
    @Test func scenarioFilesMayUseAnchorsAndAliases() throws {
        let scenario = """
            tests:
              - name: first
                start: &start 2026-11-29T09:00:00Z
                context: &ctx {premium: false}
                steps:
                  - &launch {event: app_launched}
                  - &load {after: 2s, event: load_completed, placement: lvl}
                  - &show {ask: show, placement: lvl, expect: allow}
              - name: second
                start: *start
                context: *ctx
                steps:
                  - *launch
                  - *show

            """
        let dir = try Self.directory(["p.yaml": Self.policy, "a.test.yaml": scenario])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["test", dir])
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("PASS first"), "\(result.stdout)")
        #expect(result.stdout.contains("FAIL second\n  \(dir)/a.test.yaml:14: at 2026-11-29T09:00:00Z: ask show lvl (action)"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("1 passed, 1 failed\n"), "\(result.stdout)")
    }

    /// A value copied by aliases is reported once, however many copies there are (a thousand copies of one mistake
    /// filled the findings a file shows and hid the next one), and a scalar alias used where it does not fit is
    /// reported at the alias.
    @Test func aliasedMistakesAreReportedOnceAndWhereUsed() throws {
        let copies = Array(repeating: "      - *s\n", count: 1_200).joined()
        let scenario = "tests:\n  - name: t\n    start: &start 2026-11-29T09:00:00Z\n    steps:\n      - &s {ask: show, placement: lvl, expect: maybe}\n"
            + copies + "      - {after: banana, event: app_launched}\n  - name: u\n    start: 2026-11-29T09:00:00Z\n    sessions_before: *start\n    steps: [{event: app_launched}]\n"
        let dir = try Self.directory(["p.yaml": Self.policy, "a.test.yaml": scenario])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["test", dir])
        #expect(result.exitCode == 1)
        let errors = result.stdout.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(errors.count == 3, "\(result.stdout.prefix(1000))")
        #expect(result.stdout.contains("a.test.yaml:5:48: error: expect must be one of allow, deny; not \"maybe\""), "\(result.stdout.prefix(600))")
        #expect(result.stdout.contains("a.test.yaml:1206:17: error: after must be a duration"), "\(result.stdout.prefix(600))")
        #expect(result.stdout.contains("a.test.yaml:1209:22: error: sessions_before must be"), "\(result.stdout.prefix(600))")
    }

    /// With --strict, a scenario file's warnings fail it as a malformed file does: a typo'd event placement in a test
    /// that expects a denial would otherwise pass.
    @Test func strictFailsAScenarioFileWithWarnings() throws {
        let scenario = """
            tests:
              - name: the load went elsewhere
                start: 2026-11-29T09:00:00Z
                steps:
                  - event: app_launched
                  - {event: load_completed, placement: lvx}
                  - {ask: show, placement: lvl, expect: deny, reasons: [ad_not_ready]}

            """
        let dir = try Self.directory(["p.yaml": Self.policy, "a.test.yaml": scenario])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let loose = runCLI(["test", dir])
        #expect(loose.exitCode == 0, "\(loose.stdout)")
        #expect(loose.stdout.contains("(scenario/unknown-placement)") && loose.stdout.contains("PASS the load went elsewhere"))
        let strict = runCLI(["test", dir, "--strict"])
        #expect(strict.exitCode == 1)
        #expect(strict.stdout.contains("FAIL \(dir)/a.test.yaml (scenario file with warnings, --strict)"), "\(strict.stdout)")
        #expect(strict.stdout.hasSuffix("0 passed, 1 failed\n"), "\(strict.stdout)")
        let replay = runCLI(["simulate", dir + "/a.test.yaml", "--strict"])
        #expect(replay.exitCode == 1)
        #expect(replay.stderr.hasSuffix("error: the scenario file has warnings (--strict): nothing was replayed\n"), "\(replay.stderr)")
    }

    /// An event about a placement the policy does not have is named, with "did you mean", and the test runs as
    /// written: the engine ignores the event, so an ask about that placement is `unknown_placement` (rules.md §7),
    /// and an ask about the placement meant fails beside the warning that explains it.
    @Test func anEventAboutAnUnknownPlacementIsAWarningAndTheTestRuns() throws {
        let scenario = """
            tests:
              - name: an unknown placement is denied with unknown_placement alone
                start: 2026-11-29T09:00:00Z
                steps:
                  - event: app_launched
                  - {event: load_completed, placement: lvx}
                  - {ask: show, placement: lvx, expect: deny, reasons: [unknown_placement], retry_in: null}
              - name: a typo makes the intended placement's ask fail
                start: 2026-11-29T09:00:00Z
                steps:
                  - {event: load_completed, placement: lvx}
                  - {ask: show, placement: lvl, expect: allow}

            """
        let dir = try Self.directory(["p.yaml": Self.policy, "a.test.yaml": scenario])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["test", dir])
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("a.test.yaml:6:44: warning: event load_completed names placement \"lvx\", which the policy does not have (the engine ignores the event): did you mean \"lvl\"? (scenario/unknown-placement)"), "\(result.stdout)")
        #expect(result.stdout.contains("PASS an unknown placement is denied with unknown_placement alone"), "\(result.stdout)")
        #expect(result.stdout.contains("FAIL a typo makes the intended placement's ask fail"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("1 passed, 1 failed\n"), "\(result.stdout)")
    }

    /// An ask about a placement the policy does not have is denied `unknown_placement`, so a step expecting a deny passed
    /// over a typo in silence, even under `--strict`. It is named, unless the step lists that reason (a test of it).
    @Test func anAskAboutAnUnknownPlacementIsNamedUnlessTheStepChecksForIt() throws {
        let scenario = """
            tests:
              - name: a typo in an ask that expects a deny
                start: 2026-11-29T09:00:00Z
                steps:
                  - event: app_launched
                  - {ask: show, placement: lvx, expect: deny}
                  - {ask: load, placement: lvx, expect: deny, reasons_include: [unknown_placement]}
                  - {ask: offer, placement: lvy, expect: deny, reasons: [unknown_placement]}

            """
        let dir = try Self.directory(["p.yaml": Self.policy, "a.test.yaml": scenario])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["test", dir])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("a.test.yaml:6:32: warning: ask show names placement \"lvx\", which the policy does not have (it is denied unknown_placement; a test of that reason lists it in reasons): did you mean \"lvl\"? (scenario/unknown-placement)"), "\(result.stdout)")
        #expect(result.stdout.components(separatedBy: "scenario/unknown-placement").count == 2, "one warning: \(result.stdout)")
        #expect(runCLI(["test", dir, "--strict"]).exitCode == 1)
    }

    /// A scenario file or usage model saved under a rule file's name is one finding that gives the name to use, not a
    /// missing version and an unknown key for every key it holds.
    @Test func aScenarioOrModelNamedAsARuleFileIsToldItsName() throws {
        // (With an anchor and an alias, which a scenario file may use and a rule file may not.)
        let scenario = "# tests\ntests:\n  - name: t\n    start: &t 2026-11-29T09:00:00Z\n    installed: *t\n    steps:\n      - event: app_launched\n"
        let model = "version: 1\nusers: 10\ndays: 1\nsegments:\n  - {name: a, share: 1}\nnetwork: {fill_rate: 1}\n"
        let dir = try Self.directory(["p.yaml": Self.policy, "rewarded_test.yaml": scenario, "usage.yaml": model, "b-tests.yml": scenario])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lint = runCLI(["lint", dir])
        #expect(lint.exitCode == 1)
        let lines = lint.stdout.replacingOccurrences(of: dir + "/", with: "").split(separator: "\n").filter { !$0.hasPrefix("p.yaml:") }
        #expect(lines == [
            "b-tests.yml:2:1: error: b-tests.yml holds scenario tests (`tests:`), not rules: name it b.test.yaml, so that policy loading skips it and adrules test runs it (schema/unknown-key)",
            "rewarded_test.yaml:2:1: error: rewarded_test.yaml holds scenario tests (`tests:`), not rules: name it rewarded.test.yaml, so that policy loading skips it and adrules test runs it (schema/unknown-key)",
            "usage.yaml:4:1: error: usage.yaml holds a usage model (`segments:`), not rules: name it usage.model.yaml, so that policy loading skips it and adrules impact reads it (schema/unknown-key)",
        ], "\(lint.stdout)")
        // A rule file of settings with a stray key of those names is a rule file: its own errors are reported.
        let settings = try Self.directory(["p.yaml": Self.policy, "settings.yaml": "version: 2\nenvironment: tset\nnetwork: admob\ntests: see rewarded.test.yaml\n"])
        defer { try? FileManager.default.removeItem(atPath: settings) }
        let rules = runCLI(["lint", settings]).stdout
        #expect(rules.contains("(schema/version)") && rules.contains("(schema/enum)") && !rules.contains("not rules: name it"), "\(rules)")
    }

    /// `--strict` is shared by every command that reads a policy: `compile` writes nothing for a policy with warnings.
    @Test func compileStrictRefusesWarnings() throws {
        let dir = try Self.directory(["p.yaml": "version: 1\nplacements:\n  a: {format: interstitial}\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(runCLI(["compile", dir + "/p.yaml", "-o", dir + "/a.json"]).exitCode == 0)
        let strict = runCLI(["compile", dir + "/p.yaml", "-o", dir + "/b.json", "--strict"])
        #expect(strict.exitCode == 1)
        #expect(strict.stderr.contains("(pacing/missing)") && strict.stderr.contains("has warnings (--strict); nothing was written"), "\(strict.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/b.json"))
        #expect(runCLI(["schema", "--quiet", "--color", "never"]).exitCode == 0)
        // A path holding a line break is escaped in that message too, as in every other: it cannot forge a line.
        // (A file name holding one is an error of its own, as the compiled policy names its files from the folder above
        // the policy: the line break is in a folder above that.)
        let odd = dir + "/x\nerror: forged/rules"
        try FileManager.default.createDirectory(atPath: odd, withIntermediateDirectories: true)
        try "version: 1\nplacements:\n  a: {format: interstitial}\n".write(toFile: odd + "/p.yaml", atomically: true, encoding: .utf8)
        let escaped = runCLI(["compile", odd, "-o", dir + "/c.json", "--strict"])
        #expect(escaped.exitCode == 1)
        #expect(!escaped.stderr.split(separator: "\n").contains { $0.hasPrefix("error: forged") }, "\(escaped.stderr)")
        #expect(escaped.stderr.contains("x\\nerror: forged/rules has warnings (--strict)"), "\(escaped.stderr)")
    }

    /// A usage mistake in `impact` prints impact's usage, and a one-value requirement reads as one.
    @Test func impactUsageErrorsPrintImpactUsage() {
        let result = runCLI(["impact", "rules/usage.model.yaml", "--users", "0"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("expected a whole number from 1 to"), "\(result.stderr)")
        #expect(result.stderr.contains("USAGE: adrules impact MODEL"), "\(result.stderr)")
    }

    /// cap/unreachable's advice is a cap the rule then accepts, and its figure is true: with 7h between shows a day
    /// may hold four (00:00, 07:00, 14:00, 21:00), so it names the rate, 3.4 a day, not "at most 3 fit".
    @Test func dailyCapAdviceIsACapTheRuleAccepts() throws {
        let dir = try Self.directory([
            "p.yaml": "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 7h, daily_cap: 4}\n  b: {format: interstitial, min_interval: 6h, daily_cap: 5}\n",
            "q.yaml": "version: 1\nplacements:\n  c: {format: interstitial, min_interval: 7h, daily_cap: 3}\n  d: {format: interstitial, min_interval: 6h, daily_cap: 4}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lint = runCLI(["lint", dir + "/p.yaml", "--color", "never"])
        #expect(lint.stdout.contains("daily_cap 4 can never bind: min_interval 7h allows 3.4 shows a day (1d / 7h); lower daily_cap to 3 or remove it"), "\(lint.stdout)")
        #expect(lint.stdout.contains("daily_cap 5 can never bind: min_interval 6h allows 4 shows a day (1d / 6h); lower daily_cap to 4 or remove it"), "\(lint.stdout)")
        let advised = runCLI(["lint", dir + "/q.yaml", "--color", "never"])
        #expect(!advised.stdout.contains("cap/unreachable"), "\(advised.stdout)")
    }

    /// A condition written over several lines (`when: |`) lints, compiles, loads from its compiled form, and shows
    /// in a comparison whose shards merge: its line breaks are the whitespace the expression lexer skips.
    @Test func aConditionOverSeveralLinesCompilesAndMerges() throws {
        let rule = "rules:\n  - id: r\n    deny: [app_open]\n    when: |\n      premium or\n      premium\n"
        let dir = try Self.directory([
            "new.yaml": "version: 1\nplacements:\n  app_open: {format: app_open, min_interval: 1m}\n" + rule,
            "old.yaml": "version: 1\nplacements:\n  app_open: {format: app_open, min_interval: 1m}\n",
            "m.model.yaml": "version: 1\nusers: 4\ndays: 1\nsegments:\n  - {name: s, share: 1}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(runCLI(["lint", dir + "/new.yaml"]).exitCode == 0)
        let compiled = runCLI(["compile", dir + "/new.yaml", "-o", dir + "/new.json"])
        #expect(compiled.exitCode == 0, "\(compiled.stderr)")
        #expect(runCLI(["lint", dir + "/new.json"]).exitCode == 0)
        let impact = ["impact", dir + "/m.model.yaml", "--rules", dir + "/new.yaml", "--compare", dir + "/old.yaml", "--format", "json"]
        let whole = runCLI(impact)
        #expect(whole.exitCode == 0, "\(whole.stderr)")
        for k in 1...2 { #expect(runCLI(impact + ["--shard", "\(k)/2", "--output", "\(dir)/part\(k).json"]).exitCode == 0) }
        let merged = runCLI(["impact", "merge", dir + "/part1.json", dir + "/part2.json"])
        #expect(merged.exitCode == 0, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout)
    }
}
