import Foundation

/// The calendar a policy counts days and hours in.
public enum PolicyTimeZone: Sendable, Hashable {
    /// The device's own time zone, supplied at ask time.
    case device
    /// A fixed IANA time zone.
    case named(TimeZone)
}

/// Everything a policy holds, behind one reference: copying a `Policy` costs one retain.
final class PolicyStorage: Sendable {
    let files: [String]
    let environment: PolicyEnvironment
    let timeZone: PolicyTimeZone
    let sessionTimeout: RuleDuration
    let fullscreenTimeout: Located<RuleDuration>
    let loadTimeout: RuleDuration
    /// Placements, groups and rules in file order; their index is their id, resolved at load time.
    let placements: [Placement]
    let groups: [PlacementGroup]
    let attributes: [AttributeDeclaration]
    let rules: [CustomRule]
    /// The compiled conditions of the rules, as one flat table: what the allow path reads.
    let ruleProgram: RuleProgram

    /// Per placement and per group: the settings as plain numbers and flags, read on the allow path.
    let placementLimits: [PlacementLimits]
    let groupLimits: [Limits]
    /// The `caps` windows of every placement and group, one flat table that `Limits.windows` points into.
    let windows: [Limits.Window]
    let fullscreenTimeoutMs: Int64
    /// The identifier of the policy's fixed zone, nil for `device`.
    let namedZoneID: String?
    let loadTimeoutMs: Int64
    let placementIndex: [String: Int]
    /// How many shows one history keeps at most: 512, or one more than the largest cap when that is more, so that every
    /// cap can be reached, and still is after a `show_failed` takes back the show in progress (a history of exactly the
    /// cap, full, was one short once its newest show was taken back, and a reached cap allowed one more show).
    let showsKept: Int
    /// Per group, the newest shows its history keeps: its largest cap, one more for each member up to
    /// ``Facts/minShowsPerHistory``, and one besides; without a cap (or with caps of 0 only), one more than its members,
    /// at most ``Facts/minShowsPerHistory``.
    let groupShowsKept: [Int]
    /// The placement ids, by index: what a slot hint is checked against.
    let placementIDs: [String]
    let groupsOfPlacement: IndexLists
    /// Per placement, the rules that apply to it, in rule order: those whose `deny` lists it, and the rules for every
    /// placement (`deny: "*"`), kept once as the lists' common items (listed under each placement, 10,000 of them
    /// over 9,000 placements took 2.3 GB).
    let rulesOfPlacement: IndexLists
    /// Per rule, the declared attributes its condition reads that have no default: what a `rule_error` names.
    let attributesWithoutDefault: [[String]]
    /// Per rule, every declared attribute its condition reads, with its type: a `rule_error` names one the app gave a
    /// value of another type, or one no rule can compare.
    let attributesRead: [[(name: String, type: ValueType)]]
    /// Per placement: whether any of its rules reads `now.hour` or `now.weekday`.
    let rulesReadClock: [Bool]
    /// The index of a placement id.
    func index(of id: String) -> Int? { placementIndex[id] }

    /// The index of a typed placement id, trying its slot first.
    func index(of id: PlacementID) -> Int? { index(of: id.rawValue, slot: id.slot) }

    /// The index of a placement id, trying the slot it was resolved to first (``PlacementID/slot``): one
    /// comparison of the id instead of a hash look-up when the hint is right, as it is for the ids generated
    /// from this policy or resolved against it.
    @inline(__always)
    func index(of id: String, slot: Int32) -> Int? {
        let hint = Int(slot)
        if hint >= 0, hint < placementIDs.count, placementIDs[hint] == id { return hint }
        return placementIndex[id]
    }

    /// Placements whose format is fullscreen, for `fullscreen_active`.
    let fullscreenPlacements: [Int]
    init(
        files: [String], environment: PolicyEnvironment, timeZone: PolicyTimeZone, sessionTimeout: RuleDuration,
        fullscreenTimeout: Located<RuleDuration>, loadTimeout: RuleDuration, placements: [Placement],
        groups: [PlacementGroup], attributes: [AttributeDeclaration], rules: [CustomRule]
    ) {
        self.files = files
        self.environment = environment
        self.timeZone = timeZone
        self.sessionTimeout = sessionTimeout
        self.fullscreenTimeout = fullscreenTimeout
        self.loadTimeout = loadTimeout
        self.groups = groups
        self.attributes = attributes
        self.rules = rules
        self.placements = placements
        var windows: [Limits.Window] = []
        func windowRange(_ caps: [Located<WindowCap>]) -> Range<Int> {
            let start = windows.count
            windows += Limits.windows(of: caps)
            return start..<windows.count
        }
        // By index, each placement read in place: a placement is some twenty located values, and a copy retains and
        // releases each one's file.
        var placementLimits: [PlacementLimits] = []
        placementLimits.reserveCapacity(placements.count)
        var largestCap = 0
        for i in placements.indices {
            // The windows first: a placement read around the call that appends them was copied to keep it alive.
            let range = windowRange(placements[i].caps)
            placementLimits.append(PlacementLimits(placements[i], windows: range))
            largestCap = max(largestCap, Limits.capBounds(of: placements[i])?.largest ?? 0)
        }
        self.placementLimits = placementLimits
        groupLimits = groups.map { Limits($0, windows: windowRange($0.caps)) }
        self.windows = windows
        largestCap = groups.reduce(largestCap) { max($0, Limits.capBounds(of: $1)?.largest ?? 0) }
        let showsKept = max(Facts.minShowsPerHistory, min(largestCap, Facts.maxShowsPerHistory) + 1)
        self.showsKept = showsKept
        // A group reads its newest shows up to its largest cap (none without a cap: its min_interval reads the last
        // show), and keeps one more for each member whose show in progress a show_failed may take back (up to 512 at
        // once: held to a placement's count, a group whose cap was the policy's largest lost count when two of its
        // members' shows failed at once) and one besides; not every policy's largest cap, as a placement does. A policy
        // of 10,000 cap-less groups of one placement kept every show 10,000 times over (3.9 GB for 20,000 shows of
        // history); what groups may keep in all is bounded (``Policy/maxGroupRecords``).
        var index: [String: Int] = [:]
        index.reserveCapacity(placements.count)
        for i in placements.indices where index[placements[i].id] == nil { index[placements[i].id] = i }
        placementIndex = index
        placementIDs = placements.map(\.id)
        // Each group's members, each once (a placement listed twice is one member), in placement order.
        let groupMembers = groups.map { group in Set(group.placements.compactMap { index[$0.value] }).sorted() }
        groupShowsKept = zip(groups, groupMembers).map { group, members in
            guard let largest = Limits.capBounds(of: group)?.largest, largest > 0 else { return min(members.count + 1, Facts.minShowsPerHistory) }
            return largest + min(members.count, Facts.minShowsPerHistory) + 1
        }
        ruleProgram = RuleProgram(rules.map(\.condition), attributes: attributes.map(\.name))
        fullscreenTimeoutMs = fullscreenTimeout.value.milliseconds
        if case .named(let zone) = timeZone { namedZoneID = zone.identifier } else { namedZoneID = nil }
        loadTimeoutMs = loadTimeout.milliseconds
        var ofPlacement = Array(repeating: [Int](), count: placements.count)
        for (g, members) in groupMembers.enumerated() {
            for p in members { ofPlacement[p].append(g) }
        }
        groupsOfPlacement = IndexLists(ofPlacement)
        var rulesOf = Array(repeating: [Int](), count: placements.count)
        var forAll: [Int] = []
        for (r, rule) in rules.enumerated() where rule.condition != nil {
            if let deny = rule.deny {
                for p in Set(deny.compactMap { index[$0.value] }).sorted() { rulesOf[p].append(r) }
            } else {
                forAll.append(r)
            }
        }
        rulesOfPlacement = IndexLists(rulesOf, common: forAll)
        attributesWithoutDefault = rules.map { rule in
            let read = rule.condition?.attributesRead ?? []
            return attributes.filter { read.contains($0.name) && $0.defaultValue == nil }.map(\.name)
        }
        attributesRead = rules.map { rule in
            let read = rule.condition?.attributesRead ?? []
            return attributes.filter { read.contains($0.name) }.map { ($0.name, $0.type) }
        }
        let allReadClock = forAll.contains { rules[$0].condition?.readsClock == true }
        rulesReadClock = rulesOf.map { indices in allReadClock || indices.contains { rules[$0].condition?.readsClock == true } }
        fullscreenPlacements = placements.indices.filter { placements[$0].format.value.isFullscreen }
    }
}

/// A loaded, validated policy: every placement resolved, every rule compiled, every look-up precomputed.
public struct Policy: Sendable {
    let storage: PolicyStorage

    /// The rule files the policy was read from, in sorted path order.
    public var files: [String] { storage.files }
    /// Production or test.
    public var environment: PolicyEnvironment { storage.environment }
    /// The calendar for `daily_cap` days and `now.hour`.
    public var timeZone: PolicyTimeZone { storage.timeZone }
    /// A resume after at least this long in background starts a new session.
    public var sessionTimeout: RuleDuration { storage.sessionTimeout }
    /// A fullscreen ad reported showing for longer is treated as closed.
    public var fullscreenTimeout: Located<RuleDuration> { storage.fullscreenTimeout }
    /// A load in progress for longer is treated as failed.
    public var loadTimeout: RuleDuration { storage.loadTimeout }
    /// Placements in file order.
    public var placements: [Placement] { storage.placements }
    /// Groups in file order.
    public var groups: [PlacementGroup] { storage.groups }
    /// Declared attributes.
    public var attributes: [AttributeDeclaration] { storage.attributes }
    /// Custom rules in file order.
    public var rules: [CustomRule] { storage.rules }

    package var groupsOfPlacement: IndexLists { storage.groupsOfPlacement }
    /// The placement ids in file order, held by the policy (no array is made to read them).
    package var placementIDs: [String] { storage.placementIDs }

    package init(
        files: [String], environment: PolicyEnvironment, timeZone: PolicyTimeZone, sessionTimeout: RuleDuration,
        fullscreenTimeout: Located<RuleDuration>, loadTimeout: RuleDuration, placements: [Placement],
        groups: [PlacementGroup], attributes: [AttributeDeclaration], rules: [CustomRule]
    ) {
        storage = PolicyStorage(
            files: files, environment: environment, timeZone: timeZone, sessionTimeout: sessionTimeout,
            fullscreenTimeout: fullscreenTimeout, loadTimeout: loadTimeout, placements: placements, groups: groups,
            attributes: attributes, rules: rules)
    }

    /// A policy with nothing in it: every ask is denied `unknown_placement`.
    public static let empty = Policy(
        files: [], environment: .production, timeZone: .device, sessionTimeout: .minutes(30),
        fullscreenTimeout: Located(.minutes(30), at: SourceLocation(file: "", line: 1, column: 1)), loadTimeout: .seconds(60),
        placements: [], groups: [], attributes: [], rules: [])

    /// The context with its attributes laid out in this policy's slots: custom rules then read each value
    /// from an array instead of hashing its name on every ask, and every condition that reads attributes and
    /// constants only is evaluated once, here. An app whose attributes change rarely (once a
    /// session, once a level) prepares its context when they change; changing `attributes` afterwards drops
    /// the preparation, and a context prepared for another policy is read by name as any other.
    public func prepared(_ context: AskContext) -> AskContext {
        var context = context
        context.prepared = PreparedAttributes(program: storage.ruleProgram, names: storage.attributes.map(\.name), context: context)
        return context
    }

    /// About the bytes a context prepared for this policy holds beyond the context itself: a truth for every node of
    /// the rules and a slot for every attribute (what a tool that keeps many prepared contexts bounds).
    package var preparedContextBytes: Int {
        storage.ruleProgram.nodes.count + storage.attributes.count * (MemoryLayout<AttributeValue?>.stride + 1) + 64
    }

    /// The same policy in tables of its own: a thread that decides millions of times (the impact preview)
    /// plays on a replica, so that reference counts of shared tables are not contended between cores.
    package func replica() -> Policy {
        Policy(
            files: files, environment: environment, timeZone: timeZone, sessionTimeout: sessionTimeout,
            fullscreenTimeout: fullscreenTimeout, loadTimeout: loadTimeout, placements: placements, groups: groups,
            attributes: attributes, rules: rules)
    }

    /// The typed id of a placement, with its slot in this policy: an app that names placements at run time
    /// resolves each once and asks with the result, as apps using the build plugin's generated ids do.
    public func placementID(_ id: String) -> PlacementID? {
        storage.index(of: id).map { PlacementID(rawValue: id, slot: $0) }
    }

    /// The placement with this id.
    public func placement(_ id: String) -> Placement? {
        storage.index(of: id).map { storage.placements[$0] }
    }
}
