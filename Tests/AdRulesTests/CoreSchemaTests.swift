import AdRules
import AdRulesCompiler
import Testing

/// Rule files are read with the YAML 1.2 core schema (rules.md §1).
@Suite("YAML 1.2 core schema")
struct CoreSchemaTests {
    @Test(arguments: [("16", 16), ("0x10", 16), ("0xFf", 255), ("0o17", 15), ("+7", 7), ("0", 0)])
    func integersAreReadInEveryCoreSchemaForm(_ text: String, _ value: Int) throws {
        let load = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m, daily_cap: \(text)}\n")])
        #expect(!load.diagnostics.contains { $0.severity == .error }, "\(load.diagnostics)")
        #expect(load.policy.placements.first?.dailyCap?.value == value)
    }

    /// Not integers in the core schema (a float, a YAML 1.1 octal or binary, a bad digit).
    @Test(arguments: ["3.0", "0b11", "0o18", "0x", "0xG1", "1_000", "\"16\"", "+-5", "-+5"])
    func otherFormsAreATypeError(_ text: String) {
        let load = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m, daily_cap: \(text)}\n")])
        #expect(load.diagnostics.map(\.rule).contains("schema/type"), "\(load.diagnostics)")
    }

    /// Integers too long to be read safely are a range error that says so, not "must be a whole number".
    @Test(arguments: ["0x1000000000000000", "1234567890123456789", "99999999999999999999"])
    func tooLongIntegersAreARangeError(_ text: String) {
        let load = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m, daily_cap: \(text)}\n")])
        #expect(load.diagnostics.map(\.rule) == ["schema/range"], "\(load.diagnostics)")
        #expect(load.diagnostics.first?.message.contains("more digits than this tool reads safely") == true, "\(load.diagnostics)")
        // A cap is told what a cap may be; a number in hex, the limit in hex.
        #expect(load.diagnostics.first?.message.hasSuffix(": no cap needs that many shows: write at most 100000, or leave daily_cap out for no cap") == true, "\(load.diagnostics)")
        #expect(load.diagnostics.first?.message.contains(text.hasPrefix("0x") ? "(15 digits in hex at most" : "(18 digits at most") == true, "\(load.diagnostics)")
    }

    /// Too many digits that are leading zeros are told to lose the zeros; a negative cap, the least cap.
    @Test(arguments: [
        ("0000000000000000000005", "remove the leading zeros: write 5"), ("1000000000000000000000000", "no cap needs that many shows: write at most 100000, or leave daily_cap out for no cap"),
        // However many zeros; a negative number, whose zeros are not what is wrong, is told the least cap.
        (String(repeating: "0", count: 100) + "3", "remove the leading zeros: write 3"),
        ("-" + String(repeating: "0", count: 30) + "3", "daily_cap must be >= 0: write 0 or more"), ("-1000000000000000000000", "daily_cap must be >= 0: write 0 or more"),
        // Zeros alone are zero, which takes no sign.
        ("-" + String(repeating: "0", count: 22), "remove the leading zeros: write 0"),
    ])
    func tooManyDigitsAreToldWhatToWrite(_ text: String, _ advice: String) {
        let load = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m, daily_cap: \(text)}\n")])
        #expect(load.diagnostics.map(\.rule) == ["schema/range"] && load.diagnostics.first?.message.hasSuffix(": " + advice) == true, "\(load.diagnostics)")
    }

    /// A negative whole number of 18 digits is 19 characters with its `-`, which counts: it has no leading zeros to lose,
    /// and is told to write fewer digits, not to write itself again (an int attribute's default, or a scenario's context).
    @Test(arguments: [
        ("-999999999999999999", "write it with fewer digits"), ("-0000000000000000001", "remove the leading zeros: write -1"),
        ("-0" + String(repeating: "9", count: 17), "remove the leading zeros: write -" + String(repeating: "9", count: 17)),
    ])
    func aNegativeNumberIsToldToLoseOnlyZerosItHas(_ text: String, _ advice: String) {
        let load = PolicyLoader.load(texts: [(
            "p.yaml", "version: 1\nplacements:\n  a: {format: banner}\nattributes:\n  level: {type: int, default: \(text)}\n"
        )])
        #expect(load.diagnostics.map(\.rule) == ["schema/range"] && load.diagnostics.first?.message.hasSuffix(": " + advice) == true, "\(load.diagnostics)")
    }

    /// Zero written with too many digits where the least value is above 0 is told the least value, not to write 0.
    @Test(arguments: ["-" + String(repeating: "0", count: 22), String(repeating: "0", count: 22)])
    func zerosBelowTheLeastValueAreToldIt(_ text: String) {
        let load = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m, every_n_actions: \(text)}\n")])
        #expect(load.diagnostics.map(\.rule) == ["schema/range"] && load.diagnostics.first?.message.hasSuffix(": every_n_actions must be >= 1: write 1 or more") == true, "\(load.diagnostics)")
    }

    /// A plain number is a number in the core schema, not text: a string field says to quote it.
    @Test(arguments: ["123456", "-7", "0x1F", "0o17", "1.5", "-.5", "1e3", "+2.5E-3", ".inf", "-.Inf", ".nan", "12345678901234567890123"])
    func aNumberInAStringFieldIsATypeError(_ text: String) {
        let diagnostics = lint("version: 1\nplacements:\n  a: {format: banner, ad_unit: \(text)}\n")
        #expect(diagnostics.map(\.rule) == ["schema/type"], "\(diagnostics)")
        #expect(diagnostics.first?.message.contains("quote it (\"\(text)\")") == true, "\(diagnostics)")
    }

    /// A number attribute reads what the core schema reads as a number: whole numbers in every form, floats; not
    /// Swift's own forms (a hex float, `nan`) and not a float too small for a double (which would read as 0).
    @Test(arguments: [("0o17", 15.0), ("0x1F", 31.0), ("-.5", -0.5), ("+2.5E-3", 0.0025), ("12345678901234567890123", 1.2345678901234568e22), ("0.0e-999", 0), ("5e-324", .leastNonzeroMagnitude)])
    func numberAttributesReadCoreSchemaNumbers(_ text: String, _ value: Double) throws {
        let load = PolicyLoader.load(texts: [("p.yaml", "version: 1\nattributes:\n  x: {type: number, default: \(text)}\nplacements:\n  a: {format: banner}\n")])
        #expect(load.diagnostics.isEmpty, "\(load.diagnostics)")
        #expect(load.policy.attributes.first?.defaultValue == .number(value))
    }

    @Test(arguments: [("0x1p3", "a finite number"), ("nan", "a finite number"), ("1.5e-400", "must be a number a double can tell from 0 (about 5e-324 or larger), or 0"), ("2.4e-324", "about 5e-324"),
        ("0x10000000000000000", "more digits than this tool reads safely"), ("1" + String(repeating: "0", count: 350), "must be a finite number")])
    func numberAttributesRefuseWhatIsNoCoreSchemaNumber(_ text: String, _ expected: String) {
        let load = PolicyLoader.load(texts: [("p.yaml", "version: 1\nattributes:\n  x: {type: number, default: \(text)}\nplacements:\n  a: {format: banner}\n")])
        #expect(load.diagnostics.count == 1, "\(load.diagnostics)")
        #expect(load.diagnostics.first?.message.contains(expected) == true, "\(load.diagnostics)")
    }

    /// A value that is no finite number where a `number` goes is told what to write: the finding said only "must be a
    /// finite number, not \".nan\"", in rule files and scenario contexts alike.
    @Test(arguments: [
        (".nan", "not \".nan\": NaN and infinity compare with no number, so a rule could not read them: write a finite number, such as 1.5"),
        ("-.Inf", "not \"-.Inf\": NaN and infinity compare with no number, so a rule could not read them: write a finite number, such as 1.5"),
        ("1e400", "not \"1e400\": it is further from 0 than a double holds (about 1.8e308): write a number nearer 0"),
        ("1_000.5", "not \"1_000.5\": write 1000.5, with no underscores"),
        ("0x1p3", "not \"0x1p3\": YAML reads no hexadecimal fraction: write it in decimal digits, as in 8"),
        ("abc", "not \"abc\": write a number, such as 1.5"),
    ])
    func aValueThatIsNoFiniteNumberIsToldWhatToWrite(_ text: String, _ expected: String) throws {
        let load = PolicyLoader.load(texts: [("p.yaml", "version: 1\nattributes:\n  x: {type: number, default: \(text)}\nplacements:\n  a: {format: banner}\n")])
        #expect(load.diagnostics.map(\.message) == ["default must be a finite number, " + expected], "\(load.diagnostics)")
        let policy = try Policy(yaml: "version: 1\nattributes:\n  x: number\nplacements:\n  a: {format: banner}\n")
        let scenario = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    context: {attributes: {x: \(text)}}\n    steps:\n      - event: app_launched\n"
        let (_, found) = ScenarioDecoder.decode(Array(scenario.utf8), file: "t.test.yaml", policy: policy)
        #expect(found.map(\.message) == ["x must be a finite number, " + expected], "\(found)")
    }

    /// Text that only looks like a number stays text.
    @Test(arguments: ["1.2.3", "12ab", "e5", "0x", "0b11", "1_000", "+", ".", "inf", "v1.5", "\"123\""])
    func textThatIsNotANumberIsAString(_ text: String) {
        let load = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner, ad_unit: \(text)}\n")])
        #expect(!load.diagnostics.contains { $0.rule == "schema/type" }, "\(load.diagnostics)")
    }
}
