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
        return [
            "Ledger (FileLedgerStore: unique temporary file, fsync, rename under flock)",
            "record, an event that changes nothing on disk".padding(toLength: 46, withPad: " ", startingAt: 0) + format(quiet.median).leftPad(10) + format(quiet.p99).leftPad(10),
            "record(show_started), persisted".padding(toLength: 46, withPad: " ", startingAt: 0) + format(writes[writes.count / 2]).leftPad(10) + format(writes[writes.count * 99 / 100]).leftPad(10),
            "file writes: action + ask \(afterQuiet - before), app_launched + load \(afterLaunch - afterQuiet), show_started \(store.writeCount - afterLaunch)",
        ]
    }
}
