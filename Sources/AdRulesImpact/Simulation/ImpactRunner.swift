import AdRules
import AdRulesYAML
import Dispatch
import Foundation

/// One part of a population split over several machines: users `u` with `u mod count == index - 1`.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// 1-based.
    public var index: Int
    /// The number of shards.
    public var count: Int

    /// The most shards a run splits into: one user each at the most users a model may have (what `impact merge`
    /// reads back).
    public static let maxCount = ModelDecoder.maxUsers

    /// Creates a shard; nil unless `1 <= index <= count <= maxCount`.
    public init?(index: Int, count: Int) {
        guard (1...Shard.maxCount).contains(count), (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else { return nil }
        self.init(index: k, count: n)
    }

    /// Whether this shard plays a user.
    public func contains(user: Int) -> Bool { user % count == index - 1 }

    public var description: String { "\(index)/\(count)" }
}

/// What to play: overrides of the model and how to split the work.
public struct ImpactOptions: Sendable {
    /// Users (nil: the model's).
    public var users: Int?
    /// Days (nil: the model's).
    public var days: Int?
    /// Seed (nil: the model's).
    public var seed: UInt64?
    /// Play only this shard's users and mark the result partial.
    public var shard: Shard?
    /// Threads to play users on (the figures do not depend on it).
    public var threads: Int

    /// Creates options; by default every core and the model's own figures.
    public init(users: Int? = nil, days: Int? = nil, seed: UInt64? = nil, shard: Shard? = nil, threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.users = users
        self.days = days
        self.seed = seed
        self.shard = shard
        self.threads = max(1, threads)
    }
}

/// A policy to play, with the name reports give it (the path as given on the command line).
public struct NamedPolicy: Sendable {
    /// The name.
    public var name: String
    /// The valid policy.
    public var policy: Policy
    /// Its policy-wide settings as written, with where (``PolicyLoad/written``); empty for a compiled policy.
    public var written: [String: Located<String>]

    /// Creates a named policy.
    public init(name: String, policy: Policy, written: [String: Located<String>] = [:]) {
        self.name = name
        self.policy = policy
        self.written = written
    }
}

/// Plays a population of simulated users through each policy and counts what they see.
public enum ImpactRunner {
    /// Users per unit of work: small enough to balance two threads, large enough that merging is cheap.
    static let chunkSize = 64

    /// Plays the model with each policy (the old one first when comparing) and returns the report.
    /// - Parameters:
    ///   - model: a valid usage model.
    ///   - policies: valid policies; with `--compare`, the old policy first.
    ///   - changes: the semantic difference of the two policies, when comparing.
    ///   - options: overrides, shard and threads.
    ///   - progress: called from worker threads with (users played, users to play) over all policies.
    /// - Throws: ``ImpactRunError`` when the report's histograms would pass ``ImpactReport/maxHistogramEntries`` or
    ///   ``ImpactReport/maxHistogramLength``: the run stops as soon as they do.
    public static func run(
        model: UsageModel, policies: [NamedPolicy], changes: [PolicyChange] = [], options: ImpactOptions = ImpactOptions(),
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws(ImpactRunError) -> ImpactReport {
        try run(model: model, policies: policies, changes: changes, options: options, progress: progress, bounds: HistogramBounds())
    }

    /// ``run(model:policies:changes:options:progress:)`` within other histogram bounds (a test's smaller ones).
    static func run(
        model: UsageModel, policies: [NamedPolicy], changes: [PolicyChange] = [], options: ImpactOptions = ImpactOptions(),
        progress: (@Sendable (Int, Int) -> Void)? = nil, bounds: HistogramBounds
    ) throws(ImpactRunError) -> ImpactReport {
        let users = options.users ?? model.users
        let days = options.days ?? model.days
        let seed = options.seed ?? model.seed
        let played = PlayedUsers(users: users, shard: options.shard)
        let tracker = ProgressTracker(total: played.count * policies.count, report: progress)
        var results: [ImpactPolicyResult] = []
        // The histograms of every result count towards one bound, as `impact merge` reads a part.
        var entries = 0
        for named in policies {
            let plan = SimulationPlan(model: model, policy: named.policy, users: users, days: days, seed: seed)
            let segments = play(plan, users: played, threads: options.threads, tracker: tracker, bounds: bounds, entriesBefore: entries)
            let result = ImpactPolicyResult(policy: named.name, placements: plan.placements, segments: segments)
            entries += segments.reduce(0) { $0 + $1.histogramEntries }
            if let error = ImpactRunError.longest(in: result, entries: entries, bounds: bounds, segmentNames: model.segments.map(\.name)) { throw error }
            results.append(result)
        }
        return ImpactReport(
            model: model.file, users: users, days: days, seed: seed, start: model.start.description,
            segments: model.segments.map(\.name), shard: options.shard, changes: changes, results: results)
    }

    /// The mean number of engine calls (records, asks, shows begun, rewards claimed) per user-day of a model, for the benchmark.
    package static func engineCalls(model: UsageModel, policy: Policy, users: Int, days: Int) -> Double {
        var player = UserPlayer(plan: SimulationPlan(model: model, policy: policy, users: users, days: days, seed: model.seed))
        for user in 0..<users { player.play(user: user) }
        return Double(player.engineCalls) / Double(max(1, users * days))
    }

    /// Plays users in chunks on `threads` threads; each chunk's counters are merged in user order.
    /// Stops handing out chunks once the histograms, with `entriesBefore` of the results played before, pass the
    /// report's bounds (what it returns then is a part of the run, which ``run(model:policies:changes:options:progress:)`` refuses).
    static func play(
        _ plan: SimulationPlan, users: PlayedUsers, threads: Int, tracker: ProgressTracker, bounds: HistogramBounds = HistogramBounds(), entriesBefore: Int = 0
    ) -> [SegmentCounters] {
        let chunkCount = (users.count + chunkSize - 1) / chunkSize
        let store = ChunkStore(
            count: chunkCount, total: plan.segments.map { _ in SegmentCounters(placements: plan.placements.count) }, bounds: bounds, entries: entriesBefore)
        // Threads beyond the machine's cores only add work: each plays on its own replica of the policy, built for it
        // (1,024 threads over a 5,000-placement policy took 11 s where one took 1.6 s). The output does not depend
        // on the count.
        let workers = min(threads, ProcessInfo.processInfo.activeProcessorCount, max(1, chunkCount))
        let work: @Sendable (Int) -> Void = { _ in
            // Each thread plays on its own replica of the policy: no reference count is shared between cores.
            var player = UserPlayer(plan: workers == 1 ? plan : plan.replica())
            while let chunk = store.take() {
                player.resetCounters()
                let range = (chunk * chunkSize)..<min(users.count, (chunk + 1) * chunkSize)
                for i in range { player.play(user: users[i]) }
                store.put(chunk, player.counters)
                tracker.advance(by: range.count)
            }
        }
        if workers == 1 {
            work(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: workers, execute: work)
        }
        return store.total
    }
}

/// The users a run plays: every user, or for shard K/N users K-1, K-1+N, …, without listing them (a run may play
/// 100 million).
struct PlayedUsers: Sendable {
    let first: Int
    let step: Int
    let count: Int

    init(users: Int, shard: Shard?) {
        guard let shard else {
            (first, step, count) = (0, 1, users)
            return
        }
        (first, step) = (shard.index - 1, shard.count)
        count = users > first ? (users - first + step - 1) / step : 0
    }

    subscript(i: Int) -> Int { first + i * step }
}

/// Hands out chunk numbers to workers and adds each chunk's counters to the total in chunk (user) order, as soon as
/// the chunks before it are in: only the few chunks finished ahead of their turn are held, whatever the population.
/// Once the total's histograms pass the report's bounds it hands out no more: the run is refused, and its memory and
/// time stop growing there.
final class ChunkStore: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private let count: Int
    private var merged = 0
    private var waiting: [Int: [SegmentCounters]] = [:]
    private var sum: [SegmentCounters]
    private let bounds: HistogramBounds
    /// The histogram entries of the total, with those of the results played before.
    private var entries: Int
    private var overflowed = false

    init(count: Int, total: [SegmentCounters], bounds: HistogramBounds = HistogramBounds(), entries: Int = 0) {
        self.count = count
        sum = total
        self.bounds = bounds
        self.entries = entries + total.reduce(0) { $0 + $1.histogramEntries }
    }

    func take() -> Int? {
        lock.withLock {
            guard next < count, !overflowed else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func put(_ chunk: Int, _ counters: [SegmentCounters]) {
        lock.withLock {
            waiting[chunk] = counters
            while let ready = waiting.removeValue(forKey: merged) {
                for s in sum.indices where s < ready.count {
                    let grown = sum[s].add(ready[s])
                    guard grown > 0 else { continue }
                    entries += grown
                    if entries > bounds.entries || sum[s].placements.contains(where: { $0.histogram.count > bounds.length }) {
                        overflowed = true
                    }
                }
                merged += 1
            }
        }
    }

    /// Every chunk's counters added up, in chunk order.
    var total: [SegmentCounters] { lock.withLock { sum } }
}

/// The most histogram entries a run's report holds, over every block, and in one block's histogram.
struct HistogramBounds: Sendable {
    var entries = ImpactReport.maxHistogramEntries
    var length = ImpactReport.maxHistogramLength
}

/// Why a run was refused.
public enum ImpactRunError: Error, Equatable, CustomStringConvertible {
    /// The report's histograms would pass ``ImpactReport/maxHistogramEntries`` or ``ImpactReport/maxHistogramLength``:
    /// the block with the longest histogram when the run stopped (its policy, segment and placement, and the most
    /// impressions a user-day had there).
    case histogramsTooLong(policy: String, segment: String, placement: String, impressions: Int)

    /// The error for a result whose histograms (`entries` with those before it) pass the bounds, naming its longest; nil within them.
    static func longest(in result: ImpactPolicyResult, entries: Int, bounds: HistogramBounds, segmentNames: [String]) -> ImpactRunError? {
        var longest: (segment: Int, placement: Int, count: Int) = (0, 0, 0)
        for (s, segment) in result.segments.enumerated() {
            for (p, counters) in segment.placements.enumerated() where counters.histogram.count > longest.count {
                longest = (s, p, counters.histogram.count)
            }
        }
        guard entries > bounds.entries || longest.count > bounds.length else { return nil }
        return .histogramsTooLong(
            policy: result.policy, segment: segmentNames[longest.segment], placement: result.placements[longest.placement].id,
            impressions: longest.count - 1)
    }

    public var description: String {
        switch self {
        case .histogramsTooLong(let policy, let segment, let placement, let impressions):
            return "the report's histograms would hold more than \(ImpactReport.maxHistogramEntries) entries (\(ImpactReport.maxHistogramLength) in one), "
                + "the most `impact merge` reads: each segment × placement's histogram has one for each number of impressions a user-day had, from 0 to the "
                + "most, and with the policy \(ControlCharacters.escaped(policy)) a user-day of segment \(ControlCharacters.escaped(segment)) had \(impressions) "
                + "impressions of \(ControlCharacters.escaped(placement)) when the run stopped: give \(ControlCharacters.escaped(placement)) a daily_cap, "
                + "write fewer actions a day (a longer every), or use fewer segments"
        }
    }
}

/// Counts users played across threads and reports progress at most every 1 % of the work.
final class ProgressTracker: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    private var reported = -1
    private let total: Int
    private let report: (@Sendable (Int, Int) -> Void)?

    init(total: Int, report: (@Sendable (Int, Int) -> Void)?) {
        self.total = total
        self.report = report
    }

    func advance(by users: Int) {
        guard let report else { return }
        let (value, shouldReport): (Int, Bool) = lock.withLock {
            done += users
            let percent = total > 0 ? done * 100 / total : 100
            guard percent != reported else { return (done, false) }
            reported = percent
            return (done, true)
        }
        if shouldReport { report(value, total) }
    }
}
