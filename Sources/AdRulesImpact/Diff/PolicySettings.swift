import AdRules
import AdRulesCompiler
import AdRulesYAML

/// One setting of a policy item, as rule files write it: its key, its value text (nil when unset) and where it is set.
struct PolicySetting: Sendable, Hashable {
    var key: String
    /// What is compared: the value by meaning.
    var value: String?
    var location: ImpactLocation?
    /// How the value is shown when it differs from ``value`` (a zone as written); nil to show ``value``.
    var shown: String?

    /// The value as a report shows it.
    var display: String? { value == nil ? nil : shown ?? value }

    init(_ key: String, _ value: String?, _ location: SourceLocation?) {
        self.key = key
        self.value = value
        self.location = location.map(ImpactLocation.init)
    }

    init<T: Sendable & Hashable>(_ key: String, _ located: Located<T>?) {
        self.init(key, located.map { "\($0.value)" }, located?.location)
    }
}

extension ImpactLocation {
    /// The location of a rule-file value.
    init(_ source: SourceLocation) {
        self.init(file: source.file, line: source.line, column: source.column)
    }
}

/// The settings of each kind of policy item, in rule-file key order: what the semantic diff compares.
enum PolicySettings {
    /// - Parameter written: the settings as written, with where (``PolicyLoad/written``): a zone is named as written
    ///   (`UTC`, which Foundation calls GMT), and each setting written is located.
    /// - Parameter start: the policy's first `version:`, where a setting left at its default points (as a placement's
    ///   default points at the placement).
    static func topLevel(_ policy: Policy, written: [String: Located<String>] = [:], start: SourceLocation? = nil) -> [PolicySetting] {
        func location(_ key: String) -> SourceLocation? { written[key]?.location ?? start }
        var zone = PolicySetting("timezone", "device", location("timezone"))
        if case .named(let named) = policy.timeZone {
            // Compared by the zone itself (a compiled policy keeps Foundation's name, `GMT` for `UTC`), shown as written,
            // or as a compiled policy writes it (`UTC`, not Foundation's `GMT`).
            zone.value = TimeZoneNames.comparedName(of: named.identifier)
            zone.shown = written["timezone"]?.value ?? TimeZoneNames.name(of: named)
        }
        return [
            PolicySetting("environment", policy.environment.rawValue, location("environment")),
            zone,
            PolicySetting("session_timeout", policy.sessionTimeout.description, location("session_timeout")),
            PolicySetting("fullscreen_timeout", policy.fullscreenTimeout.value.description, location("fullscreen_timeout")),
            PolicySetting("load_timeout", policy.loadTimeout.description, location("load_timeout")),
        ]
    }

    /// The settings a change of each kind of item may name (an added or removed item names none): what a merge checks
    /// a part's changes against. Kept beside the functions that list them, to change with them.
    static let keys: [String: Set<String>] = [
        "policy": ["environment", "timezone", "session_timeout", "fullscreen_timeout", "load_timeout"],
        "placement": Set(PlacementSetting.allCases.map(\.key)),
        "group": Set(["placements"] + PlacementSetting.groupSettings.map(\.key)),
        "attribute": ["type", "default"],
        "rule": ["deny", "when", "message"],
    ]

    /// A list compared as a set (a group's placements, a rule's `deny`), shown as written.
    static func unordered(_ key: String, _ items: [String], at location: SourceLocation?) -> PolicySetting {
        var setting = PolicySetting(key, "[" + items.sorted().joined(separator: ", ") + "]", location)
        setting.shown = "[" + items.joined(separator: ", ") + "]"
        return setting
    }

    static func placement(_ p: Placement) -> [PolicySetting] {
        PlacementSetting.allCases.map { setting($0, setting: $0.access.value(in: p)) }
    }

    static func group(_ g: PlacementGroup) -> [PolicySetting] {
        [unordered("placements", g.placements.map(\.value), at: g.placements.first?.location)]
            + PlacementSetting.groupSettings.map { setting($0, setting: $0.groupAccess?.value(in: g)) }
    }

    /// - Parameter locations: where its type and default are written (``NamedPolicy/valueLocations``); a value not
    ///   found there (a compiled policy, a default left out) points at the attribute.
    static func attribute(_ a: AttributeDeclaration, at locations: [String: SourceLocation] = [:]) -> [PolicySetting] {
        [
            PolicySetting("type", a.type.rawValue, locations[PolicyLoad.valueKey("attribute", a.name, "type")] ?? a.location),
            PolicySetting("default", a.defaultValue.map(\.description), locations[PolicyLoad.valueKey("attribute", a.name, "default")] ?? a.location),
        ]
    }

    /// - Parameter locations: where its message is written (``NamedPolicy/valueLocations``); else it points at the rule.
    static func rule(_ r: CustomRule, at locations: [String: SourceLocation] = [:]) -> [PolicySetting] {
        let deny = r.deny.map { unordered("deny", $0.map(\.value), at: $0.first?.location ?? r.location) }
        // A condition is compared by what it says: `level<5` and `level < 5` are one condition.
        var when = PolicySetting("when", r.when)
        if let meaning = Condition.meaning(of: r.when.value) {
            when.value = meaning
            when.shown = r.when.value
        }
        return [deny ?? PolicySetting("deny", "\"*\"", r.location), when, PolicySetting("message", r.message, locations[PolicyLoad.valueKey("rule", r.id, "message")] ?? r.location)]
    }

    /// One setting as the diff shows it; no windows count as unset.
    private static func setting(_ key: PlacementSetting, setting value: Located<SettingValue>?) -> PolicySetting {
        guard case .windows(let caps) = value?.value else { return PolicySetting(key.key, value?.value.description, value?.location) }
        // Each window is a cap of its own: windows are compared as a set, shown as written.
        guard !caps.isEmpty else { return PolicySetting(key.key, nil, nil) }
        var setting = PolicySetting(key.key, SettingValue.windows(caps).compared, caps.first?.location)
        setting.shown = SettingValue.windows(caps).written
        return setting
    }
}
