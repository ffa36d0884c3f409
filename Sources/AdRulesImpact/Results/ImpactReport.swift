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
}

/// Impressions per user per day, from a histogram of user-days.
public struct ImpressionSummary: Sendable, Hashable {
    /// The mean, rounded to 3 decimals.
    public var mean: Double
    /// Percentiles (nearest rank) and the maximum.
    public var p50: Int, p90: Int, p99: Int, max: Int
    /// The impressions and the user-days the mean divides.
    var impressions = 0, userDays = 0

    /// Summarises `histogram[k]` = user-days with k impressions.
    public init(histogram: [Int]) {
        let days = histogram.reduce(0, +)
        let total = histogram.enumerated().reduce(0) { $0 + $1.offset * $1.element }
        impressions = total
        userDays = days
        mean = days > 0 ? ImpactReport.rounded(total, over: days, places: 3) : 0
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

    /// The mean rounded to `places` decimals from the exact fraction, as ``mean`` is to 3: a report that shows fewer
    /// places rounds once (an exact 0.1245 is 0.12), not the rounded 0.125 again (0.13).
    public func mean(places: Int) -> Double {
        userDays > 0 ? ImpactReport.rounded(impressions, over: userDays, places: places) : 0
    }
}

extension ImpactReport {
    /// A share of user-days, rounded to 4 decimals.
    public static func share(_ count: Int, of total: Int) -> Double {
        guard total > 0 else { return 0 }
        return rounded(count, over: total, places: 4)
    }

    /// `numerator / denominator` (both at least 0, the denominator above 0) rounded to `places` decimals, half up, in
    /// integers: the figures are ratios of integer counters, and one exactly halfway between two decimals (201
    /// impressions over 400 user-days, 0.5025) is rounded up. Rounding the quotient as a Double rounded 0.5025 down,
    /// as it is stored a little below, and so 57 of 800 user-days (0.07125) to 0.0712.
    static func rounded(_ numerator: Int, over denominator: Int, places: Int) -> Double {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        return Double(roundedUnits(numerator, over: denominator, scale: scale)) / Double(scale)
    }

    /// `numerator / denominator` in units of `1 / scale`, rounded half up, in integers (``rounded(_:over:places:)``):
    /// what a report that shows a share as a percentage with one decimal counts in (`scale` 1,000), so that the
    /// figure is rounded once from the counts.
    package static func roundedUnits(_ numerator: Int, over denominator: Int, scale: Int) -> Int {
        let (whole, rest) = numerator.quotientAndRemainder(dividingBy: denominator)
        // rest < denominator, which counts user-days (at most 100,000,000 users × 366 days): rest × 2 × 10^4 fits.
        return whole * scale + (rest * 2 * scale + denominator) / (2 * denominator)
    }
}
