import AdRulesTestSupport
import AdRules
import AdRulesCompiler
import AdRulesYAML
import Foundation
import Testing

@Suite("Compiled policies")
struct CompiledPolicyTests {
    let root = packageRoot()

    func compiledShippedRules() throws -> (yaml: Policy, compiled: Policy, document: Data) {
        let compilation = try PolicyCompiler.compile(path: root + "/rules", root: root)
        let document = try #require(compilation.document, "the shipped rules must compile: \(compilation.diagnostics)")
        let yaml = try Policy(contentsOf: root + "/rules")
        return (yaml, try Policy(compiled: document), document)
    }

    /// Every decision of every shipped scenario, from the YAML policy and from its compiled form, field by field.
    @Test func everyShippedScenarioDecidesIdenticallyFromTheCompiledPolicy() throws {
        let (yaml, compiled, _) = try compiledShippedRules()
        let scenarioFiles = try PolicyLoader.files(at: root + "/rules") { PolicyLoader.isScenarioFile($0) }
        #expect(scenarioFiles.count >= 4)
        var compared = 0
        for file in scenarioFiles {
            let bytes = try PolicyLoader.readBytes(file)
            let (scenario, diagnostics) = ScenarioDecoder.decode(bytes, file: file, policy: yaml)
            #expect(!diagnostics.hasErrors, "\(file)")
            for test in scenario.tests {
                let fromYAML = ScenarioRunner.run(test, policy: yaml)
                let fromCompiled = ScenarioRunner.run(test, policy: compiled)
                for (a, b) in zip(fromYAML.steps, fromCompiled.steps) {
                    guard let decision = a.decision else { continue }
                    var relative = decision
                    relative.reasons = decision.reasons.map { reason in
                        var reason = reason
                        if let file = reason.location?.file { reason.location?.file = String(file.dropFirst(root.count + 1)) }
                        return reason
                    }
                    #expect(relative == b.decision, "\(test.name) at \(a.step.location)")
                    compared += 1
                }
            }
        }
        #expect(compared > 50)
    }

    @Test func reasonsNameTheRuleFileRelativeToTheRoot() throws {
        let (_, compiled, _) = try compiledShippedRules()
        let engine = AdEngine(policy: compiled, clock: ManualClock(Date(timeIntervalSince1970: 1_800_000_000)))
        let decision = engine.ask(.show("app_open", trigger: .resume))
        let files = Set(decision.reasons.compactMap { $0.location?.file })
        #expect(!files.isEmpty)
        #expect(files.allSatisfy { $0.hasPrefix("rules/") && $0.hasSuffix(".yaml") })
    }

    /// A compiled policy holds at most as many `caps` windows as a rule file may (64): a server cannot send a
    /// policy whose every ask scans the history a thousand times.
    @Test func aCompiledPolicyHoldsNoMoreWindowsThanARuleFile() throws {
        let windows = (1...64).map { "{max: \($0 + 1), window: \($0)h}" }.joined(separator: ", ")
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: banner, caps: [\(windows)]}\n", file: "p.yaml")
        let text = String(decoding: try policy.compiledDocument(relativePath: { $0 }, sourceDigest: "sha256:0", generator: "test"), as: UTF8.self)
        #expect((try? Policy(compiled: Data(text.utf8))) != nil)
        let entry = "[{\"max\":2,\"window\":3600000},0,3,"
        let start = try #require(text.range(of: entry))
        let end = try #require(text.range(of: "]", range: start.upperBound..<text.endIndex))
        let first = String(text[start.lowerBound..<end.upperBound])
        let more = text.replacingOccurrences(of: first, with: first + "," + first)
        #expect { try Policy(compiled: Data(more.utf8)) } throws: { "\($0)".contains("caps: 65 entries; expected 0-64") }
    }

    /// A bad compiled policy is placed where the problem is written: a syntax error at its byte, a bad value at the
    /// value its path names. A server's or a person's pretty-printed document gets a line to look at.
    @Test func compiledPolicyErrorsArePlacedAtTheirLine() throws {
        let (_, _, document) = try compiledShippedRules()
        // One member a line, as a pretty-printer would write it.
        let pretty = String(decoding: document, as: UTF8.self).replacingOccurrences(of: ",\"", with: ",\n  \"")
        let badValue = pretty.replacingOccurrences(of: "\"daily_cap\":[6,", with: "\"daily_cap\":[-5,")
        let lines = badValue.split(separator: "\n", omittingEmptySubsequences: false)
        func position(of text: String) throws -> (line: Int, column: Int) {
            let line = try #require(lines.firstIndex { $0.contains(text) })
            let offset = lines[line].distance(from: lines[line].startIndex, to: try #require(lines[line].range(of: text)).lowerBound)
            return (line + 1, offset + 1)
        }
        let value = try position(of: "\"daily_cap\":[-5,")
        let load = PolicyLoader.loadCompiled(bytes: Array(badValue.utf8), path: "p.json")
        let diagnostic = try #require(load.diagnostics.first)
        #expect(diagnostic.message.contains("daily_cap: -5 is below 0"), "\(diagnostic.message)")
        #expect(diagnostic.range.start.line == value.line)
        #expect(diagnostic.range.start.column == value.column + "\"daily_cap\":[".count, "at the value, inside [value, file, line, column]")

        // A setting's key holds a dot: the path `placements[0].resume.max_delay` still finds its value.
        let delay = try #require(pretty.range(of: "\"resume.max_delay\":["))
        let badDelay = pretty.replacingCharacters(in: delay.upperBound..<delay.upperBound, with: "-")
        let delayLine = badDelay[..<delay.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).count
        let delayDiagnostic = PolicyLoader.loadCompiled(bytes: Array(badDelay.utf8), path: "p.json").diagnostics.first
        #expect(delayDiagnostic?.message.contains("resume.max_delay") == true, "\(String(describing: delayDiagnostic?.message))")
        #expect(delayDiagnostic?.range.start.line == delayLine)
        let delayLineStart = badDelay[..<delay.upperBound].lastIndex(of: "\n").map { badDelay.index(after: $0) } ?? badDelay.startIndex
        #expect(delayDiagnostic?.range.start.column == badDelay[delayLineStart..<delay.upperBound].utf8.count + 1, "at the -, past the [")

        // The first finding of the document, and the line of a text inserted into it or of the line a text starts.
        func finding(_ text: String) throws -> Diagnostic {
            try #require(PolicyLoader.loadCompiled(bytes: Array(text.utf8), path: "p.json").diagnostics.first)
        }
        func inserting(_ inserted: String, before member: String) throws -> (text: String, line: Int) {
            let at = try #require(pretty.range(of: member))
            let text = pretty.replacingCharacters(in: at.lowerBound..<at.lowerBound, with: inserted)
            return (text, text[..<at.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).count)
        }
        func line(startingWith prefix: String, in text: String) throws -> Int {
            try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix(prefix) }) + 1
        }
        // A key written twice is refused at the second, not at the valid first one.
        // (Keys are written in order: source_digest follows session_timeout, so the second one is inserted before it.)
        let doubled = try inserting("\"session_timeout\":-5,\n  ", before: "\"source_digest\":")
        let doubledDiagnostic = try finding(doubled.text)
        #expect(doubledDiagnostic.message.contains("the key \"session_timeout\" appears twice"), "\(doubledDiagnostic.message)")
        #expect(doubledDiagnostic.range.start.line == doubled.line, "at the second session_timeout")
        // A value of the wrong type is refused as it is read: at the first of two, when the first is the bad one.
        let badFirst = try inserting("\"session_timeout\":6.0,\n  ", before: "\"session_timeout\":")
        let firstDiagnostic = try finding(badFirst.text)
        #expect(firstDiagnostic.message.contains("found 6.0"), "\(firstDiagnostic.message)")
        #expect(firstDiagnostic.range.start.line == badFirst.line, "at the first session_timeout, the bad one")
        // An error about a part of a value (an element of a setting's [value, file, line, column]) is placed at the part.
        let element = pretty.replacingOccurrences(of: "\"daily_cap\":[6,", with: "\"daily_cap\":[\n\"x\",")
        let elementDiagnostic = try finding(element)
        #expect(elementDiagnostic.message.contains("daily_cap[0]"), "\(elementDiagnostic.message)")
        #expect(elementDiagnostic.range.start == SourcePosition(line: try line(startingWith: "\"x\",", in: element), column: 1))
        // And a part of the first of two copies of a key, the copy read, is placed in that copy.
        let twoCopies = pretty.replacingOccurrences(of: "\"daily_cap\":[6,", with: "\"daily_cap\":[\n\"x\",0,1,1],\n  \"daily_cap\":[6,")
        let copyDiagnostic = try finding(twoCopies)
        #expect(copyDiagnostic.range.start == SourcePosition(line: try line(startingWith: "\"x\",", in: twoCopies), column: 1), "\(copyDiagnostic.message)")

        let badSyntax = pretty.replacingOccurrences(of: "\"daily_cap\":[6,", with: "\"daily_cap\":[6,,")
        let syntax = PolicyLoader.loadCompiled(bytes: Array(badSyntax.utf8), path: "p.json").diagnostics.first
        #expect(syntax?.message.contains("not valid JSON") == true)
        #expect(syntax?.range.start.line == value.line)
    }

    @Test func compilingTwiceGivesTheSameBytes() throws {
        let first = try compiledShippedRules().document
        let second = try compiledShippedRules().document
        #expect(first == second)
        let text = String(decoding: first, as: UTF8.self)
        #expect(text.contains("\"format\":\"adrules-compiled-policy\""))
        #expect(text.contains("\"source_digest\":\"sha256:"))
    }

    /// A zone is written back under the name the rule file gave it: `UTC` is not Foundation's "GMT" for it (and `GMT`, the
    /// same zone, is written UTC too); other names stay as written.
    @Test func theZoneIsWrittenAsTheRuleFileNamesIt() throws {
        for (written, compiled) in [("UTC", "UTC"), ("Etc/UTC", "Etc/UTC"), ("Europe/Paris", "Europe/Paris"), ("device", "device")] {
            let dir = try temporaryDirectory("adrules-zone-name", ["p.yaml": "version: 1\ntimezone: \(written)\nplacements:\n  a: {format: banner}\n"])
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let result = runCLI(["compile", dir + "/p.yaml"])
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\"timezone\":\"\(compiled)\""), "\(written): \(result.stdout.prefix(400))")
            // And reads back as the same zone: compiling the compiled policy writes the same name.
            try result.stdout.write(toFile: dir + "/p.json", atomically: true, encoding: .utf8)
            #expect(runCLI(["compile", dir + "/p.json"]).stdout.contains("\"timezone\":\"\(compiled)\""))
        }
    }

    /// Two files whose names differ only in Unicode normalisation (`café.yaml` composed and decomposed) are two files on
    /// Linux and one text to Swift. Compiled, they were once merged (the second one's placements pointed at the first),
    /// then told apart by their bytes; but lint, test and the reports key files by their text too (a suppression in one
    /// hid the other's warning, a directory's tests were skipped), so such a pair is refused, naming both spellings.
    @Test func fileNamesThatDifferOnlyInNormalisationAreRefused() throws {
        let composed = "caf\u{E9}.yaml", decomposed = "cafe\u{301}.yaml"
        // Two literals: a dictionary would take the names for one key.
        let dir = try temporaryDirectory("adrules-nfd", [composed: "version: 1\nplacements:\n  banner_a: {format: banner}\n"])
        try "version: 1\nplacements:\n  banner_b: {format: banner}\n".write(toFile: dir + "/" + decomposed, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A file system that keeps one name for both forms (APFS) holds one file: nothing to tell apart there.
        guard try FileManager.default.contentsOfDirectory(atPath: dir).count == 2 else { return }
        #expect {
            try PolicyCompiler.compile(path: dir, root: dir)
        } throws: { error in
            guard case PolicyLoadError.unreadable(_, let reason) = error else { return false }
            return reason.contains("Unicode normalization: ") && reason.contains("cafe\\u{301}.yaml") && reason.contains("caf\\u{E9}.yaml")
        }
    }

    @Test func aPolicyWithErrorsIsNotCompiled() throws {
        let dir = scratchPath("adrules-compile")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try "version: 1\nplacements:\n  a: {format: interstitial, daily_cap: six}\n".write(toFile: dir + "/p.yaml", atomically: true, encoding: .utf8)
        let compilation = try PolicyCompiler.compile(path: dir)
        #expect(compilation.document == nil)
        #expect(compilation.diagnostics.contains { $0.rule == "schema/type" })
    }

    func mutated(_ document: Data, _ change: (inout [String: Any]) -> Void) throws -> Data {
        var object = try #require(JSONSerialization.jsonObject(with: document) as? [String: Any])
        change(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    func expectRefused(
        _ data: Data, mentioning text: String, kind: CompiledPolicyError.Kind = .invalid, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try Policy(compiled: data)
            Issue.record("accepted a bad compiled policy", sourceLocation: sourceLocation)
        } catch let error as CompiledPolicyError {
            #expect(error.localizedDescription.contains(text), "\(error)", sourceLocation: sourceLocation)
            #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
    }

    /// A key given twice in one object is refused where it stands the second time: the last value won, so a duplicate
    /// could hide a value no reviewer sees (a daily cap of 0, a `test` environment, a message with a terminal escape)
    /// behind the one they read, and a reader that keeps the first would apply another policy.
    @Test func aKeyGivenTwiceInOneObjectIsRefused() throws {
        let text = String(decoding: try compiledShippedRules().document, as: UTF8.self)
        let cap = try #require(text.range(of: #""daily_cap":["#))
        let capEnd = try #require(text[cap.upperBound...].firstIndex(of: "]"))
        let original = String(text[cap.lowerBound...capEnd])
        let capTwice = text.replacingCharacters(in: cap.lowerBound...capEnd, with: original + "," + original)
        expectRefused(Data(capTwice.utf8), mentioning: #"the key "daily_cap" appears twice in one object"#)
        let environmentTwice = text.replacingOccurrences(of: #""environment":"production""#, with: #""environment":"production","environment":"test""#)
        #expect(environmentTwice != text)
        expectRefused(Data(environmentTwice.utf8), mentioning: #"the key "environment" appears twice in one object"#)
        // At the second key, in the document's lines.
        let dir = scratchPath("adrules-compiled-twice")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try capTwice.write(toFile: dir + "/policy.json", atomically: true, encoding: .utf8)
        let lint = runCLI(["lint", dir + "/policy.json"])
        let column = capTwice.distance(from: capTwice.startIndex, to: cap.lowerBound) + original.count + 2
        #expect(lint.exitCode == 1)
        #expect(lint.stdout.hasPrefix("\(dir)/policy.json:1:\(column): error: "), "\(lint.stdout)")
        // The same keys in different objects are no repeat.
        _ = try Policy(compiled: Data(text.utf8))
    }

    /// JSON is UTF-8 (RFC 8259): raw bytes that are not, and escapes of unpaired surrogates, are refused rather
    /// than read as U+FFFD; a text is at most 4096 characters, counted as characters, not bytes.
    @Test func textsAreUTF8AndAtMost4096Characters() throws {
        let document = try compiledShippedRules().document
        let text = String(decoding: document, as: UTF8.self)
        let message = try #require(text.range(of: #""message":""#))
        func withMessage(_ raw: [UInt8]) -> Data {
            Data(text[..<message.upperBound].utf8) + Data(raw) + Data(text[message.upperBound...].utf8)
        }
        expectRefused(withMessage([0xC3, 0x28]), mentioning: "not UTF-8")
        // At the first byte that is not UTF-8, not at the string's end: with and without an escape before it, and for an
        // overlong form (0xC0 0xAF, a slash written in two bytes).
        let first = text[..<message.upperBound].utf8.count + 100
        for (bad, escaped) in [([UInt8(0xFF)], false), ([0xFF], true), ([0xC0, 0xAF], false)] {
            let before = escaped ? Array(#"\n"#.utf8) + Array(repeating: UInt8(ascii: "B"), count: 98) : Array(repeating: UInt8(ascii: "B"), count: 100)
            expectRefused(withMessage(before + bad + Array(repeating: UInt8(ascii: "B"), count: 3000)), mentioning: "at byte \(first + 1): a string that is not UTF-8")
        }
        expectRefused(withMessage(Array(#"\uD83Dx"#.utf8)), mentioning: "unpaired surrogate")
        expectRefused(withMessage(Array(#"\uDC00"#.utf8)), mentioning: "unpaired surrogate")
        #expect(throws: Never.self) { try Policy(compiled: withMessage(Array(#"\uD83D\uDE00 "#.utf8))) }
        expectRefused(withMessage(Array(String(repeating: "x", count: 4097).utf8)), mentioning: "characters long; at most 4096 fit")
        #expect(throws: Never.self) { try Policy(compiled: withMessage(Array(String(repeating: "é", count: 4000).utf8))) }
        // The rule files say so first: compile never writes a text the runtime refuses.
        let yaml = "version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - {id: r, deny: [a], when: premium, message: \(String(repeating: "x", count: 4097))}\n"
        #expect(PolicyLoader.load(texts: [("p.yaml", yaml)]).diagnostics.map(\.message) == ["message is 4097 characters long, and at most 4096 fit: shorten it"])
    }

    /// The runtime runs a rule's condition; every report shows its `when` text. The tools refuse a compiled policy whose
    /// two differ (edited on the way from the server), at the text; what `compile` writes passes.
    @Test func aConditionOtherThanItsWhenTextIsRefusedByTheTools() throws {
        let document = try compiledShippedRules().document
        #expect(PolicyLoader.loadCompiled(bytes: Array(document), path: "p.json").diagnostics.isEmpty)
        func rule(_ id: String, in object: inout [String: Any], _ change: (inout [String: Any]) -> Void) {
            var rules = object["rules"] as? [[String: Any]] ?? []
            let index = rules.firstIndex { $0["id"] as? String == id } ?? 0
            change(&rules[index])
            object["rules"] = rules
        }
        let hourChanged = try mutated(document) { object in
            rule("quiet-hours", in: &object) { r in
                r["condition"] = ["compare": ">=", "left": ["builtin": "now.hour"], "right": ["constant": ["type": "int", "value": 0]]]
            }
        }
        let textChanged = try mutated(document) { object in
            rule("quiet-hours", in: &object) { r in
                var when = r["when"] as? [Any] ?? []
                when[0] = "false"
                r["when"] = when
            }
        }
        let unknownName = try mutated(document) { object in
            rule("quiet-hours", in: &object) { r in
                var when = r["when"] as? [Any] ?? []
                when[0] = "no_such_attribute"
                r["when"] = when
            }
        }
        for (data, text) in [(hourChanged, "it runs a condition other than its when text says"), (textChanged, "it runs a condition other than"),
                             (unknownName, "its when text does not compile")] {
            #expect(throws: Never.self) { try Policy(compiled: data) }  // the runtime cannot tell
            let diagnostics = PolicyLoader.loadCompiled(bytes: Array(data), path: "p.json").diagnostics
            #expect(diagnostics.map(\.rule) == ["compiled/invalid"])
            #expect(diagnostics.first?.message.contains("rule quiet-hours: \(text)") == true, "\(diagnostics)")
            // Placed at the text (the document is one line: the column is the byte).
            let start = try #require(diagnostics.first?.range.start)
            let json = Array(data)
            #expect(start.line == 1 && !json.contains(UInt8(ascii: "\n")))
            let at = String(decoding: json.dropFirst(start.column - 1).prefix(20), as: UTF8.self)
            #expect(at.hasPrefix("\"now.hour") || at.hasPrefix("\"false\"") || at.hasPrefix("\"no_such_attribute\""), "\(at)")
        }
    }

    /// A rule file named `.json` is read as a compiled policy: told to take its YAML name, not to compile it again.
    @Test func aRuleFileNamedJSONIsToldItsName() throws {
        let yaml = try String(contentsOfFile: root + "/rules/app_open.yaml", encoding: .utf8)
        for text in [yaml, "\u{FEFF}# a scenario\n\ntests:\n  - name: t\n"] {
            let message = PolicyLoader.loadCompiled(bytes: Array(text.utf8), path: "p.json").diagnostics.first?.message
            #expect(message?.contains("the file reads as YAML, not JSON") == true && message?.contains("name a rule file .yaml") == true, "\(message ?? "")")
            #expect(message?.contains("compile it again") == false)
        }
        let document = try compiledShippedRules().document
        for bytes in [Array(document.prefix(document.count / 2)), Array("- version: 1\n".utf8), Array("version 1\n".utf8)] {
            let message = PolicyLoader.loadCompiled(bytes: bytes, path: "p.json").diagnostics.first?.message
            #expect(message?.contains("reads as YAML") == false, "\(message ?? "")")
        }
    }

    @Test func badDocumentsGetAClearError() throws {
        let document = try compiledShippedRules().document
        expectRefused(document.prefix(document.count / 2), mentioning: "truncated")
        expectRefused(Data("[]".utf8), mentioning: "not valid JSON")
        expectRefused(Data(#"{"format": "something-else", "version": 1}"#.utf8), mentioning: "not a compiled policy")
        expectRefused(try mutated(document) { $0["version"] = 2 }, mentioning: "version 2 is not supported", kind: .unsupported)
        // A key, a built-in or an operator of a newer adrules is no download to try again, wherever it stands.
        expectRefused(try mutated(document) { $0["frequency"] = 3 }, mentioning: "unknown key \"frequency\"", kind: .unsupported)
        expectRefused(try mutated(document) { object in
            var placements = object["placements"] as? [[String: Any]] ?? []
            placements[0]["daily_budget"] = [3, 0, 1, 1]
            object["placements"] = placements
        }, mentioning: "placements[0].daily_budget: unknown key \"daily_budget\"", kind: .unsupported)
        expectRefused(try mutated(document) { object in
            var rules = object["rules"] as? [[String: Any]] ?? []
            rules[0]["condition"] = ["builtin": "battery.level"]
            object["rules"] = rules
        }, mentioning: "unknown built-in", kind: .unsupported)
        expectRefused(try mutated(document) { object in
            var groups = object["groups"] as? [[String: Any]] ?? []
            groups[0]["placements"] = [["no_such_placement", 0, 1, 1]]
            object["groups"] = groups
        }, mentioning: "unknown placement \"no_such_placement\"")
        expectRefused(try mutated(document) { object in
            var rules = object["rules"] as? [[String: Any]] ?? []
            rules[0]["condition"] = ["compare": "<", "left": ["builtin": "premium"], "right": ["constant": ["type": "int", "value": 3]]]
            object["rules"] = rules
        }, mentioning: "compares bool with int")
        expectRefused(try mutated(document) { object in
            var placements = object["placements"] as? [[String: Any]] ?? []
            placements[0]["min_interval"] = [999_999_999_999_999, 0, 1, 1]
            object["placements"] = placements
        }, mentioning: "between 0 and 366d")
        expectRefused(try mutated(document) { object in
            var placements = object["placements"] as? [[String: Any]] ?? []
            placements[0]["at"] = [99, 1, 1]
            object["placements"] = placements
        }, mentioning: "outside the files")
        expectRefused(try mutated(document) { object in object["timezone"] = "Mars/Olympus" }, mentioning: "unknown time zone", kind: .unknownTimeZone)
        // Wrong types and missing keys are named by their path in the document.
        expectRefused(try mutated(document) { object in
            var placements = object["placements"] as? [[String: Any]] ?? []
            placements[0]["daily_cap"] = ["six", 0, 1, 1]
            object["placements"] = placements
        }, mentioning: "placements[0].daily_cap[0]: expected Int")
        expectRefused(try mutated(document) { object in
            var placements = object["placements"] as? [[String: Any]] ?? []
            placements[0]["daily_cap"] = [2.5, 0, 1, 1]
            object["placements"] = placements
        }, mentioning: "placements[0].daily_cap[0]")
        expectRefused(try mutated(document) { object in object["files"] = nil }, mentioning: "\"files\" is missing")
        expectRefused(Data((String(repeating: "[", count: 100_000)).utf8), mentioning: "nests deeper")
        var deep: Any = ["builtin": "premium"]
        for _ in 0..<100 { deep = ["not": deep] }
        expectRefused(try mutated(document) { object in
            var rules = object["rules"] as? [[String: Any]] ?? []
            rules[0]["condition"] = deep
            object["rules"] = rules
        }, mentioning: "deeper than")
    }
}
