import AdRules
import AdRulesCompiler
import Foundation
import Testing

/// A policy, facts and a clock, driven by events as an app would.
struct Harness {
    let policy: Policy
    var facts: Facts
    var now: Int64
    let zone: TimeZone

    init(_ yaml: String, start: String = "2026-11-29T09:00:00Z", zone: String = "UTC", sessionsBefore: Int = 0, installed: String? = nil) throws {
        policy = try Policy(yaml: yaml, file: "p.yaml")
        now = try #require(Timestamps.parseMilliseconds(start))
        let install = try installed.map { try #require(Timestamps.parseMilliseconds($0)) } ?? now
        facts = Facts(policy: policy, installedAt: install, sessionsBefore: sessionsBefore)
        self.zone = try #require(TimeZone(identifier: zone))
    }

    mutating func advance(_ duration: String) {
        now += RuleDuration(parsing: duration)?.milliseconds ?? 0
    }

    mutating func record(_ events: AdEvent...) {
        for event in events { facts.apply(event, at: now, policy: policy) }
    }

    func ask(_ ask: Ask, premium: Bool = false, attributes: [String: AttributeValue] = [:]) -> Decision {
        Evaluator.decide(ask, context: AskContext(premium: premium, attributes: attributes), policy: policy, facts: facts, now: now, deviceTimeZone: zone)
    }

    func retry(_ decision: Decision) -> RuleDuration? {
        decision.nextAllowedAt.map { RuleDuration(milliseconds: Milliseconds.from($0) - now) }
    }
}

@Suite("Evaluator: reasons")
struct EvaluatorReasonTests {
    static let policyText = """
        version: 1
        placements:
          app_open:
            format: app_open
            min_interval: 4m
            daily_cap: 3
            max_ad_age: 4h
            launch: {max_wait: 5s}
          level_end:
            format: interstitial
            every_n_actions: 2
            hourly_cap: 2
            session_cap: 3
            caps: [{max: 1, window: 10m}]
            grace: {first_sessions: 1, after_install: 1h, after_session_start: 30s}
          hint:
            format: rewarded
          off:
            format: banner
            enabled: false
            exclude_premium: false
        groups:
          fullscreen:
            placements: [app_open, level_end, hint]
            min_interval: 1m
        """

    func harness(sessionsBefore: Int = 3) throws -> Harness {
        try Harness(Self.policyText, sessionsBefore: sessionsBefore, installed: "2026-11-01T00:00:00Z")
    }

    @Test func unknownPlacementIsTheOnlyReason() throws {
        let d = try harness().ask(.show("nope", trigger: .action), premium: true)
        #expect(d.codes == [.unknownPlacement])
    }

    @Test func coldStartShowAllowedAndReasonsPointAtYAML() throws {
        var h = try harness()
        h.record(.appLaunched, .loadStarted("app_open"))
        h.advance("2s")
        h.record(.loadCompleted("app_open"))
        #expect(h.ask(.show("app_open", trigger: .loadCompleted)).isAllowed)
        h.record(.showStarted("app_open"))
        h.advance("1m")
        h.record(.adClosed("app_open"), .loadCompleted("app_open"), .appBackgrounded)
        h.advance("1m")
        h.record(.appResumed)
        let d = h.ask(.show("app_open", trigger: .resume))
        #expect(d.codes == [.minInterval])
        #expect(d.reasons[0].location?.line == 5)
        #expect(d.reasons[0].location?.column == 19)
        #expect(h.retry(d) == .minutes(2))
        #expect(d.description.hasPrefix("deny show app_open (resume): min_interval 4m not elapsed"))
        #expect(d.description.contains("next at 2026-11-29T09:04:02Z"))
        #expect(d.description.contains("[p.yaml:5:19]"))
    }

    @Test func launchPhaseEndsAtMaxWaitBackgroundAndFailure() throws {
        var h = try harness()
        h.record(.appLaunched)
        h.advance("5s")
        h.record(.loadCompleted("app_open"))
        #expect(h.ask(.show("app_open", trigger: .loadCompleted)).isAllowed, "exactly at max_wait is still within it")
        h.advance("1ms")
        #expect(h.ask(.show("app_open", trigger: .loadCompleted)).codes == [.deferredShow])
        var b = try harness()
        b.record(.appLaunched, .appBackgrounded, .appResumed, .loadCompleted("app_open"))
        #expect(b.ask(.show("app_open", trigger: .loadCompleted)).codes == [.deferredShow])
        var f = try harness()
        f.record(.appLaunched, .loadFailed("app_open"), .loadCompleted("app_open"))
        #expect(f.ask(.show("app_open", trigger: .loadCompleted)).codes == [.deferredShow])
    }

    @Test func triggersThatDoNotFit() throws {
        var h = try harness()
        h.record(.appLaunched, .loadCompleted("app_open"))
        #expect(h.ask(.show("app_open", trigger: .action)).codes == [.triggerNotSupported])
        #expect(h.ask(.show("level_end", trigger: .resume)).codes.contains(.triggerNotSupported))
    }

    @Test func disabledTriggers() throws {
        var h = try Harness("""
            version: 1
            placements:
              a:
                format: app_open
                launch: {show_on_first_load: false}
                resume: {show_if_ready: false}
            """, sessionsBefore: 0)
        h.record(.appLaunched, .loadCompleted("a"))
        #expect(h.ask(.show("a", trigger: .loadCompleted)).codes == [.triggerDisabled])
        #expect(h.ask(.show("a", trigger: .resume)).codes == [.triggerDisabled])
    }

    @Test func disabledAndPremium() throws {
        var h = try harness()
        h.record(.appLaunched, .loadCompleted("off"))
        #expect(h.ask(.show("off", trigger: .action), premium: true).codes == [.placementDisabled])
        #expect(h.ask(.load("off")).codes == [.placementDisabled, .alreadyLoaded])
        h.record(.loadCompleted("app_open"), .appBackgrounded, .appResumed)
        #expect(h.ask(.show("app_open", trigger: .resume), premium: true).codes == [.premiumUser])
        #expect(h.ask(.load("hint"), premium: true).codes == [.premiumUser])
    }

    @Test func fullscreenAndAlreadyShowing() throws {
        var h = try harness()
        h.record(.appLaunched, .loadCompleted("app_open"), .loadCompleted("hint"), .userChose("hint"), .showStarted("hint"))
        // The user comes back from the rewarded ad's web page: not a return from background.
        h.record(.appResumed)
        #expect(h.ask(.show("app_open", trigger: .resume)).codes == [.deferredShow, .fullscreenActive, .groupMinInterval])
        h.record(.appBackgrounded, .appResumed)
        #expect(h.ask(.show("app_open", trigger: .resume)).codes == [.fullscreenActive, .groupMinInterval])
        #expect(h.ask(.load("hint")).codes == [.alreadyShowing])
        h.record(.adClosed("hint"))
        h.advance("1m")
        h.record(.fullscreenOpened(source: "other_sdk"), .appBackgrounded, .appResumed)
        #expect(h.ask(.show("app_open", trigger: .resume)).codes == [.fullscreenActive])
        h.record(.fullscreenClosed(source: "other_sdk"))
        #expect(h.ask(.show("app_open", trigger: .resume)).isAllowed)
    }

    /// Leaving the app dismisses an app-open ad (cli.md's example scenario: no `already_showing` after a return),
    /// and only an app-open ad: an interstitial left on screen still blocks, and so does the app-open ad when the
    /// app becomes active without having left.
    @Test func leavingTheAppEndsAnAppOpenAdOnly() throws {
        var h = try harness()
        h.record(.appLaunched, .loadCompleted("app_open"), .showStarted("app_open"))
        h.advance("5m")
        h.record(.appResumed)
        #expect(h.ask(.load("app_open")).codes == [.alreadyShowing])
        h.record(.appBackgrounded)
        #expect(h.ask(.load("app_open")).isAllowed)
        h.advance("1m")
        h.record(.appResumed)
        #expect(h.ask(.show("app_open", trigger: .resume)).codes == [.adNotReady])
        // A show_failed reported after the user left still gives the show back: its present may fail as the app leaves.
        #expect(h.facts.showHistory(policy: h.policy)["app_open"]?.count == 1)
        h.record(.showFailed("app_open"))
        #expect((h.facts.showHistory(policy: h.policy)["app_open"]?.count ?? 0) == 0)

        h.advance("1h")
        h.record(.loadCompleted("level_end"), .action("level_end"), .action("level_end"), .showStarted("level_end"))
        h.record(.appBackgrounded)
        h.advance("1m")
        h.record(.appResumed, .loadCompleted("app_open"))
        #expect(h.ask(.load("level_end")).codes == [.alreadyShowing])
        #expect(h.ask(.show("app_open", trigger: .resume)).codes == [.fullscreenActive])
    }

    /// The facts count the placements on screen, so that a decision with none skips the search: the count must
    /// hold through every way facts change besides events (remapped to an updated policy, fitted to another
    /// policy's tables, a clock set back), or another placement's ad would be missed.
    @Test func aPlacementOnScreenStillBlocksAfterRemappingFittingAndASetBackClock() throws {
        var h = try harness()
        h.record(.appLaunched, .loadCompleted("level_end"), .action("level_end"), .action("level_end"))
        h.record(.loadCompleted("hint"), .userChose("hint"), .showStarted("hint"))
        h.advance("2m")
        #expect(h.ask(.show("level_end", trigger: .action)).codes == [.fullscreenActive])

        // An update adds a placement before the others: every index moves.
        let updated = try Policy(yaml: Self.policyText.replacingOccurrences(of: "placements:\n  app_open:", with: "placements:\n  first:\n    format: interstitial\n  app_open:"), file: "p.yaml")
        #expect(updated.placements.first?.id == "first")
        let remapped = h.facts.remapped(from: h.policy, to: updated)
        #expect(Evaluator.decide(.show("level_end", trigger: .action), policy: updated, facts: remapped, now: h.now).codes == [.fullscreenActive])

        // Facts built for a policy with fewer placements are padded to this one's: the ad on screen stays.
        let longer = try Policy(yaml: Self.policyText.replacingOccurrences(of: "\ngroups:", with: "\n  last:\n    format: interstitial\ngroups:"), file: "p.yaml")
        #expect(longer.placements.last?.id == "last")
        #expect(Evaluator.decide(.show("level_end", trigger: .action), policy: longer, facts: h.facts, now: h.now).codes == [.fullscreenActive])

        // A clock set back pins the show's start to now: still on screen.
        h.advance("-1h")
        h.record(.action("level_end"))
        #expect(h.ask(.show("level_end", trigger: .action)).codes.contains(.fullscreenActive))
        h.record(.adClosed("hint"))
        #expect(!h.ask(.show("level_end", trigger: .action)).codes.contains(.fullscreenActive))
    }

    @Test func fullscreenTimeoutTreatsALostCloseAsClosedWithANote() throws {
        var h = try harness()
        h.record(.appLaunched, .loadCompleted("app_open"), .fullscreenOpened(source: nil))
        h.advance("30m")
        h.record(.appBackgrounded, .appResumed)
        #expect(h.ask(.show("app_open", trigger: .resume)).codes == [.fullscreenActive])
        h.advance("1s")
        let d = h.ask(.show("app_open", trigger: .resume))
        #expect(d.isAllowed)
        #expect(d.notes.first?.contains("fullscreen_timeout") == true)
        // The line an app logs keeps the note: it is why an ad was allowed with another one reported on screen.
        #expect(d.description == "allow show app_open (resume); note: \(d.notes[0])")
    }

    /// Attribute values written as literals are the values of their rule types: an int literal is an `int` (a rule
    /// comparing an `int` attribute with a `number` would be a rule_error), a decimal a `number`.
    @Test func attributeValuesWrittenAsLiteralsHaveTheirRuleTypes() throws {
        let policy = try policy("""
            version: 1
            attributes: {screen: string, level: int, score: number, onboarding: bool}
            placements:
              a: {format: banner}
            rules:
              - {id: r, deny: [a], when: 'screen == "checkout" and level > 3 and score < 2.5 and not onboarding'}
            """)
        let literal: AskContext = AskContext(attributes: ["screen": "checkout", "level": 12, "score": 1.5, "onboarding": false])
        #expect(literal.attributes == ["screen": .string("checkout"), "level": .int(12), "score": .number(1.5), "onboarding": .bool(false)])
        let decision = Evaluator.decide(.show("a", trigger: .action), context: literal, policy: policy, facts: Facts(policy: policy, installedAt: 0), now: 0)
        #expect(decision.codes == [.customRule, .adNotReady], "the rule reads every value: no rule_error")
    }

    /// A log line or `print` of a code, a trigger or a format shows the spelling of the rule files and the spec, not
    /// the Swift case name (`print(decision.codes)` printed `[AdRules.ReasonCode.adNotReady]`).
    @Test func codesTriggersAndFormatsPrintAsRuleFilesSpellThem() {
        #expect("\(ReasonCode.adNotReady)" == "ad_not_ready")
        #expect(String(describing: [ReasonCode.adNotReady, .groupDailyCap]) == "[ad_not_ready, group_daily_cap]")
        #expect("\(ShowTrigger.loadCompleted)" == "load_completed")
        #expect("\(AdFormat.rewardedInterstitial)" == "rewarded_interstitial")
    }

    @Test func graceReasons() throws {
        var h = try Harness(Self.policyText, start: "2026-11-29T09:00:00Z", sessionsBefore: 0, installed: "2026-11-29T08:30:00Z")
        h.record(.appLaunched, .loadCompleted("level_end"), .action("level_end"), .action("level_end"))
        let d = h.ask(.show("level_end", trigger: .action))
        #expect(d.codes == [.graceSessions, .graceInstall, .graceSessionStart])
        #expect(d.nextAllowedAt == nil, "grace_sessions clears only with a new session")
        #expect(d.reasons[1].clearsAt == Timestamps.parse("2026-11-29T09:30:00Z"))
        #expect(d.reasons[2].clearsAt == Timestamps.parse("2026-11-29T09:00:30Z"))
    }

    @Test func userChoiceAndActionsAreConsumedByAShow() throws {
        var h = try harness()
        h.record(.appLaunched, .loadCompleted("hint"))
        h.advance("1m")
        #expect(h.ask(.offer("hint")).isAllowed)
        #expect(h.ask(.show("hint", trigger: .action)).codes == [.noUserChoice])
        h.record(.userChose("hint"), .showStarted("hint"), .adClosed("hint"), .loadCompleted("hint"))
        h.advance("2m")
        #expect(h.ask(.show("hint", trigger: .action)).codes == [.noUserChoice])
        h.advance("1m")
        h.record(.loadCompleted("level_end"), .action("level_end"))
        #expect(h.ask(.show("level_end", trigger: .action)).codes == [.everyNActions])
        #expect(h.ask(.offer("level_end")).isAllowed, "offer ignores every_n_actions")
    }

    @Test func readinessAndExpiry() throws {
        var h = try harness()
        h.record(.appLaunched, .appBackgrounded, .appResumed)
        #expect(h.ask(.show("app_open", trigger: .resume)).codes == [.adNotReady], "inside the resume window, no ad: only ad_not_ready")
        h.record(.loadCompleted("app_open"))
        h.advance("4h")
        h.record(.appBackgrounded, .appResumed)
        #expect(h.ask(.show("app_open", trigger: .resume)).isAllowed, "exactly max_ad_age is not expired")
        #expect(h.ask(.load("app_open")).codes == [.alreadyLoaded])
        h.advance("1ms")
        h.record(.appBackgrounded, .appResumed)
        #expect(h.ask(.show("app_open", trigger: .resume)).codes == [.adExpired])
        #expect(h.ask(.load("app_open")).isAllowed, "an expired ad may be reloaded")
        h.record(.loadStarted("app_open"))
        #expect(h.ask(.load("app_open")).codes == [.alreadyLoading])
        h.advance("61s")
        #expect(h.ask(.load("app_open")).isAllowed, "a load past load_timeout counts as failed")
    }

    @Test func capsAndWindowsWithClearTimes() throws {
        var h = try harness()
        h.record(.appLaunched)
        h.advance("1m")
        for _ in 0..<3 {
            h.record(.loadCompleted("level_end"), .action("level_end"), .action("level_end"))
            let d = h.ask(.show("level_end", trigger: .action))
            if d.isAllowed {
                h.record(.showStarted("level_end"), .adClosed("level_end"))
            }
            h.advance("10m")
        }
        // Shows at 09:01 and 09:11 (09:21 was denied by the hourly cap); now 09:31.
        h.record(.loadCompleted("level_end"), .action("level_end"), .action("level_end"))
        let d = h.ask(.show("level_end", trigger: .action))
        #expect(d.codes == [.hourlyCap])
        #expect(d.reasons[0].clearsAt == Timestamps.parse("2026-11-29T10:01:00Z"))
        h.advance("30m")
        #expect(h.ask(.show("level_end", trigger: .action)).isAllowed, "a show leaves the window exactly W after it")
    }

    @Test func sessionCapCountsTheCurrentSessionOnly() throws {
        var h = try Harness("""
            version: 1
            placements:
              a: {format: interstitial, session_cap: 1}
            """, sessionsBefore: 2)
        h.record(.appLaunched, .loadCompleted("a"), .showStarted("a"), .adClosed("a"), .loadCompleted("a"))
        let d = h.ask(.show("a", trigger: .action))
        #expect(d.codes == [.sessionCap])
        #expect(d.nextAllowedAt == nil)
        h.record(.appBackgrounded)
        h.advance("29m")
        h.record(.appResumed)
        #expect(h.ask(.show("a", trigger: .action)).codes == [.sessionCap], "a short background keeps the session")
        h.record(.appBackgrounded)
        h.advance("30m")
        h.record(.appResumed)
        #expect(h.ask(.show("a", trigger: .action)).isAllowed, "30m in background starts a new session")
    }

    @Test func groupReasonsNameTheGroup() throws {
        var h = try harness()
        h.record(.appLaunched, .loadCompleted("app_open"), .showStarted("app_open"), .adClosed("app_open"))
        h.record(.loadCompleted("hint"), .userChose("hint"))
        h.advance("30s")
        let d = h.ask(.show("hint", trigger: .action))
        #expect(d.codes == [.groupMinInterval])
        #expect(d.reasons[0].group == "fullscreen")
        #expect(h.retry(d) == .seconds(30))
    }

    @Test func rewardFlow() throws {
        var h = try harness()
        h.record(.appLaunched)
        #expect(h.ask(.reward("level_end")).codes == [.notRewardedFormat, .noShow])
        #expect(h.ask(.reward("hint")).codes == [.noShow])
        h.record(.loadCompleted("hint"), .showStarted("hint"))
        #expect(h.ask(.reward("hint")).codes == [.noUserChoice, .rewardNotEarned])
        h.record(.rewardEarned("hint"))
        #expect(h.ask(.reward("hint")).codes == [.noUserChoice])
        h.record(.adClosed("hint"), .loadCompleted("hint"), .userChose("hint"))
        h.advance("1m")
        h.record(.showStarted("hint"), .rewardEarned("hint"))
        #expect(h.ask(.reward("hint")).isAllowed)
        h.record(.rewardGranted("hint"))
        #expect(h.ask(.reward("hint")).codes == [.rewardAlreadyGranted])
        // A show whose reward was granted happened: a show_failed after it takes nothing back.
        h.record(.showFailed("hint"))
        #expect(h.ask(.reward("hint")).codes == [.rewardAlreadyGranted])
        // One that failed after its reward was earned, not granted, is taken back: nothing is left to reward.
        h.record(.loadCompleted("hint"), .userChose("hint"))
        h.advance("1m")
        h.record(.showStarted("hint"), .rewardEarned("hint"), .showFailed("hint"))
        #expect(h.ask(.reward("hint")).codes == [.noShow])
    }

    @Test func allReasonsAtOnceInTheDocumentedOrder() throws {
        var h = try Harness(Self.policyText, start: "2026-11-29T09:00:00Z", sessionsBefore: 0, installed: "2026-11-29T08:59:00Z")
        h.record(.appLaunched, .loadCompleted("level_end"), .action("level_end"), .action("level_end"), .showStarted("level_end"))
        let d = h.ask(.show("level_end", trigger: .resume), premium: true)
        #expect(d.codes == [
            .premiumUser, .triggerNotSupported, .alreadyShowing, .graceSessions, .graceInstall, .graceSessionStart,
            .everyNActions, .adNotReady, .windowCap, .groupMinInterval,
        ].filter { $0 != .everyNActions })
        #expect(d.codes == d.codes.sorted { ReasonCode.allCases.firstIndex(of: $0)! < ReasonCode.allCases.firstIndex(of: $1)! })
        #expect(d.nextAllowedAt == nil)
    }
}

@Suite("Evaluator: time")
struct EvaluatorTimeTests {
    @Test func minIntervalPassesExactlyAtTheInterval() throws {
        var h = try Harness("version: 1\nplacements:\n  a: {format: interstitial, min_interval: 90s}\n")
        h.record(.appLaunched, .loadCompleted("a"), .showStarted("a"), .adClosed("a"), .loadCompleted("a"))
        h.advance("89s")
        #expect(h.ask(.show("a", trigger: .action)).codes == [.minInterval])
        h.advance("999ms")
        #expect(h.ask(.show("a", trigger: .action)).codes == [.minInterval])
        h.advance("1ms")
        #expect(h.ask(.show("a", trigger: .action)).isAllowed)
    }

    @Test func dailyCapClearsAtLocalMidnight() throws {
        var h = try Harness(
            "version: 1\ntimezone: Asia/Tokyo\nplacements:\n  a: {format: interstitial, daily_cap: 1}\n",
            start: "2026-11-29T14:00:00Z")  // 23:00 in Tokyo
        h.record(.appLaunched, .loadCompleted("a"), .showStarted("a"), .adClosed("a"), .loadCompleted("a"))
        let d = h.ask(.show("a", trigger: .action))
        #expect(d.codes == [.dailyCap])
        #expect(d.nextAllowedAt == Timestamps.parse("2026-11-29T15:00:00Z"))
        h.advance("59m59s")
        #expect(!h.ask(.show("a", trigger: .action)).isAllowed)
        h.advance("1s")
        #expect(h.ask(.show("a", trigger: .action)).isAllowed)
    }

    @Test func deviceTimeZoneIsUsedWhenThePolicySaysDevice() throws {
        var h = try Harness("version: 1\nplacements:\n  a: {format: interstitial, daily_cap: 1}\n", start: "2026-11-29T14:00:00Z", zone: "America/New_York")
        h.record(.appLaunched, .loadCompleted("a"), .showStarted("a"), .adClosed("a"), .loadCompleted("a"))
        #expect(h.ask(.show("a", trigger: .action)).nextAllowedAt == Timestamps.parse("2026-11-30T05:00:00Z"))
    }

    @Test(arguments: [
        ("2026-03-08T12:00:00-04:00", "2026-03-09T04:00:00Z", 23),  // spring forward: a 23-hour day
        ("2026-11-01T12:00:00-05:00", "2026-11-02T05:00:00Z", 25),  // fall back: a 25-hour day
    ])
    func dailyCapAcrossDST(_ start: String, _ midnight: String, _ hours: Int) throws {
        var h = try Harness("version: 1\ntimezone: America/New_York\nplacements:\n  a: {format: interstitial, daily_cap: 1, max_ad_age: 2d}\n", start: start)
        h.record(.appLaunched, .loadCompleted("a"), .showStarted("a"), .adClosed("a"), .loadCompleted("a"))
        let d = h.ask(.show("a", trigger: .action))
        #expect(d.nextAllowedAt == Timestamps.parse(midnight))
        // The show was made at noon; the day it counts in started `hours` before the next midnight.
        var early = h
        early.now = try #require(Timestamps.parseMilliseconds(midnight)) - Int64(hours) * 3_600_000 + 1
        #expect(!early.ask(.show("a", trigger: .action)).isAllowed)
        var edge = h
        edge.now = try #require(Timestamps.parseMilliseconds(midnight))
        #expect(edge.ask(.show("a", trigger: .action)).isAllowed)
        edge.now -= 1
        #expect(!edge.ask(.show("a", trigger: .action)).isAllowed)
    }

    /// Newfoundland fell back at 00:01 until 2011 (00:00-00:01 of the 7th, then 23:01 of the 6th again). A show at
    /// 23:30 of the 6th counts in the day of an ask in the hour of the 6th that came back, and the cap clears at the
    /// midnight after it (before, at the end of the 6th's first run, in the past), whether or not a day was kept from
    /// an ask in the minute of the 7th between (before, that ask's day let the show through).
    @Test(arguments: [false, true])
    func dailyCapWhereTheZoneFellBackAcrossMidnight(_ askedBetween: Bool) throws {
        var h = try Harness(
            "version: 1\ntimezone: America/St_Johns\nplacements:\n  a: {format: interstitial, daily_cap: 1, max_ad_age: 1d}\n", start: "2010-11-07T02:00:00Z")
        h.record(.appLaunched, .loadCompleted("a"), .showStarted("a"), .adClosed("a"), .loadCompleted("a"))
        if askedBetween {
            h.now = try #require(Timestamps.parseMilliseconds("2010-11-07T02:30:30Z"))
            h.facts.prepareDay(at: h.now, policy: h.policy, deviceTimeZone: h.zone)
            #expect(h.ask(.show("a", trigger: .action)).codes == [.dailyCap])
        }
        h.now = try #require(Timestamps.parseMilliseconds("2010-11-07T02:45:00Z"))
        h.facts.prepareDay(at: h.now, policy: h.policy, deviceTimeZone: h.zone)
        let d = h.ask(.show("a", trigger: .action))
        #expect(d.codes == [.dailyCap])
        #expect(d.nextAllowedAt == Timestamps.parse("2010-11-07T03:30:00Z"))
    }

    @Test func windowEdgeIsExclusive() throws {
        var h = try Harness("version: 1\nplacements:\n  a: {format: interstitial, caps: [{max: 1, window: 10m}]}\n")
        h.record(.appLaunched, .loadCompleted("a"), .showStarted("a"), .adClosed("a"), .loadCompleted("a"))
        h.advance("10m")
        #expect(h.ask(.show("a", trigger: .action)).isAllowed, "a show at exactly now - W has left the window")
        h.now -= 1
        let d = h.ask(.show("a", trigger: .action))
        #expect(d.codes == [.windowCap])
        #expect(h.retry(d) == RuleDuration(milliseconds: 1))
    }

    @Test func clockSetBackNeverGrantsAShow() throws {
        var h = try Harness("version: 1\nplacements:\n  a: {format: interstitial, min_interval: 10m, daily_cap: 1}\n", start: "2026-11-29T12:00:00Z")
        h.record(.appLaunched, .loadCompleted("a"), .showStarted("a"), .adClosed("a"), .loadCompleted("a"))
        h.now -= 86_400_000  // the device clock is set back a day
        let d = h.ask(.show("a", trigger: .action))
        #expect(d.codes == [.minInterval, .dailyCap], "the show from 'tomorrow' counts as now")
    }

    @Test func customRulesDenyAndFailClosed() throws {
        var h = try Harness("""
            version: 1
            timezone: UTC
            attributes:
              screen: string
              onboarding: {type: bool, default: false}
            placements:
              a: {format: interstitial, max_ad_age: 1d}
            rules:
              - id: no-checkout
                deny: [a]
                when: screen == "checkout" or onboarding
                message: Never interrupt checkout
              - id: quiet-hours
                deny: "*"
                when: now.hour >= 22 or now.hour < 7
            """, start: "2026-11-29T23:30:00Z")
        h.record(.appLaunched, .loadCompleted("a"))
        let night = h.ask(.show("a", trigger: .action), attributes: ["screen": .string("checkout")])
        #expect(night.codes == [.customRule, .customRule])
        #expect(night.reasons.map(\.rule) == ["no-checkout", "quiet-hours"])
        #expect(night.reasons[0].message.contains("Never interrupt checkout"))
        h.now += 8 * 3_600_000
        #expect(h.ask(.show("a", trigger: .action), attributes: ["screen": .string("home")]).isAllowed)
        let missing = h.ask(.show("a", trigger: .action))
        #expect(missing.codes == [.ruleError])
        #expect(missing.reasons[0].message.contains("screen"))
        #expect(h.ask(.load("a")).codes == [.alreadyLoaded], "rules apply to show and offer only")
        #expect(h.ask(.offer("a"), attributes: ["screen": .string("checkout")]).codes == [.customRule])
    }

    /// rules.md §5: a rule that reads an attribute the app did not supply (and that has no default) denies with
    /// `rule_error`, never skipped silently, whatever its other operands say: `a and b` and `b and a` decide alike.
    @Test func aMissingAttributeIsAnErrorInEveryOperandOrder() throws {
        var h = try Harness("""
            version: 1
            timezone: UTC
            attributes:
              a: bool
              b: bool
            placements:
              p1: {format: interstitial, max_ad_age: 1d}
              p2: {format: interstitial, max_ad_age: 1d}
            rules:
              - {id: r1, deny: [p1], when: a and b}
              - {id: r2, deny: [p2], when: b and a}
              - {id: r3, deny: [p1], when: a or b}
            """, start: "2026-11-29T12:00:00Z")
        h.record(.appLaunched, .loadCompleted("p1"), .loadCompleted("p2"))
        let p1 = h.ask(.show("p1", trigger: .action), attributes: ["a": .bool(false)])
        #expect(p1.codes == [.ruleError, .ruleError], "\(p1)")
        #expect(p1.reasons.map(\.rule) == ["r1", "r3"])
        #expect(h.ask(.show("p2", trigger: .action), attributes: ["a": .bool(false)]).codes == [.ruleError])
        // With a true, `a or b` still reads b: an error, not a custom_rule decided without it.
        #expect(h.ask(.show("p1", trigger: .action), attributes: ["a": .bool(true)]).codes == [.ruleError, .ruleError])
        #expect(h.ask(.show("p1", trigger: .action), attributes: ["a": .bool(true), "b": .bool(false)]).codes == [.customRule])
    }

    /// `now.hour` reads the zone offset cached with the facts' day only until the offset changes: on the day
    /// clocks go forward, 01:30 UTC is 03:30 in Berlin, not 02:30.
    @Test func nowHourFollowsADaylightSavingChangeWithinTheCachedDay() throws {
        var h = try Harness("""
            version: 1
            timezone: device
            placements:
              a: {format: interstitial, max_ad_age: 1d}
            rules:
              - id: not-at-three
                deny: [a]
                when: now.hour == 3
            """, start: "2026-03-29T00:30:00Z", zone: "Europe/Berlin")
        h.record(.appLaunched, .loadCompleted("a"))
        // The day is cached at 01:30 local (CET, UTC+1), before the change at 01:00 UTC.
        h.facts.prepareDay(at: h.now, policy: h.policy, deviceTimeZone: h.zone)
        #expect(h.ask(.show("a", trigger: .action)).isAllowed, "01:30 local")
        h.advance("1h")
        // 01:30 UTC is 03:30 CEST (UTC+2): the rule applies although the cached day began in CET.
        #expect(h.ask(.show("a", trigger: .action)).codes == [.customRule], "03:30 local")
        h.facts.prepareDay(at: h.now, policy: h.policy, deviceTimeZone: h.zone)
        #expect(h.ask(.show("a", trigger: .action)).codes == [.customRule], "03:30 local, day renewed")
        h.advance("1h")
        #expect(h.ask(.show("a", trigger: .action)).isAllowed, "04:30 local")
    }
}
