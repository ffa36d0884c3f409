import AdRulesCompiler
import AdRulesYAML
@testable import AdRulesCLI
import AdRulesTestSupport
import Foundation
import Testing

@Suite("adrules lint")
struct LintCommandTests {
    /// A report prints at most 10,000 diagnostics, then one that counts the rest; the summary and the exit code count
    /// every one (a policy of 1,000 files of 1,000 findings each printed 1,000,000 in 20 s and more). test prints a
    /// broken policy the same way.
    @Test func aRunPrintsTenThousandFindingsAndCountsTheRest() throws {
        let body = "version: 1\nplacements:\n" + (0..<1100).map { "  p\($0): {format: x}\n" }.joined()
        var files: [String: String] = [:]
        for k in 0..<11 { files["f\(k).yaml"] = body }
        files["a.test.yaml"] = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps: [{event: app_launched}]\n"
        let dir = try temporaryDirectory("adrules-many-findings", files)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["lint", dir])
        #expect(result.exitCode == 1)
        let lines = result.stdout.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(lines.count == 10_001, "\(lines.count)")
        // 11 files of 1,000 findings and one line counting each file's other 100: 11,011 lines, 1,011 not printed.
        #expect(lines.last?.hasSuffix("1011 more diagnostics are not printed (a report prints 10,000): fix the ones listed and run again (lint/too-many-findings)") == true, "\(lines.last ?? "")")
        // The summary counts findings, not lines: the first file has 1,100 (an unknown format a placement), each other one
        // 2,200 (its 1,100 placements are also defined in the first).
        #expect(result.stderr.hasPrefix("Found 23100 errors and 0 warnings in 11 files."), "\(result.stderr)")
        let test = runCLI(["test", dir])
        #expect(test.stdout.split(separator: "\n").filter { $0.contains(": error: ") }.count == 10_001, "\(test.stdout.suffix(300))")
    }

    /// Errors come first over the whole report, as in each file: an error in the last file is printed though the files
    /// before it hold more warnings than a report prints.
    @Test func anErrorIsNotHiddenBehindTheWarningsOfOtherFiles() throws {
        var files: [String: String] = [:]
        for k in 0..<11 {
            files["a\(k).yaml"] = "version: 1\nplacements:\n" + (0..<1000).map { "  f\(k)p\($0): {format: banner, daily_cap: 0}\n" }.joined()
        }
        files["z.yaml"] = "version: 1\nplacements:\n  zz: {format: bogus}\n"
        let dir = try temporaryDirectory("adrules-error-last", files)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["lint", dir])
        #expect(result.exitCode == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.contains { $0.contains("z.yaml:3:16: error: ") && $0.hasSuffix("(schema/enum)") }, "\(result.stdout.suffix(400))")
        #expect(lines.filter { $0.contains(": warning: ") && $0.hasSuffix("(cap/zero)") }.count == 9_999)
        // 11,000 warnings, 9,999 printed beside the error: the line counting the rest is a warning, at the first file
        // not printed in full.
        let last = try #require(lines.last)
        #expect(last.hasSuffix("warning: 1001 more diagnostics are not printed (a report prints 10,000): fix the ones listed and run again (lint/too-many-findings)"), "\(last)")
        // Files are read in name order (a0, a1, a10, a2 … a9): the 10,000th warning is a8.yaml's last.
        #expect(last.hasPrefix(dir + "/a8.yaml:1:1: "), "\(last)")
    }

    /// An earlier report reached through a symlink is emptied, not left as this run's: the link's file is the one a
    /// write replaces and the one a CI step reads (the link itself stays, as a write would leave it).
    @Test func anEarlierReportThroughASymlinkIsEmptied() throws {
        let dir = try temporaryDirectory("adrules-report-link", ["rules/a.yaml": "version: 1\nplacements:\n  a: {format: banner}\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let real = dir + "/real-report.json", link = dir + "/report.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        #expect(runCLI(["lint", dir + "/rules", "--format", "json", "-o", link]).exitCode == 0)
        #expect(try String(contentsOfFile: real, encoding: .utf8).contains("\"diagnostics\""))
        try FileManager.default.createSymbolicLink(atPath: dir + "/rules/b.yaml", withDestinationPath: dir + "/missing.yaml")
        let failed = runCLI(["lint", dir + "/rules", "--format", "json", "-o", link])
        #expect(failed.exitCode == 3, "\(failed.stderr)")
        #expect(failed.stderr.hasSuffix("note: emptied the earlier report at \(link): this run has none, and the old one would read as this run's\n"), "\(failed.stderr)")
        #expect((try? FileManager.default.attributesOfItem(atPath: real)[.size] as? Int) == 0)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == real)
    }

    @Test(arguments: ["xcode", "text", "json", "sarif", "github"])
    func reportersMatchTheirGoldenFiles(_ format: String) {
        let result = runCLI(["lint", "FIXTURES/bad.yaml", "--format", format])
        #expect(result.exitCode == 1)
        expectGolden(result.stdout, "lint.\(format).txt")
        #expect(result.stderr == "Found 6 errors and 1 warning in 1 file.\n")
    }

    /// A file saved with Windows or old Mac line endings shows the same source line and caret as with LF.
    @Test(arguments: ["\r\n", "\r"])
    func textShowsTheSourceLineWhateverTheLineBreaks(_ lineBreak: String) throws {
        let dir = scratchPath("adrules-breaks")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lines = ["version: 1", "placements:", "  a: {format: interstitial, daily_cap: six}"]
        try Data(lines.joined(separator: lineBreak).utf8).write(to: URL(fileURLWithPath: dir + "/p.yaml"))
        let result = runCLI(["lint", dir + "/p.yaml", "--format", "text"])
        #expect(result.stdout.contains("p.yaml:3:40: error:"))
        #expect(result.stdout.contains("  a: {format: interstitial, daily_cap: six}\n"))
        #expect(result.stdout.contains("^"))
    }

    /// A policy named twice, however it is written, is linted once; a file two policies hold (the file alone and its
    /// directory) is linted in each and counted once; a path that cannot be read is reported once, and then the run
    /// ends with why, not with a count.
    @Test func aPolicyNamedTwiceIsLintedOnce() throws {
        let dir = try temporaryDirectory("adrules-lint-twice", ["a.yaml": "version: 1\nplacements:\n  a: {format: interstitial}\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["lint", dir + "/a.yaml", dir + "/./a.yaml", dir, dir + "/"])
        #expect(result.exitCode == 0)
        // The file and the directory are two policies, each linted: the file's finding is reported once all the same.
        #expect(result.stdout.components(separatedBy: "(pacing/missing)").count - 1 == 1, "\(result.stdout)")
        #expect(result.stderr == "Found 0 errors and 1 warning in 1 file.\n", "\(result.stderr)")
        let respelt = dir + "/../" + (dir as NSString).lastPathComponent + "/a.yaml"
        #expect(runCLI(["lint", dir, respelt]).stderr == "Found 0 errors and 1 warning in 1 file.\n")
        // A file inside two of the paths (the directory and the file) is linted with each: its findings are reported once.
        let inside = runCLI(["lint", dir, dir + "/a.yaml", "--format", "sarif"])
        let sarif = try JSON.parse(inside.stdout)
        #expect(sarif["runs"]?.arrayValue?.first?["results"]?.arrayValue?.count == 1, "\(inside.stdout.prefix(600))")
        // And it is one artifact, however it was spelt: SARIF requires a run's artifacts to be unique.
        for second in [dir + "/a.yaml", respelt] {
            let report = try JSON.parse(runCLI(["lint", dir, second, "--format", "sarif"]).stdout)
            #expect(report["runs"]?.arrayValue?.first?["artifacts"]?.arrayValue?.count == 1, "\(second)")
        }
        let missing = runCLI(["lint", dir, dir + "/nope", dir + "/./nope/", dir + "/x/../nope"])
        #expect(missing.exitCode == 3)
        #expect(missing.stderr == "error: no such file or directory: \(dir)/nope\n", "\(missing.stderr)")
        #expect(missing.stdout.contains("(pacing/missing)"))
        // A json or SARIF run that could not read a path writes no document, and leaves no earlier one at --output.
        let report = dir + "/report.sarif"
        #expect(runCLI(["lint", dir, "--format", "sarif", "--output", report]).exitCode == 0)
        #expect(FileManager.default.fileExists(atPath: report))
        let failed = runCLI(["lint", dir, dir + "/nope", "--format", "sarif", "--output", report])
        #expect(failed.exitCode == 3 && !FileManager.default.fileExists(atPath: report), "\(failed.stderr)")
        #expect(failed.stderr.hasSuffix("note: removed the earlier report at \(report): this run has none, and the old one would read as this run's\n"))
        // So does a run stopped before it starts by an entry of its directory that cannot be opened (a dangling link).
        #expect(runCLI(["lint", dir, "--format", "sarif", "--output", report]).exitCode == 0)
        try FileManager.default.createSymbolicLink(atPath: dir + "/dangling.yaml", withDestinationPath: dir + "/nowhere.yaml")
        let dangling = runCLI(["lint", dir, "--format", "sarif", "--output", report])
        #expect(dangling.exitCode == 3 && !FileManager.default.fileExists(atPath: report), "\(dangling.stderr)")
        #expect(dangling.stderr.contains("note: removed the earlier report"), "\(dangling.stderr)")
        // The error names the entry as the command line spells the directory (cli.md: paths are as given), as it does
        // with no earlier report to check.
        let spelt = dir + "/../" + (dir as NSString).lastPathComponent
        try "an earlier file".write(toFile: report, atomically: false, encoding: .utf8)
        for output in [report, dir + "/none.sarif"] {
            let named = runCLI(["lint", spelt, "--format", "sarif", "--output", output])
            #expect(named.exitCode == 3 && named.stderr.hasPrefix("error: cannot read \(spelt)/dangling.yaml: "), "\(named.stderr)")
        }
        try FileManager.default.removeItem(atPath: report)
        try FileManager.default.removeItem(atPath: dir + "/dangling.yaml")
        // Any other file at --output is the user's, left as it is (a report of the other format too).
        try "keep".write(toFile: report, atomically: false, encoding: .utf8)
        #expect(runCLI(["lint", dir + "/nope", "--format", "sarif", "--output", report]).exitCode == 3)
        #expect(try String(contentsOfFile: report, encoding: .utf8) == "keep")
        #expect(runCLI(["lint", dir, "--format", "json", "--output", report]).exitCode == 0)
        #expect(runCLI(["lint", dir + "/nope", "--format", "sarif", "--output", report]).exitCode == 3)
        #expect(FileManager.default.fileExists(atPath: report))
        // `-` is standard output: a file named `-` is no report.
        let dash = dir + "/-"
        try "precious".write(toFile: dash, atomically: false, encoding: .utf8)
        #expect(try runBinary(["lint", "nope", "--format", "json", "--output", "-"], directory: dir).code == 3)
        #expect(FileManager.default.fileExists(atPath: dash))
    }

    @Test func githubIsTheDefaultUnderGitHubActions() {
        let result = runCLI(["lint", "FIXTURES/bad.yaml"], variables: ["GITHUB_ACTIONS": "true"])
        #expect(result.stdout.hasPrefix("::error file="))
    }

    /// The other commands report a policy's findings as lint does (cli.md): as annotations under GitHub Actions, so
    /// that a pull request shows them at their line whichever command stopped.
    @Test func everyCommandAnnotatesAPolicysFindingsUnderGitHubActions() throws {
        let dir = try temporaryDirectory("adrules-gha", [
            "rules/p.yaml": "version: 1\nplacements:\n  a: {format: interstitial, daily_cap: six}\n",
            "m.model.yaml": "version: 1\nusers: 2\ndays: 1\nsegments:\n  - name: s\n    share: 1\n",
            "rules/a.test.yaml": "tests:\n  - name: t\n    steps:\n      - event: app_launched\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let runs = [
            ["test", dir + "/rules"], ["simulate", dir + "/rules/a.test.yaml"], ["compile", dir + "/rules"],
            ["impact", dir + "/m.model.yaml", "--rules", dir + "/rules"],
        ]
        for arguments in runs {
            let annotated = runCLI(arguments, variables: ["GITHUB_ACTIONS": "true"])
            #expect(annotated.exitCode == 1, "\(arguments)")
            #expect((annotated.stdout + annotated.stderr).contains("::error file=\(dir)/rules/p.yaml,line=3,col="), "\(arguments): \(annotated.stdout)\(annotated.stderr)")
            let plain = runCLI(arguments)
            #expect((plain.stdout + plain.stderr).contains("\(dir)/rules/p.yaml:3:"), "\(arguments)")
            #expect(!(plain.stdout + plain.stderr).contains("::error"), "\(arguments)")
        }
    }

    /// A file's lines are found by their number, as positions count them (LF, CR LF, CR), without an array of every
    /// line: a 16 MB rule file of empty lines with a finding at its end took 610 MB with `--format text` (16 million
    /// substrings), against 60 MB in the other formats.
    @Test func sourceLinesSplitAsPositionsCountLines() {
        for text in ["", "a", "a\n", "a\nb", "a\r\nb\rc\n\nd", "\r\r\n\n\r", "é\r\n広告\rx", "\u{FEFF}v: 1\r\n", "a\r"] {
            let lines = SourceLines(text)
            let expected = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
            #expect((0..<expected.count).map { lines.line($0).map(String.init) } == expected.map(String.init), "\(Array(text.unicodeScalars))")
            #expect(lines.line(expected.count) == nil && lines.line(-1) == nil)
        }
    }

    @Test(arguments: ["\n", "\r\n", "\r"]) func aFindingPastManyEmptyLinesShowsItsLine(_ lineBreak: String) throws {
        let dir = try temporaryDirectory("adrules-empty-lines", [
            "p.yaml": "version: 1" + String(repeating: lineBreak, count: 200_000) + "placements: {a: {format: banner, daily_cap: six}}" + lineBreak,
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lines = runCLI(["lint", dir + "/p.yaml", "--format", "text"]).stdout.split(separator: "\n").map(String.init)
        try #require(lines.count >= 3, "\(lines)")
        #expect(lines[0].hasSuffix("p.yaml:200001:45: error: daily_cap must be a whole number >= 0, not \"six\" (schema/type)"), "\(lines)")
        #expect(lines[1] == " 200001 | placements: {a: {format: banner, daily_cap: six}}", "\(lines)")
    }

    /// The caret stands under the value when the line shows an escaped character before it (a RIGHT-TO-LEFT OVERRIDE
    /// is printed as `\u{202E}`, eight columns); a byte-order mark opening the file is no column and is not printed.
    @Test func theCaretFollowsEscapedCharacters() throws {
        let dir = try temporaryDirectory("adrules-caret", [
            "p.yaml": "\u{FEFF}version: x\nplacements:\n  a: {format: banner, ad_unit: \"\u{202E}u\", daily_cap: six}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lines = runCLI(["lint", dir, "--format", "text"]).stdout.split(separator: "\n").map(String.init)
        func caretColumn(_ line: String) -> Int? { line.firstIndex(of: "^").map { line.distance(from: line.startIndex, to: $0) } }
        func column(of text: String, in line: String) -> Int? { line.range(of: text).map { line.distance(from: line.startIndex, to: $0.lowerBound) } }
        let version = try #require(lines.firstIndex { $0.hasSuffix("| version: x") }, "\(lines)")
        #expect(caretColumn(lines[version + 1]) == column(of: "x", in: lines[version]), "\(lines)")
        let cap = try #require(lines.firstIndex { $0.contains("not \"six\"") }, "\(lines)") + 1
        #expect(lines[cap].contains("ad_unit: \"\\u{202E}u\""), "\(lines)")
        #expect(caretColumn(lines[cap + 1]) == column(of: "six", in: lines[cap]), "\(lines)")
        #expect(!lines.joined().contains("FEFF"), "\(lines)")
    }

    /// A terminal prints Chinese, Japanese and Korean characters and emoji in two columns: the caret and its tildes
    /// count them so, to stand under the value.
    @Test func theCaretCountsWideCharactersAsTwoColumns() throws {
        let dir = try temporaryDirectory("adrules-wide", [
            "p.yaml": "version: 1\nplacements:\n  a: {format: banner, ad_unit: \"広告🎉\", daily_cap: six}\n  広告: {format: banner}\n",
            "flag.yaml": "version: 1\nplacements:\n  b: {format: banner, ad_unit: \"\u{1F1EF}\u{1F1F5}\", daily_cap: six}\n",
            "long.yaml": "version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - {id: r, deny: [a], message: \""
                + String(repeating: "広告を表示しません。", count: 8) + "\", when: premium == tru}\n",
            "escaped.yaml": "version: 1\nplacements:\n  \"広\u{202E}b\": {format: banner}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lines = runCLI(["lint", dir + "/p.yaml", "--format", "text"]).stdout.split(separator: "\n").map(String.init)
        try #require(lines.count >= 6)
        // Three wide characters before `six` (広, 告, 🎉), each one column more than it counts as.
        let beforeSix = "  a: {format: banner, ad_unit: \"広告🎉\", daily_cap: ".count + 3
        #expect(lines[2] == "   | " + String(repeating: " ", count: beforeSix) + "^~~", "\(lines)")
        // The invalid id 広告 is two characters wide each: four columns of caret and tildes.
        #expect(lines[5] == "   |   ^~~~", "\(lines)")
        // A flag is two code points (two columns of the position) printed in two columns.
        let flag = runCLI(["lint", dir + "/flag.yaml", "--format", "text"]).stdout.split(separator: "\n").map(String.init)
        try #require(flag.count >= 3)
        #expect(flag[2] == "   | " + String(repeating: " ", count: "  b: {format: banner, ad_unit: \"".count + 2 + "\", daily_cap: ".count) + "^~~", "\(flag)")
        // A long line is cut around the column by code points: the window holds the value, past 80 wide characters.
        let japanese = String(repeating: "広告を表示しません。", count: 8)
        let long = runCLI(["lint", dir + "/long.yaml", "--format", "text"]).stdout.split(separator: "\n").map(String.init)
        try #require(long.count >= 3)
        let source = try #require(long[1].range(of: "tru}"), "\(long)")
        let caret = try #require(long[2].firstIndex(of: "^"), "\(long)")
        #expect(TerminalWidth.of(long[1][..<source.lowerBound]) == long[2].distance(from: long[2].startIndex, to: caret), "\(long)")
        #expect(long[1].contains("…") && !long[1].contains(japanese) && !long[1].contains("\u{FFFD}"), "\(long)")
        // The tildes span an escaped control character as printed: `"広\u{202E}b"` is 1 + 2 + 8 + 1 + 1 columns.
        let escaped = runCLI(["lint", dir + "/escaped.yaml", "--format", "text"]).stdout.split(separator: "\n").map(String.init)
        try #require(escaped.count >= 3)
        #expect(escaped[2] == "   |   ^" + String(repeating: "~", count: 13 - 1), "\(escaped)")
        // Marks and zero-width characters add nothing; an emoji selector makes a symbol a picture, a text-style
        // emoji stays one column, a soft hyphen is printed.
        #expect(TerminalWidth.of("e\u{301}" as Character) == 1 && TerminalWidth.of("\u{200B}" as Character) == 0 && TerminalWidth.of("\u{2764}\u{FE0F}" as Character) == 2)
        #expect(TerminalWidth.of("\u{1F1EF}\u{1F1F5}" as Character) == 2 && TerminalWidth.of("👩\u{200D}💻" as Character) == 2)
        #expect(TerminalWidth.of("\u{1F5A5}" as Character) == 1 && TerminalWidth.of("\u{00AD}" as Character) == 1 && TerminalWidth.of("\u{4DC0}" as Character) == 2)
        // Wide without being emoji: squared kanji, Kana Extended-B, the Tangut supplement; ambiguous, so one: circled
        // numbers on black squares.
        #expect(TerminalWidth.of("\u{1F210}\u{1F200}\u{1F23B}" as Substring) == 6 && TerminalWidth.of("\u{1AFF0}\u{18D00}" as Substring) == 4)
        #expect(TerminalWidth.of("\u{3248}\u{324F}" as Substring) == 2 && TerminalWidth.of("\u{3247}\u{3250}" as Substring) == 4)
        #expect(TerminalWidth.of("ｶﾀｶﾅ" as Substring) == 4 && TerminalWidth.of("ＡＢ" as Substring) == 4 && TerminalWidth.of("한국어" as Substring) == 6)
    }

    /// Two files whose names print alike once escaped (a tab, and a backslash and a `t`) are two files: the positions
    /// found on one's long line were used on the other's, which stopped the process ("String index is out of bounds")
    /// or put the excerpt and caret elsewhere.
    @Test func filesNamedAlikeOnceEscapedKeepTheirOwnLines() throws {
        func policy(_ id: String, _ filler: String) -> String {
            "version: 1\nplacements:\n  \(id): {format: interstitial, ad_unit: \"" + String(repeating: filler, count: 4_090) + "\", daily_cap: six}\n"
        }
        let dir = try temporaryDirectory("adrules-alike", ["a\tb.yaml": policy("p", "😀"), "a\\tb.yaml": policy("q", "a")])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["lint", "--format", "text", dir])
        #expect(result.exitCode == 1, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let excerpts = lines.indices.filter { lines[$0].hasPrefix(" 3 | ") }
        #expect(excerpts.count == 2, "\(result.stdout.prefix(2_000))")
        for i in excerpts where i + 1 < lines.count {
            // The caret stands under `six` in each file's own excerpt.
            let source = try #require(lines[i].range(of: "six}"), "\(lines[i])")
            let caret = try #require(lines[i + 1].firstIndex(of: "^"), "\(lines[i + 1])")
            #expect(TerminalWidth.of(lines[i][..<source.lowerBound]) == lines[i + 1].distance(from: lines[i + 1].startIndex, to: caret), "\(lines[i])\n\(lines[i + 1])")
        }
    }

    /// A compiled policy's json counts lines at LF and CR only, and may hold a LINE SEPARATOR, PARAGRAPH SEPARATOR or
    /// NEL in a string: the excerpt is the line the position names (it was split at those too, and showed another).
    @Test func aJSONExcerptIsTheLineItsPositionNames() throws {
        let dir = try temporaryDirectory("adrules-json-lines", [
            "ls.json": "{\"generator\": \"x\u{2028}y\u{0085}z\",\n \"format\": 7}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["lint", "--format", "text", dir + "/ls.json"])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count >= 3, "\(result.stdout)\(result.stderr)")
        #expect(lines[0].contains("ls.json:2:"), "\(lines)")
        #expect(lines[1] == " 2 |  \"format\": 7}", "\(lines)")
    }

    /// A value quoted in a message is printed with its control characters escaped in json and SARIF as in the terminal
    /// formats: a `schema/type` message carried a value's ESC and RIGHT-TO-LEFT OVERRIDE raw, a `schema/enum` one escaped.
    @Test func machineFormatsEscapeControlCharactersInMessages() throws {
        let dir = try temporaryDirectory("adrules-json-escapes", [
            "p.yaml": "version: 1\nplacements:\n  p:\n    format: \"inter\\e[31m\\u202Estitial\"\n    daily_cap: \"si\\e[31mx\\u202E\"\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for format in ["json", "sarif"] {
            let result = runCLI(["lint", "--format", format, dir + "/p.yaml"])
            #expect(result.exitCode == 1)
            #expect(!result.stdout.unicodeScalars.contains("\u{202E}") && !result.stdout.contains("\\u001b"), "\(format): \(result.stdout.suffix(800))")
            #expect(result.stdout.contains("not \\\"si\\\\u{1B}[31mx\\\\u{202E}\\\"") && result.stdout.contains("not \\\"inter\\\\u{1B}[31m\\\\u{202E}stitial\\\""), "\(format)")
        }
    }

    @Test func githubEscapesMessagesAndProperties() {
        #expect(GitHubAnnotations.escapeData("50% a\r\nb") == "50%25 a%0D%0Ab")
        #expect(GitHubAnnotations.escapeProperty("a:b,c%") == "a%3Ab%2Cc%25")
        // A line break in a file name is escaped as GitHub reads it back (%0A), so the annotation names the file; other
        // control characters are made visible, and the command stays one line.
        let d = Diagnostic(.error, rule: "schema/type", message: "m", file: "fn/a\nb\u{1B}[31m.yaml", range: SourceRange(at: SourcePosition(line: 2, column: 3)))
        #expect(GitHubAnnotations.line(d) == "::error file=fn/a%0Ab\\u{1B}[31m.yaml,line=2,col=3,title=schema/type::m\n")
    }

    @Test func sarifHasWhatCodeScanningRequires() throws {
        let result = runCLI(["lint", "FIXTURES/bad.yaml", "--format", "sarif"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["version"] as? String == "2.1.0")
        #expect((object["$schema"] as? String)?.contains("sarif") == true)
        let run = try #require((object["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "adrules")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.allSatisfy { $0["id"] is String && ($0["shortDescription"] as? [String: Any])?["text"] is String && ($0["help"] as? [String: Any])?["text"] is String })
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 7)
        for r in results {
            #expect(r["ruleId"] is String)
            #expect((r["message"] as? [String: Any])?["text"] is String)
            let location = try #require((r["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
            #expect((location["artifactLocation"] as? [String: Any])?["uri"] is String)
            let region = try #require(location["region"] as? [String: Any])
            for key in ["startLine", "startColumn", "endLine", "endColumn"] { #expect(region[key] is Int, "\(key)") }
            #expect((r["partialFingerprints"] as? [String: Any])?["primaryLocationLineHash"] is String)
        }
    }

    /// A relative path is relative to `%SRCROOT%`, which names no directory of this machine; an absolute path is
    /// a `file://` URI of its own.
    @Test func sarifPathsAreRelativeToTheCheckoutOrAbsolute() {
        let relative = SARIFReport.artifactLocation("rules/a b.yaml").rendered(pretty: false)
        #expect(relative.contains("\"uri\":\"rules/a%20b.yaml\"") && relative.contains("\"uriBaseId\":\"%SRCROOT%\""), "\(relative)")
        let absolute = SARIFReport.artifactLocation("/tmp/rules/a.yaml").rendered(pretty: false)
        #expect(absolute.contains("\"uri\":\"file:///tmp/rules/a.yaml\"") && !absolute.contains("uriBaseId"), "\(absolute)")
        let report = runCLI(["lint", "FIXTURES/bad.yaml", "--format", "sarif"]).stdout
        #expect(!report.contains("\"file:///\""), "no base URI of this machine's root")
    }

    /// A note (where a duplicate was first defined) is a related location the result's message links to, as code
    /// scanning shows only linked ones; the message's own brackets are escaped beside the link.
    @Test func sarifMessagesLinkTheirNotes() throws {
        let dir = try temporaryDirectory("adrules-sarif-notes", ["a.yaml": "version: 1\nplacements:\n  p:\n    format: interstitial\n    format: banner\n    min_interval: 1m\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = runCLI(["lint", dir, "--format", "sarif"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let results = try #require(((object["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        let duplicate = try #require(results.first { $0["ruleId"] as? String == "yaml/duplicate-key" })
        let text = try #require((duplicate["message"] as? [String: Any])?["text"] as? String)
        let related = try #require(duplicate["relatedLocations"] as? [[String: Any]])
        let note = try #require((related.first?["message"] as? [String: Any])?["text"] as? String)
        #expect(related.first?["id"] as? Int == 1)
        #expect(text.hasSuffix("([\(note)](1))"), "\(text)")
        let withBrackets = Diagnostic(.error, rule: "yaml/duplicate-key", message: "a [b]", file: "a.yaml", range: SourceRange(at: SourcePosition(line: 1, column: 1)),
                                      notes: [DiagnosticNote(message: "first [here]", file: "a.yaml", position: SourcePosition(line: 1, column: 1))])
        #expect(SARIFReport.message(withBrackets) == #"a \[b\] ([first \[here\]](1))"#)
    }

    /// One file is one URI however its path was spelt: a relative URI never starts with `/`, which would name the root;
    /// `..` is kept, which a symbolic link before it would make name another file.
    @Test(arguments: [
        (".//a.yaml", "a.yaml"), ("rules//a.yaml", "rules/a.yaml"), ("rules/./a.yaml", "rules/a.yaml"), ("./rules/../rules/a.yaml", "rules/../rules/a.yaml"),
        ("../other/a.yaml", "../other/a.yaml"), ("/tmp//x/./a.yaml", "/tmp/x/a.yaml"), (".", "."), ("./", "."),
    ])
    func sarifURIsAreNormalized(_ path: String, _ expected: String) {
        #expect(SARIFReport.normalized(path) == expected)
    }

    /// A relative path is given to code scanning as the file it names, through links and `..`, relative to where
    /// adrules ran: a URI reader would resolve `link/../a.yaml` by its text alone.
    @Test func sarifPathsNameTheFileThroughLinks() throws {
        let base = try temporaryDirectory("adrules-sarif-links", ["real/a.yaml": "version: 1\n", "real/sub/b.yaml": "version: 1\n"])
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createSymbolicLink(atPath: base + "/link", withDestinationPath: base + "/real/sub")
        #expect(SARIFReport.resolved("link/../a.yaml", in: base) == "real/a.yaml")
        #expect(SARIFReport.resolved("real/sub/../a.yaml", in: base) == "real/a.yaml")
        #expect(SARIFReport.resolved(".//real/./a.yaml", in: base) == "real/a.yaml")
        #expect(SARIFReport.resolved("../elsewhere.yaml", in: base) == "../elsewhere.yaml", "a file that is not there keeps its path")
        let outside = try #require(PolicyLoader.realPath(base + "/real/a.yaml"))
        #expect(SARIFReport.resolved("../a.yaml", in: base + "/real/sub") == outside, "a file outside is named by its absolute path")
        // A finding in a file reached through a link is fingerprinted by the name its URI gives.
        try FileManager.default.createSymbolicLink(atPath: base + "/current.yaml", withDestinationPath: base + "/real/a.yaml")
        func finding(in file: String) -> Diagnostic { Diagnostic(.error, rule: "schema/type", message: "m", file: file, range: SourceRange(at: SourcePosition(line: 1, column: 1))) }
        #expect(SARIFReport.fingerprint(finding(in: "current.yaml"), in: base) == SARIFReport.fingerprint(finding(in: "real/a.yaml"), in: base))
        #expect(SARIFReport.fingerprint(finding(in: "real/a.yaml"), in: base) != SARIFReport.fingerprint(finding(in: "real/sub/b.yaml"), in: base))
    }

    /// A finding that names a place in another file (a placement's first definition) keeps its fingerprint when lines
    /// are added to that file: code scanning would otherwise close the alert and open a new one.
    @Test func sarifFingerprintsIgnoreThePlacesAMessageNames() throws {
        let placement = "placements:\n  lv: {format: native}\n"
        let dir = try temporaryDirectory("adrules-sarif-places", ["a.yaml": "version: 1\n" + placement, "b.yaml": "version: 1\n" + placement])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func duplicate() throws -> (message: String, fingerprint: String) {
            let run = runCLI(["lint", dir, "--format", "sarif"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let results = try #require(((object["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
            let result = try #require(results.first { $0["ruleId"] as? String == "policy/duplicate-id" })
            let message = try #require((result["message"] as? [String: Any])?["text"] as? String)
            let fingerprint = try #require((result["partialFingerprints"] as? [String: String])?["primaryLocationLineHash"])
            return (message, fingerprint)
        }
        let before = try duplicate()
        try ("# two lines\n# above\nversion: 1\n" + placement).write(toFile: dir + "/a.yaml", atomically: true, encoding: .utf8)
        let after = try duplicate()
        #expect(before.message != after.message, "the message names the first definition's new line")
        #expect(before.fingerprint == after.fingerprint)
        #expect(SARIFReport.withoutPlaces("first at rules/a.yaml:12:3; on line 40, then line 7") == "first at rules/a.yaml:; on line, then line")
        #expect(SARIFReport.withoutPlaces("daily_cap 6 is above 4 at 09:00, a deadline 5") == "daily_cap 6 is above 4 at 09:00, a deadline 5", "other numbers are kept")
        #expect(SARIFReport.withoutPlaces("ends at a.yaml:3: or :7:x, é:1:2") == "ends at a.yaml:3: or :7:x, é:")
        #expect(SARIFReport.withoutPlaces("opened on line 3, column 5; a column 7") == "opened on line, column; a column")
        // Quoted text is the file's own: kept, so that two values that differ there stay two findings.
        #expect(SARIFReport.withoutPlaces(#"not "12:00:61" (first at a.yaml:3:3), "line 5", "a\"b:1:2""#) == #"not "12:00:61" (first at a.yaml:), "line 5", "a\"b:1:2""#)
    }

    /// Two equal findings in one file (two placements with `daily_cap: 0`) stay two alerts in code scanning.
    @Test func equalFindingsGetDistinctFingerprints() throws {
        let result = runCLI(["lint", "FIXTURES/zero-caps.yaml", "--format", "sarif"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let results = try #require((object["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let hashes = results.compactMap { ($0["partialFingerprints"] as? [String: Any])?["primaryLocationLineHash"] as? String }
        #expect(hashes.count == 2 && Set(hashes).count == 2, "\(hashes)")
        #expect(hashes.allSatisfy { $0.hasSuffix(":1") || $0.hasSuffix(":2") })
        // Numbered within each file: the same finding in a file of the same name elsewhere starts again at 1.
        let dir = scratchPath("adrules-sarif")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for sub in ["android", "ios"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + sub, withIntermediateDirectories: true)
            try "version: 1\nplacements:\n  \(sub): {format: interstitial, min_interval: 1m, daily_cap: 0}\n".write(toFile: dir + "/\(sub)/p.yaml", atomically: true, encoding: .utf8)
        }
        let both = runCLI(["lint", dir + "/android/p.yaml", dir + "/ios/p.yaml", "--format", "sarif"])
        #expect(both.stdout.components(separatedBy: ":1\"").count == 3, "\(both.stdout.suffix(300))")
    }

    @Test func strictMakesWarningsFail() {
        let text = "version: 1\nplacements:\n  a: {format: interstitial}\n"
        let path = scratchPath("adrules-strict") + ".yaml"
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(runCLI(["lint", path]).exitCode == 0)
        #expect(runCLI(["lint", path, "--strict"]).exitCode == 1)
        #expect(runCLI(["lint", path, "--quiet"]).stderr.isEmpty)
    }

    @Test func outputWritesTheReportToAFile() throws {
        let path = scratchPath("adrules-out") + ".json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = runCLI(["lint", "FIXTURES/bad.yaml", "--format=json", "--output", path])
        #expect(result.stdout.isEmpty)
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.contains("\"rule\": \"schema/type\""))
    }

    @Test func usageErrors() {
        for args in [["lint", "--formt", "json"], ["lint", "--format"], ["lint", "--format", "yaml"], ["frobnicate"], []] {
            let result = runCLI(args)
            #expect(result.exitCode == 2, "\(args)")
            #expect(result.stderr.contains("USAGE"), "\(args)")
        }
        #expect(runCLI(["lint", "--formt", "json"]).stderr.hasPrefix("error: unexpected argument \"--formt\"\n"))
        #expect(runCLI(["lint", "--format"]).stderr.hasPrefix("error: missing value for option \"--format\"\n"))
    }

    @Test func versionAndHelp() {
        #expect(runCLI(["--version"]).stdout.hasPrefix("adrules "))
        #expect(runCLI(["help", "lint"]).stdout.contains("disable-next-line"))
        #expect(runCLI(["lint", "-h"]).stdout.contains("USAGE: adrules lint"))
    }
}

