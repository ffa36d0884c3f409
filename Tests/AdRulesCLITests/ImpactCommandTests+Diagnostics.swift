import AdRulesImpact
import AdRulesTestSupport
import Foundation
import Testing

@testable import AdRulesCLI

/// A usage model's mistakes, the policy's findings beside them, usage errors and exit codes.
extension ImpactCommandTests {
    /// A model whose only error is its own (shares that do not add up) gets the policy's warnings in the same run: no
    /// segment was left out, so they are what the fixed model would get. With a segment left out they are not shown.
    @Test func aModelErrorOfItsOwnDoesNotHideThePolicysWarnings() throws {
        let model = "version: 1\nusers: 3\ndays: 1\nsegments:\n  - {name: a, share: 0.9, attributes: {levle: 3}, actions: [{placement: level_end, every: 10m}]}\n"
        let dir = try temporaryDirectory("adrules-shares", [
            "p.yaml": "version: 1\nplacements:\n  level_end: {format: interstitial, min_interval: 1m}\nattributes:\n  level: {type: int, default: 1}\n",
            "m.model.yaml": model, "left.model.yaml": model + "  - {name: b, share: 0.1, premium: maybe}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let shares = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/p.yaml"])
        #expect(shares.exitCode == 1)
        #expect(shares.stderr.contains("(model/shares)"), "\(shares.stderr)")
        #expect(shares.stderr.contains("did you mean \"level\"? (model/unknown-attribute)"), "\(shares.stderr)")
        let left = runCLI(["impact", dir + "/left.model.yaml", "--rules", dir + "/p.yaml"])
        #expect(left.exitCode == 1)
        #expect(!left.stderr.contains("(model/unknown-attribute)"), "\(left.stderr)")
    }

    /// Independent mistakes of a model are reported in one run: a duplicate segment name, shares that do not add up
    /// (the duplicate's share counted as written), and the placements of its readable segments; no warning about
    /// placements that a broken segment may use.
    @Test func aModelsMistakesAreReportedInOneRun() throws {
        let result = try Self.impact(
            policy: "version: 1\nplacements:\n  lvl: {format: interstitial, min_interval: 1m}\n  ao: {format: app_open}\n  other: {format: interstitial, min_interval: 1m}\n",
            model: "version: 1\nusers: 3\ndays: 1\nsegments:\n  - name: a\n    share: 0.5\n    actions: [{placement: lvx, every: 1m}, {placement: ao, every: 1m}]\n  - name: a\n    share: 0.4\n")
        #expect(result.exitCode == 1)
        let errors = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        let rules = errors.compactMap { line in line.split(separator: "(").last.map { String($0.dropLast()) } }
        #expect(rules == ["model/shares", "policy/unknown-placement", "model/placement-format", "model/duplicate-segment"], "\(result.stderr)")
        #expect(result.stderr.contains("shares add up to 0.9, not 1"), "\(result.stderr)")
        #expect(!result.stderr.contains(": warning: "), "\(result.stderr)")
    }

    /// A usage model kept in the policy's folder under a rule file's name is read as one of the policy's files: said
    /// once (exit 2), not as a cascade of unknown keys in a rule file. The same model outside the folder plays.
    @Test func aModelInsideThePolicysFolderUnderARuleFilesNameIsSaidOnce() throws {
        let model = try String(contentsOfFile: Self.inPackage("rules/usage.model.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "\nusers: 10000", with: "\nusers: 20")
        let policy = try String(contentsOfFile: Self.inPackage("rules/policy.yaml"), encoding: .utf8)
        var files = ["rules/inside.yaml": model, "outside.yaml": model]
        for name in ["policy", "app_open", "interstitial", "rewarded", "groups", "custom"] {
            files["rules/\(name).yaml"] = name == "policy" ? policy : try String(contentsOfFile: Self.inPackage("rules/\(name).yaml"), encoding: .utf8)
        }
        let dir = try temporaryDirectory("adrules-impact-inside", files)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let inside = runCLI(["impact", dir + "/rules/inside.yaml", "--rules", dir + "/rules"])
        #expect(inside.exitCode == 2, "\(inside.stderr)")
        #expect(inside.stderr == "error: \(dir)/rules/inside.yaml is read as a rule file of the policy \(dir)/rules: name a usage model *.model.yaml (loading a policy skips those files), or keep it outside the policy's folder\n")
        // Named through `..`, a link, or a link and `..`, it is still the same file; so is a hard link.
        try FileManager.default.createDirectory(atPath: dir + "/x/y", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir + "/x/y/z", withDestinationPath: "../../rules")
        try FileManager.default.linkItem(atPath: dir + "/rules/inside.yaml", toPath: dir + "/hard.yaml")
        for spelling in ["/rules/../rules/inside.yaml", "/x/y/z/inside.yaml", "/x/y/z/../rules/inside.yaml", "/hard.yaml"] {
            let other = runCLI(["impact", dir + spelling, "--rules", dir + "/rules"])
            #expect(other.exitCode == 2 && other.stderr.contains("is read as a rule file of the policy"), "\(spelling): \(other.stderr)")
        }
        // The model given as the policy too is said to be both.
        let both = runCLI(["impact", dir + "/rules/inside.yaml", "--rules", dir + "/rules/inside.yaml"])
        #expect(both.stderr == "error: \(dir)/rules/inside.yaml is given both as the model and as the policy: give the policy's rule files (a folder, or a rule file) as --rules\n", "\(both.stderr)")
        let compared = runCLI(["impact", dir + "/rules/inside.yaml", "--rules", dir + "/rules/policy.yaml", "--compare", dir + "/rules/inside.yaml"])
        #expect(compared.stderr.hasSuffix("is given both as the model and as the policy: give the policy's rule files (a folder, or a rule file) as --compare\n"), "\(compared.stderr)")
        try FileManager.default.removeItem(atPath: dir + "/hard.yaml")
        try FileManager.default.removeItem(atPath: dir + "/rules/inside.yaml")
        let outside = runCLI(["impact", dir + "/outside.yaml", "--rules", dir + "/rules/", "--format", "json"])
        #expect(outside.exitCode == 0, "\(outside.stderr)")
    }

    /// A scenario file or a compiled policy named as the model is said to be one, once (exit 2), not reported as a
    /// cascade of unknown keys in a usage model.
    @Test func aFileOfAnotherKindAsTheModelIsAUsageError() {
        for file in ["app_open.yaml", "groups.yaml", "custom.yaml"] {
            let rule = runCLI(["impact", Self.inPackage("rules/" + file), "--rules", Self.inPackage("rules")])
            #expect(rule.exitCode == 2, "\(file)")
            #expect(rule.stderr.hasSuffix("\(file) is a rule file, not a usage model: give the policy as --rules; impact takes a usage model, such as rules/usage.model.yaml\n"), "\(rule.stderr)")
        }
        let scenario = runCLI(["impact", Self.inPackage("rules/app_open.test.yaml"), "--rules", Self.inPackage("rules")])
        #expect(scenario.exitCode == 2)
        #expect(scenario.stderr.hasSuffix("app_open.test.yaml is a scenario file, not a usage model (adrules test runs scenarios); impact takes a usage model, such as rules/usage.model.yaml\n"), "\(scenario.stderr)")
        let path = scratchPath("adrules-model") + ".json"
        #expect(runCLI(["compile", Self.inPackage("rules"), "-o", path]).exitCode == 0)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let compiled = runCLI(["impact", path, "--rules", Self.inPackage("rules")])
        #expect(compiled.exitCode == 2)
        // Saved again with spaces, it is still named a compiled policy.
        let pretty = scratchPath("adrules-pretty") + ".json"
        defer { try? FileManager.default.removeItem(atPath: pretty) }
        try? (try? String(contentsOfFile: path, encoding: .utf8))?.replacingOccurrences(of: "\"format\":\"adrules", with: "\"format\": \"adrules").write(toFile: pretty, atomically: true, encoding: .utf8)
        #expect(runCLI(["impact", pretty, "--rules", Self.inPackage("rules")]).stderr.contains("is a compiled policy, not a usage model"))
        // A part of a --shard run given without `merge`, and a .json file that is neither, read as a model (JSON is YAML).
        let part = scratchPath("adrules-part") + ".json"
        defer { try? FileManager.default.removeItem(atPath: part) }
        #expect(runCLI(["impact", Self.inPackage("rules/usage.model.yaml"), "--rules", Self.inPackage("rules"), "--users", "4", "--days", "1", "--shard", "1/2", "--output", part]).exitCode == 0)
        #expect(runCLI(["impact", part, "--rules", Self.inPackage("rules")]).stderr.contains("is an impact report, not a usage model: combine the parts of a --shard run with adrules impact merge"))
        let other = scratchPath("adrules-other") + ".json"
        _ = FileManager.default.createFile(atPath: other, contents: Data("{}".utf8))
        defer { try? FileManager.default.removeItem(atPath: other) }
        #expect(runCLI(["impact", other, "--rules", Self.inPackage("rules")]).stderr.contains("the usage model has no"))
        #expect(compiled.stderr == "error: \(path) is a compiled policy, not a usage model: give a policy as --rules; impact takes a usage model, such as rules/usage.model.yaml\n", "\(compiled.stderr)")
    }

    /// The advice for a duration names a value the same key takes: at least 1s for a visit's length and a stream's
    /// gap, a local time before 24h for the first open (`write 0s` and `at most 366d` were refused next).
    @Test(arguments: [
        ("foreground: 0", "foreground must be a duration from 1s to 366d, such as 90s or 4m, not 0 (schema/duration)"),
        ("foreground: {exponential: -1}", "foreground.exponential must be a duration from 1s to 366d, such as 90s or 4m, not -1"),
        ("foreground: 5", "foreground is a duration, and a bare number has no unit: write 5s or 5m"),
        ("first_open: 367d", "first_open must be a local time before 24h, such as 8h or 18h30m, not 367d (schema/range)"),
        ("first_open: {uniform: [7h, 24h]}", "first_open.uniform must be a local time before 24h, such as 8h or 18h30m, not 24h"),
        ("first_open: 99999999999999d", "first_open is 99999999999999d, longer than the largest duration 366d: write a local time before 24h"),
        ("first_open: 2000", "first_open is a duration, and a bare number has no unit: write 2000s (schema/duration)"),
        ("first_open: 8", "first_open is a duration, and a bare number has no unit: write 8h or 8m (schema/duration)"),
        ("foreground: 5.0", "foreground must be a duration from 1s to 366d, such as 90s or 4m, not 5.0 (schema/duration)"),
        ("foreground: 1e3", "foreground must be a duration from 1s to 366d, such as 90s or 4m, not 1e3 (schema/duration)"),
        ("foreground: 99999999999", "foreground must be a duration from 1s to 366d, such as 90s or 4m, not 99999999999 (schema/duration)"),
        ("first_open: \"8\"", "first_open must be a local time before 24h, such as 8h or 18h30m, not \"8\" (schema/duration)"),
        ("foreground: 007", "foreground is a duration, and a bare number has no unit: write 7s or 7m (schema/duration)"),
    ])
    func durationAdviceNamesWhatTheKeyTakes(_ line: String, _ message: String) throws {
        let result = try Self.impact(
            policy: "version: 1\nplacements:\n  lvl: {format: interstitial, min_interval: 1m}\n",
            model: "version: 1\nusers: 3\ndays: 1\nsegments:\n  - name: a\n    share: 1\n    actions: [{placement: lvl, every: 1m}]\n    \(line)\n")
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// A bool attribute is one value for a whole segment: a draw between true and false says how to mix them.
    @Test func aDrawOfABoolAttributeSaysHowToMixThem() throws {
        let result = try Self.impact(
            policy: "version: 1\nplacements:\n  lvl: {format: interstitial, min_interval: 1m}\nattributes:\n  tutorial: bool\n",
            model: "version: 1\nusers: 3\ndays: 1\nsegments:\n  - name: a\n    share: 1\n    actions: [{placement: lvl, every: 1m}]\n    attributes: {tutorial: {uniform: [false, true]}}\n")
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains(":8:39: error: tutorial.uniform must be a number or a duration, not \"false\": a bool attribute is true or false for a whole segment; to mix them, split the segment in two"), "\(result.stderr)")
    }

    /// Whole numbers as the core schema writes them, each range said when a value is outside it.
    @Test(arguments: [
        ("seed: 9223372036854775807", "seed must be from 0 to 4611686018427387903, not 9223372036854775807"),
        ("users: 1e3", "users must be a whole number from 1 to 100000000, not \"1e3\""),
        ("start: 0001-01-01", "start must be a day from 1971-01-01 to 2199-12-31, not 0001-01-01"),
        ("start: 2026-02-30", "start: 2026-02-30 is not a date: that month has 28 days (schema/range)"),
        ("days: 0x200", "days must be from 1 to 366, not 0x200"),
    ])
    func modelNumbersSayTheirRange(_ line: String, _ message: String) throws {
        let path = scratchPath("adrules-model") + ".model.yaml"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let key = line.prefix { $0 != ":" }
        let model = try String(contentsOfFile: Self.inPackage("rules/usage.model.yaml"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(key + ":") ? Substring(line) : $0 }.joined(separator: "\n")
        try model.write(toFile: path, atomically: true, encoding: .utf8)
        let result = runCLI(["impact", path, "--rules", Self.inPackage("rules")])
        #expect(result.exitCode == 1)
        #expect((result.stdout + result.stderr).contains(message), "\(result.stdout)\(result.stderr)")
    }

    /// Names and attribute values from a model end up in every report: one with a line break or an escape code is
    /// an error at its line and column, so no report prints it raw.
    @Test func modelTextsHoldNoControlCharacters() throws {
        let path = scratchPath("adrules-model") + ".model.yaml"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let model = try String(contentsOfFile: Self.inPackage("rules/usage.model.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "- name: casual", with: #"- name: "cas\e[31mual\nx""#)
            .replacingOccurrences(of: "attributes: {screen: game, level: {uniform: [1, 40]}}", with: #"attributes: {screen: "a\nb", level: {uniform: [1, 40]}}"#)
        try model.write(toFile: path, atomically: true, encoding: .utf8)
        let result = runCLI(["impact", path, "--rules", Self.inPackage("rules")])
        #expect(result.exitCode == 1)
        let output = result.stdout + result.stderr
        #expect(output.contains("name holds the control character U+001B"), "\(output)")
        #expect(output.contains("attribute screen holds the control character U+000A"), "\(output)")
        #expect(!output.contains("has no name"))
    }

    /// The summary counts the files read, as lint's does: the model and the policy's rule file. The segment's own
    /// errors do not hide that its share, the only one, is not 1.
    @Test func modelProblemsAreReportedLikeLintAndExitOne() {
        let result = runCLI(["impact", "FIXTURES/impact/bad.model.yaml", "--rules", Self.new])
        #expect(result.exitCode == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == """
            FIXTURES/impact/bad.model.yaml:2:1: error: unknown key "sead" in the usage model: did you mean "seed"? (schema/unknown-key)
            FIXTURES/impact/bad.model.yaml:4:3: error: the segments' shares add up to 0.5, not 1: make them add up to 1; the only segment, players, takes 1 (model/shares)
            FIXTURES/impact/bad.model.yaml:6:15: error: unknown time zone "Europe/Pari": did you mean "Europe/Paris"? (policy/timezone)
            FIXTURES/impact/bad.model.yaml:7:15: error: unknown key "poison" in resumes: did you mean "poisson"? (schema/unknown-key)
            Found 4 errors and 0 warnings in 2 files.

            """)
    }

    /// impact prints a broken policy's errors alone: past a file's thousand, the line counting the rest counts its
    /// errors, and the summary agrees with it (it said "100 more findings" and counted 50).
    @Test func aPolicysHiddenFindingsAreCountedAsErrorsAlone() throws {
        let directory = scratchPath("adrules-model")
        try FileManager.default.createDirectory(atPath: directory + "/rules", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var rules = "version: 1\nplacements:\n"
        for i in 0..<1_050 { rules += "  x\(i): {format: x}\n" }
        for i in 0..<50 { rules += "  i\(i): {format: interstitial}\n" }
        try rules.write(toFile: directory + "/rules/p.yaml", atomically: true, encoding: .utf8)
        try "version: 1\nsegments:\n  - name: all\n    share: 1\n".write(toFile: directory + "/m.model.yaml", atomically: true, encoding: .utf8)
        let result = runCLI(["impact", directory + "/m.model.yaml", "--rules", directory + "/rules"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("error: 50 more findings in this file are not shown"), "\(result.stderr.prefix(400))")
        #expect(result.stderr.contains("Found 1050 errors and 0 warnings in 2 files."), "\(result.stderr.suffix(300))")
    }

    @Test func unknownAndUnusedPlacementsAreNamed() throws {
        let directory = scratchPath("adrules-model")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let model = directory + "/typo.model.yaml"
        try "version: 1\nsegments:\n  - name: all\n    share: 1\n    actions: [{placement: level_edn, every: 1m}]\n".write(toFile: model, atomically: true, encoding: .utf8)
        let result = runCLI(["impact", model, "--rules", Self.new])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("typo.model.yaml:5:27: error: segment all names placement \"level_edn\", which the policy \(Self.new) does not define: did you mean \"level_end\"? (policy/unknown-placement)"))
        // Neither compared policy has it: the error alone, with no warning about the old policy at the same place.
        let compared = runCLI(["impact", model, "--rules", Self.new, "--compare", Self.old])
        #expect(compared.exitCode == 1)
        #expect(compared.stderr.components(separatedBy: "(policy/unknown-placement)").count - 1 == 1, "\(compared.stderr)")
        #expect(!compared.stderr.contains("warning: segment all names placement"), "\(compared.stderr)")
        // A policy with no placements says so, rather than "the placements are " and nothing.
        try FileManager.default.createDirectory(atPath: directory + "/empty", withIntermediateDirectories: true)
        try "version: 1\nplacements: {}\n".write(toFile: directory + "/empty/p.yaml", atomically: true, encoding: .utf8)
        let none = runCLI(["impact", model, "--rules", directory + "/empty"])
        #expect(none.exitCode == 1)
        #expect(none.stderr.contains("does not define: the policy has no placements (check --rules) (policy/unknown-placement)"), "\(none.stderr)")
        try "version: 1\nsegments:\n  - name: all\n    share: 1\n".write(toFile: model, atomically: true, encoding: .utf8)
        let unused = runCLI(["impact", model, "--rules", Self.new, "--users", "2", "--days", "1"])
        #expect(unused.exitCode == 0)
        #expect(unused.stderr.contains("typo.model.yaml:2:1: warning: no segment of \(model) uses placement level_end"))
        // Not "its figures are all zero": a group the placement is in reaches its caps through the others' shows.
        #expect(unused.stderr.contains("so it is never asked about or shown (its impressions, deny reasons and loads are all zero; a group it is in may still reach its caps)"), "\(unused.stderr)")
        #expect(unused.stderr.contains("\(Self.new)/policy.yaml:8:3: note: placement level_end is defined here"))
        // `# adrules:disable-next-line RULE` works in a model as in rule files (cli.md), for what the check against
        // the policy finds as well as for what reading the file finds.
        let text = "version: 1\n# adrules:disable-next-line model/unused-placement\nsegments:\n  # adrules:disable-next-line yaml/ambiguous-bool\n  - name: no\n    share: 1\n"
        try text.write(toFile: model, atomically: true, encoding: .utf8)
        let quiet = runCLI(["impact", model, "--rules", Self.new, "--users", "2", "--days", "1"])
        #expect(quiet.exitCode == 0)
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
        // Without the comments, both are reported.
        try text.replacingOccurrences(of: "adrules:disable-next-line", with: "note").write(toFile: model, atomically: true, encoding: .utf8)
        let loud = runCLI(["impact", model, "--rules", Self.new, "--users", "2", "--days", "1"])
        #expect(loud.stderr.contains("model/unused-placement") && loud.stderr.contains("yaml/ambiguous-bool"), "\(loud.stderr)")
    }

    /// A change that removes a placement the model plays can be previewed: under --compare, the policy under --rules
    /// lacking a placement the other policy plays is a warning, and its asks are denied `unknown_placement` (as the old
    /// policy of a change that adds one is). Alone, or when neither policy has it, it stays an error (a typo).
    @Test func aChangeThatRemovesAPlacementThePlayUsesCanBePreviewed() throws {
        let directory = try temporaryDirectory("adrules-removed", ["without/policy.yaml": Self.appOpenOnlyPolicy])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let without = directory + "/without"
        let removed = runCLI(["impact", Self.flat, "--rules", without, "--compare", Self.new, "--format", "json"])
        #expect(removed.exitCode == 0, "\(removed.stderr)")
        #expect(removed.stderr.contains(
            "flat.model.yaml:17:21: warning: segment players names placement \"level_end\", which the policy \(without) does not define (the --compare policy \(Self.new) does): its asks are denied unknown_placement (policy/unknown-placement)"),
            "\(removed.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(removed.stdout.utf8)) as? [String: Any]
        let results = try #require(report?["results"] as? [[String: Any]])
        let placements = results.map { ($0["placements"] as? [String: Any])?["level_end"] as? [String: Any] }
        let codes = placements.map { (($0?["deny_reasons"] as? [[String: Any]]) ?? []).compactMap { $0["code"] as? String } }
        // The old policy (listed first) shows level_end; the new one denies each of its asks unknown_placement.
        #expect(codes.count == 2 && !codes[0].contains("unknown_placement") && codes[1] == ["unknown_placement"], "\(codes)")
        // Alone, the same policy is told the placement is unknown, an error: nothing is played.
        let alone = runCLI(["impact", Self.flat, "--rules", without])
        #expect(alone.exitCode == 1)
        #expect(alone.stderr.contains("error: segment players names placement \"level_end\", which the policy \(without) does not define"), "\(alone.stderr)")
        // Neither policy has it: still an error, for the policy under --rules.
        let neither = runCLI(["impact", Self.flat, "--rules", without, "--compare", without])
        #expect(neither.exitCode == 1)
        #expect(neither.stderr.contains("error: segment players names placement \"level_end\""), "\(neither.stderr)")
    }

    @Test(arguments: [
        (["impact"], "missing expected argument \"MODEL\""),
        (["impact", flat, "--shard", "4/3"], "invalid value \"4/3\" for option \"--shard\""),
        (["impact", flat, "--shard", "+1/3"], "invalid value \"+1/3\" for option \"--shard\""),
        (["impact", flat, "--users", "0"], "invalid value \"0\" for option \"--users\""),
        (["impact", flat, "--shard", "1/2", "--format", "text"], "invalid value \"text\" for option \"--format\""),
        (["impact", flat, "--format", "pdf"], "invalid value \"pdf\" for option \"--format\""),
        (["impact", "merge"], "missing expected argument \"PART.json\""),
        (["impact", "merge", "x.json", "--rules", "rules"], "impact merge takes no --rules: each part holds the policies and options it was played with\n"),
    ])
    func usageErrorsExitTwo(arguments: [String], message: String) {
        let result = runCLI(arguments)
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("error: \(message)"), "\(result.stderr)")
    }

    @Test func missingFilesExitThree() {
        #expect(runCLI(["impact", "FIXTURES/impact/none.model.yaml", "--rules", Self.new]).exitCode == 3)
        #expect(runCLI(["impact", Self.flat, "--rules", "FIXTURES/impact/none"]).exitCode == 3)
        #expect(runCLI(["impact", "merge", "FIXTURES/impact/none.json"]).exitCode == 3)
    }

    /// A directory where a file belongs is a mistake in the command (exit 2), for the parts of a merge as for the model.
    @Test func aDirectoryWhereAFileBelongsIsAUsageError() {
        let model = runCLI(["impact", "FIXTURES/impact", "--rules", Self.new])
        #expect(model.exitCode == ExitCode.usage)
        let merge = runCLI(["impact", "merge", "FIXTURES/impact"])
        #expect(merge.exitCode == ExitCode.usage)
        // Whatever comes before it: no part is read first.
        #expect(runCLI(["impact", "merge", "FIXTURES/impact/none.json", "FIXTURES/impact"]).exitCode == ExitCode.usage)
        #expect(merge.stderr.contains("is a directory: impact merge takes the parts' json files"), "\(merge.stderr)")
    }

    @Test func theBinaryWritesJSONAndNoProgressBarWhenStderrIsNotATerminal() throws {
        let result = try runBinary(["impact", "rules/usage.model.yaml", "--users", "30", "--days", "1", "--format", "json"])
        #expect(result.code == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("{\n  \"version\": 1,\n  \"model\": \"rules/usage.model.yaml\","))
    }

    @Test func helpDescribesTheCommand() {
        let help = runCLI(["help", "impact"])
        #expect(help.stdout.contains("adrules impact merge PART.json..."))
        #expect(runCLI(["--help"]).stdout.contains("impact MODEL [--rules POLICY] [--compare OLD_POLICY]"))
    }
}
