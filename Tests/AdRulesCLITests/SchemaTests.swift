import AdRulesTestSupport
import AdRules
import AdRulesCompiler
@testable import AdRulesCLI
import Foundation
import Testing

/// The JSON Schema and the Swift model must agree on every key and enum value.
@Suite("JSON Schema drift")
struct SchemaTests {
    func object(_ json: JSON) -> [(String, JSON)] {
        if case .object(let pairs) = json { return pairs }
        return []
    }

    func properties(_ json: JSON) -> [String] {
        object(json).first { $0.0 == "properties" }.map { object($0.1).map(\.0) } ?? []
    }

    /// The schema's regular expressions for control characters and attribute names say what lint's checks say.
    @Test func patternsMatchLintsChecks() throws {
        let control = try NSRegularExpression(pattern: "^[\(ControlCharacters.regexClass)]$")
        for value in UInt32(0)...0x3000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(scalar)
            let matched = control.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            #expect(matched == ControlCharacters.isControl(scalar), "U+\(String(value, radix: 16))")
        }
        let name = try NSRegularExpression(pattern: PolicyIDs.attributeNamePattern)
        let reserved = Set(PolicyIDs.keywords + Builtin.allCases.map(\.rawValue))
        let names = ["level", "_x", "a.b", "a.", ".a", "1a", "a-b", "A9_z", "é", String(repeating: "a", count: 64), String(repeating: "a", count: 65),
                     "premium", "and", "session.count", "screen.kind_2"]
        for text in names {
            let matched = name.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil && !reserved.contains(text)
            #expect(matched == PolicyIDs.isValidAttributeName(text), "\(text)")
        }
    }

    /// A setting's block (a `switch`) is the prefix of its key: the decoder groups a placement's keys by it.
    @Test func eachSettingsBlockIsItsKeysPrefix() {
        for setting in PlacementSetting.allCases {
            let prefix = setting.key.split(separator: ".").count == 2 ? setting.key.split(separator: ".").first.map(String.init) : nil
            #expect(setting.block?.rawValue == prefix, "\(setting)")
        }
    }

    @Test func keysMatchTheDecoder() {
        #expect(RuleFileSchema.topProperties.map(\.0) == RuleFileKeys.top)
        #expect(RuleFileSchema.placementProperties.map(\.0) == RuleFileKeys.placement)
        #expect(RuleFileSchema.groupProperties.map(\.0) == RuleFileKeys.group)
        #expect(RuleFileSchema.ruleProperties.map(\.0) == RuleFileKeys.rule)
        let nested = Dictionary(uniqueKeysWithValues: RuleFileSchema.placementProperties)
        #expect(nested["launch"].map(properties) == RuleFileKeys.launch)
        #expect(nested["resume"].map(properties) == RuleFileKeys.resume)
        #expect(nested["grace"].map(properties) == RuleFileKeys.grace)
    }

    @Test func enumsMatchTheModel() throws {
        let text = RuleFileSchema.text
        for format in AdFormat.allCases { #expect(text.contains("\"\(format.rawValue)\"")) }
        for type in ValueType.allCases { #expect(text.contains("\"\(type.rawValue)\"")) }
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let placement = try #require(((parsed["properties"] as? [String: Any])?["placements"] as? [String: Any])?["additionalProperties"] as? [String: Any])
        let format = try #require((placement["properties"] as? [String: Any])?["format"] as? [String: Any])
        #expect(format["enum"] as? [String] == AdFormat.allCases.map(\.rawValue))
    }

    @Test(arguments: RuleFileKeys.placement.filter { $0 != "format" && $0 != "ad_unit" })
    func theDecoderReadsEverySchemaKey(_ key: String) {
        // A value of the wrong type must be reported, so the key is really read, not only listed.
        let yaml = "version: 1\nplacements:\n  a:\n    format: app_open\n    min_interval: 1m\n    \(key == "min_interval" ? "max_ad_age" : key): [[]]\n"
        let diagnostics = PolicyLoader.load(texts: [("t.yaml", yaml)]).diagnostics
        #expect(diagnostics.contains { $0.rule.hasPrefix("schema/") && $0.range.start.line == 6 }, "\(key): \(diagnostics)")
    }

    /// A rule's `deny` and `when` take in the schema what lint takes: `deny: a` (one id) and `when: true` lint clean,
    /// `deny: []` does not.
    @Test func aRulesDenyAndWhenTakeWhatLintTakes() throws {
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(RuleFileSchema.text.utf8)) as? [String: Any])
        let rules = try #require((parsed["properties"] as? [String: Any])?["rules"] as? [String: Any])
        let rule = try #require((rules["items"] as? [String: Any])?["properties"] as? [String: Any])
        let deny = try #require((rule["deny"] as? [String: Any])?["oneOf"] as? [[String: Any]])
        #expect(deny.contains { $0["type"] as? String == "string" && $0["pattern"] as? String == "^(\\*|[A-Za-z0-9_.-]{1,64})$" })
        #expect(deny.contains { $0["type"] as? String == "array" && $0["minItems"] as? Int == 1 })
        #expect((rule["when"] as? [String: Any])?["type"] as? [String] == ["string", "boolean"])
        func errors(_ rule: String) -> [String] {
            PolicyLoader.load(texts: [("t.yaml", "version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - \(rule)\n")]).diagnostics
                .filter { $0.severity == .error }.map(\.rule)
        }
        #expect(errors("{id: r, deny: a, when: true}").isEmpty)
        #expect(!errors("{id: r, deny: [], when: premium}").isEmpty)
        // An empty text names no placement either (it was "names placement \"\"").
        #expect(errors("{id: r, deny: \"\", when: premium}") == ["schema/type"])
    }

    /// The schema's duration pattern takes what lint takes: one or more parts, largest unit first.
    @Test func theDurationPatternNeedsAPart() throws {
        let text = RuleFileSchema.text
        let start = try #require(text.range(of: "\"pattern\": \"^([0-9]+d"))
        let end = try #require(text[start.upperBound...].range(of: "$\""))
        let pattern = String(text[text.index(start.lowerBound, offsetBy: 12)..<end.upperBound].dropLast()).replacingOccurrences(of: "\\\\", with: "\\")
        let regex = try NSRegularExpression(pattern: pattern)
        func matches(_ s: String) -> Bool { regex.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil }
        for good in ["90s", "4m", "1h30m", "1d", "250ms", "1d2h3m4s5ms", "5m30s"] { #expect(matches(good), "\(good)") }
        for bad in ["", "1h1d", "ms", "10", "1s1m", "m5"] {
            #expect(!matches(bad), "\(bad)")
            #expect(RuleDuration(parsing: bad) == nil, "lint agrees on \(bad)")
        }
    }

    /// A placement's `launch:` and `resume:` are refused by the schema for any format but app_open, as lint refuses
    /// them (`policy/format-key`); `grace:` is any placement's.
    @Test func appOpenBlocksAreRefusedOnOtherFormats() throws {
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(RuleFileSchema.text.utf8)) as? [String: Any])
        let placement = try #require(((parsed["properties"] as? [String: Any])?["placements"] as? [String: Any])?["additionalProperties"] as? [String: Any])
        let format = ((placement["if"] as? [String: Any])?["properties"] as? [String: Any])?["format"] as? [String: Any]
        #expect(format?["const"] as? String == "app_open")
        let refused = try #require((placement["else"] as? [String: Any])?["properties"] as? [String: Any])
        #expect(Set(refused.keys) == ["launch", "resume"])
        #expect(refused.values.allSatisfy { ($0 as? Bool) == false })
    }

    /// An attribute's type is taken in the schema in every spelling lint takes: `"[int]"` quoted or `[int]` as a YAML
    /// list, on its own (`tags: [string]`) and as the `type` of the longer form (`ids: {type: [int], default: [1]}`).
    @Test func anAttributesTypeTakesTheListSpellingInBothForms() throws {
        let errors = PolicyLoader.load(texts: [("t.yaml", "version: 1\nattributes:\n  tags: [string]\n  ids: {type: [int], default: [1]}\nplacements:\n  a: {format: banner}\n")])
            .diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(RuleFileSchema.text.utf8)) as? [String: Any])
        let attributes = try #require((parsed["properties"] as? [String: Any])?["attributes"] as? [String: Any])
        let forms = try #require((attributes["additionalProperties"] as? [String: Any])?["oneOf"] as? [[String: Any]])
        let listForm = try #require(forms.first { $0["type"] as? String == "array" })
        let longForm = try #require(forms.first { $0["type"] as? String == "object" })
        let type = try #require((longForm["properties"] as? [String: Any])?["type"] as? [String: Any])
        let typeForms = try #require(type["oneOf"] as? [[String: Any]], "the long form's type takes the enum and the list form")
        #expect(typeForms.contains { NSDictionary(dictionary: $0).isEqual(to: listForm) })
        #expect(typeForms.contains { ($0["enum"] as? [String]) == ValueType.allCases.map(\.rawValue) })
    }

    @Test func committedSchemaIsCurrent() throws {
        let committed = try String(contentsOfFile: packageRoot() + "/schema/rules.schema.json", encoding: .utf8)
        #expect(committed == RuleFileSchema.text, "run: swift run adrules schema > schema/rules.schema.json")
    }
}
