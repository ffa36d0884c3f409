@testable import AdRules
import Foundation
import Testing

/// Typed ids carry the slot of their placement; decisions keep their reasons as sites until they are read.
@Suite("Placement slots and found reasons")
struct PlacementSlotTests {
    static let text = """
        version: 1
        placements:
          first:
            format: interstitial
            min_interval: 4m
          second:
            format: interstitial
            min_interval: 4m
            daily_cap: 1
        """

    @Test func aResolvedIdCarriesItsSlotAndEqualsThePlainId() throws {
        let policy = try policy(Self.text)
        let second = try #require(policy.placementID("second"))
        #expect(second.slot == 1)
        #expect(second == PlacementID("second"))
        #expect(second.hashValue == PlacementID("second").hashValue)
        #expect(policy.placementID("third") == nil)
        // Coding keeps the text only.
        let data = try JSONEncoder().encode(second)
        #expect(String(decoding: data, as: UTF8.self) == "\"second\"")
        #expect(try JSONDecoder().decode(PlacementID.self, from: data).slot == -1)
        #expect(Ask.show(second, trigger: .action) == Ask(.show, placement: "second", trigger: .action))
    }

    @Test func aWrongOrStaleSlotStillFindsThePlacement() throws {
        let policy = try policy(Self.text)
        var facts = Facts(policy: policy, installedAt: 0)
        facts.apply(.appLaunched, at: 1000, policy: policy)
        // An id generated from an older policy where "second" sat first, one out of range, one negative.
        for id in [PlacementID(rawValue: "second", slot: 0), PlacementID(rawValue: "second", slot: 7), PlacementID(rawValue: "second", slot: -3), "second"] {
            var f = facts
            f.apply(.loadCompleted(id), at: 2000, policy: policy)
            f.apply(.showStarted(id), at: 3000, policy: policy)
            f.apply(.adClosed(id), at: 3500, policy: policy)
            let decision = Evaluator.decide(.show(id, trigger: .action), policy: policy, facts: f, now: 4000)
            #expect(decision.codes == [.adNotReady, .minInterval, .dailyCap], "slot \(id.slot)")
            // The show was recorded for "second", never for the placement in the stale slot.
            #expect(Evaluator.decide(.show("first", trigger: .action), policy: policy, facts: f, now: 4000).codes == [.adNotReady])
        }
        // An id that is not in the policy is unknown whatever its slot.
        let unknown = Evaluator.decide(.show(PlacementID(rawValue: "third", slot: 0), trigger: .action), policy: policy, facts: facts, now: 4000)
        #expect(unknown.codes == [.unknownPlacement])
    }

    @Test func foundReasonsReadLikeGivenOnes() throws {
        let policy = try policy(Self.text)
        var facts = Facts(policy: policy, installedAt: 0)
        facts.apply(.appLaunched, at: 1000, policy: policy)
        facts.apply(.loadCompleted("second"), at: 2000, policy: policy)
        facts.apply(.showStarted("second"), at: 3000, policy: policy)
        facts.apply(.adClosed("second"), at: 4000, policy: policy)
        facts.apply(.loadCompleted("second"), at: 5000, policy: policy)
        let found = Evaluator.decide(.show("second", trigger: .action), policy: policy, facts: facts, now: 6000, deviceTimeZone: TimeZone(identifier: "UTC")!)
        #expect(found.reasonCount == 2)
        #expect(found.codes == [.minInterval, .dailyCap])
        #expect(found.verdict == .deny && !found.isAllowed)
        let reasons = found.reasons
        #expect(reasons.map(\.code) == found.codes)
        #expect(reasons[0].location?.line == 8)
        #expect(reasons[1].location?.line == 9)
        // The latest clear time: the daily cap's midnight, after min_interval's 4 minutes.
        #expect(found.nextAllowedAt == Date(timeIntervalSince1970: 86_400))
        // The same reasons given in full make an equal decision; visiting them gives them in order.
        let given = Decision(ask: found.ask, reasons: reasons, nextAllowedAt: found.nextAllowedAt, notes: found.notes)
        #expect(given == found)
        #expect(given.hashValue == found.hashValue)
        // The findings of the same ask (what the impact preview reads, into storage it reuses) give the same
        // reasons, in order, each with its site.
        var findings = Findings()
        #expect(Evaluator.find(.load("second"), context: .standard, policy: policy, facts: facts, now: 6000, deviceTimeZone: .gmt, into: &findings))
        #expect(Evaluator.find(.show("second", trigger: .action), context: .standard, policy: policy, facts: facts, now: 6000, deviceTimeZone: .gmt, into: &findings))
        #expect(!findings.isAllowed)
        var visited: [ReasonCode] = []
        for i in 0..<findings.reasonCount {
            visited.append(findings.code(at: i))
            let built = findings.reason(at: i, policy: policy, deviceTimeZone: .gmt)
            let key = findings.siteKey(at: i)
            #expect(built == reasons[i] && key == built.siteKey && key != nil && findings.summaryIsFixed(at: i) == built.summaryIsFixed)
            // The placement's own pacing and cap: of no group.
            #expect(findings.group(at: i) == nil)
        }
        #expect(visited == [.minInterval, .dailyCap])
        // A placement the policy lacks: no findings, and false.
        #expect(!Evaluator.find(.show("missing", trigger: .action), context: .standard, policy: policy, facts: facts, now: 6000, deviceTimeZone: .gmt, into: &findings))
        #expect(findings.isAllowed)
        // Setting the reasons replaces them.
        var edited = found
        edited.reasons = []
        #expect(edited.isAllowed && edited.reasonCount == 0 && edited != found)
    }
}

/// A context prepared for a policy reads its attributes by slot, and decides exactly as the plain context.
@Suite("Prepared contexts")
struct PreparedContextTests {
    static let text = """
        version: 1
        attributes:
          screen: string
          onboarding: {type: bool, default: false}
          level: {type: int, default: 1}
        placements:
          level_end:
            format: interstitial
            min_interval: 4m
        rules:
          - id: onboarding
            deny: "*"
            when: onboarding
            message: No ads during onboarding
          - id: checkout
            deny: [level_end]
            when: screen in ["checkout", "paywall"] and level >= 3
            message: Never interrupt a purchase
        """

    func codes(_ context: AskContext, _ policy: Policy) -> [ReasonCode] {
        var facts = Facts(policy: policy, installedAt: 0)
        facts.apply(.appLaunched, at: 1000, policy: policy)
        facts.apply(.loadCompleted("level_end"), at: 2000, policy: policy)
        return Evaluator.decide(.show("level_end", trigger: .action), context: context, policy: policy, facts: facts, now: 3000).codes
    }

    @Test func preparedAndPlainContextsDecideAlike() throws {
        let policy = try policy(Self.text)
        let contexts: [[String: AttributeValue]] = [
            [:], ["screen": .string("checkout")], ["screen": .string("checkout"), "level": .int(3)],
            ["screen": .string("home"), "onboarding": .bool(true)], ["screen": .string("paywall"), "level": .int(9), "extra": .int(1)],
            ["screen": .int(4)],
        ]
        for attributes in contexts {
            let plain = AskContext(attributes: attributes)
            let prepared = policy.prepared(plain)
            #expect(prepared.prepared != nil)
            #expect(prepared == plain)
            #expect(codes(prepared, policy) == codes(plain, policy), "\(attributes)")
        }
        #expect(codes(policy.prepared(AskContext(attributes: ["screen": .string("checkout"), "level": .int(3)])), policy) == [.customRule])
        #expect(codes(policy.prepared(AskContext()), policy) == [.ruleError])
    }

    @Test func changingTheAttributesDropsThePreparation() throws {
        let rules = try policy(Self.text)
        var context = rules.prepared(AskContext(attributes: ["screen": .string("home")]))
        context.attributes["onboarding"] = .bool(true)
        #expect(context.prepared == nil)
        #expect(codes(context, rules) == [.customRule])
        // Prepared for another policy (another layout of slots): read by name, as any other context.
        let other = try policy(Self.text.replacingOccurrences(of: "  screen: string\n", with: "  extra: {type: int, default: 0}\n  screen: string\n"))
        let foreign = other.prepared(AskContext(attributes: ["screen": .string("checkout"), "level": .int(5)]))
        #expect(codes(foreign, rules) == [.customRule])
        #expect(codes(foreign, other) == [.customRule])
    }
}

/// The texts a found reason names come from its decision: the external source, the missing attributes, the
/// day and zone of a daily cap.
@Suite("Found reasons: their texts")
struct FoundReasonTextTests {
    @Test func sourcesAttributesAndTheDayAreNamed() throws {
        let rules = try policy("""
            version: 1
            timezone: Asia/Tokyo
            attributes:
              screen: string
            placements:
              level_end:
                format: interstitial
                daily_cap: 1
            rules:
              - id: checkout
                deny: [level_end]
                when: screen == "checkout"
                message: Never interrupt a purchase
            """)
        var facts = Facts(policy: rules, installedAt: 0)
        facts.apply(.appLaunched, at: 1000, policy: rules)
        facts.apply(.loadCompleted("level_end"), at: 2000, policy: rules)
        facts.apply(.showStarted("level_end"), at: 3000, policy: rules)
        facts.apply(.adClosed("level_end"), at: 4000, policy: rules)
        facts.apply(.loadCompleted("level_end"), at: 5000, policy: rules)
        facts.apply(.fullscreenOpened(source: "max\u{1B}sdk"), at: 6000, policy: rules)
        let decision = Evaluator.decide(.show("level_end", trigger: .action), policy: rules, facts: facts, now: 7000)
        #expect(decision.codes == [.ruleError, .fullscreenActive, .dailyCap])
        let messages = decision.reasons.map(\.message)
        #expect(messages[0] == "rule checkout cannot be evaluated: no value for screen; denied to be safe")
        #expect(messages[1] == "external fullscreen ad max\u{1B}sdk is on screen (block_during_fullscreen)")
        #expect(messages[2] == "daily_cap 1 reached today (1970-01-01 in Asia/Tokyo; it resets at the next local midnight)")
        #expect(decision.reasons[2].summary == "daily_cap 1 reached today")
        // One line an app logs: control characters escaped.
        #expect(!decision.description.contains("\u{1B}"))
    }
}
