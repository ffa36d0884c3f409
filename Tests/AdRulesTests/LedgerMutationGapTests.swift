@testable import AdRules
import AdRulesTestSupport
import Foundation
import Testing

/// What a mutation audit of the engine and its ledger (Sources/AdRules/Engine) found unchecked: each test holds one
/// promise of docs/ledger.md, docs/limits.md or rules.md §8 that a small change to the engine broke while every other
/// test passed. (The bug the audit found, a fresh ledger whose write failed never retried, is fixed; its test is
/// LedgerWriteTests' `aFreshLedgerWhoseWriteFailedIsWrittenAtTheNextLifecycleEvent`.)
@Suite("Ledger: what mutation testing found unchecked")
struct LedgerMutationGapTests {
    static let policyText = LedgerWriteTests.policyText
    static let pacedText = "version: 1\ntimezone: UTC\nplacements:\n  inter: {format: interstitial, min_interval: 10m}\n"
    static let hour: Int64 = 3_600_000

    /// Whether `error` is `LedgerError.corrupt` with a reason containing `part`.
    static func isCorrupt(_ error: any Error, containing part: String) -> Bool {
        guard case LedgerError.corrupt(let reason) = error else { return false }
        return reason.contains(part)
    }

    // MARK: when the engine writes

    /// docs/ledger.md: the first ask or event "after a start-up that read such times later than the clock" writes once,
    /// and "a show, the install time" are such times: an install time alone later than the clock is pinned (rules.md
    /// §8) and reaches the file with the first event, though that event changes nothing else.
    @Test func anInstallTimeLaterThanTheClockAtStartUpIsWrittenPinnedOnce() throws {
        let store = ScriptedStore(LedgerSnapshot(installedAt: engineTestStartMs + Self.hour, sessionCount: 1, shows: [:]))
        let engine = AdEngine(policy: try policy(Self.policyText), clock: ManualClock(engineTestStart), store: store)
        #expect(store.saved.isEmpty, "a load writes nothing")
        engine.record(.loadCompleted("inter"))
        #expect(store.saved.map(\.installedAt) == [engineTestStartMs], "the pinned install time, written once")
        engine.record(.loadCompleted("hint"))
        _ = engine.ask(.show("inter", trigger: .action))
        #expect(store.saved.count == 1, "once")
    }

    /// docs/ledger.md: "Nothing else writes: not another ask, not a load": a show at exactly the clock's time at
    /// start-up is not later than the clock, so nothing was pinned and nothing is written for it.
    @Test func aShowAtExactlyTheClocksTimeAtStartUpIsNotWrittenAgain() throws {
        let store = ScriptedStore(LedgerSnapshot(
            installedAt: engineTestStartMs - Self.hour, sessionCount: 1, shows: ["inter": [ShowRecord(at: engineTestStartMs, session: 1)]]))
        let engine = AdEngine(policy: try policy(Self.policyText), clock: ManualClock(engineTestStart), store: store)
        engine.record(.loadCompleted("inter"))
        _ = engine.ask(.show("inter", trigger: .action))
        #expect(store.saved.isEmpty)
    }

    /// docs/ledger.md: "the first ask or event that pins a time the file holds ... writes once more". A `beginShow` that
    /// is denied is such an ask: the show time it pinned reaches the file, so that the `next_allowed_at` it gave comes
    /// true after a restart too (rules.md §8).
    @Test func aDeniedBeginShowThatPinsAfterAClockSetBackWritesOnce() throws {
        let store = InMemoryLedgerStore()
        let clock = ManualClock(engineTestStart)
        let engine = AdEngine(policy: try policy(Self.pacedText), clock: clock, store: store)
        engine.record(.appLaunched)
        engine.record(.loadCompleted("inter"))
        #expect(engine.beginShow("inter", trigger: .action).isAllowed)
        engine.record(.adClosed("inter"))
        engine.record(.loadCompleted("inter"))
        let before = store.writeCount
        clock.advance(by: -3600)
        #expect(engine.beginShow("inter", trigger: .action).codes == [.minInterval])
        #expect(store.writeCount == before + 1, "the denied beginShow that pinned writes once")
        #expect(try store.load()?.shows["inter"]?.map(\.at) == [engineTestStartMs - Self.hour])
        _ = engine.beginShow("inter", trigger: .action)
        #expect(store.writeCount == before + 1, "the next one has nothing new to write")
    }

    /// docs/ledger.md: after a write that failed, "the next launch, return or move to the background writes"; "Other
    /// events do not retry". `beginLoad`, a denied `beginShow` and a denied `claimReward` are not among those that do.
    @Test func onlyALaunchAReturnOrAMoveToTheBackgroundRetriesAFailedWrite() throws {
        let store = ScriptedStore()
        let engine = AdEngine(policy: try policy(Self.policyText), clock: ManualClock(engineTestStart), store: store)
        engine.record(.appLaunched)
        engine.record(.loadCompleted("inter"))
        store.setSaveError(LedgerError.io("disk full"))
        #expect(engine.beginShow("inter", trigger: .action).isAllowed)
        engine.record(.adClosed("inter"))
        store.setSaveError(nil)
        let before = store.saved.count
        #expect(engine.beginLoad("hint").isAllowed)
        #expect(!engine.beginShow("inter", trigger: .action).isAllowed)
        #expect(!engine.claimReward("hint").isAllowed)
        #expect(store.saved.count == before, "asks that record an event do not retry")
        engine.record(.appBackgrounded)
        #expect(store.saved.count == before + 1)
        #expect(store.saved.last?.shows["inter"]?.count == 1)
    }

    // MARK: unreadable, then read

    /// docs/ledger.md: "A store unreadable at start-up that later loads a corrupt snapshot is reported after the write
    /// that replaces it."
    @Test func aStoreUnreadableAtStartThatLaterLoadsACorruptSnapshotIsReportedAfterTheWrite() throws {
        let store = ScriptedStore(LedgerUnreadableTests.onDisk, loadError: LedgerError.io("the device is locked"))
        let problems = ProblemLog()
        let reportedAfterAWrite = ProblemLog()
        let engine = AdEngine(policy: try policy(Self.policyText), clock: ManualClock(engineTestStart), store: store) { problem in
            problems.append(problem)
            if !store.saved.isEmpty { reportedAfterAWrite.append(problem) }
        }
        engine.record(.appLaunched)
        store.setLoadError(nil)
        store.setStored(LedgerSnapshot(installedAt: engineTestStartMs, sessionCount: -1, shows: [:]))
        engine.record(.appBackgrounded)
        #expect(problems.all.count == 2, "\(problems.all)")
        guard case .corrupt(let path, let movedTo, let reason)? = problems.all.last else {
            Issue.record("expected a corrupt report after the unreadable one, got \(problems.all)")
            return
        }
        #expect(path == "ScriptedStore" && movedTo == nil)
        #expect(reason.contains("sessionCount is -1"), "\(reason)")
        #expect(reportedAfterAWrite.all.count == 1, "reported once the write that replaces it was made")
        #expect(store.saved.last?.sessionCount == 1, "the record kept in memory is written")
    }

    /// docs/ledger.md: once an unreadable ledger can be read, its install time comes first, and the app's `installedAt:`,
    /// which is "for a ledger started fresh", is dropped, also when it is the earlier of the two.
    @Test func aLedgerReadLaterKeepsItsOwnInstallTimeThoughTheAppsIsEarlier() throws {
        let onDisk = LedgerUnreadableTests.onDisk
        let store = ScriptedStore(onDisk, loadError: LedgerError.io("the device is locked"))
        let appsInstall = Milliseconds.date(onDisk.installedAt - 30 * 24 * Self.hour)
        let engine = AdEngine(policy: try policy(Self.policyText), clock: ManualClock(engineTestStart), store: store, installedAt: appsInstall)
        engine.record(.appLaunched)
        store.setLoadError(nil)
        engine.record(.appBackgrounded)
        #expect(store.saved.last?.installedAt == onDisk.installedAt)
        #expect(engine.currentFacts.installedAt == onDisk.installedAt)
    }

    // MARK: moving a corrupt ledger aside

    /// docs/ledger.md: a corrupt ledger "is moved aside to `<path>.corrupt-…` and kept": afterwards its bytes are at the
    /// new name only, and the path holds no ledger.
    @Test func aCorruptLedgerMovedAsideNoLongerSitsAtItsPath() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            let corrupt = Data("{not json".utf8)
            try corrupt.write(to: URL(fileURLWithPath: path))
            guard case .moved(let target) = FileLedgerStore(path: path).quarantine(now: engineTestStart) else {
                Issue.record("expected the corrupt ledger to be moved aside")
                return
            }
            #expect(!FileManager.default.fileExists(atPath: path), "moved, not copied")
            #expect(FileManager.default.contents(atPath: target) == corrupt, "kept as it was")
            #expect(try FileLedgerStore(path: path).load() == nil)
        }
    }

    /// docs/ledger.md: a corrupt ledger is moved aside; only one that cannot be moved ("a directory that refuses it, a
    /// read-only volume") stays. A lock file that cannot be opened (a directory stands at `<path>.lock`) does not stop
    /// the move; the writes after it fail and are reported as such.
    @Test func aCorruptLedgerIsMovedAsideThoughItsLockFileCannotBeOpened() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            let corrupt = Data("{not json".utf8)
            try corrupt.write(to: URL(fileURLWithPath: path))
            try FileManager.default.createDirectory(atPath: path + ".lock", withIntermediateDirectories: false)
            let problems = ProblemLog()
            let engine = AdEngine(
                policy: try policy(Self.policyText), clock: ManualClock(engineTestStart), store: FileLedgerStore(path: path),
                onLedgerProblem: { problems.append($0) })
            engine.record(.appLaunched)
            guard case .corrupt(_, let movedTo?, _)? = problems.all.first else {
                Issue.record("expected a corrupt report with where the file went, got \(problems.all)")
                return
            }
            #expect(FileManager.default.contents(atPath: movedTo) == corrupt, "kept")
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(problems.all.dropFirst().allSatisfy { problem in
                if case .unwritable = problem { return true }
                return false
            }, "\(problems.all)")
        }
    }

    // MARK: the file

    /// A write whose rename fails (a directory now stands at the ledger's path) removes its temporary file: the engine
    /// retries at each launch, return and move to the background, and each retry would leave one more file of up to
    /// 4 MiB next to the ledger until the next start (docs/ledger.md: only "a temporary file left by a killed writer"
    /// waits for the next load).
    @Test func aWriteWhoseRenameFailsLeavesNoTemporaryFile() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            let problems = ProblemLog()
            let engine = AdEngine(
                policy: try policy(Self.policyText), clock: ManualClock(engineTestStart), store: FileLedgerStore(path: path),
                onLedgerProblem: { problems.append($0) })
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            try Data("keep".utf8).write(to: URL(fileURLWithPath: path + "/marker"))
            engine.record(.appLaunched)
            engine.record(.appBackgrounded)
            engine.record(.appResumed)
            guard case .unwritable(let reason)? = problems.all.first else {
                Issue.record("expected an unwritable report, got \(problems.all)")
                return
            }
            #expect(reason.contains("cannot rename"), "\(reason)")
            #expect(files(in: directory, containing: ".tmp").isEmpty, "\(files(in: directory, containing: ".tmp"))")
            #expect(FileManager.default.contents(atPath: path + "/marker") == Data("keep".utf8))
        }
    }

    /// docs/ledger.md: `FileLedgerStore` creates the ledger's folder "on its first write": a load from a folder that does
    /// not exist finds no ledger and creates nothing.
    @Test func loadingALedgerInAMissingFolderCreatesNothing() throws {
        try withTemporaryDirectory { directory in
            let loaded = try FileLedgerStore(path: directory + "/Application Support/ads/ledger.json").load()
            #expect(loaded == nil)
            #expect(!FileManager.default.fileExists(atPath: directory + "/Application Support"))
        }
    }

    /// docs/ledger.md and docs/limits.md: the file is "a regular file of at most 4 MiB": exactly 4 MiB loads, one byte
    /// more is corrupt.
    @Test func aLedgerFileOfExactlyFourMebibytesLoads() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            let json = LedgerLoadingTests.json()
            let exact = Data((json + String(repeating: " ", count: (4 << 20) - json.utf8.count)).utf8)
            #expect(exact.count == 4 * 1024 * 1024)
            #expect(try LedgerSnapshot(validating: exact).sessionCount == 3)
            try exact.write(to: URL(fileURLWithPath: path))
            #expect(try FileLedgerStore(path: path).load()?.sessionCount == 3)
            try (exact + Data(" ".utf8)).write(to: URL(fileURLWithPath: path))
            #expect { try FileLedgerStore(path: path).load() } throws: { Self.isCorrupt($0, containing: "too large") }
        }
    }

    // MARK: bounds

    /// docs/ledger.md: `installedAt` and each show's `at` lie in 2000-01-01 … 9999-12-31T23:59:59.999Z: the last
    /// millisecond loads, a show one millisecond later (or at the largest Int64) is corrupt, naming its time.
    @Test func showTimesAreBoundedAtTheEndOf9999() throws {
        let latest: Int64 = 253_402_300_799_999
        let last = LedgerLoadingTests.json(installedAt: "\(latest)", shows: #"{"inter": [{"at": \#(latest), "session": 1}]}"#)
        #expect(try LedgerSnapshot(validating: Data(last.utf8)).shows["inter"]?.first?.at == latest)
        for at in [latest + 1, Int64.max] {
            let text = LedgerLoadingTests.json(shows: #"{"inter": [{"at": \#(at), "session": 1}]}"#)
            #expect { try LedgerSnapshot(validating: Data(text.utf8)) } throws: { Self.isCorrupt($0, containing: #"a show of "inter" is at \#(at)"#) }
        }
    }

    /// docs/ledger.md: what the engine writes "is clamped into these bounds first" so that it loads: a device clock past
    /// the year 9999 writes the last millisecond of 9999, and the next start reads the ledger, not a corrupt file.
    @Test func aClockPastTheYear9999WritesALedgerThatLoadsAgain() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            let clock = ManualClock(Date(timeIntervalSince1970: 253_402_387_200))  // 10000-01-02T00:00:00Z
            let policy = try policy(Self.policyText)
            let problems = ProblemLog()
            let engine = AdEngine(policy: policy, clock: clock, store: FileLedgerStore(path: path), onLedgerProblem: { problems.append($0) })
            engine.record(.appLaunched)
            engine.record(.loadCompleted("inter"))
            #expect(engine.beginShow("inter", trigger: .action).isAllowed)
            let relaunched = AdEngine(policy: policy, clock: clock, store: FileLedgerStore(path: path), onLedgerProblem: { problems.append($0) })
            #expect(problems.all.isEmpty, "\(problems.all)")
            #expect(relaunched.currentFacts.installedAt == 253_402_300_799_999)
            #expect(relaunched.showHistory["inter"] == [ShowRecord(at: 253_402_300_799_999, session: 1)])
        }
    }

    /// docs/ledger.md: `sessionCount` is at most 10,000,000 and each show's `session` at most `sessionCount`; what the
    /// engine writes is clamped into those bounds. An app that passes more sessions (`sessionsBefore:`) writes its
    /// shows' sessions clamped with the count, and the next start reads the show rather than a corrupt file.
    @Test func sessionsPastTheBoundAreWrittenSoThatTheLedgerLoadsAgain() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            let clock = ManualClock(engineTestStart)
            let policy = try policy(Self.policyText)
            let problems = ProblemLog()
            let engine = AdEngine(
                policy: policy, clock: clock, store: FileLedgerStore(path: path), onLedgerProblem: { problems.append($0) },
                sessionsBefore: 20_000_000)
            engine.record(.appLaunched)
            engine.record(.loadCompleted("inter"))
            #expect(engine.beginShow("inter", trigger: .action).isAllowed)
            let relaunched = AdEngine(policy: policy, clock: clock, store: FileLedgerStore(path: path), onLedgerProblem: { problems.append($0) })
            #expect(problems.all.isEmpty, "\(problems.all)")
            #expect(relaunched.currentFacts.sessionCount == 10_000_000)
            #expect(relaunched.showHistory["inter"] == [ShowRecord(at: engineTestStartMs, session: 10_000_000)])
        }
    }

    /// docs/ledger.md: "at most 100,000 placements and 1,000,000 shows in all": exactly those pass, one more is corrupt.
    @Test func exactlyTheMostPlacementsAndShowsALedgerHoldsPass() throws {
        var placements: [String: [ShowRecord]] = [:]
        for i in 0..<100_000 { placements["p\(i)"] = [] }
        #expect(throws: Never.self) { try LedgerSnapshot(installedAt: engineTestStartMs, sessionCount: 1, shows: placements).validate() }
        placements["one_more"] = []
        #expect { try LedgerSnapshot(installedAt: engineTestStartMs, sessionCount: 1, shows: placements).validate() } throws: {
            Self.isCorrupt($0, containing: "shows has 100001 placements")
        }
        let half = Array(repeating: ShowRecord(at: engineTestStartMs, session: 1), count: 500_000)
        var shows = ["a": half, "b": half]
        #expect(throws: Never.self) { try LedgerSnapshot(installedAt: engineTestStartMs, sessionCount: 1, shows: shows).validate() }
        shows["c"] = [ShowRecord(at: engineTestStartMs, session: 1)]
        #expect { try LedgerSnapshot(installedAt: engineTestStartMs, sessionCount: 1, shows: shows).validate() } throws: {
            Self.isCorrupt($0, containing: "more than 1000000 shows")
        }
    }

    /// docs/ledger.md: what the engine writes stays within the file's 4 MiB "so that it loads", at the widest a show is
    /// written (`{"at":253402300799999,"session":10000000},`): 120,000 such shows are cut to fit, and load again.
    @Test func theWidestShowsAreCutToFitTheFileBound() throws {
        let latest: Int64 = 253_402_300_799_999
        let shows = (0..<60_000).reversed().map { ShowRecord(at: latest - Int64($0), session: 10_000_000) }
        let snapshot = LedgerSnapshot(installedAt: 946_684_800_000, sessionCount: 10_000_000, shows: ["a": shows, "b": shows])
        let path = scratchPath("adrules-wide") + ".json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileLedgerStore(path: path).save(snapshot.clampedToBounds())
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? .max
        #expect(size <= 4 << 20, "\(size) bytes")
        let loaded = try #require(try FileLedgerStore(path: path).load())
        #expect(loaded.shows["a"]?.last?.at == latest && loaded.shows["b"]?.last?.at == latest, "the newest are kept")
    }

    /// docs/ledger.md: the shows of a placement the policy does not have are kept "each to its newest 100,000 shows (the
    /// most a cap can need)", not to what this policy's caps need: a policy that has the placement again with a
    /// `daily_cap: 600` counts all 600 of the day.
    @Test func setAsideShowsKeepMoreThanThisPolicysCapsNeed() throws {
        let older = try policy("version: 1\ntimezone: UTC\nplacements:\n  a: {format: banner}\n")
        let newer = try policy("version: 1\ntimezone: UTC\nplacements:\n  a: {format: banner}\n  b: {format: banner, daily_cap: 600}\n")
        let midnight: Int64 = 1_796_083_200_000
        let shows = (0..<600).map { ShowRecord(at: midnight + Int64($0) * 60_000, session: 1) }
        let store = InMemoryLedgerStore(LedgerSnapshot(installedAt: midnight - 24 * Self.hour, sessionCount: 1, shows: ["b": shows]))
        let engine = AdEngine(policy: older, clock: ManualClock(Milliseconds.date(midnight + 601 * 60_000)), store: store)
        #expect(engine.showHistory["b"]?.count == 600)
        engine.record(.appLaunched)
        #expect(try store.load()?.shows["b"]?.count == 600, "written back whole")
        engine.update(policy: newer)
        engine.record(.loadCompleted("b"))
        #expect(engine.ask(.show("b", trigger: .action)).codes == [.dailyCap])
    }
}
