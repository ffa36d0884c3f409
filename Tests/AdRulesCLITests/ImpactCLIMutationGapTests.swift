import AdRules
import AdRulesImpact
import AdRulesTestSupport
import Foundation
import Testing

@testable import AdRulesCLI

/// Tests for gaps a mutation audit of `adrules impact`'s reports found: each pins what docs/impact.md says a report
/// shows, where no other test told it apart from a near miss.
@Suite("adrules impact mutation gaps")
struct ImpactCLIMutationGapTests {
    /// Counters of one placement with every figure set, and no two of its percentiles alike: 100 user-days, 90 with no
    /// impression, 9 with one and 1 with two (p90 0, p99 1, max 2).
    static func counters() -> PlacementCounters {
        var c = PlacementCounters()
        c.histogram = [90, 9, 1]
        c.capDays[CapKind.dailyCap.rawValue] = 7
        c.denials = [DenialCount(code: .minInterval, location: ImpactLocation(file: "rules/p.yaml", line: 3, column: 20), message: "min_interval 1m not elapsed", count: 12)]
        c.wastedLoads = 3
        (c.loadsStarted, c.loadsCompleted, c.loadsFailed) = (30, 25, 4)
        c.showFailures = 2
        (c.offers, c.accepted, c.granted) = (6, 5, 4)
        return c
    }

    /// Every number of a json value with the key it is written under, objects and lists walked through.
    static func numbers(_ json: JSON, under key: String = "") -> [(key: String, value: Double)] {
        switch json {
        case .int(let i): return [(key, Double(i))]
        case .double(let d): return [(key, d)]
        case .array(let items): return items.flatMap { numbers($0, under: key) }
        case .object(let pairs): return pairs.flatMap { numbers($0.1, under: $0.0) }
        case .null, .bool, .string: return []
        }
    }

    /// The value under `path` in a json object.
    static func value(_ json: JSON, _ path: String...) -> JSON? {
        var current: JSON? = json
        for key in path {
            guard case .object(let pairs)? = current else { return nil }
            current = pairs.first { $0.0 == key }?.1
        }
        return current
    }

    /// The json's `difference` is each figure of the new policy minus the same figure of the old one (docs/impact.md):
    /// a placement compared with figures that did not change differs by 0 in every one, each percentile and each kind
    /// of load included.
    @Test func figuresThatDidNotChangeDifferByZeroInEveryOne() {
        let placement = ImpactPlacement(id: "level_end", format: "interstitial", caps: [.dailyCap])
        let c = Self.counters()
        let change = ImpactJSON.change(c, placement, userDays: 100, c, placement, userDays: 100)
        // A deny reason's row says where it is (its line and column) beside its count.
        let figures = Self.numbers(change).filter { $0.key != "line" && $0.key != "column" }
        #expect(figures.count == 16, "\(figures)")
        for figure in figures { #expect(figure.value == 0, "\(figure.key)") }
    }

    /// Each figure of the `difference` is the new one minus the old one, the one of the same name (p99 minus p99, failed
    /// loads minus failed loads).
    @Test func eachDifferenceIsTheSameFigureNewMinusOld() throws {
        let placement = ImpactPlacement(id: "level_end", format: "interstitial", caps: [.dailyCap])
        let old = Self.counters()
        var new = old
        // 100 user-days: 40 at or below 0, 80 at or below 1 (p50 1), 95 at or below 2 (p90 2), 99 at or below 4 (p99 4),
        // and one with 6 (max 6), against the old p50 0, p90 0, p99 1 and max 2: each differs by another amount, so a
        // figure written under another's name is told apart. The mean: 0.89 against 0.11.
        new.histogram = [40, 40, 15, 3, 1, 0, 1]
        (new.loadsStarted, new.loadsCompleted, new.loadsFailed) = (40, 31, 6)
        let change = ImpactJSON.change(old, placement, userDays: 100, new, placement, userDays: 100)
        #expect(Self.value(change, "impressions_per_user_day", "p50") == .int(1))
        #expect(Self.value(change, "impressions_per_user_day", "p90") == .int(2))
        #expect(Self.value(change, "impressions_per_user_day", "p99") == .int(3))
        #expect(Self.value(change, "impressions_per_user_day", "max") == .int(4))
        #expect(Self.value(change, "impressions_per_user_day", "mean") == .double(0.78))
        #expect(Self.value(change, "loads", "started") == .int(10))
        #expect(Self.value(change, "loads", "completed") == .int(6))
        #expect(Self.value(change, "loads", "failed") == .int(2))
    }

    /// The difference of two means is that of the rounded means, rounded again (docs/impact.md: "Means and shares are
    /// differences of the rounded figures, rounded again (3 and 4 decimals)"): means of 0.2 and 0.3 differ by 0.1, not
    /// by the 0.09999999999999998 that subtracting the two doubles gives.
    @Test func aDifferenceOfMeansIsRoundedAgain() throws {
        let placement = ImpactPlacement(id: "level_end", format: "interstitial", caps: [])
        var old = PlacementCounters(), new = PlacementCounters()
        old.histogram = [8, 2]  // a mean of 0.2
        new.histogram = [7, 3]  // 0.3
        let change = ImpactJSON.change(old, placement, userDays: 10, new, placement, userDays: 10)
        let mean = try #require(Self.value(change, "impressions_per_user_day", "mean"))
        #expect(mean == .double(0.1), "\(mean)")
        #expect(change.rendered().contains("\"mean\": 0.1,"), "\(change.rendered())")
    }

    /// Deny-reason rows of two policies found at files of other names are paired only when they are the only such pair
    /// of their code and subject (docs/impact.md: "are one row when they are the only such pair"): two rows only the old
    /// policy has and two only the new one has stay four rows, each count under its own policy.
    @Test func rowsInOtherFilesArePairedOnlyWhenTheyAreTheOnlyPair() {
        func counters(_ rows: [(String, Int)]) -> PlacementCounters {
            var c = PlacementCounters()
            c.histogram = [10]
            c.denials = rows.map { file, count in
                DenialCount(code: .minInterval, location: ImpactLocation(file: file, line: 3, column: 20), message: "min_interval 1m not elapsed", count: count)
            }
            return c
        }
        let placement = ImpactPlacement(id: "level_end", format: "interstitial", caps: [])
        let old = PlacementFigures(placement, counters([("old/a.yaml", 7), ("old/b.yaml", 5)]), userDays: 10)
        let new = PlacementFigures(placement, counters([("new/c.yaml", 6), ("new/d.yaml", 2)]), userDays: 10)
        let rows = PlacementFigures.denialRows([old, new])
        #expect(rows.count == 4, "\(rows.map(\.counts))")
        #expect(rows.allSatisfy { $0.counts.filter { $0 != 0 }.count == 1 }, "\(rows.map(\.counts))")
        #expect(rows.map { $0.counts[0] }.reduce(0, +) == 12 && rows.map { $0.counts[1] }.reduce(0, +) == 8)
        // One such pair is one row, as the docs say (the setting moved to a file of another name).
        let moved = PlacementFigures.denialRows([
            PlacementFigures(placement, counters([("old/a.yaml", 7)]), userDays: 10), PlacementFigures(placement, counters([("new/c.yaml", 6)]), userDays: 10),
        ])
        #expect(moved.map(\.counts) == [[7, 6]])
    }

    /// The rewarded rows are shown for any placement with an offer shown (docs/impact.md: "are shown for a rewarded
    /// format, and for any placement with an offer shown (an offer the engine allowed)"), even when no user accepted one.
    @Test func offersShownForAnInterstitialThatNoUserAcceptsAreInTheText() throws {
        let dir = try temporaryDirectory("adrules-offers-shown", [
            "p.yaml": "version: 1\nplacements:\n  level_end: {format: interstitial}\n",
            "m.model.yaml": "version: 1\nusers: 2\ndays: 1\nsegments:\n  - {name: one, share: 1, foreground: 30m, rewarded: [{placement: level_end, every: 5m, accept: 0}]}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let json = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/p.yaml", "--format", "json"])
        #expect(json.exitCode == 0, "\(json.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let result = try #require((document["results"] as? [[String: Any]])?.first)
        let rewarded = try #require(((result["placements"] as? [String: Any])?["level_end"] as? [String: Any])?["rewarded"] as? [String: Int])
        let offers = try #require(rewarded["offers"])
        try #require(offers > 0 && rewarded["accepted"] == 0 && rewarded["granted"] == 0, "\(rewarded)")
        let text = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/p.yaml"])
        #expect(text.exitCode == 0, "\(text.stderr)")
        let row = text.stdout.split(separator: "\n").first { $0.hasPrefix("  rewarded offers shown") }
        #expect(row?.split(separator: " ").last.map(String.init) == ImpactFormat.count(offers), "\(text.stdout)")
        #expect(text.stdout.contains("\n    accepted ") && text.stdout.contains("\n    rewards granted "), "\(text.stdout)")
    }

    /// The html's chart has a bar for each of the eight most frequent deny reasons, no more (docs/impact.md: "the eight
    /// most frequent deny reasons as bars"); the others are in the table below it.
    @Test func theHTMLChartHasEightBars() throws {
        let rules = (0..<10).map { "  - {id: r\($0), deny: [level_end], when: not premium, message: Rule \($0) says no}\n" }.joined()
        let dir = try temporaryDirectory("adrules-eight-bars", [
            "p.yaml": "version: 1\nplacements:\n  level_end: {format: interstitial, min_interval: 1m}\nrules:\n" + rules,
            "m.model.yaml": "version: 1\nusers: 1\ndays: 1\nsegments:\n  - {name: one, share: 1, foreground: 30m, actions: [{placement: level_end, every: 1m}]}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let html = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/p.yaml", "--format", "html"])
        #expect(html.exitCode == 0, "\(html.stderr)")
        #expect(html.stdout.contains("<summary>All 10 deny reasons</summary>"), "\(html.stdout)")
        let start = try #require(html.stdout.range(of: "aria-label=\"deny reasons\">"))
        let end = try #require(html.stdout[start.upperBound...].range(of: "</svg>"))
        let chart = html.stdout[start.upperBound..<end.lowerBound]
        #expect(chart.components(separatedBy: "<rect ").count - 1 == 8, "\(chart)")
        #expect(chart.components(separatedBy: "</title>custom_rule ").count - 1 == 8, "\(chart)")
    }
}
