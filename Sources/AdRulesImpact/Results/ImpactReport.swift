import AdRules
import Foundation

/// The counters of one policy: per segment (model order) and, summed, in total.
public struct ImpactPolicyResult: Sendable, Hashable {
    /// The policy as named on the command line.
    public var policy: String
    /// The placements, by slot.
    public var placements: [ImpactPlacement]
    /// The counters of each segment, in model order.
    public var segments: [SegmentCounters]

    /// Creates a result.
    public init(policy: String, placements: [ImpactPlacement], segments: [SegmentCounters]) {
        self.policy = policy
        self.placements = placements
        self.segments = segments
    }

    /// The first placement whose counts (``PlacementCounters/boundedCounts``), added up over the segments, pass
    /// `most`, with its largest total and the segment that counts most of it; nil when none does. The sums are
    /// checked as they are taken: counts read from a part (each within `most`) never overflow here, nor in ``total``
    /// once this has passed.
    public func countsPassing(_ most: Int) -> (placement: Int, segment: Int, total: Int)? {
        for p in placements.indices {
            var totals: [Int] = []
            var largest = (segment: 0, count: -1)
            for (s, segment) in segments.enumerated() where p < segment.placements.count {
                let counts = segment.placements[p].boundedCounts
                if totals.isEmpty { totals = Array(repeating: 0, count: counts.count) }
                if let top = counts.max(), top > largest.count { largest = (s, top) }
                for k in counts.indices {
                    let (sum, overflow) = totals[k].addingReportingOverflow(counts[k])
                    if overflow || sum > most { return (p, largest.segment, overflow ? Int.max : sum) }
                    totals[k] = sum
                }
            }
        }
        return nil
    }

    /// Every segment's counters added up.
    public var total: SegmentCounters {
        var sum = SegmentCounters(placements: placements.count)
        for segment in segments { sum.add(segment) }
        return sum
    }
}

/// The result of `adrules impact`: what was played and what each policy's users saw.
///
/// Every figure is built from integer counters, so reports of shards add up exactly (``merge(_:)``).
public struct ImpactReport: Sendable, Hashable {
    /// The version of the report format (json `version`).
    public static let formatVersion = 1

    /// The model file.
    public var model: String
    /// The whole population (a shard plays part of it).
    public var users: Int
    /// Days per user.
    public var days: Int
    /// The seed.
    public var seed: UInt64
    /// The first simulated day, `YYYY-MM-DD`.
    public var start: String
    /// The segment names, in model order.
    public var segments: [String]
    /// Set for the partial result of one shard.
    public var shard: Shard?
    /// The semantic difference of the compared policies (empty without `--compare`): its first changes, as many as
    /// ``PolicyDiff/listed(_:)`` keeps.
    public var changes: [PolicyChange]
    /// The changes past those listed, counted (json `more_changes`, present when not 0).
    public var moreChanges = 0
    /// One result per policy: with `--compare`, the old policy first.
    public var results: [ImpactPolicyResult]
    /// A digest of the model file and the policies played (json `inputs`): parts to merge must share it.
    public var inputs = ""

    /// Creates a report.
    public init(
        model: String, users: Int, days: Int, seed: UInt64, start: String, segments: [String], shard: Shard?,
        changes: [PolicyChange], results: [ImpactPolicyResult]
    ) {
        self.model = model
        self.users = users
        self.days = days
        self.seed = seed
        self.start = start
        self.segments = segments
        self.shard = shard
        self.changes = changes
        self.results = results
    }

    /// Why shard reports cannot be merged.
    public enum MergeError: Error, LocalizedError, Equatable, CustomStringConvertible {
        case noParts
        case notPartial(Int)
        case mismatch(Int, String)
        /// The first missing shards, and how many are missing in all.
        case missingShards([Int], of: Int)
        /// A shard given again, in the part at this position.
        case duplicateShard(Int, part: Int)
        /// A part written by an older adrules, with no `inputs` digest to check.
        case noInputsDigest(Int)
        /// The part at this position, of this shard, played another number of users than the shard holds.
        case shardUsers(Int, shard: Int, played: Int, expected: Int)
        /// With this part the merged deny reasons hold more rows than ``ImpactReport/maxDenyRows``.
        case tooManyDenyRows(Int, Int)
        /// With this part the merged deny reasons' messages and file names hold more bytes than
        /// ``ImpactReport/maxDenyText``.
        case tooMuchDenyText(Int, Int)
        /// With this part the merged histograms hold more entries than ``ImpactReport/maxHistogramEntries``, or one of
        /// them is longer than ``ImpactReport/maxHistogramLength``.
        case histogramsTooLong(Int, entries: Int, longest: Int)
        /// With this part a placement's counts over every segment pass ``ImpactReport/maxCountPerUserDay`` per user-day
        /// of the run: the placement.
        case countsTooLarge(Int, placement: String)

        public var description: String { description(naming: { "part \($0 + 1)" }) }
        public var errorDescription: String? { description }

        /// The description with each part named by `name` (its file, in the CLI).
        package func description(naming name: (Int) -> String) -> String {
            switch self {
            case .noParts: return "no partial results to merge"
            case .notPartial(let i): return "\(name(i)) is a complete result, not the result of one shard (--shard K/N)"
            case .mismatch(let i, let what): return "\(name(i)) was played with a different \(what) than \(name(0))"
            case .missingShards(let missing, let total):
                let listed = missing.map(String.init).joined(separator: ", ")
                if total == 1 { return "shard \(listed) is missing" }
                return total > missing.count ? "\(total) shards are missing: \(listed), ..." : "shards \(listed) are missing"
            case .duplicateShard(let index, let i): return "shard \(index) is given twice (again in \(name(i))): give each shard's part once"
            case .noInputsDigest(let i): return "\(name(i)) has no inputs digest (written by an older adrules): play that shard again"
            case .tooManyDenyRows(let i, let rows): return "with \(name(i)) the deny reasons come to \(rows) rows (reason and YAML line pairs), more than the \(ImpactReport.maxDenyRows) a report holds: that is no run's result"
            case .tooMuchDenyText(let i, let bytes):
                return "with \(name(i)) the deny reasons' messages and file names come to \(bytes) bytes, more than the \(ImpactReport.maxDenyText) a report holds: that is no run's result"
            case .countsTooLarge(let i, let placement):
                return "with \(name(i)) the counts of \(ControlCharacters.cut(placement)) come to more than \(ImpactReport.maxCountPerUserDay) per user-day of the run, more than a report holds: that is no run's result"
            case .histogramsTooLong(let i, let entries, let longest):
                return "with \(name(i)) the histograms come to \(entries) entries, the longest \(longest), more than the \(ImpactReport.maxHistogramEntries) (\(ImpactReport.maxHistogramLength) in one) a report holds: the run of the whole population is refused too (give the placements daily caps, or use fewer segments)"
            case .shardUsers(let i, let shard, let played, let expected):
                return "\(name(i)) played \(played) users, where shard \(shard) of the run holds \(expected): it is not that shard's result"
            }
        }
    }

    /// The most deny-reason rows (reason and YAML location pairs, over every block) a report holds: a run that
    /// would list more is refused after it plays, and so is a part or a merge of parts (the merge lists what the
    /// whole run would). A block has a handful; 10,000 blocks of six or seven each fit.
    public static let maxDenyRows = 100_000

    /// The most histogram entries a report holds, over every block of every result: a block's histogram has one for
    /// each number of impressions a user-day had, from 0 to the most. A run stops as soon as its counters pass it
    /// (``ImpactRunError``), so that no part it writes is one `impact merge` refuses: 1,000 segments of an interstitial
    /// every 9 s all day made histograms of 9,600 entries each, 183 MB of json written with 668 MB of memory.
    public static let maxHistogramEntries = 1_000_000

    /// The longest histogram a report holds: 100,000 impressions of one placement in a user-day, and none.
    public static let maxHistogramLength = 100_001

    /// The histogram entries of every block of every result.
    public var histogramEntryCount: Int {
        results.reduce(0) { $0 + $1.segments.reduce(0) { $0 + $1.histogramEntries } }
    }

    /// The longest histogram of any block.
    public var longestHistogram: Int {
        results.lazy.flatMap(\.segments).flatMap(\.placements).map(\.histogram.count).max() ?? 0
    }

    /// The most a placement may count, over its segments, per user-day of the whole run (deny reasons over all its
    /// rows, loads, offers…): what a run checks and `impact merge` reads (``ImpactPolicyResult/countsPassing(_:)``). Low enough that the counts of every part of the largest run (100,000,000 users × 366
    /// days), and three of them together, add up without overflow; above what the policy's work bound lets a
    /// user-day take on average (``ModelCheck``), and far above a day of use: 10,000 rules that all deny an action every 75 s made
    /// 11.5 million a user-day, which a bound of 10,000,000 had `impact merge` refuse as no run's.
    public static let maxCountPerUserDay = 50_000_000

    /// The deny-reason rows of every block of every result.
    public var denyRowCount: Int {
        results.reduce(0) { $0 + $1.segments.reduce(0) { $0 + $1.placements.reduce(0) { $0 + $1.denials.count } } }
    }

    /// The most bytes of messages and file names the deny-reason rows of a report hold, over every row: each row
    /// repeats its reason's message and file (a report's rows are read one by one), so 100 rules with 4,096-character
    /// messages denying in 1,000 segments made 442 MB of json (and with emoji messages the run crashed at 2.7 GB). Within
    /// it, the json of a report (its rows at about 200 bytes each, written in their segment and again in their
    /// placement's total, and their texts escaped to twice their bytes) comes to about 90 MB at most, within the 160 MiB
    /// `impact merge` reads a part in, and html's eight reasons a block at most six times theirs. File names are
    /// counted as json writes them (``ImpactLocation/fileBytesInJSON``: a control character takes six bytes there, and a
    /// policy's messages hold none). A run checks its part's size too.
    public static let maxDenyText = 12_000_000

    /// The bytes of the messages and file names of the deny-reason rows of every block of every result, each row
    /// counted with its longest message, as a run bounds them (``DenialCount/boundedTextBytes``).
    public var denyTextBytes: Int {
        var bytes = 0
        for result in results {
            for segment in result.segments {
                for placement in segment.placements {
                    for row in placement.denials { bytes += row.boundedTextBytes }
                }
            }
        }
        return bytes
    }

    /// Combines the partial results of every shard of one run into the result of the whole run.
    /// - Throws: ``MergeError`` when parts are missing, repeated, or from different runs, or list together more
    ///   deny reasons than ``maxDenyRows``.
    public static func merge(_ parts: [ImpactReport]) throws -> ImpactReport {
        var merge = Merge()
        for part in parts { try merge.add(part) }
        return try merge.result()
    }

    /// A merge that takes the parts one at a time, as they are read: it holds the sum so far, never every part, so
    /// merging a thousand shards needs the memory of one.
    public struct Merge {
        /// The sum of the parts added so far, without a shard: nil before the first.
        private var merged: ImpactReport?
        /// The number of shards of the run, from the first part.
        private var count = 0
        private var seen = Set<Int>()
        /// The parts added so far: the index errors name a part by.
        private var added = 0

        public init() {}

        /// Adds one part.
        /// - Throws: ``MergeError`` when it is not a part of the same run as those before it, repeats a shard, played
        ///   other users than its shard holds, or makes it (or the sum) list more deny reasons than ``maxDenyRows`` or more of their text than ``maxDenyText``.
        public mutating func add(_ part: ImpactReport) throws {
            let i = added
            added += 1
            guard let shard = part.shard else { throw MergeError.notPartial(i) }
            guard let first = merged else {
                // The bounds a run writes within hold for a part alone too (a merge of one shard, `--shard 1/1`).
                try Self.checkBounds(part, part: i)
                try Self.checkShardUsers(part, shard, part: i)
                count = shard.count
                seen.insert(shard.index)
                var sum = part
                sum.shard = nil
                merged = sum
                return
            }
            if shard.count != count { throw MergeError.mismatch(i, "number of shards") }
            if part.model != first.model { throw MergeError.mismatch(i, "model") }
            if part.inputs != first.inputs {
                // A part written before the digest existed (or by a library caller that set none) cannot be checked.
                if part.inputs.isEmpty || first.inputs.isEmpty { throw MergeError.noInputsDigest(part.inputs.isEmpty ? i : 0) }
                throw MergeError.mismatch(i, "model file or policy contents (inputs digest)")
            }
            if (part.users, part.days, part.seed, part.start) != (first.users, first.days, first.seed, first.start) {
                throw MergeError.mismatch(i, "population (users, days, seed or start)")
            }
            if part.segments != first.segments { throw MergeError.mismatch(i, "set of segments") }
            if part.changes != first.changes || part.moreChanges != first.moreChanges { throw MergeError.mismatch(i, "pair of policies") }
            if part.results.map(\.policy) != first.results.map(\.policy) || part.results.map(\.placements) != first.results.map(\.placements) {
                throw MergeError.mismatch(i, "policy")
            }
            guard seen.insert(shard.index).inserted else { throw MergeError.duplicateShard(shard.index, part: i) }
            // Each part plays exactly its shard's users, and no shard comes twice: together the parts play no more than the
            // population (so no sum can overflow), and with every shard there, all of it, each user once.
            try Self.checkShardUsers(part, shard, part: i)
            // Added in place: the sum is taken out of `merged` (and `first` let go), so its arrays are not copied.
            _ = consume first
            guard var sum = merged.take() else { return }
            defer { merged = sum }
            for r in sum.results.indices {
                for s in sum.results[r].segments.indices where s < part.results[r].segments.count {
                    sum.results[r].segments[s].add(part.results[r].segments[s])
                }
            }
            try Self.checkBounds(sum, part: i)
        }

        /// Refuses a part that played another number of users than its shard holds: a shard plays users K-1, K-1+N, …,
        /// exactly that many in each policy's result. (A part that gave one of its users to another passed, as long as
        /// the total held.)
        private static func checkShardUsers(_ part: ImpactReport, _ shard: Shard, part i: Int) throws(MergeError) {
            let expected = PlayedUsers(users: part.users, shard: shard).count
            for result in part.results {
                let played = result.segments.reduce(0) { $0 + $1.users }
                if played != expected { throw MergeError.shardUsers(i, shard: shard.index, played: played, expected: expected) }
            }
        }

        /// Refuses a sum (or a first part) whose deny reasons pass ``ImpactReport/maxDenyRows`` or
        /// ``ImpactReport/maxDenyText``, or whose histograms pass ``ImpactReport/maxHistogramEntries`` or
        /// ``ImpactReport/maxHistogramLength``: what no run writes, so no merge of a run's parts holds.
        private static func checkBounds(_ report: ImpactReport, part i: Int) throws(MergeError) {
            let rows = report.denyRowCount
            if rows > maxDenyRows { throw MergeError.tooManyDenyRows(i, rows) }
            let text = report.denyTextBytes
            if text > maxDenyText { throw MergeError.tooMuchDenyText(i, text) }
            let entries = report.histogramEntryCount, longest = report.longestHistogram
            if entries > maxHistogramEntries || longest > maxHistogramLength { throw MergeError.histogramsTooLong(i, entries: entries, longest: longest) }
            let most = report.users * report.days * maxCountPerUserDay
            for result in report.results {
                if let passing = result.countsPassing(most) { throw MergeError.countsTooLarge(i, placement: result.placements[passing.placement].id) }
            }
        }

        /// The whole run's result.
        /// - Throws: ``MergeError`` when no part was added, or a shard is missing.
        public func result() throws -> ImpactReport {
            guard let merged else { throw MergeError.noParts }
            // Only the first few missing shards are named; the count may be large and come from a file.
            if seen.count < count {
                var missing: [Int] = []
                var k = 1
                while missing.count < 10, k <= count {
                    if !seen.contains(k) { missing.append(k) }
                    k += 1
                }
                throw MergeError.missingShards(missing, of: count - seen.count)
            }
            return merged
        }
    }
}

/// Impressions per user per day, from a histogram of user-days.
public struct ImpressionSummary: Sendable, Hashable {
    /// The mean, rounded to 3 decimals.
    public var mean: Double
    /// Percentiles (nearest rank) and the maximum.
    public var p50: Int, p90: Int, p99: Int, max: Int

    /// Summarises `histogram[k]` = user-days with k impressions.
    public init(histogram: [Int]) {
        let days = histogram.reduce(0, +)
        let total = histogram.enumerated().reduce(0) { $0 + $1.offset * $1.element }
        mean = days > 0 ? (Double(total) / Double(days) * 1000).rounded() / 1000 : 0
        func percentile(_ p: Int) -> Int {
            guard days > 0 else { return 0 }
            // The smallest k with at least p % of user-days at or below it.
            let rank = (days * p + 99) / 100
            var seen = 0
            for (k, n) in histogram.enumerated() {
                seen += n
                if seen >= rank { return k }
            }
            return histogram.count - 1
        }
        p50 = percentile(50)
        p90 = percentile(90)
        p99 = percentile(99)
        max = histogram.lastIndex { $0 > 0 } ?? 0
    }
}

extension ImpactReport {
    /// A share of user-days, rounded to 4 decimals.
    public static func share(_ count: Int, of total: Int) -> Double {
        guard total > 0 else { return 0 }
        return (Double(count) / Double(total) * 10_000).rounded() / 10_000
    }
}
