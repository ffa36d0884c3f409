import Foundation
import Testing

@testable import AdRules

/// What a ledger on disk may hold, and what the engine makes of a bad one: hostile values are corrupt (moved aside),
/// huge histories are sorted once and capped, and nothing the file says can make arithmetic trap.
@Suite("Ledger: loading hostile files")
struct LedgerLoadingTests {
    static let policyText = """
        version: 1
        timezone: UTC
        placements:
          inter: {format: interstitial, min_interval: 1m, session_cap: 2, max_ad_age: 1h}
          old: {format: interstitial}
        groups:
          all: {placements: [inter, old], daily_cap: 1000}
        """

    static let day: Int64 = 86_400_000

    static func json(installedAt: String = "\(engineTestStartMs - day)", sessionCount: String = "3", shows: String = "{}", version: String = "1") -> String {
        #"{"version": \#(version), "installedAt": \#(installedAt), "sessionCount": \#(sessionCount), "shows": \#(shows)}"#
    }

    /// A ledger file with values a JSON decoder accepts but no app could have written, and the field each reason names.
    static let outOfRange: [(String, String)] = [
        (json(sessionCount: "9223372036854775807"), "sessionCount is 9223372036854775807"),
        (json(sessionCount: "-1"), "sessionCount is -1"),
        (json(sessionCount: "10000001"), "sessionCount is 10000001"),
        (json(installedAt: "-9223372036854775808"), "installedAt is -9223372036854775808"),
        (json(installedAt: "9223372036854775807"), "installedAt is 9223372036854775807"),
        (json(installedAt: "0"), "installedAt is 0"),
        (json(version: "0"), "version is 0"),
        (json(shows: #"{"inter": [{"at": 5, "session": 1}]}"#), #"a show of "inter" is at 5"#),
        (json(shows: #"{"inter": [{"at": \#(engineTestStartMs), "session": 4}]}"#), "has session 4, not in 0...3"),
        (json(shows: #"{"inter": [{"at": \#(engineTestStartMs), "session": -1}]}"#), "has session -1"),
        (json(shows: #"{"a\r\nfake.yaml:1:1: error": [{"at": 1, "session": 0}]}"#), #""a\r\nfake.yaml:1:1: error" is at 1"#),
        (json(sessionCount: "1e308"), "not a ledger"),
        (json(installedAt: "9223372036854775808"), "not a ledger"),
        (#"{"installedAt": 1}"#, "not a ledger: missing key"),
        ("[]", "not a ledger"),
        ("", "not a ledger"),
    ]

    @Test(arguments: outOfRange)
    func implausibleValuesAreCorrupt(text: String, reason: String) throws {
        #expect {
            try LedgerSnapshot(validating: Data(text.utf8))
        } throws: { error in
            guard case LedgerError.corrupt(let message) = error else { return false }
            return message.contains(reason) && !message.contains("\n")
        }
    }

    /// A store of the app's own that loads a snapshot failing the checks: reported, with nothing written yet, so that
    /// the handler can keep it before the fresh ledger replaces it (docs/ledger.md).
    @Test func anotherStoresCorruptSnapshotIsReportedBeforeItIsReplaced() throws {
        let store = ScriptedStore(LedgerSnapshot(installedAt: engineTestStartMs, sessionCount: -1, shows: [:]))
        let seen = ProblemLog()
        let writesWhenReported = ProblemLog()
        _ = AdEngine(policy: try policy("version: 1\nplacements:\n  a: {format: banner}\n"), clock: ManualClock(engineTestStart), store: store) { problem in
            seen.append(problem)
            if store.saved.isEmpty { writesWhenReported.append(problem) }
        }
        guard case .corrupt(_, let movedTo, _)? = seen.all.first else {
            Issue.record("expected a corrupt report, got \(seen.all)")
            return
        }
        #expect(movedTo == nil)
        #expect(writesWhenReported.all.count == 1)
        #expect(store.saved.last?.sessionCount == 0)
    }

    @Test func aHugeSessionCountIsMovedAsideInsteadOfTrappingAtLaunch() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            try Data(Self.json(sessionCount: "9223372036854775807").utf8).write(to: URL(fileURLWithPath: path))
            let problems = ProblemLog()
            let engine = AdEngine(
                policy: try policy(Self.policyText), clock: ManualClock(engineTestStart), store: FileLedgerStore(path: path),
                onLedgerProblem: { problems.append($0) })
            engine.record(.appLaunched)
            #expect(engine.currentFacts.sessionCount == 1)
            guard case .corrupt(_, let movedTo?, let reason)? = problems.all.first else {
                Issue.record("expected a corrupt report, got \(problems.all)")
                return
            }
            #expect(reason.contains("sessionCount"))
            #expect(FileManager.default.fileExists(atPath: movedTo))
            #expect(try FileLedgerStore(path: path).load()?.sessionCount == 1)
        }
    }

    @Test(arguments: [Int64.min, Int64.max])
    func extremeFactsNeverTrap(installedAt: Int64) throws {
        let policy = try policy("""
            version: 1
            timezone: UTC
            placements:
              inter: {format: interstitial, grace: {after_install: 1h, after_session_start: 1m, first_sessions: 2}}
            rules:
              - id: new-users
                deny: [inter]
                when: install.age < 1d and session.count > 3 and session.age >= 0s
                message: no ads for new users
            """)
        var facts = Facts(policy: policy, installedAt: installedAt, sessionsBefore: Int.max)
        facts.apply(.appLaunched, at: engineTestStartMs, policy: policy)
        facts.apply(.appBackgrounded, at: engineTestStartMs, policy: policy)
        facts.apply(.appResumed, at: engineTestStartMs + Self.day, policy: policy)
        facts.apply(.loadCompleted("inter"), at: engineTestStartMs + Self.day, policy: policy)
        #expect(facts.sessionCount == Int.max)
        let decision = Evaluator.decide(.show("inter", trigger: .action), policy: policy, facts: facts, now: engineTestStartMs + Self.day + 120_000)
        // Int64.min: installed "forever ago"; Int64.max: installed in the future, pinned (rules.md §8, r2) to the
        // first event, a day before the ask: past grace.after_install and the rule's 1d either way.
        #expect(decision.codes == [])
    }

    @Test func twoHundredThousandShowsInDescendingOrderLoadSortedAndCapped() throws {
        let policy = try policy(Self.policyText)
        let now = engineTestStartMs
        // One show a second back from now: 55 hours, and far more than the 1000 shows the largest cap needs.
        let descending = (1...200_000).map { ShowRecord(at: now - Int64($0) * 1000, session: 3) }
        let ancient = (0..<1000).map { ShowRecord(at: now - 30 * Self.day - Int64($0) * 1000, session: 1) }
        let store = InMemoryLedgerStore(LedgerSnapshot(installedAt: now - 60 * Self.day, sessionCount: 3, shows: ["inter": descending, "old": ancient, "gone": ancient]))
        let problems = ProblemLog()
        let engine = AdEngine(policy: policy, clock: ManualClock(engineTestStart), store: store, onLedgerProblem: { problems.append($0) })
        let history = engine.currentFacts.showHistory(policy: policy)
        #expect(problems.all.isEmpty)
        // The group's daily_cap of 1000 is larger than 512: a history keeps as many shows as the largest cap needs, and
        // one more for a show_failed.
        #expect(history["inter"]?.count == 1001)
        #expect(history["inter"]?.first?.at == now - 1_001_000, "the latest 1001 are kept")
        #expect(history["inter"]?.last?.at == now - 1000)
        #expect(history["inter"].map { zip($0, $0.dropFirst()).allSatisfy { $0.at < $1.at } } == true, "oldest first")
        // Whatever their age: a clock set back by a month would bring them back into their windows (rules.md §8).
        #expect(history["old"]?.count == 1000 && history["old"]?.last == ShowRecord(at: now - 30 * Self.day, session: 1), "old shows are kept, up to the count")
        // A placement the policy does not have keeps its shows, set aside for the ledger and for a policy that has it
        // again, within the same bound.
        #expect(history["gone"]?.count == 1000 && history["gone"]?.last == ShowRecord(at: now - 30 * Self.day, session: 1))
        engine.record(.appLaunched)
        engine.record(.loadCompleted("inter"))
        #expect(
            engine.ask(.show("inter", trigger: .action)).codes == [.minInterval, .groupDailyCap],
            "the last show was a second ago, and the group has had its 1000 shows today")
    }

    @Test func restoredShowsArePinnedWhenTheClockIsSetBackAfterStartUp() throws {
        let now = engineTestStartMs
        let store = InMemoryLedgerStore(LedgerSnapshot(
            installedAt: now - 2 * Self.day, sessionCount: 3, shows: ["inter": [ShowRecord(at: now - 10_000, session: 3)]]))
        let clock = ManualClock(engineTestStart)
        let engine = AdEngine(policy: try policy(Self.policyText), clock: clock, store: store)
        clock.advance(by: -3600)  // the device clock is set back an hour after the ledger was loaded
        engine.record(.appLaunched)
        engine.record(.loadCompleted("inter"))
        let decision = engine.ask(.show("inter", trigger: .action))
        #expect(decision.codes == [.minInterval])
        #expect(decision.nextAllowedAt.map(Milliseconds.from) == now - 3_600_000 + 60_000, "the show is pinned to the new now")
        #expect(try store.load()?.shows["inter"]?.map(\.at) == [now - 3_600_000], "and persisted pinned")
    }

    @Test func aFileOverFourMebibytesIsCorruptAndKeptAside() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            let text = Self.json() + String(repeating: " ", count: 4 << 20)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            #expect(throws: LedgerError.self) { try FileLedgerStore(path: path).load() }
            let problems = ProblemLog()
            _ = AdEngine(policy: try policy(Self.policyText), clock: ManualClock(engineTestStart), store: FileLedgerStore(path: path), onLedgerProblem: { problems.append($0) })
            guard case .corrupt(_, let movedTo?, let reason)? = problems.all.first else {
                Issue.record("expected a corrupt report, got \(problems.all)")
                return
            }
            #expect(reason.contains("too large"))
            #expect((try? FileManager.default.attributesOfItem(atPath: movedTo)[.size] as? Int) == text.utf8.count, "kept whole")
        }
    }

    /// Two processes start on one corrupt ledger: the first moves it aside and writes its own; the second, which read
    /// the corrupt bytes before, finds a valid ledger under the lock and reads it, rather than moving the first's good
    /// ledger aside as corrupt and starting fresh.
    @Test func aLedgerReplacedBeforeTheLockIsReadNotMovedAside() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            let store = FileLedgerStore(path: path)
            try Data("{not json".utf8).write(to: URL(fileURLWithPath: path))
            #expect(throws: LedgerError.self) { try store.load() }
            let good = LedgerSnapshot(installedAt: engineTestStartMs, sessionCount: 4, shows: ["inter": [ShowRecord(at: engineTestStartMs, session: 4)]])
            try store.save(good)  // the other process, between this one's read and its lock
            #expect(store.quarantine(now: engineTestStart) == .replaced(good))
            #expect(try store.load() == good, "left where it is")
            try Data("{not json".utf8).write(to: URL(fileURLWithPath: path))
            guard case .moved = store.quarantine(now: engineTestStart) else {
                Issue.record("a ledger still corrupt under the lock is moved aside")
                return
            }
        }
    }

    @Test func quarantineNamesNeverCollide() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            let clock = ManualClock(engineTestStart)  // every quarantine in the same millisecond
            var kept: [String] = []
            for i in 0..<5 {
                try Data("not a ledger \(i)".utf8).write(to: URL(fileURLWithPath: path))
                let problems = ProblemLog()
                _ = AdEngine(policy: try policy(Self.policyText), clock: clock, store: FileLedgerStore(path: path), onLedgerProblem: { problems.append($0) })
                guard case .corrupt(_, let movedTo?, _)? = problems.all.first else {
                    Issue.record("expected a corrupt report, got \(problems.all)")
                    return
                }
                #expect(movedTo.contains(".corrupt-\(engineTestStartMs)-"), "the name carries the milliseconds")
                kept.append(movedTo)
            }
            #expect(Set(kept).count == 5)
            for (i, file) in kept.enumerated() {
                #expect(FileManager.default.contents(atPath: file) == Data("not a ledger \(i)".utf8), "each bad file is kept as it was")
            }
        }
    }

    @Test func timesBeforeTwoThousandAreClampedWhenWrittenSoTheLedgerLoadsAgain() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            let clock = ManualClock(Date(timeIntervalSince1970: 0))  // a device whose clock was reset
            let problems = ProblemLog()
            let policy = try policy(Self.policyText)
            let engine = AdEngine(policy: policy, clock: clock, store: FileLedgerStore(path: path), onLedgerProblem: { problems.append($0) })
            engine.record(.appLaunched)
            engine.record(.loadCompleted("inter"))
            #expect(engine.beginShow("inter", trigger: .action).isAllowed)
            let relaunched = AdEngine(policy: policy, clock: clock, store: FileLedgerStore(path: path), onLedgerProblem: { problems.append($0) })
            #expect(problems.all.isEmpty)
            #expect(relaunched.currentFacts.sessionCount == 1)
            #expect(relaunched.currentFacts.showHistory(policy: policy)["inter"] == [ShowRecord(at: 0, session: 1)], "pinned back to now")
        }
    }
}
