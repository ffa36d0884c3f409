import AdRules
import AdRulesCompiler
import AdRulesTestSupport
import Foundation
import Testing

@Suite("AdEngine and ledger")
struct EngineTests {
    static let policyText = """
        version: 1
        timezone: UTC
        placements:
          inter: {format: interstitial, min_interval: 1m, daily_cap: 3, max_ad_age: 1h}
          hint: {format: rewarded}
        """

    func start() -> Date { Timestamps.parse("2026-11-29T09:00:00Z") ?? Date() }

    @Test func ledgerSurvivesRelaunchAndAsksNeverWrite() throws {
        let policy = try Policy(yaml: Self.policyText)
        let store = InMemoryLedgerStore()
        let clock = ManualClock(start())
        let engine = AdEngine(policy: policy, clock: clock, store: store)
        let afterInit = store.writeCount
        engine.record(.appLaunched)
        engine.record(.loadCompleted("inter"))
        for _ in 0..<100 { _ = engine.ask(.show("inter", trigger: .action)) }
        engine.record(.action("inter"))
        #expect(store.writeCount == afterInit + 1, "only app_launched wrote")
        #expect(engine.beginShow("inter", trigger: .action).isAllowed)
        #expect(store.writeCount == afterInit + 2, "a show is one write")
        clock.advance(by: 30)
        let relaunched = AdEngine(policy: policy, clock: clock, store: store)
        relaunched.record(.appLaunched)
        relaunched.record(.loadCompleted("inter"))
        let d = relaunched.ask(.show("inter", trigger: .action))
        #expect(d.codes == [.minInterval])
        #expect(relaunched.currentFacts.sessionCount == 2)
    }

    /// The engine holds who the user is: an ask, a show or a reward that passes no context uses it (a premium user set
    /// once is never shown an ad by a call site that forgot to say so); one that passes its own uses that.
    @Test func asksWithNoContextUseTheEngines() throws {
        let policy = try Policy(yaml: Self.policyText + "\nattributes:\n  screen: string\nrules:\n  - {id: no-checkout, deny: [inter], when: screen == \"checkout\"}\n")
        let clock = ManualClock(start())
        let engine = AdEngine(policy: policy, clock: clock)
        #expect(engine.context == .standard)
        engine.record(.appLaunched)
        engine.record(.loadCompleted("inter"))
        #expect(engine.ask(.show("inter", trigger: .action)).codes == [.ruleError], "screen has no default and was not given")
        engine.context = AskContext(premium: true, attributes: ["screen": .string("home")])
        #expect(engine.ask(.show("inter", trigger: .action)).codes == [.premiumUser])
        #expect(engine.ask(.load("hint")).codes == [.premiumUser])
        #expect(engine.beginShow("inter", trigger: .action).codes == [.premiumUser])
        // A context passed with the call is used instead.
        #expect(engine.ask(.show("inter", trigger: .action), context: AskContext(attributes: ["screen": .string("checkout")])).codes == [.customRule])
        // An explicit context wins over the engine's, also the standard one over a premium engine context.
        #expect(engine.ask(.show("inter", trigger: .action), context: AskContext(attributes: ["screen": .string("home")])).isAllowed)
        engine.context = AskContext(attributes: ["screen": .string("home")])
        #expect(engine.beginShow("inter", trigger: .action).isAllowed)
    }

    /// Parts of the engine's context changed from two threads at once both take effect with `updateContext`.
    @Test func contextPartsChangedAtOnceAreBothKept() throws {
        let engine = AdEngine(policy: try Policy(yaml: Self.policyText), clock: ManualClock(start()))
        for round in 0..<200 {
            engine.context = .standard
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) { engine.updateContext { $0.premium = true } }
            DispatchQueue.global().async(group: group) { engine.updateContext { $0.attributes["screen"] = .string("s\(round)") } }
            group.wait()
            #expect(engine.context.premium && engine.context.attributes["screen"] == .string("s\(round)"), "round \(round)")
        }
    }

    /// The engine keeps its context prepared for the policy in force: when it is set, changed in part, and when the
    /// policy changes; its decisions are those of the context as given.
    @Test func theEnginesContextIsPreparedForThePolicyInForce() throws {
        let text = Self.policyText + "\nattributes:\n  screen: string\nrules:\n  - {id: no-checkout, deny: [inter], when: screen == \"checkout\"}\n"
        let first = try Policy(yaml: text), second = try Policy(yaml: text)
        let engine = AdEngine(policy: first, clock: ManualClock(start()))
        engine.record(.appLaunched)
        engine.record(.loadCompleted("inter"))
        engine.context = AskContext(attributes: ["screen": .string("home")])
        #expect(engine.context.isPrepared(for: first))
        #expect(engine.ask(.show("inter", trigger: .action)).isAllowed)
        engine.updateContext { $0.attributes["screen"] = .string("checkout") }
        #expect(engine.context.isPrepared(for: first))
        #expect(engine.ask(.show("inter", trigger: .action)).codes == [.customRule])
        engine.update(policy: second)
        #expect(engine.context.isPrepared(for: second) && !engine.context.isPrepared(for: first))
        #expect(engine.ask(.show("inter", trigger: .action)).codes == [.customRule])
        engine.context.premium = true
        #expect(engine.context.isPrepared(for: second))
        #expect(engine.ask(.show("inter", trigger: .action)).codes == [.premiumUser, .customRule])
    }

    @Test func aDecisionKeptAcrossLaterAsksKeepsItsReasons() throws {
        // The engine reuses the storage of its last reasons: a decision still held must not see the next ask's.
        let policy = try Policy(yaml: Self.policyText)
        let clock = ManualClock(start())
        let engine = AdEngine(policy: policy, clock: clock)
        engine.record(.appLaunched)
        let notReady = engine.ask(.show("inter", trigger: .action))
        engine.record(.loadCompleted("inter"))
        #expect(engine.beginShow("inter", trigger: .action).isAllowed)
        engine.record(.adClosed("inter"))
        engine.record(.loadCompleted("inter"))
        let tooSoon = engine.ask(.show("inter", trigger: .action))
        let unknown = engine.ask(.show("nope", trigger: .action))
        let wrongTrigger = engine.ask(.show("hint", trigger: .resume))
        #expect(notReady.codes == [.adNotReady])
        #expect(tooSoon.codes == [.minInterval])
        #expect(tooSoon.nextAllowedAt == start().addingTimeInterval(60))
        #expect(unknown.codes == [.unknownPlacement])
        #expect(wrongTrigger.codes == [.triggerNotSupported, .noUserChoice, .adNotReady], "a rewarded placement requires a choice by default")
        #expect(notReady.reasons.map(\.message).allSatisfy { $0.hasPrefix("no ad is loaded") })
    }

    @Test func aLedgerFromTheFutureNeverGrantsAShow() throws {
        let policy = try Policy(yaml: Self.policyText)
        let future = Milliseconds.from(start()) + 86_400_000
        let store = InMemoryLedgerStore(LedgerSnapshot(
            installedAt: future, sessionCount: 3, shows: ["inter": [ShowRecord(at: future, session: 3)]]))
        // The device clock was set back a day after the last show.
        let engine = AdEngine(policy: policy, clock: ManualClock(start()), store: store)
        engine.record(.appLaunched)
        engine.record(.loadCompleted("inter"))
        let d = engine.ask(.show("inter", trigger: .action))
        #expect(d.codes == [.minInterval], "the future show is treated as now")
        #expect(engine.currentFacts.installedAt <= Milliseconds.from(start()))
    }

    @Test func fileStoreRoundTripsAtomically() throws {
        let directory = URL(fileURLWithPath: scratchPath("adrules"))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileLedgerStore(path: directory.appendingPathComponent("ledger.json").path)
        #expect(try store.load() == nil, "a missing file starts fresh")
        let installed = Milliseconds.from(start())
        let snapshot = LedgerSnapshot(installedAt: installed, sessionCount: 4, shows: ["a": [ShowRecord(at: installed + 5, session: 4)]])
        try store.save(snapshot)
        #expect(try store.load() == snapshot)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp") }
        #expect(leftovers.isEmpty, "no temporary file is left: \(leftovers)")
    }

    @Test func corruptLedgerIsKeptAsideAndReported() throws {
        let directory = URL(fileURLWithPath: scratchPath("adrules"))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("ledger.json").path
        try Data("{\"installedAt\": \"oops".utf8).write(to: URL(fileURLWithPath: path))
        let problems = ProblemLog()
        let engine = AdEngine(
            policy: try Policy(yaml: Self.policyText), clock: ManualClock(start()), store: FileLedgerStore(path: path),
            onLedgerProblem: { problems.append($0) })
        engine.record(.appLaunched)
        let logged = problems.all
        #expect(logged.count == 1)
        guard case .corrupt(_, let movedTo?, _) = logged.first else {
            Issue.record("expected a corrupt report with the kept file, got \(logged)")
            return
        }
        #expect(FileManager.default.fileExists(atPath: movedTo))
        #expect(try FileLedgerStore(path: path).load()?.sessionCount == 1, "a fresh ledger was written")
    }

    @Test func ledgerStaysBoundedAfterAYearOfUse() throws {
        let policy = try Policy(yaml: """
            version: 1
            placements:
              a: {format: interstitial, min_interval: 30s, session_cap: 1000}
              b: {format: banner}
            """)
        let store = InMemoryLedgerStore()
        let clock = ManualClock(start())
        let engine = AdEngine(policy: policy, clock: clock, store: store)
        for _ in 0..<365 {
            engine.record(.appLaunched)
            for _ in 0..<40 {
                clock.advance(by: 60)
                engine.record(.loadCompleted("a"))
                _ = engine.beginShow("a", trigger: .action)
                engine.record(.adClosed("a"))
                engine.record(.showStarted("b"))
            }
            clock.advance(by: 86_400 - 2400)
        }
        let snapshot = try #require(try store.load())
        let data = try JSONEncoder().encode(snapshot)
        #expect(snapshot.sessionCount == 365)
        // Bounded by count, whatever the age of the shows: one more than the policy's largest cap (1000, above the 512
        // kept at least), for a show_failed that takes the show in progress back.
        #expect(snapshot.shows["a"]?.count == 1001)
        #expect(snapshot.shows["b"]?.count == 1001)
        #expect(data.count < 80 * 1024, "ledger is \(data.count) bytes")
    }

    @Test func updatePolicyKeepsHistoryByPlacementID() throws {
        let engine = AdEngine(policy: try Policy(yaml: Self.policyText), clock: ManualClock(start()))
        engine.record(.appLaunched)
        engine.record(.loadCompleted("inter"))
        #expect(engine.beginShow("inter", trigger: .action).isAllowed)
        engine.record(.adClosed("inter"))
        engine.update(policy: try Policy(yaml: "version: 1\nplacements:\n  other: {format: banner}\n  inter: {format: interstitial, min_interval: 10m}\n"))
        engine.record(.loadCompleted("inter"))
        #expect(engine.ask(.show("inter", trigger: .action)).codes == [.minInterval])
    }

    /// The shows of a placement the policy lacks are set aside, not erased: an engine started on an older policy keeps
    /// them in the ledger it writes, and an update (or a later start) with the placement counts them again.
    @Test func showsOfAPlacementThePolicyLacksAreKept() throws {
        let full = try Policy(yaml: "version: 1\nplacements:\n  a: {format: banner}\n  inter: {format: interstitial, min_interval: 10m}\n")
        let older = try Policy(yaml: "version: 1\nplacements:\n  a: {format: banner}\n")
        let store = InMemoryLedgerStore()
        let clock = ManualClock(start())
        let first = AdEngine(policy: full, clock: clock, store: store)
        first.record(.appLaunched)
        first.record(.loadCompleted("inter"))
        #expect(first.beginShow("inter", trigger: .action).isAllowed)
        clock.advance(by: 60)
        let restarted = AdEngine(policy: older, clock: clock, store: store)
        restarted.record(.appLaunched)  // a new session: written
        #expect(try store.load()?.shows["inter"]?.count == 1)
        restarted.update(policy: full)
        restarted.record(.loadCompleted("inter"))
        #expect(restarted.ask(.show("inter", trigger: .action)).codes == [.minInterval])
        // Removed and brought back by updates: the cached ad is gone with the placement, its show is not.
        restarted.update(policy: older)
        restarted.update(policy: full)
        #expect(restarted.ask(.show("inter", trigger: .action)).codes == [.adNotReady, .minInterval])
    }

    /// Set-aside shows count again in the groups of a placement that returns, are pinned with the rest when the clock is
    /// set back, and are bounded: only ids a policy can have, with shows, the most recently shown 256.
    @Test func setAsideShowsReturnToTheirGroupsAndAreBounded() throws {
        let full = try Policy(yaml: """
            version: 1
            placements:
              a: {format: banner}
              inter: {format: interstitial}
            groups:
              fs: {placements: [inter], min_interval: 10m}
            """)
        let older = try Policy(yaml: "version: 1\nplacements:\n  a: {format: banner}\n")
        let now = Milliseconds.from(start())
        var shows: [String: [ShowRecord]] = ["inter": [ShowRecord(at: now + 60_000, session: 1)], "bad\u{1}id": [ShowRecord(at: now, session: 1)], "none": []]
        for i in 0..<300 { shows["old\(i)"] = [ShowRecord(at: now - 1_000_000 + Int64(i), session: 1)] }
        let store = InMemoryLedgerStore(LedgerSnapshot(installedAt: now - 2_000_000, sessionCount: 1, shows: shows))
        let clock = ManualClock(start())
        // Started before the show's time (the clock was set back): the set-aside show is pinned to now.
        let engine = AdEngine(policy: older, clock: clock, store: store)
        let history = engine.showHistory
        #expect(history["inter"]?.map(\.at) == [now])
        #expect(history["bad\u{1}id"] == nil && history["none"] == nil)
        #expect(history.keys.filter { $0.hasPrefix("old") }.count == Facts.maxSetAside - 1)
        #expect(history["old299"] != nil && history["old0"] == nil, "the most recently shown are kept")
        engine.update(policy: full)
        engine.record(.loadCompleted("inter"))
        #expect(engine.ask(.show("inter", trigger: .action)).codes == [.groupMinInterval])
    }

    @Test func decisionJSONRoundTrips() throws {
        var h = try Harness(Self.policyText)
        h.record(.appLaunched)
        let decision = h.ask(.show("inter", trigger: .action))
        let data = try JSONEncoder().encode(decision)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"verdict\":\"deny\""))
        #expect(text.contains("\"code\":\"ad_not_ready\""))
        #expect(try JSONDecoder().decode(Decision.self, from: data) == decision)
    }
}

final class ProblemLog: @unchecked Sendable {
    private let lock = NSLock()
    private var problems: [LedgerProblem] = []
    func append(_ problem: LedgerProblem) { lock.withLock { problems.append(problem) } }
    var all: [LedgerProblem] { lock.withLock { problems } }
}
