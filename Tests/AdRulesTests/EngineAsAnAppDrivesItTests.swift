import AdRules
import AdRulesCompiler
import AdRulesTestSupport
import Foundation
import Testing

/// The library as an app uses it, following the README: the engine driven with `beginLoad`, `beginShow`, `claimReward`
/// and its own `context`, a `FileLedgerStore`, remote updates and threads, against the scenario runner and the spec.
@Suite("The engine as an app drives it")
struct EngineAsAnAppDrivesItTests {
    static let policyText = """
        version: 1
        timezone: UTC
        fullscreen_timeout: 10m
        attributes:
          screen: string
          level: {type: int, default: 1}
        rules:
          - id: no-checkout
            deny: ["*"]
            when: screen == "checkout"
            message: Never interrupt checkout
          - id: not-before-level-3
            deny: [inter]
            when: level < 3
            message: Not before level 3
        placements:
          app_open: {format: app_open, min_interval: 4m, launch: {max_wait: 5s}, max_ad_age: 4h}
          inter: {format: interstitial, min_interval: 1m, daily_cap: 2, every_n_actions: 2}
          hint: {format: rewarded, hourly_cap: 3}
        groups:
          fullscreen:
            placements: [app_open, inter]
            hourly_cap: 3
        """

    static func start() -> Date { Timestamps.parse("2026-11-29T09:00:00Z")! }

    // MARK: - 1. The app's calls and the scenario runner

    /// One thing the app does, as the README writes it.
    enum AppStep {
        case event(AdEvent)
        case beginLoad(PlacementID)
        case beginShow(PlacementID, ShowTrigger)
        case claimReward(PlacementID)
        case ask(Ask)
        case premium(Bool)
        case screen(String)
    }

    /// Plays `steps` (each after `seconds` from the previous) through an engine as an app drives it, returning the
    /// decisions and the scenario file that records the same asks and events.
    static func playAsApp(_ steps: [(TimeInterval, AppStep)], policy: Policy, store: (any LedgerStore)?) -> (decisions: [Decision], scenario: String) {
        let clock = ManualClock(start())
        let engine = AdEngine(policy: policy, clock: clock, store: store)
        engine.context = AskContext(attributes: ["screen": "home", "level": 5])
        var decisions: [Decision] = []
        var lines: [String] = []
        func at() -> String { Timestamps.format(clock.now()) }
        func contextYAML() -> String {
            let c = engine.context
            var screen = "home"
            if case .string(let s)? = c.attributes["screen"] { screen = s }
            return "{premium: \(c.premium), attributes: {screen: \(screen), level: 5}}"
        }
        func event(_ e: AdEvent) -> String {
            var text = "{at: \(at()), event: \(e.name)"
            if let p = e.placement { text += ", placement: \(p)" }
            switch e {
            case .fullscreenOpened(let s?), .fullscreenClosed(let s?): text += ", source: \(s)"
            default: break
            }
            return text + "}"
        }
        func ask(_ a: Ask) -> String {
            var text = "{at: \(at()), ask: \(a.kind.rawValue), placement: \(a.placement)"
            if let t = a.trigger, a.kind == .show { text += ", trigger: \(t.rawValue)" }
            return text + ", context: \(contextYAML())}"
        }
        for (seconds, step) in steps {
            clock.advance(by: seconds)
            switch step {
            case .event(let e):
                engine.record(e)
                lines.append(event(e))
            case .beginLoad(let p):
                let d = engine.beginLoad(p)
                decisions.append(d)
                lines.append(ask(.load(p)))
                if d.isAllowed { lines.append(event(.loadStarted(p))) }
            case .beginShow(let p, let t):
                let d = engine.beginShow(p, trigger: t)
                decisions.append(d)
                lines.append(ask(.show(p, trigger: t)))
                if d.isAllowed { lines.append(event(.showStarted(p))) }
            case .claimReward(let p):
                let d = engine.claimReward(p)
                decisions.append(d)
                lines.append(ask(.reward(p)))
                if d.isAllowed { lines.append(event(.rewardGranted(p))) }
            case .ask(let a):
                decisions.append(engine.ask(a))
                lines.append(ask(a))
            case .premium(let premium):
                engine.updateContext { $0.premium = premium }
            case .screen(let screen):
                engine.updateContext { $0.attributes["screen"] = .string(screen) }
            }
        }
        let scenario = """
            tests:
              - name: as the app played it
                start: \(Timestamps.format(start()))
                steps:
            \(lines.map { "      - " + $0 }.joined(separator: "\n"))

            """
        return (decisions, scenario)
    }

    /// The decisions of the scenario runner (what `adrules test` and `simulate` run) for a scenario file.
    static func scenarioDecisions(_ scenario: String, policy: Policy) throws -> [Decision] {
        let (decoded, diagnostics) = ScenarioDecoder.decode(Array(scenario.utf8), file: "app.test.yaml", policy: policy)
        #expect(diagnostics.allSatisfy { $0.rule == "scenario/unknown-placement" }, "\(diagnostics)")
        let test = try #require(decoded.tests.first)
        return ScenarioRunner.run(test, policy: policy).steps.compactMap(\.decision)
    }

    /// A day of an app: cold start, interstitials with actions, a rewarded offer, choice, show and reward, a return
    /// from background, a premium purchase, a checkout screen, another SDK's ad whose close is lost, a new day.
    static let appDay: [(TimeInterval, AppStep)] = [
        (0, .event(.appLaunched)),
        (0, .beginLoad("app_open")),
        (0, .beginLoad("app_open")),  // already_loading
        (2, .event(.loadCompleted("app_open"))),
        (0, .beginShow("app_open", .loadCompleted)),
        (0, .beginShow("app_open", .loadCompleted)),  // already_showing, ad_not_ready, min_interval...
        (5, .event(.adClosed("app_open"))),
        (0, .beginLoad("inter")),
        (1, .event(.loadCompleted("inter"))),
        (10, .event(.action("inter"))),
        (0, .beginShow("inter", .action)),  // every_n_actions
        (10, .event(.action("inter"))),
        (0, .beginShow("inter", .action)),  // allowed
        (3, .event(.adClosed("inter"))),
        (0, .beginLoad("inter")),
        (2, .event(.loadCompleted("inter"))),
        (1, .event(.action("inter"))),
        (0, .event(.action("inter"))),
        (0, .beginShow("inter", .action)),  // min_interval
        (0, .ask(.offer("hint"))),  // ad_not_ready
        (0, .beginLoad("hint")),
        (3, .event(.loadCompleted("hint"))),
        (0, .ask(.offer("hint"))),
        (0, .beginShow("hint", .action)),  // no_user_choice
        (0, .event(.userChose("hint"))),
        (0, .beginShow("hint", .action)),
        (0, .claimReward("hint")),  // reward_not_earned
        (20, .event(.rewardEarned("hint"))),
        (0, .claimReward("hint")),
        (0, .claimReward("hint")),  // reward_already_granted
        (1, .event(.adClosed("hint"))),
        (60, .event(.appBackgrounded)),
        (600, .event(.appResumed)),
        (1, .beginShow("app_open", .resume)),  // ad_not_ready (no load since)
        (0, .beginLoad("app_open")),
        (2, .event(.loadCompleted("app_open"))),
        (0, .beginShow("app_open", .loadCompleted)),  // deferred_show
        (60, .event(.action("inter"))),
        (0, .beginShow("inter", .action)),
        (0, .screen("checkout")),
        (0, .ask(.offer("hint"))),
        (0, .ask(.show("inter", trigger: .action))),
        (0, .screen("home")),
        (0, .premium(true)),
        (0, .beginLoad("inter")),
        (0, .ask(.offer("hint"))),
        (0, .premium(false)),
        (0, .event(.fullscreenOpened(source: "mediation"))),
        (60, .beginLoad("inter")),  // fullscreen_active
        (700, .beginLoad("inter")),  // the external ad treated as closed: a note
        (0, .ask(.show("app_open", trigger: .resume))),
        (1, .event(.loadCompleted("inter"))),
        (0, .event(.action("inter"))),
        (0, .event(.action("inter"))),
        (0, .beginShow("inter", .action)),  // daily_cap (2 shows today), hourly group cap?
        (15 * 3600, .event(.appLaunched)),  // the next day
        (0, .beginLoad("inter")),
        (1, .event(.loadCompleted("inter"))),
        (0, .event(.action("inter"))),
        (0, .event(.action("inter"))),
        (0, .beginShow("inter", .action)),
        (0, .ask(.show("nope", trigger: .action))),
        (0, .ask(.reward("inter"))),
    ]

    /// Plays `steps` as an app calls the engine, with a file ledger in a folder named `folder`, and the same steps as a
    /// scenario through the runner: the two decide alike, every decision whole (reasons, messages, locations, times,
    /// notes) and as one line. Returns the app's decisions.
    static func decideAlike(_ steps: [(TimeInterval, AppStep)], folder: String) throws -> [Decision] {
        let policy = try Policy(yaml: policyText, file: "rules/app.yaml")
        let store = FileLedgerStore(path: scratchPath(folder) + "/ledger.json")
        let (app, scenario) = playAsApp(steps, policy: policy, store: store)
        let runner = try scenarioDecisions(scenario, policy: policy)
        #expect(app.count == runner.count)
        for (index, (a, r)) in zip(app, runner).enumerated() {
            #expect(a == r, "ask \(index):\n app:    \(a)\n runner: \(r)")
            #expect(a.description == r.description)
        }
        return app
    }

    @Test func theAppsCallsDecideAsTheScenarioRunnerDoes() throws {
        let app = try Self.decideAlike(Self.appDay, folder: "ledger")
        // The sequence reached the reasons it was written for.
        let codes = Set(app.flatMap(\.codes))
        for code: ReasonCode in [.alreadyLoading, .alreadyShowing, .everyNActions, .minInterval, .noUserChoice, .rewardNotEarned,
            .rewardAlreadyGranted, .adNotReady, .deferredShow, .customRule, .premiumUser, .fullscreenActive, .dailyCap, .unknownPlacement]
        {
            #expect(codes.contains(code), "\(code) never came up")
        }
        #expect(app.contains { !$0.notes.isEmpty }, "the fullscreen_timeout note")
        // A decision survives a JSON round trip whole.
        for d in app {
            let back = try JSONDecoder().decode(Decision.self, from: try JSONEncoder().encode(d))
            #expect(back == d)
            #expect(back.description == d.description)
        }
    }

    /// Returns from background, timed-out and failed loads, failed shows, a clock set back and another SDK's ad.
    static let appReturns: [(TimeInterval, AppStep)] = [
        (0, .event(.appLaunched)),
        (0, .beginLoad("app_open")),
        (61, .beginLoad("app_open")),  // the first load timed out: a load_failed, the launch phase closed
        (1, .event(.loadCompleted("app_open"))),
        (0, .beginShow("app_open", .loadCompleted)),  // deferred_show
        (30, .event(.appBackgrounded)),
        (5, .event(.appResumed)),
        (3, .beginShow("app_open", .resume)),  // allowed at exactly max_delay
        (0, .event(.showFailed("app_open"))),  // taken back
        (0, .beginShow("app_open", .resume)),  // the window closed after the failure: deferred_show, ad_not_ready
        (0, .beginLoad("app_open")),
        (2, .event(.loadFailed("app_open"))),
        (0, .beginLoad("app_open")),
        (1, .event(.loadCompleted("app_open"))),
        (0, .event(.appBackgrounded)),
        (31 * 60, .event(.appResumed)),  // a new session
        (1, .event(.fullscreenOpened(source: "house"))),
        (0, .beginShow("app_open", .resume)),  // fullscreen_active
        (0, .event(.fullscreenClosed(source: nil))),
        (0, .beginShow("app_open", .resume)),  // allowed
        (5, .event(.adClosed("app_open"))),
        (-3600, .ask(.show("app_open", trigger: .resume))),  // the clock set back an hour: pinned
        (0, .beginLoad("inter")),
        (1, .event(.loadCompleted("inter"))),
        (0, .event(.action("inter"))),
        (0, .event(.action("inter"))),
        (0, .beginShow("inter", .action)),
        (0, .event(.showFailed("inter"))),
        (0, .ask(.show("inter", trigger: .action))),  // ad_not_ready only: actions and caps given back
        (59, .ask(.load("inter"))),
        (0, .event(.userChose("hint"))),
        (0, .event(.appLaunched)),
        (0, .ask(.offer("hint"))),
        (0, .beginShow("hint", .action)),  // the choice was cleared by the launch
    ]

    @Test func returnsFailuresAndAClockSetBackDecideAsTheScenarioRunnerDoes() throws {
        let app = try Self.decideAlike(Self.appReturns, folder: "returns")
        #expect(app[2].codes == [.deferredShow] && app[3].isAllowed && app[4].codes == [.deferredShow, .adNotReady])
    }

    // MARK: - 2. Persistence

    static let persistText = """
        version: 1
        timezone: UTC
        placements:
          inter: {format: interstitial, min_interval: 1m, daily_cap: 2, session_cap: 5}
          banner: {format: banner, hourly_cap: 10}
          gate: {format: interstitial, grace: {first_sessions: 2, after_install: 1d}}
        """

    /// An engine as the README builds one (clock, file store, a problem handler that records), launched.
    static func coldStart(_ policy: Policy, _ clock: ManualClock, _ path: String, problems: AppendedTexts? = nil) -> AdEngine {
        let engine = AdEngine(
            policy: policy, clock: clock, store: FileLedgerStore(url: URL(fileURLWithPath: path)),
            onLedgerProblem: { problem in problems?.append("\(problem)") })
        engine.record(.appLaunched)
        return engine
    }

    /// Shows `placement` once at the clock's time as the demo does (load, then beginShow, then close).
    static func showOnce(_ engine: AdEngine, _ placement: PlacementID) -> Decision {
        engine.record(.loadCompleted(placement))
        let d = engine.beginShow(placement, trigger: .action)
        if d.isAllowed { engine.record(.adClosed(placement)) }
        return d
    }

    /// ledger.md "What is kept": install time, session count and shows survive a cold start; actions and rewards do not.
    @Test func aColdStartKeepsWhatTheLedgerSaysItKeeps() throws {
        let policy = try Policy(yaml: Self.persistText)
        // A folder that does not exist yet, with a space as in Application Support, given as a URL as the README does.
        let path = URL(fileURLWithPath: scratchPath("cold") + "/Library/Application Support").appending(path: "ad-ledger.json").path
        let clock = ManualClock(Self.start())
        let first = Self.coldStart(policy, clock, path)
        #expect(FileManager.default.fileExists(atPath: path), "a fresh install writes its ledger once")
        #expect(Self.showOnce(first, "inter").isAllowed)
        clock.advance(by: 120)
        #expect(Self.showOnce(first, "inter").isAllowed)
        clock.advance(by: 120)
        #expect(Self.showOnce(first, "inter").codes == [.dailyCap])
        #expect(Self.showOnce(first, "gate").codes == [.graceSessions, .graceInstall])
        first.record(.action("inter"))
        // The app is killed; the next launch a minute later.
        clock.advance(by: 60)
        let second = Self.coldStart(policy, clock, path)
        #expect(second.currentFacts.sessionCount == 2)
        #expect(second.currentFacts.installedAt == Int64(Self.start().timeIntervalSince1970 * 1000))
        let capped = Self.showOnce(second, "inter")
        #expect(capped.codes == [.dailyCap], "daily cap across a restart")
        #expect(capped.nextAllowedAt == Timestamps.parse("2026-11-30T00:00:00Z"))
        #expect(Self.showOnce(second, "gate").codes == [.graceSessions, .graceInstall])
        // The next day, third session: grace_sessions over, grace_install (1d) over 24h after install.
        clock.set(Timestamps.parse("2026-11-30T09:00:00Z")!)
        let third = Self.coldStart(policy, clock, path)
        #expect(third.currentFacts.sessionCount == 3)
        #expect(Self.showOnce(third, "inter").isAllowed)
        #expect(Self.showOnce(third, "gate").isAllowed)
        #expect(third.showHistory["inter"]?.count == 3)
    }

    /// A daily cap across a restart counts the days of the zone the device is in at that start (`timezone: device`).
    @Test func aDailyCapAcrossARestartFollowsTheDevicesZone() throws {
        let policy = try Policy(yaml: Self.persistText.replacingOccurrences(of: "timezone: UTC", with: "timezone: device"))
        // 14:00Z is 23:00 on the 29th in Tokyo, 15:00 in London (UTC in winter).
        let clock = ManualClock(Timestamps.parse("2026-11-29T14:00:00Z")!)
        let path = scratchPath("zone") + "/ledger.json"
        func start(_ zone: String) -> AdEngine {
            let engine = AdEngine(policy: policy, clock: clock, store: FileLedgerStore(path: path), deviceTimeZone: TimeZone(identifier: zone)!)
            engine.record(.appLaunched)
            return engine
        }
        let tokyo = start("Asia/Tokyo")
        #expect(Self.showOnce(tokyo, "inter").isAllowed)
        clock.advance(by: 120)
        #expect(Self.showOnce(tokyo, "inter").isAllowed)
        clock.advance(by: 3600)  // 00:02 on the 30th in Tokyo
        let stillTokyo = start("Asia/Tokyo")
        stillTokyo.record(.loadCompleted("inter"))
        #expect(stillTokyo.ask(.show("inter", trigger: .action)).isAllowed, "a new day in Tokyo")
        let london = start("Europe/London")
        london.record(.loadCompleted("inter"))
        let d = london.ask(.show("inter", trigger: .action))
        #expect(d.codes == [.dailyCap] && d.nextAllowedAt == Timestamps.parse("2026-11-30T00:00:00Z"), "the same day in London: \(d)")
    }

    /// README: `installedAt:` and `sessionsBefore:` are used only when the ledger starts fresh.
    @Test func installedAtAndSessionsBeforeOnlyForAFreshLedger() throws {
        let policy = try Policy(yaml: Self.persistText)
        let path = scratchPath("fresh") + "/ledger.json"
        let clock = ManualClock(Self.start())
        let installed = Timestamps.parse("2026-01-01T00:00:00Z")!
        let first = AdEngine(policy: policy, clock: clock, store: FileLedgerStore(path: path), installedAt: installed, sessionsBefore: 7)
        first.record(.appLaunched)
        #expect(first.currentFacts.sessionCount == 8)
        #expect(Self.showOnce(first, "gate").isAllowed)
        let second = AdEngine(policy: policy, clock: clock, store: FileLedgerStore(path: path), installedAt: nil, sessionsBefore: 0)
        second.record(.appLaunched)
        #expect(second.currentFacts.sessionCount == 9)
        #expect(second.currentFacts.installedAt == Int64(installed.timeIntervalSince1970 * 1000))
    }

    /// ledger.md: shows of a placement the policy lacks are set aside, and a policy that has it again counts them; a
    /// changed cap reads the same shows.
    @Test func aLedgerReadByAChangedPolicy() throws {
        let old = try Policy(yaml: Self.persistText)
        let path = scratchPath("changed") + "/ledger.json"
        let clock = ManualClock(Self.start())
        let first = Self.coldStart(old, clock, path)
        #expect(Self.showOnce(first, "inter").isAllowed)
        clock.advance(by: 120)
        #expect(Self.showOnce(first, "banner").isAllowed)
        // The next start runs a policy without inter (renamed to level_end) and a lower banner cap.
        let renamed = try Policy(yaml: """
            version: 1
            timezone: UTC
            placements:
              level_end: {format: interstitial, min_interval: 1m, daily_cap: 2}
              banner: {format: banner, hourly_cap: 1}
            """)
        clock.advance(by: 60)
        let second = Self.coldStart(renamed, clock, path)
        #expect(Self.showOnce(second, "level_end").isAllowed, "a renamed placement starts over")
        let banner = Self.showOnce(second, "banner")
        #expect(banner.codes == [.hourlyCap], "the lower cap reads the kept show")
        #expect(banner.nextAllowedAt == Self.start().addingTimeInterval(120 + 3600))
        #expect(Self.showOnce(second, "inter").codes == [.unknownPlacement])
        // A third start with the old policy again: inter's show came back (1 of 2 today, plus min_interval passed).
        clock.advance(by: 60)
        let third = Self.coldStart(old, clock, path)
        #expect(third.showHistory["inter"]?.count == 1, "the set-aside show is counted again")
        #expect(Self.showOnce(third, "inter").isAllowed)
        clock.advance(by: 120)
        #expect(Self.showOnce(third, "inter").codes == [.dailyCap])
    }

    /// rules.md §8: a clock set back between runs pins the ledger's later times at start-up, and the ledger sees the
    /// pinned times (an app killed again starts from them).
    @Test func aClockSetBackBetweenRunsIsPinnedInTheLedger() throws {
        let policy = try Policy(yaml: Self.persistText)
        let path = scratchPath("pinned") + "/ledger.json"
        let clock = ManualClock(Timestamps.parse("2026-11-29T12:00:00Z")!)
        let first = Self.coldStart(policy, clock, path)
        #expect(Self.showOnce(first, "inter").isAllowed)
        // The user sets the clock back two hours and relaunches.
        clock.set(Timestamps.parse("2026-11-29T10:00:00Z")!)
        let second = AdEngine(policy: policy, clock: clock, store: FileLedgerStore(path: path))
        let d = second.ask(.show("inter", trigger: .action))
        #expect(d.codes == [.adNotReady, .minInterval])
        #expect(d.reasons.last?.clearsAt == Timestamps.parse("2026-11-29T10:01:00Z"), "pinned to now, so the interval runs from now")
        #expect(d.nextAllowedAt == nil, "ad_not_ready is not time-based")
        // The file holds the pinned times after that first ask.
        let snapshot = try #require(try FileLedgerStore(path: path).load())
        #expect(snapshot.shows["inter"]?.map(\.at) == [Int64(Timestamps.parse("2026-11-29T10:00:00Z")!.timeIntervalSince1970 * 1000)])
        #expect(snapshot.installedAt == Int64(Timestamps.parse("2026-11-29T10:00:00Z")!.timeIntervalSince1970 * 1000))
        // Killed at once; a third start a minute later: the next_allowed_at given came true.
        clock.advance(by: 60)
        let third = Self.coldStart(policy, clock, path)
        third.record(.loadCompleted("inter"))
        #expect(third.ask(.show("inter", trigger: .action)).isAllowed)
    }

    // MARK: - 3. update(policy:)

    static let updateText = """
        version: 1
        timezone: UTC
        attributes:
          screen: string
        rules:
          - {id: no-checkout, deny: ["*"], when: screen == "checkout"}
        placements:
          app_open: {format: app_open, launch: {max_wait: 5s}}
          inter: {format: interstitial, daily_cap: 3, every_n_actions: 2}
          hint: {format: rewarded}
          other: {format: interstitial}
        """

    /// README: "For each placement id both policies have, the update keeps its shows, its load, its cached ad and its
    /// ad on screen." An app also expects an update mid-flow to change nothing else it started.
    @Test func anUpdateKeepsWhatIsInFlight() throws {
        let before = try Policy(yaml: Self.updateText)
        // The same placements, reordered, with a lower cap.
        let after = try Policy(yaml: """
            version: 1
            timezone: UTC
            attributes:
              screen: string
            rules:
              - {id: no-checkout, deny: ["*"], when: screen == "checkout"}
            placements:
              other: {format: interstitial}
              hint: {format: rewarded}
              inter: {format: interstitial, daily_cap: 2, every_n_actions: 2}
              app_open: {format: app_open, launch: {max_wait: 5s}}
            """)
        let clock = ManualClock(Self.start())
        let engine = AdEngine(policy: before, clock: clock)
        engine.context = AskContext(attributes: ["screen": "home"])
        engine.record(.appLaunched)
        #expect(engine.beginLoad("app_open").isAllowed)
        #expect(engine.beginLoad("inter").isAllowed)
        engine.update(policy: after)
        #expect(engine.beginLoad("inter").codes == [.alreadyLoading], "a load in flight is kept")
        clock.advance(by: 2)
        engine.record(.loadCompleted("app_open"))
        engine.record(.loadCompleted("inter"))
        #expect(engine.beginShow("app_open", trigger: .loadCompleted).isAllowed, "the launch phase is kept")
        #expect(engine.ask(.show("inter", trigger: .action)).codes == [.fullscreenActive, .everyNActions], "the ad on screen is kept")
        engine.record(.adClosed("app_open"))
        // Actions, a pending choice and an earned reward are kept across an update too.
        engine.record(.action("inter"))
        engine.update(policy: before)
        engine.record(.action("inter"))
        #expect(engine.beginShow("inter", trigger: .action).isAllowed, "two actions, one on each side of the update")
        engine.record(.adClosed("inter"))
        engine.record(.loadCompleted("hint"))
        engine.record(.userChose("hint"))
        engine.update(policy: after)
        #expect(engine.beginShow("hint", trigger: .action).isAllowed, "the choice is kept")
        engine.record(.rewardEarned("hint"))
        engine.update(policy: before)
        #expect(engine.claimReward("hint").isAllowed, "the reward earned is kept")
        // A show in progress across an update is still taken back by its show_failed.
        engine.record(.adClosed("hint"))
        engine.record(.loadCompleted("inter"))
        engine.record(.action("inter"))
        engine.record(.action("inter"))
        #expect(engine.beginShow("inter", trigger: .action).isAllowed)
        #expect(engine.showHistory["inter"]?.count == 2)
        engine.update(policy: after)
        engine.record(.showFailed("inter"))
        #expect(engine.showHistory["inter"]?.count == 1, "the show in progress is taken back")
        engine.record(.loadCompleted("inter"))
        #expect(engine.ask(.show("inter", trigger: .action)).isAllowed, "its actions are given back")
        // The engine's context is prepared for the policy in force: its rule still reads the screen.
        engine.updateContext { $0.attributes["screen"] = "checkout" }
        engine.update(policy: after)
        #expect(engine.ask(.offer("hint")).codes.contains(.customRule))
        engine.updateContext { $0.attributes["screen"] = "home" }
        #expect(!engine.ask(.offer("hint")).codes.contains(.customRule))
    }

    /// The lower cap of the new policy reads the shows the old one counted, and a daily cap follows a new time zone.
    @Test func anUpdateAppliesNewCapsToKeptShowsAndANewZone() throws {
        let utc = try Policy(yaml: Self.updateText)
        let tokyo = try Policy(yaml: Self.updateText.replacingOccurrences(of: "timezone: UTC", with: "timezone: Asia/Tokyo"))
        // 14:00Z is 23:00 in Tokyo on the 29th; 16:00Z is 01:00 on the 30th.
        let clock = ManualClock(Timestamps.parse("2026-11-29T14:00:00Z")!)
        let engine = AdEngine(policy: utc, clock: clock)
        engine.context = AskContext(attributes: ["screen": "home"])
        engine.record(.appLaunched)
        for _ in 0..<2 {
            engine.record(.loadCompleted("inter"))
            engine.record(.action("inter"))
            engine.record(.action("inter"))
            #expect(engine.beginShow("inter", trigger: .action).isAllowed)
            engine.record(.adClosed("inter"))
        }
        clock.set(Timestamps.parse("2026-11-29T16:00:00Z")!)
        engine.record(.loadCompleted("inter"))
        engine.record(.action("inter"))
        engine.record(.action("inter"))
        #expect(engine.beginShow("inter", trigger: .action).isAllowed)
        engine.record(.adClosed("inter"))
        engine.record(.loadCompleted("inter"))
        engine.record(.action("inter"))
        engine.record(.action("inter"))
        #expect(engine.ask(.show("inter", trigger: .action)).codes == [.dailyCap], "3 shows on the 29th in UTC")
        engine.update(policy: tokyo)
        #expect(engine.ask(.show("inter", trigger: .action)).isAllowed, "1 show on the 30th in Tokyo")
        engine.update(policy: utc)
        #expect(engine.ask(.show("inter", trigger: .action)).codes == [.dailyCap])
    }

    /// README: "A placement the new policy drops has its shows set aside (a later policy that has it again gets them
    /// back) and the rest cleared: while its ad is on screen, the others are no longer denied fullscreen_active for it."
    @Test func anUpdateThatDropsAPlacementSetsItsShowsAside() throws {
        let before = try Policy(yaml: Self.updateText)
        let without = try Policy(yaml: Self.updateText.replacingOccurrences(of: "  inter: {format: interstitial, daily_cap: 3, every_n_actions: 2}\n", with: ""))
        #expect(without.placementID("inter") == nil)
        let engine = AdEngine(policy: before, clock: ManualClock(Self.start()))
        engine.context = AskContext(attributes: ["screen": "home"])
        engine.record(.appLaunched)
        for _ in 0..<3 {
            engine.record(.loadCompleted("inter"))
            engine.record(.action("inter"))
            engine.record(.action("inter"))
            #expect(engine.beginShow("inter", trigger: .action).isAllowed)
            engine.record(.adClosed("inter"))
        }
        engine.record(.loadCompleted("inter"))
        engine.record(.showStarted("inter"))
        engine.record(.loadCompleted("other"))
        #expect(engine.ask(.show("other", trigger: .action)).codes == [.fullscreenActive])
        engine.update(policy: without)
        #expect(engine.ask(.show("other", trigger: .action)).isAllowed)
        #expect(engine.ask(.show("inter", trigger: .action)).codes == [.unknownPlacement])
        engine.update(policy: before)
        engine.record(.loadCompleted("inter"))
        let d = engine.ask(.show("inter", trigger: .action))
        #expect(d.codes.contains(.dailyCap), "the set-aside shows count again: \(d)")
    }

    // MARK: - 4. Threads

    static let threadText = """
        version: 1
        timezone: UTC
        attributes:
          screen: {type: string, default: home}
        rules:
          - {id: no-checkout, deny: ["*"], when: screen == "checkout"}
        placements:
          inter: {format: interstitial, daily_cap: 40, block_during_fullscreen: false}
          other: {format: interstitial, block_during_fullscreen: false}
          hint: {format: rewarded, block_during_fullscreen: false, session_cap: 1000}
        groups:
          all:
            placements: [inter, other]
            hourly_cap: 60
        """

    /// README: "The engine is synchronous and thread-safe". Many threads load, show, close, reward, set the context
    /// and update the policy of one engine at once: no crash, no cap passed, every show allowed is in the ledger, and
    /// each show's reward is granted at most once.
    @Test func oneEngineHammeredFromManyThreadsKeepsItsCaps() throws {
        let policy = try Policy(yaml: Self.threadText)
        // The same rules with the placements in another order and one more: typed ids keep slots of the first.
        let same = try Policy(yaml: Self.threadText.replacingOccurrences(
            of: "  inter: {format: interstitial, daily_cap: 40, block_during_fullscreen: false}\n  other: {format: interstitial, block_during_fullscreen: false}\n",
            with: "  extra: {format: banner}\n  other: {format: interstitial, block_during_fullscreen: false}\n  inter: {format: interstitial, daily_cap: 40, block_during_fullscreen: false}\n"))
        #expect(same.placementID("inter")?.slot == 2)
        let path = scratchPath("threads") + "/ledger.json"
        let clock = ManualClock(Self.start())
        let problems = AppendedTexts()
        let engine = AdEngine(policy: policy, clock: clock, store: FileLedgerStore(path: path), onLedgerProblem: { problems.append("\($0)") })
        engine.record(.appLaunched)
        let allowed = AppendedTexts()
        let placements: [PlacementID] = [try #require(policy.placementID("inter")), try #require(policy.placementID("other"))]
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<1000 {
                let placement = placements[(worker + round) % 2]
                switch round % 10 {
                case 0: engine.updateContext { $0.premium = false }
                case 1: engine.context = AskContext(attributes: ["screen": "home"])
                case 2: if worker == 0 { engine.update(policy: round % 20 == 2 ? same : policy) }
                case 3: clock.advance(by: 1)
                case 4:
                    engine.record(.loadCompleted("hint"))
                    engine.record(.userChose("hint"))
                    if engine.beginShow("hint", trigger: .action).isAllowed {
                        engine.record(.rewardEarned("hint"))
                        if engine.claimReward("hint").isAllowed { allowed.append("reward") }
                        if engine.claimReward("hint").isAllowed { allowed.append("reward") }
                        engine.record(.adClosed("hint"))
                        allowed.append("hint")
                    }
                default: break
                }
                _ = engine.beginLoad(placement)
                engine.record(.loadCompleted(placement))
                _ = engine.ask(.show(placement, trigger: .action))
                if engine.beginShow(placement, trigger: .action).isAllowed {
                    allowed.append(placement.rawValue)
                    engine.record(.adClosed(placement))
                }
            }
        }
        let all = allowed.all
        let inter = all.filter { $0 == "inter" }.count
        let other = all.filter { $0 == "other" }.count
        let hints = all.filter { $0 == "hint" }.count
        let rewards = all.filter { $0 == "reward" }.count
        #expect(inter <= 40, "daily_cap 40: \(inter) shows allowed")
        #expect(inter + other <= 60, "group hourly_cap 60: \(inter + other)")
        #expect(inter + other == 60 || inter == 40, "the caps were reached: \(inter), \(other)")
        #expect(rewards <= hints, "one reward a show: \(rewards) rewards for \(hints) shows")
        #expect(problems.all.isEmpty, "\(problems.all)")
        // The ledger holds every show allowed (the last snapshot written wins, and it is the newest).
        let history = engine.showHistory
        #expect(history["inter"]?.count == inter && history["other"]?.count == other && history["hint"]?.count == hints)
        let snapshot = try #require(try FileLedgerStore(path: path).load())
        #expect(snapshot.shows["inter"]?.count == inter, "the file: \(snapshot.shows["inter"]?.count ?? 0) of \(inter)")
        #expect(snapshot.shows["other"]?.count == other)
        #expect(snapshot.shows["hint"]?.count == hints)
    }

    /// ledger.md "Two processes on one file": two engines (an app and its extension) writing one ledger from many threads
    /// while a reader loads it: a reader never sees a torn or invalid file, and the last snapshot written wins whole.
    @Test func twoEnginesOnOneFileNeverTearIt() throws {
        let policy = try Policy(yaml: Self.persistText)
        let path = scratchPath("shared") + "/ledger.json"
        let clock = ManualClock(Self.start())
        let app = Self.coldStart(policy, clock, path)
        let widget = Self.coldStart(policy, clock, path)
        let failures = AppendedTexts()
        DispatchQueue.concurrentPerform(iterations: 5) { worker in
            if worker == 4 {
                for _ in 0..<300 {
                    do { if try FileLedgerStore(path: path).load() == nil { failures.append("no file") } } catch { failures.append("\(error)") }
                }
                return
            }
            let engine = worker % 2 == 0 ? app : widget
            for _ in 0..<40 {
                engine.record(.loadCompleted("banner"))
                if engine.beginShow("banner", trigger: .action).isAllowed { engine.record(.adClosed("banner")) }
                clock.advance(by: 0.5)
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all.prefix(3))")
        let last = try #require(try FileLedgerStore(path: path).load())
        let shown = [app.showHistory["banner"]?.count ?? 0, widget.showHistory["banner"]?.count ?? 0]
        #expect(shown.contains(last.shows["banner"]?.count ?? -1), "one engine's whole snapshot: \(shown) vs \(last.shows["banner"]?.count ?? -1)")
    }

    // MARK: - 5. What an app developer meets

    /// A bad download throws a `CompiledPolicyError` whose `kind` says what to do (README "Updating policies remotely").
    @Test func badCompiledDocumentsThrowWithAKind() throws {
        let good = try Policy(yaml: Self.updateText).compiledDocument(relativePath: { $0 }, sourceDigest: "sha256:0", generator: "test")
        func error(_ data: Data) -> CompiledPolicyError? {
            do { _ = try Policy(compiled: data); return nil } catch let e as CompiledPolicyError { return e } catch { return nil }
        }
        #expect(error(good) == nil)
        let truncated = try #require(error(good.prefix(good.count / 2)))
        #expect(truncated.kind == .invalid)
        #expect(truncated.localizedDescription.hasPrefix("invalid compiled policy: "))
        #expect(try #require(error(Data())).kind == .invalid)
        #expect(try #require(error(Data("[]".utf8))).kind == .invalid)
        let text = String(decoding: good, as: UTF8.self)
        let version2 = try #require(error(Data(text.replacingOccurrences(of: "\"version\":1", with: "\"version\":2").utf8)))
        #expect(version2.kind == .unsupported, "\(version2)")
        let newKey = try #require(error(Data(text.replacingOccurrences(of: "\"format\":\"adrules-compiled-policy\"", with: "\"format\":\"adrules-compiled-policy\",\"zz_new\":1").utf8)))
        #expect(newKey.kind == .unsupported, "\(newKey)")
        let zone = try #require(error(Data(text.replacingOccurrences(of: "\"timezone\":\"UTC\"", with: "\"timezone\":\"Mars/Olympus\"").utf8)))
        #expect(zone.kind == .unknownTimeZone, "\(zone)")
    }

    /// What an app logs of its asks, contexts and events reads as rule files and scenario files spell them, on one line:
    /// not the structs' fields (an ask printed its private slot, a context its prepared slots).
    @Test func asksContextsAndEventsDescribeThemselvesAsFilesSpellThem() throws {
        #expect(Ask.show("app_open", trigger: .loadCompleted).description == "show app_open (load_completed)")
        #expect("\(Ask.offer("rewarded_hint"))" == "offer rewarded_hint")
        #expect(Ask(.load, placement: "bad\nid").description == "load bad\\nid")
        #expect(AskContext.standard.description == "standard")
        let context = AskContext(premium: true, attributes: ["screen": .string("shop"), "level": .int(3), "tags": .stringList(["a"])])
        #expect(context.description == "premium, level=3, screen=\"shop\", tags=[\"a\"]")
        let policy = try Policy(yaml: Self.persistText, file: "rules/p.yaml")
        #expect(policy.prepared(context).description == context.description)
        #expect(AdEvent.loadCompleted("app_open").description == "load_completed app_open")
        #expect(AdEvent.appLaunched.description == "app_launched")
        #expect("\([AdEvent.fullscreenOpened(source: "sdk"), .fullscreenClosed(source: nil)])" == "[fullscreen_opened source: sdk, fullscreen_closed]")
    }

    /// `Decision.description` is one line with the reasons, their clear times and locations, and the notes.
    @Test func decisionsDescribeThemselvesOnOneLine() throws {
        let policy = try Policy(yaml: Self.persistText, file: "rules/p.yaml")
        let engine = AdEngine(policy: policy, clock: ManualClock(Self.start()))
        engine.record(.appLaunched)
        #expect(Self.showOnce(engine, "inter").description == "allow show inter (action)")
        let d = engine.ask(.show("inter", trigger: .action))
        #expect(d.description.hasPrefix("deny show inter (action): ad_not_ready: "), "\(d)")
        #expect(d.description.contains("min_interval"))
        #expect(d.description.contains("next at 2026-11-29T09:01:00Z [rules/p.yaml:4:"), "\(d)")
        #expect(!d.description.contains("\n"))
        let unknown = engine.ask(.load("nope"))
        #expect(unknown.codes == [.unknownPlacement])
        #expect(unknown.reasons[0].location == nil && unknown.reasons[0].clearsAt == nil)
        #expect(unknown.description.hasPrefix("deny load nope: unknown_placement"), "\(unknown)")
        #expect(unknown.nextAllowedAt == nil)
        // Every kind of ask about an unknown placement gives that one reason, and events about it are ignored.
        engine.record(.showStarted("nope"))
        for ask: Ask in [.show("nope", trigger: .action), .offer("nope"), .reward("nope"), .load("nope")] {
            #expect(engine.ask(ask).codes == [.unknownPlacement])
        }
        #expect(engine.showHistory["nope"] == nil)
        // JSON: the keys the README table lists.
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(d)) as? [String: Any])
        #expect(Set(json.keys) == ["verdict", "ask", "placement", "trigger", "reasons", "next_allowed_at", "notes"])
        let reason = try #require((json["reasons"] as? [[String: Any]])?.first)
        #expect(Set(reason.keys) == ["code", "message", "file", "line", "column", "clears_at"])
    }

    /// A string literal, `PlacementID(name)`, `policy.placementID(name)` and a slot from another policy all decide alike.
    @Test func everySpellingOfAPlacementIDDecidesAlike() throws {
        let policy = try Policy(yaml: Self.persistText)
        let resolved = try #require(policy.placementID("banner"))
        #expect(resolved.slot == 1)
        let wrongSlot = PlacementID(rawValue: "banner", slot: 0)
        let farSlot = PlacementID(rawValue: "banner", slot: 99)
        let engine = AdEngine(policy: policy, clock: ManualClock(Self.start()))
        engine.record(.appLaunched)
        engine.record(.loadCompleted(wrongSlot))
        #expect(engine.beginShow(farSlot, trigger: .action).isAllowed)
        engine.record(.adClosed(resolved))
        for id in ["banner", PlacementID("banner"), resolved, wrongSlot, farSlot] as [PlacementID] {
            #expect(engine.ask(.load(id)).codes == [], "\(id.slot)")
            #expect(engine.ask(.show(id, trigger: .action)).codes == [.adNotReady])
        }
        #expect(policy.placementID("nope") == nil)
    }

    /// README: "a value of another type than declared makes a rule that reads it rule_error, its default unused, and
    /// the reason names it".
    @Test func anAttributeOfTheWrongTypeIsARuleError() throws {
        let policy = try Policy(yaml: Self.policyText)
        let engine = AdEngine(policy: policy, clock: ManualClock(Self.start()))
        engine.record(.appLaunched)
        engine.record(.loadCompleted("inter"))
        engine.record(.action("inter"))
        engine.record(.action("inter"))
        engine.context = AskContext(attributes: ["screen": "home", "level": 5])
        #expect(engine.ask(.show("inter", trigger: .action)).isAllowed)
        engine.context = AskContext(attributes: ["screen": "home", "level": 5.0])
        let d = engine.ask(.show("inter", trigger: .action))
        #expect(d.codes == [.ruleError])
        #expect(d.reasons.first?.rule == "not-before-level-3")
        #expect(d.reasons.first?.message.contains("level has type number, where int is declared") == true, "\(d)")
        // The default is for a value not given.
        engine.context = AskContext(attributes: ["screen": "home"])
        #expect(engine.ask(.show("inter", trigger: .action)).codes == [.customRule])
        // A screen not given, no default: rule_error, for every placement the rule denies.
        engine.context = .standard
        #expect(engine.ask(.offer("hint")).codes == [.ruleError, .adNotReady])
        // The same context prepared or not, passed or set, decides alike.
        let context = AskContext(attributes: ["screen": "checkout", "level": 9])
        let a = engine.ask(.show("inter", trigger: .action), context: context)
        let b = engine.ask(.show("inter", trigger: .action), context: policy.prepared(context))
        engine.context = context
        let c = engine.ask(.show("inter", trigger: .action))
        #expect(a == b && b == c && a.codes == [.customRule])
    }

    // MARK: - Probes

    static let groupText = """
        version: 1
        timezone: UTC
        placements:
          a: {format: interstitial}
          b: {format: interstitial}
          c: {format: interstitial}
        groups:
          g:
            placements: [a, b]
            daily_cap: 2
        """

    /// A group's shows are rebuilt from its members' at a cold start (README: "Groups are not in the file").
    @Test func aGroupCapHoldsAcrossAColdStart() throws {
        let policy = try Policy(yaml: Self.groupText)
        let path = scratchPath("group") + "/ledger.json"
        let clock = ManualClock(Self.start())
        let first = Self.coldStart(policy, clock, path)
        #expect(Self.showOnce(first, "a").isAllowed)
        #expect(Self.showOnce(first, "a").isAllowed)
        clock.advance(by: 60)
        let second = Self.coldStart(policy, clock, path)
        #expect(Self.showOnce(second, "b").codes == [.groupDailyCap])
    }

    /// A show of any member counts for the group (rules.md §4), also a show made before an update that brought the group
    /// or added the member.
    @Test func aGroupAddedByAnUpdateCountsItsMembersShows() throws {
        let before = try Policy(yaml: Self.groupText.replacingOccurrences(of: "placements: [a, b]", with: "placements: [b, c]"))
        let after = try Policy(yaml: Self.groupText)
        let clock = ManualClock(Self.start())
        let engine = AdEngine(policy: before, clock: clock)
        engine.record(.appLaunched)
        #expect(Self.showOnce(engine, "a").isAllowed)
        #expect(Self.showOnce(engine, "a").isAllowed)
        engine.update(policy: after)
        engine.record(.loadCompleted("b"))
        let d = engine.ask(.show("b", trigger: .action))
        #expect(d.codes == [.groupDailyCap], "a's two shows today count for g once a is a member: \(d)")
    }

    /// A return after `session_timeout` starts a session, and the ledger keeps it (ledger.md "When it is written").
    @Test func aSessionStartedByAReturnIsKept() throws {
        let policy = try Policy(yaml: Self.persistText)
        let path = scratchPath("resume") + "/ledger.json"
        let clock = ManualClock(Self.start())
        let first = Self.coldStart(policy, clock, path)
        first.record(.appBackgrounded)
        clock.advance(by: 31 * 60)
        first.record(.appResumed)
        #expect(first.currentFacts.sessionCount == 2)
        // Killed in the background later; the next launch.
        first.record(.appBackgrounded)
        clock.advance(by: 60)
        let second = Self.coldStart(policy, clock, path)
        #expect(second.currentFacts.sessionCount == 3)
    }

    /// An unwritable ledger path is reported once and the engine carries on in memory (ledger.md "Unwritable").
    @Test func anUnwritableLedgerIsReportedAndTheEngineCarriesOn() throws {
        let policy = try Policy(yaml: Self.persistText)
        let folder = scratchPath("unwritable")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // A file where the ledger's folder should be.
        #expect(FileManager.default.createFile(atPath: folder + "/blocker", contents: Data("x".utf8)))
        let problems = AppendedTexts()
        let clock = ManualClock(Self.start())
        let engine = Self.coldStart(policy, clock, folder + "/blocker/ledger.json", problems: problems)
        #expect(Self.showOnce(engine, "inter").isAllowed)
        clock.advance(by: 120)
        #expect(Self.showOnce(engine, "inter").isAllowed)
        clock.advance(by: 120)
        #expect(Self.showOnce(engine, "inter").codes == [.dailyCap])
        #expect(problems.all.count == 1, "\(problems.all)")
        // A path under a file is an I/O error at the first read: reported as unreadable (README: "an I/O error that
        // names the path: the engine carries on in memory and reports it").
        #expect(problems.all.first?.hasPrefix("the ledger cannot be read (cannot open ") == true, "\(problems.all)")
    }

    /// README: "a context prepared for another policy (an older one, before a remote update) is read by name".
    @Test func aContextPreparedForAnOlderPolicyIsReadByName() throws {
        let old = try Policy(yaml: Self.policyText)
        // The new policy declares its attributes in another order, so slots differ.
        let new = try Policy(yaml: Self.policyText.replacingOccurrences(
            of: "  screen: string\n  level: {type: int, default: 1}", with: "  level: {type: int, default: 1}\n  screen: string"))
        let engine = AdEngine(policy: old, clock: ManualClock(Self.start()))
        engine.record(.appLaunched)
        engine.record(.loadCompleted("inter"))
        engine.record(.action("inter"))
        engine.record(.action("inter"))
        let checkout = old.prepared(AskContext(attributes: ["screen": "checkout", "level": 9]))
        let lowLevel = old.prepared(AskContext(attributes: ["screen": "home", "level": 1]))
        #expect(engine.ask(.show("inter", trigger: .action), context: checkout).codes == [.customRule])
        engine.update(policy: new)
        #expect(engine.ask(.show("inter", trigger: .action), context: checkout).codes == [.customRule])
        let d = engine.ask(.show("inter", trigger: .action), context: lowLevel)
        #expect(d.codes == [.customRule] && d.reasons.first?.rule == "not-before-level-3", "\(d)")
        var changed = checkout
        changed.attributes["screen"] = "home"
        #expect(engine.ask(.show("inter", trigger: .action), context: changed).isAllowed)
    }

    /// Decisions with millisecond times survive JSON; a decoded decision is what was encoded.
    @Test func decisionsWithMillisecondsRoundTrip() throws {
        let policy = try Policy(yaml: Self.persistText)
        let clock = ManualClock(Self.start().addingTimeInterval(0.123))
        let engine = AdEngine(policy: policy, clock: clock)
        engine.record(.appLaunched)
        #expect(Self.showOnce(engine, "inter").isAllowed)
        clock.advance(by: 0.001)
        engine.record(.loadCompleted("inter"))
        let d = engine.ask(.show("inter", trigger: .action))
        #expect(d.nextAllowedAt.map { ($0.timeIntervalSince1970 * 1000).rounded() } == (Self.start().timeIntervalSince1970 * 1000 + 60_123))
        let back = try JSONDecoder().decode(Decision.self, from: JSONEncoder().encode(d))
        #expect(back == d)
        #expect(back.hashValue == d.hashValue)
    }

    /// ledger.md "Unreadable": the engine keeps its record in memory and, once the ledger can be read, adopts it: "its
    /// install time, its sessions and its shows come first, and the sessions and shows recorded meanwhile are counted
    /// after them".
    @Test func anUnreadableLedgerIsAdoptedOnceReadable() throws {
        let policy = try Policy(yaml: Self.persistText)
        let path = scratchPath("adopt") + "/ledger.json"
        let clock = ManualClock(Self.start())
        let installed = Int64(Timestamps.parse("2026-11-01T00:00:00Z")!.timeIntervalSince1970 * 1000)
        let startMs = Int64(Self.start().timeIntervalSince1970 * 1000)
        let saved = LedgerSnapshot(installedAt: installed, sessionCount: 5, shows: ["inter": [ShowRecord(at: startMs - 3_600_000, session: 5)]])
        // A directory at the path: unreadable, never written over.
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let problems = AppendedTexts()
        let engine = Self.coldStart(policy, clock, path, problems: problems)
        #expect(problems.all.count == 1 && problems.all[0].hasPrefix("the ledger cannot be read"), "\(problems.all)")
        #expect(Self.showOnce(engine, "inter").isAllowed)
        // The ledger becomes readable.
        try FileManager.default.removeItem(atPath: path)
        try FileLedgerStore(path: path).save(saved)
        clock.advance(by: 120)
        engine.record(.appBackgrounded)  // a write that failed before is made again at a move to the background
        let snapshot = try #require(try FileLedgerStore(path: path).load())
        #expect(snapshot.installedAt == installed)
        #expect(snapshot.sessionCount == 6)
        #expect(snapshot.shows["inter"]?.count == 2)
        #expect(engine.currentFacts.sessionCount == 6)
        engine.record(.loadCompleted("inter"))
        #expect(engine.ask(.show("inter", trigger: .action)).codes == [.dailyCap])
    }

    /// ledger.md "Corrupt": moved aside, kept, a fresh ledger started; a ledger of a later version says so.
    @Test func aCorruptOrNewerLedgerIsMovedAside() throws {
        let policy = try Policy(yaml: Self.persistText)
        for (bytes, says) in [("{\"version\":1,", "corrupt"), ("{\"installedAt\":1795856400000,\"sessionCount\":1,\"shows\":{},\"version\":2}", "version")] {
            let path = scratchPath("corrupt") + "/ledger.json"
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes.utf8).write(to: URL(fileURLWithPath: path))
            let problems = AppendedTexts()
            let engine = Self.coldStart(policy, ManualClock(Self.start()), path, problems: problems)
            #expect(problems.all.count == 1 && problems.all[0].contains("is corrupt") && problems.all[0].contains(says), "\(problems.all)")
            let kept = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
            #expect(kept.contains { $0.hasPrefix("ledger.json.corrupt-") }, "\(kept)")
            #expect(engine.currentFacts.sessionCount == 1)
            #expect(try FileLedgerStore(path: path).load()?.sessionCount == 1)
        }
    }

    /// rules.md §8 in a running app: the first ask after a clock set back writes the pinned times (ledger.md).
    @Test func aClockSetBackInARunningAppWritesThePinnedTimesOnce() throws {
        let policy = try Policy(yaml: Self.persistText)
        let path = scratchPath("runpin") + "/ledger.json"
        let clock = ManualClock(Timestamps.parse("2026-11-29T12:00:00Z")!)
        let engine = Self.coldStart(policy, clock, path)
        #expect(Self.showOnce(engine, "inter").isAllowed)
        clock.set(Timestamps.parse("2026-11-29T11:00:00Z")!)
        engine.record(.loadCompleted("inter"))
        let d = engine.ask(.show("inter", trigger: .action))
        #expect(d.codes == [.minInterval] && d.nextAllowedAt == Timestamps.parse("2026-11-29T11:01:00Z"), "\(d)")
        let eleven = Int64(Timestamps.parse("2026-11-29T11:00:00Z")!.timeIntervalSince1970 * 1000)
        #expect(try FileLedgerStore(path: path).load()?.shows["inter"]?.map(\.at) == [eleven])
        clock.advance(by: 60)
        let relaunched = Self.coldStart(policy, clock, path)
        relaunched.record(.loadCompleted("inter"))
        #expect(relaunched.ask(.show("inter", trigger: .action)).isAllowed, "the next_allowed_at given came true")
    }

    /// Many networks call the earned-reward callback after the dismiss callback: the reward is for the last show this
    /// engine saw start (README), so it is still granted once.
    @Test func aRewardEarnedAfterTheCloseIsGrantedOnce() throws {
        let policy = try Policy(yaml: Self.updateText)
        let engine = AdEngine(policy: policy, clock: ManualClock(Self.start()))
        engine.context = AskContext(attributes: ["screen": "home"])
        engine.record(.appLaunched)
        engine.record(.loadCompleted("hint"))
        engine.record(.userChose("hint"))
        #expect(engine.beginShow("hint", trigger: .action).isAllowed)
        engine.record(.adClosed("hint"))
        engine.record(.rewardEarned("hint"))
        #expect(engine.claimReward("hint").isAllowed)
        #expect(engine.claimReward("hint").codes == [.rewardAlreadyGranted])
        // A show that failed has nothing to reward.
        engine.record(.loadCompleted("hint"))
        engine.record(.userChose("hint"))
        #expect(engine.beginShow("hint", trigger: .action).isAllowed)
        engine.record(.showFailed("hint"))
        engine.record(.rewardEarned("hint"))
        #expect(!engine.claimReward("hint").isAllowed)
    }

    /// README: "Decisions are the same either way": the engine's prepared context and the same context passed to `ask`
    /// unprepared, over rules that read attributes alone, with built-ins, missing values and values of the wrong type.
    @Test func preparedAndUnpreparedContextsDecideAlike() throws {
        let policy = try Policy(yaml: """
            version: 1
            timezone: UTC
            attributes:
              screen: string
              level: {type: int, default: 1}
              ratio: number
              tags: {type: "[string]", default: []}
              trial: {type: duration, default: 0s}
            rules:
              - {id: r1, deny: ["*"], when: screen == "checkout" or level < 3}
              - {id: r2, deny: [a], when: ratio > 0.5 and not premium}
              - {id: r3, deny: [b], when: '"vip" in tags or trial >= 7d'}
              - {id: r4, deny: [a], when: session.count < 2 and screen != "home"}
              - {id: r5, deny: [b], when: level >= 10 and now.hour >= 9}
            placements:
              a: {format: interstitial}
              b: {format: rewarded_interstitial}
            """)
        let engine = AdEngine(policy: policy, clock: ManualClock(Self.start()))
        engine.record(.appLaunched)
        engine.record(.loadCompleted("a"))
        engine.record(.loadCompleted("b"))
        let screens: [AttributeValue?] = [nil, "home", "checkout", 3]
        let levels: [AttributeValue?] = [nil, 1, 5, 12, 5.5]
        let ratios: [AttributeValue?] = [nil, 0.2, 1, .number(.nan)]
        let tags: [AttributeValue?] = [nil, .stringList(["vip"]), .stringList([])]
        let trials: [AttributeValue?] = [nil, .duration(RuleDuration(milliseconds: 8 * 86_400_000)), "7d"]
        var compared = 0
        for premium in [false, true] {
            for screen in screens { for level in levels { for ratio in ratios { for tag in tags { for trial in trials {
                var attributes: [String: AttributeValue] = [:]
                attributes["screen"] = screen
                attributes["level"] = level
                attributes["ratio"] = ratio
                attributes["tags"] = tag
                attributes["trial"] = trial
                let context = AskContext(premium: premium, attributes: attributes)
                engine.context = context
                for ask: Ask in [.show("a", trigger: .action), .offer("b"), .show("b", trigger: .action)] {
                    let prepared = engine.ask(ask)
                    let plain = engine.ask(ask, context: context)
                    #expect(prepared == plain, "\(context): \(prepared) vs \(plain)")
                    compared += 1
                }
            } } } } }
        }
        #expect(compared == 2 * 4 * 5 * 4 * 3 * 3 * 3)
    }

    // MARK: - What an app relies on around the engine

    /// A scenario's `app_launched` is a launch of the same engine: it keeps the action count (docs/scenario-tests.md).
    /// An app killed and started again begins a new engine, whose ledger does not hold action counts (README, "Choices
    /// where the spec is silent"), so it counts actions from 0.
    @Test func aScenariosLaunchKeepsActionsAnAppsColdStartDoesNot() throws {
        let policy = try Policy(yaml: """
            version: 1
            timezone: UTC
            placements:
              inter: {format: interstitial, every_n_actions: 3}
            """)
        let scenario = """
            tests:
              - name: two actions, a relaunch, one more
                start: 2026-11-29T09:00:00Z
                steps:
                  - event: app_launched
                  - {event: action, placement: inter}
                  - {event: action, placement: inter}
                  - {after: 10m, event: app_launched}
                  - {event: load_completed, placement: inter}
                  - {event: action, placement: inter}
                  - {ask: show, placement: inter, trigger: action}
            """
        let runner = try Self.scenarioDecisions(scenario, policy: policy)
        #expect(runner.map(\.codes) == [[]], "the scenario allows")
        let path = scratchPath("actions") + "/ledger.json"
        let clock = ManualClock(Self.start())
        let first = Self.coldStart(policy, clock, path)
        first.record(.action("inter"))
        first.record(.action("inter"))
        clock.advance(by: 600)
        let second = Self.coldStart(policy, clock, path)
        second.record(.loadCompleted("inter"))
        second.record(.action("inter"))
        #expect(second.ask(.show("inter", trigger: .action)).codes == [.everyNActions], "the app denies")
    }

    /// Every write replaces the ledger with a new file (a temporary file renamed over it): the new file keeps the
    /// permissions the app gave the ledger (owner-only here), which the rename dropped. (What iOS keeps on a file, its
    /// protection class and backup exclusion, an app sets on the ledger's folder: docs/ledger.md.)
    @Test func aWriteKeepsThePermissionsTheAppGaveTheLedger() throws {
        let policy = try Policy(yaml: Self.persistText)
        let path = scratchPath("attrs") + "/ledger.json"
        let clock = ManualClock(Self.start())
        let engine = Self.coldStart(policy, clock, path)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let before = try FileManager.default.attributesOfItem(atPath: path)
        #expect(Self.showOnce(engine, "inter").isAllowed)  // one write
        let after = try FileManager.default.attributesOfItem(atPath: path)
        #expect(after[.posixPermissions] as? Int == 0o600, "the permissions are kept")
        #expect(after[.systemFileNumber] as? Int != before[.systemFileNumber] as? Int, "another file (inode) stands at the path")
    }

    /// A decision read back from JSON refuses a time that is no RFC 3339 time (it was read as no time) and a verdict
    /// that disagrees with its reasons (it was ignored).
    @Test func aDecisionReadBackRefusesBadTimesAndAVerdictAgainstItsReasons() throws {
        func decision(verdict: String, next: String, clears: String) -> String {
            """
            {"verdict":"\(verdict)","ask":"show","placement":"inter","trigger":"action","next_allowed_at":\(next),"notes":[],
             "reasons":[{"code":"min_interval","message":"m","file":"p.yaml","line":1,"column":2,"clears_at":\(clears)}]}
            """
        }
        let good = decision(verdict: "deny", next: "\"2026-11-29T09:04:00Z\"", clears: "\"2026-11-29T09:04:00Z\"")
        let read = try JSONDecoder().decode(Decision.self, from: Data(good.utf8))
        #expect(read.nextAllowedAt == Timestamps.parse("2026-11-29T09:04:00Z") && read.reasons[0].clearsAt == read.nextAllowedAt)
        #expect(try JSONDecoder().decode(Decision.self, from: Data(decision(verdict: "deny", next: "null", clears: "null").utf8)).nextAllowedAt == nil)
        for bad in [
            decision(verdict: "allow", next: "null", clears: "null"),
            decision(verdict: "deny", next: "\"tomorrow\"", clears: "null"),
            decision(verdict: "deny", next: "null", clears: "\"soon\""),
        ] {
            #expect(throws: DecodingError.self, "\(bad)") { try JSONDecoder().decode(Decision.self, from: Data(bad.utf8)) }
        }
    }
}

/// A list of texts several threads append to.
final class AppendedTexts: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ item: String) { lock.withLock { items.append(item) } }
    var all: [String] { lock.withLock { items } }
}
