import AdRules
import AdRulesCompiler
import Testing

@testable import AdRulesImpact

/// Tests for gaps a mutation audit of the impact figures found: each pins a figure docs/impact.md defines that no other
/// test told apart from a near miss.
@Suite("Impact mutation gaps")
struct ImpactMutationGapTests {
    /// Percentiles are nearest-rank (docs/impact.md: "the smallest k with at least p % of user-days at or below k"): the
    /// rank is rounded up, and a k whose user-days reach the rank exactly is the percentile.
    @Test func percentilesAreTheSmallestCountWithAtLeastPPercentOfUserDaysAtOrBelowIt() {
        // Three user-days with 0, 1 and 2 impressions: 0 holds a third (under 50 %), 0 and 1 two thirds, so p50 is 1.
        let thirds = ImpressionSummary(histogram: [1, 1, 1])
        #expect(thirds.p50 == 1)
        #expect(thirds.p90 == 2 && thirds.p99 == 2 && thirds.max == 2)
        // Two user-days with 0 and 1: 0 holds exactly 50 %, so p50 is 0, and 1 is needed for p90.
        let halves = ImpressionSummary(histogram: [1, 1])
        #expect(halves.p50 == 0 && halves.p90 == 1)
        // 100 user-days: 90 with none, 9 with one, 1 with two. Exactly 90 % at or below 0 and 99 % at or below 1.
        let tail = ImpressionSummary(histogram: [90, 9, 1])
        #expect(tail.p50 == 0 && tail.p90 == 0 && tail.p99 == 1 && tail.max == 2)
        #expect(tail.mean == 0.11)
    }

    /// `cap_reached_share` is a share of user-days to 4 decimals (docs/impact.md: "the share (4 decimals) of user-days
    /// on which that cap was reached").
    /// Deny rows tied on count are in the reason table's order of their codes, then by location (file, line, column;
    /// a reason with none first), then by message, as docs/impact.md says: a report's rows never depend on the order
    /// the users or shards were played in.
    @Test func denyRowsTiedOnCountAreInCodeThenLocationThenMessageOrder() {
        func at(_ file: String, _ line: Int, _ column: Int) -> ImpactLocation { ImpactLocation(file: file, line: line, column: column) }
        let expected = [
            DenialCount(code: .dailyCap, location: at("a.yaml", 9, 3), message: "m", count: 7),
            DenialCount(code: .premiumUser, location: nil, message: "z", count: 5),
            DenialCount(code: .premiumUser, location: at("a.yaml", 2, 9), message: "m", count: 5),
            DenialCount(code: .premiumUser, location: at("a.yaml", 10, 1), message: "m", count: 5),
            DenialCount(code: .premiumUser, location: at("b.yaml", 1, 1), message: "m", count: 5),
            DenialCount(code: .minInterval, location: at("a.yaml", 1, 1), message: "m", count: 5),
            DenialCount(code: .minInterval, location: at("a.yaml", 1, 2), message: "m", count: 5),
            DenialCount(code: .sessionCap, location: nil, message: "a", count: 5),
            DenialCount(code: .sessionCap, location: nil, message: "b", count: 5),
        ]
        #expect(ReasonCode.premiumUser.listOrder < ReasonCode.minInterval.listOrder && ReasonCode.minInterval.listOrder < ReasonCode.sessionCap.listOrder)
        var counters = PlacementCounters()
        counters.denials = expected.reversed()
        #expect(counters.sortedDenials == expected)
        var generator = SplitMix64(seed: 7)
        for _ in 0..<20 {
            counters.denials = expected.shuffled(using: &generator)
            #expect(counters.sortedDenials == expected)
        }
    }

    /// The mean and the shares are ratios of integer counters rounded to 3 and 4 decimals (docs/impact.md): one exactly
    /// halfway is rounded up, as the decimal it is, not as the Double just below it (201 impressions over 400
    /// user-days, 0.5025, were reported 0.502; 57 of 800 user-days, 0.07125, 0.0712).
    @Test func aFigureExactlyHalfwayBetweenTwoDecimalsIsRoundedUp() {
        // 400 user-days, 201 with one impression: a mean of 0.5025.
        #expect(ImpressionSummary(histogram: [199, 201]).mean == 0.503)
        // 0.5075 (203 of 400), 1.0005 (2,001 over 2,000 user-days) and 0.0015 (3 over 2,000).
        #expect(ImpressionSummary(histogram: [197, 203]).mean == 0.508)
        #expect(ImpressionSummary(histogram: [0, 1_999, 1]).mean == 1.001)
        #expect(ImpressionSummary(histogram: [1_997, 3]).mean == 0.002)
        #expect(ImpactReport.share(57, of: 800) == 0.0713)
        #expect(ImpactReport.share(201, of: 800) == 0.2513)
        #expect(ImpactReport.share(1, of: 20_000) == 0.0001)
        // Every ratio of small counts, against the same rounding done on the exact fraction.
        for days in 1...400 {
            for count in 0...days {
                let units = (count * 20_000 + days) / (2 * days)
                #expect(ImpactReport.share(count, of: days) == Double(units) / 10_000)
            }
        }
        // The largest run's user-days do not overflow.
        #expect(ImpactReport.share(36_600_000_000 - 1, of: 36_600_000_000) == 1.0)
    }

    /// A report that shows the mean with 2 decimals rounds the exact fraction once: 249 impressions over 2,000 user-days
    /// (0.1245) is 0.125 with 3 decimals and 0.12 with 2, where rounding the 0.125 again showed 0.13.
    @Test func aMeanShownWithFewerDecimalsIsRoundedOnce() {
        let summary = ImpressionSummary(histogram: [1_751, 249])
        #expect(summary.mean == 0.125)
        #expect(summary.mean(places: 2) == 0.12)
        #expect(summary.mean(places: 3) == summary.mean)
        #expect(ImpressionSummary(histogram: []).mean(places: 2) == 0)
    }

    @Test func aCapShareHasFourDecimals() {
        #expect(ImpactReport.share(1, of: 3) == 0.3333)
        #expect(ImpactReport.share(2, of: 3) == 0.6667)
        #expect(ImpactReport.share(1, of: 8) == 0.125)
        #expect(ImpactReport.share(0, of: 0) == 0)
    }

    /// A deny-reason row whose message varies keeps the alphabetically first (docs/impact.md: "where it still varies
    /// (the placement on screen of `fullscreen_active`, …) it is the alphabetically first, so that it never depends on
    /// the order users were played in"), as one user's denials are counted too, not only when counters are added.
    @Test func aRowKeepsTheAlphabeticallyFirstMessageWhateverTheOrderOfItsDenials() {
        let onA = "fullscreen ad of a on screen", onB = "fullscreen ad of b on screen"
        let location = ImpactLocation(file: "p.yaml", line: 3, column: 5)
        for (first, then) in [(onA, onB), (onB, onA)] {
            var c = PlacementCounters()
            let row = c.appendDenial(.fullscreenActive, at: location, message: first)
            c.countDenial(entry: row, messageIsFixed: false, message: then)
            c.countDenial(entry: row, messageIsFixed: false, message: first)
            #expect(c.denials.count == 1)
            #expect(c.denials[0].count == 3)
            #expect(c.denials[0].message == onA, "denied first with \(first)")
        }
    }

    /// A placement's figures in total are the sum of its segments' (docs/impact.md: "The figures of
    /// `results[].placements` are the sum of the segments'"), for the user-days of every kind of cap, the groups' window
    /// caps (the last kind) included.
    @Test func theTotalCountsTheCapDaysOfEveryKindOfCapOfEverySegment() {
        var first = SegmentCounters(placements: 1), second = SegmentCounters(placements: 1)
        for cap in CapKind.allCases {
            first.placements[0].capDays[cap.rawValue] = cap.rawValue + 1
            second.placements[0].capDays[cap.rawValue] = 10 * (cap.rawValue + 1)
        }
        first.placements[0].histogram = [4]
        second.placements[0].histogram = [40]
        let result = ImpactPolicyResult(
            policy: "rules", placements: [ImpactPlacement(id: "p", format: "interstitial", caps: CapKind.allCases)], segments: [first, second])
        let total = result.total.placements[0]
        for cap in CapKind.allCases {
            #expect(total.capDays[cap.rawValue] == 11 * (cap.rawValue + 1), "\(cap.code.rawValue)")
        }
        #expect(total.userDays == 44)
    }
}

