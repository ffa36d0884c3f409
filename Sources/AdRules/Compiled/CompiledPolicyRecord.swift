/// The JSON document `adrules compile` writes and `Policy(compiled:)` reads (docs/compiled-policy.md).
///
/// Durations are whole milliseconds; every setting carries `at: [file, line, column]`, an index into
/// `files` (paths relative to the policy root) and the 1-based position of the YAML value behind it.
struct CompiledPolicyRecord: Codable, Sendable {
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

    enum CodingKeys: String, CodingKey {
        case format, version, generator, sourceDigest = "source_digest", files, environment, timezone
        case sessionTimeout = "session_timeout", fullscreenTimeout = "fullscreen_timeout", loadTimeout = "load_timeout"
        case placements, groups, attributes, rules
    }
}

/// `[file, line, column]`: a file index and a 1-based position.
struct AtRecord: Codable, Sendable, Hashable {
    var file: Int
    var line: Int
    var column: Int

    init(file: Int, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        file = try c.decode(Int.self)
        line = try c.decode(Int.self)
        column = try c.decode(Int.self)
        guard c.isAtEnd else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "a location is [file, line, column]")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(file)
        try c.encode(line)
        try c.encode(column)
    }
}

/// A value and where it is written, as `[value, file, line, column]`: one small array per setting keeps
/// the document compact and quick to write and read.
struct LocatedRecord<Value: Codable & Sendable>: Codable, Sendable {
    var value: Value
    var at: AtRecord

    init(value: Value, at: AtRecord) {
        self.value = value
        self.at = at
    }

    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        value = try c.decode(Value.self)
        at = AtRecord(file: try c.decode(Int.self), line: try c.decode(Int.self), column: try c.decode(Int.self))
        guard c.isAtEnd else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "a setting is [value, file, line, column]")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(value)
        try c.encode(at.file)
        try c.encode(at.line)
        try c.encode(at.column)
    }
}

/// `{max, window}` with the window in milliseconds.
struct WindowRecord: Codable, Sendable {
    var max: Int
    var window: Int64
}

/// A placement: its id, where the id is written, and each of its settings under its rule-file key (the
/// document reads like the YAML it came from); a setting the placement lacks is absent.
struct PlacementRecord: Codable, Sendable {
    var id: String
    var at: AtRecord
    var settings: [SettingRecord]

    init(id: String, at: AtRecord, settings: [SettingRecord]) {
        self.id = id
        self.at = at
        self.settings = settings
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: RecordKey.self)
        id = try c.decode(String.self, forKey: RecordKey("id"))
        at = try c.decode(AtRecord.self, forKey: RecordKey("at"))
        settings = try SettingRecord.decode(PlacementSetting.allCases.map { ($0, $0.access.isOptional) }, from: c)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: RecordKey.self)
        try c.encode(id, forKey: RecordKey("id"))
        try c.encode(at, forKey: RecordKey("at"))
        try SettingRecord.encode(settings, to: &c)
    }
}

/// A group: its id, where it is written, its members, and its pacing and caps as a placement's are written.
struct GroupRecord: Codable, Sendable {
    var id: String
    var at: AtRecord
    var placements: [LocatedRecord<String>]
    var settings: [SettingRecord]

    init(id: String, at: AtRecord, placements: [LocatedRecord<String>], settings: [SettingRecord]) {
        self.id = id
        self.at = at
        self.placements = placements
        self.settings = settings
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: RecordKey.self)
        id = try c.decode(String.self, forKey: RecordKey("id"))
        at = try c.decode(AtRecord.self, forKey: RecordKey("at"))
        placements = try c.decode([LocatedRecord<String>].self, forKey: RecordKey("placements"))
        settings = try SettingRecord.decode(
            PlacementSetting.groupSettings.compactMap { setting in setting.groupAccess.map { (setting, $0.isOptional) } }, from: c)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: RecordKey.self)
        try c.encode(id, forKey: RecordKey("id"))
        try c.encode(at, forKey: RecordKey("at"))
        try c.encode(placements, forKey: RecordKey("placements"))
        try SettingRecord.encode(settings, to: &c)
    }
}

struct AttributeRecord: Codable, Sendable {
    var name: String
    var at: AtRecord
    var type: ValueType
    var `default`: ValueRecord?
}

struct RuleRecord: Codable, Sendable {
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
struct ValueRecord: Codable, Sendable, Hashable {
    var value: AttributeValue

    enum CodingKeys: String, CodingKey { case type, value }

    init(_ value: AttributeValue) { self.value = value }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(ValueType.self, forKey: .type) {
        case .bool: value = .bool(try c.decode(Bool.self, forKey: .value))
        case .int: value = .int(try c.decode(Int64.self, forKey: .value))
        case .number: value = .number(try c.decode(Double.self, forKey: .value))
        case .string: value = .string(try c.decode(String.self, forKey: .value))
        case .duration: value = .duration(RuleDuration(milliseconds: try c.decode(Int64.self, forKey: .value)))
        case .stringList: value = .stringList(try c.decode([String].self, forKey: .value))
        case .intList: value = .intList(try c.decode([Int64].self, forKey: .value))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(value.type, forKey: .type)
        switch value {
        case .bool(let v): try c.encode(v, forKey: .value)
        case .int(let v): try c.encode(v, forKey: .value)
        case .number(let v): try c.encode(v, forKey: .value)
        case .string(let v): try c.encode(v, forKey: .value)
        case .duration(let v): try c.encode(v.milliseconds, forKey: .value)
        case .stringList(let v): try c.encode(v, forKey: .value)
        case .intList(let v): try c.encode(v, forKey: .value)
        }
    }
}

/// A condition as data: `{"or": [...]}`, `{"compare": "==", "left": …, "right": …}`, `{"attribute": "screen"}`…
indirect enum ExpressionRecord: Codable, Sendable {
    case constant(ValueRecord)
    case builtin(String)
    case attribute(String)
    case not(ExpressionRecord)
    case and([ExpressionRecord])
    case or([ExpressionRecord])
    case compare(String, ExpressionRecord, ExpressionRecord)
    case member(ExpressionRecord, ExpressionRecord, negated: Bool)

    enum CodingKeys: String, CodingKey {
        case constant, builtin, attribute, not, and, or, compare, left, right, member, list, negated
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard c.allKeys.count <= 3 else {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: "an expression node has one operator"))
        }
        if let value = try c.decodeIfPresent(ValueRecord.self, forKey: .constant) {
            self = .constant(value)
        } else if let name = try c.decodeIfPresent(String.self, forKey: .builtin) {
            self = .builtin(name)
        } else if let name = try c.decodeIfPresent(String.self, forKey: .attribute) {
            self = .attribute(name)
        } else if let inner = try c.decodeIfPresent(ExpressionRecord.self, forKey: .not) {
            self = .not(inner)
        } else if let operands = try c.decodeIfPresent([ExpressionRecord].self, forKey: .and) {
            self = .and(operands)
        } else if let operands = try c.decodeIfPresent([ExpressionRecord].self, forKey: .or) {
            self = .or(operands)
        } else if let op = try c.decodeIfPresent(String.self, forKey: .compare) {
            self = .compare(op, try c.decode(ExpressionRecord.self, forKey: .left), try c.decode(ExpressionRecord.self, forKey: .right))
        } else if let item = try c.decodeIfPresent(ExpressionRecord.self, forKey: .member) {
            self = .member(item, try c.decode(ExpressionRecord.self, forKey: .list), negated: try c.decode(Bool.self, forKey: .negated))
        } else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: c.codingPath,
                debugDescription: "an expression node is one of constant, builtin, attribute, not, and, or, compare, member"))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .constant(let value): try c.encode(value, forKey: .constant)
        case .builtin(let name): try c.encode(name, forKey: .builtin)
        case .attribute(let name): try c.encode(name, forKey: .attribute)
        case .not(let inner): try c.encode(inner, forKey: .not)
        case .and(let operands): try c.encode(operands, forKey: .and)
        case .or(let operands): try c.encode(operands, forKey: .or)
        case .compare(let op, let left, let right):
            try c.encode(op, forKey: .compare)
            try c.encode(left, forKey: .left)
            try c.encode(right, forKey: .right)
        case .member(let item, let list, let negated):
            try c.encode(item, forKey: .member)
            try c.encode(list, forKey: .list)
            try c.encode(negated, forKey: .negated)
        }
    }
}
