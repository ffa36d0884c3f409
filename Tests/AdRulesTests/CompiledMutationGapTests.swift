import AdRulesTestSupport
import AdRules
import AdRulesYAML
import Foundation
import Testing

/// What docs/compiled-policy.md says `Policy(compiled:)` checks, at the edges the other compiled-policy tests leave out:
/// each bound on its both sides, each "defined twice", each required key.
@Suite("Compiled policy edges")
struct CompiledMutationGapTests {
    static let text = """
        version: 1
        placements:
          inter: {format: interstitial, daily_cap: 3}
          banner: {format: banner}
        groups:
          g: {placements: [inter, banner], daily_cap: 5}
        attributes:
          screen: string
          wait: {type: duration, default: 5s}
        rules:
          - id: r1
            deny: [inter]
            when: screen == "checkout"
            message: No ads in checkout

        """

    /// The compiled document of `text`.
    func document(_ text: String = Self.text) throws -> Data {
        try policy(text).compiledDocument(relativePath: { $0 }, sourceDigest: "sha256:0", generator: "test")
    }

    /// The document with one change made to its parsed form.
    func changed(_ change: (inout [String: Any]) -> Void) throws -> Data {
        try JSONDocumentEdits.changed(try document(), change)
    }

    /// Sets `value` at a key of one entry of a top-level list (`nil` removes the key).
    func changing(_ list: String, _ index: Int, _ key: String, to value: Any?) throws -> Data {
        try JSONDocumentEdits.changing(try document(), list, index, key, to: value)
    }

    /// The document with `text` replaced, for what JSONSerialization would not write.
    func replacing(_ text: String, with replacement: String) throws -> Data {
        let edited = JSONDocumentEdits.replacing(text, with: replacement, in: try document())
        #expect(edited != nil, "\(text) is not in the document")
        return edited ?? Data()
    }

    /// The document with the raw bytes in place of the text of the rule's message.
    func withMessage(_ raw: [UInt8]) throws -> Data {
        let text = String(decoding: try document(), as: UTF8.self)
        let message = try #require(text.range(of: #""message":"No ads in checkout""#))
        return Data((text[..<message.lowerBound] + #""message":""#).utf8) + Data(raw) + Data(("\"" + text[message.upperBound...]).utf8)
    }

    /// What `Policy(compiled:)` says of the document, nil when it loads.
    func refusal(_ document: Data) -> String? { compiledRefusal(document) }

    func expectRefused(_ document: Data, saying message: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let refusal = refusal(document)
        #expect(refusal?.contains(message) == true, "expected \(message), got \(refusal ?? "no error")", sourceLocation: sourceLocation)
    }

    func expectLoads(_ document: Data, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let refusal = refusal(document)
        #expect(refusal == nil, "\(refusal ?? "")", sourceLocation: sourceLocation)
    }

    @Test func theDocumentOfTheseTestsLoads() throws {
        let loaded = try Policy(compiled: try document())
        #expect(loaded.placement("inter")?.dailyCap?.value == 3)
        #expect(loaded.rules.map(\.id) == ["r1"])
    }

    /// "lines 1-100,000,000": a line or a column of 0, or past the last line, points at no place of a rule file.
    @Test func aLocationIsAtLineAndColumnOneOrMoreAndWithinTheLastLine() throws {
        expectRefused(try changing("placements", 0, "at", to: [0, 0, 1]), saying: "placements[0].at: location [0, 0, 1] is outside the files and lines")
        expectRefused(try changing("placements", 0, "at", to: [0, 1, 0]), saying: "placements[0].at: location [0, 1, 0] is outside the files and lines")
        expectRefused(try changing("placements", 0, "at", to: [0, 100_000_001, 1]), saying: "placements[0].at: location [0, 100000001, 1] is outside")
        expectLoads(try changing("placements", 0, "at", to: [0, 100_000_000, 1]))
        expectRefused(try changing("placements", 0, "at", to: [1, 1, 1]), saying: "placements[0].at: location [1, 1, 1] is outside")
    }

    /// "at most 4096 characters": 4096 fit.
    @Test func aTextOfExactly4096CharactersLoads() throws {
        expectLoads(try withMessage(Array(String(repeating: "x", count: 4096).utf8)))
        expectRefused(try withMessage(Array(String(repeating: "x", count: 4097).utf8)), saying: "rules[0].message: the text is 4097 characters long")
    }

    /// DEL (U+007F) is a control character, though it is ASCII.
    @Test func theDeleteCharacterInATextIsAControlCharacter() throws {
        expectRefused(try withMessage(Array("a\u{7F}b".utf8)), saying: "rules[0].message: the text holds a control character")
        expectRefused(try changing("placements", 0, "ad_unit", to: ["unit\u{7F}", 0, 1, 1]), saying: "placements[0].ad_unit: the text holds a control character")
    }

    /// JSON is UTF-8: a string of nothing but a continuation byte is not, however few its bytes.
    @Test func aLoneContinuationByteIsNotUTF8() throws {
        expectRefused(try withMessage([0x80]), saying: "a string that is not UTF-8")
        expectRefused(try withMessage([0x80, 0x80]), saying: "a string that is not UTF-8")
    }

    /// A high surrogate escape followed by an escape that is no low surrogate (U+E000 is just past them) is unpaired.
    @Test func aHighSurrogateBeforeACharacterPastTheLowSurrogatesIsUnpaired() throws {
        expectRefused(try withMessage(Array(#"\uD800\uE000"#.utf8)), saying: "unpaired surrogate")
        expectLoads(try withMessage(Array(#"\uD800\uDFFF"#.utf8)))
    }

    /// "caps 0-100,000": a window's `max` below 0 too.
    @Test func aWindowCapBelowZeroIsRefused() throws {
        expectRefused(
            try changing("placements", 0, "caps", to: [[["max": -1, "window": 60_000], 0, 1, 1]]), saying: "placements[0].caps[0].max: -1 is below 0")
        expectLoads(try changing("placements", 0, "caps", to: [[["max": 0, "window": 60_000], 0, 1, 1]]))
    }

    /// "no id defined twice", "attributes declared once".
    @Test func anythingDefinedTwiceIsRefused() throws {
        let twice = { (list: String) in
            try self.changed { object in
                let entries = object[list] as? [[String: Any]] ?? []
                object[list] = entries + [entries[0]]
            }
        }
        expectRefused(try twice("placements"), saying: "placements[2].id: placement \"inter\" is defined twice")
        expectRefused(try twice("groups"), saying: "groups[1].id: group \"g\" is defined twice")
        expectRefused(try twice("rules"), saying: "rules[1].id: rule \"r1\" is defined twice")
        expectRefused(try twice("attributes"), saying: "attributes[2].name: attribute \"screen\" is declared twice")
    }

    /// A rule id is written as in rule files: 1-64 characters of a-z 0-9 - _ (a placement's may hold capitals).
    @Test func aRuleIdHoldsNoCapitalLetter() throws {
        expectRefused(try changing("rules", 0, "id", to: "R1"), saying: "rules[0].id: \"R1\" is not a valid id")
        expectRefused(try changing("rules", 0, "id", to: String(repeating: "r", count: 65)), saying: "rules[0].id: ")
        expectLoads(try changing("rules", 0, "id", to: String(repeating: "r", count: 64)))
    }

    /// "durations between 0 and 366d (attribute defaults too)": 366d itself is one.
    @Test func durationsOf366DaysLoad() throws {
        let days366: Int64 = 366 * 86_400_000
        let withDefault = { (ms: Int64) in
            try self.changing("attributes", 1, "default", to: ["type": "duration", "value": ms])
        }
        expectLoads(try withDefault(days366))
        expectRefused(try withDefault(days366 + 1), saying: "attributes[1].default: \(days366 + 1) ms is not a duration between 0 and 366d")
        expectLoads(try changed { $0["session_timeout"] = days366 })
        expectRefused(try changed { $0["session_timeout"] = days366 + 1 }, saying: "session_timeout: \(days366 + 1) ms is not a duration")
    }

    /// "at most … 10,000 groups, … 1000 attributes".
    @Test func listsOneLongerThanTheirLimitAreRefused() throws {
        let groups = { (count: Int) in
            try self.changed { object in
                object["groups"] = (0..<count).map { ["id": "g\($0)", "at": [0, 1, 1], "placements": [["inter", 0, 1, 1]], "caps": []] as [String: Any] }
            }
        }
        expectLoads(try groups(10_000))
        expectRefused(try groups(10_001), saying: "groups: 10001 entries; expected 0-10000")
        let attributes = { (count: Int) in
            try self.changed { object in
                let declared = (0..<count).map { ["name": "a\($0)", "at": [0, 1, 1], "type": "bool"] as [String: Any] }
                object["attributes"] = declared + [["name": "screen", "at": [0, 1, 1], "type": "string"]]
            }
        }
        expectLoads(try attributes(999))
        expectRefused(try attributes(1000), saying: "attributes: 1001 entries; expected 0-1000")
    }

    /// A rule's `message` is required: a rule that denies must say why.
    @Test func aRuleWithoutItsMessageIsRefused() throws {
        expectRefused(try changing("rules", 0, "message", to: nil), saying: "rules[0]: \"message\" is missing")
        expectRefused(try changing("rules", 0, "when", to: nil), saying: "rules[0]: \"when\" is missing")
    }

    /// 2^63 is one more than the largest Int: too large to hold, not a crash.
    @Test func aWholeNumberOfTwoToTheSixtyThirdIsTooLargeToHold() throws {
        expectRefused(
            try replacing(#""daily_cap":[3,"#, with: #""daily_cap":[9223372036854775808,"#),
            saying: "placements[0].daily_cap[0]: expected Int (a whole number that fits 64 bits), found a whole number too large to hold")
        // Nineteen digits may not fit: they are not added up as if they did.
        expectRefused(
            try replacing(#""daily_cap":[3,"#, with: #""daily_cap":[9999999999999999999,"#),
            saying: "placements[0].daily_cap[0]: expected Int (a whole number that fits 64 bits), found a whole number too large to hold")
    }

    /// A key written twice is refused whichever key of its object it is: the first one too.
    @Test func theFirstKeyOfAnObjectGivenTwiceIsRefused() throws {
        let text = String(decoding: try document(), as: UTF8.self)
        #expect(text.hasPrefix(#"{"attributes":"#))
        let twice = Data((#"{"attributes":[],"# + text.dropFirst()).utf8)
        expectRefused(twice, saying: #"the key "attributes" appears twice in one object"#)
    }

    /// "at most 64 MiB": a document of exactly 64 MiB loads, from bytes and from a file; one byte more does not.
    @Test func aDocumentOfExactly64MiBLoads() throws {
        var padded = try document()
        padded.append(Data(repeating: UInt8(ascii: " "), count: Policy.maxCompiledBytes - padded.count))
        #expect(padded.count == 64 * 1024 * 1024)
        expectLoads(padded)
        try withTemporaryDirectory { directory in
            let url = URL(fileURLWithPath: directory + "/policy.json")
            try padded.write(to: url)
            #expect(throws: Never.self) { _ = try Policy(compiledContentsOf: url) }
            try (padded + Data(" ".utf8)).write(to: url)
            #expect(throws: CompiledPolicyError("the document is \(Policy.maxCompiledBytes + 1) bytes; at most \(Policy.maxCompiledBytes) (64 MiB) are accepted")) {
                _ = try Policy(compiledContentsOf: url)
            }
        }
        expectRefused(padded + Data(" ".utf8), saying: "at most \(Policy.maxCompiledBytes) (64 MiB) are accepted")
    }

    /// "`and`/`or` are flat lists of two or more operands".
    @Test func andAndOrOfOneOperandAreRefused() throws {
        let premium: [String: Any] = ["builtin": "premium"]
        expectRefused(try changing("rules", 0, "condition", to: ["and": [premium]]), saying: "rules[0].condition: and / or need at least two operands")
        expectRefused(try changing("rules", 0, "condition", to: ["or": [premium]]), saying: "rules[0].condition: and / or need at least two operands")
        expectLoads(try changing("rules", 0, "condition", to: ["or": [premium, premium]]))
    }

    /// "at most 2048 nodes and 64 levels": a condition at both limits loads; one node or one level more does not.
    @Test func aConditionAtItsLimitsLoads() throws {
        func nested(_ levels: Int) -> [String: Any] {
            var node: [String: Any] = ["builtin": "premium"]
            for _ in 0..<levels { node = ["not": node] }
            return node
        }
        expectLoads(try changing("rules", 0, "condition", to: nested(64)))
        expectRefused(try changing("rules", 0, "condition", to: nested(65)), saying: "rules[0].condition: the condition is larger than 2048 nodes or deeper than 64 levels")
        let premium: [String: Any] = ["builtin": "premium"]
        expectLoads(try changing("rules", 0, "condition", to: ["or": Array(repeating: premium, count: 2047)]))
        expectRefused(
            try changing("rules", 0, "condition", to: ["or": Array(repeating: premium, count: 2048)]),
            saying: "rules[0].condition: the condition is larger than 2048 nodes")
    }

    /// Conditions are type-checked as the rule-file compiler does: what it compiles, the runtime loads.
    @Test func aConditionOfABoolInTheEmptyListLoadsCompiled() throws {
        let text = Self.text.replacingOccurrences(of: #"screen == "checkout""#, with: "premium in []")
        #expect(lint(text).filter { $0.severity == .error }.isEmpty)
        expectLoads(try document(text))
    }

    /// "texts … no control characters": a string default of an attribute is a text too.
    @Test func anAttributesStringDefaultHoldsNoControlCharacter() throws {
        let withDefault = { (value: String) in
            try self.changing("attributes", 0, "default", to: ["type": "string", "value": value])
        }
        expectRefused(try withDefault("home\u{1B}[31m"), saying: "attributes[0].default: the text holds a control character")
        expectRefused(try withDefault(String(repeating: "x", count: 4097)), saying: "attributes[0].default: the text is 4097 characters long")
        expectLoads(try withDefault("home"))
    }

    /// `list` and `negated` belong to a member node only (`left` and `right` to a compare node): on another node they
    /// would say something the condition does not do.
    @Test func membershipKeysOnAnotherNodeAreRefused() throws {
        let premium: [String: Any] = ["builtin": "premium"]
        let message = "rules[0].condition: left and right belong to a compare node, list and negated to a member node"
        expectRefused(try changing("rules", 0, "condition", to: ["not": premium, "negated": true]), saying: message)
        expectRefused(try changing("rules", 0, "condition", to: ["not": premium, "list": premium]), saying: message)
        expectRefused(try changing("rules", 0, "condition", to: ["not": premium, "right": premium]), saying: message)
    }
}
