import AdRules
import AdRulesCompiler
import Foundation

extension BenchmarkSuite {
    func ledger() throws -> [String] {
        let policy = try Policy(contentsOf: rulesPath)
        let directory = NSTemporaryDirectory() + "adrules-bench-ledger-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
        let engine = AdEngine(policy: policy, clock: clock, store: FileLedgerStore(path: directory + "/ledger.json"))
        engine.record(.appLaunched)
        let quiet = Timing.measure(rounds: rounds, batch: 1000, items: 10_000) { range in
            for _ in range { engine.record(.action("level_end")) }
        }
        var writes: [Double] = []
        for _ in 0..<50 {
            clock.advance(by: 120)
            engine.record(.loadCompleted("level_end"))
            let t0 = nanoseconds()
            engine.record(.showStarted("level_end"))
            writes.append(Double(nanoseconds() - t0))
            engine.record(.adClosed("level_end"))
        }
        writes.sort()
        let store = InMemoryLedgerStore()
        let counted = AdEngine(policy: policy, clock: clock, store: store)
        let before = store.writeCount
        counted.record(.action("level_end"))
        _ = counted.ask(.show("level_end", trigger: .action))
        let afterQuiet = store.writeCount
        counted.record(.appLaunched)
        counted.record(.loadCompleted("level_end"))
        let afterLaunch = store.writeCount
        counted.record(.showStarted("level_end"))
        let large = try largeLedger(in: directory)
        return [
            "Ledger (FileLedgerStore: unique temporary file, fsync, rename under flock)",
            "record, an event that changes nothing on disk".padding(toLength: 46, withPad: " ", startingAt: 0) + format(quiet.median).leftPad(10) + format(quiet.p99).leftPad(10),
            "record(show_started), persisted".padding(toLength: 46, withPad: " ", startingAt: 0) + format(writes[writes.count / 2]).leftPad(10) + format(writes[writes.count * 99 / 100]).leftPad(10),
            "file writes: action + ask \(afterQuiet - before), app_launched + load \(afterLaunch - afterQuiet), show_started \(store.writeCount - afterLaunch)",
        ] + large
    }

    /// A ledger near its 4 MiB bound, which a lint-clean policy can fill: a cap of 100,000 shows in 366 days keeps
    /// every show of the year. The engine's start (reading it) and a persisted show (writing it whole).
    private func largeLedger(in directory: String) throws -> [String] {
        let shows = 99_000
        let rules = directory + "/large.yaml"
        try "version: 1\ntimezone: UTC\nplacements:\n  b: {format: banner, caps: [{max: 100000, window: 366d}]}\n".write(toFile: rules, atomically: true, encoding: .utf8)
        let policy = try Policy(contentsOf: rules)
        let start: Int64 = 1_795_000_000_000
        let history = (0..<shows).map { ShowRecord(at: start - 300 * 86_400_000 + Int64($0) * 200_000, session: 1) }
        let path = directory + "/large.json"
        try FileLedgerStore(path: path).save(LedgerSnapshot(installedAt: start - 301 * 86_400_000, sessionCount: 1, shows: ["b": history]))
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let clock = ManualClock(Date(timeIntervalSince1970: Double(start) / 1000))
        var starts: [Double] = []
        var engine: AdEngine?
        for _ in 0..<5 {
            let t0 = nanoseconds()
            engine = AdEngine(policy: policy, clock: clock, store: FileLedgerStore(path: path))
            starts.append(Double(nanoseconds() - t0))
        }
        guard let engine else { return [] }
        engine.record(.appLaunched)
        var writes: [Double] = []
        for _ in 0..<20 {
            clock.advance(by: 60)
            engine.record(.loadCompleted("b"))
            let t0 = nanoseconds()
            _ = engine.beginShow("b", trigger: .action)
            writes.append(Double(nanoseconds() - t0))
            engine.record(.adClosed("b"))
        }
        starts.sort()
        writes.sort()
        return [
            "A ledger of \(shows) shows, \(size / 1024) KiB (a cap of 100,000 shows in 366 days)",
            "AdEngine.init, reading it".padding(toLength: 46, withPad: " ", startingAt: 0) + format(starts[starts.count / 2]).leftPad(10),
            "beginShow, persisted to it".padding(toLength: 46, withPad: " ", startingAt: 0) + format(writes[writes.count / 2]).leftPad(10) + format(writes[writes.count - 1]).leftPad(10),
        ]
    }
}
