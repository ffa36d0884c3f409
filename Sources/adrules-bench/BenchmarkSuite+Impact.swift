import AdRules
import AdRulesCompiler
import AdRulesImpact
import AdRulesYAML
import Foundation

/// `adrules impact` throughput: simulated user-days per second on the shipped rules and example model.
extension BenchmarkSuite {
    /// The model next to the rules (`usage.model.yaml`).
    var modelPath: String { (rulesPath as NSString).appendingPathComponent("usage.model.yaml") }

    func impact() throws -> [String] {
        let policy = try Policy(contentsOf: rulesPath)
        let bytes = try PolicyLoader.readBytes(modelPath)
        let decoded = ModelDecoder.decode(bytes, file: modelPath)
        guard let model = decoded.model else { throw BenchError.missing("the model \(modelPath) has errors: \(decoded.diagnostics)") }
        let users = 2_000, days = 7
        let policies = [NamedPolicy(name: rulesPath, policy: policy)]
        var lines = ["impact: \(modelPath) with \(rulesPath), \(users) users x \(days) days a run (\(users * days) user-days), best and median of \(max(3, rounds / 3)) runs"]
        lines.append("  threads  user-days/s (best)  user-days/s (median)  CPU µs per user-day  wall µs per user-day")
        var reference: ImpactReport?
        for threads in [1, 2] {
            var walls: [Double] = []
            var cpus: [Double] = []
            for _ in 0..<max(3, rounds / 3) {
                let cpu0 = cpuSeconds(), t0 = nanoseconds()
                let report = try ImpactRunner.run(model: model, policies: policies, options: ImpactOptions(users: users, days: days, threads: threads))
                let wall = Double(nanoseconds() - t0) / 1e9, cpu = cpuSeconds() - cpu0
                if let reference, reference != report { throw BenchError.missing("the figures changed with the thread count") }
                reference = report
                walls.append(wall)
                cpus.append(cpu)
            }
            walls.sort()
            cpus.sort()
            let userDays = Double(users * days)
            lines.append(String(
                format: "  %7d  %18.0f  %20.0f  %19.1f  %20.1f", threads, userDays / walls[0], userDays / walls[walls.count / 2],
                cpus[cpus.count / 2] / userDays * 1e6, walls[walls.count / 2] / userDays * 1e6))
        }
        lines.append(String(format: "  parallelism the machine gave a pure arithmetic loop at the same time: %.2fx with 2 threads", availableParallelism()))
        let calls = ImpactRunner.engineCalls(model: model, policy: policy, users: 500, days: days)
        lines.append(String(format: "  engine calls (record, ask, beginShow, claimReward) per user-day: %.1f", calls))
        return lines
    }

    /// How much faster two threads run a fixed amount of pure arithmetic than one: 2.0 on an idle 2-core
    /// machine, less when other processes share the cores. It tells what the wall-clock figures can show.
    func availableParallelism() -> Double {
        // Each loop starts from the time it was started at and its result is kept, so the optimiser can
        // neither move it out of the timed region nor drop it.
        @Sendable func spin(_ n: Int, from seed: UInt64) -> UInt64 {
            var x = seed | 1
            for _ in 0..<n {
                x ^= x << 13
                x ^= x >> 7
                x ^= x << 17
            }
            return x
        }
        let sink = Sink()
        let work = 300_000_000
        var best1 = Double.infinity, best2 = Double.infinity
        for _ in 0..<3 {
            let t0 = nanoseconds()
            sink.add(spin(work, from: t0))
            best1 = min(best1, Double(nanoseconds() - t0))
            let t1 = nanoseconds()
            DispatchQueue.concurrentPerform(iterations: 2) { _ in sink.add(spin(work / 2, from: t1)) }
            best2 = min(best2, Double(nanoseconds() - t1))
        }
        blackHole(sink.value)
        return best1 / best2
    }

    /// CPU time of this process so far (user + system), in seconds.
    func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}

/// Keeps results of timed loops so that they are computed.
final class Sink: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var value: UInt64 = 0

    func add(_ x: UInt64) { lock.withLock { value &+= x } }
}
