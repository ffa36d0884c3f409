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

    /// A directory holding only a compiled policy was "no rule files in DIR", with no word of the file it skipped.
    @Test func aDirectoryOfACompiledPolicyNamesIt() throws {
        let directory = try temporaryDirectory("adrules-compiled-only", ["rules/a.yaml": "version: 1\nplacements:\n  a: {format: banner}\n", "out/notes.txt": "x"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(runCLI(["compile", directory + "/rules", "-o", directory + "/out/policy.json"]).exitCode == 0)
        let result = runCLI(["lint", directory + "/out"])
        #expect(result.exitCode == 3)
        #expect(result.stderr.hasSuffix("; it holds policy.json, a compiled policy, which is read when named: give \(directory)/out/policy.json\n"), "\(result.stderr)")
        #expect(runCLI(["lint", directory + "/out/policy.json"]).exitCode == 0)
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

    /// A whole number of more digits than a rule file or a scenario reads (18) is refused in a usage model too, saying
    /// so: 20 digits were "not one: write a whole number", and 19 were read.
    @Test(arguments: ["99999999999999999999", "9223372036854775807"])
    func aModelIntegerOfTooManyDigitsSaysSo(value: String) throws {
        let directory = try temporaryDirectory("adrules-model-digits", [
            "rules/a.yaml": "version: 1\nattributes:\n  level: int\nplacements:\n  a: {format: interstitial, min_interval: 1m}\nrules:\n  - {id: r, deny: [a], when: level < 5}\n",
            "m.model.yaml": "version: 1\nusers: 10\ndays: 1\nsegments:\n  - name: all\n    share: 1\n    attributes: {level: \(value)}\n    actions:\n      - {placement: a, every: {exponential: 2m}}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = runCLI(["impact", directory + "/m.model.yaml", "--rules", directory + "/rules"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("attribute level is declared int in the policy, and \(value) is not one: it is written with more digits than this tool reads safely (18 at most"), "\(result.stderr)")
    }
}
