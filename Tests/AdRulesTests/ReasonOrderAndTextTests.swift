import AdRules
import AdRulesCompiler
import Foundation
import Testing

/// Reasons in the order of rules.md §7's tables across groups, `[]` as a list of any type, and messages that say
/// only what is true.
@Suite("Reason order and texts")
struct ReasonOrderAndTextTests {
    @Test func groupReasonsFollowTheTableAcrossGroups() throws {
        var h = try Harness("""
            version: 1
            timezone: UTC
            placements:
              q: {format: interstitial}
            groups:
              a1: {placements: [q], caps: [{max: 1, window: 2h}], session_cap: 1}
              b2: {placements: [q], hourly_cap: 1, min_interval: 5m, daily_cap: 1}
            """)
        h.record(.appLaunched, .loadCompleted("q"), .showStarted("q"), .adClosed("q"))
        h.advance("1m")
        h.record(.loadCompleted("q"))
        let d = h.ask(.show("q", trigger: .action))
        #expect(d.codes == [.groupMinInterval, .groupSessionCap, .groupHourlyCap, .groupDailyCap, .groupWindowCap])
        #expect(d.reasons.map(\.group) == ["b2", "a1", "b2", "b2", "a1"])
    }

    @Test func anEmptyListTakesTheTypeItIsComparedWith() throws {
        let policy = try Policy(yaml: """
            version: 1
            attributes:
              nums: "[int]"
              level: int
            placements:
              a: {format: banner}
            rules:
              - {id: r1, deny: [a], when: 'nums == []'}
              - {id: r2, deny: [a], when: 'level in []'}
              - {id: r3, deny: [a], when: '[] != nums and level not in []'}
            """, file: "p.yaml")
        let facts = Facts(policy: policy, installedAt: 0)
        func codes(_ nums: [Int64]) -> [String] {
            Evaluator.decide(.offer("a"), context: AskContext(attributes: ["nums": .intList(nums), "level": .int(3)]), policy: policy, facts: facts, now: 1)
                .reasons.compactMap(\.rule)
        }
        #expect(codes([]) == ["r1"])
        #expect(codes([1]) == ["r3"])
        let mixed = lint("version: 1\nattributes:\n  level: int\nplacements:\n  a: {format: banner}\nrules:\n  - {id: r, deny: [a], when: 'level in [\"x\"]'}\n")
        #expect(mixed.map(\.message) == ["in looks for an int in a list of string: both must have the same type; level is an int: list whole numbers, as in [1, 2]"])
        // A list the policy declares decides what to look for in it: its items cannot be rewritten.
        let declared = lint("version: 1\nattributes:\n  tags: \"[string]\"\nplacements:\n  a: {format: banner}\nrules:\n  - {id: r, deny: [a], when: '3 in tags'}\n")
        #expect(declared.map(\.message) == [#"in looks for an int in a list of string: both must have the same type; tags is a [string]: look for a string in it, as in "a" in tags"#])
    }

    /// `[]` holds no value of any type: beside a number, a duration or a bool it is no type error, in rule files and
    /// compiled policies alike (`in []` is false, `not in []` true), and an attribute with no value is still an error.
    @Test func anEmptyListBesideANumberADurationOrABoolHoldsNothing() throws {
        let yaml = """
            version: 1
            attributes:
              score: number
              trial: {type: duration, default: 7d}
              vip: {type: bool, default: false}
            placements:
              a: {format: banner}
            rules:
              - {id: number-in, deny: [a], when: 'score in []'}
              - {id: number-not-in, deny: [a], when: 'score not in []'}
              - {id: duration-in, deny: [a], when: 'trial in [] or session.age in []'}
              - {id: bool-not-in, deny: [a], when: 'vip not in [] and install.age not in []'}
            """
        #expect(lint(yaml).isEmpty)
        let policy = try Policy(yaml: yaml, file: "p.yaml")
        let compiled = try Policy(compiled: try policy.compiledDocument(relativePath: { $0 }, sourceDigest: "sha256:0", generator: "test"))
        for loaded in [policy, compiled] {
            let facts = Facts(policy: loaded, installedAt: 0)
            func rules(_ attributes: [String: AttributeValue]) -> [String] {
                Evaluator.decide(.offer("a"), context: AskContext(attributes: attributes), policy: loaded, facts: facts, now: 1).reasons.compactMap(\.rule)
            }
            #expect(rules(["score": .number(1.5)]) == ["number-not-in", "bool-not-in"])
            // No value for score and no default: the rules that read it cannot be evaluated.
            let missing = Evaluator.decide(.offer("a"), context: .standard, policy: loaded, facts: facts, now: 1)
            #expect(missing.reasons.filter { $0.rule != nil }.map(\.code) == [.customRule, .ruleError, .ruleError])
        }
        // A compiled policy holds `[]` beside an int or a string only as a list of their own type, as compile writes it.
        let typed = try Policy(yaml: "version: 1\nattributes:\n  mode: string\nplacements:\n  a: {format: banner}\nrules:\n  - {id: r, deny: [a], when: 'mode in []'}\n", file: "p.yaml")
        let document = String(decoding: try typed.compiledDocument(relativePath: { $0 }, sourceDigest: "sha256:0", generator: "test"), as: UTF8.self)
        #expect(document.contains(#""[string]""#), "\(document)")
        #expect(throws: (any Error).self) { try Policy(compiled: Data(document.replacingOccurrences(of: #""[string]""#, with: #""[int]""#).utf8)) }
        // A list on the left is still looked for in a list.
        let list = lint("version: 1\nattributes:\n  tags: \"[string]\"\nplacements:\n  a: {format: banner}\nrules:\n  - {id: r, deny: [a], when: 'tags in []'}\n")
        #expect(list.map(\.rule) == ["rule/type"])
    }

    @Test func aRuleErrorNamesOnlyTheAttributesTheRuleReads() throws {
        let policy = try Policy(yaml: """
            version: 1
            attributes:
              screen: string
              level: int
            placements:
              a: {format: banner}
            rules:
              - {id: r, deny: [a], when: 'level < 5'}
            """, file: "p.yaml")
        let d = Evaluator.decide(.offer("a"), policy: policy, facts: Facts(policy: policy, installedAt: 0), now: 1)
        #expect(d.reasons.first?.message == "rule r cannot be evaluated: no value for level; denied to be safe")
    }

    @Test func aCapOfZeroSaysItNeverClears() throws {
        var h = try Harness("""
            version: 1
            timezone: UTC
            placements:
              b: {format: banner, daily_cap: 0, session_cap: 0, caps: [{max: 0, window: 1h}]}
            """)
        h.record(.appLaunched, .loadCompleted("b"))
        let d = h.ask(.show("b", trigger: .action))
        #expect(d.reasons.map(\.message) == [
            "session_cap is 0, so it never shows", "daily_cap is 0, so it never shows", "a caps window of 0 shows in 1h, so it never shows (caps)",
        ])
        #expect(d.nextAllowedAt == nil)
    }

    /// A late resume show points at the setting behind it: past the window at `resume.max_delay`, an ad loaded
    /// after the return at `resume.allow_deferred`, which would allow it.
    @Test func aLateResumeShowPointsAtItsSetting() throws {
        var h = try Harness("""
            version: 1
            timezone: UTC
            placements:
              ao:
                format: app_open
                resume:
                  allow_deferred: false
                  max_delay: 3s
            """)
        h.record(.appLaunched, .appBackgrounded)
        h.advance("1m")
        h.record(.appResumed)
        h.advance("1s")
        h.record(.loadCompleted("ao"))
        let loadedLate = h.ask(.show("ao", trigger: .resume))
        #expect(loadedLate.codes == [.deferredShow])
        #expect(loadedLate.reasons.first?.location.map { "\($0.line):\($0.column)" } == "7:23")
        h.advance("5s")
        let pastWindow = h.ask(.show("ao", trigger: .resume))
        #expect(pastWindow.reasons.first?.location.map { "\($0.line):\($0.column)" } == "8:18")
    }

    /// A resume show after one that started and failed is deferred (the return's one show started), and its message
    /// says the show started, not that the ad was shown.
    @Test func aSecondResumeShowSaysTheFirstStarted() throws {
        var h = try Harness("""
            version: 1
            timezone: UTC
            placements:
              ao: {format: app_open}
            """)
        h.record(.appLaunched, .appBackgrounded)
        h.advance("1m")
        h.record(.loadCompleted("ao"), .appResumed)
        #expect(h.ask(.show("ao", trigger: .resume)).isAllowed)
        h.record(.showStarted("ao"), .showFailed("ao"), .loadCompleted("ao"))
        let again = h.ask(.show("ao", trigger: .resume))
        #expect(again.codes == [.deferredShow])
        #expect(again.reasons.first?.message.hasPrefix("a show of ao already started since the return from background, and a return gets one show") == true, "\(again)")
    }

    /// rules.md §6: a cold-start show asked after the launch phase closed is deferred "even if the load itself
    /// completed inside it", and its message says what closed the phase rather than that the load came late.
    @Test func aShowAfterTheLaunchPhaseSaysThePhaseIsOver() throws {
        var h = try Harness("""
            version: 1
            timezone: UTC
            placements:
              ao: {format: app_open, min_interval: 4m}
            """)
        h.record(.appLaunched, .loadCompleted("ao"), .appBackgrounded)
        let d = h.ask(.show("ao", trigger: .loadCompleted))
        #expect(d.codes == [.deferredShow])
        let message = try #require(d.reasons.first?.message)
        #expect(message.hasPrefix("the launch phase is over (it ends when the app leaves, when this placement's ad shows"), "\(message)")
        #expect(!message.contains("outside the launch phase"))
        // Before any app_launched there is no launch phase to be over.
        var before = try Harness("""
            version: 1
            timezone: UTC
            placements:
              ao: {format: app_open, min_interval: 4m}
            """)
        before.record(.loadCompleted("ao"))
        let early = before.ask(.show("ao", trigger: .loadCompleted))
        #expect(early.codes.contains(.deferredShow))
        #expect(early.reasons.first { $0.code == .deferredShow }?.message.hasPrefix("no app_launched yet, so no launch phase") == true, "\(early.reasons)")
    }

    /// Rules for every placement (`deny: "*"`) are kept once, not listed under each placement, and merged with a
    /// placement's own rules in rule order (listed under each, 10,000 of them over 9,000 placements took 2.3 GB).
    @Test func rulesForEveryPlacementKeepTheirOrder() throws {
        var h = try Harness("""
            version: 1
            timezone: UTC
            placements:
              a: {format: banner}
              b: {format: banner}
            rules:
              - {id: r1, deny: "*", when: "not premium"}
              - {id: r2, deny: [a], when: "not premium"}
              - {id: r3, deny: "*", when: "not premium"}
              - {id: r4, deny: [a, b], when: "not premium"}
              - {id: r5, deny: [b], when: "not premium"}
            """)
        h.record(.appLaunched, .loadCompleted("a"), .loadCompleted("b"))
        #expect(h.ask(.show("a", trigger: .action)).reasons.map(\.rule) == ["r1", "r2", "r3", "r4"])
        #expect(h.ask(.show("b", trigger: .action)).reasons.map(\.rule) == ["r1", "r3", "r4", "r5"])
        #expect(h.ask(.show("a", trigger: .action), premium: true).codes == [.premiumUser])
    }

    /// `custom_rule` / `rule_error` is one row of rules.md §7's table: every rule that denies comes first, then every
    /// rule that cannot be evaluated, each in rule order (as the other rows of several codes are listed).
    @Test func ruleErrorsComeAfterTheRulesThatDeny() throws {
        var h = try Harness("""
            version: 1
            timezone: UTC
            attributes: {s: string}
            placements:
              i: {format: interstitial}
            rules:
              - {id: e1, deny: [i], when: 's == "x"'}
              - {id: d1, deny: [i], when: "not premium"}
              - {id: e2, deny: "*", when: 's != "y"'}
              - {id: d2, deny: "*", when: "not premium"}
            """)
        h.record(.appLaunched, .loadCompleted("i"))
        let d = h.ask(.show("i", trigger: .action))
        #expect(d.codes == [.customRule, .customRule, .ruleError, .ruleError])
        #expect(d.reasons.map(\.rule) == ["d1", "d2", "e1", "e2"])
        #expect(d.reasons[2].message.contains("no value for s"), "\(d.reasons[2].message)")
        // With the attribute, the rules are evaluated in rule order again.
        #expect(h.ask(.show("i", trigger: .action), attributes: ["s": .string("x")]).reasons.map(\.rule) == ["e1", "d1", "e2", "d2"])
    }

    /// Counts of one read in the singular.
    @Test func aCountOfOneIsSingular() throws {
        var h = try Harness("""
            version: 1
            timezone: UTC
            placements:
              i: {format: interstitial, every_n_actions: 1, grace: {first_sessions: 1}}
            """)
        h.record(.appLaunched, .loadCompleted("i"))
        let d = h.ask(.show("i", trigger: .action))
        #expect(d.reasons.map(\.message) == [
            "no i in the first 1 session after install (grace.first_sessions)",
            "fewer than 1 action since the last show of i (every_n_actions)",
        ])
        #expect(h.ask(.show("x", trigger: .action)).reasons.first?.message == "placement \"x\" is not in the policy (1 placement)")
    }

    /// Background time starts at the first app_backgrounded: a multi-scene app reports one per scene.
    @Test func aSecondBackgroundDoesNotRestartTheSessionTimeout() throws {
        var h = try Harness("""
            version: 1
            timezone: UTC
            session_timeout: 30m
            placements:
              i: {format: interstitial, session_cap: 1}
            """)
        h.record(.appLaunched, .loadCompleted("i"), .showStarted("i"), .adClosed("i"), .appBackgrounded)
        h.advance("20m")
        h.record(.appBackgrounded)
        h.advance("15m")
        h.record(.appResumed, .loadCompleted("i"))
        #expect(h.ask(.show("i", trigger: .action)).codes == [], "35 minutes in the background: a new session")
    }

    @Test func messagesNameUTCAndTheRuleOnce() throws {
        var h = try Harness("""
            version: 1
            timezone: UTC
            placements:
              i: {format: interstitial, daily_cap: 1}
            rules:
              - {id: r, deny: [i], when: premium}
            """)
        h.record(.appLaunched, .loadCompleted("i"), .showStarted("i"), .adClosed("i"), .loadCompleted("i"))
        let d = h.ask(.show("i", trigger: .action), premium: true)
        #expect(d.reasons.map(\.message) == ["premium users never see i (exclude_premium)", "denied by rule r", "daily_cap 1 reached today (2026-11-29 in UTC; it resets at the next local midnight)"])
    }

    /// A local day in a year past 9999 is named in full (it was cut to ten characters, `10000-01-0`).
    @Test func aDailyCapNamesAFiveDigitYearInFull() throws {
        var h = try Harness("""
            version: 1
            timezone: Pacific/Kiritimati
            placements:
              i: {format: interstitial, daily_cap: 1}
            """, start: "9999-12-31T23:00:00Z")
        h.record(.appLaunched, .loadCompleted("i"), .showStarted("i"), .adClosed("i"), .loadCompleted("i"))
        let d = h.ask(.show("i", trigger: .action))
        #expect(d.reasons.map(\.message) == ["daily_cap 1 reached today (10000-01-01 in Pacific/Kiritimati; it resets at the next local midnight)"])
    }
}
