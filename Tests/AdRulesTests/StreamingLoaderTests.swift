import AdRules
import AdRulesCompiler
import AdRulesYAML
import Foundation
import Testing

/// What the loader that decodes rule files straight from libyaml's events must keep doing exactly as the
/// node-tree loader did: which values are kept, which findings are reported, and where.
@Suite("Streaming loader")
struct StreamingLoaderTests {
    static let header = "version: 1\nplacements:\n"

    /// A URL that is not a file URL is refused with advice, as `Policy(compiledContentsOf:)` refuses one (its path was
    /// read as a local path: `https://example.com/rules` loaded /rules).
    @Test func aURLThatIsNotAFileIsRefused() throws {
        let url = try #require(URL(string: "https://example.com/rules"))
        #expect(throws: PolicyLoadError.unreadable("https://example.com/rules", reason: "not a file URL: download the rule files, then load them from disk")) {
            try Policy(contentsOf: url)
        }
        // A URL with no scheme is a path, as a file URL is: read as one (here, a folder that is not there).
        let relative = try #require(URL(string: "no-such-rules-folder"))
        #expect(throws: PolicyLoadError.notFound("no-such-rules-folder")) { try Policy(contentsOf: relative) }
    }

    @Test func duplicatePlacementInALargeMappingKeepsTheFirst() throws {
        var yaml = Self.header
        for i in 0..<25 { yaml += "  p\(i): {format: banner}\n" }
        yaml += "  p3: {format: native, daily_cap: six}\n"
        let load = PolicyLoader.load(texts: [("t.yaml", yaml)])
        let duplicate = try #require(load.diagnostics.first { $0.rule == "yaml/duplicate-key" })
        #expect(duplicate.range.start == SourcePosition(line: 28, column: 3))
        #expect(duplicate.notes.first?.position == SourcePosition(line: 6, column: 3))
        // The repeated entry is not decoded: no schema/type for its daily_cap, and p3 stays a banner.
        #expect(load.diagnostics.map(\.rule) == ["yaml/duplicate-key"])
        #expect(load.policy.placement("p3")?.format.value == .banner)
        #expect(load.policy.placements.count == 25)
    }

    @Test func duplicateKeyInsideAPlacementAfterSixteenKeys() throws {
        var yaml = Self.header + "  a:\n    format: interstitial\n"
        let keys = ["ad_unit: u", "enabled: true", "exclude_premium: true", "block_during_fullscreen: true",
                    "min_interval: 1m", "daily_cap: 9", "hourly_cap: 3", "session_cap: 5", "max_ad_age: 1h",
                    "every_n_actions: 2", "require_user_choice: false", "grace: {first_sessions: 1}"]
        for key in keys { yaml += "    \(key)\n" }
        for i in 0..<8 { yaml += "    extra\(i): 1\n" }
        yaml += "    hourly_cap: 99\n"
        let diagnostics = lint(yaml)
        let duplicate = try #require(diagnostics.first { $0.rule == "yaml/duplicate-key" })
        #expect(duplicate.range.start.line == 25)
        #expect(duplicate.notes.first?.position.line == 11)
        #expect(diagnostics.filter { $0.rule == "schema/unknown-key" }.count == 8)
        #expect(try policyIgnoringErrors(yaml).placement("a")?.hourlyCap?.value == 3)
    }

    @Test func findingsComeSortedByPosition() {
        let yaml = Self.header + "  b:\n    format: banner\n    daily_cap: -1\n  a:\n    colour: banner\n    enabled: maybe\n"
            + "version: 2\n"
        let diagnostics = lint(yaml)
        #expect(diagnostics.map(\.range.start.line) == [5, 6, 7, 8, 9])
        #expect(diagnostics.map(\.rule) == ["schema/range", "schema/missing-key", "schema/unknown-key", "schema/type", "yaml/duplicate-key"])
    }

    @Test func aValueOfTheWrongKindIsReportedWithItsWholeRange() throws {
        let diagnostics = lint(Self.header + "  a:\n    format: banner\n    daily_cap: {max: 3,\n      window: 1h}\n    enabled: [true]\n")
        let cap = try #require(diagnostics.first { $0.message.hasPrefix("daily_cap must be") })
        #expect(cap.message.contains("not a mapping: "))
        #expect(cap.range.start == SourcePosition(line: 5, column: 16))
        #expect(cap.range.end == SourcePosition(line: 6, column: 18))
        #expect(diagnostics.contains { $0.message == "enabled must be true or false, not a list: write true or false on the key's line, as in enabled: false" })
    }

    @Test func aKeyThatIsACollectionIsATypeError() throws {
        let diagnostics = lint(Self.header + "  a:\n    format: banner\n    ? [x, y]\n    : 1\n    {k: 1}: 2\n")
        let keys = diagnostics.filter { $0.message.hasPrefix("a key in placement \"a\" must be a plain word") }
        #expect(keys.map(\.range.start) == [SourcePosition(line: 5, column: 7), SourcePosition(line: 7, column: 5)])
    }

    @Test func yamlFindingsInsideSkippedValuesAreStillReported() {
        // The unknown key's value and the repeated key's value are never decoded, but the YAML rules see them.
        let yaml = Self.header + "  a:\n    format: banner\n    colour: !!map {x: &n 1, y: {z: 1, z: 2}}\n    format: *n\n"
        let rules = lint(yaml).map(\.rule)
        #expect(rules.filter { $0 == "yaml/alias" }.count == 2)
        #expect(rules.filter { $0 == "yaml/duplicate-key" }.count == 2)
        #expect(rules.contains("yaml/tag"))
        #expect(rules.contains("schema/unknown-key"))
    }

    @Test func aSyntaxErrorLateInTheFileLeavesOnlyItself() {
        var yaml = Self.header
        for i in 0..<200 { yaml += "  p\(i): {format: interstitial, daily_cap: -\(i)}\n" }
        yaml += "  broken: [\n"
        let diagnostics = lint(yaml)
        #expect(diagnostics.map(\.rule) == ["yaml/syntax"])
    }

    @Test func aSecondDocumentKeepsTheFirstOnesFindings() throws {
        let yaml = Self.header + "  a: {format: banner, daily_cap: x}\n---\nversion: 1\n"
        let load = PolicyLoader.load(texts: [("t.yaml", yaml)])
        #expect(load.diagnostics.map(\.rule) == ["schema/type", "yaml/multiple-documents"])
        #expect(load.policy.placement("a") != nil)
    }

    /// A trailing `---` (nothing but comments and `...` after it) starts an empty document: still a second document,
    /// but there is nothing to move to a file of its own, and the message says to remove it.
    @Test func aTrailingDocumentMarkerIsSaidToBeEmpty() throws {
        let body = Self.header + "  a: {format: banner}\n"
        // Letters of several bytes before it, and a lone CR (a break libyaml counts), leave it found.
        for tail in ["---\n", "---", "--- # end\n\n# more\n...\n", "---\r\n", "# é 日本 ü\r---\n", "---\r...\r"] {
            let found = try #require(lint(body + tail).first { $0.rule == "yaml/multiple-documents" }, "\(tail.debugDescription)")
            #expect(found.message == "a file holds one YAML document: this `---` starts an empty second one, with nothing after it; remove it", "\(tail.debugDescription)")
        }
        // Content after a comment on the marker's line, in a file whose lines end in a lone CR, is content.
        for tail in ["---\nversion: 1\n", "--- x\n", "---\n# c\n..x\n", "--- # end\rplacements:\r  b: {format: banner}\r"] {
            let found = lint(body + tail).first { $0.rule == "yaml/multiple-documents" }
            #expect(found?.message == "a file holds one YAML document: remove this `---` and move the rest into its own file", "\(tail.debugDescription)")
        }
    }

    @Test func emptyAndScalarFiles() {
        // Lint prints every diagnostic (cli.md): an empty file has no version, and its policy no placements.
        #expect(lint("").map(\.rule).sorted() == ["policy/empty", "schema/missing-key"])
        #expect(lint("# nothing\n").map(\.rule).sorted() == ["policy/empty", "schema/missing-key"])
        #expect(lint("version: 1\n").map(\.rule) == ["policy/empty"])
        // The policy's warning stands at the first file's `version:`, so a comment above it hides it (at line 1,
        // column 1, as it was, no comment could stand on the line before).
        #expect(lint("# a policy kept empty on purpose\nversion: 1\n").map { "\($0.range.start.line):\($0.range.start.column)" } == ["2:1"])
        #expect(lint("# adrules:disable-next-line policy/empty\nversion: 1\n").isEmpty)
        #expect(lint("[1, 2]\n").map(\.message).contains("a rule file must be a mapping of keys to values, not a list: write key: value pairs, one a line, or {key: value}"))
        // A file that is not a mapping was not read: "no placements" would only follow from it (cli.md r2's rule for a
        // syntax error). Its own findings stand.
        #expect(lint("- a\n- b\n").map(\.rule) == ["schema/type"])
        #expect(lint("just text\n").map(\.rule) == ["schema/type"])
        // An empty first document is an empty file: it has no version (and the second document is one too many).
        #expect(lint("---\n---\nversion: 1\n").map(\.rule).sorted() == ["schema/missing-key", "yaml/multiple-documents"])
        // What follows a second document is still parsed: a syntax error there is reported, alone (cli.md r2).
        let second = "version: 1\nplacements:\n  p:\n    format: interstitial\n    daily_cap: six\n---\nversion: 1\n"
        #expect(lint(second).map(\.rule).sorted() == ["schema/type", "yaml/multiple-documents"])
        let broken = lint(second + "placements: {\n")
        #expect(broken.map(\.rule) == ["yaml/syntax"])
        #expect(broken.first.map { "\($0.range.start.line):\($0.range.start.column)" } == "9:1")
    }

    /// The check of what follows a second document ends where a read would: nesting past 100 (libyaml took 42 s over
    /// 100,000 `[`, its time growing with the square of the depth).
    @Test(.timeLimit(.minutes(1))) func aDeepSecondDocumentEndsTheCheck() {
        let text = "version: 1\nplacements:\n  a: {format: banner}\n---\n" + String(repeating: "[", count: 100_000)
        #expect(lint(text).map(\.rule) == ["yaml/multiple-documents"])
    }

    @Test func locationsShareTheirFileAndReadAsBefore() throws {
        let load = PolicyLoader.load(texts: [("rules/a.yaml", Self.header + "  a:\n    format: interstitial\n    daily_cap: 6\n")])
        let placement = try #require(load.policy.placement("a"))
        #expect(placement.dailyCap?.location.description == "rules/a.yaml:5:16")
        #expect(placement.location == SourceLocation(file: "rules/a.yaml", line: 3, column: 3))
        // A default inherits the placement's location.
        #expect(placement.enabled.location == placement.location)
    }

    @Test func sourceLocationKeepsItsPublicShape() throws {
        var location = SourceLocation(file: "x.yaml", line: 7, column: 16)
        #expect(location.description == "x.yaml:7:16")
        let json = try JSONEncoder().encode(location)
        let object = try JSONSerialization.jsonObject(with: json) as? [String: Any]
        #expect(object?["file"] as? String == "x.yaml")
        #expect(object?["line"] as? Int == 7)
        #expect(object?["column"] as? Int == 16)
        #expect(try JSONDecoder().decode(SourceLocation.self, from: json) == location)
        #expect(Set([location, SourceLocation(file: "x.yaml", line: 7, column: 16)]).count == 1)
        location.file = "y.yaml"
        location.line = 8
        #expect(location.description == "y.yaml:8:16")
        #expect(SourceLocation(file: "z", line: -3, column: Int.max).line == 0)
    }

    private func policyIgnoringErrors(_ yaml: String) throws -> Policy {
        PolicyLoader.load(texts: [("t.yaml", yaml)]).policy
    }
}
