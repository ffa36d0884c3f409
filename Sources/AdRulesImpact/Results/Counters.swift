import AdRules

/// A place in a rule file, as reports print it.
public struct ImpactLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file, as its path was given.
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public static func < (lhs: ImpactLocation, rhs: ImpactLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }

    public var description: String { "\(file):\(line):\(column)" }

    /// The bytes of the file's name as a report's json writes it, which the report's text bound counts
    /// (``ImpactReport/maxDenyText``): a control character as `\uXXXX`, six bytes (a line break or a tab two), a quote
    /// or a backslash two. (Counted by its UTF-8 bytes, a 4,000-byte path of 0x01 let a run within every bound write
    /// 170 MB of json, too large for any `--shard` part.)
    public var fileBytesInJSON: Int {
        // Printable ASCII with no quote or backslash, the usual path, is written as it is.
        if file.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) { return file.utf8.count }
        return file.unicodeScalars.reduce(0) { bytes, scalar in
            switch scalar {
            case "\"", "\\", "\n", "\r", "\t": bytes + 2
            case _ where ControlCharacters.isControl(scalar): bytes + 6
            default: bytes + UTF8.width(scalar)
            }
        }
    }
}

/// The caps whose reaching is counted per user-day, in report order.
public enum CapKind: Int, Sendable, CaseIterable {
    case sessionCap, hourlyCap, dailyCap, windowCap
    case groupSessionCap, groupHourlyCap, groupDailyCap, groupWindowCap

    /// Whether this is a group's cap, shared by the group's members.
    public var isGroup: Bool {
        switch self {
        case .groupSessionCap, .groupHourlyCap, .groupDailyCap, .groupWindowCap: return true
        case .sessionCap, .hourlyCap, .dailyCap, .windowCap: return false
        }
    }

    /// The reason code a decision gives when the cap denies.
    public var code: ReasonCode {
        switch self {
        case .sessionCap: return .sessionCap
        case .hourlyCap: return .hourlyCap
        case .dailyCap: return .dailyCap
        case .windowCap: return .windowCap
        case .groupSessionCap: return .groupSessionCap
        case .groupHourlyCap: return .groupHourlyCap
        case .groupDailyCap: return .groupDailyCap
        case .groupWindowCap: return .groupWindowCap
        }
    }

    /// The cap of a reason code, nil for reasons that are not caps.
    public init?(code: ReasonCode) {
        switch code {
        case .sessionCap: self = .sessionCap
        case .hourlyCap: self = .hourlyCap
        case .dailyCap: self = .dailyCap
        case .windowCap: self = .windowCap
        case .groupSessionCap: self = .groupSessionCap
        case .groupHourlyCap: self = .groupHourlyCap
        case .groupDailyCap: self = .groupDailyCap
        case .groupWindowCap: self = .groupWindowCap
        default: return nil
        }
    }

    /// The bit of this cap in a per-day mask.
    var bit: UInt16 { 1 << UInt16(rawValue) }
}

/// How often one reason, written at one place, denied a show or an offer.
public struct DenialCount: Sendable, Hashable {
    /// The reason code.
    public var code: ReasonCode
    /// The setting behind the reason; nil for reasons no setting causes (an unknown placement).
    public var location: ImpactLocation?
    /// The reason's message (the same for every denial of one setting).
    public var message: String
    /// How many asks it denied.
    public var count: Int
    /// The bytes of the longest message counted in this row. The row keeps the smallest text (messages of one setting
    /// differ only where they name what is on screen or which attributes are missing), so its text may shrink as
    /// counts are added up; a run bounds the longest (``boundedTextBytes``), which only grows, so that a part of a run
    /// is always within what the whole run is, and a merge of its parts in any order.
    public var longestMessage: Int

    /// Creates a count.
    public init(code: ReasonCode, location: ImpactLocation?, message: String, count: Int) {
        self.code = code
        self.location = location
        self.message = message
        self.count = count
        longestMessage = message.utf8.count
    }

    /// The bytes of its longest message and of its file name as json writes it (``ImpactLocation/fileBytesInJSON``),
    /// which every row repeats: what a run bounds (``ImpactReport/maxDenyText``).
    public var boundedTextBytes: Int { longestMessage + (location?.fileBytesInJSON ?? 0) }

    /// Most frequent first; ties in reason-code order, then by location.
    static func displayOrder(_ a: DenialCount, _ b: DenialCount) -> Bool {
        if a.count != b.count { return a.count > b.count }
        if a.code.listOrder != b.code.listOrder { return a.code.listOrder < b.code.listOrder }
        switch (a.location, b.location) {
        case let (x?, y?) where x != y: return x < y
        case (nil, _?): return true
        case (_?, nil): return false
        default: return a.message < b.message
        }
    }
}

/// Integer counters of one placement: they add exactly, so threads and shards merge into the same figures.
public struct PlacementCounters: Sendable, Hashable {
    /// `histogram[k]`: the user-days with exactly k impressions.
    public var histogram: [Int] = []
    /// The user-days on which each cap denied at least one show or offer, by ``CapKind``.
    public var capDays: [Int] = Array(repeating: 0, count: CapKind.allCases.count)
    /// Denials of show and offer asks by reason and location.
    public var denials: [DenialCount] = []
    /// Ads loaded and then expired or never shown.
    public var wastedLoads = 0
    /// Loads started, completed and failed.
    public var loadsStarted = 0, loadsCompleted = 0, loadsFailed = 0
    /// Shows that ended in `show_failed`.
    public var showFailures = 0
    /// Rewarded offers the engine allowed (the button was shown), accepted by the user, and rewards granted.
    public var offers = 0, accepted = 0, granted = 0

    /// Empty counters.
    public init() {}

    /// The user-days counted.
    public var userDays: Int { histogram.reduce(0, +) }

    /// Impressions over every user-day.
    public var impressions: Int { histogram.enumerated().reduce(0) { $0 + $1.offset * $1.element } }

    /// The counts a report bounds per user-day of the run (``ImpactReport/maxCountPerUserDay``): the denials over
    /// every row, the loads, failed shows, wasted loads and rewarded figures.
    var boundedCounts: [Int] {
        [denials.reduce(0) { $0 + $1.count }, wastedLoads, loadsStarted, loadsCompleted, loadsFailed, showFailures, offers, accepted, granted]
    }

    /// Counts one user-day with this many impressions.
    /// - Returns: the entries the histogram grew by.
    @inline(__always)
    mutating func countDay(impressions: Int) -> Int {
        let grown = max(0, impressions + 1 - histogram.count)
        if grown > 0 { histogram += Array(repeating: 0, count: grown) }
        histogram[impressions] += 1
        return grown
    }

    /// Appends a reason's first denial, one the counters do not list yet (the player finds rows by key).
    /// - Returns: its index in ``denials``, which ``countDenial(entry:messageIsFixed:message:)`` takes.
    mutating func appendDenial(_ code: ReasonCode, at location: ImpactLocation?, message: String) -> Int {
        denials.append(DenialCount(code: code, location: location, message: message, count: 1))
        return denials.count - 1
    }

    /// Counts one more denial of an entry of ``denials``.
    /// - Returns: what its longest message grew by (``DenialCount/longestMessage``).
    @discardableResult
    mutating func countDenial(entry i: Int, messageIsFixed: Bool, message: @autoclosure () -> String) -> Int {
        denials[i].count += 1
        if messageIsFixed { return 0 }
        // Messages of one setting agree; where they differ the smaller text is kept, so no order of play matters.
        let text = message()
        if text != denials[i].message, text < denials[i].message { denials[i].message = text }
        let grown = max(0, text.utf8.count - denials[i].longestMessage)
        denials[i].longestMessage += grown
        return grown
    }

    /// Adds another set of counters to these.
    /// - Returns: what the histogram and the deny-reason rows grew by.
    @discardableResult
    public mutating func add(_ other: PlacementCounters) -> CounterGrowth {
        var grown = CounterGrowth()
        grown.histogramEntries = max(0, other.histogram.count - histogram.count)
        if grown.histogramEntries > 0 { histogram += Array(repeating: 0, count: grown.histogramEntries) }
        for (k, n) in other.histogram.enumerated() { histogram[k] += n }
        for k in capDays.indices where k < other.capDays.count { capDays[k] += other.capDays[k] }
        // Nothing to add (most blocks of most parts), nothing to index or sort: merging many parts stays linear.
        if !other.denials.isEmpty { addDenials(other.denials, growing: &grown) }
        wastedLoads += other.wastedLoads
        loadsStarted += other.loadsStarted
        loadsCompleted += other.loadsCompleted
        loadsFailed += other.loadsFailed
        showFailures += other.showFailures
        offers += other.offers
        accepted += other.accepted
        granted += other.granted
        return grown
    }

    /// Adds deny-reason rows: counts of rows this block has, new rows appended, then the canonical order.
    private mutating func addDenials(_ others: [DenialCount], growing grown: inout CounterGrowth) {
        // Entries by (code, location), found once: adding many reasons is linear, not quadratic.
        struct Key: Hashable {
            let code: ReasonCode
            let location: ImpactLocation?
        }
        var index = Dictionary(denials.indices.map { (Key(code: denials[$0].code, location: denials[$0].location), $0) }, uniquingKeysWith: { first, _ in first })
        var appended = false
        for denial in others {
            if let i = index[Key(code: denial.code, location: denial.location)] {
                denials[i].count += denial.count
                // Messages of one setting agree; the smaller text wins so that merge order never matters.
                if denial.message < denials[i].message { denials[i].message = denial.message }
                // What the bound counts, the longest, only grows.
                grown.denyText += max(0, denial.longestMessage - denials[i].longestMessage)
                denials[i].longestMessage = max(denials[i].longestMessage, denial.longestMessage)
            } else {
                index[Key(code: denial.code, location: denial.location)] = denials.count
                denials.append(denial)
                appended = true
                grown.denyRows += 1
                grown.denyText += denial.boundedTextBytes
            }
        }
        // A canonical order, so that counters that add up to the same figures compare equal (counts alone move nothing).
        guard appended else { return }
        denials.sort { a, b in
            if a.code.listOrder != b.code.listOrder { return a.code.listOrder < b.code.listOrder }
            switch (a.location, b.location) {
            case let (x?, y?): return x < y
            case (nil, _?): return true
            default: return false
            }
        }
    }

    /// The denials, most frequent first.
    public var sortedDenials: [DenialCount] { denials.sorted(by: DenialCount.displayOrder) }
}

/// What adding counters to others grew, in what a report bounds (``ImpactReport/maxHistogramEntries``,
/// ``ImpactReport/maxDenyRows``, ``ImpactReport/maxDenyText``).
public struct CounterGrowth: Sendable, Equatable {
    /// Histogram entries added.
    public var histogramEntries = 0
    /// Deny-reason rows added.
    public var denyRows = 0
    /// Bytes of deny-reason messages and file names added, each row counted with its longest message
    /// (``DenialCount/boundedTextBytes``): it never shrinks.
    public var denyText = 0

    /// Nothing grown.
    public init() {}

    /// Adds what `rhs` grew to `lhs`.
    public static func += (lhs: inout CounterGrowth, rhs: CounterGrowth) {
        lhs.histogramEntries += rhs.histogramEntries
        lhs.denyRows += rhs.denyRows
        lhs.denyText += rhs.denyText
    }

    /// Whether nothing grew.
    public var isEmpty: Bool { histogramEntries == 0 && denyRows == 0 && denyText == 0 }
}

/// The counters of one segment: its users, its user-days and each placement's counters.
public struct SegmentCounters: Sendable, Hashable {
    /// Users played.
    public var users = 0
    /// User-days played.
    public var userDays = 0
    /// By placement slot (see ``ImpactPolicyResult/placements``).
    public var placements: [PlacementCounters]

    /// Empty counters for this many placements.
    public init(placements: Int) { self.placements = Array(repeating: PlacementCounters(), count: placements) }

    /// Adds another segment's counters (the same placements) to these.
    /// - Returns: what their histograms and deny-reason rows grew by.
    @discardableResult
    public mutating func add(_ other: SegmentCounters) -> CounterGrowth {
        users += other.users
        userDays += other.userDays
        var grown = CounterGrowth()
        for i in placements.indices where i < other.placements.count { grown += placements[i].add(other.placements[i]) }
        return grown
    }

    /// The entries of every placement's histogram.
    public var histogramEntries: Int { placements.reduce(0) { $0 + $1.histogram.count } }
}

extension ReasonCode {
    /// Each code's place in the order decisions list reasons (rules.md §7), for the orders reports keep.
    private static let listOrders = Dictionary(uniqueKeysWithValues: ReasonCode.allCases.enumerated().map { ($0.element, $0.offset) })

    /// This code's place in the order decisions list reasons.
    package var listOrder: Int { Self.listOrders[self] ?? 0 }
}
