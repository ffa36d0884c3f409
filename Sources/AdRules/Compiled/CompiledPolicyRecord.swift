/// The JSON document `adrules compile` writes and `Policy(compiled:)` reads (docs/compiled-policy.md).
///
/// Durations are whole milliseconds; every setting carries `at: [file, line, column]`, an index into
/// `files` (paths relative to the policy root) and the 1-based position of the YAML value behind it.
/// Records are read from JSON by hand (`CompiledPolicyRecord+Reading.swift`, each value's type checked) and
/// written by hand (`CompiledPolicyRecord+Writing.swift`, keys sorted); what the values mean is checked by
/// ``CompiledPolicyReader``.
struct CompiledPolicyRecord: Sendable {
    static let formatName = "adrules-compiled-policy"
    static let currentVersion = 1

    var format: String
    var version: Int
    var generator: String?
    var sourceDigest: String
    var files: [String]
    var environment: PolicyEnvironment
    var timezone: String
    var sessionTimeout: Int64
    var fullscreenTimeout: LocatedRecord<Int64>
    var loadTimeout: Int64
    var placements: [PlacementRecord]
    var groups: [GroupRecord]
    var attributes: [AttributeRecord]
    var rules: [RuleRecord]
}

/// `[file, line, column]`: a file index and a 1-based position.
struct AtRecord: Sendable, Hashable {
    var file: Int
    var line: Int
    var column: Int
}

/// A value and where it is written, as `[value, file, line, column]`: one small array per setting keeps
/// the document compact and quick to write and read.
struct LocatedRecord<Value: Sendable>: Sendable {
    var value: Value
    var at: AtRecord
}

/// `{max, window}` with the window in milliseconds.
struct WindowRecord: Sendable {
    var max: Int
    var window: Int64
}

/// A placement: its id, where the id is written, and each of its settings under its rule-file key (the
/// document reads like the YAML it came from); a setting the placement lacks is absent.
struct PlacementRecord: Sendable {
    var id: String
    var at: AtRecord
    /// In any order: as read, in the order of ``PlacementSetting/allCases``; as made to be written, in key order.
    var settings: [SettingRecord]
}

/// A group: its id, where it is written, its members, and its pacing and caps as a placement's are written.
struct GroupRecord: Sendable {
    var id: String
    var at: AtRecord
    var placements: [LocatedRecord<String>]
    /// In any order, as a placement's.
    var settings: [SettingRecord]
}

struct AttributeRecord: Sendable {
    var name: String
    var at: AtRecord
    var type: ValueType
    var `default`: ValueRecord?
}

struct RuleRecord: Sendable {
    var id: String
    var at: AtRecord
    /// Placement ids; absent for `"*"`.
    var deny: [LocatedRecord<String>]?
    /// The `when` text as written, for messages and tooling.
    var when: LocatedRecord<String>
    var message: String
    /// The type-checked condition as data.
    var condition: ExpressionRecord
}

/// A literal: `{"type": "int", "value": 3}`; durations are milliseconds.
struct ValueRecord: Sendable, Hashable {
    var value: AttributeValue

    init(_ value: AttributeValue) { self.value = value }
}

/// A condition as data: `{"or": [...]}`, `{"compare": "==", "left": …, "right": …}`, `{"attribute": "screen"}`…
indirect enum ExpressionRecord: Sendable {
    case constant(ValueRecord)
    case builtin(String)
    case attribute(String)
    case not(ExpressionRecord)
    case and([ExpressionRecord])
    case or([ExpressionRecord])
    case compare(String, ExpressionRecord, ExpressionRecord)
    case member(ExpressionRecord, ExpressionRecord, negated: Bool)
}
