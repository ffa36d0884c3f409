import AdRulesTestSupport
import AdRules
import AdRulesCompiler
import Foundation
import Testing

/// The compiled document read and written by hand: the bytes stay those the `Codable` writer wrote, and a
/// bad document is refused with the path of the bad value.
///
/// `Golden/compiled.json` is `Fixtures/compiled` as `adrules 0.2.0` compiled it with Foundation's
/// `JSONEncoder`: every setting, group setting, attribute type and condition node, and texts to escape.
@Suite("Compiled documents")
struct CompiledDocumentTests {
    let golden = (try? Data(contentsOf: URL(fileURLWithPath: packageRoot() + "/Tests/AdRulesCLITests/Golden/compiled.json"))) ?? Data()

    @Test func compilingGivesTheBytesTheCodableWriterGave() throws {
        let compilation = try PolicyCompiler.compile(path: fixtures + "/compiled", root: fixtures)
        let document = try #require(compilation.document, "\(compilation.diagnostics)")
        // The golden file names the version that wrote it.
        let text = String(decoding: document, as: UTF8.self)
            .replacingOccurrences(of: "\"generator\":\"adrules \(AdRulesVersion.current)\"", with: "\"generator\":\"adrules 0.2.0\"")
        #expect(text == String(decoding: golden, as: UTF8.self))
    }

    @Test func aDocumentTheCodableWriterWroteLoadsAndIsWrittenBackUnchanged() throws {
        let policy = try Policy(compiled: golden)
        #expect(policy.placements.map(\.id) == ["app_open", "level_end", "bonus", "footer"])
        #expect(policy.attributes.count == 8)
        #expect(policy.rules.count == 6)
        guard case .object(let pairs) = try JSONValue.parse(Array(golden)) else { throw CompiledPolicyError("not an object") }
        func string(_ key: String) -> String { pairs.first { $0.0 == key }.flatMap { if case .string(let s) = $0.1 { s } else { nil } } ?? "" }
        let again = try policy.compiledDocument(relativePath: { $0 }, sourceDigest: string("source_digest"), generator: string("generator"))
        #expect(again == golden)
    }

    /// A key this runtime does not know is refused wherever it stands, whatever it holds: a newer `adrules` may have
    /// compiled a setting into it, and the policy applied without it would allow more than written.
    @Test func aKeyTheReaderDoesNotKnowIsRefused() throws {
        func withUnknownKey(_ marks: Int) -> Data {
            let value = "e" + String(repeating: "\\u0301", count: marks)
            return Data(("{\"zzz_future\":\"\(value)\"," + String(decoding: golden.dropFirst(), as: UTF8.self)).utf8)
        }
        for marks in [0, 31] {
            #expect(throws: CompiledPolicyError.self) { try Policy(compiled: withUnknownKey(marks)) }
        }
        do {
            _ = try Policy(compiled: withUnknownKey(0))
        } catch {
            #expect("\(error)".contains("zzz_future: unknown key \"zzz_future\": this runtime does not know it"), "\(error)")
        }
    }

    /// A document saved again with a byte-order mark is refused saying so (before: "invalid JSON at byte 1").
    @Test func aByteOrderMarkIsNamed() throws {
        for mark: [UInt8] in [[0xEF, 0xBB, 0xBF], [0xFF, 0xFE], [0x00, 0x00, 0xFE, 0xFF]] {
            #expect(throws: CompiledPolicyError.self) { try Policy(compiled: Data(mark) + golden) }
            do {
                _ = try Policy(compiled: Data(mark) + golden)
            } catch {
                #expect("\(error)".contains("the document starts with a byte-order mark"), "\(error)")
            }
        }
        #expect((try? Policy(compiled: golden)) != nil)
    }

    /// A policy whose compiled document would be larger than an app loads is a finding of the policy (exit 1), not an
    /// internal failure: lint passes a 100,000-placement policy with long ad units whose document is over 64 MiB.
    @Test func aDocumentTooLargeToLoadIsAFinding() throws {
        let compilation = try PolicyCompiler.compile(path: packageRoot() + "/rules", root: packageRoot(), maxBytes: 1000)
        #expect(compilation.document == nil)
        let finding = try #require(compilation.diagnostics.last)
        #expect(finding.rule == "schema/range" && finding.severity == .error)
        #expect(finding.message.contains("more than the 1000 bytes an app loads: use fewer placements or rules"), "\(finding.message)")
        #expect(try PolicyCompiler.compile(path: packageRoot() + "/rules", root: packageRoot()).document != nil)
        // The document stops growing past the bound: a 340 MB one was written whole before it was refused.
        let policy = try PolicyLoader.load(path: packageRoot() + "/rules").policy
        let whole = try policy.compiledDocument(relativePath: { $0 }, sourceDigest: "", generator: "")
        let cut = try policy.compiledDocument(relativePath: { $0 }, sourceDigest: "", generator: "", maxBytes: 1000)
        #expect(cut.count > 1000 && cut.count < whole.count, "\(cut.count) of \(whole.count)")
    }

    @Test func everyObjectHasItsKeysSorted() throws {
        let compilation = try PolicyCompiler.compile(path: packageRoot() + "/rules", root: packageRoot())
        for document in [golden, try #require(compilation.document)] {
            var unsorted: [String] = []
            func walk(_ value: JSONValue) {
                switch value {
                case .object(let pairs):
                    let keys = pairs.map(\.0)
                    if keys != keys.sorted() { unsorted.append(keys.joined(separator: ",")) }
                    pairs.forEach { walk($0.1) }
                case .array(let items): items.forEach(walk)
                default: break
                }
            }
            walk(try JSONValue.parse(Array(document)))
            #expect(unsorted.isEmpty)
        }
    }

    // MARK: refusals

    func refusal(_ document: Data) -> String? { compiledRefusal(document) }

    /// The golden document with one change made to its parsed form.
    func changed(_ change: (inout [String: Any]) -> Void) throws -> Data {
        try JSONDocumentEdits.changed(golden, change)
    }

    /// Sets `value` at a key of one entry of a top-level list (`nil` removes the key).
    func changing(_ list: String, _ index: Int, _ key: String, to value: Any?) throws -> Data {
        try JSONDocumentEdits.changing(golden, list, index, key, to: value)
    }

    /// Replaces text in the golden document: for what JSONSerialization would not write.
    func replacing(_ text: String, with replacement: String) throws -> Data {
        let edited = JSONDocumentEdits.replacing(text, with: replacement, in: golden)
        #expect(edited != nil)
        return edited ?? Data()
    }

    @Test func wrongTypesAndMissingKeysAreNamedByTheirPath() throws {
        // (`replacingNumber` writes what JSONSerialization would not: a number beyond a Double.)
        let premium: [String: Any] = ["builtin": "premium"]
        let cases: [(Data, String)] = [
            (try changed { $0["files"] = "compiled/policy.yaml" }, "files: expected an array, found a string"),
            (try changed { $0["files"] = [3] }, "files[0]: expected a string, found a number"),
            (try changed { $0["files"] = [] }, "files: 0 entries; expected 1-1000"),
            (try changed { $0["files"] = Array(repeating: "x.yaml", count: 1001) }, "files: 1001 entries; expected 1-1000"),
            (try changed { $0["environment"] = "staging" }, "environment: \"staging\" is not an environment (one of production, test)"),
            (try changed { $0["session_timeout"] = true }, "session_timeout: expected Int"),
            (try changed { $0["fullscreen_timeout"] = 5 }, "fullscreen_timeout: expected [value, file, line, column], found a number"),
            (try changed { $0["rules"] = nil }, "invalid compiled policy: \"rules\" is missing"),
            (try changing("placements", 0, "id", to: nil), "placements[0]: \"id\" is missing"),
            (try changing("placements", 1, "enabled", to: nil), "placements[1]: \"enabled\" is missing"),
            (try changing("placements", 0, "at", to: [0, 1]), "placements[0].at: expected [file, line, column], found 2 elements"),
            (try changing("placements", 0, "at", to: [0, -5, 1]), "placements[0].at: location [0, -5, 1] is outside the files"),
            (try changing("placements", 0, "enabled", to: [true, 0, 1]), "placements[0].enabled: expected [value, file, line, column], found 3 elements"),
            (try changing("placements", 0, "enabled", to: [true, 0, 1, 1, 1]), "found more than 4 elements"),
            (try changing("placements", 0, "enabled", to: ["yes", 0, 1, 1]), "placements[0].enabled[0]: expected a boolean (true or false), found a string"),
            (try changing("placements", 0, "enabled", to: [true, "0", 1, 1]), "placements[0].enabled[1]: expected Int"),
            (try changing("placements", 2, "format", to: ["popup", 0, 1, 1]), "placements[2].format[0]: \"popup\" is not an ad format (one of"),
            (try changing("placements", 0, "caps", to: [[["max": 1], 0, 1, 1]]), "placements[0].caps[0][0]: \"window\" is missing"),
            (try changing("placements", 0, "caps", to: [[["max": 1, "window": -1], 0, 1, 1]]), "placements[0].caps[0].window: a window must not be negative"),
            (try changing("placements", 0, "daily_cap", to: [-1, 0, 1, 1]), "placements[0].daily_cap: -1 is below 0"),
            (try changing("placements", 0, "every_n_actions", to: [0, 0, 1, 1]), "placements[0].every_n_actions: 0 is below 1"),
            (try changing("placements", 0, "ad_unit", to: ["a\u{1B}b", 0, 1, 1]), "placements[0].ad_unit: the text holds a control character"),
            (try changing("groups", 0, "placements", to: []), "groups[0].placements: 0 entries; expected 1-100000"),
            (try changing("groups", 0, "caps", to: nil), "groups[0]: \"caps\" is missing"),
            (try changing("groups", 1, "daily_cap", to: [-5, 0, 1, 1]), "groups[1].daily_cap: -5 is below 0"),
            (try changing("attributes", 0, "type", to: "float"), "attributes[0].type: \"float\" is not a value type (one of bool, int"),
            (try changing("attributes", 1, "default", to: ["type": "bool", "value": 1]), "attributes[1].default.value: expected a boolean (true or false), found a number"),
            (try changing("attributes", 5, "default", to: ["type": "[string]", "value": ["a", 2]]), "attributes[5].default.value[1]: expected a string"),
            (try changing("attributes", 1, "default", to: ["type": "int", "value": 1]), "attributes[1].default: the default is int, not bool"),
            // Texts a rule file refuses in a default (a server's 60 MB default was held and compared on every ask).
            (try changing("attributes", 5, "default", to: ["type": "[string]", "value": ["a", "b\u{1B}"]]), "attributes[5].default: the text holds a control character"),
            (try changing("attributes", 5, "default", to: ["type": "[string]", "value": [String(repeating: "x", count: 5000)]]),
             "attributes[5].default: the text is 5000 characters long; at most 4096 fit"),
            (try changing("rules", 0, "deny", to: "*"), "rules[0].deny: expected an array, found a string"),
            (try changing("rules", 1, "deny", to: [["nowhere", 0, 1, 1]]), "rules[1].deny[0]: unknown placement \"nowhere\""),
            (try changing("rules", 0, "condition", to: ["and": [premium, ["bogus": 1]]]), "rules[0].condition.and[1].bogus: unknown key \"bogus\""),
            (try changing("rules", 0, "condition", to: ["and": [premium, [:]]]), "rules[0].condition.and[1]: an expression node is one of"),
            (try changing("rules", 0, "condition", to: ["builtin": "premium", "attribute": "screen"]), "rules[0].condition: an expression node has one operator"),
            (try changing("rules", 0, "condition", to: ["compare": "<", "left": premium]), "rules[0].condition: \"right\" is missing"),
            (try changing("rules", 0, "condition", to: ["not": premium, "left": premium]), "rules[0].condition: left and right belong to a compare node"),
            (try changing("rules", 0, "condition", to: ["not": ["builtin": 3]]), "rules[0].condition.not.builtin: expected a string, found a number"),
            (try changing("rules", 0, "condition", to: ["or": Array(repeating: premium, count: 3000)]), "rules[0].condition: the condition is larger than 2048 nodes"),
            (try changing("rules", 0, "condition", to: ["builtin": "premium.user"]), "rules[0].condition: unknown built-in \"premium.user\""),
            (try replacing(#""daily_cap":[6,"#, with: #""daily_cap":[99999999999999999999,"#),
             "placements[0].daily_cap[0]: expected Int (a whole number that fits 64 bits), found a whole number too large to hold"),
            (try replacing(#""daily_cap":[6,"#, with: #""daily_cap":[6.0,"#),
             "placements[0].daily_cap[0]: expected Int (a whole number that fits 64 bits), found 6.0: write it in digits only, with no decimal point or exponent (6)"),
            // Quoted as written; a number too small to hold is no 0 to write instead.
            (try replacing(#""daily_cap":[6,"#, with: #""daily_cap":[6e-400,"#), "found 6e-400"),
            (try replacing(#""daily_cap":[6,"#, with: #""daily_cap":[18e5,"#), "found 18e5: write it in digits only, with no decimal point or exponent (1800000)"),
            (try replacing(#""daily_cap":[6,"#, with: #""daily_cap":[0.0,"#), "found 0.0: write it in digits only, with no decimal point or exponent (0)"),
            (try replacing(#""daily_cap":[6,"#, with: #""daily_cap":[0."# + String(repeating: "0", count: 100) + #"6,"#),
             "found 0." + String(repeating: "0", count: 78) + "…"),
            (try replacing(#""daily_cap":[6,"#, with: #""daily_cap":[6.5,"#), "found 6.5"),
            (try changing("rules", 0, "condition", to: ["builtin": String(repeating: "y", count: 50_000)]),
             "rules[0].condition: unknown built-in \"" + String(repeating: "y", count: 80) + "…\""),
            (try changing("rules", 0, "condition", to: ["compare": String(repeating: "<", count: 50_000), "left": premium, "right": premium]),
             "unknown comparison \"" + String(repeating: "<", count: 80) + "…\""),
            (try changing("rules", 0, "condition", to: ["attribute": "a\u{1B}[31m" + String(repeating: "z", count: 50_000)]),
             "the condition reads attribute \"a\\u{1B}[31m" + String(repeating: "z", count: 74) + "…\", which is not declared"),
            (try changing("attributes", 0, "name", to: String(repeating: "a", count: 65)),
             "is not valid: it is 65 characters long, more than the 64 an attribute name may have"),
            (try changed { $0["files"] = [""] }, "files[0]: a file name is empty or listed twice"),
            (try changed { $0["files"] = ["compiled/policy.yaml", "compiled/policy.yaml"] }, "files[1]: a file name is empty or listed twice"),
            (try changed { $0["generator"] = "adrules\u{1B}[31m" }, "generator: the text holds a control character"),
            (try changed { $0["source_digest"] = "sha256:\n" }, "source_digest: the text holds a control character"),
            (try changing("rules", 0, "condition", to: [
                "compare": "==", "left": ["attribute": "screen"],
                "right": ["constant": ["type": "string", "value": String(repeating: "x", count: 4097)]],
            ]), "rules[0].condition: a string literal is longer than 4096 characters"),
            (try changing("rules", 0, "condition", to: [
                "compare": "<", "left": ["attribute": "score"], "right": ["constant": ["type": "number", "value": 123_456_789]],
            ]).replacingNumber("123456789", with: "1e400"), "a number too large to hold"),
            // What a rule file refuses, a compiled policy may not hold either.
            (try changed { $0["timezone"] = "GMT+5" }, "timezone: unknown time zone \"GMT+5\""),
            (try changed { $0["timezone"] = "UTC\u{0}garbage" }, "timezone: unknown time zone"),
            (try changing("attributes", 0, "name", to: "a b"), "attributes[0].name: attribute name \"a b\" is not valid"),
            (try changing("attributes", 0, "name", to: "and"), "attributes[0].name: attribute name \"and\" is not valid: and is a keyword of conditions"),
            (try changing("attributes", 0, "name", to: "premium"), "attribute name \"premium\" is not valid: premium is a built-in name"),
            (try changing("attributes", 0, "name", to: String(repeating: "a-", count: 40)), "is not valid: it holds \"-\", which a name cannot hold: write an ASCII letter or _, then ASCII letters"),
            (try changing("attributes", 0, "name", to: String(repeating: "a", count: 63) + ".bccccc"), "it is 70 characters long, more than the 64"),
            (try changed { $0["attributes"] = [["name": "wait", "type": "duration", "default": ["type": "duration", "value": -5], "at": [0, 1, 1]]] },
             "attributes[0].default: -5 ms is not a duration between 0 and 366d"),
            (try changing("rules", 0, "condition", to: [
                "compare": "<", "left": ["builtin": "premium"], "right": ["constant": ["type": "bool", "value": true]],
            ]), "rules[0].condition: < needs numbers, durations or strings, not bool"),
            (try replacing(#""version":1"#, with: #""version":"1""#), "version: the version is missing or not a whole number"),
            (try replacing(#""version":1"#, with: #""version":1.5"#), "version: the version is missing or not a whole number"),
        ]
        for (document, message) in cases {
            let refusal = refusal(document)
            #expect(refusal?.contains(message) == true, "expected \(message), got \(refusal ?? "no error")")
        }
    }

    /// A condition's string literal, read after its type (the reader skips it first and comes back), is stream-safe text
    /// too: 31 combining marks in a row are refused, 30 pass.
    @Test func aConditionsStringLiteralHoldsStreamSafeText() throws {
        func literal(_ marks: Int) throws -> Data {
            try changing("rules", 0, "condition", to: [
                "compare": "==", "left": ["attribute": "screen"],
                "right": ["constant": ["value": "e" + String(repeating: "\u{0301}", count: marks), "type": "string"]],
            ])
        }
        let over = refusal(try literal(31)), within = refusal(try literal(30))
        #expect(over?.contains("combining marks") == true, "\(over ?? "accepted")")
        #expect(within == nil, "\(within ?? "")")
    }

    @Test func keysThisRuntimeDoesNotKnowAreRefusedAndOptionalNullsAreSkipped() throws {
        let document = try changed { object in
            var placements = object["placements"] as? [[String: Any]] ?? []
            placements[1]["daily_cap"] = NSNull()
            object["placements"] = placements
            object["generator"] = NSNull()
        }
        let policy = try Policy(compiled: document)
        #expect(policy.placements[1].dailyCap == nil)
        // A setting a newer compiler wrote, in a placement, a group, a rule or at the top: refused, never dropped.
        for (kind, index) in [("placements", 1), ("groups", 0), ("rules", 0), ("attributes", 0)] {
            let extended = try changed { object in
                var items = object[kind] as? [[String: Any]] ?? []
                items[index]["brand_new_cap"] = [1, 0, 1, 1]
                object[kind] = items
            }
            #expect(refusal(extended)?.contains("\(kind)[\(index)].brand_new_cap: unknown key") == true, "\(kind): \(refusal(extended) ?? "accepted")")
        }
        #expect(refusal(try changed { $0["comment"] = ["nested": [1]] })?.contains("comment: unknown key") == true)
        // Keys in another order than sorted: a literal's value before its type is read once the type is known.
        let reordered = try replacing(#"{"type":"[int]","value":[1,-2,3]}"#, with: #"{"value":[1,-2,3],"type":"[int]"}"#)
        #expect(try Policy(compiled: reordered).attributes[6].defaultValue == .intList([1, -2, 3]))
    }

    @Test func everyTruncationOfADocumentIsRefusedAsTruncated() {
        let document = golden.dropLast()  // the final line break
        for length in 0..<document.count {
            let refusal = refusal(document.prefix(length))
            #expect(refusal?.contains("the file may be truncated") == true, "\(length) bytes: \(refusal ?? "accepted")")
        }
        #expect(refusal(Data(document)) == nil)
        // Text after the whole document was added, not cut off: no word of truncation.
        let added = refusal(Data(document) + Data(" junk".utf8))
        #expect(added?.contains("unexpected text after the value") == true && added?.contains("truncated") == false, "\(added ?? "accepted")")
    }

    /// A whole number too large to hold is called that, not `inf`.
    @Test func aHugeWholeNumberIsNamedForWhatItIs() throws {
        let huge = try replacing(#""load_timeout":30000"#, with: #""load_timeout":"# + String(repeating: "9", count: 400))
        let message = refusal(huge)
        #expect(message?.contains("found a whole number too large to hold") == true, "\(message ?? "accepted")")
    }

    /// Random bytes changed in a good document: it loads or is refused, but nothing traps.
    @Test func changedBytesAreRefusedOrLoadedNeverTrapped() {
        var random = SplitMix64(seed: 15)
        let replacements = Array("{}[],:\"\\0123456789-+.eE ntfu\u{01}".utf8) + [0xFF, 0xC3]
        var refused = 0
        for _ in 0..<1500 {
            var bytes = [UInt8](golden)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = replacements.randomElement(using: &random) ?? 0
            }
            if let refusal = refusal(Data(bytes)) {
                #expect(refusal.hasPrefix("invalid compiled policy: "), "\(refusal)")
                refused += 1
            }
        }
        #expect(refused > 0)
    }
}

extension Data {
    /// The document with one text replaced, for numbers JSONSerialization would not write.
    func replacingNumber(_ text: String, with replacement: String) -> Data {
        Data(String(decoding: self, as: UTF8.self).replacingOccurrences(of: text, with: replacement).utf8)
    }
}
