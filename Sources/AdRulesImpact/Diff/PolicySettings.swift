import AdRules
import AdRulesYAML

/// One setting of a policy item, as rule files write it: its key, its value text (nil when unset) and where it is set.
struct PolicySetting: Sendable, Hashable {
    var key: String
    var value: String?
    var location: ImpactLocation?

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
    static func topLevel(_ policy: Policy) -> [PolicySetting] {
        let zone: String
        switch policy.timeZone {
        case .device: zone = "device"
        case .named(let named): zone = named.identifier
        }
        return [
            PolicySetting("environment", policy.environment.rawValue, nil),
            PolicySetting("timezone", zone, nil),
            PolicySetting("session_timeout", policy.sessionTimeout.description, nil),
            PolicySetting("fullscreen_timeout", policy.fullscreenTimeout),
            PolicySetting("load_timeout", policy.loadTimeout.description, nil),
        ]
    }

    static func placement(_ p: Placement) -> [PolicySetting] {
        [
            PolicySetting("format", p.format.map(\.rawValue)),
            PolicySetting("ad_unit", p.adUnit),
            PolicySetting("enabled", p.enabled),
            PolicySetting("exclude_premium", p.excludePremium),
            PolicySetting("block_during_fullscreen", p.blockDuringFullscreen),
            PolicySetting("min_interval", p.minInterval),
            PolicySetting("daily_cap", p.dailyCap),
            PolicySetting("hourly_cap", p.hourlyCap),
            PolicySetting("session_cap", p.sessionCap),
            PolicySetting("caps", caps(p.caps), p.caps.first?.location),
            PolicySetting("max_ad_age", p.maxAdAge),
            PolicySetting("every_n_actions", p.everyNActions),
            PolicySetting("require_user_choice", p.requireUserChoice),
            PolicySetting("launch.show_on_first_load", p.showOnFirstLoad),
            PolicySetting("launch.max_wait", p.launchMaxWait),
            PolicySetting("resume.show_if_ready", p.showIfReady),
            PolicySetting("resume.allow_deferred", p.allowDeferred),
            PolicySetting("grace.first_sessions", p.graceFirstSessions),
            PolicySetting("grace.after_install", p.graceAfterInstall),
            PolicySetting("grace.after_session_start", p.graceAfterSessionStart),
        ]
    }

    static func group(_ g: PlacementGroup) -> [PolicySetting] {
        [
            PolicySetting("placements", "[" + g.placements.map(\.value).joined(separator: ", ") + "]", g.placements.first?.location),
            PolicySetting("min_interval", g.minInterval),
            PolicySetting("daily_cap", g.dailyCap),
            PolicySetting("hourly_cap", g.hourlyCap),
            PolicySetting("session_cap", g.sessionCap),
            PolicySetting("caps", caps(g.caps), g.caps.first?.location),
        ]
    }

    static func attribute(_ a: AttributeDeclaration) -> [PolicySetting] {
        [
            PolicySetting("type", a.type.rawValue, a.location),
            PolicySetting("default", a.defaultValue.map(\.description), a.location),
        ]
    }

    static func rule(_ r: CustomRule) -> [PolicySetting] {
        [
            PolicySetting("deny", r.deny.map { "[" + $0.map(\.value).joined(separator: ", ") + "]" } ?? "\"*\"", r.deny?.first?.location ?? r.location),
            PolicySetting("when", r.when),
            PolicySetting("message", r.message, r.location),
        ]
    }

    private static func caps(_ caps: [Located<WindowCap>]) -> String? {
        caps.isEmpty ? nil : "[" + caps.map { "{max: \($0.value.max), window: \($0.value.window)}" }.joined(separator: ", ") + "]"
    }
}

extension Located {
    /// The same location with a transformed value.
    func map<T: Sendable & Hashable>(_ transform: (Value) -> T) -> Located<T> { Located<T>(transform(value), at: location) }
}
