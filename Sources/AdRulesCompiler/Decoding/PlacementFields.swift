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

    /// Reads a placement, or the `defaults` block, from the value `event` begins.
    /// - Parameters:
    ///   - placementKey: where the placement's id is written, for `schema/missing-key` when it has no `format`;
    ///     nil for `defaults`, where `format` is not allowed.
    static func read(
        _ event: YAMLEvent, _ cursor: YAMLEventCursor, context: String, placementKey: SourceRange?, reader: inout FieldReader
    ) -> PlacementFields {
        let before = reader.diagnostics.count
        var fields = PlacementFields()
        var missesFormat = false
        if reader.enterMapping(event, cursor, context) {
            var wroteFormat = false
            reader.forEachField(cursor, allowed: RuleFileKeys.placement, context: context) { reader, key, keyNode, value in
                if key == "format" { wroteFormat = true }
                fields.read(key, keyNode, value, cursor, isDefaults: placementKey == nil, reader: &reader)
            }
            if let placementKey, !wroteFormat {
                missesFormat = true
                reader.report(.missingKey("format", in: context, example: "format: interstitial", file: reader.file, range: placementKey))
            }
        }
        fields.hadErrors = missesFormat || reader.diagnostics[before...].contains { $0.severity == .error }
        return fields
    }

    /// Reads the value of one placement key.
    private mutating func read(
        _ key: String, _ keyNode: YAMLNode, _ event: YAMLEvent, _ cursor: YAMLEventCursor, isDefaults: Bool, reader: inout FieldReader
    ) {
        switch key {
        case "format" where isDefaults, "ad_unit" where isDefaults:
            reader.report(.notAllowedInDefaults(key, file: reader.file, range: keyNode.range))
            return
        case "caps":
            // A short list read as a node: its length is checked before any of its items.
            if let node = cursor.node(from: event) { caps = Self.readCaps(node, reader: &reader) }
            return
        case "launch", "resume", "grace":
            readBlock(key, keyNode, event, cursor, reader: &reader)
            return
        default:
            break
        }
        guard let value = reader.shallowNode(event, cursor) else { return }
        switch key {
        case "format": format = reader.enumeration(value, key, as: AdFormat.self)
        case "ad_unit": adUnit = reader.string(value, key)
        case "enabled": enabled = reader.bool(value, key)
        case "exclude_premium": excludePremium = reader.bool(value, key)
        case "block_during_fullscreen": blockDuringFullscreen = reader.bool(value, key)
        case "min_interval": minInterval = reader.duration(value, key)
        case "daily_cap": dailyCap = reader.int(value, key, minimum: 0)
        case "hourly_cap": hourlyCap = reader.int(value, key, minimum: 0)
        case "session_cap": sessionCap = reader.int(value, key, minimum: 0)
        case "max_ad_age": maxAdAge = reader.duration(value, key)
        case "every_n_actions": everyNActions = reader.int(value, key, minimum: 1)
        case "require_user_choice": requireUserChoice = reader.bool(value, key)
        case "launch.show_on_first_load": showOnFirstLoad = reader.bool(value, key)
        case "launch.max_wait": launchMaxWait = reader.duration(value, key)
        case "resume.show_if_ready": showIfReady = reader.bool(value, key)
        case "resume.allow_deferred": allowDeferred = reader.bool(value, key)
        case "resume.max_delay": resumeMaxDelay = reader.duration(value, key)
        case "grace.first_sessions": graceFirstSessions = reader.int(value, key, minimum: 0)
        case "grace.after_install": graceAfterInstall = reader.duration(value, key)
        case "grace.after_session_start": graceAfterSessionStart = reader.duration(value, key)
        default: break
        }
    }

    /// Reads a nested block (`launch`, `resume`, `grace`): its keys are read as `block.key`.
    private mutating func readBlock(
        _ block: String, _ keyNode: YAMLNode, _ event: YAMLEvent, _ cursor: YAMLEventCursor, reader: inout FieldReader
    ) {
        if block == "launch" { launchKey = keyNode.range }
        if block == "resume" { resumeKey = keyNode.range }
        guard reader.enterMapping(event, cursor, block),
            let allowed = RuleFileKeys.placementBlocks.first(where: { $0.0 == block })?.1
        else { return }
        reader.forEachField(cursor, allowed: allowed, context: block) { reader, sub, subKey, value in
            read("\(block).\(sub)", subKey, value, cursor, isDefaults: false, reader: &reader)
        }
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
