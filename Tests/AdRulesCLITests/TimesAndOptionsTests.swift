import AdRules
@testable import AdRulesCLI
import AdRulesTestSupport
import Foundation
import Testing

/// What a time-semantics audit and a sixth hostile-input hunt found: RFC 3339 read too loosely and printed past
/// what it can say, options whose values were silently dropped, I/O failures shown as clean results or as usage
/// errors, and scenario attributes that check nothing.
@Suite("Times and options")
struct TimesAndOptionsTests {
    static func directory(_ files: [String: String]) throws -> String { try temporaryDirectory("adrules-times", files) }

    static let policy = "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\nattributes:\n  screen: {type: string, default: home}\n"

    /// Runs the CLI on a folder holding the suite's policy (`p.yaml`) and one scenario file (`s.test.yaml`); `DIR`
    /// in the arguments is the folder.
    static func run(scenario: String, _ arguments: [String]) throws -> CommandResult {
        let dir = try directory(["p.yaml": policy, "s.test.yaml": scenario])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        return runCLI(arguments.map { $0.replacingOccurrences(of: "DIR", with: dir) })
    }

    /// A failing step's time is shown in the zone the policy counts days in, as simulate shows it: across the end of DST
    /// the offset `start:` was written with put 23:30 local on the next day, beside a daily-cap reason naming this one.
    @Test func failingStepsAreTimedInThePolicyZone() throws {
        let dir = try Self.directory([
            "p.yaml": "version: 1\ntimezone: America/New_York\nplacements:\n  inter: {format: interstitial, min_interval: 1m, daily_cap: 1}\n",
            "a.test.yaml": """
                tests:
                  - name: one a day
                    start: 2026-11-01T00:30:00-04:00
                    history: [{placement: inter, at: 2026-11-01T00:10:00-04:00}]
                    steps:
                      - event: app_launched
                      - event: load_completed
                        placement: inter
                      - at: 2026-11-01T23:30:00-05:00
                        ask: show
                        placement: inter
                        expect: allow

                """,
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = runCLI(["test", dir + "/a.test.yaml"])
        #expect(text.exitCode == 1)
        #expect(text.stdout.contains("at 2026-11-01T23:30:00-05:00: ask show inter"), "\(text.stdout)")
        #expect(text.stdout.contains("(2026-11-01 in America/New_York;"), "\(text.stdout)")
        let json = try JSON.parse(runCLI(["test", dir + "/a.test.yaml", "--format", "json"]).stdout)
        let failure = json["tests"]?.arrayValue?.first?["failures"]?.arrayValue?.first
        #expect(failure?["time"] == .string("2026-11-01T23:30:00-05:00"), "\(String(describing: failure))")
    }

    /// A time a decision clears at past the year 9999 is not written as a timestamp no scenario could take back
    /// (`10000-12-31T00:00:00Z`): json has it null, with `retry_in` and a note saying so; simulate's text gives the wait.
    @Test func clearTimesPastTheYear9999AreNotWrittenAsTimestamps() throws {
        let dir = try Self.directory([
            "p.yaml": "version: 1\nplacements:\n  inter: {format: interstitial, min_interval: 366d}\n  near: {format: interstitial, min_interval: 1h}\n"
                + "  ruled: {format: interstitial, min_interval: 366d}\nrules:\n  - {id: never, deny: [ruled], when: true}\n",
            "s.test.yaml": """
                tests:
                  - name: far
                    start: 9999-12-31T00:00:00Z
                    history: [{placement: inter, at: 9999-12-30T00:00:00Z}, {placement: near, at: 9999-12-31T00:00:00Z}, {placement: ruled, at: 9999-12-30T00:00:00Z}]
                    steps:
                      - event: app_launched
                      - {event: load_completed, placement: near}
                      - {ask: show, placement: near, trigger: action, expect: deny, retry_in: 1h}
                      - {event: load_completed, placement: inter}
                      - {ask: show, placement: inter, trigger: action, expect: deny, retry_in: 365d}
                      - {event: load_completed, placement: ruled}
                      - {ask: show, placement: ruled, trigger: action, expect: deny, retry_in: null}

                """,
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(runCLI(["test", dir]).exitCode == 0)
        let text = runCLI(["simulate", dir + "/s.test.yaml", "--rules", dir])
        #expect(text.stdout.contains("-> deny, next allowed in 365d, past the year 9999"), "\(text.stdout)")
        #expect(!text.stdout.contains("10000-"), "\(text.stdout)")
        let json = try JSON.parse(runCLI(["simulate", dir + "/s.test.yaml", "--rules", dir, "--format", "json"]).stdout)
        let steps = json["tests"]?.arrayValue?.first?["steps"]?.arrayValue ?? []
        let decision = steps.count > 4 ? steps[4]["decision"] : nil
        #expect(decision?["next_allowed_at"] == .null, "\(String(describing: decision))")
        #expect(decision?["retry_in"] == .string("365d"))
        #expect(decision?["reasons"]?.arrayValue?.first?["clears_at"] == .null)
        #expect(decision?["notes"] == .array([.string(DecisionJSON.clearTimePastYear9999)]))
        // With a reason that is not time-based the decision has no time and no wait: the reason's time is null, and
        // the note says so alone.
        let ruled = steps.last?["decision"]
        #expect(ruled?["next_allowed_at"] == .null && ruled?["retry_in"] == .null, "\(String(describing: ruled))")
        #expect(ruled?["reasons"]?.arrayValue?.map { $0["clears_at"] } == [.null, .null])
        #expect(ruled?["notes"] == .array([.string(DecisionJSON.reasonClearTimePastYear9999)]))
        // A time within the year 9999 is written, with no note.
        let near = steps.count > 2 ? steps[2]["decision"] : nil
        #expect(near?["next_allowed_at"] == .string("9999-12-31T01:00:00Z"), "\(String(describing: near))")
        #expect(near?["reasons"]?.arrayValue?.first?["clears_at"] == .string("9999-12-31T01:00:00Z"))
        #expect(near?["notes"] == .array([]))
        #expect(text.stdout.contains("-> deny, next allowed at 9999-12-31T01:00:00Z"), "\(text.stdout)")
    }

    /// Offsets run from -23:59 to +23:59 with minutes below 60; a leap second is the second after `:59`.
    @Test func rfc3339OffsetsAndLeapSeconds() throws {
        #expect(Timestamps.parseMilliseconds("2026-11-29T09:00:00+05:99") == nil, "a minute of 99 is a typo, not +06:39")
        #expect(Timestamps.parseMilliseconds("2026-11-29T09:00:00+24:00") == nil)
        #expect(Timestamps.parseMilliseconds("0001-01-01T00:00:00+23:59") == nil, "year 0000 in UTC: no timestamp could print it back")
        let far = try #require(Timestamps.parseMilliseconds("2026-11-29T09:00:00-23:59"))
        #expect(far == (try #require(Timestamps.parseMilliseconds("2026-11-30T08:59:00Z"))))
        let leap = try #require(Timestamps.parseMilliseconds("2016-12-31T23:59:60Z"))
        #expect(leap == (try #require(Timestamps.parseMilliseconds("2017-01-01T00:00:00Z"))))
        // The same second where the offset puts it, and no other minute's second 60 (09:00:60Z was read as 09:01:00).
        #expect(Timestamps.parseMilliseconds("2017-01-01T08:59:60+09:00") == leap)
        #expect(Timestamps.parseMilliseconds("2016-12-31T18:29:60-05:30") == leap)
        #expect(Timestamps.read("2026-11-29T09:00:60Z") == .failure(.leapSecond("09:00:60")))
        #expect(Timestamps.read("2026-11-29T23:59:60+01:00") == .failure(.leapSecond("23:59:60")))
    }

    /// RFC 3339 lets a space (or a lower-case `t`) join the date and the time, and a lower-case `z` stand for UTC.
    @Test func rfc3339SpaceBetweenDateAndTime() throws {
        let instant = try #require(Timestamps.parseMilliseconds("2026-11-29T09:00:00+09:00"))
        #expect(Timestamps.parseMilliseconds("2026-11-29 09:00:00+09:00") == instant)
        #expect(Timestamps.parseMilliseconds("2026-11-29t00:00:00z") == instant)
        #expect(Timestamps.parseMilliseconds("2026-11-29_09:00:00+09:00") == nil)
        #expect(Timestamps.parseMilliseconds("2026-11-29  09:00:00+09:00") == nil)
    }

    /// A time in the right shape that names no instant says what is wrong with it.
    @Test(arguments: [
        ("2026-02-29T09:00:00Z", "2026-02-29 is not a date: that month has 28 days"),
        ("2026-11-29T25:00:00Z", "25:00:00 is not a time of day"),
        ("2026-11-29T09:00:00+05:99", "the offset +05:99 is not one"),
        ("2026-11-29T09:00:60Z", "09:00:60 is not a time of day: a second 60 is a leap second, which only the minute 23:59 in UTC has (23:59:60Z): write second 59, or 00 of the next minute"),
        ("9999-12-31T23:00:00-05:00", "the time falls outside the years 0001-9999 in UTC"),
    ])
    func aTimeThatNamesNoInstantSaysWhy(_ time: String, _ message: String) throws {
        let result = try Self.run(scenario: "tests:\n  - name: t\n    start: \(time)\n    steps:\n      - event: app_launched\n", ["test", "DIR"])
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("s.test.yaml:3:12: error: start: \(message)"), "\(result.stdout)")
    }

    /// What is not in RFC 3339's shape is a type error, whatever its date; any number of fraction digits is RFC 3339,
    /// as long as those past milliseconds are 0.
    @Test func theShapeComesBeforeTheDate() throws {
        for time in ["2026-02-28T09:00:00xZ", "2026-02-30T09:00:00 garbage", "2026-02-28T09:00:00+05:30Z"] {
            let result = try Self.run(scenario: "tests:\n  - name: t\n    start: \"\(time)\"\n    steps:\n      - event: app_launched\n", ["test", "DIR"])
            #expect(result.stdout.contains("start must be an RFC 3339 time such as"), "\(time): \(result.stdout)")
        }
        #expect(Timestamps.parseMilliseconds("2026-02-28T09:00:00.1230000000Z") == Timestamps.parseMilliseconds("2026-02-28T09:00:00.123Z"))
    }

    /// A fraction finer than the engine's milliseconds is refused where it is written: cut to milliseconds, a show at
    /// .0009 and an ask at 1m .0001 later would be exactly 1m apart, and `min_interval: 1m` would pass 0.8 ms early.
    @Test func aFractionFinerThanMillisecondsIsAFinding() throws {
        #expect(Timestamps.read("2026-02-28T09:00:00.1234Z") == .failure(.finerThanMilliseconds(".1234")))
        #expect(Timestamps.read("2026-02-28T09:00:00.1234567890123456Z") == .failure(.finerThanMilliseconds(".123456789012...")))
        // A decision read back from json keeps such a time, cut to milliseconds.
        #expect(Timestamps.parseMilliseconds("2026-02-28T09:00:00.1234Z") == Timestamps.parseMilliseconds("2026-02-28T09:00:00.123Z"))
        let result = try Self.run(
            scenario: "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n"
                + "      - {at: 2026-11-29T09:01:00.0001Z, ask: load, placement: a, expect: allow}\n",
            ["test", "DIR"])
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains(
            "s.test.yaml:6:14: error: at: the engine counts whole milliseconds, and .0001 is finer: write at most three digits after the point"),
            "\(result.stdout)")
    }

    /// An offset with seconds (local mean time) is printed at its whole minutes with the wall clock that goes with
    /// them: the text names the instant it was given.
    @Test func anOffsetWithSecondsPrintsTheSameInstant() throws {
        let instant = try #require(Timestamps.parseMilliseconds("1971-06-02T00:44:30Z"))
        let text = Timestamps.format(milliseconds: instant, offsetSeconds: -(44 * 60 + 30))
        #expect(text == "1971-06-02T00:00:30-00:44")
        #expect(Timestamps.parseMilliseconds(text) == instant)
    }

    /// A time whose wall clock at its offset would fall past 9999 or before 0001 is shown in UTC, which RFC 3339 can
    /// write (and which reads back as the same instant).
    @Test func aWallClockPastTheYearsIsShownInUTC() throws {
        let last = try #require(Timestamps.parseMilliseconds("9999-12-31T23:59:59.999Z"))
        #expect(Timestamps.format(milliseconds: last, offsetSeconds: 14 * 3600) == "9999-12-31T23:59:59.999Z")
        let first = try #require(Timestamps.parseMilliseconds("0001-01-01T00:00:00Z"))
        #expect(Timestamps.format(milliseconds: first, offsetSeconds: -12 * 3600) == "0001-01-01T00:00:00Z")
        #expect(Timestamps.format(milliseconds: first, offsetSeconds: 3600) == "0001-01-01T01:00:00+01:00")
        // A local date takes its offset to the second: 23:30Z at +0:53:28 is the next day.
        let late = try #require(Timestamps.parseMilliseconds("1890-05-31T23:30:00Z"))
        #expect(Timestamps.localDate(milliseconds: late, offsetSeconds: 53 * 60 + 28) == "1890-06-01")
        #expect(Timestamps.localDate(milliseconds: try #require(Timestamps.parseMilliseconds("9999-12-31T23:00:00Z")), offsetSeconds: 14 * 3600) == "10000-01-01")
    }

    /// A step the clock would put after 9999 is refused where it is written: no timestamp can name its time.
    @Test func aStepPastYear9999IsAFinding() throws {
        let result = try Self.run(
            scenario: "tests:\n  - name: t\n    start: 9999-12-31T23:59:59Z\n    steps:\n      - event: app_launched\n      - {after: 1s, ask: load, placement: a, expect: allow}\n",
            ["test", "DIR"])
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("s.test.yaml:6:9: error: this step falls after 9999-12-31T23:59:59.999Z"), "\(result.stdout)")
    }

    /// `simulate`'s table of shows per day dates a show as the steps print its time, in one calendar for every
    /// year (Foundation's gregorian calendar turns Julian before 1582, two days off in year 1).
    @Test func theShowsPerDayTableUsesTheStepsCalendar() throws {
        let result = try Self.run(
            scenario: "tests:\n  - name: t\n    start: 0001-01-02T10:00:00Z\n    history:\n      - {placement: a, at: 0001-01-01T00:00:00Z}\n    steps:\n      - event: app_launched\n",
            ["simulate", "DIR/s.test.yaml"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  0001-01-01  1\n"), "\(result.stdout)")
        // Days in date order, a year past 9999 (written with five digits) last.
        let late = try Self.run(
            scenario: "tests:\n  - name: t\n    start: 9999-12-31T20:00:00Z\n    device_timezone: Pacific/Kiritimati\n    history:\n      - {placement: a, at: 9999-12-31T11:00:00Z}\n      - {placement: a, at: 9999-12-31T09:00:00Z}\n    steps:\n      - event: app_launched\n",
            ["simulate", "DIR/s.test.yaml"])
        #expect(late.exitCode == 0, "\(late.stderr)")
        let first = try #require(late.stdout.range(of: "  9999-12-31   1\n"), "\(late.stdout)")
        let second = try #require(late.stdout.range(of: "  10000-01-01  1\n"), "\(late.stdout)")
        #expect(first.lowerBound < second.lowerBound)
    }

    /// A context attribute the policy does not declare is read by no rule: a warning, with "did you mean".
    @Test func anUndeclaredContextAttributeIsAWarning() throws {
        let dir = try Self.directory([
            "p.yaml": Self.policy,
            "s.test.yaml": "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    context: {attributes: {scren: checkout}}\n    steps:\n      - event: app_launched\n      - {ask: load, placement: a, expect: allow, context: {attributes: {level: 3}}}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["test", dir])
        #expect(result.exitCode == 0, "a warning does not fail the test")
        #expect(result.stdout.contains("s.test.yaml:4:28: warning: attribute \"scren\" is not declared by the policy, so no rule reads it: did you mean \"screen\"? (scenario/unknown-attribute)"), "\(result.stdout)")
        #expect(result.stdout.contains("warning: attribute \"level\" is not declared by the policy, so no rule reads it: declare it under `attributes`"), "\(result.stdout)")
        // Beside a json document, and beside a replay, the warnings go to stderr.
        let json = runCLI(["test", dir, "--format", "json"])
        #expect(json.stderr.contains("(scenario/unknown-attribute)"), "\(json.stderr)")
        let replay = runCLI(["simulate", dir + "/s.test.yaml"])
        #expect(replay.stderr.contains("(scenario/unknown-attribute)"), "\(replay.stderr)")
        // A name no rule file could declare is not advised to be declared.
        try "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    context: {attributes: {\"not\": 1}}\n    steps:\n      - event: app_launched\n"
            .write(toFile: dir + "/s.test.yaml", atomically: true, encoding: .utf8)
        let keyword = runCLI(["test", dir])
        #expect(keyword.stdout.contains("and no rule file may declare it"), "\(keyword.stdout)")
        // A suppression comment hides the warning on its next line, as in rule files, and only there: the same name
        // on another line is still reported.
        let test = "  - name: t\n    start: 2026-11-29T09:00:00Z\n    context: {attributes: {scren: checkout}}\n    steps:\n      - event: app_launched\n"
        let hiddenOnce = test.replacingOccurrences(of: "    context:", with: "    # adrules:disable-next-line scenario/unknown-attribute\n    context:")
        try ("tests:\n" + hiddenOnce).write(toFile: dir + "/s.test.yaml", atomically: true, encoding: .utf8)
        let hidden = runCLI(["test", dir])
        #expect(!hidden.stdout.contains("scenario/unknown-attribute"), "\(hidden.stdout)")
        try ("tests:\n" + hiddenOnce + test).write(toFile: dir + "/s.test.yaml", atomically: true, encoding: .utf8)
        let second = runCLI(["test", dir])
        #expect(second.stdout.contains("s.test.yaml:10:28: warning: attribute \"scren\""), "\(second.stdout)")
    }

    /// An empty option value and an option given twice are usage errors, not a silently dropped value.
    @Test func emptyAndRepeatedOptionsAreUsageErrors() {
        let empty = runCLI(["impact", "rules/usage.model.yaml", "--rules", "rules", "--output", ""])
        #expect(empty.exitCode == ExitCode.usage)
        // Given, but empty: said as such, not as a value left out.
        #expect(empty.stderr.contains("option \"--output\" is given an empty value, which names nothing: give a value, or leave the option out"), "\(empty.stderr)")
        #expect(runCLI(["lint", "rules", "--format="]).stderr.contains("option \"--format\" is given an empty value"))
        let twice = runCLI(["lint", "rules", "--format", "json", "--format", "text"])
        #expect(twice.exitCode == ExitCode.usage)
        #expect(twice.stderr.contains("option \"--format\" is given twice"), "\(twice.stderr)")
        // The option after one that takes a value is not its value: `--output --quiet` would write a file "--quiet".
        let swallowed = runCLI(["impact", "rules/usage.model.yaml", "--users", "5", "--output", "--quiet"])
        #expect(swallowed.exitCode == ExitCode.usage)
        #expect(swallowed.stderr.contains("missing value for option \"--output\""), "\(swallowed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "--quiet"))
        let days = runCLI(["impact", "rules/usage.model.yaml", "--users", "--days", "3"])
        #expect(days.stderr.contains("missing value for option \"--users\""), "\(days.stderr)")
        let help = runCLI(["lint", "rules", "--format", "-h"])
        #expect(help.stderr.contains("missing value for option \"--format\""), "\(help.stderr)")
        let ended = runCLI(["lint", "--output", "--", "rules"])
        #expect(ended.exitCode == ExitCode.usage)
        #expect(ended.stderr.contains("missing value for option \"--output\""), "\(ended.stderr)")
    }

    /// A policy folder with an entry that cannot be opened fails with that cause (exit 3) whatever `--output` names,
    /// and a json or SARIF report of such a run is not written (it would read as "no problems").
    @Test func anUnreadablePolicyIsAnIOFailureAndNoCleanReport() throws {
        let dir = try Self.directory(["policy.yaml": Self.policy])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/broken.yaml", withDestinationPath: dir + "/nowhere/x.yaml")
        let out = try Self.directory(["existing.txt": "OLD\n"])
        defer { try? FileManager.default.removeItem(atPath: out) }
        let lint = runCLI(["lint", dir, "--output", out + "/existing.txt"])
        #expect(lint.exitCode == ExitCode.failure)
        #expect(lint.stderr.contains("broken.yaml"), "\(lint.stderr)")
        #expect(try String(contentsOfFile: out + "/existing.txt", encoding: .utf8) == "OLD\n")
        for format in ["json", "sarif"] {
            let result = runCLI(["lint", dir, "--format", format])
            #expect(result.exitCode == ExitCode.failure)
            #expect(result.stdout.isEmpty, "\(format): \(result.stdout)")
            #expect(result.stderr.contains("broken.yaml"), "\(result.stderr)")
        }
    }

    /// `--output` looks only at the files the run reads: a dangling scenario symlink lint never opens stops neither.
    @Test func theOutputCheckReadsWhatTheRunReads() throws {
        let dir = try Self.directory(["policy.yaml": Self.policy])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/gone.test.yaml", withDestinationPath: dir + "/nowhere/x.yaml")
        let out = try Self.directory(["existing.txt": "OLD\n"])
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(runCLI(["lint", dir]).exitCode == 0)
        let lint = runCLI(["lint", dir, "--output", out + "/existing.txt"])
        #expect(lint.exitCode == 0, "\(lint.stderr)")
        let compile = runCLI(["compile", dir, "--output", out + "/existing.txt"])
        #expect(compile.exitCode == 0, "\(compile.stderr)")
    }

    /// `impact merge` reads every part before it says two do not fit: a part that cannot be read is the error.
    @Test func aPartThatCannotBeReadComesBeforeAMismatch() throws {
        let dir = try Self.directory([:])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for shard in ["1/2", "2/2"] {
            let run = runCLI(["impact", "rules/usage.model.yaml", "--rules", "rules", "--users", "20", "--days", "1", "--shard", shard,
                              "--output", dir + "/p\(shard.prefix(1)).json"])
            #expect(run.exitCode == 0, "\(run.stderr)")
        }
        // The second part again (a repeated shard), then a part that does not exist.
        let result = runCLI(["impact", "merge", dir + "/p1.json", dir + "/p1.json", dir + "/missing.json"])
        #expect(result.exitCode == ExitCode.failure, "\(result.stderr)")
        #expect(result.stderr.contains("missing.json"), "\(result.stderr)")
        let mismatch = runCLI(["impact", "merge", dir + "/p1.json", dir + "/p1.json"])
        #expect(mismatch.exitCode == 1)
        #expect(mismatch.stderr.contains("cannot merge"), "\(mismatch.stderr)")
    }

    /// A policy that cannot be read is said once, not once per scenario file.
    @Test func anUnreadablePolicyIsReportedOnce() {
        let result = runCLI(["test", "rules", "--rules", "no-such-policy"])
        #expect(result.exitCode == ExitCode.failure)
        #expect(result.stderr.components(separatedBy: "no-such-policy").count == 2, "\(result.stderr)")
    }

    /// A usage model's fixed offset gets the rule files' advice (its Etc name), not the nearest-spelt zone.
    @Test func aModelsFixedOffsetGetsItsEtcName() throws {
        let model = "version: 1\nusers: 1\ndays: 1\nstart: 2026-12-07\nsegments:\n  - {name: s, share: 1, timezone: GMT+5}\n"
        let dir = try Self.directory(["p.yaml": Self.policy, "m.model.yaml": model])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/p.yaml"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("unknown time zone \"GMT+5\": a fixed offset is written Etc/GMT-5"), "\(result.stderr)")
    }
}
