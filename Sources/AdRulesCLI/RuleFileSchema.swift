import AdRules
import AdRulesCompiler

/// The JSON Schema (draft-07) of rule files, built from the same key tables the decoder uses.
enum RuleFileSchema {
    static let text = document.rendered() + "\n"

    private static func describe(_ text: String, _ schema: [(String, JSON)]) -> JSON {
        .object([("description", .string(text))] + schema)
    }

    private static let duration: [(String, JSON)] = [
        ("type", .string("string")),
        // One or more parts, largest unit first; no look-ahead, so every schema validator's regex engine reads it.
        ("pattern", .string("^([0-9]+d([0-9]+h)?([0-9]+m)?([0-9]+s)?([0-9]+ms)?|[0-9]+h([0-9]+m)?([0-9]+s)?([0-9]+ms)?|[0-9]+m([0-9]+s)?([0-9]+ms)?|[0-9]+s([0-9]+ms)?|[0-9]+ms)$")),
        ("examples", .array([.string("90s"), .string("4m"), .string("1h30m"), .string("1d")])),
    ]
    private static func count(minimum: Int) -> [(String, JSON)] { [("type", .string("integer")), ("minimum", .int(minimum))] }
    /// A cap of shows: at most what a history keeps (lint's `schema/range` past it).
    private static let cap: [(String, JSON)] = count(minimum: 0) + [("maximum", .int(Facts.maxShowsPerHistory))]
    /// A text as lint takes it: at most 4096 characters, no control characters (a block scalar's final line breaks are
    /// left out of the value by lint, so they pass here too).
    private static let plainText: [(String, JSON)] = [
        ("type", .string("string")), ("maxLength", .int(PolicyIDs.maxTextLength)), ("pattern", .string("^[^\(ControlCharacters.regexClass)]*\\n*$")),
    ]
    /// An attribute name (``PolicyIDs/attributeNameRule``): not a keyword of conditions nor a built-in name.
    private static let attributeName: [(String, JSON)] = [
        ("pattern", .string(PolicyIDs.attributeNamePattern)),
        ("not", .object([("enum", .array((PolicyIDs.keywords + Builtin.allCases.map(\.rawValue)).map(JSON.string)))])),
    ]
    /// An attribute's type, as a name (`"[int]"` quoted too) or as a YAML list of one element type (`[int]`).
    private static let attributeTypes: [JSON] = [
        .object([("enum", .array(ValueType.allCases.map { .string($0.rawValue) }))]),
        .object([("type", .string("array")), ("items", .object([("enum", .array([.string("string"), .string("int")]))])), ("minItems", .int(1)), ("maxItems", .int(1))]),
    ]
    private static let bool: [(String, JSON)] = [("type", .string("boolean"))]
    private static let id: [(String, JSON)] = [("type", .string("string")), ("pattern", .string("^[A-Za-z0-9_.-]{1,64}$"))]
    /// What a rule's `deny` names: a placement id, or `*` for every placement.
    private static let denied: [(String, JSON)] = [("type", .string("string")), ("pattern", .string("^(\\*|[A-Za-z0-9_.-]{1,64})$"))]

    /// A setting's schema: its description, its kind's value schema and, when it does not depend on the
    /// format, its built-in default (a group's settings have none: they are unset unless written).
    private static func property(_ setting: PlacementSetting, _ summary: String, withDefault: Bool) -> JSON {
        var schema: [(String, JSON)]
        switch setting.kind {
        case .flag: schema = bool
        case .count(let minimum): schema = setting.isCap ? cap : count(minimum: minimum)
        case .duration: schema = duration
        case .format: schema = [("enum", .array(AdFormat.allCases.map { .string($0.rawValue) }))]
        case .text: schema = plainText
        case .windows:
            schema = [
                ("type", .string("array")), ("maxItems", .int(PlacementSetting.maxWindowCaps)),
                ("items", .object([
                    ("type", .string("object")), ("additionalProperties", .bool(false)),
                    ("required", .array(RuleFileKeys.cap.map(JSON.string))),
                    ("properties", .object([
                        ("max", describe("The most shows the window may hold.", cap)),
                        ("window", describe("The window's length.", duration)),
                    ])),
                ])),
                ("default", .array([])),
            ]
        }
        let defaults = Set(AdFormat.allCases.map(setting.builtInDefault(for:)))
        if withDefault, setting.kind != .windows, defaults.count == 1, let value = defaults.first ?? nil {
            switch value {
            case .flag(let v): schema.append(("default", .bool(v)))
            case .count(let v): schema.append(("default", .int(v)))
            case .duration(let v): schema.append(("default", .string(v.description)))
            case .format, .text, .windows: break
            }
        }
        return describe(summary, schema)
    }

    /// Descriptions and value schemas of placement keys, in `RuleFileKeys.placement` order: a block's keys nest in it.
    static let placementProperties: [(String, JSON)] = RuleFileKeys.placement.compactMap { key in
        if let block = PlacementSetting.Block(rawValue: key) {
            return (key, describe(block.summary, [
                ("type", .string("object")), ("additionalProperties", .bool(false)),
                ("properties", .object(PlacementSetting.settings(in: block).map { ($0.name, property($0, $0.summary, withDefault: true)) })),
            ]))
        }
        return PlacementSetting(rawValue: key).map { (key, property($0, $0.summary, withDefault: true)) }
    }

    /// `launch:` and `resume:` on a placement of another format than app_open are refused, as lint refuses them
    /// (`policy/format-key`), so that an editor marks them as they are typed.
    static let appOpenOnlyBlocks: [(String, JSON)] = [
        ("if", .object([("properties", .object([("format", .object([("const", .string(AdFormat.appOpen.rawValue))]))]))])),
        ("else", .object([("properties", .object(PlacementSetting.Block.allCases.filter(\.isAppOpenOnly).map { ($0.rawValue, .bool(false)) }))])),
    ]

    static let groupProperties: [(String, JSON)] =
        [("placements", describe("The member placement ids.", [("type", .string("array")), ("minItems", .int(1)), ("items", .object(id))]))]
        + PlacementSetting.groupSettings.map { ($0.key, property($0, $0.groupSummary ?? $0.summary, withDefault: false)) }

    static let ruleProperties: [(String, JSON)] = [
        ("id", describe("A unique rule id.", [("type", .string("string")), ("pattern", .string("^[a-z0-9_-]{1,64}$"))])),
        // As lint reads them: "*", one placement id, or a list of at least one; a `when` of `true` or `false` is that expression.
        ("deny", describe("A placement id, a list of them, or \"*\" for all.", [("oneOf", .array([
            .object(denied),
            .object([("type", .string("array")), ("items", .object(denied)), ("minItems", .int(1))]),
        ]))])),
        ("when", describe("An expression; the rule denies when it is true.", [("type", .array([.string("string"), .string("boolean")]))])),
        // A sentence: some text that is not blank, as lint reads it.
        ("message", describe("A message for the decision's reason.", plainText + [("allOf", .array([.object([("pattern", .string("\\S"))])]))])),
    ]

    static let topProperties: [(String, JSON)] = [
        ("version", describe("The rule format version.", [("const", .int(1))])),
        ("environment", describe("Test-only policies may use test ad unit ids.", [("enum", .array(PolicyEnvironment.allCases.map { .string($0.rawValue) })), ("default", .string("production"))])),
        ("timezone", describe("The calendar for daily_cap days and now.hour: an IANA name or device.", [("type", .string("string")), ("default", .string("device"))])),
        ("session_timeout", describe("A resume after at least this long in background starts a new session.", duration + [("default", .string("30m"))])),
        ("fullscreen_timeout", describe("A fullscreen ad reported showing for longer is treated as closed.", duration + [("default", .string("30m"))])),
        ("load_timeout", describe("A load in progress for longer is treated as failed.", duration + [("default", .string("60s"))])),
        ("defaults", describe("Keys applied to every placement unless it sets them (format and ad_unit not allowed).", [
            ("type", .string("object")), ("additionalProperties", .bool(false)),
            ("properties", .object(placementProperties.filter { $0.0 != "format" && $0.0 != "ad_unit" })),
        ])),
        ("placements", describe("Placements by id.", [
            ("type", .string("object")),
            ("propertyNames", .object(id)),
            ("additionalProperties", .object([
                ("type", .string("object")), ("additionalProperties", .bool(false)), ("required", .array([.string("format")])),
                ("properties", .object(placementProperties)),
            ] + appOpenOnlyBlocks)),
        ])),
        ("groups", describe("Shared pacing and caps across placements.", [
            ("type", .string("object")),
            ("propertyNames", .object(id)),
            ("additionalProperties", .object([
                ("type", .string("object")), ("additionalProperties", .bool(false)), ("required", .array([.string("placements")])),
                ("properties", .object(groupProperties)),
            ])),
        ])),
        ("attributes", describe("App-supplied values that custom rules may read.", [
            ("type", .string("object")),
            ("propertyNames", .object(attributeName)),
            ("additionalProperties", .object([("oneOf", .array(attributeTypes + [
                .object([
                    ("type", .string("object")), ("additionalProperties", .bool(false)), ("required", .array([.string("type")])),
                    // The long form's type is spelt as the short form is: `{type: [int], default: [1]}` lints clean.
                    ("properties", .object([("type", .object([("oneOf", .array(attributeTypes))])), ("default", .object([]))])),
                ]),
            ]))])),
        ])),
        ("rules", describe("Custom deny rules.", [
            ("type", .string("array")),
            ("items", .object([
                ("type", .string("object")), ("additionalProperties", .bool(false)),
                ("required", .array([.string("id"), .string("deny"), .string("when")])),
                ("properties", .object(ruleProperties)),
            ])),
        ])),
    ]

    static let document = JSON.object([
        ("$schema", .string("http://json-schema.org/draft-07/schema#")),
        ("$id", .string("https://adrules.dev/schema/rules.schema.json")),
        ("title", .string("AdRules rule file (version 1)")),
        ("description", .string("Ad placements, pacing, caps and custom rules for the AdRules engine.")),
        ("type", .string("object")),
        ("additionalProperties", .bool(false)),
        ("required", .array([.string("version")])),
        ("properties", .object(topProperties)),
    ])
}
