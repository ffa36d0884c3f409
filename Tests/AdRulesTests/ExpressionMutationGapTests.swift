import AdRulesTestSupport
@testable import AdRules
@testable import AdRulesCompiler
import AdRulesYAML
import Testing

/// What the `when` expression language means (rules.md §5, rule-files.md, lint-rules.md, limits.md) that no other test
/// pinned down, found by a mutation audit of the tokenizer, parser, checker and rule program: each test fails with one
/// small, plausible bug in that code and passes on the correct code. Expected values come from the docs, not from the
/// code's output.
@Suite("Expression mutation gaps")
struct ExpressionMutationGapTests {
    static let attributes = [
        declared("screen", .string), declared("level", .int, default: .int(1)), declared("score", .number),
        declared("onboarding", .bool, default: .bool(false)), declared("tags", .stringList), declared("nums", .intList),
        declared("zone", .string),
    ]

    /// A Saturday at 23:00 in session 4, two days after install.
    static let inputs = RuleInputs(premium: false, sessionCount: 4, sessionAge: 90_000, installAge: 86_400_000 * 2, nowHour: 23, nowWeekday: 2)

    /// The condition's value for the app's attributes; nil when it does not compile or cannot be evaluated.
    func evaluate(_ source: String, _ values: [String: AttributeValue]) -> AttributeValue? {
        guard case .success(let compiled) = ExpressionCompiler.compile(source, attributes: Self.attributes) else { return nil }
        return compiled.evaluate(Self.inputs, attributes: values)
    }

    /// The findings of a condition: its errors and warnings when it fails, its warnings when it compiles.
    func findings(_ source: String) -> [ExpressionFinding] { conditionFindings(source, attributes: Self.attributes) }

    /// Whether a condition compiles (warnings allowed).
    func compiles(_ source: String) -> Bool {
        if case .success = ExpressionCompiler.compile(source, attributes: Self.attributes) { return true }
        return false
    }

    // MARK: Names, literals and limits

    /// rules.md §5: a condition reads attribute names; rule-files.md: names are ASCII letters, digits, `_` and `.` —
    /// `z` is a letter like the others, at the start of a name and inside it.
    @Test func aNameWithTheLetterZIsAName() {
        #expect(evaluate("zone == \"eu\"", ["zone": .string("eu")]) == .bool(true))
        #expect(evaluate("zone == \"eu\"", ["zone": .string("us")]) == .bool(false))
        #expect(findings("zone == \"eu\"").isEmpty)
    }

    /// limits.md and lint-rules.md: durations are at most 366d ("a duration over 366d" is refused): 366d itself is a
    /// duration a condition may hold, 367d is not.
    @Test func aDurationOf366dIsTheLongestAConditionHolds() {
        #expect(findings("install.age < 366d").isEmpty)
        #expect(evaluate("install.age < 366d", [:]) == .bool(true))
        let over = findings("install.age < 367d")
        #expect(over.map(\.rule) == ["rule/syntax"] && over.first?.message.contains("longer than 366d") == true, "\(over)")
    }

    /// limits.md: a `when` expression is "4096 characters and 512 tokens, checked before parsing": a condition of
    /// exactly 4096 characters, or of exactly 512 tokens, is within the limit; one character or one token more is a
    /// `rule/syntax` error.
    @Test func aConditionAtTheLimitsOfLengthAndTokensCompiles() {
        let base = "level == 1"
        let longest = base + String(repeating: " ", count: 4096 - base.count)
        #expect(longest.count == 4096)
        #expect(compiles(longest))
        #expect(findings(longest + " ").map(\.rule) == ["rule/syntax"])
        // `not onboarding` is 2 tokens, each ` or level == 1` 4 and ` or premium` 2: 2 + 4 * 127 + 2 = 512.
        let tokens512 = "not onboarding" + String(repeating: " or level == 1", count: 127) + " or premium"
        #expect(compiles(tokens512), "\(findings(tokens512))")
        let tokens513 = "not " + tokens512
        #expect(findings(tokens513).first?.message.contains("more than 512") == true, "\(findings(tokens513))")
    }

    /// limits.md: a `when` expression is at most 4096 *characters*: a condition comparing with a Japanese text is
    /// measured in characters (2,012 here), not in its UTF-8 bytes (6,012).
    @Test func theLengthLimitCountsCharactersNotBytes() {
        let text = String(repeating: "日", count: 2000)
        let source = "screen == \"\(text)\""
        #expect(source.count == 2012 && source.utf8.count == 6012)
        #expect(compiles(source), "\(findings(source).map(\.message))")
        #expect(evaluate(source, ["screen": .string(text)]) == .bool(true))
    }

    /// limits.md: "a nesting depth of 32, where each parenthesis counts twice and each `not` once (15 nested
    /// parentheses, or 31 `not`s)": those compile; one more parenthesis or `not` is a `rule/syntax` error.
    @Test func theDeepestNestingLimitsMdAllows() {
        func parenthesized(_ n: Int) -> String { String(repeating: "(", count: n) + "premium" + String(repeating: ")", count: n) }
        func negated(_ n: Int) -> String { String(repeating: "not ", count: n) + "premium" }
        #expect(compiles(parenthesized(15)), "\(findings(parenthesized(15)))")
        #expect(compiles(negated(31)), "\(findings(negated(31)))")
        #expect(findings(parenthesized(16)).first?.message == "the expression nests too deeply: simplify it")
        #expect(findings(negated(32)).first?.message == "the expression nests too deeply: simplify it")
    }

    // MARK: Precedence and types

    /// rules.md §5: "precedence `not` > comparisons": `not level > 3` is `(not level) > 3`, and `not` needs a bool
    /// (lint-rules.md `rule/type`: conditions are bools), so it is a `rule/type` error at the `not`; with the
    /// parentheses it negates the comparison.
    @Test func notBindsTighterThanAComparison() {
        let found = findings("not level > 3")
        #expect(found.map(\.rule) == ["rule/type"] && found.first?.offset == 0, "\(found)")
        #expect(evaluate("not (level > 3)", ["level": .int(2)]) == .bool(true))
    }

    /// lint-rules.md `rule/type`: "conditions are bools": `not` of an int, a string or a list is a `rule/type` error,
    /// at the `not`; it never compiles to a rule that would deny `rule_error` at every ask.
    @Test func notOfANonBoolIsATypeError() {
        for source in ["not level", "not screen", "not tags", "onboarding or not (level)"] {
            let found = findings(source)
            #expect(found.map(\.rule) == ["rule/type"], "\(source): \(found)")
        }
        #expect(findings("onboarding or not level").first?.offset == 14)
    }

    // MARK: Advice

    /// lint-rules.md `rule/syntax`: another language's operators say what to write; `<=` written apart (`< =`) is told
    /// to be written without the space, as `> =` is.
    @Test func lessThanOrEqualWrittenApartIsToldItsForm() throws {
        let finding = try #require(findings("now.hour < = 6").first)
        #expect(finding.rule == "rule/syntax" && finding.offset == 11)
        #expect(finding.message == "unexpected \"=\": write <= with no space between < and =")
    }

    /// lint-rules.md `rule/syntax`: a 12-hour clock's hour after `now.hour` (`10pm`) is told the hour to write. `0pm` and
    /// `13pm` are no hours of a 12-hour clock (it counts 1 to 12): they are not told an hour, only what a value is.
    @Test func onlyTheHoursOfA12HourClockAreToldAnHour() throws {
        for word in ["0pm", "0am", "13pm"] {
            let finding = try #require(findings("now.hour >= \(word)").first)
            #expect(finding.rule == "rule/syntax")
            #expect(!finding.message.contains("12-hour clock"), "\(word): \(finding.message)")
        }
        #expect(try #require(findings("now.hour >= 1am").first).message.hasSuffix("write 1"))
    }

    /// cli.md: every message says what to write instead. Values alone after `or` are told the list to look in, with every
    /// value: four values are listed in full, with no `…` (which says that values were left out).
    @Test func theListAdvisedForValuesAloneHoldsThemAll() throws {
        let finding = try #require(findings(#"screen == "a" or "b" or "c" or "d""#).first)
        #expect(finding.message.hasSuffix(#"or look in a list: screen in ["a", "b", "c", "d"]"#), "\(finding.message)")
    }

    // MARK: Built-in values (rule/built-in-value)

    /// lint-rules.md `rule/built-in-value`: `now.weekday` ordered is a warning ("`<` orders days alphabetically"),
    /// whichever side of the operator the day is on.
    @Test func aDayOrderedIsAWarningOnEitherSide() {
        #expect(findings("\"wed\" > now.weekday").map(\.kind) == [.builtInValue])
        #expect(findings("\"wed\" > now.weekday").first?.message.hasPrefix("> orders days alphabetically") == true)
    }

    /// rules.md §5: `now.hour` is 0–23; lint-rules.md: an hour it never reads, or an order no hour passes, is a warning.
    /// Hour 0 and hour 23 are hours it reads, so orders that only they pass are no warning; orders no hour passes are.
    @Test func theHoursAtTheEdgesOfTheDayAreHours() {
        for source in ["now.hour == 0", "now.hour in [0, 23]", "now.hour < 1", "now.hour <= 0", "0 >= now.hour", "now.hour >= 23", "23 <= now.hour", "now.hour > 22"] {
            #expect(findings(source).isEmpty, "\(source): \(findings(source))")
        }
        for source in ["now.hour < 0", "0 > now.hour", "now.hour >= 24", "now.hour <= -1", "now.hour > 23"] {
            #expect(findings(source).map(\.kind) == [.builtInValue], "\(source): \(findings(source))")
        }
    }

    /// rule-files.md: the linter checks every expression "with the exact column": a warning about one comparison of a
    /// longer condition points into that comparison (at its operator, as `rule/type` does for `screen == 1`), and a day
    /// it never reads at that day.
    @Test func builtInValueWarningsPointIntoTheirComparison() {
        let hour = "level > 1 and now.hour > 23"
        #expect(findings(hour).map(\.offset) == [23], "\(findings(hour))")
        let day = #"level > 1 and now.weekday == "monday""#
        #expect(findings(day).map(\.offset) == [29], "\(findings(day))")
    }

    // MARK: Evaluation

    /// rules.md §5: `[string]` and `[int]` are types, and `==` / `!=` compare two operands of one type: two lists are
    /// equal when they hold the same items, not whenever both are lists.
    @Test func listsCompareByTheirItems() {
        #expect(evaluate(#"tags == ["vip"]"#, ["tags": .stringList(["vip"])]) == .bool(true))
        #expect(evaluate(#"tags == ["vip"]"#, ["tags": .stringList(["new"])]) == .bool(false))
        #expect(evaluate(#"tags != ["vip"]"#, ["tags": .stringList(["new"])]) == .bool(true))
        #expect(evaluate("tags == []", ["tags": .stringList(["vip"])]) == .bool(false))
        #expect(evaluate("nums == [1, 2]", ["nums": .intList([1, 2])]) == .bool(true))
        #expect(evaluate("nums == [1, 2]", ["nums": .intList([2, 1])]) == .bool(false))
    }

    /// rules.md §5: "`int` and `number` mix": a `number` looked for in a list of whole numbers is found when it equals
    /// one of them (2.0 is 2), and not found otherwise; it is no `rule_error`.
    @Test func aNumberIsLookedForInAListOfWholeNumbers() {
        #expect(findings("score in [2, 3]").isEmpty)
        #expect(evaluate("score in [2, 3]", ["score": .number(2)]) == .bool(true))
        #expect(evaluate("score in [2, 3]", ["score": .number(2.5)]) == .bool(false))
        #expect(evaluate("score not in [2, 3]", ["score": .number(2.5)]) == .bool(true))
        #expect(evaluate("score in nums", ["score": .number(3), "nums": .intList([3])]) == .bool(true))
    }

    /// rules.md §5: `now.hour` and `now.weekday` read the policy's time zone at the ask. 2026-11-29 is a Sunday: a rule
    /// that reads only the day, the hour after another operand, on the right of a comparison or under `not`, reads the real
    /// day and hour.
    @Test func aRuleReadsTheClockWhereverItNamesIt() throws {
        let h = try Harness("""
            version: 1
            timezone: UTC
            placements:
              day: {format: banner}
              hour: {format: banner}
              both: {format: banner}
              right: {format: banner}
              negated: {format: banner}
            rules:
              - {id: sunday, deny: [day], when: 'now.weekday == "sun"'}
              - {id: nine, deny: [hour], when: 'premium or now.hour == 9'}
              - {id: late, deny: [both], when: 'session.count > 100 or (premium == false and now.weekday in ["sat", "sun"] and now.hour >= 9)'}
              - {id: right, deny: [right], when: '9 <= now.hour and "sun" == now.weekday'}
              - {id: negated, deny: [negated], when: 'not (now.hour < 9)'}
            """, start: "2026-11-29T09:30:00Z")
        #expect(h.ask(.show("day", trigger: .action)).codes.contains(.customRule))
        #expect(h.ask(.show("hour", trigger: .action)).codes.contains(.customRule))
        #expect(h.ask(.show("both", trigger: .action)).codes.contains(.customRule))
        #expect(h.ask(.show("right", trigger: .action)).codes.contains(.customRule), "the clock on the right of a comparison")
        #expect(h.ask(.show("negated", trigger: .action)).codes.contains(.customRule), "the clock under not")
    }

    /// rule-files.md: a rule that cannot be evaluated denies with `rule_error`, "naming the attribute and why": an
    /// attribute on the right of `in` (`"vip" in tags`) or of a comparison is named like one on the left.
    @Test func aRuleErrorNamesTheAttributeOnTheRight() throws {
        let h = try Harness("""
            version: 1
            attributes: {tags: "[string]", limit: int}
            placements:
              a: {format: banner}
              b: {format: banner}
            rules:
              - {id: vip, deny: [a], when: '"vip" in tags'}
              - {id: cap, deny: [b], when: '3 > limit'}
            """)
        let a = h.ask(.show("a", trigger: .action))
        #expect(a.codes == [.ruleError, .adNotReady])
        #expect(a.reasons.first?.message == "rule vip cannot be evaluated: no value for tags; denied to be safe", "\(a.reasons.map(\.message))")
        let b = h.ask(.show("b", trigger: .action), attributes: ["limit": .string("3")])
        #expect(b.codes == [.ruleError, .adNotReady])
        #expect(b.reasons.first?.message.contains("limit has type string, where int is declared") == true, "\(b.reasons.map(\.message))")
    }

    /// rule-files.md: a NaN makes a rule `rule_error`, in a context prepared once for many asks as in a plain one, and in
    /// a comparison with a built-in as with a value.
    @Test func aNaNBesideABuiltInIsARuleErrorInAPreparedContext() throws {
        let policy = try policy("""
            version: 1
            attributes: {score: number}
            placements:
              a: {format: banner}
            rules:
              - {id: r, deny: [a], when: 'score > session.count'}
            """)
        var facts = Facts(policy: policy, installedAt: 0)
        facts.apply(.appLaunched, at: 0, policy: policy)
        for context in [AskContext(attributes: ["score": .number(.nan)]), policy.prepared(AskContext(attributes: ["score": .number(.nan)]))] {
            let decision = Evaluator.decide(.show("a", trigger: .action), context: context, policy: policy, facts: facts, now: 1)
            #expect(decision.codes.first == .ruleError, "\(decision.codes)")
        }
    }

    /// rules.md §5: "`int` and `number` mix"; rule-files.md: "as doubles: a number attribute's value is one". An app
    /// (or a scenario's `context: {score: 2}`, a YAML int) giving a whole number for a `number` attribute gives that
    /// number: the rule compares it, with no `rule_error`.
    @Test func aWholeNumberGivenForANumberAttributeIsThatNumber() throws {
        #expect(evaluate("score > 1.5", ["score": .int(2)]) == .bool(true))
        #expect(evaluate("score == 2", ["score": .int(2)]) == .bool(true))
        #expect(evaluate("score in [2.5, 3.5]", ["score": .int(3)]) == .bool(false))
        let h = try Harness("""
            version: 1
            attributes: {score: number}
            placements:
              a: {format: banner}
            rules:
              - {id: r, deny: [a], when: 'score >= 2.5'}
            """)
        #expect(h.ask(.show("a", trigger: .action), attributes: ["score": .int(3)]).codes == [.customRule, .adNotReady])
        #expect(h.ask(.show("a", trigger: .action), attributes: ["score": .int(2)]).codes == [.adNotReady])
    }

    /// rules.md §5: `now.weekday` is `"mon"`…`"sun"` in the policy time zone: every day of a week reads its own name
    /// (2026-11-30 was a Monday).
    @Test func everyDayOfTheWeekReadsItsName() throws {
        let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        var h = try Harness("""
            version: 1
            timezone: UTC
            placements:
              a: {format: banner}
            rules:
            \(days.map { "  - {id: \($0), deny: [a], when: 'now.weekday == \"\($0)\"'}" }.joined(separator: "\n"))
            """, start: "2026-11-30T12:00:00Z")
        for day in days {
            let decision = h.ask(.show("a", trigger: .action))
            #expect(decision.codes.filter { $0 == .customRule }.count == 1, "\(day): \(decision.codes)")
            #expect(decision.reasons.first?.message.contains(day) == true, "\(day): \(decision.reasons.map(\.message))")
            h.advance("1d")
        }
    }

    /// rule-files.md: a rule that cannot be evaluated (a NaN) denies with `rule_error`, and "an app's value that cannot
    /// be used does not fall back to the default": a `number` attribute with a default, given NaN, is no default.
    @Test func aNaNDoesNotFallBackToTheDefault() throws {
        let h = try Harness("""
            version: 1
            attributes: {score: {type: number, default: 1}}
            placements:
              a: {format: banner}
            rules:
              - {id: r, deny: [a], when: 'score > 0.5'}
            """)
        #expect(h.ask(.show("a", trigger: .action)).codes == [.customRule, .adNotReady], "the default applies when no value is given")
        let decision = h.ask(.show("a", trigger: .action), attributes: ["score": .number(.nan)])
        #expect(decision.codes == [.ruleError, .adNotReady], "\(decision.codes)")
        let prepared = Evaluator.decide(
            .show("a", trigger: .action), context: h.policy.prepared(AskContext(attributes: ["score": .number(.nan)])), policy: h.policy, facts: h.facts,
            now: h.now, deviceTimeZone: h.zone)
        #expect(prepared.codes == [.ruleError, .adNotReady], "\(prepared.codes)")
    }
}
