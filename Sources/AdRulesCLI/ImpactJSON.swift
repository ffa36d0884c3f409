import AdRules
import AdRulesImpact

/// The `json` format of `adrules impact` (documented in docs/impact.md), both ways: a report is
/// written as JSON, and shard reports are read back for `impact merge`.
enum ImpactJSON {
    // MARK: writing

    static func render(_ report: ImpactReport) -> String {
        document(report).rendered() + "\n"
    }

    static func document(_ report: ImpactReport) -> JSON {
        var pairs: [(String, JSON)] = [
            ("version", .int(ImpactReport.formatVersion)), ("model", .string(report.model)), ("users", .int(report.users)),
            ("days", .int(report.days)), ("seed", .int(Int(report.seed))), ("start", .string(report.start)),
        ]
        if let shard = report.shard {
            pairs.append(("shard", .object([("index", .int(shard.index)), ("count", .int(shard.count))])))
        }
        pairs.append(("changes", .array(report.changes.map(change))))
        pairs.append(("results", .array(report.results.map { result($0, segments: report.segments) })))
        return .object(pairs)
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

    static func result(_ result: ImpactPolicyResult, segments: [String]) -> JSON {
        let total = result.total
        return .object([
            ("policy", .string(result.policy)), ("users", .int(total.users)), ("user_days", .int(total.userDays)),
            ("placements", placements(total, result.placements)),
            ("segments", .object(zip(segments, result.segments).map { name, counters in
                (name, .object([
                    ("users", .int(counters.users)), ("user_days", .int(counters.userDays)),
                    ("placements", placements(counters, result.placements)),
                ]))
            })),
        ])
    }

    static func placements(_ counters: SegmentCounters, _ placements: [ImpactPlacement]) -> JSON {
        .object(zip(placements, counters.placements).map { placement, c in (placement.id, figures(c, placement: placement, userDays: counters.userDays)) })
    }

    static func figures(_ c: PlacementCounters, placement: ImpactPlacement, userDays: Int) -> JSON {
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
                .object([
                    ("code", .string(denial.code.rawValue)), ("file", denial.location.map { .string($0.file) } ?? .null),
                    ("line", denial.location.map { .int($0.line) } ?? .null), ("column", denial.location.map { .int($0.column) } ?? .null),
                    ("count", .int(denial.count)), ("message", .string(denial.message)),
                ])
            })),
            ("wasted_loads", .int(c.wastedLoads)),
            ("loads", .object([("started", .int(c.loadsStarted)), ("completed", .int(c.loadsCompleted)), ("failed", .int(c.loadsFailed))])),
            ("show_failures", .int(c.showFailures)),
            ("rewarded", .object([("offers", .int(c.offers)), ("accepted", .int(c.accepted)), ("granted", .int(c.granted))])),
        ])
    }

    // MARK: reading

    /// Why a file is not an impact report this version can read.
    struct ReadError: Error, CustomStringConvertible {
        var problem: String
        var description: String { problem }
    }

    /// Reads a report written by ``render(_:)``.
    /// - Throws: ``ReadError`` or ``JSON/ParseError``.
    static func read(_ text: String) throws -> ImpactReport {
        let document = try JSON.parse(text)
        func need<T>(_ value: T?, _ what: String) throws -> T {
            guard let value else { throw ReadError(problem: "not an impact report: \(what) is missing or malformed") }
            return value
        }
        guard document["version"]?.intValue == ImpactReport.formatVersion else {
            throw ReadError(problem: "not an impact report of version \(ImpactReport.formatVersion)")
        }
        var shard: Shard?
        if let object = document["shard"], object != .null {
            shard = try need(Shard(index: object["index"]?.intValue ?? 0, count: object["count"]?.intValue ?? 0), "shard")
        }
        let changes = try need(document["changes"]?.arrayValue, "changes").map { try readChange($0, need: need) }
        var segmentNames: [String] = []
        var results: [ImpactPolicyResult] = []
        for item in try need(document["results"]?.arrayValue, "results") {
            let segments = try need(item["segments"]?.objectValue, "segments")
            segmentNames = segments.map(\.0)
            var placements: [ImpactPlacement] = []
            var counters: [SegmentCounters] = []
            for (_, segment) in segments {
                let figures = try need(segment["placements"]?.objectValue, "placements")
                var c = SegmentCounters(placements: figures.count)
                c.users = try need(segment["users"]?.intValue, "users")
                c.userDays = try need(segment["user_days"]?.intValue, "user_days")
                var found: [ImpactPlacement] = []
                for (i, (id, object)) in figures.enumerated() {
                    let (placement, placementCounters) = try readFigures(id, object, need: need)
                    found.append(placement)
                    c.placements[i] = placementCounters
                }
                placements = found
                counters.append(c)
            }
            results.append(ImpactPolicyResult(policy: try need(item["policy"]?.stringValue, "policy"), placements: placements, segments: counters))
        }
        return ImpactReport(
            model: try need(document["model"]?.stringValue, "model"), users: try need(document["users"]?.intValue, "users"),
            days: try need(document["days"]?.intValue, "days"), seed: UInt64(max(0, try need(document["seed"]?.intValue, "seed"))),
            start: try need(document["start"]?.stringValue, "start"), segments: segmentNames, shard: shard, changes: changes,
            results: results)
    }

    private static func readLocation(_ value: JSON?) -> ImpactLocation? {
        guard let value, let file = value["file"]?.stringValue, let line = value["line"]?.intValue, let column = value["column"]?.intValue else { return nil }
        return ImpactLocation(file: file, line: line, column: column)
    }

    private static func readChange(_ value: JSON, need: (String?, String) throws -> String) throws -> PolicyChange {
        PolicyChange(
            kind: PolicyChange.Kind(rawValue: try need(value["kind"]?.stringValue, "a change's kind")) ?? .changed,
            subject: try need(value["subject"]?.stringValue, "a change's subject"),
            setting: try need(value["setting"]?.stringValue, "a change's setting"),
            old: value["old"]?.stringValue, new: value["new"]?.stringValue,
            oldLocation: readLocation(value["old_location"]), newLocation: readLocation(value["new_location"]))
    }

    private static func readFigures(_ id: String, _ object: JSON, need: (Int?, String) throws -> Int) throws -> (ImpactPlacement, PlacementCounters) {
        var c = PlacementCounters()
        guard let histogram = object["histogram"]?.arrayValue, let capDays = object["cap_reached_user_days"]?.objectValue,
            let denials = object["deny_reasons"]?.arrayValue, let format = object["format"]?.stringValue
        else { throw ReadError(problem: "not an impact report: the figures of \(id) are incomplete") }
        c.histogram = try histogram.map { try need($0.intValue, "histogram") }
        var caps: [CapKind] = []
        for (code, count) in capDays {
            guard let reason = ReasonCode(rawValue: code), let kind = CapKind(code: reason) else { throw ReadError(problem: "unknown cap \(code)") }
            caps.append(kind)
            c.capDays[kind.rawValue] = try need(count.intValue, "cap_reached_user_days")
        }
        for denial in denials {
            guard let code = denial["code"]?.stringValue.flatMap(ReasonCode.init(rawValue:)) else { throw ReadError(problem: "unknown reason code in \(id)") }
            var location: ImpactLocation?
            if let file = denial["file"]?.stringValue {
                location = ImpactLocation(file: file, line: try need(denial["line"]?.intValue, "line"), column: try need(denial["column"]?.intValue, "column"))
            }
            c.denials.append(DenialCount(
                code: code, location: location, message: denial["message"]?.stringValue ?? "", count: try need(denial["count"]?.intValue, "count")))
        }
        c.wastedLoads = try need(object["wasted_loads"]?.intValue, "wasted_loads")
        c.loadsStarted = try need(object["loads"]?["started"]?.intValue, "loads")
        c.loadsCompleted = try need(object["loads"]?["completed"]?.intValue, "loads")
        c.loadsFailed = try need(object["loads"]?["failed"]?.intValue, "loads")
        c.showFailures = try need(object["show_failures"]?.intValue, "show_failures")
        c.offers = try need(object["rewarded"]?["offers"]?.intValue, "rewarded")
        c.accepted = try need(object["rewarded"]?["accepted"]?.intValue, "rewarded")
        c.granted = try need(object["rewarded"]?["granted"]?.intValue, "rewarded")
        return (ImpactPlacement(id: id, format: format, caps: caps.sorted { $0.rawValue < $1.rawValue }), c)
    }
}
