import AdRules
import AdRulesImpact

/// Reading a placement's figures back, each count checked against the user-days it claims.
extension ImpactJSON {
    /// The keys of a placement's figures.
    static let figureKeys: Set<String> = [
        "format", "impressions", "impressions_per_user_day", "histogram", "cap_reached_share", "cap_reached_user_days",
        "deny_reasons", "wasted_loads", "loads", "show_failures", "rewarded",
    ]

    /// The keys of a part's deny reason: a part says its longest message too.
    static let partDenialKeys: Set<String> = ["code", "file", "line", "column", "count", "message", "longest_message"]

    /// - Parameters:
    ///   - segment: the segment whose figures these are, for messages.
    ///   - userDays: the segment's user-days in the part: the histogram counts each once.
    ///   - most: the most any other count may hold (``ImpactReport/maxCountPerUserDay`` per user-day of the whole run).
    static func readFigures(
        _ placementID: String, in segment: String, _ object: PartValue, userDays: Int, most: Int
    ) throws -> (ImpactPlacement, PlacementCounters) {
        // What messages call the figures: the placement of the segment.
        let id = "\(placementID) in segment \(ControlCharacters.cut(segment))"
        var c = PlacementCounters()
        // The figures hold what ``figures(_:placement:userDays:)`` writes and nothing else.
        try onlyKeys(object, figureKeys, in: "the figures of \(id)")
        guard let histogram = object["histogram"].arrayValue, let capDays = object["cap_reached_user_days"].objectValue,
            let denials = object["deny_reasons"].arrayValue
        else {
            let wrong = object["histogram"].arrayValue == nil ? object["histogram"]
                : object["cap_reached_user_days"].objectValue == nil ? object["cap_reached_user_days"] : object["deny_reasons"]
            throw ReadError("not an impact report: the figures of \(id) are incomplete", at: wrong.exists ? wrong : object)
        }
        let format = try readString(object["format"], "the format of \(id)")
        // A run writes a format of the policy's, or "unknown" for a placement the model plays and the policy lacks.
        let lacked = format == ImpactPlacement.unknownFormat
        guard AdFormat(rawValue: format) != nil || lacked else {
            throw ReadError("not an impact report: the format of \(id) is \(ControlCharacters.quoted(format)), which no run writes", at: object["format"])
        }
        // A histogram counts each user-day once; anything else counts at most maxPerUserDay per user-day of the run.
        // At most 100,000 impressions a user-day: more than one a second.
        guard histogram.count <= 100_001 else {
            throw ReadError("not an impact report: the histogram of \(id) is longer than 100,001 entries", at: object["histogram"])
        }
        c.histogram = try histogram.map { try readCount($0, "a histogram entry of \(id)", in: 0...userDays) }
        guard c.histogram.reduce(0, +) == userDays else {
            throw ReadError("not an impact report: the histogram of \(id) does not count each user-day once", at: object["histogram"])
        }
        // A run's histogram ends at the most impressions a user-day had: trailing zeros would change the merged output.
        guard c.histogram.last.map({ $0 > 0 }) ?? true else {
            throw ReadError("not an impact report: the histogram of \(id) ends with zeros, which no run writes", at: histogram[histogram.count - 1])
        }
        var caps: [CapKind] = []
        for (code, days) in capDays {
            guard let reason = ReasonCode(rawValue: code), let kind = CapKind(code: reason) else {
                throw ReadError("not an impact report: unknown cap \(ControlCharacters.cut(code))", at: days, atKey: true)
            }
            caps.append(kind)
            c.capDays[kind.rawValue] = try readCount(days, "cap_reached_user_days of \(id)", in: 0...userDays)
        }
        // Each (code, location) once, and all of them together within what the user-days can give: the totals
        // a report adds up never overflow.
        var seen = Set<String>()
        var denied = 0
        for denial in denials {
            try onlyKeys(denial, partDenialKeys, in: "a deny reason of \(id)")
            guard let code = denial["code"].stringValue.flatMap(ReasonCode.init(rawValue:)) else {
                throw ReadError("not an impact report: unknown reason code in \(id)", at: denial["code"].exists ? denial["code"] : denial)
            }
            let location = try readLocation(denial, of: "the \(code.rawValue) reason of \(id)")
            // Every reason but unknown_placement points at a line of the policy.
            guard (location == nil) == (code == .unknownPlacement) else {
                throw ReadError(
                    "not an impact report: the \(code.rawValue) reason of \(id) \(location == nil ? "names no YAML location" : "names a YAML location")",
                    at: denial)
            }
            // A placement the policy lacks is denied unknown_placement on every ask, and one it has never is.
            guard (code == .unknownPlacement) == lacked else {
                throw ReadError(
                    "not an impact report: \(id) is denied \(code.rawValue), where a run denies a placement \(lacked ? "the policy lacks only unknown_placement" : "of the policy never unknown_placement")",
                    at: denial["code"])
            }
            guard seen.insert("\(code.rawValue) \(location?.description ?? "")").inserted else {
                throw ReadError("not an impact report: a deny reason of \(id) is listed twice", at: denial)
            }
            let n = try readCount(denial["count"], "a deny reason's count in \(id)", in: 1...max(1, most))
            denied += n
            guard denied <= most else {
                throw ReadError("not an impact report: the deny reasons of \(id) add up to more than the run's user-days can give", at: denial["count"])
            }
            // A run writes every reason's message: one left out would win the merge's smallest text as "".
            var row = DenialCount(code: code, location: location, message: try readString(denial["message"], "the message of a deny reason of \(id)"), count: n)
            // A part says the longest message the row was given, which the merge bounds as the run did: at least the
            // kept one's bytes, at most what a report holds.
            row.longestMessage = try readCount(
                denial["longest_message"], "the longest message of a deny reason of \(id)", in: row.longestMessage...ImpactReport.maxDenyText)
            c.denials.append(row)
        }
        // The impressions a run writes are the histogram's: another count cannot come from a run.
        guard try readCount(object["impressions"], "impressions of \(id)", in: 0...most) == c.impressions else {
            throw ReadError("not an impact report: the impressions of \(id) are not those its histogram counts", at: object["impressions"])
        }
        c.wastedLoads = try readCount(object["wasted_loads"], "wasted_loads of \(id)", in: 0...most)
        try onlyKeys(object["loads"], ["started", "completed", "failed"], in: "the loads of \(id)")
        try onlyKeys(object["rewarded"], ["offers", "accepted", "granted"], in: "the rewarded figures of \(id)")
        try onlyKeys(object["impressions_per_user_day"], ["mean", "p50", "p90", "p99", "max"], in: "the impressions of \(id)")
        c.loadsStarted = try readCount(object["loads"]["started"], "loads of \(id)", in: 0...most)
        c.loadsCompleted = try readCount(object["loads"]["completed"], "loads of \(id)", in: 0...most)
        c.loadsFailed = try readCount(object["loads"]["failed"], "loads of \(id)", in: 0...most)
        c.showFailures = try readCount(object["show_failures"], "show_failures of \(id)", in: 0...most)
        c.offers = try readCount(object["rewarded"]["offers"], "rewarded offers of \(id)", in: 0...most)
        c.accepted = try readCount(object["rewarded"]["accepted"], "rewarded acceptances of \(id)", in: 0...most)
        c.granted = try readCount(object["rewarded"]["granted"], "rewards granted of \(id)", in: 0...most)
        // Counts that contradict each other cannot come from a run.
        // Each completed load ends in at most one impression, failed show or wasted load.
        guard c.loadsCompleted + c.loadsFailed <= c.loadsStarted, c.impressions + c.showFailures + c.wastedLoads <= c.loadsCompleted,
            c.accepted <= c.offers, c.granted <= c.accepted
        else { throw ReadError("not an impact report: the loads or rewarded counts of \(id) contradict each other", at: object["loads"]) }
        // A placement the policy lacks has every load, show and offer denied, so a run counts none of them; an app-open
        // placement has every offer denied (trigger_not_supported), so a run counts none of its offers.
        if lacked {
            let counted = [
                ("impressions", c.impressions, object["impressions"]), ("wasted_loads", c.wastedLoads, object["wasted_loads"]),
                ("loads", c.loadsStarted, object["loads"]["started"]), ("show_failures", c.showFailures, object["show_failures"]),
                ("rewarded offers", c.offers, object["rewarded"]["offers"]),
            ]
            if let (what, _, value) = counted.first(where: { $0.1 > 0 }) {
                throw ReadError("not an impact report: \(id), which the policy lacks, has \(what) counted, where a run denies its every ask", at: value)
            }
            if !caps.isEmpty {
                throw ReadError("not an impact report: \(id), which the policy lacks, has caps, where a run lists none", at: object["cap_reached_user_days"])
            }
        }
        if format == AdFormat.appOpen.rawValue, c.offers > 0 {
            throw ReadError("not an impact report: app_open placement \(id) has rewarded offers counted, where a run denies every offer of an app-open ad", at: object["rewarded"]["offers"])
        }
        // A reward is granted only for a show of a rewarded format: any other is denied not_rewarded_format.
        if let known = AdFormat(rawValue: format), !known.isRewarded, c.granted > 0 {
            throw ReadError(
                "not an impact report: \(format) placement \(id) has rewards granted, where a run denies every reward of an ad that is not rewarded (not_rewarded_format)",
                at: object["rewarded"]["granted"])
        }
        return (ImpactPlacement(id: placementID, format: format, caps: caps.sorted { $0.rawValue < $1.rawValue }), c)
    }
}
