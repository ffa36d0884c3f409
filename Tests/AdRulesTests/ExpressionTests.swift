import AdRulesTestSupport
@testable import AdRules
@testable import AdRulesCompiler
import AdRulesYAML
import Testing

@Suite("when expressions")
struct ExpressionTests {
    static let attributes = [
        declared("screen", .string), declared("level", .int, default: .int(1)), declared("score", .number),
        declared("onboarding", .bool, default: .bool(false)), declared("tags", .stringList),
    ]

    static let values: [String: AttributeValue] = ["screen": .string("home"), "level": .int(3), "score": .number(2.5), "onboarding": .bool(false), "tags": .stringList(["vip"])]

    /// A Saturday at 23:00 in session 4, two days after install.
    let inputs = RuleInputs(premium: false, sessionCount: 4, sessionAge: 90_000, installAge: 86_400_000 * 2, nowHour: 23, nowWeekday: 2)

    func evaluate(_ source: String, _ values: [String: AttributeValue]? = nil) -> AttributeValue? {
        guard case .success(let compiled) = ExpressionCompiler.compile(source, attributes: Self.attributes) else { return nil }
        #expect(RuleInputs.weekdays[inputs.nowWeekday] == "sat")
        return compiled.evaluate(inputs, attributes: values ?? Self.values)
    }

    /// The findings of a condition: its errors and warnings when it fails, its warnings when it compiles.
    func findings(_ source: String) -> [ExpressionFinding] { conditionFindings(source, attributes: Self.attributes) }

    @Test(arguments: [
        ("screen == \"home\"", true), ("screen != \"home\"", false), ("level < 5", true), ("level <= 3", true),
        ("level > 3", false), ("level >= 3", true), ("score > 2", true), ("level == 3.0", true),
        ("screen in [\"home\", \"shop\"]", true), ("screen not in [\"home\"]", false), ("\"vip\" in tags", true),
        ("level in [1, 2]", false), ("not onboarding", true), ("onboarding or level == 3", true),
        ("onboarding and level == 3", false), ("session.count == 4", true), ("session.age > 1m", true),
        ("install.age >= 2d", true), ("now.hour >= 22", true), ("now.weekday in [\"sat\", \"sun\"]", true),
        ("premium", false), ("not premium and (level > 1 or onboarding)", true),
        ("true or false and false", true), ("not false == false", false), ("not (false == true)", true),
    ])
    func operatorsAndBuiltins(_ source: String, _ expected: Bool) {
        #expect(evaluate(source) == .bool(expected), "\(source)")
    }

    /// A backslash in a string escapes a quote or a backslash; any other is a finding at the backslash, where before
    /// it was dropped (`"caf\u00e9"` read as "cafu00e9", and the rule never matched).
    @Test func aBackslashEscapesOnlyQuotesAndBackslashes() {
        #expect(evaluate(#"screen == "a\"b""#, ["screen": .string("a\"b")]) == .bool(true))
        #expect(evaluate(#"screen == 'it\'s'"#, ["screen": .string("it's")]) == .bool(true))
        #expect(evaluate(#"screen == "a\\b""#, ["screen": .string(#"a\b"#)]) == .bool(true))
        let found = findings(#"screen == "caf\u00e9""#)
        #expect(found.map(\.offset) == [14], "\(found)")
        #expect(found.first?.message == #"\u is no escape: in a string a backslash escapes only a quote or a backslash (\" \' \\); write the character itself (a string in a rule holds printable text: no tab or line break)"#)
        // `\n` is not "written as the character itself": a string holds no control character (a compiled policy
        // refuses one, so lint does), and a backslash a combining mark joins is no escape either.
        #expect(findings(#"screen == "a\nb""#).map(\.message) == [#"\n is no escape: in a string a backslash escapes only a quote or a backslash (\" \' \\); a string in a rule holds printable text, so it cannot hold a tab or line break"#])
        #expect(findings("screen == \"a\tb\"").map { "\($0.offset) \($0.message)" } == ["12 a string in a rule holds a tab (U+0009): remove it (strings hold printable text only)"])
        // An invisible character is named as what it is, at its own offset.
        #expect(findings("screen == \"ab\u{202E}c\"").map { "\($0.offset) \($0.message)" } == [
            "13 a string in a rule holds U+202E, an invisible direction control that reorders what a reader sees: remove it (strings hold printable text only)"
        ])
        #expect(findings("screen == \"\u{FEFF}x\"").map(\.message).first?.contains("U+FEFF, an invisible byte-order mark") == true)
        #expect(findings("screen == \"caf\\\u{301}u00e9\"").map(\.offset) == [14])
    }

    @Test func precedenceIsNotThenComparisonsThenAndThenOr() throws {
        guard case .success(let compiled) = ExpressionCompiler.compile("true or false and false", attributes: []) else {
            Issue.record("did not compile")
            return
        }
        if case .or = compiled {} else { Issue.record("or must be the root: \(compiled)") }
    }

    @Test func missingAttributeCannotBeEvaluated() {
        #expect(evaluate("screen == \"x\"", ["level": .int(1)]) == nil)
        #expect(evaluate("level == 1", [:]) == .bool(true), "the default applies")
        #expect(evaluate("level == 1", ["level": .string("one")]) == nil, "a value of the wrong type cannot be evaluated")
        // No short cut (rules.md §5): a missing value is an error even where the other operand decides.
        #expect(evaluate("level == 1 or screen == \"x\"", ["level": .int(1)]) == nil)
        #expect(evaluate("level == 2 and screen == \"x\"", ["level": .int(1)]) == nil)
        #expect(evaluate("level == 1 or screen == \"x\"", ["level": .int(1), "screen": .string("y")]) == .bool(true))
    }

    @Test(arguments: [
        ("screen = \"x\"", 7, "rule/syntax"), ("level > ", 8, "rule/syntax"), ("(level > 1", 10, "rule/syntax"),
        ("level > 1 level", 10, "rule/syntax"), ("screen == \"x", 10, "rule/syntax"), ("level && 1", 6, "rule/syntax"),
        ("1 < level < 3", 10, "rule/syntax"), ("levle > 1", 0, "rule/unknown-name"), ("screen == 1", 7, "rule/type"),
        ("level", 0, "rule/type"), ("level and onboarding", 0, "rule/type"), ("screen in level", 7, "rule/type"),
        ("12x > 1", 0, "rule/syntax"), ("[1, \"a\"]", 4, "rule/type"), ("onboarding < true", 11, "rule/type"),
    ])
    func errorsCarryTheirColumn(_ source: String, _ offset: Int, _ rule: String) throws {
        let finding = try #require(findings(source).first, "\(source) compiled")
        #expect(finding.rule == rule, "\(source): \(finding.message)")
        #expect(finding.offset == offset, "\(source): \(finding.message)")
    }

    /// Operators and words of other languages say what this one writes, at their column: `=>` and `=<` are >= and <=,
    /// `AND`/`OR`/`NOT` are lowercase here, and `is` is ==.
    @Test(arguments: [
        ("level => 3", 6, "unexpected \"=>\": write >= for at least"), ("level =< 3", 6, "unexpected \"=<\": write <= for at most"),
        ("premium OR level < 5", 8, "unexpected OR after a complete expression: the language's words are lowercase: write or"),
        ("premium And level < 5", 8, "unexpected And after a complete expression: the language's words are lowercase: write and"),
        ("NOT premium", 0, "unexpected NOT before premium: the language's words are lowercase: write not"),
        ("level > 3 and NOT premium", 14, "unexpected NOT before premium: the language's words are lowercase: write not"),
        ("premium and NOT)", 15, "unexpected ) after a complete expression: join conditions with and / or"),
        ("level > 1 NOT premium", 10, "unexpected NOT after a complete expression: the language's words are lowercase: write and not, or or not"),
        ("level is 3", 6, "unexpected is after a complete expression: write == to compare (or != for is not)"),
        ("level > 1 level", 10, "unexpected level after a complete expression: join conditions with and / or"),
        // Comparisons in English words, and a condition led by the word the key already says.
        ("level less than 5", 6, "unexpected less after a complete expression: \"less than\" is written <: as in level < 5 (<= for at most)"),
        ("level is greater than 5", 6, "unexpected is after a complete expression: \"greater than\" is written >: as in level > 5 (>= for at least)"),
        ("level is at least 3", 6, "unexpected is after a complete expression: \"at least\" is written >=: as in level >= 3"),
        ("level at most 3", 6, "unexpected at after a complete expression: \"at most\" is written <=: as in level <= 3"),
        ("screen is one of [\"a\"]", 7, "unexpected is after a complete expression: \"one of\" is written in, with a list: as in screen in [\"home\", \"shop\"]"),
        ("screen is not one of [\"a\"]", 7, "unexpected is after a complete expression: \"not one of\" is written not in, with a list: as in screen not in [\"home\", \"shop\"]"),
        ("level between 3 and 9", 6, "unexpected between after a complete expression: \"between\" is two comparisons: as in level >= 3 and level <= 10"),
        ("tags contains \"vip\"", 5, "unexpected contains after a complete expression: a list holds a value when the value is in it: write the value first, as in \"vip\" in tags (a text is compared whole, with == or in [...], never searched for a part)"),
        ("if premium", 0, "unexpected if at the start: the key when: already says when the rule denies: write when: premium"),
        ("unless level > 3", 0, "unexpected unless at the start: the key when: already says when the rule denies: write when: not (level > 3)"),
        ("level is not 3", 6, "unexpected is after a complete expression: write == to compare (or != for is not)"),
        ("level is less", 6, "unexpected is after a complete expression: \"less\" is written <: as in level < 5 (<= for at most)"),
        ("if not premium", 0, "unexpected if at the start: the key when: already says when the rule denies: write when: not premium"),
        // `if` may be an attribute: a comparison in words after it is told as one, and an operator after it is no lead word.
        ("if less than 5", 3, "unexpected less after a complete expression: \"less than\" is written <: as in level < 5 (<= for at most)"),
        ("if == and", 6, "expected a value or a name, found and: write a value (5, \"home\", 30s) or a name (premium, level) there"),
        // A function call, a list with no brackets, and the hours of a clock.
        ("contains(screen, \"a\")", 0, "contains(…) calls a function, and a condition has none: compare with == or look in a list with in, as in screen in [\"checkout\", \"paywall\"]"),
        ("screen in \"a\", \"b\"", 13, "unexpected , after a complete expression: a list's items go in brackets, as in screen in [\"checkout\", \"paywall\"]; else join conditions with and / or"),
        ("now.hour >= 22:00", 12, "22:00 is a time of day, and now.hour is the hour alone (0-23): write 22"),
        ("now.hour >= 10pm", 12, "\"10pm\" is an hour of a 12-hour clock, and now.hour counts the hours 0-23: write 22"),
        ("now.hour < 12AM", 11, "\"12AM\" is an hour of a 12-hour clock, and now.hour counts the hours 0-23: write 0"),
        ("now.hour < 12pm", 11, "\"12pm\" is an hour of a 12-hour clock, and now.hour counts the hours 0-23: write 12"),
        ("now.hour < 22:30", 11, "22:30 is a time of day, and now.hour is the hour alone (0-23): a rule compares whole hours, not minutes: write 22 or 23"),
        // A time of a 12-hour clock is counted 0-23; no hour follows 23.
        ("now.hour >= 9:30pm", 12, "9:30pm is a time of day, and now.hour is the hour alone (0-23): a rule compares whole hours, not minutes: write 21 or 22"),
        ("now.hour >= 12:00AM", 12, "12:00AM is a time of day, and now.hour is the hour alone (0-23): write 0"),
        ("now.hour >= 23:59", 12, "23:59 is a time of day, and now.hour is the hour alone (0-23): a rule compares whole hours, not minutes: write 23"),
        ("now.hour >= 11:30pm", 12, "11:30pm is a time of day, and now.hour is the hour alone (0-23): a rule compares whole hours, not minutes: write 23"),
        ("now.hour >= 9:30 PM", 12, "9:30 PM is a time of day, and now.hour is the hour alone (0-23): a rule compares whole hours, not minutes: write 21 or 22"),
        ("now.hour >= 9:30pmx", 12, "9:30 is a time of day, and now.hour is the hour alone (0-23): a rule compares whole hours, not minutes: write 9 or 10"),
        // Only the hour of the day is told so.
        ("level > 5pm", 8, "\"5pm\" is not a number or a duration: write 42, 1.5 (no exponent), or a duration like 30s or 1h30m"),
    ])
    func wordsOfOtherLanguagesSayWhatToWrite(_ source: String, _ offset: Int, _ message: String) throws {
        let finding = try #require(findings(source).first, "\(source) compiled")
        #expect(finding.rule == "rule/syntax" && finding.message == message, "\(source): \(finding.message)")
        #expect(finding.offset == offset, "\(source): \(finding.message)")
    }

    /// A decimal a double cannot hold is refused, never read as 0 or infinity.
    @Test func aDecimalADoubleCannotHoldIsRefused() throws {
        let tiny = try #require(findings("score > 0." + String(repeating: "0", count: 400) + "1").first)
        #expect(tiny.rule == "rule/syntax" && tiny.message.contains("is too close to 0 for a rule to tell from 0"), "\(tiny.message)")
        let huge = try #require(findings("score > 1" + String(repeating: "0", count: 400) + ".0").first)
        #expect(huge.rule == "rule/syntax" && huge.message.contains("is beyond the numbers a rule compares: write a number closer to 0"), "\(huge.message)")
    }

    /// A list attribute looked for in a list (`tags in ["a", "b"]`) is told to ask whether it holds each value.
    @Test func aListLookedForInAListIsToldToAskForEachValue() throws {
        let finding = try #require(findings("tags in [\"a\", \"b\"]").first)
        #expect(finding.rule == "rule/type")
        #expect(finding.message == "tags is a list ([string]), and in looks for one value in a list: to ask whether tags holds one of these, write \"a\" in tags or \"b\" in tags")
        #expect(try #require(findings("tags in [1, 2]").first).message.contains("write 1 in tags") == false)
        let negated = try #require(findings("tags not in [\"a\", \"b\"]").first)
        #expect(negated.message.hasSuffix("holds none of these, write \"a\" not in tags and \"b\" not in tags"), "\(negated.message)")
    }

    /// A value alone after `or` (`screen == "checkout" or "paywall"`) is told to be compared as the one before it.
    @Test func aValueAloneAfterOrIsToldToBeCompared() throws {
        let finding = try #require(findings("screen == \"a\" or \"b\"").first)
        #expect(finding.rule == "rule/type" && finding.offset == 17)
        #expect(finding.message == "or needs bool operands, but this one is string: compare it as the one before it is: write screen == \"b\", or look in a list: screen in [\"a\", \"b\"]")
        // A run of them is one finding, every value in its advice.
        let run = findings("screen == \"a\" or \"b\" or \"c\"")
        #expect(run.map(\.message) == [
            "or needs bool operands, but this one is string: compare them as the one before them is: write screen == \"b\" or screen == \"c\", or look in a list: screen in [\"a\", \"b\", \"c\"]",
        ])
        let other = try #require(findings("level == 3 or \"b\"").first)
        #expect(other.message.hasSuffix("compare it, for example `x == ...`"), "\(other.message)")
        // A value holding a quote is written back escaped, so that the condition advised reads.
        let quoted = findings(#"screen == "a" or "b\"q""#)
        #expect(quoted.map(\.message) == [#"or needs bool operands, but this one is string: compare it as the one before it is: write screen == "b\"q", or look in a list: screen in ["a", "b\"q"]"#])
        // After `and` the value cannot also be another: no comparison is advised, only the general advice, for each.
        let both = findings(#"screen == "a" and "b" and "c""#)
        #expect(both.map(\.message) == Array(repeating: "and needs bool operands, but this one is string: compare it, for example `x == ...`", count: 2))
    }

    /// A number and a unit spelt apart, where a duration was meant, is told the duration, at the number.
    @Test func aSpacedDurationIsToldItsForm() throws {
        let finding = try #require(findings("install.age > 1 day").first)
        #expect(finding.rule == "rule/syntax" && finding.offset == 14)
        #expect(finding.message == "1 day is not a duration: write 1d, with no space")
        #expect(try #require(findings("level > 1 level").first).message.contains("join conditions with and / or"))
        #expect(try #require(findings("install.age > 1.5h").first).message == "\"1.5h\" is not a duration: write 1h30m")
        #expect(try #require(findings("install.age > 1day").first).message == "\"1day\" is not a duration: write 1d")
        #expect(try #require(findings("install.age > 30s1m").first).message == "\"30s1m\" is not a duration: write 1m30s")
        #expect(try #require(findings("install.age > 1h 30m").first).message == "1h 30m is not a duration: write 1h30m, with no space")
    }

    /// A duration too long for its number to be read is too long, as in a setting, not "not a duration"; one read and
    /// over 366d too. Each is told the longest to write.
    @Test(arguments: ["400d", "367d", "8785h", "99999999999d", "200000000000d", "99999999999d999999999999h", "9999999999999999999d", "99999999999999999999ms", "1h99999999999999m"])
    func anOverlongDurationIsTooLong(_ duration: String) throws {
        let finding = try #require(findings("install.age > " + duration).first)
        #expect(finding.offset == 14 && finding.message == "\"\(duration)\" is longer than 366d, the longest duration a rule file may hold: write at most 366d", "\(finding.message)")
    }

    /// YAML's `.nan` and `.inf` in a condition are named as what they are, with a number to write: they were told that
    /// names are ASCII letters. A name that only starts so (`.info`) is not.
    @Test(arguments: [("score > .nan", ".nan", "NaN"), ("score < .inf", ".inf", "infinity"), ("score > -.Inf", ".Inf", "infinity")])
    func nanAndInfinityAreNamed(_ condition: String, _ word: String, _ meaning: String) throws {
        let finding = try #require(findings(condition).first)
        #expect(finding.rule == "rule/syntax" && finding.message.hasPrefix("\"\(word)\" is YAML's \(meaning)"), "\(finding.message)")
        #expect(finding.message.hasSuffix(": write a number, such as 1000000 for a bound no value reaches"), "\(finding.message)")
        #expect(try #require(findings("score > .info").first).message.contains("names are ASCII letters"))
    }

    @Test func unknownNameSuggestsTheClosest() throws {
        let finding = try #require(findings("scren == \"a\"").first)
        #expect(finding.message.contains("did you mean \"screen\"?"))
    }

    /// Both sides of a comparison are checked: two unknown names are two findings (the second was not named until the
    /// first was mended), in a comparison and in a membership test.
    @Test func bothSidesOfAComparisonAreChecked() {
        #expect(findings("foo == bar").map(\.offset) == [0, 7], "\(findings("foo == bar"))")
        #expect(findings("foo in bar").map(\.offset) == [0, 7], "\(findings("foo in bar"))")
        #expect(findings("foo == bar").allSatisfy { $0.rule == "rule/unknown-name" })
    }

    /// A condition that is no bool is shown itself compared, as its type compares.
    @Test(arguments: [
        ("level", "`level > 0`"), ("screen", "`screen == \"home\"`"), (" install.age ", "`install.age > 10m`"), ("tags", "`\"home\" in tags`"),
    ])
    func aConditionThatIsNoBoolIsShownCompared(_ source: String, _ example: String) throws {
        let finding = try #require(findings(source).first)
        #expect(finding.rule == "rule/type" && finding.message.hasSuffix("compare it, as in \(example)"), "\(finding.message)")
    }

    @Test func ruleSyntaxPointsIntoTheFile() throws {
        let input = MarkedText("""
            version: 1
            placements:
              a: {format: banner}
            rules:
              - id: r
                deny: "*"
                when: "premium and 1️⃣)"
            """)
        let d = try #require(lint(input.text).first { $0.rule == "rule/syntax" })
        #expect(d.range.start == input["1️⃣"])
    }

    @Test func randomAndMutatedInputsNeverCrash() {
        var generator = SplitMix64(seed: 42)
        let pieces = ["screen", "level", "==", "!=", "<", ">=", "in", "not", "and", "or", "(", ")", "[", "]", ",", "\"a\"", "1", "2.5", "30s", "1h30m", "true", "premium", "now.hour", "session.age", "=", "&", "\"", "'", "é", "\\", " "]
        var compiled = 0
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...12, using: &generator) { text += pieces.randomElement(using: &generator) ?? "" ; text += Bool.random(using: &generator) ? " " : "" }
            if case .success(let e) = ExpressionCompiler.compile(text, attributes: Self.attributes) {
                compiled += 1
                _ = e.evaluate(inputs, attributes: Self.values)
            }
        }
        // Deep nesting is refused, not a stack overflow.
        let deep = String(repeating: "(", count: 10_000) + "true" + String(repeating: ")", count: 10_000)
        #expect(!findings(deep).isEmpty)
        #expect(!findings(String(repeating: "not ", count: 10_000) + "true").isEmpty)
        #expect(compiled > 0)
    }

    /// A negative literal is a literal (rules.md §5: ints and decimals): an attribute whose default is -1 can be
    /// compared with -1. A negative duration is not a duration.
    @Test func negativeLiteralsCompare() throws {
        #expect(evaluate("level > -5") == .bool(true))
        #expect(evaluate("level == -3", ["level": .int(-3)]) == .bool(true))
        #expect(evaluate("score > -1.5") == .bool(true))
        #expect(evaluate("level in [-1, 3]") == .bool(true))
        #expect(findings("session.age > -30s").first?.message.contains("negative duration") == true)
        #expect(findings("level == -9223372036854775809").first?.message.contains("beyond the whole numbers") == true)
        #expect(findings("level == 9223372036854775808").first?.message.contains("beyond the whole numbers") == true)
        #expect(evaluate("level > -9223372036854775808") == .bool(true))
        let policy = try Policy(yaml: """
            version: 1
            attributes: {level: {type: int, default: -1}}
            placements: {i: {format: banner}}
            rules: [{id: unset, deny: [i], when: 'level == -1'}]
            """)
        let facts = Facts(policy: policy, installedAt: 0)
        #expect(Evaluator.decide(.show("i", trigger: .action), policy: policy, facts: facts, now: 1).codes.contains(.customRule))
        let compiled = try Policy(compiled: try policy.compiledDocument(relativePath: { $0 }, sourceDigest: "sha256:0", generator: "test"))
        #expect(Evaluator.decide(.show("i", trigger: .action), policy: compiled, facts: facts, now: 1).codes.contains(.customRule))
    }

    /// rules.md §5 lists lists `[..]` among the literals: one of decimals, durations or bools, on the right of `in`, is the
    /// comparisons it lists (before, it was a `rule/type` error).
    @Test func aListOfDecimalsDurationsOrBoolsIsLookedIn() {
        let cases: [(String, Bool)] = [
            ("session.age in [30s, 90s]", true), ("session.age in [30s, 1m]", false), ("session.age not in [30s, 1m]", true),
            ("session.age not in [1m30s]", false), ("score in [1.5, 2.5]", true), ("score in [1.5, 2]", false),
            ("level in [3.0, 4.5]", true), ("onboarding in [false]", true), ("premium not in [true]", true),
            ("not (score in [2.5]) or level == 3", true),
        ]
        for (source, expected) in cases { #expect(evaluate(source) == .bool(expected), "\(source)") }
        #expect(findings("session.age in [30s, \"a\"]").map(\.kind) == [.type])
        #expect(findings("screen in [1.5]").map(\.kind) == [.type])
        #expect(findings("[30s] == session.age").first?.message.contains("only stands on the right of in or not in") == true)
        // The finding is at the item that does not fit, and says what to write.
        let source = "session.age in [30s, 1.5]"
        let misfit = findings(source)
        #expect(misfit.map(\.offset) == [source.distance(from: source.startIndex, to: source.firstIndex(of: "1")!)], "\(misfit)")
        #expect(misfit.first?.message.contains("session.age is a duration: write the value as a duration") == true, "\(misfit)")
        // Each item is the comparison it stands for: an hour now.hour never reads is a warning in a list too.
        #expect(findings("now.hour in [22, 23.5]").first?.message.contains("now.hour is never 23.5") == true, "\(findings("now.hour in [22, 23.5]"))")
        #expect(findings("now.hour in [24, 1.5]").first?.message.contains("now.hour is never 24") == true)
        #expect(findings("session.age in [30s,]").first?.message == "an item is missing before ]: remove the last comma, or write the item")
        #expect(findings("tags in [1.5]").first?.message == "in looks for one value in a list, and tags is a list ([string]): write the value on its left, as in \"a\" in tags")
    }

    /// What such a list looks for is a name, read once per item: a larger operand, copied per item, grew nested lists
    /// exponentially (15 levels of `(… in [true, false, true])` took 4 GB and crashed). The longest list the parser takes
    /// stays within a compiled policy's 2,048 nodes, so a condition lint passes always compiles and loads.
    @Test func aListOfComparisonsStaysSmall() throws {
        var nested = "onboarding"
        for _ in 0..<15 { nested = "(\(nested) in [true, false, true])" }
        #expect(findings(nested).first?.message.contains("needs a name on the left of in") == true)
        #expect(findings("(level > 1) not in [true]").first?.message.contains("needs a name on the left of not in") == true)
        let items = (1...250).map { "\($0)s" }.joined(separator: ", ")
        let policy = try Policy(yaml: """
            version: 1
            placements: {i: {format: banner}}
            rules: [{id: long, deny: [i], when: 'session.age in [\(items)]'}]
            """)
        let compiled = try Policy(compiled: try policy.compiledDocument(relativePath: { $0 }, sourceDigest: "sha256:0", generator: "test"))
        var facts = Facts(policy: compiled, installedAt: 0)
        facts.apply(.appLaunched, at: 0, policy: compiled)
        #expect(Evaluator.decide(.show("i", trigger: .action), policy: compiled, facts: facts, now: 250_000).codes.contains(.customRule))
        #expect(!Evaluator.decide(.show("i", trigger: .action), policy: compiled, facts: facts, now: 250_500).codes.contains(.customRule))
        let tooMany = (1...300).map { "\($0)s" }.joined(separator: ", ")
        #expect(findings("session.age in [\(tooMany)]").map(\.kind) == [.syntax])
    }

    /// `now.weekday` reads three lowercase letters: a longer or capitalised day never matches, a `rule/built-in-value`
    /// warning. The comparison has one type, so it is no `rule/type` error (cli.md): the condition compiles and runs.
    @Test func aWeekdayItNeverReadsIsAWarning() {
        #expect(findings("now.weekday == \"monday\"").map(\.message) == ["now.weekday is never \"monday\": it reads mon, tue, wed, thu, fri, sat or sun; write \"mon\""])
        #expect(findings("now.weekday == \"monday\"").map(\.kind) == [.builtInValue])
        #expect(findings("now.weekday in [\"sat\", \"Sun\"]").first?.message.contains("write \"sun\"") == true)
        #expect(findings("now.weekday != \"sat\"").isEmpty)
        #expect(evaluate("now.weekday == \"Sat\"") == .bool(false) && evaluate("now.weekday in [\"Sat\", \"sat\"]") == .bool(true))
    }

    /// Days ordered compare as strings do, as rules.md orders strings: a warning, and the condition runs so (the
    /// inputs' day is "sat").
    @Test func daysOrderedAreAWarningAndCompareAsText() {
        #expect(findings("now.weekday < \"wed\"").map(\.kind) == [.builtInValue])
        #expect(findings("now.weekday < \"wed\"").first?.message.hasPrefix("< orders days alphabetically") == true)
        // One finding: not also how to spell the day.
        #expect(findings("now.weekday < \"Wed\"").map(\.kind) == [.builtInValue])
        #expect(evaluate("now.weekday < \"sun\"") == .bool(true))
        #expect(evaluate("now.weekday > \"mon\"") == .bool(true))
        #expect(evaluate("\"fri\" >= now.weekday") == .bool(false))
        // An error beside it still fails the condition, with the warning among its findings.
        #expect(findings("now.weekday < \"wed\" and level == \"3\"").map(\.kind) == [.builtInValue, .type])
    }

    /// A condition with a `rule/built-in-value` warning compiles, is written to a compiled policy, and loads from one:
    /// the runtime runs it as the rule file reads.
    @Test func aConditionWithAWarningLoadsCompiled() throws {
        let policy = try Policy(yaml: """
            version: 1
            timezone: UTC
            placements: {i: {format: banner}}
            rules: [{id: early, deny: [i], when: 'now.weekday < "tue" or now.hour == 24'}]
            """)
        let compiled = try Policy(compiled: try policy.compiledDocument(relativePath: { $0 }, sourceDigest: "sha256:0", generator: "test"))
        #expect(compiled.rules.first?.condition == policy.rules.first?.condition)
        var facts = Facts(policy: compiled, installedAt: 0)
        facts.apply(.appLaunched, at: 0, policy: compiled)
        // 1970-01-01 was a Thursday ("thu" < "tue", as text); 1970-01-06 a Tuesday.
        #expect(Evaluator.decide(.show("i", trigger: .action), policy: compiled, facts: facts, now: 1_000).codes.contains(.customRule))
        #expect(!Evaluator.decide(.show("i", trigger: .action), policy: compiled, facts: facts, now: 5 * 86_400_000 + 1_000).codes.contains(.customRule))
    }

    /// `now.hour` reads a whole number from 0 to 23: an hour outside it never matches (`==`, `in`) or always does (`!=`,
    /// `not in`), and an order no hour passes never matches (a warning each, as for `now.weekday`); an order every hour
    /// passes is half of a window written out in full, and passes.
    @Test func anHourItNeverReadsIsAWarning() {
        let never = "it reads the local hour, a whole number from 0 to 23; write one of those"
        #expect(findings("now.hour == 24").map(\.message) == ["now.hour is never 24: " + never])
        #expect(findings("now.hour in [1, -1]").map(\.message) == ["now.hour is never -1: " + never])
        #expect(findings("now.hour == 6.5").map(\.message) == ["now.hour is never 6.5: " + never])
        #expect(findings("now.hour > 23").first?.message.hasPrefix("now.hour > 23 is never true (now.hour reads the local hour") == true)
        #expect(findings("23.5 < now.hour").first?.message.hasPrefix("23.5 < now.hour is never true") == true)
        #expect(findings("now.hour >= 0 and now.hour < 6").isEmpty)
        #expect(findings("now.hour >= 22 and now.hour <= 23").isEmpty)
        #expect(findings("now.hour != 3").isEmpty)
        #expect(findings("now.hour != 24").map(\.message) == ["now.hour is never 24: " + never])
        #expect(findings("now.hour not in [3, 24]").map(\.message) == ["now.hour is never 24: " + never])
        #expect(findings("not (now.hour in [24])").map(\.message) == ["now.hour is never 24: " + never])
        #expect(findings("now.hour == 24").map(\.kind) == [.builtInValue] && evaluate("now.hour == 24") == .bool(false))
        #expect(evaluate("now.hour > 23 or now.hour == 23") == .bool(true))
    }

    /// The lexer walks bytes but counts code points, as columns do: a combining mark and each of CR and LF count one,
    /// escapes keep the character after the backslash, and a character joining onto a quote stays in the value.
    @Test func tokensKeepCodePointOffsetsAndValues() throws {
        func lex(_ text: String) throws -> [Token] { try Lexer.tokens(text).get() }
        let tokens = try lex("screen == \"日本語e\u{301}\\\"x\" and\r\n-12 < level")
        #expect(tokens.map(\.offset) == [0, 7, 10, 21, 26, 30, 32, 37])
        #expect(tokens[2].kind == .string("日本語e\u{301}\"x"))
        #expect(tokens[4].kind == .int(-12))
        #expect(try lex("'\u{301}x'")[0].kind == .string("\u{301}x"))
        #expect(try lex("1h30m >= 5.5")[0].kind == .duration(.minutes(90)))
        #expect(try lex("1h30m >= 5.5")[2].kind == .number(5.5))
        #expect(try lex("a_b.c")[0].kind == .name("a_b.c"))
        func failure(_ text: String) -> ExpressionError? {
            if case .failure(let error) = Lexer.tokens(text) { return error }
            return nil
        }
        #expect(failure("screen == \"x\" ∧ premium") == ExpressionError(offset: 14, message: "unexpected character \"∧\" (U+2227 LOGICAL AND): names are ASCII letters, digits, _ and . (as in session.count), and text goes in quotes"))
        // Typographic quotes, as word processors type them, are named as such, with the straight ones to type.
        #expect(failure("screen in [“checkout”]") == ExpressionError(offset: 11, message: "unexpected character \"“\", a typographic quote: text goes in straight quotes, as in screen == \"checkout\" (type \" or ')"))
        #expect(failure("screen == ‘home’")?.message.hasPrefix("unexpected character \"‘\", a typographic quote") == true)
        // A letter of another script that looks like an ASCII one is named.
        #expect(failure("scr\u{0435}en == \"x\"")?.message.hasPrefix("unexpected character \"\u{0435}\" (U+0435 CYRILLIC SMALL LETTER IE)") == true)
        #expect(failure("\"日本 ") == ExpressionError(offset: 0, message: "this string is not closed: add a closing \""))
        #expect(failure("x = 1")?.message == "unexpected \"=\": write == to compare")
        // >= written apart, and `!in`, are told the operator meant.
        #expect(failure("now.hour > = 22") == ExpressionError(offset: 11, message: "unexpected \"=\": write >= with no space between > and ="))
        #expect(failure("screen !in [\"x\"]") == ExpressionError(offset: 7, message: "unexpected \"!\": write not in"))
        #expect(failure("screen != \"x\"") == nil && failure("!inside")?.message == "unexpected \"!\": write not")
        #expect(failure("12abc")?.message.contains("is not a number or a duration") == true)
        // The exponent's sign stopped the word: the message quoted "1e".
        #expect(failure("ratio > 1e-400")?.message == #""1e-400" is not a number or a duration: write 42, 1.5 (no exponent), or a duration like 30s or 1h30m"#)
        #expect(failure("-5m")?.message.contains("negative duration") == true)
        // The advice is the value without its minus (it said "as in 3s" whatever was written).
        #expect(failure("d == -1h30m")?.message.hasSuffix("write it without the minus, as 1h30m") == true)
        // A last unit left out is told the form, as in a setting.
        #expect(failure("d == 1h30")?.message == #""1h30" is not a duration: write 1h30m"#)
    }
}
