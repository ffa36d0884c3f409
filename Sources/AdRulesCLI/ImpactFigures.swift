import AdRules
import AdRulesImpact

/// The figures of one placement under one policy, as the text and html reports show them.
struct PlacementFigures {
    let placement: ImpactPlacement
    let counters: PlacementCounters
    let userDays: Int
    let summary: ImpressionSummary

    init(_ placement: ImpactPlacement, _ counters: PlacementCounters, userDays: Int) {
        self.placement = placement
        self.counters = counters
        self.userDays = userDays
        summary = ImpressionSummary(histogram: counters.histogram)
    }

    /// The user-days on which a cap was reached: 0 under a policy whose placement has no such cap.
    func capDays(_ cap: CapKind) -> Int {
        placement.caps.contains(cap) ? counters.capDays[cap.rawValue] : 0
    }

    /// A row of the share of user-days that reached a cap, one value per policy: "–" under a policy whose placement
    /// has no such cap (0.0% would say it was there and never reached). The change of a compare run counts a cap only
    /// one policy has as reached on no day under the other, as the json's `difference` does.
    static func capRow(_ cap: CapKind, _ columns: [PlacementFigures]) -> (values: [String], change: String?) {
        let values = columns.map { $0.placement.caps.contains(cap) ? ImpactFormat.percent($0.capDays(cap), of: $0.userDays) : "–" }
        guard columns.count == 2 else { return (values, nil) }
        let (old, new) = (columns[0], columns[1])
        return (values, ImpactFormat.points(from: (old.capDays(cap), of: old.userDays), to: (new.capDays(cap), of: new.userDays)))
    }

    /// The deny-reason rows of one or two policies, most frequent (in the last policy) first.
    ///
    /// Rows of two policies are matched by reason code and by the file name of the setting behind it, so that
    /// `rules-old/app_open.yaml:13:16` and `rules/app_open.yaml:14:16` are one row (see ``DenialRow/key(_:under:precise:)``).
    static func denialRows(_ columns: [PlacementFigures]) -> [DenialRow] {
        // A reason is matched across policies by its code and file; the line and column are added only where
        // one policy has the code at several places of one file (two custom rules, two windows), so that a
        // setting that moved to another line stays one row.
        // Each policy's files are named from the folder they all sit in: `rules/x/g.yaml` is `x/g.yaml`, in a folder
        // of rules or in the compiled policy made from it.
        let roots = columns.map { DenialRow.commonFolder($0.counters.denials.compactMap(\.location?.file)) }
        var ambiguous = Set<String>()
        for (p, figures) in columns.enumerated() {
            var seen: [String: ImpactLocation?] = [:]
            for denial in figures.counters.denials {
                let short = DenialRow.key(denial, under: roots[p], precise: false)
                if let other = seen[short], other != denial.location { ambiguous.insert(short) }
                seen[short] = denial.location
            }
        }
        var rows: [DenialRow] = []
        // Rows by key, found once: a report of many reasons renders in linear time, not quadratic.
        var rowOfKey: [String: Int] = [:]
        for (p, figures) in columns.enumerated() {
            for denial in figures.counters.sortedDenials {
                let short = DenialRow.key(denial, under: roots[p], precise: false)
                let key = ambiguous.contains(short) ? DenialRow.key(denial, under: roots[p], precise: true) : short
                if let i = rowOfKey[key] {
                    rows[i].counts[p] += denial.count
                    rows[i].location = denial.location ?? rows[i].location
                    rows[i].message = denial.message
                } else {
                    var counts = Array(repeating: 0, count: columns.count)
                    counts[p] = denial.count
                    rowOfKey[key] = rows.count
                    rows.append(DenialRow(key: key, code: denial.code, location: denial.location, message: denial.message, counts: counts))
                }
            }
        }
        if columns.count == 2 { rows = DenialRow.pairingMoved(rows) }
        return rows.sorted { a, b in
            for p in a.counts.indices.reversed() where a.counts[p] != b.counts[p] { return a.counts[p] > b.counts[p] }
            if a.code.listOrder != b.code.listOrder { return a.code.listOrder < b.code.listOrder }
            // Ties in one file by line and column as numbers (line 5 before line 10), as the json lists its reasons.
            if let x = a.location, let y = b.location, x.file == y.file, x != y { return x < y }
            return a.key < b.key
        }
    }

    var isRewarded: Bool { placement.format == AdFormat.rewarded.rawValue || placement.format == AdFormat.rewardedInterstitial.rawValue }

    /// Whether the report shows the rewarded rows for this column: a rewarded format's, and any placement's that offers
    /// were made for (a model may offer a reward for an interstitial: `model/placement-format` warns, and the offers
    /// shown and accepted are figures the report must not leave out).
    var hasRewardedFigures: Bool { isRewarded || counters.offers > 0 || counters.accepted > 0 || counters.granted > 0 }

    /// The placement a row of compared columns describes: the one of a policy that has it, not the stand-in of a
    /// policy that lacks a placement the model uses (its format is unknown).
    static func described(_ columns: [PlacementFigures]) -> ImpactPlacement {
        columns.first { AdFormat(rawValue: $0.placement.format) != nil }?.placement ?? columns[0].placement
    }

    /// The format a placement's heading shows: both, old first, when the compared policies give it two
    /// (`interstitial → rewarded`).
    static func formatLabel(_ columns: [PlacementFigures]) -> String {
        let formats = columns.map(\.placement.format).filter { AdFormat(rawValue: $0) != nil }
        guard let first = formats.first, let last = formats.last, first != last else { return described(columns).format }
        return "\(first) → \(last)"
    }

    /// The figures of every placement of a policy result, in total or for one segment.
    static func all(_ result: ImpactPolicyResult, segment: Int? = nil) -> [PlacementFigures] {
        let counters = segment.map { result.segments[$0] } ?? result.total
        return zip(result.placements, counters.placements).map { PlacementFigures($0, $1, userDays: counters.userDays) }
    }

    /// The placements of compared policies matched by id: the first policy's in its order, then those only
    /// a later policy has. Each comes with the policies that have it (their index) and their figures; a
    /// placement added or removed by the change is in one policy only.
    static func byID(_ perPolicy: [[PlacementFigures]]) -> [[(policy: Int, figures: PlacementFigures)]] {
        // Found by id in a table, not by a scan of each policy's placements for each id: two policies of 9,999
        // placements took 10 s to print, over 3 s for json.
        var ids: [String] = []
        var present: [String: [(policy: Int, figures: PlacementFigures)]] = [:]
        for (p, figures) in perPolicy.enumerated() {
            for f in figures {
                if present[f.placement.id] == nil { ids.append(f.placement.id) }
                // A policy lists an id once; the first is kept, as a scan found it.
                if present[f.placement.id]?.contains(where: { $0.policy == p }) != true { present[f.placement.id, default: []].append((p, f)) }
            }
        }
        return ids.map { present[$0] ?? [] }
    }
}

/// Number formats shared by the text and html reports (fixed, locale-free, so reports are byte-stable).
enum ImpactFormat {
    /// A policy's name as a column heads it, repeated for every placement: at most about 120 bytes, its start and end
    /// kept (where two paths differ) in whole characters, the whole name given once at the top. 10,000 placements
    /// under a 3.7 KB path repeated it into 110 MB of text. Bytes, not characters: a character may be a letter with a
    /// hundred combining marks.
    static func columnName(_ name: String) -> String {
        guard name.utf8.count > 120 else { return name }
        var head = "", tail = ""
        for character in name {
            guard head.utf8.count + character.utf8.count <= 59 else { break }
            head.append(character)
        }
        for character in name.reversed() {
            guard tail.utf8.count + character.utf8.count <= 60 else { break }
            tail.insert(character, at: tail.startIndex)
        }
        return head + "…" + tail
    }

    /// The line after the listed policy changes when more are left out (``PolicyDiff/listed(_:)``).
    static func moreChanges(_ count: Int) -> String {
        (count == 1 ? "1 more change is" : "\(count) more changes are") + " not listed: the policies differ in more settings than a report lists"
    }

    /// What a segment no user drew shows in place of its figures.
    static let noUsers = "no user drew this segment, so it has no figures: raise --users"

    /// `1 user`, `1,200 users`.
    static func users(_ n: Int) -> String { "\(count(n)) user\(n == 1 ? "" : "s")" }

    /// `1234567` as `1,234,567`.
    static func count(_ n: Int) -> String { Article.grouped(n) }

    /// A value with a fixed number of decimals.
    static func fixed(_ value: Double, _ places: Int) -> String {
        let scale = scale(places)
        let scaled = abs(units(value, scale))
        let whole = scaled / Int(scale)
        let fraction = scaled % Int(scale)
        var text = count(whole)
        if places > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: places - digits.count) + digits
        }
        return (value < 0 && scaled != 0 ? "-" : "") + text
    }

    /// `count` of `total` as a percentage with one decimal, rounded once from the counts, half up: 1,429 of 20,000
    /// user-days (exactly 7.145%) is 7.1%, where the json's share rounded to 4 decimals (0.0715) would show 7.2%.
    static func percent(_ count: Int, of total: Int) -> String {
        fixed(Double(tenthsOfPercent(count, of: total)) / 10, 1) + "%"
    }

    /// `count` of `total` in tenths of a percent, rounded half up: what ``percent(_:of:)`` shows.
    private static func tenthsOfPercent(_ count: Int, of total: Int) -> Int {
        total > 0 ? ImpactReport.roundedUnits(count, over: total, scale: 1000) : 0
    }

    /// A signed difference: `+3`, `-0.40`, `0`.
    static func signed(_ value: Double, _ places: Int) -> String {
        let text = fixed(value, places)
        return value > 0 && text.contains(where: { $0 != "0" && $0 != "." && $0 != "," }) ? "+" + text : text
    }

    /// The change from `old` to `new` as the two are shown with `places` decimals: the difference of the figures beside
    /// it (3.736 and 3.734 shown as 3.74 and 3.73 change by -0.01, where the difference of the values, -0.002, would
    /// read 0.00).
    static func change(from old: Double, to new: Double, _ places: Int) -> String {
        let scale = scale(places)
        return signed(Double(units(new, scale) - units(old, scale)) / scale, places)
    }

    /// `value` in units of the last decimal shown (`scale` of them to 1), rounded as ``fixed(_:_:)`` shows it.
    private static func units(_ value: Double, _ scale: Double) -> Int {
        let magnitude = Int((abs(value) * scale).rounded())
        return value < 0 ? -magnitude : magnitude
    }

    /// The change from one share to another in percentage points, as the two percentages are shown
    /// (``percent(_:of:)``): the difference of the figures beside it.
    static func points(from old: (Int, of: Int), to new: (Int, of: Int)) -> String {
        let tenths = tenthsOfPercent(new.0, of: new.of) - tenthsOfPercent(old.0, of: old.of)
        return signed(Double(tenths) / 10, 1) + " pt"
    }

    /// 10 to the power `places`.
    private static func scale(_ places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return scale
    }

    /// `10,000 users × 7 days from 2026-12-07, seed 1`.
    static func population(_ report: ImpactReport) -> String {
        "\(ImpactFormat.users(report.users)) × \(report.days) day\(report.days == 1 ? "" : "s") from \(report.start), seed \(report.seed)"
    }

    /// A change of the semantic diff as one line of text.
    static func change(_ change: PolicyChange) -> (what: String, values: String, locations: String) {
        let what = change.setting.isEmpty ? change.subject : "\(change.subject): \(change.setting)"
        let values: String
        switch change.kind {
        case .changed: values = "\(change.old ?? "") → \(change.new ?? "")"
        case .added: values = "added" + (change.new.map { $0.isEmpty ? "" : " (\($0))" } ?? "")
        case .removed: values = "removed" + (change.old.map { $0.isEmpty ? "" : " (was \($0))" } ?? "")
        }
        let locations = [change.oldLocation?.description, change.newLocation?.description].map { $0 ?? "—" }.joined(separator: " → ")
        return (what, values, locations)
    }
}

/// One deny reason at one setting, with its count under each policy.
struct DenialRow {
    var key: String
    var code: ReasonCode
    /// The location in the last policy that has the row.
    var location: ImpactLocation?
    var message: String
    var counts: [Int]

    /// The code and file name of a denial; with `precise`, the file's path below `root` (the folder all of its
    /// policy's files with reasons sit in) and the line and column. The name alone matches one file across compared
    /// policies (`rules-old/x.yaml`, `rules/x.yaml`); where one policy has the code at two places of that name, the
    /// path and the position tell them apart (two `g.yaml` in two folders, in a folder or in its compiled policy).
    ///
    /// A reason that names what it is about (a custom rule, a group, a window: ``subject(of:)``) is matched by that as
    /// well, not by its line: two rules swapped in their file stay their own rows (matched by line, each rule's count
    /// was set beside the other's).
    static func key(_ denial: DenialCount, under root: String, precise: Bool) -> String {
        guard let location = denial.location else { return denial.code.rawValue }
        let subject = Self.subject(of: denial).map { " (\($0))" } ?? ""
        guard precise else { return "\(denial.code.rawValue) \(location.file.split(separator: "/").last.map(String.init) ?? location.file)\(subject)" }
        let file = location.file.hasPrefix(root) ? String(location.file.dropFirst(root.count)) : location.file
        return "\(denial.code.rawValue) \(file):\(location.line):\(location.column)\(subject)"
    }

    /// What a reason is about, as its message names it, where one placement may have the code for several things: the
    /// rule of `custom_rule` and `rule_error`, the group of a `group_*` reason, and the window of a `caps` window
    /// (`in 1h`); nil for other reasons, and for a message of another shape (a part written by another version).
    static func subject(of denial: DenialCount) -> String? { subject(ofCode: denial.code, message: denial.message) }

    /// ``subject(of:)`` of a reason's code and message.
    static func subject(ofCode code: ReasonCode, message: String) -> String? {
        /// The text after `prefix` up to `end`, when the message has both.
        func between(_ prefix: String, _ end: String, from text: Substring) -> Substring? {
            guard let start = text.range(of: prefix), let stop = text[start.upperBound...].range(of: end) else { return nil }
            return text[start.upperBound..<stop.lowerBound]
        }
        var parts: [Substring] = []
        switch code {
        case .customRule:
            // "MESSAGE (rule ID)", or the default "denied by rule ID" (rule ids hold no space or parenthesis).
            if message.hasSuffix(")"), let open = message.range(of: " (rule ", options: .backwards) {
                parts.append(message[open.upperBound..<message.index(before: message.endIndex)])
            } else if message.hasPrefix("denied by rule ") {
                parts.append(message.dropFirst("denied by rule ".count))
            }
        case .ruleError:
            if message.hasPrefix("rule "), let id = between("rule ", " cannot be evaluated", from: message[...]) { parts.append(id) }
        case .groupMinInterval, .groupSessionCap, .groupHourlyCap, .groupDailyCap, .groupWindowCap:
            if message.hasPrefix("group "), let id = between("group ", ": ", from: message[...]) { parts.append("group " + id) }
        default: break
        }
        if code == .windowCap || code == .groupWindowCap {
            // "3 shows in 1h reached (caps)", "a caps window of 0 shows in 1h, so it never shows (caps)".
            if let window = between(" in ", message.hasSuffix(" reached (caps)") ? " reached" : ",", from: message[...]) { parts.append("in " + window) }
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// Rows of two policies where a setting moved to another file: a row only the old policy has and one only the new
    /// has, with the same code and subject, and the only such pair of theirs, are one row (a placement moved from
    /// `p.yaml` to `other.yaml` kept its `daily_cap` row, `8 → 8`, not `8 → 0` and `0 → 8`).
    static func pairingMoved(_ rows: [DenialRow]) -> [DenialRow] {
        func match(_ row: DenialRow) -> String { row.code.rawValue + "\u{0}" + (subject(ofCode: row.code, message: row.message) ?? "") }
        var onlyOld: [String: [Int]] = [:], onlyNew: [String: [Int]] = [:]
        for (i, row) in rows.enumerated() {
            if row.counts[1] == 0 { onlyOld[match(row), default: []].append(i) }
            if row.counts[0] == 0 { onlyNew[match(row), default: []].append(i) }
        }
        var merged = rows
        var dropped = Set<Int>()
        for (key, old) in onlyOld {
            guard old.count == 1, let new = onlyNew[key], new.count == 1, old[0] != new[0] else { continue }
            merged[new[0]].counts[0] = rows[old[0]].counts[0]
            dropped.insert(old[0])
        }
        return merged.indices.filter { !dropped.contains($0) }.map { merged[$0] }
    }

    /// The longest folder prefix (ending in `/`, or empty) that every path shares.
    static func commonFolder(_ paths: [String]) -> String {
        guard var prefix = paths.first.map({ String($0[..<($0.lastIndex(of: "/").map { $0 } ?? $0.startIndex)]) }) else { return "" }
        for path in paths.dropFirst() {
            while !prefix.isEmpty && !(path.hasPrefix(prefix + "/")) {
                prefix = prefix.lastIndex(of: "/").map { String(prefix[..<$0]) } ?? ""
            }
        }
        return prefix.isEmpty ? "" : prefix + "/"
    }

    /// Custom rules say which rule denied in their message; other reasons are named by their code and location.
    var showsMessage: Bool { code == .customRule || code == .ruleError }
}
