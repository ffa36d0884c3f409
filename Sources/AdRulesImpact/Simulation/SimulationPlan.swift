import AdRules
import AdRulesCompiler
import Foundation

/// A placement as the report lists it: the policy's placements in file order, then any placement
/// the model names that the policy lacks (only a compared old policy can lack one).
public struct ImpactPlacement: Sendable, Hashable {
    /// The placement id.
    public var id: String
    /// The format's name, or ``unknownFormat`` for a placement the policy lacks.
    public var format: String
    /// The format of a placement the model plays and the policy lacks, whose every ask is denied `unknown_placement`.
    public static let unknownFormat = "unknown"
    /// The caps that can deny this placement (its own and its groups'), in ``CapKind`` order.
    public var caps: [CapKind]

    /// Creates a placement entry.
    public init(id: String, format: String, caps: [CapKind]) {
        self.id = id
        self.format = format
        self.caps = caps
    }
}

/// What the users of one segment share, resolved once for a policy.
struct SegmentPlan: Sendable {
    let segment: Segment
    let zone: TimeZone
    /// Local midnight of each simulated day, and of the day after the last (ms since 1970).
    let midnights: [Int64]
    /// Per simulated day, the clock change within it (a DST day), if any.
    let shifts: [ClockShift?]
    /// Per simulated day, the clock time its first instant reads, in ms: 0, or 1 h where the clocks jump from
    /// 00:00 to 01:00 (Havana, Santiago, Cairo, Beirut).
    let startClocks: [Int64]
    let attributes: [(name: String, source: AttributeSource)]
    /// Whether its days draw few distinct contexts (premium or not, times the values each attribute takes, at most
    /// ``UserPlayer/maxPreparedContexts``): a player then prepares each once (``UserPlayer/preparedContext(_:)``).
    let contextsRepeat: Bool
    let actions: [(slot: Int, every: DurationDistribution)]
    let rewarded: [(slot: Int, every: DurationDistribution, accept: Double)]
    /// Placements other than app-open ones that the app loads at a cold start.
    let preload: [Int]
    /// The first user of the segment and one past its last.
    let users: Range<Int>

    /// Whether attributes drawn from these sources make few distinct contexts (``contextsRepeat``).
    static func contextsRepeat(_ attributes: [(name: String, source: AttributeSource)]) -> Bool {
        var count = 2
        for attribute in attributes {
            guard let values = attribute.source.distinctValues else { return false }
            count *= values
            if count > UserPlayer.maxPreparedContexts { return false }
        }
        return true
    }

    /// The instant a local clock time (ms after midnight: `first_open: 8h30m` is 08:30) falls on, on a simulated
    /// day. On a DST day the clock time is not the time elapsed since midnight; a time the clock skips (02:30 when
    /// it jumps from 02:00 to 03:00) is the instant of the jump, and a time it shows twice is its first occurrence.
    func instant(ofClockTime time: Int64, day: Int) -> Int64 {
        ClockShift.instant(ofClockTime: time, dayStart: midnights[day], startClock: startClocks[day], shift: shifts[day])
    }
}

/// A change of a zone's offset from UTC: when, and by how much (ms; +1h when clocks go forward).
struct ClockShift: Sendable {
    let at: Int64
    let delta: Int64

    /// The instant a clock time falls on, in a day that starts at `dayStart` reading `startClock` and has `shift`.
    static func instant(ofClockTime time: Int64, dayStart: Int64, startClock: Int64, shift: ClockShift?) -> Int64 {
        // A clock time before the one the day starts at (a day that begins at 01:00) is the day's first instant.
        let elapsed = max(0, time - startClock)
        guard let shift, dayStart + elapsed >= shift.at else { return dayStart + elapsed }
        return max(dayStart + elapsed - shift.delta, shift.at)
    }

    /// The local clock time at an instant, in ms after the clock's midnight.
    static func clockTime(at instant: Int64, in zone: TimeZone) -> Int64 {
        let local = instant + Int64(zone.secondsFromGMT(for: Milliseconds.date(instant))) * 1000
        return ((local % 86_400_000) + 86_400_000) % 86_400_000
    }

    /// The first change after `start` and before `end`, nil when there is none.
    static func within(_ start: Int64, _ end: Int64, in zone: TimeZone) -> ClockShift? {
        guard let next = zone.nextDaylightSavingTimeTransition(after: Milliseconds.date(start)) else { return nil }
        let at = Milliseconds.from(next)
        guard at < end else { return nil }
        let before = zone.secondsFromGMT(for: Milliseconds.date(at - 1)), after = zone.secondsFromGMT(for: next)
        return after == before ? nil : ClockShift(at: at, delta: Int64(after - before) * 1000)
    }
}

/// Everything the simulated users of one policy share: placements by slot, segments, days.
struct SimulationPlan: Sendable {
    private(set) var policy: Policy

    /// The plan with a policy of its own, for one thread of play (see ``Policy/replica()``).
    func replica() -> SimulationPlan {
        var plan = self
        plan.policy = policy.replica()
        return plan
    }
    let placements: [ImpactPlacement]
    /// How many of the slots are the policy's placements: they come first, each at its index in the policy (the engine
    /// takes an event or ask of one by that index, with no id to look up), and the placements the model plays and the
    /// policy lacks follow.
    let policySlots: Int
    /// Slots of the app-open placements, played on cold starts and resumes in the order of their ids: two policies that
    /// differ only in the order their placements are written in play alike (in file order, whichever app-open placement
    /// came first showed first, and the other was denied fullscreen_active, while the change list said the policies
    /// meant the same).
    let appOpen: [Int]
    /// Per slot: whether the placement's ads take the whole screen, so that the user does nothing else while one is
    /// on screen (a banner or a native ad leaves the app usable).
    let fullscreen: [Bool]
    /// The slots of each policy group's members, by group index: a group's cap reached is reached for each of them.
    let groupSlots: [[Int]]
    let segments: [SegmentPlan]
    let network: NetworkModel
    let users: Int
    let days: Int
    let seed: UInt64

    init(model: UsageModel, policy: Policy, users: Int, days: Int, seed: UInt64) {
        self.policy = policy
        self.network = model.network
        self.users = users
        self.days = days
        self.seed = seed
        // Linear in the policy's size: slots by id, and each placement's groups from the policy's own table.
        var placements = policy.placements.enumerated().map { index, placement in
            ImpactPlacement(id: placement.id, format: placement.format.value.rawValue, caps: SimulationPlan.caps(of: index, in: policy))
        }
        var slots = Dictionary(placements.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        for segment in model.segments {
            for id in segment.actions.map(\.placement) + segment.rewarded.map(\.placement) where slots[id] == nil {
                slots[id] = placements.count
                placements.append(ImpactPlacement(id: id, format: ImpactPlacement.unknownFormat, caps: []))
            }
        }
        self.placements = placements
        policySlots = policy.placements.count
        groupSlots = policy.groups.map { group in group.placements.compactMap { slots[$0.value] } }
        func slot(_ id: String) -> Int { slots[id] ?? 0 }
        appOpen = placements.indices.filter { placements[$0].format == AdFormat.appOpen.rawValue }
            .sorted { placements[$0].id.utf8.lexicographicallyPrecedes(placements[$1].id.utf8) }
        // A placement the policy lacks never shows (unknown_placement): it counts as fullscreen, which is never read.
        fullscreen = placements.map { AdFormat(rawValue: $0.format)?.isFullscreen ?? true }
        let counts = SimulationPlan.allocate(users, shares: model.segments.map(\.share))
        var first = 0
        var plans: [SegmentPlan] = []
        let declared = Dictionary(policy.attributes.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
        for (s, segment) in model.segments.enumerated() {
            let zone = KnownTimeZones.zone(named: segment.timeZone) ?? TimeZone(identifier: "UTC") ?? .current
            let actions = segment.actions.map { (slot: slot($0.placement), every: $0.every) }
            let rewarded = segment.rewarded.map { (slot: slot($0.placement), every: $0.every, accept: $0.accept) }
            var preload: [Int] = []
            for index in actions.map(\.slot) + rewarded.map(\.slot) where !preload.contains(index) && !appOpen.contains(index) {
                preload.append(index)
            }
            let attributes = segment.attributes.compactMap { attribute -> (name: String, source: AttributeSource)? in
                guard let type = declared[attribute.name], let source = AttributeSource(attribute.value, type: type) else { return nil }
                return (attribute.name, source)
            }
            let midnights = SimulationPlan.midnights(from: model.start, days: days, in: zone)
            plans.append(SegmentPlan(
                segment: segment, zone: zone, midnights: midnights,
                shifts: (0..<days).map { ClockShift.within(midnights[$0], midnights[$0 + 1], in: zone) },
                startClocks: (0..<days).map { ClockShift.clockTime(at: midnights[$0], in: zone) },
                attributes: attributes, contextsRepeat: SegmentPlan.contextsRepeat(attributes), actions: actions, rewarded: rewarded,
                preload: preload, users: first..<(first + counts[s])))
            first += counts[s]
        }
        segments = plans
    }

    /// The segment of a user (users are allotted to segments in model order).
    func segmentIndex(ofUser user: Int) -> Int {
        segments.firstIndex { $0.users.contains(user) } ?? max(0, segments.count - 1)
    }

    /// Splits a population by shares with the largest-remainder method: exact, and the same on every machine.
    static func allocate(_ users: Int, shares: [Double]) -> [Int] {
        guard !shares.isEmpty else { return [] }
        let total = shares.reduce(0, +)
        let exact = shares.map { total > 0 ? $0 / total * Double(users) : 0 }
        var counts = exact.map { Int($0.rounded(.down)) }
        var left = users - counts.reduce(0, +)
        let order = exact.indices.sorted { a, b in
            let ra = exact[a] - Double(counts[a]), rb = exact[b] - Double(counts[b])
            return ra != rb ? ra > rb : a < b
        }
        var i = 0
        while left > 0 {
            counts[order[i % order.count]] += 1
            left -= 1
            i += 1
        }
        return counts
    }

    /// Local midnights of consecutive days from a calendar date, in a zone (DST days are 23 or 25 hours): where each
    /// day starts as daily caps count days, so that a user-day is one day of the caps.
    static func midnights(from start: CalendarDate, days: Int, in zone: TimeZone) -> [Int64] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        // Each day's first instant is found from its own noon: a day whose midnight the clocks skip starts at
        // 01:00, and the days after it start at midnight again (counting whole days from that 01:00 would not).
        // The day is the caps' (``TimeZone/capDay(containing:)``): where a zone fell back across midnight (Newfoundland
        // at 00:01 until 2011), the calendar starts the date at its first midnight, and the minute after it belongs to
        // the day before, whose daily cap it counts for.
        let firstNoon = calendar.date(from: DateComponents(year: start.year, month: start.month, day: start.day, hour: 12))
            ?? Date(timeIntervalSince1970: 43_200)
        var result: [Int64] = []
        result.reserveCapacity(days + 1)
        for day in 0...days {
            let noon = calendar.date(byAdding: .day, value: day, to: firstNoon) ?? firstNoon.addingTimeInterval(Double(day) * 86_400)
            result.append(zone.capDay(containing: Milliseconds.from(noon)).start)
        }
        return result
    }

    /// The caps that can deny a placement (by its index in the policy): its own, then its groups'.
    static func caps(of index: Int, in policy: Policy) -> [CapKind] {
        let placement = policy.placements[index]
        var caps = Set<CapKind>()
        if placement.sessionCap != nil { caps.insert(.sessionCap) }
        if placement.hourlyCap != nil { caps.insert(.hourlyCap) }
        if placement.dailyCap != nil { caps.insert(.dailyCap) }
        if !placement.caps.isEmpty { caps.insert(.windowCap) }
        for g in policy.groupsOfPlacement[index] {
            let group = policy.groups[g]
            if group.sessionCap != nil { caps.insert(.groupSessionCap) }
            if group.hourlyCap != nil { caps.insert(.groupHourlyCap) }
            if group.dailyCap != nil { caps.insert(.groupDailyCap) }
            if !group.caps.isEmpty { caps.insert(.groupWindowCap) }
        }
        return CapKind.allCases.filter(caps.contains)
    }
}

extension SimulationPlan {
    /// The index in the policy of the placement in `slot`, as the engine's events take it; nil for a placement the policy
    /// lacks (its events are ignored, as those of an unknown id are).
    func policyIndex(_ slot: Int) -> Int? { slot < policySlots ? slot : nil }
}
