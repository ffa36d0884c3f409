import AdRulesYAML
import Foundation

/// The calendar a policy counts days and hours in.
public enum PolicyTimeZone: Sendable, Hashable {
    /// The device's own time zone, supplied at ask time.
    case device
    /// A fixed IANA time zone.
    case named(TimeZone)
}

/// A loaded, validated policy: every placement resolved, every rule compiled, every look-up precomputed.
public struct Policy: Sendable {
    /// The rule files the policy was read from, in sorted path order.
    public let files: [String]
    /// Production or test.
    public let environment: PolicyEnvironment
    /// The calendar for `daily_cap` days and `now.hour`.
    public let timeZone: PolicyTimeZone
    /// A resume after at least this long in background starts a new session.
    public let sessionTimeout: RuleDuration
    /// A fullscreen ad reported showing for longer is treated as closed.
    public let fullscreenTimeout: Located<RuleDuration>
    /// A load in progress for longer is treated as failed.
    public let loadTimeout: RuleDuration
    /// Placements in file order.
    public let placements: [Placement]
    /// Groups in file order.
    public let groups: [PlacementGroup]
    /// Declared attributes.
    public let attributes: [AttributeDeclaration]
    /// Custom rules in file order.
    public let rules: [CustomRule]

    let placementIndex: [String: Int]
    let groupMembers: [[Int]]
    let groupsOfPlacement: [[Int]]
    let rulesOfPlacement: [[Int]]
    let attributeSlots: [String: Int]
    let rulesReadClock: Bool
    /// The longest time any pacing or cap can look back, so a ledger knows what it may forget.
    let horizon: RuleDuration

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
        self.placements = placements
        self.groups = groups
        self.attributes = attributes
        self.rules = rules
        var index: [String: Int] = [:]
        for (i, placement) in placements.enumerated() where index[placement.id] == nil { index[placement.id] = i }
        placementIndex = index
        groupMembers = groups.map { group in group.placements.compactMap { index[$0.value] } }
        var ofPlacement = Array(repeating: [Int](), count: placements.count)
        for (g, members) in groupMembers.enumerated() {
            for p in Set(members).sorted() { ofPlacement[p].append(g) }
        }
        groupsOfPlacement = ofPlacement
        var rulesOf = Array(repeating: [Int](), count: placements.count)
        for (r, rule) in rules.enumerated() where rule.condition != nil {
            if let deny = rule.deny {
                for p in Set(deny.compactMap { index[$0.value] }).sorted() { rulesOf[p].append(r) }
            } else {
                for p in placements.indices { rulesOf[p].append(r) }
            }
        }
        rulesOfPlacement = rulesOf
        var slots: [String: Int] = [:]
        for (i, a) in attributes.enumerated() where slots[a.name] == nil { slots[a.name] = i }
        attributeSlots = slots
        rulesReadClock = rules.contains { $0.condition?.readsClock == true }
        var longest = RuleDuration.days(1) + RuleDuration.hours(2)
        func consider(_ d: RuleDuration?) { if let d, d > longest { longest = d } }
        for p in placements {
            consider(p.minInterval.value)
            for cap in p.caps { consider(cap.value.window) }
        }
        for g in groups {
            consider(g.minInterval?.value)
            for cap in g.caps { consider(cap.value.window) }
        }
        horizon = longest
    }

    /// The placement with this id.
    public func placement(_ id: String) -> Placement? {
        placementIndex[id].map { placements[$0] }
    }
}

extension RuleDuration {
    static func + (lhs: RuleDuration, rhs: RuleDuration) -> RuleDuration {
        RuleDuration(milliseconds: lhs.milliseconds + rhs.milliseconds)
    }
}
