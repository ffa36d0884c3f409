import AdRules
import AdRulesCompiler
import AdRulesTestSupport
import AdRulesYAML
import Foundation
import Testing

@testable import AdRulesCLI

/// Tests for gaps a mutation audit of the CLI's argument parsing, reporters and exit codes found: each pins what
/// cli.md, the README or docs/limits.md say, where no other test told the code apart from a near miss of it.
@Suite("adrules CLI: what mutation testing found unchecked")
struct CLIMutationGapTests {
    /// A rule file with one `yaml/duplicate-key` finding (line 5, column 5) and its note (line 4, column 5).
    static let duplicateKey = "version: 1\nplacements:\n  c:\n    format: banner\n    format: native\n"

    // MARK: Arguments

    /// cli.md: `simulate SCENARIO` takes one scenario and `schema` no path. A word past them is a usage error, not a
    /// path silently left unread.
    @Test func aCommandTakesNoMorePathsThanItsUsageNames() {
        let schema = runCLI(["schema", "extra"])
        #expect(schema.exitCode == ExitCode.usage)
        #expect(schema.stderr.hasPrefix("error: unexpected argument \"extra\"\n"), "\(schema.stderr)")
        #expect(schema.stdout.isEmpty)
        let simulate = runCLI(["simulate", "FIXTURES/scenarios/pass.test.yaml", "FIXTURES/failing/fail.test.yaml"])
        #expect(simulate.exitCode == ExitCode.usage)
        #expect(simulate.stderr.hasPrefix("error: unexpected argument \"FIXTURES/failing/fail.test.yaml\"\n"), "\(simulate.stderr)")
        #expect(simulate.stdout.isEmpty)
    }

    /// README: `--` ends the options: every word after it is a path, even one that starts with `-` (a rule file named
    /// `-p.yaml`, and a word that reads as a flag).
    @Test func aDoubleDashEndsTheOptions() throws {
        let dir = try temporaryDirectory("adrules-dashes", ["-p.yaml": "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m, daily_cap: six}\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let linted = try runBinary(["lint", "--", "-p.yaml"], directory: dir)
        #expect(linted.code == ExitCode.findings, "\(linted.stderr)")
        #expect(linted.stdout == "-p.yaml:3:58: error: daily_cap must be a whole number >= 0, not \"six\" (schema/type)\n", "\(linted.stdout)")
        let unended = try runBinary(["lint", "-p.yaml"], directory: dir)
        #expect(unended.code == ExitCode.usage)
        #expect(unended.stderr.hasPrefix("error: unexpected argument \"-p.yaml\"\n"), "\(unended.stderr)")
        // `--strict` after `--` is a path (none there: exit 3), not the flag (which would fail on findings: exit 1).
        let flagAsPath = try runBinary(["lint", "--", "-p.yaml", "--strict"], directory: dir)
        #expect(flagAsPath.code == ExitCode.failure, "\(flagAsPath.stderr)")
        #expect(flagAsPath.stderr.contains("--strict"), "\(flagAsPath.stderr)")
    }

    /// cli.md: an unknown option is a usage error. A word of one dash and more than one letter is no short option,
    /// even when it ends in one (`-xq`, `-no` would otherwise be `-q` and `-o`).
    @Test func aDashWordOfSeveralLettersIsNoShortOption() {
        for word in ["-xq", "-no"] {
            let result = runCLI(["lint", word, "FIXTURES/bad.yaml"])
            #expect(result.exitCode == ExitCode.usage, "\(word)")
            #expect(result.stderr.hasPrefix("error: unexpected argument \"\(word)\"\n"), "\(result.stderr)")
            #expect(result.stdout.isEmpty, "\(word)")
        }
    }

    /// A flag takes no value: `--strict=no` is a usage error, not `--strict` (which would fail a run on warnings).
    @Test func aFlagGivenAValueIsAUsageError() {
        for argument in ["--strict=no", "--quiet=yes"] {
            let result = runCLI(["lint", argument, "FIXTURES/zero-caps.yaml"])
            #expect(result.exitCode == ExitCode.usage, "\(argument)")
            #expect(result.stderr.hasPrefix("error: unexpected argument \"\(argument)\"\n"), "\(result.stderr)")
        }
    }

    // MARK: Colour and environment

    /// README: `--color auto` colours on a terminal. A report sent to `--output FILE` is not on one, though standard
    /// output is: the file gets no escape codes.
    @Test func colorAutoLeavesAReportWrittenToAFilePlain() throws {
        let path = scratchPath("adrules-color") + ".txt"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let terminal = CommandEnvironment(variables: [:], stdoutIsTerminal: true)
        let painted = AdRulesCommandLine.run(["lint", "--format", "text", fixtures + "/bad.yaml"], environment: terminal)
        #expect(painted.stdout.contains("\u{1B}[1;31merror\u{1B}[0m"), "the same run on the terminal is painted")
        let written = AdRulesCommandLine.run(["lint", "--format", "text", fixtures + "/bad.yaml", "--output", path], environment: terminal)
        #expect(written.exitCode == ExitCode.findings)
        let file = try String(contentsOfFile: path, encoding: .utf8)
        #expect(file.contains(": error: daily_cap must be a whole number"), "\(file)")
        #expect(!file.contains("\u{1B}"), "\(file)")
    }

    /// cli.md: under GitHub Actions (`GITHUB_ACTIONS=true`) lint defaults to `github`. Any other value is not GitHub
    /// Actions: the default stays `xcode`.
    @Test func onlyGitHubActionsTrueMakesGithubTheDefault() {
        let xcode = "FIXTURES/bad.yaml:5:16: error: daily_cap must be a whole number >= 0, not \"six\" (schema/type)\n"
        let github = "::error file=FIXTURES/bad.yaml,line=5,col=16,title=schema/type::daily_cap must be a whole number >= 0, not \"six\"\n"
        func firstLine(_ variables: [String: String]) -> String {
            let out = runCLI(["lint", "FIXTURES/bad.yaml"], variables: variables).stdout
            return (out.split(separator: "\n").first.map(String.init) ?? "") + "\n"
        }
        #expect(firstLine(["GITHUB_ACTIONS": "true"]) == github)
        #expect(firstLine(["GITHUB_ACTIONS": "false"]) == xcode)
        #expect(firstLine(["GITHUB_ACTIONS": ""]) == xcode)
        #expect(firstLine([:]) == xcode)
    }

    // MARK: Lint reports

    /// cli.md: `text` adds the source line and a caret. A finding whose range runs onto later lines (a list where a
    /// number goes) gets a caret at its start, not tildes measured from a column of another line, past the text shown.
    @Test func aFindingOverSeveralLinesGetsACaretAtItsStart() throws {
        let dir = try temporaryDirectory("adrules-caret", [
            "p.yaml": "version: 1\nplacements:\n  a:\n    format: interstitial\n    min_interval: 1m\n    daily_cap:\n      - 1\n      - 2345\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let json = try JSON.parse(runCLI(["lint", "--format", "json", dir]).stdout)
        let finding = json["diagnostics"]?.arrayValue?.first
        #expect(finding?["line"] == .int(7) && finding?["end_line"] == .int(8) && finding?["end_column"] == .int(13), "\(String(describing: finding))")
        let text = runCLI(["lint", "--format", "text", "--color", "never", dir]).stdout
        #expect(text == """
            \(dir)/p.yaml:7:7: error: daily_cap must be a whole number >= 0, not a list: write one whole number on the key's line, in digits, with no [ ] or `- ` (schema/type)
             7 |       - 1
               |       ^

            """, "\(text)")
    }

    /// cli.md: `json` lists each finding's `notes`; a note has its place as the xcode format prints it
    /// (`file:line:column: note:`), 1-based.
    @Test func aJSONNoteHasItsFileLineAndColumn() throws {
        let dir = try temporaryDirectory("adrules-json-note", ["p.yaml": Self.duplicateKey])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let xcode = runCLI(["lint", dir]).stdout
        #expect(xcode.contains("\(dir)/p.yaml:4:5: note: \"format\" is first defined here\n"), "\(xcode)")
        let json = try JSON.parse(runCLI(["lint", "--format", "json", dir]).stdout)
        let notes = json["diagnostics"]?.arrayValue?.first?["notes"]
        #expect(notes == .array([.object([
            ("file", .string(dir + "/p.yaml")), ("line", .int(4)), ("column", .int(5)), ("message", .string("\"format\" is first defined here")),
        ])]), "\(String(describing: notes))")
    }

    /// cli.md: `github` prints `::error file=…,line=…,col=…,title=RULE::message` with GitHub's escaping: the file is a
    /// property, whose `,` and `:` are escaped (`%2C`, `%3A`), or GitHub would end the file name there.
    @Test func githubEscapesTheFileAsAProperty() throws {
        let d = Diagnostic(.warning, rule: "cap/zero", message: "m", file: "rules/a,b:c.yaml", range: SourceRange(at: SourcePosition(line: 2, column: 3)))
        #expect(GitHubAnnotations.line(d) == "::warning file=rules/a%2Cb%3Ac.yaml,line=2,col=3,title=cap/zero::m\n")
        let dir = try temporaryDirectory("adrules-github-name", ["a,b:c.yaml": "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m, daily_cap: six}\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["lint", "--format", "github", dir])
        #expect(result.stdout == "::error file=\(dir)/a%2Cb%3Ac.yaml,line=3,col=58,title=schema/type::daily_cap must be a whole number >= 0, not \"six\"\n", "\(result.stdout)")
    }

    /// The `github` annotation carries a finding's notes as the xcode format does, each on a line of its own (a line
    /// break in the message, `%0A` with GitHub's escaping), and stays one line of output.
    @Test func githubPutsEachNoteOnALineOfTheAnnotation() throws {
        let dir = try temporaryDirectory("adrules-github-note", ["p.yaml": Self.duplicateKey])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["lint", "--format", "github", dir])
        #expect(result.stdout == "::error file=\(dir)/p.yaml,line=5,col=5,title=yaml/duplicate-key::key \"format\" is repeated in this mapping: keep one of them"
            + "%0A\(dir)/p.yaml:4:5: note: \"format\" is first defined here\n", "\(result.stdout)")
    }

    /// cli.md: `sarif` has regions. SARIF's `endColumn` is the column after the region: a finding at a point (libyaml's
    /// position of a syntax error, and its note) covers the character there, not an empty region that code scanning
    /// underlines nowhere.
    @Test func aSARIFRegionOfAPointCoversOneCharacter() throws {
        let dir = try temporaryDirectory("adrules-sarif-point", ["p.yaml": "version: 1\nplacements:\n  a: {format: interstitial\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let json = try JSON.parse(runCLI(["lint", "--format", "json", dir]).stdout)
        let finding = json["diagnostics"]?.arrayValue?.first
        #expect(finding?["rule"] == .string("yaml/syntax") && finding?["line"] == .int(4) && finding?["column"] == .int(1) && finding?["end_column"] == .int(1))
        let sarif = try JSON.parse(runCLI(["lint", "--format", "sarif", dir]).stdout)
        let result = sarif["runs"]?.arrayValue?.first?["results"]?.arrayValue?.first
        let region = result?["locations"]?.arrayValue?.first?["physicalLocation"]?["region"]
        #expect(region == .object([("startLine", .int(4)), ("startColumn", .int(1)), ("endLine", .int(4)), ("endColumn", .int(2))]), "\(String(describing: region))")
        let noteRegion = result?["relatedLocations"]?.arrayValue?.first?["physicalLocation"]?["region"]
        #expect(noteRegion == .object([("startLine", .int(3)), ("startColumn", .int(6)), ("endLine", .int(3)), ("endColumn", .int(7))]), "\(String(describing: noteRegion))")
    }

    /// Every control character is written `\uXXXX` in json (JSON.swift: "C0, DEL, C1 …, never a raw one in a terminal
    /// or a log"): DEL (0x7F) too, which the printable-ASCII fast path must not let through; `~` (0x7E) is text.
    @Test func jsonWritesDELAsAnEscape() {
        #expect(JSON.string("a\u{7F}b").rendered() == "\"a\\u007fb\"")
        #expect(JSON.string("a~b").rendered() == "\"a~b\"")
        #expect(JSON.string("a\u{85}b").rendered() == "\"a\\u0085b\"")
    }

    // MARK: --output

    /// README: `--output` is never a `.yaml` file, and docs/limits.md: a symlink's file is the one written. A report
    /// named `out.json` that links to a YAML file (there or not yet) is refused before the run, and the file is left.
    @Test func anOutputLinkedToAYAMLFileIsRefused() throws {
        let dir = try temporaryDirectory("adrules-out-link", ["rules/p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n", "other/keep.yaml": "x: 1\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(symlink(dir + "/other/keep.yaml", dir + "/out.json") == 0)
        #expect(symlink(dir + "/other/new.yaml", dir + "/new.json") == 0)
        for output in ["out.json", "new.json"] {
            let result = runCLI(["lint", dir + "/rules", "--format", "json", "--output", dir + "/" + output])
            #expect(result.exitCode == ExitCode.usage, "\(output): \(result.stderr)")
            #expect(result.stderr.contains("would write a YAML file"), "\(result.stderr)")
        }
        #expect(try String(contentsOfFile: dir + "/other/keep.yaml", encoding: .utf8) == "x: 1\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/other/new.yaml"))
    }

    /// docs/limits.md: a file with another hard link is written in place. It then holds the report and nothing more: an
    /// earlier, longer report leaves no tail behind it.
    @Test func aReportWrittenInPlaceHoldsOnlyTheReport() throws {
        let dir = try temporaryDirectory("adrules-in-place", ["report.json": String(repeating: "old report\n", count: 2_000)])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(Glibc.link(dir + "/report.json", dir + "/second.json") == 0)
        let expected = runCLI(["lint", "FIXTURES/bad.yaml", "--format", "json"]).stdout
        let result = runCLI(["lint", "FIXTURES/bad.yaml", "--format", "json", "--output", dir + "/report.json"])
        #expect(result.exitCode == ExitCode.findings)
        let raw = try String(contentsOfFile: dir + "/report.json", encoding: .utf8)
        let written = raw.replacingOccurrences(of: fixtures, with: "FIXTURES")
        #expect(written == expected, "\(written.suffix(200))")
        #expect(try String(contentsOfFile: dir + "/second.json", encoding: .utf8) == raw, "written in place: both names hold it")
    }

    // MARK: test

    /// cli.md: `test` takes `--format text` (the default) or `json`. Asked for by name, text is the text report.
    @Test func testFormatTextIsTheTextReport() {
        let plain = runCLI(["test", "FIXTURES/failing"])
        let text = runCLI(["test", "FIXTURES/failing", "--format", "text"])
        #expect(text.exitCode == ExitCode.findings)
        #expect(text.stdout == plain.stdout)
        #expect(text.stdout.hasPrefix("PASS passes\nFAIL expects the wrong thing\n"), "\(text.stdout)")
        #expect(text.stdout.hasSuffix("\n1 passed, 1 failed\n"), "\(text.stdout)")
    }

    /// docs/limits.md: text lists 50 reasons a decision. Fifty codes are listed each; past 50, each distinct code once
    /// with its count.
    @Test func fiftyReasonCodesAreListedOneByOne() {
        let fifty = FailureReport.codeList(Array(repeating: .minInterval, count: 50))
        #expect(fifty == "[" + Array(repeating: "min_interval", count: 50).joined(separator: ", ") + "]")
        #expect(FailureReport.codeList(Array(repeating: .minInterval, count: 51)) == "[min_interval ×51]")
    }

    /// A clear time is null only past 9999-12-31T23:59:59.999Z, "the last a timestamp can write" (the json's note):
    /// that very millisecond is written.
    @Test func theLastWritableClearTimeIsWritten() {
        #expect(DecisionJSON.clearTime(Milliseconds.date(Timestamps.latest)) == .string("9999-12-31T23:59:59.999Z"))
        #expect(DecisionJSON.clearTime(Milliseconds.date(Timestamps.latest + 1)) == .null)
    }
}
