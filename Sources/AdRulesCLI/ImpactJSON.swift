import AdRules
import AdRulesImpact

/// The `json` format of `adrules impact` (documented in docs/impact.md), both ways: a report is
/// written as JSON, and shard reports are read back for `impact merge`.
enum ImpactJSON {
    static func render(_ report: ImpactReport) -> String {
        document(report).rendered() + "\n"
    }

    static func document(_ report: ImpactReport) -> JSON {
        var pairs: [(String, JSON)] = [
            ("version", .int(ImpactReport.formatVersion)), ("model", .string(report.model)), ("users", .int(report.users)),
            ("days", .int(report.days)), ("seed", .int(Int(report.seed))), ("start", .string(report.start)),
            ("inputs", .string(report.inputs)),
        ]
        if let shard = report.shard {
            pairs.append(("shard", .object([("index", .int(shard.index)), ("count", .int(shard.count))])))
        }
        pairs.append(("changes", .array(report.changes.map(change))))
        // Only when some are left out: the changes past those listed.
        if report.moreChanges > 0 { pairs.append(("more_changes", .int(report.moreChanges))) }
        pairs.append(("results", .array(report.results.map { result($0, segments: report.segments, isPart: report.shard != nil) })))
        // With --compare, the new policy's figures minus the old's (derived from the results: merge writes it again, so a
        // --shard part leaves it out, and holds no more than the rows its size guards count).
        if report.results.count == 2, report.shard == nil { pairs.append(("difference", difference(old: report.results[0], new: report.results[1], segments: report.segments))) }
        return .object(pairs)
    }

    /// The `difference` block of a `--compare` run: for each placement both results list, in total and per segment,
    /// each figure of the new policy minus the old one's.
    static func difference(old: ImpactPolicyResult, new: ImpactPolicyResult, segments: [String]) -> JSON {
        // Where each placement stands in the old result, looked up once for the total and every segment.
        let oldIndex = Dictionary(old.placements.indices.map { (old.placements[$0].id, $0) }, uniquingKeysWith: { first, _ in first })
        func placements(_ old: SegmentCounters, _ new: SegmentCounters) -> JSON {
            .object(newPlacements.indices.compactMap { i in
                guard let j = oldIndex[newPlacements[i].id] else { return nil }
                return (newPlacements[i].id, change(
                    old.placements[j], oldPlacements[j], userDays: old.userDays, new.placements[i], newPlacements[i], userDays: new.userDays))
            })
        }
        let oldPlacements = old.placements, newPlacements = new.placements
        return .object([
            ("placements", placements(old.total, new.total)),
            ("segments", .object(segments.indices.map { k in (segments[k], .object([("placements", placements(old.segments[k], new.segments[k]))])) })),
        ])
    }

    /// One placement's figures, new minus old. Means and shares are differences of the rounded figures, rounded again
    /// (to 3 and 4 decimals), so that 0.3 - 0.2 is written 0.1; a cap only one policy has counts as reached on no day
    /// under the other.
    static func change(
        _ old: PlacementCounters, _ oldPlacement: ImpactPlacement, userDays oldDays: Int,
        _ new: PlacementCounters, _ newPlacement: ImpactPlacement, userDays newDays: Int
    ) -> JSON {
        // Adding 0 turns a rounded -0.0 into 0.0 (a figure that did not change is written 0.0, never -0.0).
        func rounded(_ value: Double, _ scale: Double) -> Double { (value * scale).rounded() / scale + 0 }
        let was = ImpressionSummary(histogram: old.histogram), now = ImpressionSummary(histogram: new.histogram)
        var caps = oldPlacement.caps
        for cap in newPlacement.caps where !caps.contains(cap) { caps.append(cap) }
        caps.sort { $0.rawValue < $1.rawValue }
        func share(_ c: PlacementCounters, _ placement: ImpactPlacement, _ cap: CapKind, _ days: Int) -> Double {
            placement.caps.contains(cap) ? ImpactReport.share(c.capDays[cap.rawValue], of: days) : 0
        }
        return .object([
            ("impressions", .int(new.impressions - old.impressions)),
            ("impressions_per_user_day", .object([
                ("mean", .double(rounded(now.mean - was.mean, 1000))), ("p50", .int(now.p50 - was.p50)), ("p90", .int(now.p90 - was.p90)),
                ("p99", .int(now.p99 - was.p99)), ("max", .int(now.max - was.max)),
            ])),
            ("cap_reached_share", .object(caps.map { cap in
                (cap.code.rawValue, .double(rounded(share(new, newPlacement, cap, newDays) - share(old, oldPlacement, cap, oldDays), 10_000)))
            })),
            // Reasons matched across the policies as the text report matches them (by code and file, see
            // ``PlacementFigures/denialRows(_:)``), at the new policy's location when it has the reason.
            ("deny_reasons", .array(PlacementFigures.denialRows([
                PlacementFigures(oldPlacement, old, userDays: oldDays), PlacementFigures(newPlacement, new, userDays: newDays),
            ]).map { row in
                .object([
                    ("code", .string(row.code.rawValue)), ("file", row.location.map { .string($0.file) } ?? .null),
                    ("line", row.location.map { .int($0.line) } ?? .null), ("column", row.location.map { .int($0.column) } ?? .null),
                    ("count", .int(row.counts[1] - row.counts[0])),
                ])
            })),
            ("wasted_loads", .int(new.wastedLoads - old.wastedLoads)),
            ("loads", .object([
                ("started", .int(new.loadsStarted - old.loadsStarted)), ("completed", .int(new.loadsCompleted - old.loadsCompleted)),
                ("failed", .int(new.loadsFailed - old.loadsFailed)),
            ])),
            ("show_failures", .int(new.showFailures - old.showFailures)),
            ("rewarded", .object([
                ("offers", .int(new.offers - old.offers)), ("accepted", .int(new.accepted - old.accepted)), ("granted", .int(new.granted - old.granted)),
            ])),
        ])
    }

    static func location(_ location: ImpactLocation?) -> JSON {
        guard let location else { return .null }
        return .object([("file", .string(location.file)), ("line", .int(location.line)), ("column", .int(location.column))])
    }

    static func change(_ change: PolicyChange) -> JSON {
        .object([
            ("kind", .string(change.kind.rawValue)), ("subject", .string(change.subject)), ("setting", .string(change.setting)),
            ("old", change.old.map(JSON.string) ?? .null), ("new", change.new.map(JSON.string) ?? .null),
            ("old_location", location(change.oldLocation)), ("new_location", location(change.newLocation)),
        ])
    }

    /// - Parameter isPart: whether the result is a `--shard` part's, whose deny reasons say their longest message.
    static func result(_ result: ImpactPolicyResult, segments: [String], isPart: Bool) -> JSON {
        let total = result.total
        return .object([
            ("policy", .string(result.policy)), ("users", .int(total.users)), ("user_days", .int(total.userDays)),
            ("placements", placements(total, result.placements, isPart: isPart)),
            ("segments", .object(zip(segments, result.segments).map { name, counters in
                (name, .object([
                    ("users", .int(counters.users)), ("user_days", .int(counters.userDays)),
                    ("placements", placements(counters, result.placements, isPart: isPart)),
                ]))
            })),
        ])
    }

    static func placements(_ counters: SegmentCounters, _ placements: [ImpactPlacement], isPart: Bool) -> JSON {
        .object(zip(placements, counters.placements).map { placement, c in
            (placement.id, figures(c, placement: placement, userDays: counters.userDays, isPart: isPart))
        })
    }

    /// - Parameter isPart: whether to write each deny reason's `longest_message`: a row keeps the smallest of its
    ///   messages, and the run bounds the bytes of the longest (``DenialCount/longestMessage``), which `impact merge`
    ///   bounds in the sum of the parts, as the unsharded run does, in whatever order they come.
    static func figures(_ c: PlacementCounters, placement: ImpactPlacement, userDays: Int, isPart: Bool) -> JSON {
        let summary = ImpressionSummary(histogram: c.histogram)
        return .object([
            ("format", .string(placement.format)),
            ("impressions", .int(c.impressions)),
            ("impressions_per_user_day", .object([
                ("mean", .double(summary.mean)), ("p50", .int(summary.p50)), ("p90", .int(summary.p90)),
                ("p99", .int(summary.p99)), ("max", .int(summary.max)),
            ])),
            ("histogram", .array(c.histogram.map(JSON.int))),
            ("cap_reached_share", .object(placement.caps.map { ($0.code.rawValue, .double(ImpactReport.share(c.capDays[$0.rawValue], of: userDays))) })),
            ("cap_reached_user_days", .object(placement.caps.map { ($0.code.rawValue, .int(c.capDays[$0.rawValue])) })),
            ("deny_reasons", .array(c.sortedDenials.map { denial in
                var row: [(String, JSON)] = [
                    ("code", .string(denial.code.rawValue)), ("file", denial.location.map { .string($0.file) } ?? .null),
                    ("line", denial.location.map { .int($0.line) } ?? .null), ("column", denial.location.map { .int($0.column) } ?? .null),
                    ("count", .int(denial.count)), ("message", .string(denial.message)),
                ]
                if isPart { row.append(("longest_message", .int(denial.longestMessage))) }
                return .object(row)
            })),
            ("wasted_loads", .int(c.wastedLoads)),
            ("loads", .object([("started", .int(c.loadsStarted)), ("completed", .int(c.loadsCompleted)), ("failed", .int(c.loadsFailed))])),
            ("show_failures", .int(c.showFailures)),
            ("rewarded", .object([("offers", .int(c.offers)), ("accepted", .int(c.accepted)), ("granted", .int(c.granted))])),
        ])
    }
}
