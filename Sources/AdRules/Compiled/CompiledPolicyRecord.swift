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

struct PlacementRecord: Codable, Sendable {
    var id: String
    var at: AtRecord
    var format: LocatedRecord<AdFormat>
    var adUnit: LocatedRecord<String>?
    var enabled: LocatedRecord<Bool>
    var excludePremium: LocatedRecord<Bool>
    var blockDuringFullscreen: LocatedRecord<Bool>
    var minInterval: LocatedRecord<Int64>
    var dailyCap: LocatedRecord<Int>?
    var hourlyCap: LocatedRecord<Int>?
    var sessionCap: LocatedRecord<Int>?
    var caps: [LocatedRecord<WindowRecord>]
    var maxAdAge: LocatedRecord<Int64>
    var everyNActions: LocatedRecord<Int>?
    var requireUserChoice: LocatedRecord<Bool>
    var showOnFirstLoad: LocatedRecord<Bool>
    var launchMaxWait: LocatedRecord<Int64>?
    var showIfReady: LocatedRecord<Bool>
    var allowDeferred: LocatedRecord<Bool>
    var resumeMaxDelay: LocatedRecord<Int64>
    var graceFirstSessions: LocatedRecord<Int>
    var graceAfterInstall: LocatedRecord<Int64>
    var graceAfterSessionStart: LocatedRecord<Int64>

    /// The rule-file key of each setting: the document reads like the YAML it came from.
    enum CodingKeys: String, CodingKey {
        case id, at, format, adUnit = "ad_unit", enabled, excludePremium = "exclude_premium"
        case blockDuringFullscreen = "block_during_fullscreen", minInterval = "min_interval"
        case dailyCap = "daily_cap", hourlyCap = "hourly_cap", sessionCap = "session_cap", caps
        case maxAdAge = "max_ad_age", everyNActions = "every_n_actions", requireUserChoice = "require_user_choice"
        case showOnFirstLoad = "launch.show_on_first_load", launchMaxWait = "launch.max_wait"
        case showIfReady = "resume.show_if_ready", allowDeferred = "resume.allow_deferred"
        case resumeMaxDelay = "resume.max_delay", graceFirstSessions = "grace.first_sessions"
        case graceAfterInstall = "grace.after_install", graceAfterSessionStart = "grace.after_session_start"
    }
}

struct GroupRecord: Codable, Sendable {
    var id: String
    var at: AtRecord
    var placements: [LocatedRecord<String>]
    var minInterval: LocatedRecord<Int64>?
    var dailyCap: LocatedRecord<Int>?
    var hourlyCap: LocatedRecord<Int>?
    var sessionCap: LocatedRecord<Int>?
    var caps: [LocatedRecord<WindowRecord>]

    enum CodingKeys: String, CodingKey {
        case id, at, placements, minInterval = "min_interval", dailyCap = "daily_cap", hourlyCap = "hourly_cap"
        case sessionCap = "session_cap", caps
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
