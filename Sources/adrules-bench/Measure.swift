import AdRules
import Foundation

/// Monotonic nanoseconds.
@inline(__always) func nanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Median and p99 of per-item times, measured as batch means (a single decision is below the clock's resolution).
struct Timing {
    var median: Double
    var p99: Double

    static func measure(rounds: Int, batch: Int, items: Int, _ body: (Range<Int>) -> Void) -> Timing {
        var samples: [Double] = []
        for _ in 0..<rounds { samples += pass(batch: batch, items: items, body) }
        return Timing(samples)
    }

    /// One thing timed: alone (``measure(rounds:_:)``) or in turn with others (``interleaved(rounds:_:)``).
    struct Subject {
        var batch: Int
        var items: Int
        var body: (Range<Int>) -> Void
    }

    /// One subject timed alone, every round in a row.
    static func measure(rounds: Int, _ subject: Subject) -> Timing {
        measure(rounds: rounds, batch: subject.batch, items: subject.items, subject.body)
    }

    /// Times several subjects in turn, one pass of each per round, so that the machine's speed drifting during a run
    /// (it does, on a shared machine) slows each subject alike and leaves their ratios alone. The order is reversed
    /// every other round, so that no subject always runs after the same one (and in its cache's wake).
    static func interleaved(rounds: Int, _ subjects: [Subject]) -> [Timing] {
        var samples = Array(repeating: [Double](), count: subjects.count)
        for round in 0..<rounds {
            let order = round % 2 == 0 ? Array(subjects.indices) : subjects.indices.reversed()
            for s in order { samples[s] += pass(batch: subjects[s].batch, items: subjects[s].items, subjects[s].body) }
        }
        return samples.map(Timing.init)
    }

    /// The per-item times of one pass over the items, a batch at a time.
    private static func pass(batch: Int, items: Int, _ body: (Range<Int>) -> Void) -> [Double] {
        var samples: [Double] = []
        var start = 0
        while start < items {
            let end = min(items, start + batch)
            let t0 = nanoseconds()
            body(start..<end)
            let t1 = nanoseconds()
            samples.append(Double(t1 - t0) / Double(end - start))
            start = end
        }
        return samples
    }

    /// The median and p99 of samples.
    private init(_ samples: [Double]) {
        let sorted = samples.sorted()
        median = sorted[sorted.count / 2]
        p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
    }
}

/// Peak resident memory of this process so far, in bytes.
func peakRSS() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss) * 1024
}

/// Current resident memory, in bytes (Linux /proc).
func currentRSS() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Keeps a value alive and unknown to the optimiser.
@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

/// Keeps a decision's verdict unknown to the optimiser; the decision itself is released as an app's would be,
/// by specialised code rather than through the generic value witnesses `blackHole<T>` needs.
@inline(never) func blackHole(_ decision: Decision) { withExtendedLifetime(decision) {} }

func format(_ ns: Double) -> String { ns >= 1_000_000 ? String(format: "%.1f ms", ns / 1_000_000) : ns >= 10_000 ? String(format: "%.1f µs", ns / 1000) : String(format: "%.0f ns", ns) }
