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
        ("pattern", .string("^([0-9]+d)?([0-9]+h)?([0-9]+m)?([0-9]+s)?([0-9]+ms)?$")),
        ("examples", .array([.string("90s"), .string("4m"), .string("1h30m"), .string("1d")])),
    ]
    private static func count(minimum: Int) -> [(String, JSON)] { [("type", .string("integer")), ("minimum", .int(minimum))] }
    private static let bool: [(String, JSON)] = [("type", .string("boolean"))]
    private static let id: [(String, JSON)] = [("type", .string("string")), ("pattern", .string("^[A-Za-z0-9_.-]{1,64}$"))]

    private static let caps = describe("Extra rolling windows: at most `max` shows in any `window`.", [
        ("type", .string("array")),
        ("items", .object([
            ("type", .string("object")), ("additionalProperties", .bool(false)),
            ("required", .array(RuleFileKeys.cap.map(JSON.string))),
            ("properties", .object([
                ("max", describe("The most shows the window may hold.", count(minimum: 0))),
                ("window", describe("The window's length.", duration)),
            ])),
        ])),
        ("default", .array([])),
    ])

    /// Descriptions and value schemas of placement keys, in `RuleFileKeys.placement` order.
    static let placementProperties: [(String, JSON)] = [
        ("format", describe("The ad format; fullscreen formats are the first four.", [("enum", .array(AdFormat.allCases.map { .string($0.rawValue) }))])),
        ("ad_unit", describe("The network's ad unit id (documentation; linted for test ids).", [("type", .string("string"))])),
        ("enabled", describe("false: every ask is denied placement_disabled.", bool + [("default", .bool(true))])),
        ("exclude_premium", describe("Premium users are never shown, offered or loaded this placement.", bool + [("default", .bool(true))])),
        ("block_during_fullscreen", describe("No show and no load while any fullscreen ad is on screen.", bool + [("default", .bool(true))])),
        ("min_interval", describe("Pacing: time since the last show of this placement.", duration + [("default", .string("0s"))])),
        ("daily_cap", describe("Shows per calendar day in the policy time zone.", count(minimum: 0))),
        ("hourly_cap", describe("Shows in the last rolling 60 minutes.", count(minimum: 0))),
        ("session_cap", describe("Shows in the current session.", count(minimum: 0))),
        ("caps", caps),
        ("max_ad_age", describe("A cached ad older than this is expired (AdMob app open: 4h; most networks: 1h).", duration + [("default", .string("1h"))])),
        ("every_n_actions", describe("An action show needs at least N recorded action events since the last show.", count(minimum: 1))),
        ("require_user_choice", describe("Show only after an explicit user choice (default true for rewarded, else false).", bool)),
        ("launch", describe("app_open only: the cold-start show.", [
            ("type", .string("object")), ("additionalProperties", .bool(false)),
            ("properties", .object([
                ("show_on_first_load", describe("On a cold start, show when the first load completes.", bool + [("default", .bool(true))])),
                ("max_wait", describe("The first-load show only if the load completes within this time of launch.", duration)),
            ])),
        ])),
        ("resume", describe("app_open only: shows on resume.", [
            ("type", .string("object")), ("additionalProperties", .bool(false)),
            ("properties", .object([
                ("show_if_ready", describe("On resume, show if an ad is ready.", bool + [("default", .bool(true))])),
                ("allow_deferred", describe("Allow a show when a load completes after a resume (discouraged).", bool + [("default", .bool(false))])),
                ("max_delay", describe("A resume show must come within this time of the return from background.", duration + [("default", .string("3s"))])),
            ])),
        ])),
        ("grace", describe("Grace periods for new users and new sessions.", [
            ("type", .string("object")), ("additionalProperties", .bool(false)),
            ("properties", .object([
                ("first_sessions", describe("No show in the first N sessions after install.", count(minimum: 0) + [("default", .int(0))])),
                ("after_install", describe("No show until this long after install.", duration + [("default", .string("0s"))])),
                ("after_session_start", describe("No show until this long after the session started.", duration + [("default", .string("0s"))])),
            ])),
        ])),
    ]

    static let groupProperties: [(String, JSON)] = [
        ("placements", describe("The member placement ids.", [("type", .string("array")), ("minItems", .int(1)), ("items", .object(id))])),
        ("min_interval", describe("Pacing: time since the last show of any member.", duration)),
        ("daily_cap", describe("Shows of all members per calendar day.", count(minimum: 0))),
        ("hourly_cap", describe("Shows of all members in the last rolling 60 minutes.", count(minimum: 0))),
        ("session_cap", describe("Shows of all members in the current session.", count(minimum: 0))),
        ("caps", caps),
    ]

    static let ruleProperties: [(String, JSON)] = [
        ("id", describe("A unique rule id.", [("type", .string("string")), ("pattern", .string("^[a-z0-9_-]{1,64}$"))])),
        ("deny", describe("Placement ids, or \"*\" for all.", [("oneOf", .array([
            .object([("const", .string("*"))]),
            .object([("type", .string("array")), ("items", .object([("type", .string("string"))]))]),
        ]))])),
        ("when", describe("An expression; the rule denies when it is true.", [("type", .string("string"))])),
        ("message", describe("A message for the decision's reason.", [("type", .string("string"))])),
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
            ])),
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
            ("additionalProperties", .object([("oneOf", .array([
                .object([("enum", .array(ValueType.allCases.map { .string($0.rawValue) }))]),
                .object([("type", .string("array")), ("items", .object([("enum", .array([.string("string"), .string("int")]))])), ("minItems", .int(1)), ("maxItems", .int(1))]),
                .object([
                    ("type", .string("object")), ("additionalProperties", .bool(false)), ("required", .array([.string("type")])),
                    ("properties", .object([("type", .object([])), ("default", .object([]))])),
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
