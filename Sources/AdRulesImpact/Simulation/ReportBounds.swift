import AdRules

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
