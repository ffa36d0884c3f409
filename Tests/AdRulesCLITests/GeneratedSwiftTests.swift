import AdRulesTestSupport
import AdRules
import AdRulesCLI
import AdRulesCompiler
import Foundation
import Testing

@Suite("Generated Swift (adrules compile --format swift)")
struct GeneratedSwiftTests {
    @Test(arguments: [
        ("app_open", "appOpen"), ("level-end", "levelEnd"), ("home.banner", "homeBanner"), ("rewarded_hint", "rewardedHint"),
        ("AppOpen", "appOpen"), ("URL_banner", "urlBanner"), ("URLBanner", "urlBanner"), ("a", "a"), ("x__y", "xY"),
        ("2x_coins", "_2xCoins"), ("42", "_42"), ("default", "`default`"), ("class", "`class`"), ("self", "_self"),
        ("init", "_init"), ("all", "_all"), ("Type", "type"), ("_", "_placement"), ("-.-", "_placement"),
    ])
    func placementIdsBecomeSwiftNames(id: String, name: String) {
        #expect(GeneratedSwift.identifiers(for: [id]) == [name])
    }

    /// Ids that share a Swift name are numbered in declaration order, and none keeps the plain name: an id added beside
    /// one the app's code names makes that name go, rather than take it over.
    @Test func namesStayUniqueInDeclarationOrder() {
        let names = GeneratedSwift.identifiers(for: ["app_open", "app-open", "appOpen", "appOpen_2", "x", "X", "y"])
        #expect(names == ["appOpen_1", "appOpen_2", "appOpen_3", "appOpen2", "x_1", "x_2", "y"])
        #expect(GeneratedSwift.identifiers(for: ["level_end"]) == ["levelEnd"])
        #expect(!GeneratedSwift.identifiers(for: ["level-end", "level_end"]).contains("levelEnd"))
    }

    /// Many ids with one Swift name are numbered in order, each clash from the number after the last one given.
    @Test func manyClashesAreNumberedInOrder() {
        let ids = (0..<3_000).map { i in ["a-b", "a_b", "a.b"][i % 3] + String(repeating: "_", count: i / 3) } + ["x", "x-"]
        let names = GeneratedSwift.identifiers(for: ids)
        #expect(names.prefix(4) == ["aB_1", "aB_2", "aB_3", "aB_4"])
        #expect(names.suffix(3) == ["aB_3000", "x_1", "x_2"])
        #expect(Set(names).count == names.count)
    }

    @Test(arguments: [
        ("plain", "#\"plain\"#"), (##"a "# b"##, ###"##"a "# b"##"###), (###"\#(x) and "##"###, ####"###"\#(x) and "##"###"####),
        ("a\u{202E}b\nc\u{2028}", ##"#"a\#u{202E}b\#u{A}c\#u{2028}"#"##),
    ])
    func rawStringLiteralsHoldTheTextVerbatim(text: String, literal: String) {
        let made = GeneratedSwift.rawStringLiteral(text)
        #expect(made == literal)
        // Nothing inside can end the literal or start an escape: its delimiter is one # longer than any run inside.
        let hashes = String(made.prefix { $0 == "#" })
        #expect(!text.contains("\"" + hashes) && !text.contains("\\" + hashes))
        #expect(!made.unicodeScalars.contains(where: ControlCharacters.isControl))
    }

    /// Two ids with one Swift name (`level-end`, `level_end`) are a warning at the one declared later, with a note at the
    /// other: both took a number, so code that names `levelEnd` no longer compiles, rather than asking about whichever
    /// id is declared first. Only the Swift output warns; `--strict` fails.
    @Test func idsThatShareASwiftNameAreAWarning() throws {
        let dir = try temporaryDirectory("adrules-swift-clash", [
            "rules/a.yaml": "version: 1\nplacements:\n  level-end: {format: banner}\n",
            "rules/b.yaml": "version: 1\nplacements:\n  level_end: {format: interstitial, min_interval: 1m}\n  other: {format: banner}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let swift = runCLI(["compile", dir + "/rules", "--root", dir, "--format", "swift", "--color", "never"])
        #expect(swift.exitCode == 0)
        #expect(swift.stderr.hasPrefix(
            "\(dir)/rules/b.yaml:3:3: warning: placement \"level_end\" is levelEnd_2 in the generated Swift, and \"level-end\", declared before it, is levelEnd_1: "
                + "both would be levelEnd, so neither is: rename one of the two so that each id has a name of its own"), "\(swift.stderr)")
        #expect(swift.stderr.contains("\(dir)/rules/a.yaml:3:3: note: \"level-end\" is declared here\n"), "\(swift.stderr)")
        #expect(swift.stderr.hasSuffix("Found 0 errors and 1 warning in 2 files.\n"), "\(swift.stderr)")
        #expect(swift.stdout.contains("static var levelEnd_2: AdRules.PlacementID { AdRules.PlacementID(rawValue: \"level_end\""))
        #expect(swift.stdout.contains("static var levelEnd_1: AdRules.PlacementID { AdRules.PlacementID(rawValue: \"level-end\"") && !swift.stdout.contains("static var levelEnd:"))
        #expect(runCLI(["compile", dir + "/rules", "--format", "swift", "--strict"]).exitCode == 1)
        // The JSON document names no Swift: no warning.
        let json = runCLI(["compile", dir + "/rules", "--root", dir])
        #expect(json.exitCode == 0 && json.stderr.isEmpty, "\(json.stderr)")
    }

    /// `swift/name-clash` is a warning as any other: a comment naming it hides it, and a file shows at most 1,000.
    @Test func aNameClashIsHiddenByACommentAndCountsTowardsAFilesLimit() throws {
        // 1,006 ids that are all `aB` in Swift (`a-b`, `a_b`, `a.b`, `a--b`, …): 1,005 clashes.
        var ids: [String] = []
        var separators = [""]
        while ids.count < 1006 {
            separators = separators.flatMap { s in ["-", "_", "."].map { s + $0 } }
            ids += separators.map { "a\($0)b" }
        }
        let many = "version: 1\nplacements:\n" + ids.prefix(1006).map { "  \($0): {format: banner}\n" }.joined()
        let dir = try temporaryDirectory("adrules-swift-clash-limit", [
            "hidden/a.yaml": "version: 1\nplacements:\n  level-end: {format: banner}\n"
                + "  # adrules:disable-next-line swift/name-clash -- the old app asks for it\n  level_end: {format: banner}\n",
            "many/a.yaml": many,
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let hidden = runCLI(["compile", dir + "/hidden", "--format", "swift", "--strict", "-o", dir + "/hidden.swift"])
        #expect(hidden.exitCode == 0 && hidden.stderr.isEmpty, "\(hidden.stderr)")
        // The comment names a rule there is: lint does not call it unknown.
        let lint = runCLI(["lint", dir + "/hidden", "--quiet"])
        #expect(lint.exitCode == 0 && lint.stdout.isEmpty, "\(lint.stdout)")
        let limited = runCLI(["compile", dir + "/many", "--format", "swift", "--color", "never", "-o", dir + "/many.swift"])
        #expect(limited.exitCode == 0)
        let lines = limited.stderr.split(separator: "\n")
        #expect(lines.filter { $0.hasSuffix("(swift/name-clash)") }.count == 1000)
        #expect(lines.first == "\(dir)/many/a.yaml:1:1: warning: 5 more findings in this file are not shown: fix the ones listed and lint again (lint/too-many-findings)")
        #expect(lines.last == "Found 0 errors and 1005 warnings in 1 file.")
        // A compiled policy has the same limit.
        #expect(runCLI(["compile", dir + "/many", "-o", dir + "/many.json"]).exitCode == 0)
        let compiled = runCLI(["compile", dir + "/many.json", "--format", "swift", "--color", "never", "-o", dir + "/many2.swift"])
        let compiledLines = compiled.stderr.split(separator: "\n")
        #expect(compiledLines.filter { $0.hasSuffix("(swift/name-clash)") }.count == 1000)
        #expect(compiledLines.last == "Found 0 errors and 1005 warnings in 1 file.")
    }

    /// A file with a syntax error leaves its ids out, which changes the numbers the others get: no clash is said then
    /// (cli.md r2: no policy-wide finding after a syntax error). A compiled policy named otherwise (`policy.bak`) is
    /// compiled as one, as lint reads it.
    @Test func aNameClashWaitsForASyntaxErrorAndACompiledPolicyMayHaveAnyName() throws {
        let dir = try temporaryDirectory("adrules-swift-clash-broken", [
            "broken/a.yaml": "version: 1\nplacements:\n  level_end: {format: banner\n",
            "broken/b.yaml": "version: 1\nplacements:\n  level-end: {format: banner}\n  Level-End: {format: banner}\n",
            "ok/a.yaml": "version: 1\nplacements:\n  level-end: {format: banner}\n  level_end: {format: banner}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let broken = runCLI(["compile", dir + "/broken", "--format", "swift", "--color", "never"])
        #expect(broken.exitCode == 1)
        #expect(broken.stderr.contains("(yaml/syntax)") && !broken.stderr.contains("swift/name-clash"), "\(broken.stderr)")
        #expect(runCLI(["compile", dir + "/ok", "-o", dir + "/policy.json"]).exitCode == 0)
        try FileManager.default.moveItem(atPath: dir + "/policy.json", toPath: dir + "/policy.bak")
        let renamed = runCLI(["compile", dir + "/policy.bak", "--format", "swift", "--color", "never", "-o", dir + "/out.swift"])
        #expect(renamed.exitCode == 0)
        #expect(renamed.stderr.contains("warning: placement \"level_end\" is levelEnd_2") && !renamed.stderr.contains(": error:"), "\(renamed.stderr)")
        #expect(runCLI(["compile", dir + "/policy.bak", "-o", dir + "/again.json"]).exitCode == 0)
    }

    @Test func theSwiftFileEmbedsTheCompiledPolicyAndNamesEveryPlacement() throws {
        let root = packageRoot()
        let result = runCLI(["compile", root + "/rules", "--root", root, "--format", "swift"])
        #expect(result.exitCode == 0)
        #expect(result.stderr == "")
        let source = result.stdout
        #expect(source.contains("static func bundled() throws -> AdRules.Policy"))
        // Each id carries its index in the embedded policy, the slot an ask checks before any hash look-up.
        let policy = try Policy(contentsOf: root + "/rules")
        for (name, id) in [("appOpen", "app_open"), ("rewardedHint", "rewarded_hint"), ("levelEnd", "level_end")] {
            let slot = try #require(policy.placements.firstIndex { $0.id == id })
            #expect(source.contains("static var \(name): AdRules.PlacementID { AdRules.PlacementID(rawValue: \"\(id)\", slot: \(slot)) }"))
        }
        // The embedded document is the one `adrules compile` writes, byte for byte.
        let document = try #require(try PolicyCompiler.compile(path: root + "/rules", root: root).document)
        var json = String(decoding: document, as: UTF8.self)
        json.removeLast()
        #expect(source.contains("Data(#\"" + json + "\"#.utf8)"))
        #expect(source.contains("//   rules/app_open.yaml\n"))
        #expect(!source.contains("/work/") && !source.contains(root))
    }

    /// A placement's comment names its file by its name alone when the path is long: the header lists the paths once
    /// (60,000 placements under a 3.7 KB path repeated it into 266 MB of Swift).
    @Test func aLongPathIsNamedOnceInTheSwift() throws {
        let long = String(repeating: "d", count: 200)
        let dir = try temporaryDirectory("adrules-long-path", [:])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/" + long, withIntermediateDirectories: true)
        try "version: 1\nplacements:\n  a: {format: banner}\n  b: {format: banner}\n".write(toFile: dir + "/\(long)/p.yaml", atomically: true, encoding: .utf8)
        let result = runCLI(["compile", dir + "/" + long, "--root", dir, "--format", "swift"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("    /// `a`: banner, …/p.yaml:3:3.\n"))
        #expect(result.stdout.contains("    /// `b`: banner, …/p.yaml:4:3.\n"))
        #expect(result.stdout.components(separatedBy: long).count - 1 == 2, "the header, and the embedded document")
    }

    @Test func aPolicyWithErrorsWritesNoSwiftAndNamesTheLine() throws {
        let dir = scratchPath("adrules-swift")
        try FileManager.default.createDirectory(atPath: dir + "/rules", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "version: 1\nplacements:\n  a: {format: interstitial, daily_cap: six}\n".write(
            toFile: dir + "/rules/p.yaml", atomically: true, encoding: .utf8)
        let output = dir + "/Generated.swift"
        let result = runCLI(["compile", dir + "/rules", "--root", dir, "--format", "swift", "-o", output, "--quiet"])
        #expect(result.exitCode == ExitCode.findings)
        #expect(result.stderr.hasPrefix(dir + "/rules/p.yaml:3:40: error: "))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func anUnchangedOutputIsNotRewritten() throws {
        let root = packageRoot()
        let dir = scratchPath("adrules-swift")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let output = dir + "/Generated.swift"
        let arguments = ["compile", root + "/rules", "--root", root, "--format", "swift", "-o", output]
        #expect(runCLI(arguments).exitCode == 0)
        let past = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: output)
        #expect(runCLI(arguments).exitCode == 0)
        let modified = try FileManager.default.attributesOfItem(atPath: output)[.modificationDate] as? Date
        #expect(modified == past)
    }

    /// Ids that start with digits, Swift keywords and ids that differ only in separators, and messages full of `#`
    /// and quotes: the generated file must still compile. Type-checks it against the built AdRules module.
    @Test func awkwardIdsAndTextsStillCompile() throws {
        let swiftc = try #require(Self.swiftc(), "swiftc not found")
        let modules = try #require(Self.modulesDirectory(), "the AdRules module was not built")
        let dir = scratchPath("adrules-swift")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ##"""
            version: 1
            placements:
              2x_coins: {format: rewarded}
              default: {format: interstitial}
              self: {format: interstitial}
              app_open: {format: app_open}
              app-open: {format: app_open}
              home.banner: {format: interstitial}
              all: {format: banner}
            rules:
              - id: quotes
                deny: "*"
                when: premium
                message: 'Never "#" or "##" or \#(x) or """ or \u{41} or ✓ 広告'
            """##.write(toFile: dir + "/p.yaml", atomically: true, encoding: .utf8)
        let result = runCLI(["compile", dir + "/p.yaml", "--root", dir, "--format", "swift", "-o", dir + "/Generated.swift"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        // Every id, in declaration order, under its Swift name.
        let generated = try String(contentsOfFile: dir + "/Generated.swift", encoding: .utf8)
        #expect(generated.contains("    static let all: [AdRules.PlacementID] = [_2xCoins, `default`, _self, appOpen_1, appOpen_2, homeBanner, _all]\n"), "\(generated)")
        try """
            import AdRules
            let ids: [AdRules.PlacementID] = [Placements._2xCoins, Placements.default, Placements._self, Placements.appOpen_1, Placements.appOpen_2, Placements.homeBanner, Placements._all]
            let every: [AdRules.PlacementID] = Placements.all
            let policy: AdRules.Policy? = try? AdRules.Policy.bundled()
            let escaped: String = \(GeneratedSwift.rawStringLiteral("x\u{202E}\"#\\#(y)\n\u{7F}"))
            """.write(toFile: dir + "/use.swift", atomically: true, encoding: .utf8)
        // The app's own types of the names the generated file uses (a privacy-policy screen's `Policy`): the generated
        // file names AdRules' and Foundation's by their modules (an app `Policy` made it fail to compile).
        try "struct Policy { var title: String }\nstruct PlacementID { var name: String }\nstruct Data { var bytes: [UInt8] }\n"
            .write(toFile: dir + "/app.swift", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: swiftc)
        process.arguments = ["-typecheck", "-swift-version", "6", "-I", modules, dir + "/Generated.swift", dir + "/use.swift", dir + "/app.swift"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(!text.contains("warning:"), "\(text)")
    }

    static func swiftc() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { $0 + "/swiftc" } + ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The directory holding `AdRules.swiftmodule` of this build (next to the test bundle).
    static func modulesDirectory() -> String? {
        guard let binary = adrulesBinary() else { return nil }
        let directory = URL(fileURLWithPath: binary).deletingLastPathComponent()
        return [directory.appendingPathComponent("Modules"), directory].map(\.path)
            .first { FileManager.default.fileExists(atPath: $0 + "/AdRules.swiftmodule") }
    }
}
