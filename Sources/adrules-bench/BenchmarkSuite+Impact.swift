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
                let report = ImpactRunner.run(model: model, policies: policies, options: ImpactOptions(users: users, days: days, threads: threads))
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
        let calls = ImpactRunner.engineCalls(model: model, policy: policy, users: 500, days: days)
        lines.append(String(format: "  engine calls (record, ask, beginShow, claimReward) per user-day: %.1f", calls))
        return lines
    }

    /// CPU time of this process so far (user + system), in seconds.
    func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
