import AdRulesTestSupport
import Foundation
import Testing

/// What a hostile-input hunt (2026-12-07) found unclear or wrong in the CLI's answers to odd input: each said what was
/// wrong but not what to do, or did the wrong thing quietly.
@Suite("CLI: odd input told what to do")
struct HostileHuntMessageTests {
    /// `compile` run from a directory removed while the shell stood in it named its files relative to `/`
    /// (`tmp/w/rules/app_open.yaml`), with a digest unlike the same policy's compiled anywhere else; it now stops, exit 3.
    @Test func compileWithNoCurrentDirectoryStops() throws {
        let binary = try #require(adrulesBinary(), "the adrules binary was not built")
        let directory = try temporaryDirectory("adrules-gone", ["rules/a.yaml": "version: 1\nplacements:\n  a: {format: banner}\n"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func compile(_ extra: String) throws -> (code: Int32, stderr: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "mkdir gone && cd gone && rmdir ../gone && exec \"$0\" compile \"$1\"/rules -o \"$1\"/out.json \(extra)", binary, directory]
            process.currentDirectoryURL = URL(fileURLWithPath: directory)
            let err = Pipe()
            process.standardError = err
            try process.run()
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
        let stopped = try compile("")
        #expect(stopped.code == 3)
        #expect(stopped.stderr.contains("the current directory no longer exists"), "\(stopped.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/out.json"))
        // With the root given as an absolute path, nothing depends on the current directory.
        let rooted = try compile("--root \"$1\"")
        #expect(rooted.code == 0, "\(rooted.stderr)")
        let written = try String(contentsOfFile: directory + "/out.json", encoding: .utf8)
        #expect(written.contains(#""files":["rules/a.yaml"]"#), "\(written.prefix(200))")
    }

    /// A target's `rules` that is a link to a folder elsewhere (shared by two targets), as the build plugin compiles
    /// it: `--root` was said not to hold it (its resolved path is elsewhere), and without `--root` its files were named
    /// where the link leads (`shared/p.yaml`), not as lint names them (`rules/p.yaml`).
    @Test func aRulesFolderThatIsALinkIsCompiledUnderItsOwnName() throws {
        let directory = try temporaryDirectory("adrules-linked-rules", [
            "shared/p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n", "app/Sources/App/main.swift": "", "app/Sources/Other/x.swift": "",
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/app/Sources/App"
        try FileManager.default.createSymbolicLink(atPath: target + "/rules", withDestinationPath: "../../../shared")
        let result = runCLI(["compile", target + "/rules", "--root", target, "--format", "swift", "--quiet"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("//   rules/p.yaml\n"), "\(result.stdout.prefix(300))")
        let json = runCLI(["compile", target + "/rules", "--root", target])
        #expect(json.stdout.contains(#""files":["rules/p.yaml"]"#), "\(json.stdout.prefix(200))")
        // A root that holds the policy neither as written nor once resolved is still refused.
        let other = runCLI(["compile", target + "/rules", "--root", directory + "/app/Sources/Other"])
        #expect(other.exitCode == 2 && other.stderr.contains("does not hold"), "\(other.stderr)")
        #expect(runCLI(["compile", directory + "/shared", "--root", target]).exitCode == 2)
    }

    /// A directory holding only a compiled policy was "no rule files in DIR", with no word of the file it skipped.
    @Test func aDirectoryOfACompiledPolicyNamesIt() throws {
        let directory = try temporaryDirectory("adrules-compiled-only", ["rules/a.yaml": "version: 1\nplacements:\n  a: {format: banner}\n", "out/notes.txt": "x"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(runCLI(["compile", directory + "/rules", "-o", directory + "/out/policy.json"]).exitCode == 0)
        let result = runCLI(["lint", directory + "/out"])
        #expect(result.exitCode == 3)
        #expect(result.stderr.hasSuffix("; it holds policy.json, a compiled policy, which is read when named: give \(directory)/out/policy.json\n"), "\(result.stderr)")
        #expect(runCLI(["lint", directory + "/out/policy.json"]).exitCode == 0)
        // A `package.json` is no compiled policy, and is not offered as one.
        try FileManager.default.removeItem(atPath: directory + "/out/policy.json")
        try "{\"name\": \"app\"}".write(toFile: directory + "/out/package.json", atomically: true, encoding: .utf8)
        let other = runCLI(["lint", directory + "/out"])
        #expect(other.exitCode == 3 && !other.stderr.contains("package.json"), "\(other.stderr)")
    }

    /// `compile` of a policy given through a linked folder with `--root` given resolved (or the other way round, as a
    /// shell's `$(pwd)` and the process's current directory differ): the files are named relative to the root once
    /// links are resolved, as before, not relative to the policy's parent folder.
    @Test func aRootGivenThroughALinkNamesFilesAsBefore() throws {
        let directory = try temporaryDirectory("adrules-root-link", ["real/proj/Sources/App/rules/p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: directory + "/real")
        for (policy, root) in [("/link/proj/Sources/App/rules", "/real/proj"), ("/real/proj/Sources/App/rules", "/link/proj")] {
            let result = runCLI(["compile", directory + policy, "--root", directory + root])
            #expect(result.stdout.contains(#""files":["Sources/App/rules/p.yaml"]"#), "\(policy) \(root): \(result.stderr) \(result.stdout.prefix(200))")
        }
    }

    /// A scenario in a folder of more than 10,000 entries, run with no --rules: the folder is taken for its policy and
    /// is too large to read; the message now says so, and to name the policy (it said only "split it").
    @Test func aScenarioInALargeFolderIsToldToNameItsPolicy() throws {
        let directory = try temporaryDirectory("adrules-large-folder", [:])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for i in 0...10_000 { #expect(FileManager.default.createFile(atPath: directory + "/f\(i)", contents: nil)) }
        try String(contentsOfFile: packageRoot() + "/rules/app_open.test.yaml", encoding: .utf8).write(toFile: directory + "/t.test.yaml", atomically: true, encoding: .utf8)
        let result = runCLI(["test", directory + "/t.test.yaml"])
        #expect(result.exitCode == 3)
        #expect(result.stderr.contains("holds more than 10000 entries") && result.stderr.contains("add --rules with the policy's directory or file"), "\(result.stderr)")
        #expect(runCLI(["test", directory + "/t.test.yaml", "--rules", packageRoot() + "/rules"]).exitCode == 0)
    }

    /// An output name ending in `/` where nothing is was "is a directory"; an existing directory still is.
    @Test func anOutputNameEndingInASlashSaysSo() throws {
        let directory = try temporaryDirectory("adrules-slash", [:])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for arguments in [["schema"], ["lint", packageRoot() + "/rules"]] {
            let result = runCLI(arguments + ["-o", directory + "/report.json/"])
            #expect(result.exitCode == 3)
            #expect(result.stderr.contains("the name ends in /, which names a directory, and there is none: give a file's name, such as \(directory)/report.json"), "\(result.stderr)")
        }
        #expect(runCLI(["schema", "-o", directory + "/"]).stderr.hasSuffix(": is a directory\n"))
    }

    /// A word that starts with `-` after `--` is a path: when it names no file, the message says why it was read as one.
    @Test(arguments: [["lint", "--", "--strict"], ["simulate", "--", "--x"], ["impact", "--", "--x"]])
    func anOptionAfterTheEndOfOptionsIsToldSo(arguments: [String]) {
        let result = runCLI(arguments)
        #expect(result.exitCode == 3)
        #expect(result.stderr.hasSuffix("(every word after -- is a path: write the options before --)\n"), "\(result.stderr)")
        #expect(!runCLI(["lint", "FIXTURES/missing.yaml"]).stderr.contains("every word after --"))
    }

    /// `-` alone, standard input to many tools, is a path to adrules (there was no `--`): it was told that every word
    /// after `--` is a path. It is told that adrules reads no standard input.
    @Test(arguments: [["lint", "-"], ["test", "-"], ["simulate", "-"], ["impact", "-"], ["compile", "-"]])
    func aDashAloneIsToldThatInputsAreFiles(arguments: [String]) {
        let result = runCLI(arguments)
        #expect(result.exitCode == 3)
        #expect(result.stderr.hasSuffix("(adrules reads no input from standard input: give the path of a file or directory)\n"), "\(result.stderr)")
        #expect(!result.stderr.contains("every word after --"), "\(result.stderr)")
    }

    /// A pattern the shell did not expand (`'rules/*.yaml'`, quoted in a CI script) names no file: it is told that adrules
    /// reads files and directories, and the directory to give when there is one; a command that reads one file is told
    /// to name it. It was "no such file or directory" alone.
    @Test func aPatternTheShellDidNotExpandIsToldSo() {
        let rules = packageRoot() + "/rules"
        let tail = "(a pattern the shell did not expand, as in quotes: adrules reads files and directories, not patterns: "
        for arguments in [["lint", rules + "/*.yaml"], ["test", rules + "/*.test.yaml"], ["test", rules, "--rules", rules + "/[ab]*"]] {
            let result = runCLI(arguments)
            #expect(result.exitCode == 3, "\(arguments)")
            #expect(result.stderr.hasSuffix(tail + "give the directory, \(rules), or leave the pattern unquoted for the shell to expand)\n"), "\(result.stderr)")
        }
        #expect(runCLI(["lint", "no-such-folder/*.yaml"]).stderr.hasSuffix(tail + "leave the pattern unquoted for the shell to expand)\n"))
        for arguments in [["simulate", rules + "/*.test.yaml"], ["impact", rules + "/*.model.yaml"]] {
            let result = runCLI(arguments)
            #expect(result.exitCode == 3 && result.stderr.hasSuffix("(a pattern the shell did not expand, as in quotes: adrules reads the one file named, not a pattern: name it)\n"),
                    "\(arguments): \(result.stderr)")
        }
        #expect(!runCLI(["lint", rules + "/missing.yaml"]).stderr.contains("pattern"))
    }

    /// A whole number of more digits than a rule file or a scenario reads (18) is refused in a usage model too, saying
    /// so: 20 digits were "not one: write a whole number", and 19 were read.
    @Test(arguments: ["99999999999999999999", "9223372036854775807", "0x1234567890abcdef"])
    func aModelIntegerOfTooManyDigitsSaysSo(value: String) throws {
        let directory = try temporaryDirectory("adrules-model-digits", [
            "rules/a.yaml": "version: 1\nattributes:\n  level: int\nplacements:\n  a: {format: interstitial, min_interval: 1m}\nrules:\n  - {id: r, deny: [a], when: level < 5}\n",
            "m.model.yaml": "version: 1\nusers: 10\ndays: 1\nsegments:\n  - name: all\n    share: 1\n    attributes: {level: \(value)}\n    actions:\n      - {placement: a, every: {exponential: 2m}}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = runCLI(["impact", directory + "/m.model.yaml", "--rules", directory + "/rules"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("attribute level is declared int in the policy, and \(value) is not one: it is written with more digits than this tool reads safely (\(value.hasPrefix("0x") ? "15 digits in hex" : "18 digits") at most"), "\(result.stderr)")
    }
}

/// What a second hostile-input hunt (2026-12-07) found in the walk of a policy directory: a link it could not resolve
/// was read unchecked, names that differ only in Unicode normalization were taken for one another, and a file whose name
/// is not UTF-8 stopped the whole policy though it was no rule file.
@Suite("CLI: the walk of a policy directory")
struct PolicyWalkHuntTests {
    /// Runs a shell script in `directory`; true when it exited 0.
    static func shell(_ script: String, in directory: String) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// A link that leads, through links inside the checkout, past the length the system resolves and back out to a file
    /// elsewhere: `realpath` fails, and the check that a link stays inside the directory was skipped, so the outside
    /// file was read and its lines echoed. Such a link is refused now.
    @Test func aLinkThatCannotBeResolvedIsRefused() throws {
        let directory = try temporaryDirectory("adrules-deep-link", [
            "outside/secret.yaml": "version: 1\nplacements:\n  TOPSECRET: {format: banner, daily_cap: six}\n",
            "repo/rules/p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n",
        ])
        defer { _ = try? Self.shell("chmod -R u+w . ; rm -rf ./*", in: directory); try? FileManager.default.removeItem(atPath: directory) }
        let script = """
            chain=$(printf 'd%.0s' {1..200}); chain=$(for i in {1..15}; do printf '%s/' "$chain"; done); chain=${chain%/}
            mkdir -p "a/$chain" && ln -s "a/$chain" L1 && mkdir -p "a/$chain/b/$chain" && ln -s "L1/b/$chain" L2 \
              && ln -s "../L2/$(for i in {1..32}; do printf '../'; done)../outside/secret.yaml" rules/leak.yaml
            """
        #expect(try Self.shell(script, in: directory + "/repo"))
        let result = runCLI(["lint", directory + "/repo/rules", "--format", "text"])
        #expect(result.exitCode == 3)
        #expect(result.stderr.contains("leak.yaml: a symbolic link whose target cannot be resolved"), "\(result.stderr)")
        #expect(!result.stdout.contains("TOPSECRET") && !result.stderr.contains("TOPSECRET"))
    }

    /// Two files whose names differ only in how `é` is written: lint took the second for the first (a suppression
    /// comment in one hid the other's warning, and `--strict` passed). They are refused now, naming both spellings.
    @Test func namesThatDifferOnlyInNormalizationAreRefused() throws {
        // Two keys of one dictionary literal would be one key: the second file is written apart.
        let directory = try temporaryDirectory("adrules-nfd", [
            "rules/\u{E9}.yaml": "version: 1\nplacements:\n  a:\n    format: interstitial\n    # adrules:disable-next-line cap/zero\n    daily_cap: 3\n"
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "version: 1\nplacements:\n  b: {format: interstitial, min_interval: 1m, daily_cap: 0}\n".write(
            toFile: directory + "/rules/e\u{301}.yaml", atomically: false, encoding: .utf8)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/rules").count == 2, "the file system keeps both")
        let result = runCLI(["lint", directory + "/rules", "--strict"])
        #expect(result.exitCode == 3)
        #expect(result.stderr.contains("differ only in how their accented letters are encoded (Unicode normalization: e\\u{301}.yaml and \\u{E9}.yaml)"), "\(result.stderr)")
        // Given as two arguments (or under two such directories), a usage error.
        let arguments = runCLI(["test", directory + "/rules/\u{E9}.yaml", directory + "/rules/e\u{301}.yaml"])
        #expect(arguments.exitCode == 2)
        #expect(arguments.stderr.contains("Unicode normalization"), "\(arguments.stderr)")
        // Two notes of such names are left alone: neither is a rule file or a folder.
        let notes = try temporaryDirectory("adrules-nfd-notes", ["rules/p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n", "rules/caf\u{E9}.txt": "x"])
        defer { try? FileManager.default.removeItem(atPath: notes) }
        try "y".write(toFile: notes + "/rules/cafe\u{301}.txt", atomically: false, encoding: .utf8)
        #expect(runCLI(["lint", notes + "/rules"]).exitCode == 0)
        // A pair of rule files sorted after such notes is still found.
        try "version: 1\nplacements:\n  b: {format: banner}\n".write(toFile: notes + "/rules/z\u{E9}.yaml", atomically: false, encoding: .utf8)
        try "version: 1\nplacements:\n  c: {format: banner}\n".write(toFile: notes + "/rules/ze\u{301}.yaml", atomically: false, encoding: .utf8)
        #expect(runCLI(["lint", notes + "/rules"]).exitCode == 3)
        // Directories on the way count too: two scenarios under two such directories would share one policy.
        #expect(runCLI(["test", directory + "/\u{E9}/a.test.yaml", directory + "/e\u{301}/b.test.yaml"]).exitCode == 2)
        #expect(runCLI(["test", directory + "/\u{E9}/a.test.yaml", directory + "/\u{E9}/b.test.yaml"]).exitCode == 3, "missing files, no clash")
    }

    /// The check above kept the text up to each `/` of every path given: an argument of 128,000 slashes, within the
    /// 128 KiB the system passes, made 128,000 texts of 64,000 bytes on average and crashed at 4 GB (64,000 took 2 GB
    /// and 5.9 s). Each name is now compared once, and such a path is missing like any other, within 1 GB.
    @Test func aPathOfManySlashesIsCheckedInLinearTime() throws {
        let binary = try #require(adrulesBinary(), "the adrules binary was not built")
        /// The exit code of `adrules ARGUMENTS` with 1 GB of address space.
        func exitCode(_ arguments: [String]) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -v 1000000; exec \"$@\" 2>/dev/null >/dev/null", "sh", binary] + arguments
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(try exitCode(["lint", String(repeating: "/", count: 128_000)]) == 3)
        #expect(try exitCode(["lint", "rules", "--output", String(repeating: "a/", count: 64_000) + "out.txt"]) == 3)
        // The clash is still found past thousands of directories, in any of the paths given.
        let deep = String(repeating: "d/", count: 10_000)
        let clash = runCLI(["test", deep + "\u{E9}/a.test.yaml", "--rules", deep + "e\u{301}/rules"])
        #expect(clash.exitCode == 2)
        #expect(clash.stderr.contains("\\u{E9} and d/d/"), "\(clash.stderr.suffix(300))")
        #expect(clash.stderr.contains("/e\\u{301}), which adrules cannot tell apart"), "\(clash.stderr.suffix(300))")
    }

    /// A file whose name is not UTF-8 and is no rule file (`notes\xFF.txt`) is left alone; one named as a rule file, or
    /// a directory (which may hold some), is refused as before.
    @Test func aNameThatIsNotUTF8IsRefusedOnlyWhereItCouldHoldRules() throws {
        let directory = try temporaryDirectory("adrules-not-utf8", ["rules/p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try Self.shell("printf x > \"$(printf 'rules/notes\\xff.txt')\"", in: directory))
        #expect(runCLI(["lint", directory + "/rules"]).exitCode == 0)
        #expect(try Self.shell("mkdir \"$(printf 'rules/img\\xff')\"", in: directory))
        let folder = runCLI(["lint", directory + "/rules"])
        #expect(folder.exitCode == 3 && folder.stderr.contains("the name is not UTF-8"), "\(folder.stderr)")
        #expect(try Self.shell("rmdir rules/img* && printf 'version: 1\\n' > \"$(printf 'rules/x\\xff.yaml')\"", in: directory))
        let file = runCLI(["lint", directory + "/rules"])
        #expect(file.exitCode == 3 && file.stderr.contains("the name is not UTF-8"), "\(file.stderr)")
    }
}
