import AdRules
import AdRulesTestSupport
@testable import AdRulesCompiler
@testable import AdRulesCLI
import AdRulesYAML
import Foundation
import Testing

/// Inputs a hostile pull request or server could send: each ends in a diagnostic and an exit code of 1-3,
/// never a crash, a hang or forged output.
@Suite("Hostile input")
struct HostileInputTests {
    /// A fresh directory for one test's files.
    func scratch() throws -> String {
        let path = scratchPath("adrules-hostile")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// GitHub Actions reads `##[command]` anywhere in a log line (the legacy form of `::command::`). A rule message, a
    /// test name or a file name holding one reaches the output streams with its `[` escaped: `##\[` in text,
    /// `##\u005b` in json (which reads the same). Before, `test` and `simulate` printed the message as written.
    @Test func aLogCommandInInputIsNotPrintedAsOne() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write("version: 1\ntimezone: UTC\nplacements:\n  inter: {format: interstitial, min_interval: 1m}\nrules:\n"
            + "  - {id: r, deny: [inter], when: \"true\", message: \"##[error file=p.yaml,line=1]forged\"}\n", to: dir + "/p.yaml")
        try write("tests:\n  - name: \"##[warning]t\"\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n"
            + "      - {ask: show, placement: inter, expect: allow}\n", to: dir + "/s.test.yaml")
        let bad = try scratch()
        defer { try? FileManager.default.removeItem(atPath: bad) }
        try write(Self.oneError, to: bad + "/##[error]x.yaml")
        // SARIF writes the file as a URI, whose `[` is percent-encoded.
        for (arguments, escaped) in [
            (["test", dir], "##\\["), (["test", dir, "--format", "json"], "##\\u005b"), (["simulate", dir + "/s.test.yaml", "--rules", dir], "##\\["),
            (["simulate", dir + "/s.test.yaml", "--rules", dir, "--format", "json"], "##\\u005b"), (["compile", dir], "##\\u005b"),
            (["compile", dir, "--format", "swift"], "##\\u005b"), (["lint", bad], "##\\["), (["lint", bad, "--format", "json"], "##\\u005b"),
            (["lint", bad, "--format", "sarif"], "%23%23%5B"),
        ] {
            let run = try runBinary(arguments)
            #expect(!run.stdout.contains("##[") && !run.stderr.contains("##["), "\(arguments): \(run.stdout)\(run.stderr)")
            #expect((run.stdout + run.stderr).contains(escaped), "\(arguments): \(run.stdout)\(run.stderr)")
        }
        // The github format's lines escape it too (a log may read the legacy form anywhere in a line), in the file name
        // and in the message; json and SARIF write a message's `[` as `\u005b`, not a backslash of their own.
        try write("version: 1\nplacements:\n  a: {format: banner, daily_cap: \"##[error]x\"}\n", to: bad + "/quoted.yaml")
        let github = try runBinary(["lint", bad, "--format", "github"])
        #expect(!github.stdout.contains("##[") && github.stdout.contains("::error file=\(bad)/##\\[error]x.yaml,line=3,col=34,"), "\(github.stdout)")
        #expect(github.stdout.contains("not \"##\\[error]x\""), "\(github.stdout)")
        let json = try runBinary(["lint", bad + "/quoted.yaml", "--format", "json"])
        #expect(json.stdout.contains("not \\\"##\\u005berror]x\\\""), "\(json.stdout)")
    }

    /// A rule file with one error (at 3:34), whose name is what a test puts in a line's first place.
    static let oneError = "version: 1\nplacements:\n  a: {format: banner, daily_cap: six}\n"

    /// `lint` of a rule file named `name` (written in `dir` with ``oneError``) in the two formats a terminal shows, each
    /// run's standard output: the finding exits 1 in both.
    func terminalLint(ofFileNamed name: String, in dir: String) throws -> [String] {
        try write(Self.oneError, to: dir + "/" + name)
        return try ["xcode", "text"].map { format in
            let run = try runBinary(["lint", name, "--format", format], directory: dir)
            #expect(run.code == ExitCode.findings, "\(format): \(run.stderr)")
            return run.stdout
        }
    }

    /// The terminal formats start a line with the file: a relative name that starts with `::` is led by `./` (the same
    /// file), or a CI log reads the line as a command and adds the annotation it names.
    @Test func aFileNamedLikeALogCommandStartsNoCommand() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let name = "::error file=fake.yaml,line=1::forged.yaml"
        for stdout in try terminalLint(ofFileNamed: name, in: dir) {
            #expect(stdout.hasPrefix("./\(name):3:34: error: daily_cap must be"), "\(stdout)")
            #expect(!stdout.split(separator: "\n").contains { $0.drop(while: \.isWhitespace).hasPrefix("::") }, "\(stdout)")
        }
        // A failing step of `test` names its file after two spaces, which a log skips too; and a combining mark on
        // the second colon hides nothing from a log, which reads code units.
        let folder = "::error file=fake.yaml,line=1:\u{301}:forged"
        try FileManager.default.createDirectory(atPath: dir + "/" + folder, withIntermediateDirectories: true)
        try write("version: 1\nplacements:\n  a: {format: banner}\n", to: dir + "/\(folder)/p.yaml")
        try write("tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {ask: show, placement: a, expect: allow}\n", to: dir + "/\(folder)/a.test.yaml")
        let failed = try runBinary(["test", folder], directory: dir)
        #expect(failed.code == ExitCode.findings)
        #expect(failed.stdout.contains("  ./\(folder)/a.test.yaml:5: at "), "\(failed.stdout)")
        #expect(!failed.stdout.split(separator: "\n").contains { $0.unicodeScalars.drop { $0.properties.isWhitespace }.starts(with: "::".unicodeScalars) }, "\(failed.stdout)")
    }

    /// A file named like the start of a finding (`fake.yaml:1:1: error: x.yaml`) cannot make a terminal format's line
    /// read as a finding at another place: the name's colons are shown `\u{3A}`.
    @Test func aFileNamedLikeAFindingForgesNoPlace() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let name = "fake.yaml:1:1: error: injected.yaml"
        for stdout in try terminalLint(ofFileNamed: name, in: dir) {
            #expect(stdout.hasPrefix("fake.yaml\\u{3A}1\\u{3A}1\\u{3A} error\\u{3A} injected.yaml:3:34: error: daily_cap must be"), "\(stdout)")
            // No line starts with another file's name and a place.
            #expect(!stdout.split(separator: "\n").contains { $0.hasPrefix("fake.yaml:") }, "\(stdout)")
        }
        // A name with colons that reads as no place is printed as it is (a macOS folder `Ads / Rules` is `Ads : Rules`
        // on disk), and so is a time in a name.
        for folder in ["Ads : Rules", "at 10:30"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + folder, withIntermediateDirectories: true)
            try write(Self.oneError, to: dir + "/\(folder)/p.yaml")
            let run = try runBinary(["lint", folder, "--format", "xcode"], directory: dir)
            #expect(run.stdout.hasPrefix("\(folder)/p.yaml:3:34: error:"), "\(run.stdout)")
        }
        #expect(Diagnostic.holdsPlace("a:12: x") && Diagnostic.holdsPlace("x:1:2: y") && !Diagnostic.holdsPlace("x:1:2:y") && !Diagnostic.holdsPlace("x: 1"))
        // The json report names the file as it is.
        let json = try runBinary(["lint", name, "--format", "json"], directory: dir)
        #expect(json.stdout.contains("\"file\": \"\(name)\""), "\(json.stdout)")
    }

    /// After `--`, every word is a path: `impact -- merge` reads a usage model named `merge`, not the merge subcommand.
    @Test func aWordAfterTheEndOfOptionsIsAPath() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: packageRoot() + "/rules/usage.model.yaml", toPath: dir + "/merge")
        let run = try runBinary(["impact", "--rules", packageRoot() + "/rules", "--users", "20", "--days", "1", "--", "merge"], directory: dir)
        #expect(run.code == ExitCode.success, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Impact preview: merge, 20 users"), "\(run.stdout.prefix(200))")
        // Before `--`, `merge` is the subcommand.
        let merge = try runBinary(["impact", "merge"], directory: dir)
        #expect(merge.code == ExitCode.usage && merge.stderr.contains("PART.json"), "\(merge.stderr)")
    }

    @Test func aLongFlatOrChainIsAnErrorNotAStackOverflow() throws {
        let dir = try scratch()
        let chain = Array(repeating: "true", count: 30_000).joined(separator: " or ")
        try write("version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\nrules:\n  - id: r\n    deny: \"*\"\n    when: \(chain)\n", to: dir + "/p.yaml")
        let result = runCLI(["lint", dir + "/p.yaml"])
        #expect(result.exitCode == ExitCode.findings)
        #expect(result.stdout.contains("rule/syntax"))
        #expect(result.stdout.contains("longer than 4096 characters"))
    }

    @Test func aChainWithinTheLimitEvaluatesWithoutRecursion() throws {
        // 200 operands: under the token limit, so it compiles, and evaluation is a loop.
        let chain = Array(repeating: "premium", count: 200).joined(separator: " and ")
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\nrules:\n  - id: r\n    deny: \"*\"\n    when: \(chain)\n")
        var facts = Facts(policy: policy, installedAt: 0)
        facts.apply(.appLaunched, at: 0, policy: policy)
        facts.apply(.loadCompleted("a"), at: 0, policy: policy)
        let premium = Evaluator.decide(.show("a", trigger: .action), context: AskContext(premium: true), policy: policy, facts: facts, now: 1)
        #expect(premium.codes.contains(.customRule))
        let free = Evaluator.decide(.show("a", trigger: .action), policy: policy, facts: facts, now: 1)
        #expect(!free.codes.contains(.customRule))
    }

    @Test(arguments: ["x in " + String(repeating: "[", count: 3000), "x in [[1]]"])
    func nestedListsAreASyntaxError(_ when: String) throws {
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", "version: 1\nattributes: {x: int}\nrules:\n  - id: r\n    deny: \"*\"\n    when: \(when)\n")]).diagnostics
        #expect(diagnostics.contains { $0.rule == "rule/syntax" })
    }

    @Test func aHugeDailyCapWithAShortIntervalDoesNotTrap() {
        // Above what a history keeps, the cap is a range error and is not read at all.
        let huge = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: interstitial\n    daily_cap: 999999999999999999\n    min_interval: 1s\n")]).diagnostics
        #expect(huge.map(\.rule) == ["schema/range"], "\(huge)")
        // The largest cap a policy may hold still goes through the arithmetic of cap/unreachable.
        let largest = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: interstitial\n    daily_cap: 100000\n    min_interval: 1s\n")]).diagnostics
        #expect(largest.map(\.rule) == ["cap/unreachable"], "\(largest)")
    }

    @Test func factsBuiltForAnotherPolicyAreFittedNotOutOfRange() throws {
        let small = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")
        let large = try Policy(yaml: """
            version: 1
            placements:
              a: {format: interstitial, min_interval: 1m}
              b: {format: interstitial, min_interval: 1m}
            groups:
              g: {placements: [a, b], daily_cap: 3}
            """)
        var facts = Facts(policy: small, installedAt: 0)
        facts.apply(.appLaunched, at: 0, policy: small)
        let decision = Evaluator.decide(.show("b", trigger: .action), policy: large, facts: facts, now: 1)
        #expect(decision.codes.contains(.adNotReady))
        facts.apply(.loadCompleted("b"), at: 2, policy: large)
        #expect(Evaluator.decide(.show("b", trigger: .action), policy: large, facts: facts, now: 3).isAllowed)
    }

    @Test func extremeClockValuesAreClamped() throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m, hourly_cap: 2}\n")
        var facts = Facts(policy: policy, installedAt: .min)
        facts.apply(.appLaunched, at: .max, policy: policy)
        facts.apply(.showStarted("a"), at: .min, policy: policy)
        let decision = Evaluator.decide(.show("a", trigger: .action), policy: policy, facts: facts, now: .min)
        #expect(decision.verdict == .deny)
        #expect(Milliseconds.from(Date(timeIntervalSince1970: .infinity)) == Milliseconds.limit)
        #expect(Milliseconds.from(Date(timeIntervalSince1970: .nan)) == 0)
    }

    @Test func specialFilesAreRefusedWithoutBlocking() throws {
        let dir = try scratch()
        #expect(mkfifo(dir + "/p.yaml", 0o644) == 0)
        let fifo = runCLI(["lint", dir + "/p.yaml"])
        #expect(fifo.exitCode == ExitCode.failure)
        #expect(fifo.stderr.contains("not a regular file (a FIFO)"), "\(fifo.stderr)")

        // A socket cannot even be opened ("no such device or address"): the message says what it is.
        let socket = try #require(try boundUnixSocket(in: dir, named: "s.yaml"), "no socket could be bound")
        defer {
            close(socket.fd)
            if socket.folder != dir { try? FileManager.default.removeItem(atPath: socket.folder) }
        }
        let socketPath = socket.path
        let sock = runCLI(["lint", socketPath])
        #expect(sock.exitCode == ExitCode.failure)
        #expect(sock.stderr.contains("not a regular file (a socket)"), "\(sock.stderr)")

        let rules = try scratch()
        try FileManager.default.createSymbolicLink(atPath: rules + "/zero.yaml", withDestinationPath: "/dev/zero")
        let zero = runCLI(["lint", rules])
        #expect(zero.exitCode == ExitCode.failure)
        #expect(zero.stderr.contains("zero.yaml"))
    }

    @Test func aSymlinkLeadingOutOfThePolicyDirectoryIsRefusedAndNotEchoed() throws {
        let outside = try scratch()
        try write("TOPSECRET_marker: 1\n", to: outside + "/secret.yaml")
        let rules = try scratch()
        try write("version: 1\nplacements:\n  a: {format: interstitial}\n", to: rules + "/p.yaml")
        try FileManager.default.createSymbolicLink(atPath: rules + "/leak.yaml", withDestinationPath: outside + "/secret.yaml")
        let refused = runCLI(["lint", rules])
        #expect(refused.exitCode == ExitCode.failure)
        #expect(refused.stderr.contains("leak.yaml") && refused.stderr.contains("outside"))
        #expect(!(refused.stdout + refused.stderr).contains("TOPSECRET"))

        // A link that stays inside the directory is followed; a file named on the command line is read as asked.
        try FileManager.default.removeItem(atPath: rules + "/leak.yaml")
        try FileManager.default.createDirectory(atPath: rules + "/shared", withIntermediateDirectories: true)
        try write("version: 1\nplacements:\n  b: {format: interstitial}\n", to: rules + "/shared/b.yaml.txt")
        try FileManager.default.createSymbolicLink(atPath: rules + "/b.yaml", withDestinationPath: rules + "/shared/b.yaml.txt")
        #expect(runCLI(["lint", rules]).exitCode == ExitCode.success)
        #expect(runCLI(["lint", outside + "/secret.yaml"]).stdout.contains("TOPSECRET"))
    }

    /// A link back up the tree is a loop, not more rule files: each directory is read once.
    @Test func aSymlinkLoopIsReadOnce() throws {
        let rules = try scratch()
        try write("version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n", to: rules + "/p.yaml")
        try FileManager.default.createSymbolicLink(atPath: rules + "/self", withDestinationPath: rules)
        let result = runCLI(["lint", rules])
        #expect(result.exitCode == ExitCode.success, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("duplicate-id"))
    }

    /// A rule file reached under two names (a symlink to it, a hard link) is one file: read once, under its own name
    /// when it has one, else the first name in sorted order.
    @Test func aRuleFileUnderTwoNamesIsReadOnce() throws {
        let rules = try scratch()
        try write("version: 1\nplacements:\n  a: {format: interstitial}\n", to: rules + "/p.yaml")
        try FileManager.default.createSymbolicLink(atPath: rules + "/a-link.yaml", withDestinationPath: rules + "/p.yaml")
        let linked = runCLI(["lint", "--format", "json", rules])
        #expect(linked.exitCode == ExitCode.success, "\(linked.stdout)\(linked.stderr)")
        #expect(!linked.stdout.contains("duplicate-id"))
        #expect(linked.stdout.contains("pacing/missing") && linked.stdout.contains("p.yaml") && !linked.stdout.contains("a-link.yaml"))

        try FileManager.default.removeItem(atPath: rules + "/a-link.yaml")
        try FileManager.default.linkItem(atPath: rules + "/p.yaml", toPath: rules + "/q.yaml")
        let hard = runCLI(["lint", "--format", "json", rules])
        #expect(hard.exitCode == ExitCode.success, "\(hard.stdout)\(hard.stderr)")
        #expect(!hard.stdout.contains("duplicate-id") && !hard.stdout.contains("q.yaml"))

        // Two files with the same text are two files: each id is defined twice.
        try FileManager.default.removeItem(atPath: rules + "/q.yaml")
        try write("version: 1\nplacements:\n  a: {format: interstitial}\n", to: rules + "/q.yaml")
        #expect(runCLI(["lint", rules]).stdout.contains("policy/duplicate-id"))
    }

    @Test func anOversizedFileIsReadOnlyUpToTheLimit() throws {
        let dir = try scratch()
        let path = dir + "/big.yaml"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(count: 0)))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 200 * 1024 * 1024)  // sparse: 200 MiB of zeros, no disk used
        try handle.close()
        let bytes = try PolicyLoader.readBytes(path)
        #expect(bytes.count == YAMLReader.maxBytes + 1)
        let result = runCLI(["lint", path])
        #expect(result.exitCode == ExitCode.findings)
        #expect(result.stdout.contains("larger than"))
    }

    @Test func aDirectoryWithoutRuleFilesIsAnError() throws {
        let dir = try scratch()
        try write("tests: []\n", to: dir + "/only.test.yaml")
        let result = runCLI(["lint", dir])
        #expect(result.exitCode == ExitCode.failure)
        #expect(result.stderr.contains("no rule files"))
    }

    @Test func quotedIdsCannotForgeDiagnosticLines() throws {
        let dir = try scratch()
        try write("""
            version: 1
            placements:
              "a\\r\\nfake.yaml:1:1: error: injected\\u001b[31m":
                format: interstitial
                min_interval: 1m
            """, to: dir + "/p.yaml")
        for format in ["xcode", "text", "github"] {
            let result = runCLI(["lint", "--format", format, dir + "/p.yaml"])
            #expect(result.exitCode == ExitCode.findings)
            let lines = result.stdout.split(separator: "\n")
            #expect(!lines.contains { $0.hasPrefix("fake.yaml") }, "\(format): \(result.stdout)")
            #expect(!result.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\r" }, "\(format)")
        }
    }

    /// A rule file's name holding a line break and an escape code cannot forge a line of `test` or `simulate`: the
    /// reason's location is escaped, as the message is.
    @Test func ruleFileNamesCannotForgeTestLines() throws {
        let dir = try scratch()
        try write("version: 1\ntimezone: UTC\n", to: dir + "/policy.yaml")
        try write("version: 1\nplacements:\n  inter: {format: interstitial, min_interval: 90s}\n", to: dir + "/x\n1 passed, 0 failed\u{1B}[2K.yaml")
        try write("""
            tests:
              - name: too soon
                start: 2026-11-29T09:00:00Z
                history: [{placement: inter, at: 2026-11-29T08:59:30Z}]
                steps:
                  - event: app_launched
                  - event: load_completed
                    placement: inter
                  - ask: show
                    placement: inter
                    expect: allow

            """, to: dir + "/a.test.yaml")
        for command in ["test", "simulate"] {
            let result = runCLI([command, dir + "/a.test.yaml"])
            #expect(result.stdout.contains("min_interval"), "\(command): \(result.stdout)")
            #expect(!result.stdout.split(separator: "\n").contains { $0.hasPrefix("1 passed") }, "\(command): \(result.stdout)")
            #expect(!result.stdout.unicodeScalars.contains("\u{1B}"), "\(command)")
        }
    }

    @Test func controlCharactersInMessagesAreFlaggedAtTheirLine() {
        let text = """
            version: 1
            placements:
              a: {format: interstitial, min_interval: 1m}
            rules:
              - id: r
                deny: "*"
                when: premium
                message: "hi\\nPASS forged"
            """
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        let finding = diagnostics.first { $0.message.contains("control character U+000A") }
        // At the escape that makes it, not at the opening quote; a folded block is what joins lines.
        #expect(finding?.range.start == SourcePosition(line: 8, column: 17))
        #expect(finding?.message.hasSuffix("a line break, and a text is one line in the logs and reports it ends up in: write it on one line, or as a folded block (>-), which joins its lines with spaces") == true)
        // An id is no free text: a folded block would give it a space.
        let id = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner, ad_unit: \"x\\ny\"}\n")]).diagnostics
        #expect(id.first?.message.hasSuffix("write it on one line, with no line breaks, tabs or escape codes") == true, "\(id)")
        // In a block, at the character (1️⃣): a tab ending the block's second line, a line break between its lines.
        // An escape that joins the character before it (e and U+0301) is walked code point by code point.
        for message in [
            ">\n      line one\n      line two1️⃣\t\n", "|\n      line one1️⃣\n      line two\n", ">\n      line one1️⃣\n\n      line two\n",
            "\"ab 1️⃣\\t c\"\n", "\"e\\u0301x1️⃣\\u0007\"\n", "\"ab1️⃣\\r\\ncd\"\n",
        ] {
            let marked = MarkedText("version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\nrules:\n  - id: r\n    deny: \"*\"\n    when: premium\n    message: " + message)
            let finding = PolicyLoader.load(texts: [("p.yaml", marked.text)]).diagnostics.first { $0.message.contains("control character") }
            #expect(finding != nil && finding?.range.start == marked["1️⃣"], "\(message): \(String(describing: finding))")
        }
    }

    /// A long key is echoed cut short, in every message that names it: 1,000 keys of 16,000 characters, each a
    /// placement at the top level, made 33 MB of output (the key in the finding, and again in its advice). So is the
    /// text of a list item begun with a word processor's dash, however many marks join its one character.
    @Test func aLongKeyIsEchoedCutShort() {
        let key = String(repeating: "k", count: 20_000)
        let texts = [
            "version: 1\nplacements:\n  a: {format: banner}\n\(key): {format: banner}\n",
            "version: 1\nplacements:\n  a: {format: banner, \(key): 1}\n",
            "version: 1\nplacements:\n  a: {format: banner, \(key): 1, \(key): 2}\n",
            "version: 1\nplacements:\n  a:\n    format: banner\n    caps:\n      \u{2013} a\(String(repeating: "\u{FE0F}", count: 100_000)): 3\n",
        ]
        for text in texts {
            let found = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
            #expect(!found.isEmpty && found.allSatisfy { $0.message.utf8.count < 1_000 && $0.notes.allSatisfy { $0.message.utf8.count < 1_000 } },
                "\(found.map { ($0.rule, $0.message.utf8.count) })")
        }
    }

    /// Past 100,000 findings counted beyond those a file keeps, a rule file's entries are read through unchecked, and
    /// its summary says so (15 million findings, each built to be counted, took 40 s). What follows from entries left
    /// unchecked (a placement another file's group names) is not said.
    @Test func aFileOfCountlessFindingsIsCheckedUpToALimit() {
        let rules = "version: 1\nrules: [" + Array(repeating: "{}", count: 40_000).joined(separator: ",") + "]\nplacements:\n  a: {format: banner}\n"
        let other = "version: 1\ngroups:\n  g: {placements: [a]}\n"
        let found = PolicyLoader.load(texts: [("a.yaml", rules), ("b.yaml", other)]).diagnostics
        let summary = found.first { $0.rule == "lint/too-many-findings" }
        #expect(summary?.message.hasPrefix("\(FieldReader.maxCountedFindings + 1) more findings in this file are not shown, and the rest of the file was not checked") == true,
            "\(String(describing: summary?.message))")
        #expect(!found.contains { $0.file == "b.yaml" }, "\(found.filter { $0.file == "b.yaml" })")
        // The rest unchecked is an error of its own: warnings alone past the limit do not let the file pass (or compile
        // without its rules), and a version in the part not read is not said to be missing.
        let warnings = "placements:\n  \"y\": {format: banner}\ngroups:\n  g:\n    placements: [" + Array(repeating: "y", count: 101_100).joined(separator: ",")
            + "]\nrules:\n  - {id: r, deny: [y], when: \"true\"}\nversion: 1\n"
        let flooded = PolicyLoader.load(texts: [("a.yaml", warnings)]).diagnostics
        #expect(flooded.hasErrors && flooded.findingCounts.errors == 1, "\(flooded.findingCounts)")
        #expect(!flooded.contains { $0.rule == "schema/missing-key" }, "\(flooded.filter { $0.rule == "schema/missing-key" })")
        // Below the limit, every finding is counted and the file read to its end.
        let fewer = PolicyLoader.load(texts: [("a.yaml", "version: 1\nplacements:\n  a: {format: banner}\nrules: [" + Array(repeating: "{}", count: 2_000).joined(separator: ",") + "]\n")]).diagnostics
        #expect(fewer.first { $0.rule == "lint/too-many-findings" }?.message.hasPrefix("5000 more findings in this file are not shown: fix") == true)
    }

    /// A misspelt key past the findings a file shows is still no key of the team's own, which a comment may hide.
    @Test func aMisspeltKeyPastTheShownFindingsIsNotHidden() {
        let text = "version: 1\ngroups:\n  g: {placements: [" + Array(repeating: "y", count: 1_100).joined(separator: ",")
            + "]}\nplacements:\n  \"y\":\n    format: banner\n    # adrules:disable-next-line schema/unknown-key\n    dayly_cap: 3\n"
        let found = PolicyLoader.load(texts: [("a.yaml", text)]).diagnostics
        #expect(found.findingCounts.errors == 1, "\(found.findingCounts)")
        // The one error is among those past the shown findings, and it is the misspelt key's: spelt right, there is none.
        #expect(found.first { $0.rule == "lint/too-many-findings" }?.standsFor?.errors == 1)
        let spelt = PolicyLoader.load(texts: [("a.yaml", text.replacingOccurrences(of: "dayly_cap", with: "daily_cap"))]).diagnostics
        #expect(spelt.findingCounts.errors == 0, "\(spelt.findingCounts)")
    }

    /// A scenario file or usage model is read whole, as nodes: past ``YAMLReader/maxNodes`` it is refused (five million
    /// `{}` in 15 MB took 525 MB).
    @Test func aFileOfCountlessNodesIsRefused() {
        let text = "tests: [" + Array(repeating: "{}", count: YAMLReader.maxNodes).joined(separator: ",") + "]\n"
        let document = YAMLReader.read(text, file: "s.test.yaml")
        #expect(document.diagnostics.map(\.rule) == ["yaml/syntax"] && document.diagnostics.first?.message.contains("more than \(YAMLReader.maxNodes) values") == true,
            "\(document.diagnostics.map(\.message))")
    }

    /// A message written as a block (`>` or `|`) ends with the block's line break: that break is not text, and the
    /// message reads without it. A break inside the block is still a control character.
    @Test func aBlockMessageEndsWithoutItsLineBreak() {
        func policy(_ message: String) -> String {
            "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\nrules:\n  - id: r\n    deny: \"*\"\n    when: premium\n    message: \(message)"
        }
        for block in [">\n      Never interrupt\n      checkout\n", "|\n      Never interrupt checkout\n\n\n", ">+\n      Never interrupt checkout\n\n"] {
            let load = PolicyLoader.load(texts: [("p.yaml", policy(block))])
            #expect(load.diagnostics.isEmpty, "\(block): \(load.diagnostics.map(\.message))")
            let decision = Evaluator.decide(.show("a", trigger: .action), context: AskContext(premium: true), policy: load.policy, facts: Facts(policy: load.policy, installedAt: 0), now: 0)
            #expect(decision.reasons.map(\.message).contains("Never interrupt checkout (rule r)"))
        }
        // Every setting reads a block without its final break: an id, a duration, a placement in deny.
        let settings = "version: 1\nplacements:\n  a:\n    format: >\n      interstitial\n    min_interval: |\n      1m\nrules:\n  - id: >\n      r\n    deny: >\n      a\n    when: premium\n"
        #expect(PolicyLoader.load(texts: [("p.yaml", settings)]).diagnostics.isEmpty)
        let inside = PolicyLoader.load(texts: [("p.yaml", policy("|\n      Never interrupt\n      checkout\n"))]).diagnostics
        #expect(inside.map(\.rule) == ["schema/range"] && inside.first?.message.contains("U+000A") == true, "\(inside.map(\.message))")
    }

    /// A finding inside a `when` after an escape that joins the character before it stands at its own column.
    @Test func aWhenFindingAfterAJoiningEscapeIsAtItsColumn() {
        let marked = MarkedText("version: 1\nattributes: {screen: string}\nplacements:\n  a: {format: banner}\nrules:\n  - {id: w, deny: \"*\", when: \"screen == \\\"e\\u0301\\\" and 1️⃣nope > 1\"}\n")
        let finding = PolicyLoader.load(texts: [("p.yaml", marked.text)]).diagnostics.first { $0.rule == "rule/unknown-name" }
        #expect(finding?.range.start == marked["1️⃣"], "\(String(describing: finding)) in \(marked.text)")
        // A combining mark after a name is a column of its own (the lexer counts code points, as columns do); a value
        // that starts with a quote starts after the scalar's own opening quote.
        for when in ["\"level > 1 and nope1️⃣\\u0301 > 1\"", "\"1️⃣\\\"unclosed\"", "'1️⃣''unclosed'"] {
            let text = MarkedText("version: 1\nattributes: {screen: string, level: int}\nplacements:\n  a: {format: banner}\nrules:\n  - {id: w, deny: \"*\", when: \(when)}\n")
            let syntax = PolicyLoader.load(texts: [("p.yaml", text.text)]).diagnostics.first { $0.rule == "rule/syntax" }
            #expect(syntax?.range.start == text["1️⃣"], "\(when): \(String(describing: syntax))")
        }
        // Written raw, the mark (which would join a marker) is at the column after the name's last letter.
        let raw = PolicyLoader.load(texts: [("p.yaml", "version: 1\nattributes: {level: int}\nplacements:\n  a: {format: banner}\nrules:\n  - {id: w, deny: \"*\", when: 'level > 1 and nope\u{301} > 1'}\n")])
            .diagnostics.first { $0.rule == "rule/syntax" }
        #expect(raw?.range.start == SourcePosition(line: 6, column: 49), "\(String(describing: raw))")
        // An empty block is where it is written, not on the line after.
        let empty = MarkedText("version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - id: e\n    deny: \"*\"\n    when: 1️⃣>\n")
        let emptyFinding = PolicyLoader.load(texts: [("p.yaml", empty.text)]).diagnostics.first { $0.message.contains("empty") }
        #expect(emptyFinding?.range.start == empty["1️⃣"], "\(String(describing: emptyFinding))")
        // A value written as a block where a number belongs is told to stand on the key's line.
        let block = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: interstitial\n    daily_cap: |\n      5\n")]).diagnostics
        #expect(block.first?.message.hasSuffix("not \"5\": write 5 on the key's line, not as a > or | block") == true, "\(block)")
    }

    @Test func aRawControlCharacterIsReportedWhereItStands() {
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    ad_unit: \"x\u{01}y\"\n")]).diagnostics
        let syntax = diagnostics.first { $0.rule == "yaml/syntax" }
        #expect(syntax?.range.start == SourcePosition(line: 4, column: 16))
    }

    @Test func aFileWithThousandsOfErrorsIsReportedInAReadableAmount() {
        var text = "version: 1\nplacements:\n"
        for i in 0..<3000 { text += "  p\(i): {format: bogus}\n" }
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        #expect(diagnostics.count == FieldReader.maxDiagnostics + 1)
        let last = diagnostics.first { $0.rule == "lint/too-many-findings" }
        #expect(last?.message.hasPrefix("2000 more findings") == true, "\(String(describing: last))")
        #expect(last?.severity == .error)
        // A placement whose error was only counted (past the limit) is still one with an error: it gets no
        // pacing/missing warning that its unread cap would set off, and the count says what is hidden.
        var capped = "version: 1\nplacements:\n"
        for i in 0..<1100 { capped += "  p\(i): {format: interstitial, daily_cap: six}\n" }
        let cappedFindings = PolicyLoader.load(texts: [("c.yaml", capped)]).diagnostics
        let hidden = cappedFindings.first { $0.rule == "lint/too-many-findings" }
        #expect(hidden?.message.hasPrefix("100 more findings") == true, "\(String(describing: hidden))")
        // YAML findings (here 50,000 aliases) are capped as they are met: counted past the limit, not built.
        let aliases = "version: 1\nplacements:\n  it: &x {format: interstitial, min_interval: 1m}\nz: ["
            + Array(repeating: "*x", count: 50_000).joined(separator: ", ") + "]\n"
        let aliasFindings = PolicyLoader.load(texts: [("a.yaml", aliases)]).diagnostics
        #expect(aliasFindings.count == FieldReader.maxDiagnostics + 1)
        let counted = aliasFindings.first { $0.rule == "lint/too-many-findings" }
        #expect(counted?.message.hasPrefix("49002 more findings") == true, "\(String(describing: counted))")
        // An alias only counted past the limit still stands for nothing: the type error at its place repeats it and
        // is neither shown nor counted (1 anchor + 1,500 aliases = 1,501 findings).
        var counted2 = "version: 1\ndefaults: {daily_cap: &a 3}\nplacements:\n"
        for i in 0..<1500 { counted2 += "  p\(i): {format: interstitial, daily_cap: *a}\n" }
        let twice = PolicyLoader.load(texts: [("t.yaml", counted2)]).diagnostics.first { $0.rule == "lint/too-many-findings" }
        #expect(twice?.message.hasPrefix("501 more findings") == true, "\(String(describing: twice))")
        let model = YAMLReader.read("a: [" + Array(repeating: "*x", count: 5_000).joined(separator: ", ") + "]\n", file: "m.yaml")
        #expect(model.diagnostics.count == YAMLEventCursor.maxFindings + 1)
        #expect(model.diagnostics.last?.message.hasPrefix("4000 more findings") == true)
        // Warnings alone past the limit are summed up as a warning: they do not fail lint without --strict.
        var warnings = "version: 1\nplacements:\n"
        for i in 0..<1200 { warnings += "  p\(i): {format: interstitial}\n" }
        let many = PolicyLoader.load(texts: [("w.yaml", warnings)]).diagnostics
        #expect(many.first { $0.rule == "lint/too-many-findings" }?.severity == .warning)
        #expect(!many.contains { $0.severity == .error })
    }

    /// A long value is quoted cut short, wherever a finding names it: an unknown format, reason code or verdict of
    /// 8 MB made one line of 8 MB, and a model's list of 1,000 long strings one of 4 MB.
    @Test func longValuesAreQuotedCutShort() throws {
        let long = String(repeating: "x", count: 100_000)
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write("version: 1\nplacements:\n  a: {format: \(long), min_interval: 1m}\n", to: dir + "/p.yaml")
        let lint = runCLI(["lint", dir + "/p.yaml"])
        #expect(lint.stdout.contains("p.yaml:3:15: error: format must be one of app_open, interstitial, rewarded, rewarded_interstitial, banner, native; not \"\(String(repeating: "x", count: 57))...\" (schema/enum)"), "\(lint.stdout.prefix(300))")
        #expect(lint.stdout.count < 400)
        try write("version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\nattributes:\n  level: int\n", to: dir + "/q.yaml")
        try write("tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    device_timezone: \(long)\n    steps: [{ask: show, placement: a, expect: \(long), reasons: [\(long)]}, {event: load_started, placement: \(long)}]\n", to: dir + "/s.test.yaml")
        let test = runCLI(["test", dir + "/s.test.yaml", "--rules", dir + "/q.yaml"])
        #expect(test.exitCode == 1)
        #expect(test.stdout.split(separator: "\n").allSatisfy { $0.count < 1000 }, "\(test.stdout.prefix(300))")
        let items = Array(repeating: long.prefix(4000), count: 100).joined(separator: ", ")
        try write("version: 1\nsegments:\n  - {name: all, share: 1, attributes: {level: [\(items)]}, actions: [{placement: a, every: 1m}]}\nnetwork: {load_time: 2s}\n", to: dir + "/m.model.yaml")
        let impact = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/q.yaml"])
        #expect(impact.exitCode == 1)
        #expect(impact.stderr.contains("error: attribute level is declared int in the policy, and [\(String(repeating: "x", count: 57))..., "), "\(impact.stderr.prefix(300))")
        #expect(impact.stderr.contains(", and 95 more] is not one"), "\(impact.stderr.prefix(600))")
        #expect(impact.stderr.split(separator: "\n").allSatisfy { $0.count < 1000 }, "\(impact.stderr.prefix(300))")
    }

    @Test func suggestionsStayCheapForHugeInputs() {
        let ids = (0..<20_000).map { "placement_\($0)" }
        #expect(Suggestion.closest(to: "placement_1x", in: Array(ids.prefix(100))) != nil)
        #expect(Suggestion.closest(to: "placement_1x", in: ids) == nil, "too many candidates to compare")
        #expect(Suggestion.closest(to: String(repeating: "a", count: 100_000), in: ["a"]) == nil)
    }

    /// The search compares candidates lowercased, ASCII in place and other text as `lowercased()` has it (whose bytes
    /// may be more or fewer), with one buffer and one pair of table rows for all of them: it finds what comparing
    /// `Array(candidate.lowercased().utf8)` one by one finds, candidates of every length and case in any order.
    @Test func theSearchComparesCandidatesLowercased() {
        func reference(_ word: String, _ candidates: [String]) -> String? {
            let a = Array(word.lowercased().utf8), limit = max(1, min(3, a.count / 3 + 1))
            var best: (String, Int)?
            for candidate in candidates {
                let b = Array(candidate.lowercased().utf8)
                let bound = min(limit, (best?.1 ?? Int.max) - 1)
                guard bound >= 0, let d = Suggestion.distance(a, b, atMost: bound) else { continue }
                best = (candidate, d)
            }
            return best?.0
        }
        let candidates = ["DAILY_CAP", "daily_cap_extra_long_name", "İd", "Écran", "écran", "x", "Min_Interval", "ΣΑΣ", "grace"]
        for word in ["daily_cap", "Daily-Cap", "id", "i̇d", "ecran", "ÉCRAN", "x", "min_intervall", "σας", "grce", "nothing"] {
            for order in [candidates, candidates.reversed()] {
                #expect(Suggestion.closest(to: word, in: order) == reference(word, order), "\(word) in \(order)")
            }
        }
        #expect(Suggestion.closest(to: "daily-cap", in: candidates) == "DAILY_CAP")
    }

    /// The banded edit distance agrees with the whole table on every pair of short words over a small alphabet
    /// (where near misses are common), within the limit and beyond it.
    @Test func theBandedDistanceAgreesWithTheWholeTable() {
        func full(_ a: [UInt8], _ b: [UInt8]) -> Int {
            var previous = Array(0...b.count)
            for i in 1...max(1, a.count) where !a.isEmpty {
                var current = [i] + Array(repeating: 0, count: b.count)
                for j in stride(from: 1, through: b.count, by: 1) {
                    current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                }
                previous = current
            }
            return a.isEmpty ? b.count : previous[b.count]
        }
        var words: [[UInt8]] = [[]]
        for length in 1...4 {
            for n in 0..<(1 << (2 * length)) where n % 3 == 0 || length < 3 {
                words.append((0..<length).map { UInt8(ascii: "a") + UInt8((n >> (2 * $0)) & 3) })
            }
        }
        var compared = 0
        for a in words {
            for b in words {
                let d = full(a, b)
                for limit in 0...3 {
                    let banded = Suggestion.distance(a, b, atMost: limit)
                    #expect(banded == (d <= limit ? d : nil), "\(a) \(b) limit \(limit): \(String(describing: banded)), not \(d)")
                    compared += 1
                }
            }
        }
        #expect(compared > 10_000)
    }

    /// A scenario naming 300 undeclared attributes, each close to 300 declared ones: each name is
    /// said once, and only the first hundred get a search for the closest.
    @Test func undeclaredAttributesAreSaidOnceAndBoundedInNumber() throws {
        let declared = (0..<300).map { "a" + String(repeating: "x", count: 58) + String(format: "%04d", $0) }
        let policy = "version: 1\nplacements:\n  a: {format: banner}\nattributes:\n" + declared.map { "  \($0): {type: string, default: s}\n" }.joined()
        let names = (0..<300).map { "a" + String(repeating: "x", count: 58) + "q" + String(format: "%03d", $0) }
        let step = "      - {ask: load, placement: a, expect: allow, context: {attributes: {" + names.map { "\($0): v" }.joined(separator: ", ") + "}}}\n"
        let scenario = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n" + step + step
        let dir = try temporaryDirectory("adrules-attrs", ["p.yaml": policy, "s.test.yaml": scenario])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["test", dir])
        #expect(result.exitCode == 0)
        // A hundred names, each once, then one warning counting the other 200.
        #expect(result.stdout.components(separatedBy: "(scenario/unknown-attribute)").count - 1 == 101, "\(result.stdout.prefix(500))")
        #expect(result.stdout.contains("warning: 200 more attribute names that the policy does not declare are not listed: declare them, or fix the names listed (scenario/unknown-attribute)"))
    }

    @Test func decisionDescriptionsStayOnOneLine() {
        let decision = Decision(
            ask: .show("a\nb", trigger: .action),
            reasons: [Reason(code: .customRule, message: "x\r\nPASS y\u{1B}[2J")], nextAllowedAt: nil)
        #expect(!decision.description.contains("\n"))
        #expect(!decision.description.contains("\u{1B}"))
        #expect(decision.description.contains("\\n"))
    }

    /// Findings a comment hides never count towards a file's limit of 1,000: a thousand hidden warnings do not push
    /// an error out of sight. In a scenario file the error made no test fail before (the file counted as well formed).
    @Test func hiddenWarningsDoNotPushAnErrorOutOfSight() throws {
        let policy = "version: 1\nattributes:\n  screen: string\nplacements:\n  a: {format: banner}\n"
        var scenario = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n"
        for _ in 0..<1_001 {
            scenario += "      # adrules:disable-next-line yaml/ambiguous-bool\n      - {ask: load, placement: a, context: {attributes: {screen: yes}}}\n"
        }
        scenario += "      - {ask: load, placement: a, after: six}\n"
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try policy.write(toFile: dir + "/p.yaml", atomically: true, encoding: .utf8)
        try scenario.write(toFile: dir + "/s.test.yaml", atomically: true, encoding: .utf8)
        let test = runCLI(["test", dir])
        #expect(test.exitCode == ExitCode.findings)
        #expect(test.stdout.contains("after must be a duration"), "\(test.stdout.suffix(500))")
        #expect(test.stdout.contains("malformed scenario file"))
        #expect(!test.stdout.contains("yaml/ambiguous-bool"))
        // A rule file alike: the error after a thousand hidden warnings is shown.
        var rules = "version: 1\nplacements:\n"
        for i in 0..<1_001 { rules += "  p\(i):\n    format: banner\n    # adrules:disable-next-line yaml/ambiguous-bool\n    ad_unit: yes\n" }
        rules += "  last: {format: banner, daily_cap: six}\n"
        try FileManager.default.removeItem(atPath: dir + "/s.test.yaml")
        try rules.write(toFile: dir + "/p.yaml", atomically: true, encoding: .utf8)
        let lint = runCLI(["lint", dir])
        #expect(lint.exitCode == ExitCode.findings)
        #expect(lint.stdout.contains("daily_cap must be a whole number"), "\(lint.stdout.suffix(500))")
        // The thousand ad units "yes" are also one ad unit of many placements (ids/duplicate-ad-unit, a warning a
        // placement): past the limit, a warning is what stays hidden, never the error.
        #expect(lint.stdout.contains("warning: 1 more findings in this file are not shown"), "\(lint.stdout.prefix(300))")
    }

    /// cli.md's summary counts the findings, not the lines printed: past a file's 1,000, the `lint/too-many-findings`
    /// line stands for the ones it hides (the summary said "0 errors and 1001 warnings" of 3,000 warnings).
    @Test func theSummaryCountsFindingsAFileDoesNotList() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var rules = "version: 1\nplacements:\n"
        for i in 0..<1_500 { rules += "  p\(i): {format: interstitial}\n" }
        rules += "  last: {format: banner, daily_cap: six}\n"
        try rules.write(toFile: dir + "/p.yaml", atomically: true, encoding: .utf8)
        let lint = runCLI(["lint", dir])
        #expect(lint.exitCode == ExitCode.findings)
        #expect(lint.stdout.contains("warning: 501 more findings in this file are not shown"), "\(lint.stdout.prefix(300))")
        #expect(lint.stderr == "Found 1 error and 1500 warnings in 1 file.\n", "\(lint.stderr)")
        // The same file's policy, checked by `test` before its steps, is summed alike.
        try "tests:\n  - name: t\n    steps:\n      - ask: show\n        placement: p0\n        expect: deny\n".write(
            toFile: dir + "/s.test.yaml", atomically: true, encoding: .utf8)
        let test = runCLI(["test", dir])
        #expect(test.stderr.contains("Found 1 error and 1500 warnings in 1 file."), "\(test.stderr)")
    }

    /// A missing path is reported as missing, even with an `--output` that exists: its parent folder is not taken for
    /// the policy and walked (before, a link to /dev/zero there was reported instead).
    @Test func aMissingPathIsReportedAsMissingWhateverOutputNames() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir + "/sub/z.test.yaml", withDestinationPath: "/dev/zero")
        try write("KEEP\n", to: dir + "/keep.txt")
        for arguments in [["test", dir + "/nosuchdir"], ["simulate", dir + "/nosuch.test.yaml"]] {
            let result = runCLI(arguments + ["--output", dir + "/keep.txt"])
            #expect(result.exitCode == ExitCode.failure)
            #expect(result.stderr.contains("no such"), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("/dev/zero"), "\(result.stderr)")
        }
        #expect(try String(contentsOfFile: dir + "/keep.txt", encoding: .utf8) == "KEEP\n")
    }
}
