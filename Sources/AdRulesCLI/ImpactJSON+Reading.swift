import AdRules
import AdRulesCompiler
import AdRulesImpact

/// Reading a report back (`impact merge`): the document, its results and segments, and the small values in them.
extension ImpactJSON {
    /// Why a file is not an impact report this version can read.
    struct ReadError: Error, CustomStringConvertible {
        var problem: String
        /// The value the problem is about, nil for the whole document.
        var path: PartPath?
        /// Whether the problem is the key of the value (one a run does not write), not the value.
        var atKey = false
        var description: String { problem }

        init(_ problem: String, at value: PartValue, atKey: Bool = false) {
            self.problem = problem
            path = value.path
            self.atKey = atKey || value.isKey
        }

        /// Where in the part the problem is: the value's (or key's) first byte.
        func offset(in bytes: [UInt8]) -> Int? {
            PartPath.offset(of: path, in: bytes, atKey: atKey)
        }
    }

    /// The most a counter may hold per user-day of the whole run (asks, loads, reasons): what a run writes within.
    static let maxPerUserDay = ImpactReport.maxCountPerUserDay

    /// The most JSON values a part may hold.
    static let maxPartValues = 8_000_000

    /// The deepest nesting of arrays and objects a part may have: a report is 9 deep. (Nested 56 deep, 8 million
    /// values took 1.3 GB to read before the merge refused them.)
    static let maxPartDepth = 16

    /// Reads a report written by ``render(_:)``. A part may come from anywhere: every count is checked against the
    /// population it claims (never negative, user-days that add up, nothing beyond `maxPerUserDay` a user-day),
    /// and texts hold no control characters, so that no part can make the merge overflow or print forged lines.
    /// - Throws: ``ReadError`` or ``JSONValue/ParseError``.
    static func read(_ bytes: [UInt8]) throws -> ImpactReport {
        // A part of a run holds a few million values at most (10,000 blocks of figures a result, 1,000,000 histogram
        // entries, 100,000 deny rows, and the totals beside them): a text of more is refused as it is read, before
        // it takes gigabytes (a 64 MiB part of zeros is 33 million values).
        // Read as the parser's values, checked as they are read into the report: one tree, not a copy of it as well.
        let document = PartValue(try JSONValue.parse(bytes, maxDepth: maxPartDepth, maxValues: maxPartValues), path: nil)
        // A compiled policy given by mistake (both are .json files beside each other) is named as one.
        if document["format"].stringValue == Policy.compiledFormatName {
            throw ReadError("a compiled policy (what adrules compile writes), not an impact report", at: document["format"], atKey: true)
        }
        // A part holds what a run writes and nothing else. `difference` is let through here only so that a complete
        // --compare result is told it is not a part (below), rather than that it holds an unknown key.
        try onlyKeys(
            document, ["version", "model", "users", "days", "seed", "start", "inputs", "shard", "changes", "more_changes", "results", "difference"],
            in: nil)
        // Merge reads the parts of a --shard run: a result without its shard is a complete one, or a part whose shard
        // was taken out (its deny reasons still say their longest message, which only a part writes).
        guard document["shard"].exists, !document["shard"].isNull else {
            throw ReadError(
                "not the result of one shard: it has \(document["shard"].exists ? "\"shard\": null" : "no \"shard\""), where a run with --shard K/N writes \"shard\": {\"index\": K, \"count\": N} (a run without --shard writes a complete result, which is not merged)",
                at: document["shard"].exists ? document["shard"] : document)
        }
        // A --compare run writes `difference` only unsharded (merge writes it from the merged results).
        if document["difference"].exists {
            throw ReadError("not an impact report: unknown key \"difference\", which only an unsharded --compare run writes", at: document["difference"], atKey: true)
        }
        guard document["version"].intValue == ImpactReport.formatVersion else {
            throw ReadError("not an impact report of version \(ImpactReport.formatVersion)", at: document["version"].exists ? document["version"] : document)
        }
        let users = try readCount(document["users"], "users", in: 1...ModelDecoder.maxUsers)
        let days = try readCount(document["days"], "days", in: 1...ModelDecoder.maxDays)
        let object = document["shard"]
        try onlyKeys(object, ["index", "count"], in: "shard")
        let shards = try readCount(object["count"], "the number of shards", in: 1...Shard.maxCount)
        let shard = try required(Shard(index: try readCount(object["index"], "the shard's index", in: 1...shards), count: shards), "shard", at: object)
        let listedChanges = try required(document["changes"].arrayValue, "changes", at: document["changes"])
        // A run lists at most this many changes, within so many bytes of their texts, and counts the others.
        let tooManyChanges = "it lists more policy changes than the \(PolicyDiff.maxListed) (or \(PolicyDiff.maxListedText) bytes of their texts) a run lists, counting the others in more_changes"
        guard listedChanges.count <= PolicyDiff.maxListed else {
            throw ReadError("not an impact report: \(tooManyChanges)", at: listedChanges[PolicyDiff.maxListed])
        }
        let changes = try listedChanges.map { try readChange($0) }
        guard PolicyDiff.listed(changes).more == 0 else { throw ReadError("not an impact report: \(tooManyChanges)", at: document["changes"]) }
        var segmentNames: [String] = []
        var results: [ImpactPolicyResult] = []
        var size = PartSize()
        for item in try required(document["results"].arrayValue, "results", at: document["results"]) {
            results.append(try readResult(item, users: users, days: days, segmentNames: &segmentNames, earlier: results, size: &size))
        }
        guard !results.isEmpty else { throw ReadError("not an impact report: it has no results", at: document["results"]) }
        // One policy, or the old and the new of --compare: a run writes no more.
        guard results.count <= 2 else {
            throw ReadError("not an impact report: it has \(results.count) results, where a run writes one, or two with --compare", at: document["results"])
        }
        // The changes between the policies of a --compare run: a run of one policy lists none, nor counts any.
        if results.count == 1, !changes.isEmpty || document["more_changes"].exists {
            throw ReadError(
                "not an impact report: it lists policy changes, which a run writes only with --compare (two results)",
                at: changes.isEmpty ? document["more_changes"] : document["changes"])
        }
        var report = ImpactReport(
            model: try readPath(document["model"], "model"), users: users, days: days,
            seed: UInt64(try readCount(document["seed"], "seed", in: 0...ModelDecoder.maxSeed)),
            start: try readDay(document["start"]), segments: segmentNames, shard: shard, changes: changes,
            results: results)
        if document["more_changes"].exists { report.moreChanges = try readCount(document["more_changes"], "more_changes", in: 1...Int.max) }
        // The digest is what tells parts played on other model or policy contents apart: a part without it, or with a
        // text that is not one, cannot be checked (all of them without it compared equal, and merged any policies).
        guard document["inputs"].exists else {
            throw ReadError(
                "not an impact report: inputs is missing, where a run writes the sha256: digest of its model and policies, which merge compares: play that shard again",
                at: document)
        }
        report.inputs = try readString(document["inputs"], "inputs")
        guard InputDigest.isDigest(report.inputs) else {
            throw ReadError(
                "not an impact report: inputs is \(ControlCharacters.quoted(report.inputs)), where a run writes sha256: and 64 lowercase hexadecimal digits",
                at: document["inputs"])
        }
        return report
    }

    /// What a part's reports and figures hold so far, against what a report may hold.
    struct PartSize {
        var histogramEntries = 0
        var denyRows = 0
        var denyText = 0

        /// Adds a block's figures (`object`, where an error points), refusing a part that passes what a report holds.
        mutating func add(_ counters: PlacementCounters, at object: PartValue) throws {
            // Histograms of a real run are a few hundred entries: a part holding millions is not one.
            histogramEntries += counters.histogram.count
            guard histogramEntries <= 1_000_000 else {
                throw ReadError("not an impact report: its histograms hold more than 1,000,000 entries", at: object["histogram"])
            }
            denyRows += counters.denials.count
            guard denyRows <= ImpactReport.maxDenyRows else {
                throw ReadError(
                    "not an impact report: it lists more than \(ImpactReport.maxDenyRows) deny reasons (reason and YAML line pairs)",
                    at: object["deny_reasons"])
            }
            // The row that takes the text past what a report holds is the one named (the merge checks the sum of
            // the parts as well).
            for (k, row) in counters.denials.enumerated() {
                denyText += row.boundedTextBytes
                guard denyText <= ImpactReport.maxDenyText else {
                    throw ReadError(
                        "not an impact report: its deny reasons' messages and file names come to more than the \(ImpactReport.maxDenyText) bytes a report holds",
                        at: object["deny_reasons"].arrayValue?[k] ?? object["deny_reasons"])
                }
            }
        }
    }

    /// One result of a part: its segments, each block's figures, and totals that are their sums.
    /// - Parameters:
    ///   - segmentNames: the segments of the results read before (set by the first): every result lists the same.
    ///   - earlier: the results read before, which played the same users.
    private static func readResult(
        _ item: PartValue, users: Int, days: Int, segmentNames: inout [String], earlier: [ImpactPolicyResult], size: inout PartSize
    ) throws -> ImpactPolicyResult {
        try onlyKeys(item, ["policy", "users", "user_days", "placements", "segments"], in: "a result")
        let segments = try required(item["segments"].objectValue, "segments", at: item["segments"])
        guard !segments.isEmpty else { throw ReadError("not an impact report: a result has no segments", at: item["segments"]) }
        let names = try segments.map { name, segment in
            let text = try readString(segment.key(name), "a segment name")
            if let problem = Segment.nameProblem(text) { throw ReadError("not an impact report: a segment name is \(problem)", at: segment.key(name)) }
            return text
        }
        // The results of a --compare run list the same segments in the same order: counters are added by position.
        guard earlier.isEmpty || names == segmentNames else {
            throw ReadError("not an impact report: its results list different segments", at: item["segments"])
        }
        segmentNames = names
        // A run is refused before it plays when its report would hold more blocks than this: no part holds more.
        let blocks = segments.reduce(0) { $0 + ($1.1["placements"].objectValue?.count ?? 0) }
        guard blocks <= ModelCheck.maxReportBlocks else {
            throw ReadError(
                "not an impact report: a result holds \(blocks) segment × placement blocks, more than the \(ModelCheck.maxReportBlocks) a run may report",
                at: item["segments"])
        }
        // The most any count but a histogram's may hold: per user-day of the whole run, in a block and over its segments.
        let most = users * days * maxPerUserDay
        var placements: [ImpactPlacement] = []
        var firstSegment = ""
        var counters: [SegmentCounters] = []
        var segmentUsers = 0
        for (name, segment) in segments {
            let (found, c) = try readSegment(name, segment, usersLeft: users - segmentUsers, days: days, most: most, size: &size)
            segmentUsers += c.users
            // Every segment lists the same placements in the same order, with the same format and caps (a run writes
            // each placement's caps in every segment): counters are added by position.
            guard counters.isEmpty || found == placements else {
                // Which of the two was changed cannot be told: both are named.
                throw ReadError(
                    "not an impact report: segments \(ControlCharacters.cut(firstSegment)) and \(ControlCharacters.cut(name)) list different placements, formats or caps, where a run lists the same in every segment",
                    at: segment["placements"])
            }
            if counters.isEmpty { firstSegment = name }
            placements = found
            counters.append(c)
        }
        // A result's totals are the sums of its segments' (merge adds the segments' own).
        let totalUsers = counters.reduce(0) { $0 + $1.users }, totalDays = counters.reduce(0) { $0 + $1.userDays }
        guard item["users"].intValue == totalUsers, item["user_days"].intValue == totalDays,
            let totals = item["placements"].objectValue, totals.map(\.0) == placements.map(\.id)
        else {
            let wrong = item["users"].intValue != totalUsers ? item["users"] : item["user_days"].intValue != totalDays ? item["user_days"] : item["placements"]
            throw ReadError("not an impact report: a result's users, user-days or placements are not those of its segments", at: wrong.exists ? wrong : item)
        }
        // The totals are the segments' sums, which merge computes again; they hold what a run writes all the same.
        for (id, figures) in totals { try onlyKeys(figures, figureKeys, in: "the totals of \(id)") }
        // Each block's counts are within what the run's user-days can give; over the segments too (the totals merge
        // computes from them).
        let result = ImpactPolicyResult(policy: "", placements: placements, segments: counters)
        if let passing = result.countsPassing(most) {
            throw ReadError(
                "not an impact report: the counts of \(ControlCharacters.cut(placements[passing.placement].id)) add up over its segments to more than the run's user-days can give",
                at: item["segments"])
        }
        // The results of a --compare run played the same users.
        if let first = earlier.first, first.segments.map(\.users) != counters.map(\.users) {
            throw ReadError("not an impact report: its results played different users", at: item["segments"])
        }
        return ImpactPolicyResult(policy: try readPath(item["policy"], "policy"), placements: placements, segments: counters)
    }

    /// One segment of a result: its users and user-days, and each placement's figures.
    /// - Parameters:
    ///   - usersLeft: the users of the run that the result's segments before this one have not taken.
    ///   - most: the most any count but a histogram's may hold.
    private static func readSegment(
        _ name: String, _ segment: PartValue, usersLeft: Int, days: Int, most: Int, size: inout PartSize
    ) throws -> (placements: [ImpactPlacement], counters: SegmentCounters) {
        try onlyKeys(segment, ["users", "user_days", "placements"], in: "segment \(ControlCharacters.cut(name))")
        let figures = try required(segment["placements"].objectValue, "placements", at: segment["placements"])
        var c = SegmentCounters(placements: figures.count)
        c.users = try readCount(segment["users"], "the users of segment \(ControlCharacters.cut(name))", in: 0...usersLeft)
        c.userDays = try readCount(segment["user_days"], "the user-days of segment \(ControlCharacters.cut(name))", in: c.users * days...c.users * days)
        var found: [ImpactPlacement] = []
        for (i, (id, object)) in figures.enumerated() {
            let (placement, placementCounters) = try readFigures(try placementID(id, at: object), in: name, object, userDays: c.userDays, most: most)
            try size.add(placementCounters, at: object)
            found.append(placement)
            c.placements[i] = placementCounters
        }
        return (found, c)
    }

    /// One change between the policies of a --compare run, as a run writes it.
    private static func readChange(_ value: PartValue) throws -> PolicyChange {
        try onlyKeys(value, ["kind", "subject", "setting", "old", "new", "old_location", "new_location"], in: "a change")
        for key in ["old_location", "new_location"] { try onlyKeys(value[key], ["file", "line", "column"], in: "a change's \(key)") }
        guard let kind = PolicyChange.Kind(rawValue: try readString(value["kind"], "a change's kind")) else {
            throw ReadError("not an impact report: a change's kind is not changed, added or removed", at: value["kind"])
        }
        // A run writes every key of a change: a value as a text or null, a location as an object or null. One left out, or
        // a value of another kind (`"old": 7`), was read as null, and the merge took it.
        for key in ["old", "new", "old_location", "new_location"] {
            guard value[key].exists else { throw ReadError("not an impact report: a change's \(key) is missing", at: value) }
        }
        func settingValue(_ key: String, _ what: String) throws -> String? {
            value[key].isNull ? nil : try readSettingText(value[key], what)
        }
        let subject = try readString(value["subject"], "a change's subject"), settingName = try readString(value["setting"], "a change's setting")
        guard PolicyDiff.isWritten(subject: subject, setting: settingName) else {
            throw ReadError(
                "not an impact report: a change names \(ControlCharacters.quoted(subject)) and \(ControlCharacters.quoted(settingName)), where a run writes policy and a policy-wide setting, or a placement, group, attribute or rule, its id and one of its settings",
                at: value["subject"])
        }
        return PolicyChange(
            kind: kind,
            subject: subject,
            setting: settingName,
            old: try settingValue("old", "a change's old value"),
            new: try settingValue("new", "a change's new value"),
            oldLocation: try readLocation(value["old_location"], of: "a change's old value"),
            newLocation: try readLocation(value["new_location"], of: "a change's new value"))
    }
}
