import AdRules
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
        // Digits only: `Int` would read `+1` as 1, and a shard is written as a CI matrix writes it.
        guard parts.count == 2, parts.allSatisfy({ $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }), let k = Int(parts[0]), let n = Int(parts[1])
        else { return nil }
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
    /// Where its attributes' types and defaults and its rules' messages are written (``PolicyLoad/valueLocations``).
    public var valueLocations: [String: SourceLocation]
    /// Its first file's `version:` (``PolicyLoad/policyStart``), where a policy-wide setting left at its default is located.
    public var policyStart: SourceLocation?

    /// Creates a named policy.
    public init(
        name: String, policy: Policy, written: [String: Located<String>] = [:], valueLocations: [String: SourceLocation] = [:],
        policyStart: SourceLocation? = nil
    ) {
        self.name = name
        self.policy = policy
        self.written = written
        self.valueLocations = valueLocations
        self.policyStart = policyStart
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
    /// - Throws: ``ImpactRunError`` when the report would pass what a report holds (``ReportBounds``), which `impact merge`
    ///   reads parts within: the run stops as soon as its counters do.
    public static func run(
        model: UsageModel, policies: [NamedPolicy], changes: [PolicyChange] = [], options: ImpactOptions = ImpactOptions(),
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws(ImpactRunError) -> ImpactReport {
        try run(model: model, policies: policies, changes: changes, options: options, progress: progress, bounds: ReportBounds())
    }

    /// ``run(model:policies:changes:options:progress:)`` within other bounds (a test's smaller ones).
    static func run(
        model: UsageModel, policies: [NamedPolicy], changes: [PolicyChange] = [], options: ImpactOptions = ImpactOptions(),
        progress: (@Sendable (Int, Int) -> Void)? = nil, bounds: ReportBounds
    ) throws(ImpactRunError) -> ImpactReport {
        let users = options.users ?? model.users
        let days = options.days ?? model.days
        let seed = options.seed ?? model.seed
        let played = PlayedUsers(users: users, shard: options.shard)
        let tracker = ProgressTracker(total: played.count * policies.count, report: progress)
        let segmentNames = model.segments.map(\.name)
        var results: [ImpactPolicyResult] = []
        // The histograms and deny reasons of every result count towards one bound, as `impact merge` reads a part.
        var size = ReportSize()
        for named in policies {
            let plan = SimulationPlan(model: model, policy: named.policy, users: users, days: days, seed: seed)
            let segments: [SegmentCounters]
            (segments, size) = play(plan, users: played, threads: options.threads, tracker: tracker, bounds: bounds, sizeBefore: size)
            let result = ImpactPolicyResult(policy: named.name, placements: plan.placements, segments: segments)
            if let error = bounds.error(size, in: results + [result], segmentNames: segmentNames, population: users * days) { throw error }
            // A run that stopped passed a bound, which what it played still passes (each bounded quantity only grows):
            // what it returns is never a part of the population reported as the whole.
            let playedUsers = segments.reduce(0) { $0 + $1.users }
            guard playedUsers == played.count else { throw ImpactRunError.incomplete(played: playedUsers, of: played.count) }
            results.append(result)
        }
        return ImpactReport(
            model: model.file, users: users, days: days, seed: seed, start: model.start.description,
            segments: segmentNames, shard: options.shard, changes: changes, results: results)
    }

    /// The mean number of engine calls (records, asks, shows begun, rewards claimed) per user-day of a model, for the benchmark.
    package static func engineCalls(model: UsageModel, policy: Policy, users: Int, days: Int) -> Double {
        var player = UserPlayer(plan: SimulationPlan(model: model, policy: policy, users: users, days: days, seed: model.seed))
        for user in 0..<users { player.play(user: user) }
        return Double(player.engineCalls) / Double(max(1, users * days))
    }

    /// Plays users in chunks on `threads` threads; each chunk's counters are merged in user order.
    /// Stops handing out chunks once the report's size, with `sizeBefore` of the results played before, passes the
    /// bounds (what it returns then is a part of the run, which ``run(model:policies:changes:options:progress:)`` refuses).
    /// - Returns: the counters, and the report's size with them.
    static func play(
        _ plan: SimulationPlan, users: PlayedUsers, threads: Int, tracker: ProgressTracker, bounds: ReportBounds = ReportBounds(),
        sizeBefore: ReportSize = ReportSize()
    ) -> ([SegmentCounters], ReportSize) {
        let chunkCount = (users.count + chunkSize - 1) / chunkSize
        let store = ChunkStore(
            count: chunkCount, total: plan.segments.map { _ in SegmentCounters(placements: plan.placements.count) }, bounds: bounds, size: sizeBefore)
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
                for i in range {
                    player.play(user: users[i])
                    // Rows and histogram entries only grow as chunks are added up: past a bound in this chunk, past it
                    // in the run (a chunk of 64 users against 2,000 rules that all deny held 1.28 million rows).
                    if bounds.passed(by: player.chunkSize) { break }
                }
                store.put(chunk, player.counters, stopped: bounds.passed(by: player.chunkSize))
                tracker.advance(by: range.count)
            }
        }
        if workers == 1 {
            work(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: workers, execute: work)
        }
        return store.result
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
/// Once the report's size passes its bounds it hands out no more: the run is refused, and its memory and time stop
/// growing there.
final class ChunkStore: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private let count: Int
    private var merged = 0
    private var waiting: [Int: [SegmentCounters]] = [:]
    private var sum: [SegmentCounters]
    private let bounds: ReportBounds
    /// The size of the report so far, with the results played before.
    private var size: ReportSize
    private var overflowed = false

    init(count: Int, total: [SegmentCounters], bounds: ReportBounds = ReportBounds(), size: ReportSize = ReportSize()) {
        self.count = count
        sum = total
        self.bounds = bounds
        self.size = size
    }

    func take() -> Int? {
        lock.withLock {
            guard next < count, !overflowed else { return nil }
            defer { next += 1 }
            return next
        }
    }

    /// Adds a chunk's counters, in chunk order. A chunk `stopped` before its last user passed the bounds on its own:
    /// the run is refused.
    func put(_ chunk: Int, _ counters: [SegmentCounters], stopped: Bool = false) {
        lock.withLock {
            overflowed = overflowed || stopped
            waiting[chunk] = counters
            while let ready = waiting.removeValue(forKey: merged) {
                for s in sum.indices where s < ready.count {
                    let grown = sum[s].add(ready[s])
                    guard !grown.isEmpty else { continue }
                    size.grow(by: grown, histograms: sum[s].placements)
                }
                overflowed = overflowed || bounds.passed(by: size)
                merged += 1
            }
        }
    }

    /// Every chunk's counters added up, in chunk order, and the report's size with them.
    var result: ([SegmentCounters], ReportSize) { lock.withLock { (sum, size) } }
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
