import AdRules
import AdRulesCompiler
@testable import AdRulesCLI
import AdRulesImpact
import AdRulesTestSupport
import Foundation
import Testing

/// What the fourth hostile-input hunt found: entries dropped without a word, compiled policies the runtime refuses,
/// impact runs whose size or work had no bound, and paths printed raw.
@Suite("Bounds and names")
struct BoundsAndNamesTests {
    static func directory(_ files: [String: String]) throws -> String { try temporaryDirectory("adrules-bounds", files) }

    /// A list or a mapping used as a placement, group or attribute name is a finding, never a dropped entry.
    @Test func collectionKeysInIDMappingsAreFindings() throws {
        let dir = try Self.directory([
            "p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n  [b]: {format: bogus}\ngroups:\n  {g: 1}: {placements: [nope]}\nattributes:\n  [x]: {type: bogus}\n",
            "s.test.yaml": "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    context: {attributes: {[screen]: checkout}}\n    steps:\n      - event: app_launched\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lint = runCLI(["lint", dir + "/p.yaml"])
        #expect(lint.exitCode == 1)
        for expected in [
            "p.yaml:4:3: error: a key in placements must be a plain word, not a list (schema/type)",
            "p.yaml:6:3: error: a key in groups must be a plain word, not a mapping (schema/type)",
            "p.yaml:8:3: error: a key in attributes must be a plain word, not a list (schema/type)",
        ] {
            #expect(lint.stdout.contains(expected), "\(lint.stdout)")
        }
        try "version: 1\nplacements:\n  a: {format: banner}\n".write(toFile: dir + "/p.yaml", atomically: true, encoding: .utf8)
        let test = runCLI(["test", dir])
        #expect(test.exitCode == 1)
        #expect(test.stdout.contains("s.test.yaml:4:28: error: a key in attributes must be a plain word, not a list (schema/type)"), "\(test.stdout)")
    }

    /// `compile` writes only what an app's loader accepts: a file name with a control character and a table over
    /// the runtime's limits are findings (and lint agrees on the limits).
    @Test func compileRefusesWhatTheRuntimeWouldRefuse() throws {
        let dir = try Self.directory(["x\nfake.yaml": "version: 1\nplacements:\n  a: {format: banner}\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let named = runCLI(["compile", dir, "-o", dir + "/c.json", "--root", dir])
        #expect(named.exitCode == 1)
        #expect(named.stderr.contains("the file name \"x\\nfake.yaml\" holds a control character, which a compiled policy cannot name: rename the file"), "\(named.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/c.json"))
        // A name with more combining marks in a row than the runtime's loader reads (it failed as internal, exit 3).
        let marks = "e" + String(repeating: "\u{301}", count: 31) + ".yaml"
        let marked = try Self.directory([marks: "version: 1\nplacements:\n  a: {format: banner}\n"])
        defer { try? FileManager.default.removeItem(atPath: marked) }
        let markedRun = runCLI(["compile", marked, "-o", marked + "/c.json", "--root", marked])
        #expect(markedRun.exitCode == 1, "\(markedRun.stderr)")
        #expect(markedRun.stderr.contains("holds more than 30 combining marks in a row, which a compiled policy cannot name: rename the file"), "\(markedRun.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marked + "/c.json"))
        // Thirty are a name like any other.
        let thirty = try Self.directory(["e" + String(repeating: "\u{301}", count: 30) + ".yaml": "version: 1\nplacements:\n  a: {format: banner}\n"])
        defer { try? FileManager.default.removeItem(atPath: thirty) }
        #expect(runCLI(["compile", thirty, "-o", thirty + "/c.json", "--root", thirty]).exitCode == 0)

        let attributes = (0...1000).map { "  a\($0): int\n" }.joined()
        let big = try Self.directory(["p.yaml": "version: 1\nplacements: {a: {format: banner}}\nattributes:\n" + attributes])
        defer { try? FileManager.default.removeItem(atPath: big) }
        let lint = runCLI(["lint", big])
        #expect(lint.exitCode == 1)
        #expect(lint.stdout.contains("p.yaml:1004:3: error: the policy has 1001 attributes; a policy may have at most 1000"), "\(lint.stdout)")

        let root = runCLI(["compile", big, "--root", big + "/missing"])
        #expect(root.exitCode == 2)
        #expect(root.stderr.contains("is not a directory"), "\(root.stderr)")
        // A root beside the policy, not above it, names nothing relative to it.
        let beside = try Self.directory([:])
        defer { try? FileManager.default.removeItem(atPath: beside) }
        let outside = runCLI(["compile", big, "--root", beside])
        #expect(outside.exitCode == 2 && outside.stdout.isEmpty, "\(outside.stderr)")
        #expect(outside.stderr == "error: --root \(beside) does not hold \(big): give a directory the policy is in, such as the package root\n", "\(outside.stderr)")
    }

    /// A rule file whose name relative to `--root` is longer than a compiled policy holds is a finding at the file
    /// (lint passed it, and compile failed as `internal`, exit 3). The name is longer than a path the system opens,
    /// so the file is reached relative to the working directory, as the hunt did.
    @Test func aFileNameTooLongForACompiledPolicyIsAFinding() throws {
        let binary = try #require(adrulesBinary(), "the adrules binary was not built")
        let dir = try Self.directory([:])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let relative = Array(repeating: String(repeating: "d", count: 202), count: 20).joined(separator: "/") + "/p"
        func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: dir)
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
        // FileManager cannot remove a path longer than PATH_MAX; rm walks it relative to each folder.
        defer { _ = try? run("/bin/rm", ["-rf", String(repeating: "d", count: 202)]) }
        let made = try run("/bin/sh", ["-c", "mkdir -p \(relative) && printf 'version: 1\\nplacements:\\n  a: {format: banner}\\n' > \(relative)/p.yaml"])
        try #require(made.0 == 0, "\(made.1)")
        let (code, stderr) = try run(binary, ["compile", relative, "--root", "/", "-o", "c.json", "--format", "json"])
        #expect(code == 1, "\(stderr)")
        #expect(stderr.contains("characters long, more than the 4096 a compiled policy holds: compile from a --root nearer the file, or shorten its path"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/c.json"))
    }

    /// A name listed with U+FFFD in it (a name that is not UTF-8 reads so) is refused: a sibling literally named with
    /// U+FFFD was read twice, and the other file never.
    @Test func aListedNameWithAReplacementCharacterIsRefused() throws {
        let dir = try Self.directory(["a\u{FFFD}.yaml": "version: 1\nplacements:\n  a: {format: banner}\n", "b.yaml": "version: 1\nplacements:\n  b: {format: banner}\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["lint", dir])
        #expect(result.exitCode == 3)
        #expect(result.stderr == "error: cannot read \(dir)/a\u{FFFD}.yaml: the name is not UTF-8 (or holds U+FFFD), which adrules cannot tell from another file's: rename it\n", "\(result.stderr)")
    }

    /// The `text` format shows no excerpt under the line counting the findings not shown: it points at no text (the
    /// file's first line and a caret at 1:1 were printed under it).
    @Test func theLineOfFindingsNotShownHasNoExcerpt() throws {
        let placements = (0..<1_001).map { "  p\($0): {format: interstitial, min_interval: 1m, daily_cap: six}\n" }.joined()
        let dir = try temporaryDirectory("adrules-many-text", ["p.yaml": "version: 1\nplacements:\n" + placements])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lines = runCLI(["lint", "--format", "text", dir + "/p.yaml"]).stdout.split(separator: "\n").map(String.init)
        let counting = try #require(lines.firstIndex { $0.hasSuffix("(lint/too-many-findings)") }, "\(lines.suffix(3))")
        // It comes first (it points at 1:1), and the next line is the first finding, not an excerpt of line 1.
        try #require(counting + 1 < lines.count)
        #expect(lines[counting + 1].hasPrefix(dir + "/p.yaml:3:"), "\(lines.prefix(4))")
        // Every finding shown keeps its excerpt and caret.
        #expect(lines.count == 1_000 * 3 + 1, "\(lines.count)")
    }

    /// The `text` format shows a note's line and a caret as it shows its finding's, in the note's own file: after a
    /// syntax error the mistake is often on the note's line (a key with no colon, libyaml stopping on the line below).
    @Test func aNoteShowsItsLineInTheTextFormat() throws {
        let dir = try temporaryDirectory("adrules-note-text", [
            "twice/one.yaml": "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n",
            "twice/two.yaml": "version: 1\nplacements:\n  b: {format: banner}\n  a: {format: banner}\n",
            "bad/p.yaml": "version: 1\nplacements:\n  a:\n    format: interstitial\n    daily_cap 6\n    min_interval: 1m\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let twice = runCLI(["lint", "--format", "text", "--color", "never", dir + "/twice"]).stdout.split(separator: "\n").map(String.init)
        #expect(Array(twice.suffix(3)) == [
            "\(dir)/twice/one.yaml:3:3: note: placement \"a\" is first defined here", " 3 |   a: {format: interstitial, min_interval: 1m}", "   |   ^",
        ], "\(twice)")
        let syntax = runCLI(["lint", "--format", "text", "--color", "never", dir + "/bad"]).stdout.split(separator: "\n").map(String.init)
        #expect(Array(syntax.suffix(3)) == ["\(dir)/bad/p.yaml:5:5: note: the key starts here", " 5 |     daily_cap 6", "   |     ^"], "\(syntax)")
    }

    /// Unknown placements in a scenario file are looked up, not compared with every placement, and past a report's
    /// worth get no "did you mean" search (12,000 of them against 100,000 placements took 14.5 s); a policy with no
    /// placements says so rather than list none.
    @Test func unknownScenarioPlacementsAreCheap() {
        let policy = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner}\n")]).policy
        let steps = (0..<1_100).map { "      - {event: load_completed, placement: z\($0)}\n" }.joined()
        let scenario = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n" + steps
        let (_, found) = ScenarioDecoder.decode(Array(scenario.utf8), file: "t.test.yaml", policy: policy)
        #expect(found.filter { $0.rule == "scenario/unknown-placement" }.count == 1_000)
        #expect(found.contains { $0.rule == "lint/too-many-findings" && $0.message.hasPrefix("100 more findings") }, "\(found.suffix(1))")
        let empty = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements: {}\n")]).policy
        let (_, none) = ScenarioDecoder.decode(Array("tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {event: load_completed, placement: a}\n".utf8), file: "t.test.yaml", policy: empty)
        #expect(none.map(\.message) == ["event load_completed names placement \"a\", which the policy does not have (the engine ignores the event): the policy the test runs against defines no placements"])
    }

    /// A directory with more entries than a walk reads is named as a directory: a directory of scenario files was
    /// called "the policy … is too large".
    @Test func aDirectoryWithTooManyEntriesIsNamedAsADirectory() throws {
        let dir = try Self.directory([:])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for i in 0...10_000 { _ = FileManager.default.createFile(atPath: dir + "/t\(i).test.yaml", contents: nil) }
        let result = runCLI(["test", dir, "--rules", "rules"].map { $0 == "rules" ? packageRoot() + "/rules" : $0 })
        #expect(result.exitCode == 3)
        #expect(result.stderr == "error: \(dir) holds more than 10000 entries below it, more than adrules reads from one directory: split it into several\n", "\(result.stderr)")
    }

    /// The groups' and rules' lists together name at most 1,000,000 placements, in rule files and compiled policies
    /// alike: 158 groups of 20,000 members, each list within its own bound, made a lint-clean 61 MB compiled policy
    /// that took 514 MB to load (the memory is measured in docs/limits.md, not here). Here 1,001 groups list all of
    /// 1,000 placements: 1,001,000 ids.
    @Test func theListsOfAPolicyAreBoundedInAll() throws {
        let ids = (0..<1000).map { "p\($0)" }
        let placements = "version: 1\nplacements:\n" + ids.map { "  \($0): {format: banner}\n" }.joined()
        let group = "{placements: [\(ids.joined(separator: ", "))]}"
        let load = PolicyLoader.load(texts: [("p.yaml", placements + "groups:\n" + (0...1000).map { "  g\($0): \(group)\n" }.joined())])
        let ranges = load.diagnostics.filter { $0.rule == "schema/range" }
        // The first id past the bound: the first member of the last group, g1000, on line 2004.
        #expect(ranges.map { "\($0.range.start.line):\($0.range.start.column)" } == ["2004:24"], "\(ranges.map(\.message))")
        #expect(ranges.first?.message == "the groups' placements and the rules' deny lists name 1001000 placements in all; a policy's lists hold at most 1000000: use fewer, larger groups, and write deny: \"*\" for a rule that denies every placement")
        // A compiled policy of one such group, copied to 1,001 groups (and to 1,000, within the bound): refused as it
        // is read past the bound.
        let dir = try Self.directory(["p.yaml": placements + "groups:\n  g: \(group)\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let document = String(decoding: try #require(try PolicyCompiler.compile(path: dir + "/p.yaml", root: dir).document), as: UTF8.self)
        let head = try #require(document.range(of: "\"groups\":["))
        let tail = try #require(document.range(of: "],\"load_timeout\"", range: head.upperBound..<document.endIndex))
        let one = document[head.upperBound..<tail.lowerBound]
        func groups(_ count: Int) -> Data {
            let copies = (0..<count).map { one.replacingOccurrences(of: #""id":"g""#, with: #""id":"g\#($0)""#) }.joined(separator: ",")
            return Data(document.replacingCharacters(in: head.upperBound..<tail.lowerBound, with: copies).utf8)
        }
        #expect {
            try Policy(compiled: groups(1001))
        } throws: { error in
            "\(error)".contains("groups[1000].placements[0]: the groups' placements and the rules' deny lists name more than 1000000 placements in all")
        }
        #expect(try Policy(compiled: groups(1000)).groups.count == 1000)
    }

    /// The rules' conditions hold at most 500,000 nodes together, in rule files and compiled policies alike: 7,707
    /// rules of 257 nodes each, a lint-clean 66 MB compiled policy, took 533 MB to load (docs/limits.md). Here rules of
    /// `premium or …` with 256 operands, 257 nodes each: 1,945 of them are within the bound, 1,946 past it.
    @Test func theConditionsOfAPolicyAreBoundedInAll() throws {
        let when = Array(repeating: "premium", count: 256).joined(separator: " or ")
        func rules(_ count: Int) -> String {
            "version: 1\nplacements:\n  p: {format: banner}\nrules:\n" + (0..<count).map { "  - {id: r\($0), deny: [p], when: \(when)}\n" }.joined()
        }
        let load = PolicyLoader.load(texts: [("p.yaml", rules(1946))])
        let ranges = load.diagnostics.filter { $0.rule == "schema/range" }
        // At the `when` of the last rule, r1945, on line 1950.
        #expect(ranges.map { "\($0.range.start.line):\($0.range.start.column)" } == ["1950:34"], "\(ranges.map(\.message))")
        #expect(ranges.first?.message.hasPrefix("the rules' conditions hold more than 500000 names, literals and operators in all from this one on") == true)
        // The compiled form of 1,945 such rules, with one more copied in: refused as it is read; 1,945 load.
        let dir = try Self.directory(["p.yaml": rules(1)])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let document = String(decoding: try #require(try PolicyCompiler.compile(path: dir + "/p.yaml", root: dir).document), as: UTF8.self)
        let head = try #require(document.range(of: "\"rules\":["))
        let tail = try #require(document.range(of: "],\"session_timeout\"", range: head.upperBound..<document.endIndex))
        let one = document[head.upperBound..<tail.lowerBound]
        func compiled(_ count: Int) -> Data {
            let copies = (0..<count).map { one.replacingOccurrences(of: #""id":"r0""#, with: #""id":"r\#($0)""#) }.joined(separator: ",")
            return Data(document.replacingCharacters(in: head.upperBound..<tail.lowerBound, with: copies).utf8)
        }
        #expect {
            try Policy(compiled: compiled(1946))
        } throws: { error in
            "\(error)".contains("rules[1945].condition: the rules' conditions hold more than 500000 nodes in all")
        }
        #expect(try Policy(compiled: compiled(1945)).rules.count == 1945)
    }

    /// A member list longer than a policy's placements is a finding at its first entry past the limit (lint passed
    /// it, and compile then failed as `internal`), and unknown members past a report's worth still count in the
    /// summary now that they are counted rather than built (a million of them took 814 MB and 5 s; the memory is
    /// measured in docs/limits.md, not here).
    @Test func longMemberListsAreBounded() throws {
        let repeated = Array(repeating: "p", count: 100_001).joined(separator: ",")
        let unknown = Array(repeating: "x", count: 3_000).joined(separator: ",")
        let dir = try Self.directory([
            "p.yaml": "version: 1\nplacements:\n  p: {format: banner}\ngroups:\n  g: {placements: [\(repeated)]}\n",
            "q.yaml": "version: 1\nrules:\n  - {id: r, when: premium, deny: [\(repeated)]}\n  - {id: s, when: premium, deny: [\(unknown)]}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let load = try PolicyLoader.load(path: dir)
        let ranges = load.diagnostics.filter { $0.rule == "schema/range" }
        #expect(ranges.map { "\(URL(fileURLWithPath: $0.file).lastPathComponent):\($0.range.start.line):\($0.range.start.column)" } == ["p.yaml:5:200020", "q.yaml:3:200035"], "\(ranges)")
        #expect(ranges.first?.message == "group \"g\" lists 100001 placements; a list holds at most 100000, as a policy has at most that many placements: name each placement once")
        let inQ = load.diagnostics.filter { $0.file.hasSuffix("q.yaml") }
        #expect(inQ.filter { $0.rule == "policy/unknown-placement" }.count == 999, "\(inQ.count)")
        // 2,001 unknown names past the 999 listed, and the repeated `p` of rule r: one finding for its 100,001 listings.
        #expect(inQ.contains { $0.rule == "lint/too-many-findings" && $0.message.hasPrefix("2002 more findings") }, "\(inQ.filter { $0.rule == "lint/too-many-findings" }.map(\.message))")
        let repeats = load.diagnostics.filter { $0.rule == "policy/repeated-placement" }
        // (The group's list is read up to its bound of 100,000; the one of rule r is among the findings not shown.)
        #expect(repeats.map(\.message) == ["placement \"p\" is listed 100000 times in group \"g\", which counts each member once: list it once, or name the placement you meant"], "\(repeats)")
    }

    /// A compiled rule holds only what a rule file can write: no empty deny list, no control character in a list
    /// literal, no duration literal outside 0s-366d.
    @Test(arguments: [
        ("\"deny\": [[\"a\", 0, 8, 12]]", "\"deny\": []", "an empty list denies nothing"),
        ("{\"type\": \"duration\", \"value\": 172800000}", "{\"type\": \"duration\", \"value\": -9223372036854775808}", "a duration literal must be from 0s"),
        ("\"list\": {\"attribute\": \"tags\"}", "\"list\": {\"constant\": {\"type\": \"[string]\", \"value\": [\"y\\u001b[31m\"]}}", "a string in a list literal holds a control character"),
    ])
    func compiledRulesHoldOnlyWhatRuleFilesCanWrite(_ original: String, _ replacement: String, _ message: String) throws {
        let yaml = "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\nattributes:\n  tags: {type: \"[string]\", default: []}\nrules:\n  - id: r\n    deny: [a]\n    when: install.age > 2d and \"x\" in tags\n"
        let dir = try Self.directory(["p.yaml": yaml])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let compiled = runCLI(["compile", dir])
        #expect(compiled.exitCode == 0, "\(compiled.stderr)")
        // Pretty-printed with spaces after colons and commas, as the document is written.
        let object = try JSONSerialization.jsonObject(with: Data(compiled.stdout.utf8))
        let text = String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
            .replacingOccurrences(of: ":", with: ": ").replacingOccurrences(of: ",", with: ", ")
        #expect(text.contains(original), "\(text)")
        let tampered = text.replacingOccurrences(of: original, with: replacement)
        #expect(throws: (any Error).self) { try Policy(compiled: Data(tampered.utf8)) }
        do {
            _ = try Policy(compiled: Data(tampered.utf8))
        } catch {
            #expect(error.localizedDescription.contains(message), "\(error.localizedDescription)")
        }
    }

    static let policy = "version: 1\ntimezone: UTC\nplacements:\n" + (0..<100).map { "  p\($0): {format: interstitial, min_interval: 1m}\n" }.joined()

    /// A report holds figures for every placement in every segment: their product is bounded before anything is
    /// played, so a small model cannot ask for gigabytes (or a part `impact merge` cannot read).
    @Test func theReportSizeIsBoundedBeforeThePlay() throws {
        let segments = (0..<101).map { "  - {name: s\($0), share: \($0 == 0 ? "0.01" : "0.0099"), timezone: UTC, actions: [{placement: p\($0 % 100), every: 1m}]}\n" }.joined()
        let dir = try Self.directory(["p.yaml": Self.policy, "m.model.yaml": "version: 1\nusers: 10\ndays: 1\nstart: 2026-12-07\nsegments:\n" + segments])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/p.yaml"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("m.model.yaml:5:1: error: the report would hold 101 segments x 100 placements"), "\(result.stderr)")
        #expect(ModelCheck.maxReportBlocks == 10_000)
    }

    /// A segment's work per user-day is bounded, and a segment needs a name the report can show.
    @Test func aSegmentsWorkAndNameAreChecked() throws {
        let model = """
            version: 1
            users: 1
            days: 1
            start: 2026-12-07
            segments:
              - {name: "", share: 0.5, timezone: UTC}
              - {name: b, share: 0.5, timezone: UTC, cold_starts: {poisson: 1000}, foreground: 23h, actions: [{placement: p1, every: 1s}]}

            """
        let dir = try Self.directory(["p.yaml": Self.policy, "m.model.yaml": model])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/p.yaml"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("m.model.yaml:6:12: error: name must be a name the report can show"), "\(result.stderr)")
        #expect(result.stderr.contains("m.model.yaml:7:12: error: segment b has about 86400 app moments (actions and offers) a user-day, more than the 10000"), "\(result.stderr)")
    }

    /// Every stream starts in every visit, however short: 2,000 one-second visits of 128 streams an hour apart are 71
    /// moments a day but 256,000 starts (30 ms a user-day; 36 minutes for the model's own 10,000 users x 7 days).
    @Test func streamStartsPerVisitAreBounded() throws {
        let streams = (0..<64).map { _ in "      - {placement: p1, every: 1h}\n" }.joined()
        func model(coldStarts: Int) -> String {
            "version: 1\nusers: 2\ndays: 1\nsegments:\n  - name: busy\n    share: 1\n    timezone: UTC\n    cold_starts: \(coldStarts)\n    resumes: 1000\n    foreground: 1s\n    actions:\n"
                + streams + "    rewarded:\n" + streams.replacingOccurrences(of: "every: 1h}", with: "every: 1h, accept: 0.5}")
        }
        let dir = try Self.directory(["p.yaml": Self.policy, "m.model.yaml": model(coldStarts: 1000), "ok.model.yaml": model(coldStarts: 1).replacingOccurrences(of: "resumes: 1000", with: "resumes: 60")])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/p.yaml"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("m.model.yaml:5:11: error: segment busy starts its 128 streams (actions and rewarded) in each of about 2000 visits a user-day: about 256000 starts, more than the 10000 a simulation plays: write fewer visits (cold_starts, resumes) or fewer streams (schema/range)"), "\(result.stderr)")
        // 61 visits of 128 streams: 7,808 starts, within the bound.
        let within = runCLI(["impact", dir + "/ok.model.yaml", "--rules", dir + "/p.yaml", "--format", "json"])
        #expect(within.exitCode == 0, "\(within.stderr)")
    }

    /// Paths from the command line are printed escaped in every error, so a path cannot forge a line.
    @Test func pathsInErrorsAreEscaped() {
        let path = "no\u{1B}[31m\nfake.yaml:1:1: error: forged"
        for arguments in [
            ["impact", path + ".model.yaml"], ["impact", "rules/usage.model.yaml", "--rules", path],
            ["impact", "merge", path + ".json"], ["simulate", path], ["simulate", "rules/app_open.test.yaml", "--rules", path],
        ] {
            let result = runCLI(arguments)
            #expect(result.exitCode != 0)
            #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\nfake.yaml"), "\(arguments): \(result.stderr)")
        }
    }

    /// A symbolic link that leads nowhere (a loop, a missing target) is named as one, not as a missing file.
    @Test func aDanglingLinkIsNamedAsOne() throws {
        let dir = try Self.directory([:])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/a.yaml", withDestinationPath: dir + "/b.yaml")
        try FileManager.default.createSymbolicLink(atPath: dir + "/b.yaml", withDestinationPath: dir + "/a.yaml")
        for arguments in [["lint", dir + "/a.yaml"], ["impact", dir + "/a.yaml"], ["simulate", dir + "/a.yaml"]] {
            let result = runCLI(arguments)
            #expect(result.exitCode == 3)
            #expect(result.stderr.contains("a symbolic link that leads to no file"), "\(arguments): \(result.stderr)")
        }
        #expect(runCLI(["lint", dir + "/missing.yaml"]).stderr.contains("no such file or directory"))
        // A path that can name no file says why, as a report's path does.
        let long = runCLI(["lint", dir + "/" + String(repeating: "x", count: 300) + ".yaml"])
        #expect(long.exitCode == 3)
        #expect(long.stderr.hasSuffix("x.yaml: file name too long\n"), "\(long.stderr)")
        try "version: 1\n".write(toFile: dir + "/file.yaml", atomically: true, encoding: .utf8)
        #expect(runCLI(["lint", dir + "/file.yaml/p.yaml"]).stderr.contains("a part of the path before the last is a file, not a directory"))
        #expect(runCLI(["lint", dir + "/file.yaml/"]).stderr.hasSuffix("file.yaml/: names a file, not a directory: remove the trailing /\n"))
        // An empty path (an unset variable in a CI script) is a usage error, named as such, not a file called "".
        for arguments in [["lint", ""], ["test", ""], ["simulate", ""], ["impact", ""], ["compile", ""], ["impact", "merge", ""], ["lint", "rules", ""], ["help", ""]] {
            let empty = runCLI(arguments)
            #expect(empty.exitCode == 2, "\(arguments)")
            #expect(empty.stderr.hasPrefix("error: an empty argument names no file: give a path, or leave the argument out\n"), "\(arguments): \(empty.stderr)")
        }
        // `help` takes one topic: a second word is not dropped.
        let extra = runCLI(["help", "lint", "extra"])
        #expect(extra.exitCode == 2 && extra.stderr.hasPrefix("error: unexpected argument \"extra\""), "\(extra.stderr)")
        // An option given to help is named as one help does not take (`help --format json` was "unexpected argument json").
        #expect(runCLI(["help", "--", "lint"]).stdout == runCLI(["help", "lint"]).stdout)
        #expect(runCLI(["help", "--"]).stdout == runCLI(["help"]).stdout)
        #expect(runCLI(["help", "-x"]).stderr.hasPrefix("error: unknown command \"-x\""))
        for arguments in [["help", "--format", "json"], ["help", "lint", "--format=json"], ["help", "--quiet"]] {
            let option = runCLI(arguments)
            #expect(option.exitCode == 2 && option.stdout.isEmpty, "\(arguments)")
            let name = arguments.contains("--quiet") ? "quiet" : "format"
            #expect(option.stderr.hasPrefix("error: help takes no --\(name): help takes a command's name only and prints text: write adrules help lint, or adrules lint --help\n"),
                    "\(arguments): \(option.stderr)")
        }
    }

    /// `--help` and `-h` before a word are `help` with that word: a command's help, an unknown command a usage error
    /// (it printed the usage and exited 0), and help on help (`help -h`, once an unknown command) the usage.
    @Test func helpBeforeAWordIsHelpOnThatWord() {
        let lintHelp = runCLI(["help", "lint"]).stdout
        #expect(lintHelp.hasPrefix("USAGE: adrules lint "))
        for flag in ["--help", "-h"] {
            let lint = runCLI([flag, "lint"])
            #expect(lint.exitCode == 0 && lint.stdout == lintHelp, "\(flag): \(lint.stdout)")
            let unknown = runCLI([flag, "lnt"])
            #expect(unknown.exitCode == 2 && unknown.stdout.isEmpty, "\(flag)")
            #expect(unknown.stderr.hasPrefix("error: unknown command \"lnt\"; did you mean \"lint\"?"), "\(flag): \(unknown.stderr)")
            #expect(runCLI([flag, "lint", "extra"]).exitCode == 2, "\(flag)")
            let onHelp = runCLI(["help", flag])
            #expect(onHelp.exitCode == 0 && onHelp.stdout == runCLI(["help"]).stdout, "\(flag): \(onHelp.stderr)")
        }
    }

    /// A scenario file or a usage model given as the policy is a usage error in every command, reported once.
    @Test func aScenarioOrModelGivenAsThePolicyIsAUsageError() {
        for arguments in [
            ["lint", "rules/app_open.test.yaml"], ["test", "rules", "--rules", "rules/app_open.test.yaml"],
            ["simulate", "rules/app_open.test.yaml", "--rules", "rules/usage.model.yaml"], ["compile", "rules/app_open.test.yaml"],
            ["impact", "rules/usage.model.yaml", "--rules", "rules/app_open.test.yaml"],
            ["impact", "rules/usage.model.yaml", "--compare", "rules/usage.model.yaml"],
        ] {
            let result = runCLI(arguments)
            #expect(result.exitCode == 2, "\(arguments)")
            #expect(result.stderr.components(separatedBy: "not a rule file").count == 2, "\(arguments): \(result.stderr)")
        }
    }

    /// List values and a scenario's context are bounded: `in` reads a list on every ask that needs it.
    @Test func listValuesAndContextsAreBounded() throws {
        let items = (0...1000).map { "x\($0)" }.joined(separator: ", ")
        let policy = "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\nattributes:\n  tags: {type: \"[string]\", default: [\(items)]}\n"
        let big = try Self.directory(["p.yaml": policy])
        defer { try? FileManager.default.removeItem(atPath: big) }
        let lint = runCLI(["lint", big])
        #expect(lint.exitCode == 1)
        #expect(lint.stdout.contains("lists 1001 items; a list value holds at most 1000"), "\(lint.stdout)")

        let names = (0...1000).map { "n\($0): 1" }.joined(separator: ", ")
        let scenario = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    context: {attributes: {\(names)}}\n    steps:\n      - event: app_launched\n"
        let dir = try Self.directory(["p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n", "s.test.yaml": scenario])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let test = runCLI(["test", dir])
        #expect(test.exitCode == 1)
        #expect(test.stdout.contains("attributes names 1001 attributes; a context holds at most 1000"), "\(test.stdout)")
    }

    /// `--output` to a FIFO that no process reads is an error, not a wait that never ends.
    @Test func anOutputFIFOWithNoReaderIsAnError() throws {
        let dir = try Self.directory([:])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(mkfifo(dir + "/out", 0o644) == 0)
        let result = runCLI(["lint", "rules", "--format", "json", "--output", dir + "/out"])
        #expect(result.exitCode == 3)
        #expect(result.stderr.contains("a FIFO that no process reads"), "\(result.stderr)")
    }

    /// `--output` to a Unix socket says it is one (Linux said "no such device or address", Darwin "operation not
    /// supported on socket"), and what to give instead.
    @Test func anOutputSocketIsNamedAsOne() throws {
        // (Under a long temporary folder, Darwin's, the socket gets a short one of its own: its path must fit sun_path.)
        let dir = try Self.directory([:])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let socket = try #require(try boundUnixSocket(in: dir, named: "out.sock"))
        defer {
            close(socket.fd)
            if socket.folder != dir { try? FileManager.default.removeItem(atPath: socket.folder) }
        }
        let path = socket.path
        let result = runCLI(["lint", "rules", "--format", "json", "--output", path])
        #expect(result.exitCode == 3)
        #expect(result.stderr.contains("it is a socket, which cannot be opened as a file: give the path of a file, or - for standard output"), "\(result.stderr)")
    }

    /// A report someone made read-only (`chmod 444`) stays as it is, also for a run as root (a CI container's), which
    /// the system would let write any file: refused before the run, with the reason, exit 3.
    @Test func aReadOnlyReportStaysAsItIsForEveryUser() throws {
        let dir = try Self.directory([:])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let target = dir + "/policy.json"
        try "{\"kept\": true}\n".write(toFile: target, atomically: true, encoding: .utf8)
        #expect(chmod(target, 0o444) == 0)
        for arguments in [["compile", "rules"], ["lint", "rules", "--format", "json"]] {
            let result = runCLI(arguments + ["--output", target])
            #expect(result.exitCode == 3, "\(arguments)")
            #expect(result.stderr.contains("the file is read-only"), "\(result.stderr)")
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "{\"kept\": true}\n")
        #expect(chmod(target, 0o644) == 0)
        #expect(runCLI(["compile", "rules", "--output", target]).exitCode == 0)
    }

    /// A report that cannot be written in full (here a file-size limit) leaves the file it would replace as it was;
    /// a written report keeps the file's permissions, a symlink stays a symlink, and a file with hard links is written
    /// in place (each of its names sees the new report).
    @Test func aFailedOutputKeepsThePreviousFile() throws {
        let dir = try Self.directory([:])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let binary = try #require(adrulesBinary(), "the adrules binary was not built")
        let target = dir + "/policy.json"
        try "{\"good\": true}\n".write(toFile: target, atomically: true, encoding: .utf8)
        // 1 block of 512 bytes: the compiled shipped rules are several KB.
        #expect(try Self.shell("ulimit -f 1; exec \"$0\" compile rules --output \"$1\" 2>/dev/null", binary, target) == 3)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "{\"good\": true}\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["policy.json"])
        // A file with a second name is written in place, and put back as it was when the write fails.
        #expect(Glibc.link(target, dir + "/second.json") == 0)
        #expect(try Self.shell("ulimit -f 1; exec \"$0\" compile rules --output \"$1\" 2>/dev/null", binary, target) == 3)
        #expect(try String(contentsOfFile: dir + "/second.json", encoding: .utf8) == "{\"good\": true}\n")
        #expect(unlink(dir + "/second.json") == 0)
        // A written report goes into the file a symlink points at, which keeps its permissions.
        #expect(chmod(target, 0o600) == 0)
        #expect(symlink("policy.json", dir + "/link.json") == 0)
        #expect(runCLI(["compile", "rules", "--output", dir + "/link.json"]).exitCode == 0)
        let link = try FileManager.default.attributesOfItem(atPath: dir + "/link.json")
        #expect(link[.type] as? FileAttributeType == .typeSymbolicLink)
        let replaced = try FileManager.default.attributesOfItem(atPath: target)
        #expect((replaced[.posixPermissions] as? Int) == 0o600)
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("{\"attributes\""))
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir)) == ["policy.json", "link.json"])
        // Written in place: a hard link to the file sees the new report.
        #expect(Glibc.link(target, dir + "/hard.json") == 0)
        #expect(runCLI(["lint", "rules", "--format", "json", "--output", target]).exitCode == 0)
        #expect(try String(contentsOfFile: dir + "/hard.json", encoding: .utf8).hasPrefix("{\n  \"version\": 1"))
        // Standard output named as a file is standard output.
        let stdout = runCLI(["lint", "rules", "--format", "json", "--output", "/dev/stdout"])
        #expect(stdout.exitCode == 0 && stdout.stdout.hasPrefix("{\n  \"version\": 1"), "\(stdout)")
        // Standard error named by any name is standard error: a log it is appended to keeps what it held.
        let log = dir + "/build.log"
        try "earlier\n".write(toFile: log, atomically: true, encoding: .utf8)
        _ = try Self.shell("\"$0\" compile rules --output /dev/./stderr 2>>\"$1\"; echo later >>\"$1\"", binary, log)
        let logged = try String(contentsOfFile: log, encoding: .utf8)
        #expect(logged.hasPrefix("earlier\n{\"attributes\"") && logged.hasSuffix("later\n"), "\(logged.prefix(80))")
        // A file written in place too large to keep a copy of (here one with a second name) is emptied before it is
        // written: never a mix of old and new.
        let large = dir + "/large.json"
        #expect(FileManager.default.createFile(atPath: large, contents: Data("old".utf8)))
        #expect(truncate(large, off_t(OutputFile.maxKept + 1)) == 0)
        #expect(Glibc.link(large, dir + "/large-link.json") == 0)
        #expect(runCLI(["lint", "rules", "--format", "json", "--output", large]).exitCode == 0)
        #expect(try String(contentsOfFile: dir + "/large-link.json", encoding: .utf8).hasPrefix("{\n  \"version\": 1"))
        #expect((try FileManager.default.attributesOfItem(atPath: large)[.size] as? Int ?? 0) < 1000)
        // A device is written through: a full one is an error.
        let full = runCLI(["lint", "rules", "--format", "json", "--output", "/dev/full"])
        #expect(full.exitCode == 3)
        #expect(full.stderr.contains("no space left on device"), "\(full.stderr)")
    }

    /// A run killed while it writes `--output` (SIGKILL: a CI job's timeout, the OOM killer) leaves the file it would
    /// replace whole: the old report or the new one, never a cut-off mix. The report is written beside the file and
    /// renamed over it, which the new inode shows (a write in place keeps it). The kills, at several points of a run,
    /// check the property itself; the write is a few milliseconds at the end of the run, so they seldom land in it.
    @Test func aKilledRunLeavesTheOldReportOrTheNew() throws {
        let binary = try #require(adrulesBinary(), "the adrules binary was not built")
        var steps = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n"
        steps += String(repeating: "      - {after: 1s, ask: show, placement: level_end}\n", count: 20_000)
        let dir = try Self.directory(["long.test.yaml": steps])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let report = dir + "/report.txt"
        let old = String(repeating: "an earlier report\n", count: 100_000)
        // The whole new report, from a run that is not killed.
        try old.write(toFile: report, atomically: false, encoding: .utf8)
        let started = Date()
        #expect(try Self.shell("exec \"$0\" simulate \"$1\" --rules rules --output \"$2\" 2>/dev/null", binary, dir + "/long.test.yaml", report) == 0)
        let whole = Date().timeIntervalSince(started)
        let new = try String(contentsOfFile: report, encoding: .utf8)
        #expect(new.count > 1_000_000 && new != old)
        // A new report file gets what the umask leaves, as a file the run creates does.
        #expect(try Self.shell("umask 077; exec \"$0\" compile rules --output \"$1\"", binary, dir + "/private.json") == 0)
        #expect((try FileManager.default.attributesOfItem(atPath: dir + "/private.json")[.posixPermissions] as? Int) == 0o600)
        try FileManager.default.removeItem(atPath: dir + "/private.json")
        // Replaced by a new file (a write in place keeps the inode), with nothing left beside it.
        var before = stat(), after = stat()
        try old.write(toFile: report, atomically: false, encoding: .utf8)
        #expect(stat(report, &before) == 0)
        #expect(try Self.shell("exec \"$0\" simulate \"$1\" --rules rules --output \"$2\" 2>/dev/null", binary, dir + "/long.test.yaml", report) == 0)
        #expect(stat(report, &after) == 0 && after.st_ino != before.st_ino)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir)) == ["long.test.yaml", "report.txt"])
        for fraction in [0.7, 0.9, 1.0] {
            try old.write(toFile: report, atomically: false, encoding: .utf8)
            let delay = String(format: "%.3f", whole * fraction)
            _ = try Self.shell(
                "\"$0\" simulate \"$1\" --rules rules --output \"$2\" 2>/dev/null & pid=$!; sleep \"$3\"; kill -9 $pid; wait $pid",
                binary, dir + "/long.test.yaml", report, delay)
            let left = try String(contentsOfFile: report, encoding: .utf8)
            #expect(left == old || left == new, "killed after \(delay) s of \(whole) s: \(left.utf8.count) bytes")
        }
    }

    /// Standard output redirected into a file the run reads (`>> rules/a.yaml`) is refused before anything is written,
    /// as `--output` to it is: the report would corrupt the input. Standard output to any other file is written.
    @Test func standardOutputIntoAnInputIsRefused() throws {
        let binary = try #require(adrulesBinary(), "the adrules binary was not built")
        let rule = "version: 1\nplacements:\n  a: {format: banner}\n"
        let dir = try Self.directory(["rules/a.yaml": rule, "rules/a.test.yaml": "tests: []\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for command in ["compile \"$1/rules\" >> \"$1/rules/a.yaml\"", "lint \"$1/rules\" --format json >> \"$1/rules/a.yaml\"",
            "simulate \"$1/rules/a.test.yaml\" --rules \"$1/rules\" >> \"$1/rules/a.test.yaml\""]
        {
            #expect(try Self.shell("exec \"$0\" \(command) 2>\"$1/err.txt\"", binary, dir) == ExitCode.usage, "\(command)")
            let err = try String(contentsOfFile: dir + "/err.txt", encoding: .utf8)
            #expect(err.contains("standard output goes to a file this run reads"), "\(err)")
        }
        #expect(try String(contentsOfFile: dir + "/rules/a.yaml", encoding: .utf8) == rule)
        #expect(try String(contentsOfFile: dir + "/rules/a.test.yaml", encoding: .utf8) == "tests: []\n")
        // Elsewhere, the report is written.
        #expect(try Self.shell("exec \"$0\" compile \"$1/rules\" > \"$1/policy.json\"", binary, dir) == 0)
        #expect(try String(contentsOfFile: dir + "/policy.json", encoding: .utf8).hasPrefix("{\"attributes\""))
    }

    /// Standard error redirected into a file the run reads (`2>> rules/a.yaml`) is refused too, whatever the output: the
    /// findings, the summary or a refusal would be written into the input. The refusal goes to standard output, or
    /// nowhere when that is such a file too.
    @Test func standardErrorIntoAnInputIsRefused() throws {
        let binary = try #require(adrulesBinary(), "the adrules binary was not built")
        let rule = "version: 1\nplacements:\n  a: {format: banner}\n"
        let dir = try Self.directory(["rules/a.yaml": rule, "rules/a.test.yaml": "tests: []\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for command in ["lint \"$1/rules\" 2>> \"$1/rules/a.yaml\"", "lint \"$1/rules\" --format json -o /dev/stderr 2>> \"$1/rules/a.yaml\"",
            "test \"$1/rules\" 2>> \"$1/rules/a.test.yaml\"",
            // A usage error is not written there either: the check comes before the arguments are read.
            "lint \"$1/rules\" --bogus 2>> \"$1/rules/a.yaml\"", "lint \"$1/rules\" --format xml 2>> \"$1/rules/a.yaml\"",
            "test \"$1/rules\" --rules 2>> \"$1/rules/a.yaml\"", "compile --output=x.json \"$1/rules/a.yaml\" extra 2>> \"$1/rules/a.yaml\""]
        {
            #expect(try Self.shell("exec \"$0\" \(command) > \"$1/out.txt\"", binary, dir) == ExitCode.usage, "\(command)")
            let out = try String(contentsOfFile: dir + "/out.txt", encoding: .utf8)
            #expect(out.hasPrefix("error: standard error goes to a file this run reads ("), "\(out)")
        }
        #expect(try Self.shell("exec \"$0\" lint \"$1/rules\" >> \"$1/rules/a.yaml\" 2>&1", binary, dir) == ExitCode.usage)
        #expect(try String(contentsOfFile: dir + "/rules/a.yaml", encoding: .utf8) == rule)
        #expect(try String(contentsOfFile: dir + "/rules/a.test.yaml", encoding: .utf8) == "tests: []\n")
        // Elsewhere, standard error is written.
        #expect(try Self.shell("exec \"$0\" lint \"$1/rules\" 2> \"$1/err.txt\"", binary, dir) == 0)
        #expect(try String(contentsOfFile: dir + "/err.txt", encoding: .utf8).hasPrefix("Found 0 errors"))
    }

    /// Runs a shell script in the package directory (`$0`, `$1`… are `arguments`) and returns its exit status.
    static func shell(_ script: String, _ arguments: String...) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: packageRoot())
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Shards are bounded as `impact merge` reads them back.
    @Test func shardCountsAreBoundedAsMergeReadsThem() {
        #expect(Shard(index: 1, count: Shard.maxCount) != nil)
        #expect(Shard(index: 1, count: Shard.maxCount + 1) == nil)
        let result = runCLI(["impact", "rules/usage.model.yaml", "--shard", "1/\(Shard.maxCount + 1)"])
        #expect(result.exitCode == 2)
    }
}

extension BoundsAndNamesTests {
    /// A replay's text stops printing steps where the whole report passes its bound, within a test too: one test of a
    /// 16 MB file of asks printed 194 MB, a line a step. The steps past it are played and counted.
    @Test func aReplayPastItsBoundCountsTheStepsItDoesNotPrint() throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  p: {format: interstitial, min_interval: 1m}\n", file: "p.yaml")
        let text = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n"
            + Array(repeating: "      - {ask: show, placement: p}\n", count: 10).joined()
        let (scenario, findings) = ScenarioDecoder.decode(Array(text.utf8), file: "s.test.yaml", policy: policy)
        let test = try #require(scenario.tests.first, "\(findings)")
        var left = FailureReport.maxTextBytes
        let whole = SimulateCommand.text(test, policy: policy, bytesLeft: &left)
        #expect(whole.components(separatedBy: " -> deny").count - 1 == 10)
        #expect(!whole.contains("not shown"))
        // With the report before it 200 bytes short of the bound: the header and the first steps, then a count.
        let cut = SimulateCommand.text(test, policy: policy, bytesLeft: &left, printed: SimulateCommand.maxTextReport - 200)
        let shown = cut.components(separatedBy: " -> deny").count - 1
        #expect(shown > 0 && shown < 10, "\(cut)")
        #expect(cut.contains("  \(11 - shown - 1) more steps were played and are not shown: the replay reached 96 MB; replay fewer steps at once (split the test)\n"), "\(cut)")
        #expect(cut.contains("Shows per placement per day"))
    }
}
