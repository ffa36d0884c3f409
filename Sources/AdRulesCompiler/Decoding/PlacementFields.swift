import AdRules
import AdRulesYAML

/// The settings of a placement or of `defaults` as written, before defaults are applied.
struct PlacementFields: Sendable {
    var format: Located<AdFormat>?
    var adUnit: Located<String>?
    var enabled: Located<Bool>?
    var excludePremium: Located<Bool>?
    var blockDuringFullscreen: Located<Bool>?
    var minInterval: Located<RuleDuration>?
    var dailyCap: Located<Int>?
    var hourlyCap: Located<Int>?
    var sessionCap: Located<Int>?
    var caps: [Located<WindowCap>]?
    var maxAdAge: Located<RuleDuration>?
    var everyNActions: Located<Int>?
    var requireUserChoice: Located<Bool>?
    var showOnFirstLoad: Located<Bool>?
    var launchMaxWait: Located<RuleDuration>?
    var showIfReady: Located<Bool>?
    var allowDeferred: Located<Bool>?
    var resumeMaxDelay: Located<RuleDuration>?
    var graceFirstSessions: Located<Int>?
    var graceAfterInstall: Located<RuleDuration>?
    var graceAfterSessionStart: Located<RuleDuration>?
    /// Where `launch` and `resume` keys are written, for `policy/format-key`.
    var launchKey: SourceRange?
    var resumeKey: SourceRange?
    /// Whether any of this block's values had an error (semantic lint then leaves it alone).
    var hadErrors = false

    /// A text of the values alone (no locations), to compare `defaults` written in two files.
    var canonical: String {
        let values: [(String, String?)] = [
            ("enabled", enabled.map { "\($0.value)" }), ("exclude_premium", excludePremium.map { "\($0.value)" }),
            ("block_during_fullscreen", blockDuringFullscreen.map { "\($0.value)" }),
            ("min_interval", minInterval.map { "\($0.value)" }), ("daily_cap", dailyCap.map { "\($0.value)" }),
            ("hourly_cap", hourlyCap.map { "\($0.value)" }), ("session_cap", sessionCap.map { "\($0.value)" }),
            ("caps", caps.map { $0.map { "\($0.value.max)/\($0.value.window)" }.joined(separator: ",") }),
            ("max_ad_age", maxAdAge.map { "\($0.value)" }), ("every_n_actions", everyNActions.map { "\($0.value)" }),
            ("require_user_choice", requireUserChoice.map { "\($0.value)" }),
            ("launch.show_on_first_load", showOnFirstLoad.map { "\($0.value)" }),
            ("launch.max_wait", launchMaxWait.map { "\($0.value)" }),
            ("resume.show_if_ready", showIfReady.map { "\($0.value)" }),
            ("resume.allow_deferred", allowDeferred.map { "\($0.value)" }),
            ("resume.max_delay", resumeMaxDelay.map { "\($0.value)" }),
            ("grace.first_sessions", graceFirstSessions.map { "\($0.value)" }),
            ("grace.after_install", graceAfterInstall.map { "\($0.value)" }),
            ("grace.after_session_start", graceAfterSessionStart.map { "\($0.value)" }),
        ]
        return values.compactMap { key, value in value.map { "\(key)=\($0)" } }.joined(separator: " ")
    }

    /// Reads a placement (or, with `isDefaults`, the `defaults` block).
    static func read(_ node: YAMLNode, context: String, isDefaults: Bool, reader: inout FieldReader) -> PlacementFields {
        let before = reader.diagnostics.count
        var fields = readValues(node, context: context, isDefaults: isDefaults, reader: &reader)
        fields.hadErrors = reader.diagnostics[before...].contains { $0.severity == .error }
        return fields
    }

    private static func readValues(_ node: YAMLNode, context: String, isDefaults: Bool, reader: inout FieldReader) -> PlacementFields {
        var fields = PlacementFields()
        guard let pairs = reader.mapping(node, context) else { return fields }
        for (key, pair) in reader.fields(pairs, allowed: RuleFileKeys.placement, context: context) {
            let value = pair.value
            switch key {
            case "format" where isDefaults, "ad_unit" where isDefaults:
                reader.report(.notAllowedInDefaults(key, file: reader.file, range: pair.key.range))
            case "format": fields.format = reader.enumeration(value, key, as: AdFormat.self)
            case "ad_unit": fields.adUnit = reader.string(value, key)
            case "enabled": fields.enabled = reader.bool(value, key)
            case "exclude_premium": fields.excludePremium = reader.bool(value, key)
            case "block_during_fullscreen": fields.blockDuringFullscreen = reader.bool(value, key)
            case "min_interval": fields.minInterval = reader.duration(value, key)
            case "daily_cap": fields.dailyCap = reader.int(value, key, minimum: 0)
            case "hourly_cap": fields.hourlyCap = reader.int(value, key, minimum: 0)
            case "session_cap": fields.sessionCap = reader.int(value, key, minimum: 0)
            case "caps": fields.caps = readCaps(value, reader: &reader)
            case "max_ad_age": fields.maxAdAge = reader.duration(value, key)
            case "every_n_actions": fields.everyNActions = reader.int(value, key, minimum: 1)
            case "require_user_choice": fields.requireUserChoice = reader.bool(value, key)
            case "launch":
                fields.launchKey = pair.key.range
                guard let inner = reader.mapping(value, key) else { continue }
                for (sub, subPair) in reader.fields(inner, allowed: RuleFileKeys.launch, context: "launch") {
                    if sub == "show_on_first_load" {
                        fields.showOnFirstLoad = reader.bool(subPair.value, "launch.show_on_first_load")
                    } else {
                        fields.launchMaxWait = reader.duration(subPair.value, "launch.max_wait")
                    }
                }
            case "resume":
                fields.resumeKey = pair.key.range
                guard let inner = reader.mapping(value, key) else { continue }
                for (sub, subPair) in reader.fields(inner, allowed: RuleFileKeys.resume, context: "resume") {
                    switch sub {
                    case "show_if_ready": fields.showIfReady = reader.bool(subPair.value, "resume.show_if_ready")
                    case "allow_deferred": fields.allowDeferred = reader.bool(subPair.value, "resume.allow_deferred")
                    default: fields.resumeMaxDelay = reader.duration(subPair.value, "resume.max_delay")
                    }
                }
            case "grace":
                guard let inner = reader.mapping(value, key) else { continue }
                for (sub, subPair) in reader.fields(inner, allowed: RuleFileKeys.grace, context: "grace") {
                    switch sub {
                    case "first_sessions": fields.graceFirstSessions = reader.int(subPair.value, "grace.first_sessions", minimum: 0)
                    case "after_install": fields.graceAfterInstall = reader.duration(subPair.value, "grace.after_install")
                    default: fields.graceAfterSessionStart = reader.duration(subPair.value, "grace.after_session_start")
                    }
                }
            default: break
            }
        }
        return fields
    }

    /// The most rolling windows one placement or group may list.
    static let maxCaps = 64

    /// Reads a `caps` list of `{max, window}`.
    static func readCaps(_ node: YAMLNode, reader: inout FieldReader) -> [Located<WindowCap>]? {
        guard let items = reader.sequence(node, "caps") else { return nil }
        guard items.count <= maxCaps else {
            reader.report(.tooManyCaps(items.count, limit: maxCaps, file: reader.file, range: node.range))
            return nil
        }
        var caps: [Located<WindowCap>] = []
        for item in items {
            guard let pairs = reader.mapping(item, "each item of caps") else { continue }
            var max: Located<Int>?
            var window: Located<RuleDuration>?
            for (key, pair) in reader.fields(pairs, allowed: RuleFileKeys.cap, context: "a cap") {
                if key == "max" { max = reader.int(pair.value, "max", minimum: 0) }
                else { window = reader.duration(pair.value, "window") }
            }
            let present = Set(pairs.compactMap { $0.key.scalar?.value })
            if !present.contains("max") {
                reader.report(.missingKey("max", in: "this cap", example: "max: 3", file: reader.file, range: item.range))
            }
            if !present.contains("window") {
                reader.report(.missingKey("window", in: "this cap", example: "window: 6h", file: reader.file, range: item.range))
            }
            if let max, let window {
                if window.value.milliseconds == 0 {
                    reader.report(.outOfRange("window", value: 0, minimum: 1, file: reader.file, range: SourceRange(at: SourcePosition(line: window.location.line, column: window.location.column))))
                    continue
                }
                caps.append(Located(WindowCap(max: max.value, window: window.value), at: max.location))
            }
        }
        return caps
    }
}
