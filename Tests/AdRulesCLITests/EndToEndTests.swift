import AdRulesCompiler
import AdRulesTestSupport
import Foundation
import Testing

/// Runs the built `adrules` binary and checks stdout, stderr and the exit code.
@Suite("adrules binary end to end")
struct EndToEndTests {
    /// A clean lint prints no finding, and its summary on stderr (cli.md), which only --quiet leaves out.
    @Test func lintOfTheShippedRulesFindsNothingAndExitsZero() throws {
        let result = try runBinary(["lint", "rules"])
        #expect(result.code == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "Found 0 errors and 0 warnings in 6 files.\n")
        let quiet = try runBinary(["lint", "rules", "--quiet"])
        #expect(quiet.code == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty)
    }

    /// The demo app ships the same policy and scenario tests as `rules/` (only the schema comment's path differs): a
    /// change to one that the other misses would test the demo against rules it no longer has.
    @Test func theDemoShipsTheSamePolicy() throws {
        let root = packageRoot()
        let shipped = try FileManager.default.contentsOfDirectory(atPath: root + "/rules").filter { !$0.hasSuffix(".model.yaml") }.sorted()
        let demo = try FileManager.default.contentsOfDirectory(atPath: root + "/Examples/Demo/Sources/Demo/rules").sorted()
        #expect(shipped == demo)
        func body(_ path: String) throws -> String {
            try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "$schema=../../../../../schema/", with: "$schema=../schema/")
        }
        for name in shipped {
            #expect(try body(root + "/rules/" + name) == body(root + "/Examples/Demo/Sources/Demo/rules/" + name), "\(name)")
        }
    }

    /// With both streams on one terminal, `adrules test` ends with its count (cli.md), and a broken policy's lint
    /// summary (on stderr, as lint writes it) comes after its findings and before its FAIL line: the streams are
    /// written in the order the run produced them.
    @Test func testsCountIsTheLastLineWithBothStreamsTogether() throws {
        let dir = try temporaryDirectory("order", [
            "p.yaml": "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m, daily_cap: six}\n",
            "p.test.yaml": "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {ask: load, placement: a, expect: allow}\n",
        ])
        let binary = try #require(adrulesBinary())
        /// The lines of `adrules test DIR` with standard error sent where standard output goes, and the exit code.
        func bothStreams(_ directory: String) throws -> (lines: [String], code: Int32) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "\"$0\" test \"$1\" 2>&1", binary, directory]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let lines = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n").map(String.init)
            process.waitUntilExit()
            return (lines, process.terminationStatus)
        }
        let (lines, code) = try bothStreams(dir)
        #expect(code == 1)
        #expect(lines == [
            "\(dir)/p.yaml:3:58: error: daily_cap must be a whole number >= 0, not \"six\" (schema/type)",
            "Found 1 error and 0 warnings in 1 file.",
            "FAIL the policy in \(dir) has errors: no test ran",
            "0 passed, 1 failed",
        ], "\(lines)")
        // A run that found no test says so before its count.
        let empty = try temporaryDirectory("order-none", ["p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n"])
        let noneLines = try bothStreams(empty).lines
        #expect(noneLines.last == "0 passed, 0 failed" && noneLines.count == 2, "\(noneLines)")
    }

    @Test func lintFindingsExitOne() throws {
        let result = try runBinary(["lint", "FIXTURES/bad.yaml"])
        #expect(result.code == 1)
        #expect(result.stdout.contains("FIXTURES/bad.yaml:5:16: error: daily_cap must be a whole number >= 0, not \"six\" (schema/type)"))
        #expect(result.stderr == "Found 6 errors and 1 warning in 1 file.\n")
    }

    @Test func usageErrorExitsTwo() throws {
        let result = try runBinary(["lint", "--bogus"])
        #expect(result.code == 2)
        #expect(result.stderr.hasPrefix("error: unexpected argument \"--bogus\""))
        // cli.md: "a one-line error and the usage": the command's USAGE line, not its whole help.
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 6 && lines[2].hasPrefix("USAGE: adrules lint [PATH...]") && lines[4] == "Run `adrules help lint` for more.", "\(result.stderr)")
    }

    /// A standard output that cannot be written (a full disk) is an I/O failure, exit 3 with a line on standard error
    /// (before, a `try!` inside Foundation's write crashed the process: SIGILL, exit 132). A reader that went away
    /// chose to stop: the run ends quietly with its own code, where SIGPIPE killed it before.
    @Test func anUnwritableStandardOutputExitsThree() throws {
        let binary = try #require(adrulesBinary(), "the adrules binary was not built")
        for output in ["/dev/full", "pipe"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["schema"]
            let err = Pipe()
            process.standardError = err
            let pipe = Pipe()
            if output == "pipe" {
                process.standardOutput = pipe
                // No one reads: the write fails with EPIPE.
                try pipe.fileHandleForReading.close()
            } else {
                process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
            }
            try process.run()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationReason == .exit, "\(output)")
            if output == "pipe" {
                #expect(process.terminationStatus == 0 && message.isEmpty, "\(output): \(process.terminationStatus) \(message)")
            } else {
                #expect(process.terminationStatus == 3 && message == "error: cannot write standard output: no space left on device\n", "\(message)")
            }
        }
    }

    /// A report sent to standard error (`--output /dev/stderr`) that cannot be written is an I/O failure, as on
    /// standard output; messages alone that cannot be written keep the run's code.
    @Test func aReportOnAnUnwritableStandardErrorExitsThree() throws {
        let binary = try #require(adrulesBinary(), "the adrules binary was not built")
        for (arguments, code) in [(["compile", "rules", "--output", "/dev/stderr"], Int32(3)), (["lint", "rules"], Int32(0))] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: packageRoot())
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationReason == .exit && process.terminationStatus == code, "\(arguments): \(process.terminationStatus)")
        }
    }

    /// A standard stream the caller closed (`>&-`) is held on /dev/null before any file is opened: a report for it is an
    /// I/O failure that says the stream is closed (an impact run's event descriptor took number 1, and the report was
    /// written to it: "invalid argument"), and an output file given with `-o` gets the report in full.
    @Test func aClosedStandardStreamTakesNoFileAndIsSaidClosed() throws {
        let binary = try #require(adrulesBinary(), "the adrules binary was not built")
        let output = scratchPath("adrules-closed") + ".json"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let impact = "impact rules/usage.model.yaml --rules rules --users 300 --days 2 --threads 2"
        for (command, code, message) in [
            ("\(impact) >&-", Int32(3), "error: cannot write standard output: bad file descriptor\n"),
            ("\(impact) --output /dev/stdout >&-", 3, "error: cannot write standard output: bad file descriptor\n"),
            ("compile rules --output //dev/./fd/1 >&-", 3, "error: cannot write standard output: bad file descriptor\n"),
            ("\(impact) --format json --output \(output) >&-", 0, ""),
            ("compile rules --output /dev/null >&-", 0, ""),
            ("lint rules >&- 2>&-", 0, nil),
            // A closed standard input holds /dev/null, where a report would be lost unsaid.
            ("lint rules --output /dev/stdin <&-", 2, "error: --output /dev/stdin is standard input, which was closed when the run started: write the report elsewhere\n"),
            ("lint rules --output //dev/./fd/0 <&-", 2, "error: --output //dev/./fd/0 is standard input, which was closed when the run started: write the report elsewhere\n"),
            ("lint rules --output /proc/thread-self/fd/0 <&-", 2, "error: --output /proc/thread-self/fd/0 is standard input, which was closed when the run started: write the report elsewhere\n"),
            ("lint rules --output /dev/null <&-", 0, nil),
        ] as [(String, Int32, String?)] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "exec '\(binary)' \(command)"]
            process.currentDirectoryURL = URL(fileURLWithPath: packageRoot())
            process.standardOutput = FileHandle.nullDevice
            let err = Pipe()
            process.standardError = err
            try process.run()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationReason == .exit && process.terminationStatus == code, "\(command): \(process.terminationStatus) \(stderr)")
            if let message { #expect(stderr == message, "\(command)") }
        }
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any]
        #expect(report?["users"] as? Int == 300)
    }

    /// A standard output the parent left non-blocking is waited for, not given up at the first full pipe (EAGAIN):
    /// a reader that starts late still gets the whole report.
    @Test func aNonBlockingStandardOutputGetsTheWholeReport() throws {
        let binary = try #require(adrulesBinary(), "the adrules binary was not built")
        let unknown = Array(repeating: "x", count: 2_000).joined(separator: ",")
        let dir = try temporaryDirectory("adrules-nonblocking", ["p.yaml": "version: 1\nplacements:\n  a: {format: banner}\ngroups:\n  g: {placements: [\(unknown)]}\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let expected = runCLI(["lint", dir + "/p.yaml", "--format", "json"]).stdout
        #expect(expected.utf8.count > 200_000, "\(expected.utf8.count) bytes: more than a pipe holds")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["lint", dir + "/p.yaml", "--format", "json"]
        let out = Pipe()
        let fd = out.fileHandleForWriting.fileDescriptor
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        try out.fileHandleForWriting.close()
        // The reader starts late: the tool meets a full pipe first.
        Thread.sleep(forTimeInterval: 0.3)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(data.count == expected.utf8.count)
    }

    /// An argument that is not UTF-8 reaches the tool with U+FFFD in it: it is refused, where before `--output` wrote
    /// (and overwrote) the file named with U+FFFD and never the one given.
    @Test func anArgumentThatIsNotUTF8IsAUsageError() {
        let result = runCLI(["lint", "rules", "--output", "rep\u{FFFD}.txt"])
        #expect(result.exitCode == 2)
        #expect(result.stderr == "error: the argument \"rep\u{FFFD}.txt\" is not UTF-8 (or holds U+FFFD): adrules reads its arguments as UTF-8; write it in UTF-8 (a path: rename the file)\n")
        #expect(!FileManager.default.fileExists(atPath: "rep\u{FFFD}.txt"))
    }

    /// Ctrl-C and SIGTERM are ignored only while a regular file is written in place (its previous contents are kept
    /// until then); a FIFO has nothing to keep, and a write to one whose reader stopped reading stays interruptible.
    @Test func aBlockedWriteToAFIFOStaysInterruptible() throws {
        let binary = try #require(adrulesBinary(), "the adrules binary was not built")
        let unknown = Array(repeating: "x", count: 2_000).joined(separator: ",")
        let dir = try temporaryDirectory("adrules-sigterm", ["p.yaml": "version: 1\nplacements:\n  a: {format: banner}\ngroups:\n  g: {placements: [\(unknown)]}\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/out.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        // A reader is open (the tool refuses a FIFO no process reads) and never reads.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        // The test runner's children inherit SIGTERM blocked: Python unblocks it, puts the default action back and
        // executes the tool in its place (same process id).
        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            "-c", "import os, signal, sys; signal.signal(signal.SIGTERM, signal.SIG_DFL); signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM]); os.execv(sys.argv[1], sys.argv[1:])",
            binary, "lint", dir + "/p.yaml", "--format", "json", "--output", fifo,
        ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 0.8)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM)
    }

    /// A one-character relative name (`--output z`, a missing input `y`) crashed the tool inside Foundation's
    /// `deletingLastPathComponent` (SIGILL, exit 132); `PathText.parent` does the same arithmetic.
    @Test func oneCharacterNamesAreOrdinaryPaths() throws {
        #expect(["a/b", "/z", "z", "a/b/", "/", "a//b", ""].map(PathText.parent) == ["a", "/", "", "a", "/", "a", ""])
        let binary = try #require(adrulesBinary(), "the adrules binary was not built")
        let dir = try temporaryDirectory("adrules-short", ["p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for arguments in [["lint", "p.yaml", "--output", "z"], ["compile", "y", "-o", "y.json"]] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: dir)
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationReason == .exit && process.terminationStatus == (arguments[0] == "lint" ? 0 : 3), "\(arguments): \(process.terminationStatus)")
        }
        #expect(FileManager.default.fileExists(atPath: dir + "/z"))
    }

    @Test func missingPathExitsThree() throws {
        let result = try runBinary(["lint", "FIXTURES/does-not-exist"])
        #expect(result.code == 3)
        #expect(result.stderr.contains("no such file or directory"))
    }

    @Test func passingScenariosExitZero() throws {
        let result = try runBinary(["test", "FIXTURES/scenarios"])
        #expect(result.code == 0, "\(result)")
        #expect(result.stdout == "PASS a cold start shows when the first load completes\n1 passed, 0 failed\n")
    }

    @Test func failingScenarioShowsExpectedAndActualSideBySide() throws {
        let result = try runBinary(["test", "FIXTURES/failing"])
        #expect(result.code == 1)
        expectGolden(result.stdout, "test.failing.txt")
        #expect(result.stdout.hasSuffix("\n1 passed, 1 failed\n"))
    }

    @Test func malformedScenarioIsReportedLikeLintAndFails() throws {
        let result = try runBinary(["test", "FIXTURES/malformed"])
        #expect(result.code == 1)
        #expect(result.stdout.contains("bad.test.yaml:3:12: error: start must be an RFC 3339 time"))
        #expect(result.stdout.contains("bad.test.yaml:5:17: error: event must be one of"))
        #expect(result.stdout.contains("did you mean \"app_launched\"?"))
        #expect(result.stdout.contains("bad.test.yaml:6:50: error: expect must be one of allow, deny"))
        #expect(result.stdout.contains("error: a reason code must be one of"))
        #expect(result.stdout.hasSuffix("0 passed, 1 failed\n"))
    }

    @Test func shippedScenariosPass() throws {
        let result = try runBinary(["test", "rules"])
        #expect(result.code == 0, "\(result.stdout)")
        #expect(result.stdout.hasSuffix(" passed, 0 failed\n"))
    }

    @Test func simulateMatchesItsGoldenFile() throws {
        let result = try runBinary(["simulate", "FIXTURES/scenarios/pass.test.yaml"])
        #expect(result.code == 0)
        expectGolden(result.stdout, "simulate.txt")
        let json = try runBinary(["simulate", "FIXTURES/scenarios/pass.test.yaml", "--format", "json"])
        #expect(json.code == 0)
        expectGolden(json.stdout, "simulate.json")
    }

    /// The json steps name an external fullscreen ad's source, as the text steps do.
    @Test func simulateJSONNamesExternalSources() throws {
        let json = try runBinary(["simulate", packageRoot() + "/rules/app_open.test.yaml", "--format", "json"])
        #expect(json.code == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let steps = (object["tests"] as? [[String: Any]] ?? []).flatMap { $0["steps"] as? [[String: Any]] ?? [] }
        let opened = steps.first { $0["event"] as? String == "fullscreen_opened" }
        #expect(opened?["source"] as? String == "mediation_sdk", "\(String(describing: opened))")
    }

    @Test func schemaIsTheCommittedFile() throws {
        let result = try runBinary(["schema"])
        #expect(result.code == 0)
        let committed = try String(contentsOfFile: packageRoot() + "/schema/rules.schema.json", encoding: .utf8)
        #expect(result.stdout == committed)
    }

    @Test func nothingInAFileCrashesTheCLI() throws {
        let directory = scratchPath("adrules-fuzz")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let samples = [
            "", "\u{FEFF}version: 1", "version: [", "{{{{", ": : :", "version: 1\nplacements: 3", "version: 1\nplacements:\n  ? [a]\n  : b",
            "version: 1\nrules: [{id: A, deny: [], when: '((('}]", "- - - -", "version: 99999999999999999999999",
            "version: 1\nplacements:\n  a: {format: app_open, min_interval: 99999999999999d}", "\t\tversion: 1",
        ]
        for (i, text) in samples.enumerated() {
            _ = FileManager.default.createFile(atPath: directory + "/\(i).yaml", contents: Data(text.utf8))
        }
        _ = FileManager.default.createFile(atPath: directory + "/bin.yaml", contents: Data([0xC3, 0x28, 0xFF, 0x00, 0x41]))
        let result = try runBinary(["lint", directory])
        #expect(result.code == 1)
        #expect(!result.stdout.isEmpty)
    }
}
