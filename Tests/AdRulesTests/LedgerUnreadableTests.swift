import AdRulesTestSupport
import AdRules
import Foundation
import Testing

/// A ledger that exists but cannot be read (permissions, iOS data protection while the device is locked) is never
/// moved aside or overwritten: the engine runs in memory, reads it again before each write, and adopts it whole.
@Suite("Ledger: unreadable files are left alone")
struct LedgerUnreadableTests {
    static let policyText = LedgerLoadingTests.policyText
    static let hour: Int64 = 3_600_000

    /// What the ledger held before it became unreadable: 5 sessions, one show an hour ago.
    static let onDisk = LedgerSnapshot(
        installedAt: engineTestStartMs - 240 * hour, sessionCount: 5, shows: ["inter": [ShowRecord(at: engineTestStartMs - hour, session: 5)]])

    /// Records a session with one show at the clock's time, and returns whether the show was allowed.
    func showOnce(_ engine: AdEngine) -> Bool {
        engine.record(.loadCompleted("inter"))
        let allowed = engine.beginShow("inter", trigger: .action).isAllowed
        engine.record(.adClosed("inter"))
        return allowed
    }

    /// An engine on the ledger file at `path`, its problems logged, after a cold start.
    func launched(at path: String, clock: ManualClock, problems: ProblemLog) throws -> AdEngine {
        let engine = AdEngine(
            policy: try policy(Self.policyText), clock: clock, store: FileLedgerStore(path: path), onLedgerProblem: { problems.append($0) })
        engine.record(.appLaunched)
        return engine
    }

    @Test func aDirectoryAtTheLedgerPathIsReportedNotMovedAndAdoptedOnceReadable() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            try Data("keep".utf8).write(to: URL(fileURLWithPath: path + "/marker"))
            let problems = ProblemLog()
            let clock = ManualClock(engineTestStart)
            let engine = try launched(at: path, clock: clock, problems: problems)
            #expect(showOnce(engine))
            var isDirectory: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue, "not moved")
            #expect(FileManager.default.contents(atPath: path + "/marker") == Data("keep".utf8), "not overwritten")
            #expect(files(in: directory, containing: ".corrupt").isEmpty)
            guard problems.all.count == 1, case .unreadable(let reason)? = problems.all.first else {
                Issue.record("expected one unreadable report, got \(problems.all)")
                return
            }
            #expect(reason.contains("not a regular file"))

            // The ledger becomes readable again (here: the directory is replaced by the real ledger).
            try FileManager.default.removeItem(atPath: path)
            try FileLedgerStore(path: path).save(Self.onDisk)
            clock.advance(by: 120)
            #expect(showOnce(engine), "the second show of the session, under session_cap: 2")
            let stored = try #require(try FileLedgerStore(path: path).load())
            #expect(stored.installedAt == Self.onDisk.installedAt)
            #expect(stored.sessionCount == 6, "5 on disk, then the one started in memory")
            #expect(stored.shows["inter"] == [
                ShowRecord(at: engineTestStartMs - Self.hour, session: 5), ShowRecord(at: engineTestStartMs, session: 6),
                ShowRecord(at: engineTestStartMs + 120_000, session: 6),
            ])
            #expect(problems.all.count == 1, "nothing new to report")
            clock.advance(by: 120)
            engine.record(.loadCompleted("inter"))
            #expect(engine.ask(.show("inter", trigger: .action)).codes == [.sessionCap], "the adopted facts count this session's shows")
        }
    }

    /// An app's `installedAt:` and `sessionsBefore:` are for a ledger started fresh: one that was unreadable at launch and
    /// is read later keeps its own install time and count, and the sessions since are counted after them (5 on disk,
    /// then this launch: 6, not 5 + 3 + 1).
    @Test func aLedgerReadLaterKeepsItsOwnCountNotTheAppsFreshOne() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            let clock = ManualClock(engineTestStart)
            let engine = AdEngine(
                policy: try policy(Self.policyText), clock: clock, store: FileLedgerStore(path: path),
                installedAt: Date(timeIntervalSince1970: Double(engineTestStartMs - 24 * Self.hour) / 1000), sessionsBefore: 3)
            engine.record(.appLaunched)
            #expect(showOnce(engine))
            try FileManager.default.removeItem(atPath: path)
            try FileLedgerStore(path: path).save(Self.onDisk)
            clock.advance(by: 120)
            #expect(showOnce(engine))
            let stored = try #require(try FileLedgerStore(path: path).load())
            #expect(stored.installedAt == Self.onDisk.installedAt, "the ledger's own install time")
            #expect(stored.sessionCount == 6, "5 on disk, then the one started in memory")
            #expect(stored.shows["inter"]?.map(\.session) == [5, 6, 6], "\(String(describing: stored.shows["inter"]))")
        }
    }

    /// A ledger a newer version wrote (the app was rolled back) is moved aside, kept, with a reason that says so, and a
    /// fresh ledger is written and kept from then on: left in place, nothing was written while the app stayed rolled
    /// back, and every launch started caps and grace over.
    @Test func aLedgerANewerVersionWroteIsMovedAsideAndTheNextLaunchKeepsItsShows() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            for newer in [#"{"version":2,"installedAt":1795856400000,"sessionCount":12,"shows":{}}"#, #"{"version":3,"layout":"other"}"#] {
                for file in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] { try FileManager.default.removeItem(atPath: directory + "/" + file) }
                try Data(newer.utf8).write(to: URL(fileURLWithPath: path))
                let problems = ProblemLog()
                let clock = ManualClock(engineTestStart)
                #expect(showOnce(try launched(at: path, clock: clock, problems: problems)))
                let kept = files(in: directory, containing: ".corrupt")
                #expect(kept.count == 1, "moved aside, not deleted")
                #expect(kept.first.flatMap { FileManager.default.contents(atPath: directory + "/" + $0) } == Data(newer.utf8))
                guard case .corrupt(_, _, let reason)? = problems.all.first else {
                    Issue.record("expected a corrupt report, got \(problems.all)")
                    continue
                }
                #expect(reason.contains("written by a newer version of AdRules"), "\(reason)")
                // The next launch reads the ledger this one wrote: the show counts.
                clock.advance(by: 10)
                let relaunched = AdEngine(policy: try policy(Self.policyText), clock: clock, store: FileLedgerStore(path: path))
                #expect(relaunched.currentFacts.showHistory(policy: relaunched.currentPolicy)["inter"]?.count == 1)
            }
            #expect(throws: LedgerError.corrupt("version is 0; only version 1 is known")) {
                try LedgerSnapshot(validating: Data(#"{"version":0,"installedAt":1795856400000,"sessionCount":1,"shows":{}}"#.utf8))
            }
        }
    }

    /// A corrupt ledger whose name leaves no room for the `.corrupt-…` suffix (255 bytes a name) is still moved aside,
    /// its name cut short, at a character's start: left in place, it would stop every write for good.
    @Test func aCorruptLedgerWithALongNameIsMovedAsideUnderAShorterName() throws {
        try withTemporaryDirectory { directory in
            let name = String(repeating: "l", count: 200) + String(repeating: "é", count: 12)
            let path = directory + "/" + name
            let corrupt = Data("{\"version\": 1, \"installedAt\": ".utf8)
            try corrupt.write(to: URL(fileURLWithPath: path))
            let problems = ProblemLog()
            let engine = AdEngine(
                policy: try policy(Self.policyText), clock: ManualClock(engineTestStart), store: FileLedgerStore(path: path),
                onLedgerProblem: { problems.append($0) })
            engine.record(.appLaunched)
            #expect(showOnce(engine))
            guard problems.all.count == 1, case .corrupt(_, let movedTo?, _)? = problems.all.first else {
                Issue.record("expected one corrupt report with where the file went, got \(problems.all)")
                return
            }
            #expect(FileManager.default.contents(atPath: movedTo) == corrupt, "kept")
            let aside = String(movedTo.dropFirst(directory.count + 1))
            #expect(aside.utf8.count <= 255 && aside.hasPrefix(String(repeating: "l", count: 200)) && aside.contains(".corrupt-"), "\(aside)")
            #expect(try FileLedgerStore(path: path).load()?.shows["inter"]?.count == 1, "a fresh ledger with the show")
        }
        #expect(FileLedgerStore.asideName(for: "/d/abc", suffix: ".x") == "/d/abc.x")
        // 245 bytes of room, less 9 for `~` and the name's hash: 118 whole characters.
        let cut = FileLedgerStore.asideName(for: "/d/" + String(repeating: "é", count: 200), suffix: ".corrupt-1")
        #expect(cut.hasPrefix("/d/" + String(repeating: "é", count: 118) + "~") && cut.hasSuffix(".corrupt-1") && cut.utf8.count == 3 + 236 + 9 + 10, "\(cut)")
        #expect(cut != FileLedgerStore.asideName(for: "/d/" + String(repeating: "é", count: 199) + "e", suffix: ".corrupt-1"), "two names cut alike differ by their hash")
    }

    /// Makes `directory` refuse new names and renames, for root too where it can (CI runs as root, and root writes
    /// into a `chmod 555` directory): immutable (`chattr +i`) for root, read-only otherwise. Returns what undoes it, or
    /// nil when this machine cannot (root without `chattr` or the capability, on a file system without the flag).
    static func lock(_ directory: String) -> (() -> Void)? {
        guard getuid() == 0 else {
            guard chmod(directory, 0o555) == 0 else { return nil }
            return { chmod(directory, 0o755) }
        }
        func chattr(_ flag: String) -> Bool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
            process.arguments = [flag, directory]
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return false }
            process.waitUntilExit()
            return process.terminationStatus == 0
        }
        // The flag is set only if this machine keeps it: a probe file must then be refused.
        guard chattr("+i") else { return nil }
        guard FileManager.default.createFile(atPath: directory + "/probe", contents: nil) == false else {
            _ = chattr("-i")
            return nil
        }
        return { _ = chattr("-i") }
    }

    /// Whether this machine can lock a directory for this test run's user (``lock(_:)``).
    static let canLockDirectories: Bool = {
        let directory = scratchPath("adrules-lock-probe")
        guard (try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)) != nil else { return false }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        guard let unlock = lock(directory) else { return false }
        unlock()
        return true
    }()

    /// A corrupt ledger that cannot be moved aside at all (its directory refuses it) is the only copy: it is left as it
    /// is, reported, and never written over.
    @Test(.enabled(if: canLockDirectories, "chattr +i, for root, is not available here"))
    func aCorruptLedgerThatCannotBeMovedAsideIsNeverOverwritten() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            let corrupt = Data("{\"version\": 1, \"installedAt\": ".utf8)
            try corrupt.write(to: URL(fileURLWithPath: path))
            let unlock = try #require(Self.lock(directory))
            defer { unlock() }
            let problems = ProblemLog()
            let engine = AdEngine(
                policy: try policy(Self.policyText), clock: ManualClock(engineTestStart), store: FileLedgerStore(path: path),
                onLedgerProblem: { problems.append($0) })
            engine.record(.appLaunched)
            #expect(showOnce(engine))
            #expect(FileManager.default.contents(atPath: path) == corrupt, "left as it was")
            guard case .unreadable(let reason)? = problems.all.first else {
                Issue.record("expected an unreadable report, got \(problems.all)")
                return
            }
            #expect(reason.contains("is corrupt (") && reason.contains("could not be moved aside to be kept ("), "\(reason)")
        }
    }

    @Test(.enabled(if: getuid() != 0, "root reads a chmod 000 file"))
    func aFileWithoutReadPermissionIsNeverOverwritten() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            try FileLedgerStore(path: path).save(Self.onDisk)
            let before = FileManager.default.contents(atPath: path)
            chmod(path, 0)
            defer { chmod(path, 0o644) }
            let problems = ProblemLog()
            let engine = AdEngine(policy: try policy(Self.policyText), clock: ManualClock(engineTestStart), store: FileLedgerStore(path: path), onLedgerProblem: { problems.append($0) })
            engine.record(.appLaunched)
            _ = showOnce(engine)
            chmod(path, 0o644)
            #expect(FileManager.default.contents(atPath: path) == before)
            #expect(problems.all.count == 1)
            guard case .unreadable? = problems.all.first else {
                Issue.record("expected an unreadable report, got \(problems.all)")
                return
            }
        }
    }

    @Test func anInjectedReadFailureIsRetriedBeforeEachWriteAndNothingIsWrittenMeanwhile() throws {
        let store = ScriptedStore(Self.onDisk, loadError: LedgerError.io("the device is locked"))
        let problems = ProblemLog()
        let clock = ManualClock(engineTestStart)
        let engine = AdEngine(policy: try policy(Self.policyText), clock: clock, store: store, onLedgerProblem: { problems.append($0) })
        engine.record(.appLaunched)
        #expect(showOnce(engine))
        engine.record(.appBackgrounded)
        clock.advance(by: 3600)
        engine.record(.appResumed)
        #expect(showOnce(engine))
        #expect(store.saved.isEmpty, "an unreadable ledger is never overwritten")
        #expect(problems.all == [.unreadable(reason: "the device is locked")], "reported once")

        store.setLoadError(nil)
        // The shows made meanwhile are unsaved: the next event, though it changes nothing the ledger holds, reads the
        // ledger again, adopts it and writes.
        engine.record(.appBackgrounded)
        let adopted = try #require(store.saved.last)
        #expect(store.saved.count == 1)
        #expect(adopted.installedAt == Self.onDisk.installedAt)
        #expect(adopted.sessionCount == 7)
        #expect(adopted.shows["inter"]?.map(\.session) == [5, 6, 7])
        clock.advance(by: 3600)
        engine.record(.appResumed)  // a new session: written as usual
        #expect(store.saved.count == 2)
        #expect(store.saved.last?.sessionCount == 8)
        #expect(engine.currentFacts.sessionCount == 8)
    }

    @Test func anotherStoresOwnErrorIsUnreadableNotCorrupt() throws {
        let store = ScriptedStore(Self.onDisk, loadError: CocoaError(.fileReadNoPermission))
        let problems = ProblemLog()
        let engine = AdEngine(policy: try policy(Self.policyText), clock: ManualClock(engineTestStart), store: store, onLedgerProblem: { problems.append($0) })
        engine.record(.appLaunched)
        guard case .unreadable? = problems.all.first else {
            Issue.record("expected unreadable, got \(problems.all)")
            return
        }
        #expect(store.saved.isEmpty)
    }

    @Test func aFIFOOrADeviceAtTheLedgerPathNeverBlocks() throws {
        try withTemporaryDirectory { directory in
            let fifo = directory + "/fifo.json"
            #expect(mkfifo(fifo, 0o644) == 0)
            let device = directory + "/zero.json"
            try FileManager.default.createSymbolicLink(atPath: device, withDestinationPath: "/dev/zero")
            let policy = try policy(Self.policyText)
            for path in [fifo, device] {
                let outcome = ProblemLog()
                let finished = finishes(within: 10) {
                    _ = AdEngine(policy: policy, clock: ManualClock(engineTestStart), store: FileLedgerStore(path: path), onLedgerProblem: { outcome.append($0) })
                }
                #expect(finished, "\(path) blocked the engine")
                guard case .unreadable(let reason)? = outcome.all.first else {
                    Issue.record("expected unreadable for \(path), got \(outcome.all)")
                    continue
                }
                #expect(reason.contains("not a regular file"))
                #expect(FileManager.default.fileExists(atPath: path), "left in place")
            }
        }
    }
}
