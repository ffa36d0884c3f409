import AdRulesImpact
import AdRulesTestSupport
import Foundation
import Testing

@testable import AdRulesCLI

/// `--shard K/N` and `adrules impact merge`: parts merge into exactly the unsharded output, and tampered parts are refused
/// at the line and column of what is wrong.
extension ImpactCommandTests {
    @Test func shardsMergeIntoExactlyTheUnshardedOutput() throws {
        let arguments = ["impact", "rules/usage.model.yaml", "--rules", "rules", "--users", "120", "--days", "2"].map(Self.inPackage)
        let whole = runCLI(arguments + ["--format", "json"])
        #expect(whole.exitCode == 0, "\(whole.stderr)")
        let directory = scratchPath("adrules-shards")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var parts: [String] = []
        for k in 1...3 {
            let path = "\(directory)/part-\(k).json"
            let part = runCLI(arguments + ["--shard", "\(k)/3", "--output", path, "--threads", "\(k)"])
            #expect(part.exitCode == 0, "\(part.stderr)")
            parts.append(path)
        }
        let merged = runCLI(["impact", "merge"] + parts.reversed())
        #expect(merged.exitCode == 0, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout)
        let text = runCLI(arguments)
        #expect(runCLI(["impact", "merge", "--format", "text"] + parts).stdout == text.stdout)
        let missing = runCLI(["impact", "merge", parts[0], parts[2]])
        #expect(missing.exitCode == 1)
        #expect(missing.stderr == "error: cannot merge: shard 2 is missing: give every shard's part (each shard K of N is played with --shard K/N)\n")
        let unsharded = "\(directory)/whole.json"
        try whole.stdout.write(toFile: unsharded, atomically: true, encoding: .utf8)
        let complete = runCLI(["impact", "merge", unsharded])
        #expect(complete.exitCode == 1)
        #expect(complete.stderr.hasPrefix("error: \(unsharded):1:1: not the result of one shard: it has no \"shard\", where a run with --shard K/N writes"), "\(complete.stderr)")
        #expect(complete.stderr.contains("(a run without --shard writes a complete result, which is not merged)"))
    }

    /// A model or policy path may hold any character a file name may: the parts a run writes for it merge into what one
    /// run gives (they were refused as "not an impact report"), and text output escapes them.
    @Test func partsOfPathsWithControlCharactersMerge() throws {
        let directory = scratchPath("adrules-odd")
        let policy = directory + "/P\u{202E}Q"
        try FileManager.default.createDirectory(atPath: policy, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for file in ["app_open.yaml", "interstitial.yaml", "rewarded.yaml", "custom.yaml", "groups.yaml", "policy.yaml"] {
            try FileManager.default.copyItem(atPath: Self.inPackage("rules/\(file)"), toPath: policy + "/" + file)
        }
        let model = directory + "/m\tx.model.yaml"
        try FileManager.default.copyItem(atPath: Self.inPackage("rules/usage.model.yaml"), toPath: model)
        let arguments = ["impact", model, "--rules", policy, "--users", "12", "--days", "2"]
        let whole = runCLI(arguments + ["--format", "json"])
        #expect(whole.exitCode == 0, "\(whole.stderr)")
        var parts: [String] = []
        for k in 1...2 {
            parts.append("\(directory)/part-\(k).json")
            #expect(runCLI(arguments + ["--shard", "\(k)/2", "--output", parts[k - 1]]).exitCode == 0)
        }
        let merged = runCLI(["impact", "merge"] + parts)
        #expect(merged.exitCode == 0, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout)
        let text = runCLI(["impact", "merge", "--format", "text"] + parts)
        #expect(text.stdout == runCLI(arguments).stdout)
        #expect(!text.stdout.contains("\u{202E}") && !text.stdout.contains("\t"), "escaped in text")
    }

    /// The report's text bound counts a rule file's name as the json writer writes it, character for character.
    @Test(arguments: [
        "rules/app_open.yaml", "a\"b\\c.yaml", "x\u{1}\u{1B}\u{7F}\u{85}.yaml", "P\u{202E}Q/\u{2028}\u{FEFF}.yaml", "m\tx\n\r.yaml",
        "\u{E9}\u{1F600}e\u{301}.yaml", "",
    ])
    func theTextBoundCountsAFileNameAsJSONWritesIt(_ name: String) {
        let written = JSON.string(name).rendered().utf8.count - 2
        #expect(ImpactLocation(file: name, line: 1, column: 1).fileBytesInJSON == written, "\(name.debugDescription): \(written)")
    }

    /// The shards of a --compare run merge into its output too, difference included (recomputed from the merged results).
    @Test func compareShardsMergeIntoExactlyTheUnshardedOutput() throws {
        let arguments = ["impact", Self.flat, "--rules", Self.new, "--compare", Self.old, "--users", "9", "--days", "3"]
        let whole = runCLI(arguments + ["--format", "json"])
        #expect(whole.exitCode == 0, "\(whole.stderr)")
        #expect(whole.stdout.contains("\"difference\""))
        let directory = try temporaryDirectory("adrules-compare-shards", [:])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let parts = (1...2).map { "\(directory)/part-\($0).json" }
        for (k, path) in parts.enumerated() {
            let part = runCLI(arguments + ["--shard", "\(k + 1)/2", "--output", path])
            #expect(part.exitCode == 0, "\(part.stderr)")
            // A part leaves the difference to the merge: it holds no rows its size guards do not count.
            #expect(!(try String(contentsOfFile: path, encoding: .utf8)).contains("\"difference\""))
        }
        let merged = runCLI(["impact", "merge"] + parts)
        #expect(merged.exitCode == 0, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout)
    }

    /// Policy changes are those of a --compare run, at most as many as a run lists: a part of one policy that lists
    /// changes or counts more of them, or a part that lists more than ``PolicyDiff/maxListed``, is refused (the merge
    /// wrote them into the report).
    @Test func changesNoRunListsAreRefused() throws {
        let change = #"{"kind": "changed", "subject": "placement p", "setting": "daily_cap", "old": "3", "new": "4", "old_location": null, "new_location": null}"#
        let (directory, path, other) = try Self.twoParts("adrules-changes-one")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for (replacement, message) in [
            ("\"changes\": [\(change)],", "it lists policy changes, which a run writes only with --compare (two results)"),
            ("\"changes\": [], \"more_changes\": 3,", "it lists policy changes, which a run writes only with --compare (two results)"),
        ] {
            let tampered = text.replacingOccurrences(of: "\"changes\": [],", with: replacement)
            #expect(tampered != text)
            try tampered.write(toFile: path, atomically: true, encoding: .utf8)
            let merged = runCLI(["impact", "merge", path, other])
            #expect(merged.exitCode == 1 && merged.stderr.contains(message), "\(merged.stderr)")
        }
        // A --compare part of 10,001 changes.
        let arguments = ["impact", Self.flat, "--rules", Self.new, "--compare", Self.old, "--users", "4", "--days", "1"]
        let (compared, parts) = try Self.shardParts("adrules-changes-many", arguments, count: 2)
        defer { try? FileManager.default.removeItem(atPath: compared) }
        #expect(runCLI(["impact", "merge"] + parts).exitCode == 0, "the parts merge before they are edited")
        let part = try String(contentsOfFile: parts[0], encoding: .utf8)
        let many = part.replacingOccurrences(of: "\"changes\": [", with: "\"changes\": [" + String(repeating: change + ", ", count: PolicyDiff.maxListed + 1))
        #expect(many != part)
        try many.write(toFile: parts[0], atomically: true, encoding: .utf8)
        let merged = runCLI(["impact", "merge"] + parts)
        #expect(merged.exitCode == 1)
        #expect(merged.stderr.contains("it lists more policy changes than the 10000 (or 4000000 bytes of their texts) a run lists"), "\(merged.stderr)")
    }

    /// A compiled policy or a usage model given to merge by mistake is named as what it is, not only as an unknown key or
    /// JSON that does not parse.
    @Test func aCompiledPolicyOrAModelIsNamedAsOne() throws {
        let directory = scratchPath("adrules-merge-kinds")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let compiled = directory + "/policy.json"
        #expect(runCLI(["compile", Self.inPackage("rules"), "--output", compiled, "--quiet"]).exitCode == 0)
        let policy = runCLI(["impact", "merge", compiled, compiled])
        #expect(policy.exitCode == 1)
        #expect(policy.stderr.contains("\(compiled):1:"), "\(policy.stderr)")
        #expect(policy.stderr.contains(": a compiled policy (what adrules compile writes), not an impact report; a part is the json"), "\(policy.stderr)")
        let model = Self.inPackage("rules/usage.model.yaml")
        let yaml = runCLI(["impact", "merge", model, compiled])
        #expect(yaml.exitCode == 1)
        #expect(yaml.stderr.hasPrefix("error: \(model):1:1: invalid JSON (a YAML file, as its name says: a usage model, a scenario file or a rule file is no part): "), "\(yaml.stderr)")
    }

    /// Shards played after a rule file changed are refused, naming the parts' files, though the paths are the same.
    @Test func partsPlayedWithDifferentFileContentsAreRefused() throws {
        let directory = scratchPath("adrules-drift")
        try FileManager.default.createDirectory(atPath: directory + "/rules", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let rules = directory + "/rules/p.yaml"
        try "version: 1\nplacements:\n  level_end: {format: interstitial, min_interval: 1m, daily_cap: 6}\n".write(toFile: rules, atomically: true, encoding: .utf8)
        try "version: 1\nusers: 10\ndays: 1\nsegments:\n  - {name: all, share: 1, actions: [{placement: level_end, every: 1m}]}\n"
            .write(toFile: directory + "/m.model.yaml", atomically: true, encoding: .utf8)
        let arguments = ["impact", directory + "/m.model.yaml", "--rules", directory + "/rules", "--quiet"]
        #expect(runCLI(arguments + ["--shard", "1/2", "--output", directory + "/a.json"]).exitCode == 0)
        try "version: 1\nplacements:\n  level_end: {format: interstitial, min_interval: 1m, daily_cap: 2}\n".write(toFile: rules, atomically: true, encoding: .utf8)
        #expect(runCLI(arguments + ["--shard", "2/2", "--output", directory + "/b.json"]).exitCode == 0)
        let merged = runCLI(["impact", "merge", directory + "/a.json", directory + "/b.json"])
        #expect(merged.exitCode == 1)
        #expect(merged.stderr == "error: cannot merge: \(directory)/b.json was played with a different model file or policy contents (inputs digest) than \(directory)/a.json: merge the parts of one run only, each played with the same command but its --shard\n")
    }

    /// A part may come from anywhere: counts that do not fit its population, counts that would overflow the sum,
    /// texts with control characters and a shard count of millions are refused at once, naming the file.
    @Test(arguments: [
        ("\"histogram\": [", "\"histogram\": [9223372036854775807, ", "a histogram entry of app_open in segment casual is 9223372036854775807"),
        ("\"wasted_loads\": ", "\"wasted_loads\": -5", "wasted_loads of app_open in segment casual is -5"),
        // A part never holds the difference of a --compare run's results, which only an unsharded run writes.
        ("\"results\": [", "\"difference\": {}, \"results\": [", "unknown key \"difference\""),
        ("\"model\": \"", "\"model\": \"x\\u0000fake.yaml", "model holds a NUL, which no path holds"),
        ("\"message\": \"daily_cap 6", "\"message\": \"x\\nfake.yaml:1:1: error: forged\\u001b[31m", "holds a control character"),
        ("\"format\": \"interstitial\"", "\"format\": \"banana\"", "the format of level_end in segment casual is \"banana\", which no run writes"),
        ("\"count\": 2\n", "\"count\": 100000000\n", "played 6 users, where shard 1 of the run holds 1: it is not that shard's result"),
        ("\"granted\": ", "\"granted\": 9999", "the loads or rewarded counts of app_open in segment casual contradict each other"),
        ("\"new\": {", "\"casual\": {", "the key \"casual\" appears twice in one object"),
        ("\"show_failures\": ", "\"show_failures\": 99999", "the loads or rewarded counts of app_open in segment casual contradict each other"),
        // A key given twice is refused: which value counts would be a guess.
        ("\"code\": \"daily_cap\",", "\"code\": \"daily_cap\", \"file\": null,", "the key \"file\" appears twice in one object"),
        ("\"level_end\": {", "\"app_open\": {", "the key \"app_open\" appears twice in one object"),
        // A key given twice that holds control characters is quoted escaped: it printed an ESC and a line break raw, and
        // so a forged line (`fake.yaml:1:1: error: forged`) on a CI log.
        ("\"version\": 1,", "\"version\": 1, \"\\u001b[31m\\nfake.yaml:1:1: error: forged\": 1, \"\\u001b[31m\\nfake.yaml:1:1: error: forged\": 2,",
         "the key \"\\u{1B}[31m\\nfake.yaml:1:1: error: forged\" appears twice in one object"),
        ("\"app_open\": {", "\"app<img src=x>\": {", "is not a placement id"),
        ("\"start\": \"", "\"start\": \"<script>", "start is <script>"),
        ("\"version\": 1,", "\"version\": 1, \"junk\": [1, 2, 3],", "unknown key \"junk\""),
        ("\"wasted_loads\": ", "\"zz\": [0], \"wasted_loads\": ", "unknown key \"zz\" in the figures of app_open in segment casual"),
        // Nowhere else either: a result, a deny reason, the loads.
        ("\"policy\": ", "\"junk\": 1, \"policy\": ", "unknown key \"junk\" in a result"),
        ("\"code\": \"daily_cap\",", "\"code\": \"daily_cap\", \"zz\": 1,", "unknown key \"zz\" in a deny reason of app_open in segment casual"),
        ("\"started\": ", "\"zz\": 1, \"started\": ", "unknown key \"zz\" in the loads of app_open in segment casual"),
        // A part says each row's longest message: at least the kept one's bytes, and never left out (the merge bounds it).
        ("\"longest_message\": 25", "\"longest_message\": 24", "the longest message of a deny reason of app_open in segment casual is 24"),
        ("\"longest_message\": 25", "\"longest_message\": 12000001", "the longest message of a deny reason of app_open in segment casual is 12000001"),
        (",\n                  \"longest_message\": 25", "", "the longest message of a deny reason of app_open in segment casual is missing"),
        // A report is 9 deep: deeper is refused as it is read (56 deep, 8 million values took 1.3 GB first).
        ("\"version\": 1,", "\"version\": 1, \"junk\": " + String(repeating: "[", count: 20) + String(repeating: "]", count: 20) + ",",
         "JSON nests deeper than 16 levels"),
        // Every key a run writes is there: a deny reason with no message made the merged message empty.
        (",\n                  \"message\": \"daily_cap 6 reached today\"", "", "the message of a deny reason of app_open in segment casual is missing"),
        // A segment name the text report would start a line with, read by a CI log as a command.
        ("\"casual\": {", "\"  ::error file=a.yaml::forged\": {", "a segment name is a name starting with \"::\", which CI logs read as a command"),
        // A syntax error is placed at its line and column.
        ("\"version\": 1,\n", "\"version\": 1,\n,", ":3:1: invalid JSON: "),
        ("\"version\": 1,\n", "\"version\": 1,\n,", "; a part is the json that adrules impact --shard K/N writes, unchanged\n"),
    ])
    func tamperedPartsAreRefused(_ original: String, _ replacement: String, _ message: String) throws {
        let arguments = ["impact", "rules/usage.model.yaml", "--rules", "rules", "--users", "12", "--days", "2"].map(Self.inPackage)
        let directory = scratchPath("adrules-tampered")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var parts: [String] = []
        for k in 1...2 {
            let path = "\(directory)/part-\(k).json"
            #expect(runCLI(arguments + ["--shard", "\(k)/2", "--output", path]).exitCode == 0)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains(original), "\(original)")
            try text.replacingOccurrences(of: original, with: replacement).write(toFile: path, atomically: true, encoding: .utf8)
            parts.append(path)
        }
        let merged = runCLI(["impact", "merge", "--format", "text"] + parts)
        #expect(merged.exitCode == 1)
        #expect(merged.stderr.contains(message), "\(merged.stderr)")
        #expect(merged.stdout.isEmpty)
        #expect(!merged.stderr.contains("\u{1B}") && merged.stderr.split(separator: "\n").count == 1, "one line, no escape code")
    }

    /// A part may count up to ``ImpactReport/maxCountPerUserDay`` deny reasons per user-day of the whole run, what a run
    /// writes within: 10,000 rules that all deny an action every 75 s counted 11.5 million a user-day, and the merge
    /// refused the parts of that run as forged (it read at most 10,000,000 per user-day of the part's segment, so a shard
    /// holding one heavy user was refused where the whole run passed). Parts within it that pass it together are refused.
    @Test func aPartCountsAsManyDenialsAsARunMayWrite() throws {
        let (directory, parts) = try Self.shardParts("adrules-many-denials", ["impact", Self.flat, "--rules", Self.new, "--users", "4"].map(Self.inPackage), count: 2)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        /// The part with its first segment's first deny count set to `perUserDay` times the run's user-days.
        func tampered(_ path: String, perUserDay: Int) throws -> String {
            var text = try String(contentsOfFile: path, encoding: .utf8)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let population = try #require(object["users"] as? Int) * (try #require(object["days"] as? Int))
            let segments = try #require(text.range(of: "\"segments\": {"))
            let count = try #require(text.range(of: #""count": \d+"#, options: .regularExpression, range: segments.upperBound..<text.endIndex))
            text.replaceSubrange(count, with: "\"count\": \(perUserDay * population)")
            let copy = path + ".\(perUserDay).json"
            try text.write(toFile: copy, atomically: true, encoding: .utf8)
            return copy
        }
        let many = runCLI(["impact", "merge", try tampered(parts[0], perUserDay: 11_000_000), parts[1]])
        #expect(many.exitCode == 0, "\(many.stderr)")
        let tooMany = runCLI(["impact", "merge", try tampered(parts[0], perUserDay: ImpactReport.maxCountPerUserDay + 1), parts[1]])
        #expect(tooMany.exitCode == 1)
        #expect(tooMany.stderr.contains("not an impact report: a deny reason's count in"), "\(tooMany.stderr)")
        let half = ImpactReport.maxCountPerUserDay / 2 + 1
        let together = runCLI(["impact", "merge", try tampered(parts[0], perUserDay: half), try tampered(parts[1], perUserDay: half)])
        #expect(together.exitCode == 1)
        #expect(together.stderr.contains("come to more than \(ImpactReport.maxCountPerUserDay) per user-day of the run"), "\(together.stderr)")
    }

    /// A change of a `--compare` part holds every key a run writes, each of the kind it writes: a change with no `old`,
    /// or with `"old": 7`, was read as one with no old value, and the merge wrote that.
    @Test func aChangeMissingAKeyIsRefused() throws {
        let (directory, parts) = try Self.shardParts("adrules-change-keys", ["impact", Self.flat, "--rules", Self.new, "--compare", Self.old, "--users", "4"], count: 2)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(runCLI(["impact", "merge"] + parts).exitCode == 0)
        for (replacement, message) in [("", "a change's old is missing"), ("\"old\": 7,", "a change's old value is 7, where a run writes a text")] {
            var tampered: [String] = []
            for (k, path) in parts.enumerated() {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                let changed = text.replacingOccurrences(of: "\"old\": \"3\",", with: replacement)
                #expect(changed != text)
                let copy = "\(directory)/tampered-\(k).json"
                try changed.write(toFile: copy, atomically: true, encoding: .utf8)
                tampered.append(copy)
            }
            let merged = runCLI(["impact", "merge"] + tampered)
            #expect(merged.exitCode == 1)
            #expect(merged.stderr.contains(message), "\(merged.stderr)")
        }
    }

    /// A change names what a run names: `policy` or an item's kind and a valid id, and one of its settings. A text
    /// report starts a line with the subject: `::warning file=…::` there was an annotation in a GitHub Actions log.
    @Test func aChangeOfASubjectNoRunWritesIsRefused() throws {
        let (directory, parts) = try Self.shardParts("adrules-change-subject", ["impact", Self.flat, "--rules", Self.new, "--compare", Self.old, "--users", "4"], count: 2)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(runCLI(["impact", "merge", "--format", "text"] + parts).exitCode == 0)
        for (original, replacement) in [
            ("\"subject\": \"", "\"subject\": \"::warning file=f.yaml,line=1::forged "), ("\"subject\": \"placement ", "\"subject\": \"placement ::"),
            ("\"subject\": \"placement ", "\"subject\": \"policy "), ("\"setting\": \"daily_cap\"", "\"setting\": \"daily_capx\""),
            ("\"subject\": \"placement ", "\"subject\": \"rule "),
        ] {
            var tampered: [String] = []
            for (k, path) in parts.enumerated() {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                let changed = text.replacingOccurrences(of: original, with: replacement)
                #expect(changed != text, "\(original)")
                let copy = "\(directory)/tampered-\(k).json"
                try changed.write(toFile: copy, atomically: true, encoding: .utf8)
                tampered.append(copy)
            }
            let merged = runCLI(["impact", "merge", "--format", "text"] + tampered)
            #expect(merged.exitCode == 1, "\(replacement)")
            #expect(merged.stderr.contains("not an impact report: a change names"), "\(merged.stderr)")
            #expect(!merged.stdout.contains("::warning"))
        }
    }

    /// The two parts of a `--shard 1/2` and `2/2` run of the shipped model (12 users, 2 days), in a fresh directory
    /// named from `prefix`, which the caller removes.
    static func twoParts(_ prefix: String) throws -> (directory: String, path: String, other: String) {
        let arguments = ["impact", "rules/usage.model.yaml", "--rules", "rules", "--users", "12", "--days", "2"].map(inPackage)
        let (directory, parts) = try shardParts(prefix, arguments, count: 2)
        return (directory, parts[0], parts[1])
    }

    /// The parts of `arguments` run as `--shard 1/N` to `N/N` (`part-K.json`), in a fresh directory named from
    /// `prefix`, which the caller removes.
    static func shardParts(_ prefix: String, _ arguments: [String], count: Int) throws -> (directory: String, parts: [String]) {
        let directory = scratchPath(prefix)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let parts = (1...count).map { k in "\(directory)/part-\(k).json" }
        for (k, path) in parts.enumerated() {
            #expect(runCLI(arguments + ["--shard", "\(k + 1)/\(count)", "--output", path]).exitCode == 0)
        }
        return (directory, parts)
    }

    /// A value of the wrong kind says what it is and what a run writes, a count in a segment names the segment, and a
    /// shard's index names its range ("is missing or malformed" said none of it).
    @Test(arguments: [
        (#""segments": \{\s*"casual": \{\s*"users": \d+"#, #""segments": {"casual": {"users": 1.5"#, "the users of segment casual is 1.5, where a run writes a whole number (digits only)"),
        (#""users": \d+"#, #""users": "12""#, "users is the text \"12\", where a run writes a whole number (digits only)"),
        (#""index": \d+"#, #""index": 7"#, "the shard's index is 7, outside 1...2"),
        (#""policy": "[^"]*""#, #""policy": 5"#, "policy is 5, where a run writes a text"),
        (#""count": \d+\n"#, "\"count\": 1e2\n", "the number of shards is 100.0, where a run writes a whole number (digits only)"),
        // An object written as another kind says so ("the number of shards is missing" said the shard had no count).
        (#""shard": \{[^}]*\}"#, #""shard": 3"#, "shard is 3, where a run writes an object"),
        (#""users": \d+"#, #""users": 1000000000000000000000000000000"#, "users is a whole number too large to hold, where a run writes a whole number (digits only)"),
        (#""users": \d+"#, #""users": 1e999999"#, "users is a number too large to hold, where a run writes a whole number (digits only)"),
        // What merge computes again is checked all the same: a part holds what a run writes.
        (#"("segments": \{[\s\S]*?"impressions": )\d+"#, "$1999999", "the impressions of app_open in segment casual are not those its histogram counts"),
        (#""placements": \{\s*"app_open": \{"#, #""placements": {"app_open": {"bogus": 1, "#, "unknown key \"bogus\" in the totals of app_open"),
        // The digest merge compares: parts without it all compared equal, and parts of two policies merged with exit 0.
        (#""inputs": "[^"]*",\s*"#, "", "inputs is missing, where a run writes the sha256: digest of its model and policies, which merge compares: play that shard again"),
        (#""inputs": "[^"]*""#, #""inputs": """#, "inputs is \"\", where a run writes sha256: and 64 lowercase hexadecimal digits"),
        (#""inputs": "sha256:[0-9a-f]"#, #""inputs": "sha256:X"#, "where a run writes sha256: and 64 lowercase hexadecimal digits"),
        // A part whose shard was taken out was told to remove its deny reasons' longest_message, which a part writes.
        (#""shard": \{[^}]*\},\s*"#, "", "not the result of one shard: it has no \"shard\", where a run with --shard K/N writes \"shard\": {\"index\": K, \"count\": N}"),
        (#""shard": \{[^}]*\}"#, #""shard": null"#, "not the result of one shard: it has \"shard\": null, where a run with --shard K/N writes"),
        (#""seed": \d+"#, #""seed": 9223372036854775807"#, "seed is 9223372036854775807, outside 0...4611686018427387903"),
    ])
    func valuesOfTheWrongKindSayWhatTheyAre(_ pattern: String, _ template: String, _ message: String) throws {
        let (directory, path, other) = try Self.twoParts("adrules-kinds")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let expression = try NSRegularExpression(pattern: pattern)
        let match = try #require(expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)))
        let tampered = (text as NSString).replacingCharacters(
            in: match.range, with: expression.replacementString(for: match, in: text, offset: 0, template: template))
        try tampered.write(toFile: path, atomically: true, encoding: .utf8)
        let merged = runCLI(["impact", "merge", path, other])
        #expect(merged.exitCode == 1)
        #expect(merged.stderr.contains(message), "\(merged.stderr)")
    }

    /// A part's problem is placed at its line and column, as a syntax error is: at the value that is wrong, at a key no
    /// run writes, or at the object that lacks a key (1️⃣ marks the place). It was named by its path in words alone.
    @Test(arguments: [
        (#""started": "#, #"1️⃣"zz": 1, "started": "#, "unknown key \"zz\" in the loads of app_open in segment casual"),
        (#""code": ""#, #""code": 1️⃣"nope_"#, "unknown reason code in app_open in segment casual"),
        (#""line": \d+"#, #""line": 1️⃣0"#, "the location of the ad_expired reason of app_open in segment casual has no valid line"),
        (#""app_open": \{"#, #"1️⃣"app open": {"#, "app open is not a placement id"),
        (#""histogram": \[\s*\d+"#, #""histogram": [1️⃣99999"#, "a histogram entry of app_open in segment casual is 99999, outside"),
        (#""wasted_loads": \d+,"#, "", "wasted_loads of app_open in segment casual is missing"),
        // A number where an object was written: the number is the place.
        (#""rewarded": \{[^}]*\}"#, #""rewarded": 1️⃣5"#, "the rewarded figures of app_open in segment casual is 5, where a run writes an object"),
        (#""histogram": \[[^\]]*\]"#, #""histogram": 1️⃣{}"#, "the figures of app_open in segment casual are incomplete"),
    ])
    func partProblemsArePlaced(_ pattern: String, _ template: String, _ message: String) throws {
        let (directory, path, other) = try Self.twoParts("adrules-placed")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        // In the first segment's figures, which merge reads (it sums the segments, not the totals).
        let segments = try #require(text.range(of: "\"segments\": {"))
        let expression = try NSRegularExpression(pattern: pattern)
        let match = try #require(expression.firstMatch(in: text, range: NSRange(segments.upperBound..., in: text)))
        var marked = (text as NSString).replacingCharacters(in: match.range, with: template)
        if !template.contains("1️⃣") {
            // A key taken out: the problem is the object that lacks it, the placement's figures that hold the match.
            let figures = try #require(marked.range(of: "\"app_open\": {", range: marked.index(marked.startIndex, offsetBy: segments.upperBound.utf16Offset(in: text))..<marked.endIndex))
            marked.insert(contentsOf: "1️⃣", at: marked.index(before: figures.upperBound))
        }
        let part = MarkedText(marked)
        let at = try #require(part.markers["1️⃣"])
        try part.text.write(toFile: path, atomically: true, encoding: .utf8)
        let merged = runCLI(["impact", "merge", path, other])
        #expect(merged.exitCode == 1)
        #expect(merged.stderr.hasPrefix("error: \(path):\(at.line):\(at.column): not an impact report: "), "\(merged.stderr)")
        #expect(merged.stderr.contains(message), "\(merged.stderr)")
        #expect(merged.stderr.hasSuffix("; a part is the json that adrules impact --shard K/N writes, unchanged\n"))
    }

    /// What no run writes, even where every count adds up: a histogram that ends with zeros (the merged output would
    /// differ from the unsharded run's), and a segment whose placement lacks a cap the other segments have.
    @Test(arguments: [
        (#"(\s*)\](,\s*"cap_reached_share")"#, ",0$1]$2", "ends with zeros, which no run writes"),
        (#""cap_reached_user_days": \{\s*"daily_cap": \d+,"#, #""cap_reached_user_days": {"#, "list different placements, formats or caps, where a run lists the same in every segment"),
        // An app-open ad is never offered (trigger_not_supported), and a placement the policy lacks is denied every ask:
        // the figures of another placement copied under its name merged with exit 0.
        (#"("app_open": \{[\s\S]*?"offers": )\d+"#, "$15", "app_open placement app_open in segment casual has rewarded offers counted, where a run denies every offer of an app-open ad"),
        (#"("level_end": \{[\s\S]*?"rewarded": )\{[^}]*\}"#, #"$1{"offers": 3, "accepted": 2, "granted": 1}"#, "interstitial placement level_end in segment casual has rewards granted, where a run denies every reward of an ad that is not rewarded (not_rewarded_format)"),
        (#"("app_open": \{\s*"format": )"app_open""#, #"$1"unknown""#, "app_open in segment casual is denied ad_expired, where a run denies a placement the policy lacks only unknown_placement"),
        (#"("app_open": \{\s*"format": )"app_open"([\s\S]*?"deny_reasons": )\[[^\]]*\]"#, #"$1"unknown"$2[]"#, "app_open in segment casual, which the policy lacks, has impressions counted, where a run denies its every ask"),
        (#""code": "[a-z_]+",\s*"file": "[^"]*",\s*"line": \d+,\s*"column": \d+"#, #""code": "unknown_placement", "file": null, "line": null, "column": null"#, "app_open in segment casual is denied unknown_placement, where a run denies a placement of the policy never unknown_placement"),
    ])
    func partsNoRunWritesAreRefused(_ pattern: String, _ template: String, _ message: String) throws {
        let (directory, path, other) = try Self.twoParts("adrules-no-run")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(runCLI(["impact", "merge", path, other]).exitCode == 0, "the parts merge before they are edited")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let expression = try NSRegularExpression(pattern: pattern)
        // In a segment's figures: the per-placement totals of a part are not read (a merge sums the segments).
        let segments = try #require(text.range(of: "\"segments\": {"))
        let range = try #require(expression.firstMatch(in: text, range: NSRange(segments.upperBound..., in: text))?.range)
        // Only the first match: one histogram, or one segment's placement.
        let tampered = (text as NSString).replacingCharacters(in: range, with: expression.replacementString(for: try #require(expression.firstMatch(in: text, range: range)), in: text, offset: 0, template: template))
        #expect(tampered != text)
        try tampered.write(toFile: path, atomically: true, encoding: .utf8)
        let merged = runCLI(["impact", "merge", path, other])
        #expect(merged.exitCode == 1)
        #expect(merged.stderr.contains(message), "\(merged.stderr)")
    }

    /// A part whose first segment lists no placements is refused like any other mismatch: it was taken for the first
    /// of the list, and the merge dropped that segment's figures with exit 0.
    @Test func aFirstSegmentWithNoPlacementsIsRefused() throws {
        let arguments = ["impact", "rules/usage.model.yaml", "--rules", "rules", "--users", "12", "--days", "2"].map(Self.inPackage)
        let directory = scratchPath("adrules-empty-segment")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/part-1.json", other = directory + "/part-2.json"
        #expect(runCLI(arguments + ["--shard", "1/2", "--output", path]).exitCode == 0)
        #expect(runCLI(arguments + ["--shard", "2/2", "--output", other]).exitCode == 0)
        // The first segment's placements object, found by counting braces, emptied.
        var bytes = Array(try String(contentsOfFile: path, encoding: .utf8).utf8)
        let text = String(decoding: bytes, as: UTF8.self)
        let segments = try #require(text.range(of: "\"segments\": {"))
        let open = try #require(text.range(of: "\"placements\": {", range: segments.upperBound..<text.endIndex))
        var index = text.utf8.distance(from: text.startIndex, to: open.upperBound)
        let first = index
        var depth = 1
        while depth > 0 {
            if bytes[index] == UInt8(ascii: "{") { depth += 1 }
            if bytes[index] == UInt8(ascii: "}") { depth -= 1 }
            index += 1
        }
        bytes.replaceSubrange(first..<(index - 1), with: [])
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let merged = runCLI(["impact", "merge", path, other])
        #expect(merged.exitCode == 1)
        #expect(merged.stderr.contains("list different placements, formats or caps, where a run lists the same in every segment"), "\(merged.stderr)")
    }

    /// Two files of one name in two folders are two rows of deny reasons, in text as in json.
    @Test func reasonsFromTwoFilesOfOneNameAreTwoRows() throws {
        let directory = scratchPath("adrules-same-name")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for folder in ["p/x", "p/y"] { try FileManager.default.createDirectory(atPath: "\(directory)/\(folder)", withIntermediateDirectories: true) }
        try "version: 1\nplacements:\n  level_end: {format: interstitial}\n".write(toFile: "\(directory)/p/a.yaml", atomically: true, encoding: .utf8)
        for group in ["x", "y"] {
            try "version: 1\ngroups:\n  g\(group):\n    placements: [level_end]\n    daily_cap: 3\n"
                .write(toFile: "\(directory)/p/\(group)/g.yaml", atomically: true, encoding: .utf8)
        }
        try """
            version: 1
            users: 4
            days: 1
            segments:
              - {name: s, share: 1, first_open: 8h, foreground: 1h, actions: [{placement: level_end, every: 5m}]}
            network: {load_time: 1s, ad_duration: 10s}

            """.write(toFile: "\(directory)/m.model.yaml", atomically: true, encoding: .utf8)
        let text = runCLI(["impact", "\(directory)/m.model.yaml", "--rules", "\(directory)/p"])
        #expect(text.exitCode == 0, "\(text.stderr)")
        let rows = text.stdout.split(separator: "\n").filter { $0.contains("group_daily_cap ") && $0.contains("g.yaml") }
        #expect(rows.count == 2, "\(text.stdout)")
        #expect(rows.contains { $0.contains("p/x/g.yaml:5:16") } && rows.contains { $0.contains("p/y/g.yaml:5:16") })
        // Against its own compiled policy, each file is still one row, the same in both columns.
        #expect(runCLI(["compile", "\(directory)/p", "--output", "\(directory)/p.json"]).exitCode == 0)
        let compared = runCLI(["impact", "\(directory)/m.model.yaml", "--rules", "\(directory)/p", "--compare", "\(directory)/p.json"])
        #expect(compared.exitCode == 0, "\(compared.stderr)")
        let pairs = compared.stdout.split(separator: "\n").filter { $0.contains("group_daily_cap ") && $0.contains("g.yaml") }
        #expect(pairs.count == 2, "\(compared.stdout)")
        #expect(pairs.allSatisfy { $0.split(separator: " ").filter { !$0.isEmpty }.dropFirst().prefix(3) == ["32", "32", "0"] }, "\(pairs)")
    }

    /// A part that is not UTF-8, or starts with a byte-order mark, is refused with a word on the encoding.
    @Test func partsInAnotherEncodingAreRefused() throws {
        let part = runCLI(["impact", Self.flat, "--rules", Self.old, "--users", "4", "--days", "1", "--shard", "1/1", "--format", "json"])
        #expect(part.exitCode == 0, "\(part.stderr)")
        let path = scratchPath("adrules-encoding") + ".json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = Array(part.stdout.utf8)
        let model = try #require(part.stdout.range(of: "\"model\": \"")).upperBound.utf16Offset(in: part.stdout)
        for (forged, message) in [
            (Array(bytes[..<model]) + [0xFF] + Array(bytes[model...]), "not UTF-8 text, so not a part adrules wrote"),
            ([0xEF, 0xBB, 0xBF] + bytes, "starts with a byte-order mark"),
        ] {
            try Data(forged).write(to: URL(fileURLWithPath: path))
            let merged = runCLI(["impact", "merge", path])
            #expect(merged.exitCode == 1)
            #expect(merged.stderr.contains(message), "\(merged.stderr)")
        }
    }

    /// A run writes one result, or two with --compare: a part with more is not one.
    @Test func aPartWithThreeResultsIsRefused() throws {
        let part = runCLI(["impact", Self.flat, "--rules", Self.old, "--users", "4", "--days", "1", "--shard", "1/1", "--format", "json"])
        #expect(part.exitCode == 0, "\(part.stderr)")
        var report = try ImpactJSON.read(Array(part.stdout.utf8))
        report.results += [report.results[0], report.results[0]]
        let path = scratchPath("adrules-three") + ".json"
        try ImpactJSON.render(report).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let merged = runCLI(["impact", "merge", path])
        #expect(merged.exitCode == 1)
        #expect(merged.stderr.contains("it has 3 results, where a run writes one, or two with --compare"), "\(merged.stderr)")
    }

    /// A part that lists more deny reasons than any report holds is refused when it is read, and parts that do
    /// so together when they are merged: the time a merge takes stays bounded.
    @Test func partsWithTooManyDenyReasonsAreRefused() throws {
        let arguments = ["impact", "rules/usage.model.yaml", "--rules", "rules", "--users", "12", "--days", "2", "--format", "json"].map(Self.inPackage)
        let directory = scratchPath("adrules-rows")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        /// Shard `k` with `rows` rows of one reason at distinct lines (each a (code, location) pair of its own), from
        /// `firstLine` (by default lines no other part uses), each given `longest` bytes at the most.
        /// `own`: as many more rows like those, at lines of this part's own.
        func part(_ k: Int, rows: Int, message: String = "m", longest: Int? = nil, firstLine: Int? = nil, own: Int = 0) throws -> String {
            let result = runCLI(arguments + ["--shard", "\(k)/2"])
            #expect(result.exitCode == 0, "\(result.stderr)")
            func row(line: Int, longest: Int) -> String {
                "{\"code\": \"min_interval\", \"file\": \"f.yaml\", \"line\": \(line), \"column\": 1, \"count\": 1, "
                    + "\"message\": \"\(message)\", \"longest_message\": \(longest)},"
            }
            let forged = (0..<rows).map { i in row(line: (firstLine ?? k * 1_000_000) + i + 1, longest: longest ?? message.utf8.count) }.joined()
                + (0..<own).map { i in row(line: k * 1_000_000 + 500_000 + i, longest: longest ?? message.utf8.count) }.joined()
            let path = "\(directory)/part-\(k)-\(rows)-\(message.count)-\(longest ?? 0)-\(firstLine ?? 0)-\(own).json"
            // Into the first non-empty list of a segment's figures (merge reads the segments; the totals are their sum).
            var text = result.stdout
            let segments = try #require(text.range(of: "\"segments\": {"))
            let list = try #require(text.range(of: "\"deny_reasons\": [\n", range: segments.upperBound..<text.endIndex))
            text.insert(contentsOf: forged, at: list.upperBound)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let tooMany = runCLI(["impact", "merge", try part(1, rows: ImpactReport.maxDenyRows + 1), try part(2, rows: 0)])
        #expect(tooMany.exitCode == 1)
        #expect(tooMany.stderr.contains("lists more than \(ImpactReport.maxDenyRows) deny reasons"), "\(tooMany.stderr)")
        let half = ImpactReport.maxDenyRows / 2 + 1
        let together = runCLI(["impact", "merge", try part(1, rows: half), try part(2, rows: half)])
        #expect(together.exitCode == 1)
        #expect(together.stderr.contains("more than the \(ImpactReport.maxDenyRows) a report holds"), "\(together.stderr)")
        // And so are parts whose rows' messages together pass the text a report holds (two of 1,600 rows of 4 KB).
        let long = String(repeating: "m", count: 4_000)
        let wordy = runCLI(["impact", "merge", try part(1, rows: 1_600, message: long), try part(2, rows: 1_600, message: long)])
        #expect(wordy.exitCode == 1)
        #expect(wordy.stderr.contains("bytes, more than the \(ImpactReport.maxDenyText) a report holds: that is no run's result"), "\(wordy.stderr)")
        // A part alone too (a merge of one shard was not checked), at the row that passes the bound.
        let alonePath = try part(1, rows: 3_100, message: long)
        let alone = runCLI(["impact", "merge", alonePath])
        #expect(alone.exitCode == 1)
        #expect(alone.stderr.hasPrefix("error: \(alonePath):"), "\(alone.stderr)")
        #expect(alone.stderr.contains(": not an impact report: its deny reasons' messages and file names come to more than the \(ImpactReport.maxDenyText) bytes a report holds"), "\(alone.stderr)")
        // A row keeps the smallest of its messages, and the run bounds the longest: so does the merge, whatever the
        // order of the parts. (Bounding the kept text, a merge of these refused them in one order and passed them in
        // the other, writing a report whose run would have stopped.)
        let short = try part(1, rows: 3_000, message: "m", longest: long.utf8.count, firstLine: 0)
        let wordier = try part(2, rows: 3_000, message: long, firstLine: 0)
        for order in [[short, wordier], [wordier, short]] {
            let merged = runCLI(["impact", "merge"] + order)
            #expect(merged.exitCode == 1, "\(merged.stderr)")
            // Refused as it is read: the wordier part alone passes the bound.
            #expect(merged.stderr.contains("more than the \(ImpactReport.maxDenyText) bytes a report holds"), "\(merged.stderr)")
        }
        // Parts each within the bound whose sum passes it, counted by their longest messages (1,600 rows the two share,
        // whose kept message is "m", and 1,300 of each part's own): by the kept texts the sum was 5.2 MB, and passed.
        let shared = try part(1, rows: 1_600, message: "m", longest: long.utf8.count, firstLine: 0, own: 1_300)
        let sharedLong = try part(2, rows: 1_600, message: long, firstLine: 0, own: 1_300)
        for order in [[shared, sharedLong], [sharedLong, shared]] {
            let merged = runCLI(["impact", "merge"] + order)
            #expect(merged.exitCode == 1, "\(merged.stderr)")
            #expect(merged.stderr.contains("bytes, more than the \(ImpactReport.maxDenyText) a report holds: that is no run's result"), "\(merged.stderr)")
        }
    }

    /// A long policy name heads the columns of every placement cut to about 120 bytes, in whole characters: counted in
    /// characters, a letter with a hundred combining marks a folder let a 3.8 KB path through whole.
    @Test func longPolicyNamesAreCutByBytes() {
        let combining = (0..<15).map { _ in "a" + String(repeating: "\u{301}", count: 126) }.joined(separator: "/")
        #expect(combining.count < 120 && combining.utf8.count > 3_000)
        for name in [combining, String(repeating: "d", count: 3_000), "rules", String(repeating: "é", count: 61)] {
            let cut = ImpactFormat.columnName(name)
            #expect(cut.utf8.count <= 122, "\(cut.utf8.count)")
            #expect(name.utf8.count > 120 ? cut.contains("…") : cut == name)
            #expect(name.hasPrefix(cut.prefix { $0 != "…" }))
        }
    }

    /// A report lists the first 10,000 policy changes and counts the rest (a default changed under every placement is a
    /// change of each: two 321 KB policies made 139,986 changes, and the run crashed), in every format and through a
    /// merge of shards.
    @Test func aReportListsTheFirstChangesAndCountsTheRest() throws {
        func policy(_ cap: Int) -> String {
            "version: 1\ndefaults: {daily_cap: \(cap), hourly_cap: \(cap), session_cap: \(cap), min_interval: \(cap)m}\nplacements:\n"
                + (0..<2_600).map { "  p\($0): {format: interstitial}\n" }.joined()
        }
        let dir = try temporaryDirectory("adrules-changes", [
            "old.yaml": policy(3), "new.yaml": policy(4),
            "m.model.yaml": "version: 1\nusers: 4\ndays: 1\nsegments:\n  - {name: all, share: 1, foreground: 10m, actions: [{placement: p0, every: 1m}]}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let arguments = ["impact", dir + "/m.model.yaml", "--rules", dir + "/new.yaml", "--compare", dir + "/old.yaml"]
        // 2,600 placements x 4 settings.
        let json = runCLI(arguments + ["--format", "json"])
        #expect(json.exitCode == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["changes"] as? [Any])?.count == 10_000)
        #expect(object["more_changes"] as? Int == 400)
        let text = runCLI(arguments)
        #expect(text.stdout.contains("\n  400 more changes are not listed: the policies differ in more settings than a report lists\n"))
        let html = runCLI(arguments + ["--format", "html"])
        #expect(html.stdout.contains("<p>400 more changes are not listed: the policies differ in more settings than a report lists</p>"))
        var parts: [String] = []
        for k in 1...2 {
            let path = dir + "/part\(k).json"
            #expect(runCLI(arguments + ["--shard", "\(k)/2", "--output", path]).exitCode == 0)
            parts.append(path)
        }
        #expect(runCLI(["impact", "merge"] + parts + ["--format", "json"]).stdout == json.stdout)
    }

    /// Each deny-reason row repeats its reason's message and file, so a report holds at most 12 MB of them: 100 rules
    /// with 4,096-character messages denying in 1,000 segments made 442 MB of json (and crashed with emoji messages),
    /// and `impact merge` refused the parts such a run wrote. The run is refused, before anything is written.
    @Test func aReportWithTooMuchDenyTextIsRefused() throws {
        let message = String(repeating: "M", count: 4_000)
        let rules = (0..<10).map { "  - {id: r\($0), deny: \"*\", when: true, message: \"\(message)\"}\n" }.joined()
        let segments = (0..<320).map { "  - {name: s\($0), share: \(1.0 / 320), foreground: 10m, actions: [{placement: p0, every: 1m}]}\n" }.joined()
        let dir = try temporaryDirectory("adrules-deny-text", [
            "p.yaml": "version: 1\nplacements:\n  p0: {format: interstitial, min_interval: 1s}\nrules:\n" + rules,
            "m.model.yaml": "version: 1\nusers: 640\ndays: 1\nseed: 1\nsegments:\n" + segments,
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 320 segments x 10 rules x 4 KB: 12.8 MB of messages.
        let refused = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/p.yaml", "--format", "json"])
        #expect(refused.exitCode == 1 && refused.stdout.isEmpty)
        #expect(refused.stderr.contains("would hold more than 12000000 bytes of messages and file names (each row repeats its reason's;"), "\(refused.stderr)")
        // With 280 segments (11.2 MB) the report is written, and its json within what a merge reads.
        let fewer = (0..<280).map { "  - {name: s\($0), share: \(1.0 / 280), foreground: 10m, actions: [{placement: p0, every: 1m}]}\n" }.joined()
        try ("version: 1\nusers: 560\ndays: 1\nseed: 1\nsegments:\n" + fewer).write(toFile: dir + "/f.model.yaml", atomically: true, encoding: .utf8)
        let written = runCLI(["impact", dir + "/f.model.yaml", "--rules", dir + "/p.yaml", "--format", "json"])
        #expect(written.exitCode == 0, "\(written.stderr)")
        #expect((11_200_000..<(64 << 20)).contains(written.stdout.utf8.count), "\(written.stdout.utf8.count)")
    }

    /// A reason with no location (an ask for a placement the old policy lacks: `unknown_placement`) is written
    /// with a null location, and parts holding one merge into the unsharded output.
    @Test func partsWithReasonsOfNoLocationMerge() throws {
        let directory = try temporaryDirectory("adrules-nolocation", ["older/policy.yaml": Self.appOpenOnlyPolicy])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let arguments = ["impact", Self.flat, "--rules", Self.new, "--compare", directory + "/older", "--format", "json"]
        let whole = runCLI(arguments)
        #expect(whole.exitCode == 0, "\(whole.stderr)")
        #expect(whole.stdout.contains("\"code\": \"unknown_placement\""))
        var parts: [String] = []
        for k in 1...2 {
            let path = "\(directory)/part-\(k).json"
            #expect(runCLI(arguments + ["--shard", "\(k)/2", "--output", path]).exitCode == 0)
            parts.append(path)
        }
        let merged = runCLI(["impact", "merge"] + parts)
        #expect(merged.exitCode == 0, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout)
    }
}
