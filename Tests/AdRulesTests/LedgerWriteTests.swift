import AdRules
import Foundation
import Testing

/// When the engine writes its ledger, what it reports, and what two writers sharing one file can rely on.
@Suite("Ledger: writes and reports")
struct LedgerWriteTests {
    static let policyText = """
        version: 1
        timezone: UTC
        session_timeout: 30m
        placements:
          inter: {format: interstitial, max_ad_age: 1h}
          hint: {format: rewarded}
        """

    /// An ask that sees a clock set back pins the show times and writes them once: an app killed before its next
    /// event starts again from the pinned times, so the `next_allowed_at` the ask gave comes true (rules.md §8). It
    /// read the old times, pinned them to its own later start, and denied for 10 minutes more.
    @Test func anAskThatPinsAfterAClockSetBackWritesOnce() throws {
        let text = "version: 1\ntimezone: UTC\nplacements:\n  inter: {format: interstitial, min_interval: 10m}\n"
        let store = InMemoryLedgerStore()
        let clock = ManualClock(engineTestStart)
        let engine = AdEngine(policy: try policy(text), clock: clock, store: store)
        engine.record(.appLaunched)
        engine.record(.loadCompleted("inter"))
        #expect(engine.beginShow("inter", trigger: .action).isAllowed)
        engine.record(.adClosed("inter"))
        engine.record(.loadCompleted("inter"))
        let before = store.writeCount
        clock.advance(by: -3600)
        let denied = engine.ask(.show("inter", trigger: .action))
        #expect(denied.codes.contains(.minInterval))
        #expect(denied.nextAllowedAt == engineTestStart.addingTimeInterval(-3000))
        #expect(store.writeCount == before + 1, "the ask that pinned writes once")
        _ = engine.ask(.show("inter", trigger: .action))
        #expect(store.writeCount == before + 1, "the next ask has nothing new to write")
        // Killed here; the next start comes when the ask said the show would be allowed.
        clock.set(engineTestStart.addingTimeInterval(-3000))
        let restarted = AdEngine(policy: try policy(text), clock: clock, store: store)
        restarted.record(.appLaunched)
        restarted.record(.loadCompleted("inter"))
        let again = restarted.ask(.show("inter", trigger: .action))
        #expect(!again.codes.contains(.minInterval), "\(again.reasons.map(\.message))")
    }

    /// A ledger read at start-up with a show later than the clock is pinned as it is read, and the first event (or ask)
    /// writes it, as it writes times pinned later; a write that fails leaves the times for the next one to write.
    @Test func pinnedTimesReachTheFileFromStartUpAndAfterAFailedWrite() throws {
        let text = "version: 1\ntimezone: UTC\nplacements:\n  inter: {format: interstitial, min_interval: 10m}\n"
        let t = Int64(engineTestStart.timeIntervalSince1970 * 1000)
        let store = ScriptedStore(LedgerSnapshot(installedAt: t - 86_400_000, sessionCount: 1, shows: ["inter": [ShowRecord(at: t, session: 1)]]))
        let clock = ManualClock(engineTestStart.addingTimeInterval(-3600))
        let engine = AdEngine(policy: try policy(text), clock: clock, store: store)
        engine.record(.loadCompleted("inter"))
        #expect(store.saved.count == 1, "the first event after start-up writes the times the start pinned")
        #expect(store.saved.last?.shows["inter"]?.map(\.at) == [t - 3_600_000])
        _ = engine.ask(.show("inter", trigger: .action))
        #expect(store.saved.count == 1, "once")

        // The clock goes back again while the store fails: the next event writes the times once the store works.
        store.setSaveError(LedgerError.io("disk full"))
        clock.advance(by: -600)
        #expect(engine.ask(.show("inter", trigger: .action)).codes.contains(.minInterval))
        store.setSaveError(nil)
        engine.record(.action("inter"))
        #expect(store.saved.count == 2, "the times the failed write left are written by the next event")
        #expect(store.saved.last?.shows["inter"]?.map(\.at) == [t - 4_200_000])
    }

    @Test func theLedgerIsWrittenOnlyWhenItChanges() throws {
        let store = InMemoryLedgerStore()
        let clock = ManualClock(engineTestStart)
        let engine = AdEngine(policy: try policy(Self.policyText), clock: clock, store: store)
        var expected = 1  // the fresh ledger
        func check(_ what: String, writes: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
            expected += writes
            #expect(store.writeCount == expected, "\(what)", sourceLocation: sourceLocation)
        }
        check("a fresh install writes its ledger", writes: 0)
        engine.record(.appLaunched)
        check("app_launched starts a session", writes: 1)
        engine.record(.appBackgrounded)
        clock.advance(by: 60)
        engine.record(.appResumed)
        check("app_resumed within session_timeout starts no session", writes: 0)
        engine.record(.appResumed)
        check("a second app_resumed neither", writes: 0)
        engine.record(.loadStarted("inter"))
        engine.record(.loadCompleted("inter"))
        engine.record(.action("inter"))
        engine.record(.fullscreenOpened(source: "x"))
        engine.record(.fullscreenClosed(source: "x"))
        for kind in AskKind.allCases { _ = engine.ask(Ask(kind, placement: "inter", trigger: .action)) }
        check("loads, actions, external ads and asks", writes: 0)
        #expect(engine.beginShow("inter", trigger: .action).isAllowed)
        check("a show", writes: 1)
        engine.record(.showFailed("inter"))
        check("show_failed takes the show back", writes: 1)
        engine.record(.showFailed("inter"))
        check("a second show_failed has nothing to take back", writes: 0)
        engine.record(.showStarted("nowhere"))
        engine.record(.showFailed("nowhere"))
        check("events of a placement the policy does not know", writes: 0)
        engine.record(.loadCompleted("hint"))
        engine.record(.userChose("hint"))
        #expect(engine.beginShow("hint", trigger: .action).isAllowed)
        engine.record(.rewardEarned("hint"))
        #expect(engine.claimReward("hint").isAllowed)
        engine.record(.adClosed("hint"))
        check("a rewarded show, its reward and its close", writes: 1)
        engine.record(.appBackgrounded)
        clock.advance(by: 1800)
        engine.record(.appResumed)
        check("app_resumed after session_timeout starts a session", writes: 1)
    }

    /// A show whose write failed is written at the next launch, return or move to the background, though that changes
    /// nothing the ledger holds: it waited for the next show or session, and an app killed in the background lost it.
    /// Other events do not retry (each retry reads or writes the file); after a successful write nothing is written again.
    @Test func aFailedWriteIsRetriedAtTheNextLifecycleEvent() throws {
        let store = ScriptedStore()
        let engine = AdEngine(policy: try policy(Self.policyText), clock: ManualClock(engineTestStart), store: store)
        engine.record(.appLaunched)
        engine.record(.loadCompleted("inter"))
        store.setSaveError(LedgerError.io("disk full"))
        #expect(engine.beginShow("inter", trigger: .action).isAllowed)
        let before = store.saved.count
        store.setSaveError(nil)
        engine.record(.adClosed("inter"))
        #expect(store.saved.count == before, "not at every event")
        engine.record(.appBackgrounded)
        #expect(store.saved.count == before + 1)
        #expect(store.saved.last?.shows["inter"]?.count == 1)
        engine.record(.appResumed)
        #expect(store.saved.count == before + 1, "once written, not again")
    }

    /// The fresh ledger written at start-up is retried like any other write: when it fails, the next launch, return or
    /// move to the background writes it, though nothing changed (an app killed in the background then kept none).
    @Test func aFreshLedgerWhoseWriteFailedIsWrittenAtTheNextLifecycleEvent() throws {
        let store = ScriptedStore(saveError: LedgerError.io("disk full"))
        let engine = AdEngine(policy: try policy(Self.policyText), clock: ManualClock(engineTestStart), store: store, installedAt: engineTestStart.addingTimeInterval(-3600))
        #expect(store.saved.isEmpty)
        store.setSaveError(nil)
        engine.record(.loadCompleted("inter"))
        #expect(store.saved.isEmpty, "not at every event")
        engine.record(.appBackgrounded)
        #expect(store.saved.count == 1, "the fresh ledger is written at the move to the background")
        #expect(store.saved.first?.installedAt == Int64(engineTestStart.timeIntervalSince1970 * 1000) - 3_600_000)
        engine.record(.appBackgrounded)
        #expect(store.saved.count == 1, "once written, not again")
    }

    /// Application Support does not exist on a fresh install: an app that puts its ledger there, and leaves out
    /// `onLedgerProblem`, lost every cap and session count at each relaunch when the store did not create the folder.
    @Test func aLedgerInAMissingFolderIsWrittenThereAndReadBack() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/Library/Application Support/ads/ledger.json"
            let problems = ProblemLog()
            let engine = AdEngine(
                policy: try policy(Self.policyText), clock: ManualClock(engineTestStart), store: FileLedgerStore(path: path),
                onLedgerProblem: { problems.append($0) })
            engine.record(.appLaunched)
            engine.record(.loadCompleted("inter"))
            #expect(engine.beginShow("inter", trigger: .action).isAllowed)
            #expect(problems.all.isEmpty, "\(problems.all)")
            let saved = try #require(try FileLedgerStore(path: path).load())
            #expect(saved.sessionCount == 1)
            #expect(saved.shows["inter"]?.count == 1)
        }
    }

    @Test func anUnwritableLedgerIsReportedOncePerProblem() throws {
        try withTemporaryDirectory { directory in
            // A folder that cannot be made, where no ledger is read (no such file): a link to a folder in /proc, where
            // no one may create one.
            try FileManager.default.createSymbolicLink(atPath: directory + "/linked", withDestinationPath: "/proc/adrules-no-such-folder")
            let problems = ProblemLog()
            let engine = AdEngine(
                policy: try policy(Self.policyText), clock: ManualClock(engineTestStart),
                store: FileLedgerStore(path: directory + "/linked/ledger.json"), onLedgerProblem: { problems.append($0) })
            engine.record(.appLaunched)
            engine.record(.loadCompleted("inter"))
            _ = engine.beginShow("inter", trigger: .action)
            guard problems.all.count == 1, case .unwritable? = problems.all.first else {
                Issue.record("expected one unwritable report for the fresh ledger, app_launched and a show, got \(problems.all)")
                return
            }
        }
    }

    @Test func anUnwritableLedgerIsReportedAgainAfterASuccessfulWriteOrWhenTheProblemChanges() throws {
        let store = ScriptedStore(saveError: LedgerError.io("disk full"))
        let problems = ProblemLog()
        let engine = AdEngine(policy: try policy(Self.policyText), clock: ManualClock(engineTestStart), store: store, onLedgerProblem: { problems.append($0) })
        engine.record(.appLaunched)
        engine.record(.appLaunched)
        #expect(problems.all == [.unwritable(reason: "ledger i/o failed: disk full")])
        store.setSaveError(LedgerError.io("read-only file system"))
        engine.record(.appLaunched)
        engine.record(.appLaunched)
        #expect(problems.all.count == 2, "a different problem is reported")
        store.setSaveError(nil)
        engine.record(.appLaunched)
        store.setSaveError(LedgerError.io("read-only file system"))
        engine.record(.appLaunched)
        #expect(problems.all.count == 3, "the same problem again after a successful write is reported")
        #expect(store.saved.count == 1)
    }

    @Test func aHandlerThatCallsTheEngineDoesNotDeadlock() throws {
        let policy = try policy(Self.policyText)
        for loadError in [nil, LedgerError.io("locked")] {
            let store = ScriptedStore(loadError: loadError, saveError: LedgerError.io("disk full"))
            let box = EngineBox()
            let calls = ProblemLog()
            let finished = finishes(within: 10) {
                let engine = AdEngine(policy: policy, clock: ManualClock(engineTestStart), store: store) { problem in
                    calls.append(problem)
                    guard let engine = box.engine, calls.all.count < 10 else { return }
                    // Everything an app might do from its logging handler.
                    engine.record(.appLaunched)
                    engine.record(.loadCompleted("inter"))
                    _ = engine.beginShow("inter", trigger: .action)
                    _ = engine.currentFacts
                }
                box.engine = engine
                store.setSaveError(LedgerError.io("still full"))
                engine.record(.appLaunched)
                store.setLoadError(loadError.map { _ in LedgerError.io("still locked") })
                engine.record(.appLaunched)
            }
            #expect(finished, "deadlocked with load error \(String(describing: loadError))")
            #expect(calls.all.count >= 2)
        }
    }

    @Test func twoWritersOnOneFileNeverLeaveAnInvalidLedger() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            let start = engineTestStartMs
            let failures = ProblemLog()
            let writersDone = Tally()
            onThreads(3) { thread in
                guard thread < 2 else {
                    // A reader that loads for as long as the writers write: every load must decode.
                    while writersDone.count < 2 {
                        do { _ = try FileLedgerStore(path: path).load() } catch { failures.append(.unreadable(reason: "\(error)")) }
                    }
                    return
                }
                let store = FileLedgerStore(path: path)  // a store each, as two processes would have
                for i in 0..<50 {
                    let shows = (0...(i % 40)).map { ShowRecord(at: start + Int64($0) * 1000, session: thread + 1) }
                    do {
                        try store.save(LedgerSnapshot(installedAt: start, sessionCount: thread + 1, shows: ["w\(thread)": shows]))
                    } catch {
                        failures.append(.unwritable(reason: "\(error)"))
                    }
                }
                writersDone.add()
            }
            #expect(failures.all.isEmpty, "a write failed or a reader saw a torn ledger")
            let final = try #require(try FileLedgerStore(path: path).load())
            #expect(final.shows.count == 1 && final.shows.first?.value.count == 10, "one writer's last snapshot, whole")
            #expect(files(in: directory, containing: ".tmp").isEmpty, "no temporary file left behind")
        }
    }

    @Test func temporaryFilesOfKilledWritersAreRemovedOnLoad() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            // Only the name a writer makes (`.tmp-<pid>-<counter>-<hex>`) is a writer's: the others may be the app's own.
            let others = ["ledger.json.other", "ledger.json.tmp", "ledger.json.tmp-2026-12-01", "ledger.json.tmp-1-2-3-4", "ledger.json.tmp-12-1-ab12", "ledger.json.tmpl"]
            for name in ["ledger.json.tmp-123-1-0000ab12"] + others {
                try Data("x".utf8).write(to: URL(fileURLWithPath: directory + "/" + name))
            }
            #expect(try FileLedgerStore(path: path).load() == nil)
            #expect(files(in: directory, containing: "ledger.json.") == (["ledger.json.lock"] + others).sorted())
        }
    }
}

/// Lets a ledger-problem handler reach the engine it was given to: held weakly, as an app's handler holds it. The
/// engine a problem handler calls, held weakly, as an app's handler holds it: the engine holds the handler, so a
/// strong reference back would keep both alive for good (AddressSanitizer's leak check found that cycle here).
final class EngineBox: @unchecked Sendable {
    private let lock = NSLock()
    private weak var stored: AdEngine?
    var engine: AdEngine? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
