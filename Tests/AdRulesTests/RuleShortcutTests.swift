import AdRulesTestSupport
@testable import AdRules
@testable import AdRulesCompiler
import AdRulesYAML
import Testing

/// The rule program reads whole-number comparisons and string-in-list tests without building attribute values
/// (``RuleProgram/Shortcut``). Every such reading must agree with the general one, for values of the declared
/// type, missing values (with and without a default) and values of another type, in plain and prepared contexts.
@Suite("rule shortcuts")
struct RuleShortcutTests {
    static let attributes = [
        declared("screen", .string), declared("mode", .string, default: .string("dark")), declared("level", .int, default: .int(1)),
        declared("stars", .int), declared("wait", .duration),
        declared("pause", .duration, default: .duration(RuleDuration(milliseconds: 60_000))),
        declared("onboarding", .bool, default: .bool(false)), declared("trial", .bool),
    ]

    static let expressions = [
        "level < 5", "level == 3", "level >= 3", "5 > level", "level != 2", "stars <= 4", "level < stars",
        "session.count > 3", "session.age > 1m", "install.age >= 2d", "now.hour >= 22 or now.hour < 7",
        "wait < 10m", "wait == 90s", "pause > 30s", "wait <= pause",
        "screen in [\"home\", \"shop\"]", "screen not in [\"home\"]", "mode in [\"dark\"]", "now.weekday in [\"sat\", \"sun\"]",
        "onboarding", "trial", "not trial", "onboarding or level > 2",
    ]

    static let valueSets: [[String: AttributeValue]] = [
        [:],
        ["screen": .string("home"), "mode": .string("light"), "level": .int(3), "stars": .int(4), "wait": .duration(RuleDuration(milliseconds: 90_000)),
         "pause": .duration(RuleDuration(milliseconds: 10_000)), "onboarding": .bool(true), "trial": .bool(false)],
        ["screen": .string("shop"), "level": .int(7), "stars": .int(9), "wait": .duration(RuleDuration(milliseconds: 3_600_000)), "trial": .bool(true)],
        // On the boundaries of the comparisons above.
        ["level": .int(5), "stars": .int(5), "wait": .duration(RuleDuration(milliseconds: 600_000)), "pause": .duration(RuleDuration(milliseconds: 30_000)),
         "screen": .string("home"), "trial": .bool(true)],
        ["level": .int(2), "stars": .int(2), "wait": .duration(RuleDuration(milliseconds: 30_000)), "pause": .duration(RuleDuration(milliseconds: 30_000))],
        // Values of another type than declared: the general reading cannot evaluate them, nor may a shortcut.
        ["screen": .int(1), "mode": .bool(true), "level": .string("3"), "stars": .number(4), "wait": .int(90_000),
         "pause": .string("1m"), "onboarding": .int(1), "trial": .string("yes")],
        ["level": .duration(RuleDuration(milliseconds: 3)), "wait": .number(1), "screen": .stringList(["home"])],
    ]

    static let inputs = [
        RuleInputs(premium: false, sessionCount: 4, sessionAge: 90_000, installAge: 86_400_000 * 2, nowHour: 23, nowWeekday: 2),
        RuleInputs(premium: true, sessionCount: 1, sessionAge: 0, installAge: 3_600_000, nowHour: 9, nowWeekday: 4),
        // On the boundaries: 3 sessions, 1m, 2d, 22:00 and 07:00.
        RuleInputs(premium: false, sessionCount: 3, sessionAge: 60_000, installAge: 86_400_000 * 2, nowHour: 22, nowWeekday: 3),
        RuleInputs(premium: false, sessionCount: 3, sessionAge: 60_000, installAge: 86_400_000 * 2, nowHour: 7, nowWeekday: 3),
    ]

    @Test(arguments: expressions)
    func shortcutsAgreeWithTheGeneralReading(_ source: String) throws {
        guard case .success(let compiled) = ExpressionCompiler.compile(source, attributes: Self.attributes) else {
            Issue.record("\(source) does not compile")
            return
        }
        let program = RuleProgram([compiled], attributes: Self.attributes.map(\.name))
        for values in Self.valueSets {
            let plain = AskContext(attributes: values)
            var prepared = plain
            prepared.prepared = PreparedAttributes(program: program, names: Self.attributes.map(\.name), context: plain)
            for inputs in Self.inputs {
                let general: Bool?
                switch program.evaluate(rule: 0, inputs, plain) {
                case .bool(let b)?: general = b
                default: general = nil
                }
                #expect(program.holds(rule: 0, inputs, plain) == general, "\(source) with \(values)")
                #expect(program.holds(rule: 0, inputs, prepared) == general, "\(source), prepared, with \(values)")
            }
        }
    }

    @Test func shortcutsAreChosenFromTheOperandTypes() throws {
        func shortcuts(_ source: String) -> [RuleProgram.Shortcut] {
            guard case .success(let compiled) = ExpressionCompiler.compile(source, attributes: Self.attributes) else { return [] }
            return RuleProgram([compiled], attributes: Self.attributes.map(\.name)).nodes.map(\.shortcut).filter { $0 != .none }
        }
        #expect(shortcuts("level < 5") == [.wholeNumbers])
        #expect(shortcuts("wait <= pause") == [.wholeNumbers])
        #expect(shortcuts("now.hour >= 22 or now.hour < 7") == [.wholeNumbers, .wholeNumbers])
        #expect(shortcuts("screen in [\"home\", \"shop\"]") == [.stringInList])
        #expect(shortcuts("screen == \"home\"").isEmpty, "string comparisons take the general reading")
        #expect(shortcuts("level == 3.0").isEmpty, "an int compared with a number takes the general reading")
    }

    @Test func aPreparedContextKnowsTheConditionsOnAttributesBeforehand() throws {
        func known(_ source: String, _ values: [String: AttributeValue]) -> RuleProgram.Known? {
            guard case .success(let compiled) = ExpressionCompiler.compile(source, attributes: Self.attributes) else { return nil }
            let program = RuleProgram([compiled], attributes: Self.attributes.map(\.name))
            return program.knownTruths(AskContext(attributes: values))[program.roots[0]]
        }
        #expect(known("level < 5", ["level": .int(3)]) == .yes)
        #expect(known("level < 5", [:]) == .yes, "the default applies")
        #expect(known("screen in [\"home\"]", ["screen": .string("shop")]) == .no)
        #expect(known("screen in [\"home\"]", [:]) == .unevaluable, "no value and no default")
        #expect(known("not onboarding and not trial", ["trial": .bool(false)]) == .yes)
        #expect(known("level < 5 and session.count > 3", ["level": .int(3)]) == .unknown, "it reads the session")
        #expect(known("now.hour >= 22", [:]) == .unknown, "it reads the clock")
    }
}

/// Every network's test ad unit prefix is found, by its first byte and then in full; other units are not.
@Suite("Test ad units") struct TestAdUnitTests {
    @Test func everyPrefixNamesItsNetwork() {
        for (prefix, network) in TestAdUnits.prefixes {
            #expect(TestAdUnits.network(of: prefix + "1234") == network, "\(prefix)")
            #expect(TestAdUnits.network(of: String(prefix.dropLast()) + "~") == nil, "\(prefix)")
        }
        #expect(TestAdUnits.network(of: "ca-app-pub-7412390517230961/1") == nil)
        #expect(TestAdUnits.network(of: "") == nil)
    }
}
