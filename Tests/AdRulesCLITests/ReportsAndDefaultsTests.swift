import AdRules
import AdRulesCompiler
@testable import AdRulesCLI
import AdRulesTestSupport
import Foundation
import Testing

/// The shape of reports (shows per day, never YAML), colour on standard error, and what a command says of its default
/// policy and help topics.
@Suite("Reports and defaults")
struct ReportsAndDefaultsTests {
    static func directory(_ files: [String: String]) throws -> String { try temporaryDirectory("adrules-reports", files) }

    /// `simulate`'s shows per day list the days and placements with shows: 60 placements each shown on its own day
    /// are 60 entries in json (a grid with every 0 in it was 3,600, and 3,000 placements crashed), and a text table
    /// that would be too wide is printed as a row for each day and placement with shows.
    @Test func showsPerDayGrowWithTheShowsNotTheGrid() throws {
        let count = 60
        let policy = "version: 1\nplacements:\n" + (0..<count).map { "  p\($0): {format: banner}\n" }.joined()
        let steps = (0..<count).map { "      - {after: 1d, event: show_started, placement: p\($0)}\n" }.joined()
        let dir = try Self.directory([
            "p.yaml": policy,
            "s.test.yaml": "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n" + steps,
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let json = runCLI(["simulate", dir + "/s.test.yaml", "--rules", dir + "/p.yaml", "--format", "json"])
        #expect(json.exitCode == 0, "\(json.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let test = try #require((document["tests"] as? [[String: Any]])?.first)
        let shows = try #require(test["shows"] as? [[String: Any]])
        #expect(shows.count == count)
        #expect(shows.allSatisfy { $0["shows"] as? Int == 1 })
        #expect(shows.first?["day"] as? String == "2026-11-30" && shows.first?["placement"] as? String == "p0")
        #expect(shows.last?["day"] as? String == "2027-01-28" && shows.last?["placement"] as? String == "p59")

        let text = runCLI(["simulate", dir + "/s.test.yaml", "--rules", dir + "/p.yaml"])
        #expect(text.exitCode == 0)
        let table = text.stdout.components(separatedBy: "Shows per placement per day")[1]
        #expect(table.contains("\n  day         placement  shows\n  2026-11-30  p0             1\n"), "\(table)")
        #expect(table.split(separator: "\n").count == 2 + count)
    }

    /// simulate's table counts the shows the engine counts: a show whose reward was granted stands after a show_failed.
    @Test func simulateCountsARewardedShowThatFailedAfterItsGrant() throws {
        let dir = try Self.directory([
            "p.yaml": "version: 1\nplacements:\n  rew: {format: rewarded, daily_cap: 1}\n",
            "s.test.yaml": "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n"
                + "      - {event: user_chose, placement: rew}\n      - {event: load_completed, placement: rew}\n"
                + "      - {event: show_started, placement: rew}\n      - {event: reward_earned, placement: rew}\n"
                + "      - {event: reward_granted, placement: rew}\n      - {event: show_failed, placement: rew}\n"
                + "      - {event: load_completed, placement: rew}\n      - {ask: show, placement: rew, expect: deny, reasons_include: [daily_cap]}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(runCLI(["test", dir + "/s.test.yaml", "--rules", dir + "/p.yaml"]).exitCode == 0)
        let text = runCLI(["simulate", dir + "/s.test.yaml", "--rules", dir + "/p.yaml"])
        let table = text.stdout.components(separatedBy: "Shows per placement per day")[1]
        #expect(table.hasSuffix("\n  day         rew\n  2026-11-29    1\n"), "\(table)")
    }

    /// simulate's table puts each show in the day daily caps count it in. Newfoundland fell back at 00:01 on 2010-11-07
    /// (00:00-00:01 of the 7th, then 23:01 of the 6th again): the minute of the 7th that came first belongs to the 6th,
    /// which reached its cap of 2 with it; the table said 1 show on the 6th and 3 on the 7th, under `daily_cap: 2`.
    @Test func simulateCountsEachShowInItsCapsDay() throws {
        func show(_ at: String = "", closedAfter: String = "10s") -> String {
            "      - {\(at)event: load_completed, placement: inter}\n      - {ask: show, placement: inter, trigger: action, expect: allow}\n"
                + "      - {event: show_started, placement: inter}\n      - {after: \(closedAfter), event: ad_closed, placement: inter}\n"
        }
        let dir = try Self.directory([
            "p.yaml": "version: 1\ntimezone: America/St_Johns\nplacements:\n  inter: {format: interstitial, daily_cap: 2}\n",
            "s.test.yaml": "tests:\n  - name: t\n    start: 2010-11-06T23:59:30-02:30\n    steps:\n      - event: app_launched\n"
                // The second show at 00:00:00-02:30, in the minute of the 7th before the fall back.
                + show(closedAfter: "30s") + show() + show("at: 2010-11-07T00:00:00-03:30, ") + show()
                + "      - {event: load_completed, placement: inter}\n"
                + "      - {ask: show, placement: inter, trigger: action, expect: deny, reasons: [daily_cap]}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(runCLI(["test", dir + "/s.test.yaml", "--rules", dir + "/p.yaml"]).exitCode == 0)
        let text = runCLI(["simulate", dir + "/s.test.yaml", "--rules", dir + "/p.yaml"])
        let table = text.stdout.components(separatedBy: "Shows per placement per day")[1]
        #expect(table.hasSuffix("\n  day         inter\n  2010-11-06      2\n  2010-11-07      2\n"), "\(table)")
    }

    /// simulate's table counts the shows the engine counts: a show_failed past `fullscreen_timeout` takes nothing back,
    /// nor does one after a clock set back within the timeout once the engine saw the show run out (the table took both
    /// back, and printed 1 show, or none, where the engine denied for 2, or for 1).
    @Test(arguments: [
        ("      - {after: 11m, event: show_failed, placement: lvl}\n", "2"),
        ("      - {after: 11m, ask: load, placement: lvl}\n      - {at: 2026-11-29T09:00:30Z, event: show_failed, placement: lvl}\n", "2"),
        ("      - {after: 5m, event: show_failed, placement: lvl}\n", "1"),
    ]) func simulateCountsWhatAShowFailedTookBack(_ failure: String, _ shows: String) throws {
        let dir = try Self.directory([
            "p.yaml": "version: 1\nfullscreen_timeout: 10m\nplacements:\n  lvl: {format: interstitial, session_cap: 2}\n",
            "s.test.yaml": "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n"
                + "      - {event: load_completed, placement: lvl}\n      - {event: show_started, placement: lvl}\n" + failure
                + "      - {event: load_completed, placement: lvl}\n      - {event: show_started, placement: lvl}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = runCLI(["simulate", dir + "/s.test.yaml", "--rules", dir + "/p.yaml"])
        let table = text.stdout.components(separatedBy: "Shows per placement per day")[1]
        #expect(table.hasSuffix("\n  day         lvl\n  2026-11-29    \(shows)\n"), "\(table)")
    }

    /// A report is never written to a YAML file: beside an input named alone it could be a rule or scenario file the
    /// run does not read (a clean lint left `policy.yaml` empty), and a new one is read by the next run.
    @Test func aReportIsNeverWrittenAsYAML() throws {
        let policy = "version: 1\nplacements:\n  a: {format: banner}\n"
        let other = "version: 1\nplacements:\n  b: {format: banner}\n"
        let scenario = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n"
        let dir = try Self.directory(["a.yaml": policy, "policy.yaml": other, "s.test.yaml": scenario])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for arguments in [
            ["lint", dir + "/a.yaml", "-o", dir + "/policy.yaml"], ["compile", dir + "/a.yaml", "-o", dir + "/policy.yaml"],
            ["test", dir + "/s.test.yaml", "--rules", dir + "/a.yaml", "-o", dir + "/policy.yaml"],
            ["simulate", dir + "/s.test.yaml", "--rules", dir + "/a.yaml", "-o", dir + "/other.test.YML"],
            ["lint", dir + "/a.yaml", "-o", scratchPath("adrules-reports") + ".yaml"],
        ] {
            let result = runCLI(arguments)
            #expect(result.exitCode == 2, "\(arguments)")
            #expect(result.stderr.contains("would write a YAML file, and no report is one"), "\(result.stderr)")
        }
        #expect(try String(contentsOfFile: dir + "/policy.yaml", encoding: .utf8) == other)
        #expect(!FileManager.default.fileExists(atPath: dir + "/other.test.YML"))
        #expect(runCLI(["lint", dir + "/a.yaml", "-o", dir + "/report.txt"]).exitCode == 0)
    }

    /// A report that cannot be written is said before the run: no finding is printed, no step runs, and the summary of
    /// a lint that ran first is not there.
    @Test func anUnwritableOutputStopsEveryCommandBeforeItRuns() throws {
        let dir = try Self.directory([
            "p.yaml": "version: 1\nplacements:\n  a: {format: interstitial, daily_cap: six}\n",
            "s.test.yaml": "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {ask: load, placement: a, expect: allow}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let missing = dir + "/none/report.txt"
        for arguments in [
            ["lint", dir + "/p.yaml"], ["test", dir], ["simulate", dir + "/s.test.yaml", "--rules", dir + "/p.yaml"], ["compile", dir + "/p.yaml"],
        ] {
            let result = runCLI(arguments + ["--output", missing])
            #expect(result.exitCode == 3 && result.stdout.isEmpty, "\(arguments)")
            #expect(result.stderr == "error: cannot write \(missing): no such file or directory\n", "\(arguments): \(result.stderr)")
        }
        let folder = runCLI(["lint", dir + "/p.yaml", "--output", dir])
        #expect(folder.exitCode == 3 && folder.stderr == "error: cannot write \(dir): is a directory\n", "\(folder.stderr)")
    }

    /// With no path, a missing `rules` is said to be the default, with how to name a policy; help names an unknown
    /// topic as an unknown command, and `help impact merge` is impact's help.
    @Test func theDefaultPolicyAndHelpTopicsSayWhatTheyAre() throws {
        let empty = try Self.directory([:])
        defer { try? FileManager.default.removeItem(atPath: empty) }
        for (arguments, naming) in [(["lint"], "adrules lint path/to/rules"), (["compile"], "adrules compile path/to/rules -o policy.json"),
                                    (["test"], "adrules test path/to/rules")] {
            let result = try runBinary(arguments, directory: empty)
            #expect(result.code == 3, "\(arguments)")
            #expect(result.stderr == "error: no such file or directory: rules, the policy read when none is named: run this where rules/ is, or name the policy, such as \(naming)\n", "\(result.stderr)")
        }
        // impact says what is wrong with the model it was given before it looks for the default policy.
        let model = try runBinary(["impact", "nope.model.yaml"], directory: empty)
        #expect(model.code == 3 && model.stderr == "error: no such model file: nope.model.yaml\n", "\(model.stderr)")
        let folder = try runBinary(["impact", "."], directory: empty)
        #expect(folder.code == 2 && folder.stderr.hasPrefix("error: . is a directory: impact takes a usage model file"), "\(folder.stderr)")
        try "version: 1\nusers: 2\ndays: 1\nsegments:\n  - {name: s, share: 1}\n".write(toFile: empty + "/m.model.yaml", atomically: true, encoding: .utf8)
        let policy = try runBinary(["impact", "m.model.yaml"], directory: empty)
        #expect(policy.code == 3 && policy.stderr.contains("no such file or directory: rules, the policy read when none is named"), "\(policy.stderr)")
        let unknown = runCLI(["help", "lnt"])
        #expect(unknown.exitCode == 2 && unknown.stderr.hasPrefix("error: unknown command \"lnt\"; did you mean \"lint\"?"), "\(unknown.stderr)")
        let merge = runCLI(["help", "impact", "merge"])
        #expect(merge.exitCode == 0 && merge.stdout.contains("adrules impact merge PART.json..."), "\(merge.stdout)")
    }

    /// Findings printed on standard error (impact's) are coloured when standard error is a terminal, unless NO_COLOR
    /// (not empty), TERM=dumb or --color never says otherwise, and with --color always wherever they go.
    @Test func findingsOnStandardErrorFollowItsTerminal() throws {
        let dir = try Self.directory([
            "p.yaml": "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n  b: {format: banner}\n",
            "m.model.yaml": "version: 1\nusers: 2\ndays: 1\nsegments:\n  - {name: s, share: 1, actions: [{placement: a, every: 10m}]}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func stderr(_ extra: [String], terminal: Bool, variables: [String: String] = [:]) -> String {
            AdRulesCommandLine.run(
                ["impact", dir + "/m.model.yaml", "--rules", dir + "/p.yaml"] + extra,
                environment: CommandEnvironment(variables: variables, stderrIsTerminal: terminal)).stderr
        }
        // The unused placement b is a warning.
        #expect(stderr([], terminal: true).contains("\u{1B}["))
        #expect(!stderr([], terminal: false).contains("\u{1B}["))
        #expect(!stderr([], terminal: true, variables: ["NO_COLOR": "1"]).contains("\u{1B}["))
        // no-color.org: an empty NO_COLOR does not count; a terminal that says it has no colours (TERM=dumb) gets none.
        #expect(stderr([], terminal: true, variables: ["NO_COLOR": ""]).contains("\u{1B}["))
        #expect(!stderr([], terminal: true, variables: ["TERM": "dumb"]).contains("\u{1B}["))
        #expect(stderr(["--color", "always"], terminal: true, variables: ["TERM": "dumb"]).contains("\u{1B}["))
        #expect(!stderr(["--color", "never"], terminal: true).contains("\u{1B}["))
        #expect(stderr(["--color", "always"], terminal: false).contains("\u{1B}["))
        #expect(stderr([], terminal: false).contains("warning: no segment of"))
    }

    /// impact checks --output before it plays: `-` is standard output, a one-letter name is a file here, and a path
    /// through a file or ending in `/` is refused at once with the reason the write would give.
    @Test func impactChecksItsOutputBeforeItPlays() throws {
        let dir = try Self.directory([
            "p.yaml": "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n",
            "m.model.yaml": "version: 1\nusers: 2\ndays: 1\nsegments:\n  - {name: s, share: 1, actions: [{placement: a, every: 10m}]}\n",
            "f.txt": "x",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let dash = try runBinary(["impact", "m.model.yaml", "--rules", "p.yaml", "-o", "-", "--format", "json"], directory: dir)
        #expect(dash.code == 0 && dash.stdout.hasPrefix("{"), "\(dash.stderr)")
        let short = try runBinary(["impact", "m.model.yaml", "--rules", "p.yaml", "-o", "a"], directory: dir)
        #expect(short.code == 0 && FileManager.default.fileExists(atPath: dir + "/a"), "\(short.stderr)")
        for (output, reason) in [("f.txt/x.json", "not a directory"), ("new/", "the name ends in /, which names a directory, and there is none: give a file's name, such as new"), ("missing/x.json", "no such file or directory")] {
            let result = try runBinary(["impact", "m.model.yaml", "--rules", "p.yaml", "-o", output], directory: dir)
            #expect(result.code == 3 && result.stderr == "error: cannot write \(output): \(reason)\n", "\(output): \(result.stderr)")
        }
    }

    /// The file standard input reads from is never written as a report (`-o /dev/stdin < notes.txt`).
    @Test func theFileStandardInputReadsIsNoOutput() throws {
        let dir = try Self.directory(["notes.txt": "keep me\n", "p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try runBinary(["lint", dir + "/p.yaml", "-o", "/dev/stdin"], standardInput: dir + "/notes.txt")
        #expect(result.code == 2, "\(result.stderr)")
        #expect(result.stderr == "error: --output /dev/stdin is the file standard input reads: write the report elsewhere\n", "\(result.stderr)")
        #expect(try String(contentsOfFile: dir + "/notes.txt", encoding: .utf8) == "keep me\n")
    }

    /// Standard input's pipe (`… | adrules … -o /dev/stdin`) is read by nothing: a report written there filled it and
    /// waited for ever (or was lost at exit, with exit 0). `/dev/ptmx` opens a terminal nothing reads. Both are refused
    /// before the run (a closed standard input: ``EndToEndTests/aClosedStandardStreamTakesNoFileAndIsSaidClosed()``).
    @Test func outputsNothingReadsAreRefused() throws {
        let dir = try Self.directory(["p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for output in ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"] {
            let piped = try runBinary(["lint", dir + "/p.yaml", "--format", "json", "-o", output], inputPipe: true)
            #expect(piped.code == 2, "\(output): \(piped.stderr)")
            #expect(piped.stderr == "error: --output \(output) is the pipe standard input comes from, which nothing reads: write the report elsewhere\n", "\(piped.stderr)")
        }
        if FileManager.default.fileExists(atPath: "/dev/ptmx") {
            let terminal = try runBinary(["schema", "-o", "/dev/ptmx"], standardInput: "/dev/null")
            #expect(terminal.code == 2 && terminal.stderr == "error: --output /dev/ptmx opens a new pseudo-terminal, which nothing reads: write the report elsewhere\n", "\(terminal.stderr)")
        }
        // /dev/null stays a place to send a report, with standard input on it too.
        #expect(try runBinary(["lint", dir + "/p.yaml", "-o", "/dev/null"], standardInput: "/dev/null").code == 0)
        // Standard output named as a file is that stream, even when it is the FIFO standard input reads (as under inetd).
        let binary = try #require(adrulesBinary())
        #expect(mkfifo(dir + "/both", 0o600) == 0)
        let shared = Process()
        shared.executableURL = URL(fileURLWithPath: "/bin/sh")
        shared.arguments = ["-c", "exec 3<>\"$1\"; \"$0\" lint \"$2\" --format json -o /dev/stdout <&3 >&3", binary, dir + "/both", dir + "/p.yaml"]
        try shared.run()
        shared.waitUntilExit()
        #expect(shared.terminationStatus == 0)
    }
}
