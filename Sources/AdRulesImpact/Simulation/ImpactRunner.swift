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

/// What a report holds, in the quantities it is bounded in (``ReportBounds``).
struct ReportSize: Sendable {
    var histogramEntries = 0
    /// The longest histogram of a block.
    var longestHistogram = 0
    var denyRows = 0
    var denyText = 0

    /// Adds what counters grew by; `histograms` are those of the block that grew (their longest is kept).
    mutating func grow(by grown: CounterGrowth, histograms: [PlacementCounters]) {
        histogramEntries += grown.histogramEntries
        denyRows += grown.denyRows
        denyText += grown.denyText
        if grown.histogramEntries > 0 { longestHistogram = max(longestHistogram, histograms.lazy.map(\.histogram.count).max() ?? 0) }
    }
}

/// What a report may hold: what `impact merge` reads a part within. A run stops as soon as its counters pass it.
struct ReportBounds: Sendable {
    var histogramEntries = ImpactReport.maxHistogramEntries
    var histogramLength = ImpactReport.maxHistogramLength
    var denyRows = ImpactReport.maxDenyRows
    var denyText = ImpactReport.maxDenyText
    var countPerUserDay = ImpactReport.maxCountPerUserDay

    /// Whether a report of this size passes a bound (the counts a user-day are checked once the run has played).
    func passed(by size: ReportSize) -> Bool {
        size.histogramEntries > histogramEntries || size.longestHistogram > histogramLength || size.denyRows > denyRows || size.denyText > denyText
    }

    /// Why results of this size (the last of them just played) cannot be reported; nil when they can.
    /// - Parameter population: the user-days of the whole run (every shard's).
    func error(_ size: ReportSize, in results: [ImpactPolicyResult], segmentNames: [String], population: Int) -> ImpactRunError? {
        if size.histogramEntries > histogramEntries || size.longestHistogram > histogramLength {
            // The block with the longest histogram, of the result being played when the bound was passed.
            guard let result = results.last else { return nil }
            var longest: (segment: Int, placement: Int, count: Int) = (0, 0, 0)
            for (s, segment) in result.segments.enumerated() {
                for (p, counters) in segment.placements.enumerated() where counters.histogram.count > longest.count {
                    longest = (s, p, counters.histogram.count)
                }
            }
            return .histogramsTooLong(
                policy: result.policy, segment: segmentNames[longest.segment], placement: result.placements[longest.placement].id,
                impressions: longest.count - 1)
        }
        if size.denyRows > denyRows { return .tooManyDenyRows(size.denyRows) }
        if size.denyText > denyText { return .tooMuchDenyText(size.denyText) }
        // What a placement may count over its segments, per user-day of the whole run (``ImpactReport/maxCountPerUserDay``):
        // what `impact merge` reads. Of the population's user-days, not the part's: a shard counts no more than the
        // whole run does.
        for result in results {
            if let passing = result.countsPassing(population * countPerUserDay) {
                return .countsTooLarge(
                    policy: result.policy, segment: segmentNames[passing.segment], placement: result.placements[passing.placement].id,
                    perUserDay: passing.total / max(1, population))
            }
        }
        return nil
    }
}

/// Why a run was refused: its report would pass what a report holds (``ReportBounds``).
public enum ImpactRunError: Error, Equatable, CustomStringConvertible {
    /// The report's histograms would pass ``ImpactReport/maxHistogramEntries`` or ``ImpactReport/maxHistogramLength``:
    /// the block with the longest histogram when the run stopped (its policy, segment and placement, and the most
    /// impressions a user-day had there).
    case histogramsTooLong(policy: String, segment: String, placement: String, impressions: Int)
    /// The report would list more deny-reason rows than ``ImpactReport/maxDenyRows``: the rows when the run stopped.
    case tooManyDenyRows(Int)
    /// The report's deny-reason rows would hold more bytes of messages and file names than
    /// ``ImpactReport/maxDenyText``: the bytes when the run stopped.
    case tooMuchDenyText(Int)
    /// A block would count more than ``ImpactReport/maxCountPerUserDay`` deny reasons (or loads, offers…) per
    /// user-day of the whole run.
    case countsTooLarge(policy: String, segment: String, placement: String, perUserDay: Int)
    /// The run played fewer users than it holds without passing a bound: never returned as a report.
    case incomplete(played: Int, of: Int)

    public var description: String {
        switch self {
        case .histogramsTooLong(let policy, let segment, let placement, let impressions):
            return "the report's histograms would hold more than \(ImpactReport.maxHistogramEntries) entries (\(ImpactReport.maxHistogramLength) in one), "
                + "the most `impact merge` reads: each segment × placement's histogram has one for each number of impressions a user-day had, from 0 to the "
                + "most, and with the policy \(ControlCharacters.escaped(policy)) a user-day of segment \(ControlCharacters.escaped(segment)) had \(impressions) "
                + "impressions of \(ControlCharacters.escaped(placement)) when the run stopped: give \(ControlCharacters.escaped(placement)) a daily_cap, "
                + "write fewer actions a day (a longer every), or use fewer segments"
        case .tooManyDenyRows(let rows):
            return "the report would list more than \(ImpactReport.maxDenyRows) deny reasons (reason and YAML line pairs, over every segment × placement; "
                + "\(rows) when the run stopped), more than a report holds: use fewer segments, or preview a policy with fewer placements or custom rules"
        case .tooMuchDenyText(let bytes):
            return "the report's deny reasons would hold more than \(ImpactReport.maxDenyText) bytes of messages and file names (each row repeats its reason's; "
                + "\(bytes) when the run stopped), more than a report holds: use fewer segments, shorter rule messages, or a shorter path to the rule files"
        case .countsTooLarge(let policy, let segment, let placement, let perUserDay):
            return "with the policy \(ControlCharacters.escaped(policy)), segment \(ControlCharacters.escaped(segment)) would count \(perUserDay) deny reasons "
                + "(or loads or offers) of \(ControlCharacters.escaped(placement)) per user-day of the run, more than the \(ImpactReport.maxCountPerUserDay) "
                + "a report holds: write fewer actions a day (a longer every), or preview a policy with fewer custom rules that deny at once"
        case .incomplete(let played, let total):
            return "internal error: the run played \(played) of its \(total) users without passing a bound of its report; please report it"
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
