import Foundation

/// One reason a decision denies: what, why, where in the rule files, and when it clears.
public struct Reason: Sendable, Hashable, Codable {
    /// The stable code.
    public var code: ReasonCode
    /// A human sentence.
    public var message: String {
        get { text.string }
        set { text = ReasonText(.literal(newValue)) }
    }
    /// The message as the evaluator leaves it: a template rendered when `message` is read.
    var text: ReasonText

    /// Whether the message depends only on the policy (no day, no other placement), so that a tool counting
    /// millions of reasons need render it once per reason and location.
    package var messageIsFixed: Bool {
        switch text.source {
        case .placement: return true
        case .cap(_, _, _, _, _, let day, _): return day == nil
        case .literal: return false
        }
    }
    /// The YAML value behind the reason.
    public var location: SourceLocation?
    /// When a time-based reason clears; nil when only an event can clear it.
    public var clearsAt: Date?
    /// The custom rule, for `custom_rule` and `rule_error`.
    public var rule: String?
    /// The group, for `group_*` reasons.
    public var group: String?

    /// Creates a reason.
    public init(code: ReasonCode, message: String, location: SourceLocation? = nil, clearsAt: Date? = nil, rule: String? = nil, group: String? = nil) {
        self.init(code: code, text: ReasonText(.literal(message)), location: location, clearsAt: clearsAt, rule: rule, group: group)
    }

    init(code: ReasonCode, text: ReasonText, location: SourceLocation?, clearsAt: Date?, rule: String?, group: String?) {
        self.code = code
        self.text = text
        self.location = location
        self.clearsAt = clearsAt
        self.rule = rule
        self.group = group
    }

    enum CodingKeys: String, CodingKey {
        case code, message, file, line, column, clearsAt = "clears_at", rule, group
    }

    public static func == (lhs: Reason, rhs: Reason) -> Bool {
        lhs.code == rhs.code && lhs.location == rhs.location && lhs.clearsAt == rhs.clearsAt && lhs.rule == rhs.rule
            && lhs.group == rhs.group && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(location)
        hasher.combine(clearsAt)
        hasher.combine(rule)
        hasher.combine(group)
        hasher.combine(message)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        code = try c.decode(ReasonCode.self, forKey: .code)
        text = ReasonText(.literal(try c.decode(String.self, forKey: .message)))
        if let file = try c.decodeIfPresent(String.self, forKey: .file) {
            location = SourceLocation(
                file: file, line: try c.decode(Int.self, forKey: .line), column: try c.decode(Int.self, forKey: .column))
        }
        clearsAt = try c.decodeIfPresent(String.self, forKey: .clearsAt).flatMap(Timestamps.parse)
        rule = try c.decodeIfPresent(String.self, forKey: .rule)
        group = try c.decodeIfPresent(String.self, forKey: .group)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(code, forKey: .code)
        try c.encode(message, forKey: .message)
        try c.encodeIfPresent(location?.file, forKey: .file)
        try c.encodeIfPresent(location?.line, forKey: .line)
        try c.encodeIfPresent(location?.column, forKey: .column)
        try c.encode(clearsAt.map(Timestamps.format), forKey: .clearsAt)
        try c.encodeIfPresent(rule, forKey: .rule)
        try c.encodeIfPresent(group, forKey: .group)
    }
}

/// The engine's answer: allow or deny, with every reason that applies.
public struct Decision: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Allow or deny.
    public enum Verdict: String, Sendable, Hashable, Codable, CaseIterable {
        case allow
        case deny
    }

    /// What was asked.
    public var ask: Ask
    /// Every reason, in the documented order; empty when allowed.
    public var reasons: [Reason]
    /// The latest clear time when every reason is time-based; otherwise nil.
    public var nextAllowedAt: Date?
    /// Remarks that do not deny, such as a fullscreen ad treated as closed after `fullscreen_timeout`.
    public var notes: [String]

    /// Creates a decision.
    public init(ask: Ask, reasons: [Reason], nextAllowedAt: Date?, notes: [String] = []) {
        self.ask = ask
        self.reasons = reasons
        self.nextAllowedAt = nextAllowedAt
        self.notes = notes
    }

    /// Allow when there is no reason to deny.
    public var verdict: Verdict { reasons.isEmpty ? .allow : .deny }
    /// Whether the ask is allowed.
    public var isAllowed: Bool { reasons.isEmpty }
    /// The reason codes.
    public var codes: [ReasonCode] { reasons.map(\.code) }

    enum CodingKeys: String, CodingKey {
        case verdict, ask, placement, trigger, reasons, nextAllowedAt = "next_allowed_at", notes
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        ask = Ask(
            try c.decode(AskKind.self, forKey: .ask), placement: try c.decode(String.self, forKey: .placement),
            trigger: try c.decodeIfPresent(ShowTrigger.self, forKey: .trigger))
        reasons = try c.decode([Reason].self, forKey: .reasons)
        nextAllowedAt = try c.decodeIfPresent(String.self, forKey: .nextAllowedAt).flatMap(Timestamps.parse)
        notes = try c.decodeIfPresent([String].self, forKey: .notes) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(verdict, forKey: .verdict)
        try c.encode(ask.kind, forKey: .ask)
        try c.encode(ask.placement, forKey: .placement)
        try c.encode(ask.trigger, forKey: .trigger)
        try c.encode(reasons, forKey: .reasons)
        try c.encode(nextAllowedAt.map(Timestamps.format), forKey: .nextAllowedAt)
        try c.encode(notes, forKey: .notes)
    }

    /// One line an app can log: `deny show app_open (resume): min_interval 4m not elapsed, next at 09:04:00 [rules/app_open.yaml:7:19]`.
    public var description: String {
        var head = "\(verdict.rawValue) \(ask.kind.rawValue) \(ask.placement)"
        if let trigger = ask.trigger { head += " (\(trigger.rawValue))" }
        // Ids and messages come from files and apps: control characters are escaped so the line stays one line.
        guard !reasons.isEmpty else { return ControlCharacters.escaped(head) }
        let parts = reasons.map { reason -> String in
            var text = reason.message.hasPrefix(reason.code.rawValue) ? reason.message : "\(reason.code.rawValue): \(reason.message)"
            // The full time with its zone: "next at 00:00:00" alone does not say which day or zone.
            if let clears = reason.clearsAt { text += ", next at \(Timestamps.format(clears))" }
            if let location = reason.location { text += " [\(location)]" }
            return text
        }
        return ControlCharacters.escaped(head + ": " + parts.joined(separator: "; "))
    }
}

