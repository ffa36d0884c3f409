import Foundation

/// One reason a decision denies: what, why, where in the rule files, and when it clears.
public struct Reason: Sendable, Hashable, Codable {
    /// The stable code.
    public var code: ReasonCode
    /// Where the message, location, rule and group come from.
    var origin: Origin
    /// When a time-based reason clears; nil when only an event can clear it.
    public var clearsAt: Date?

    /// A reason's text and place: given in full, or a site in the compiled policy that is rendered when read.
    enum Origin: Sendable {
        /// Given in full: a reason decoded from JSON, created by an app, or edited.
        case given(Given)
        /// Built by the evaluator: which sentence and which setting of which placement, group or rule.
        case site(SiteContext, ReasonSite)
    }

    struct Given: Sendable {
        var message: String
        var location: SourceLocation?
        var rule: String?
        var group: String?
    }

    /// A human sentence.
    public var message: String {
        get {
            switch origin {
            case .given(let given): return given.message
            case .site(let context, let site): return site.message(in: context)
            }
        }
        set { edit { $0.message = newValue } }
    }

    /// The YAML value behind the reason.
    public var location: SourceLocation? {
        get {
            switch origin {
            case .given(let given): return given.location
            case .site(let context, let site): return site.location(in: context.policy)
            }
        }
        set { edit { $0.location = newValue } }
    }

    /// The custom rule, for `custom_rule` and `rule_error`.
    public var rule: String? {
        get {
            switch origin {
            case .given(let given): return given.rule
            case .site(let context, let site): return site.rule >= 0 ? context.policy.rules[site.rule].id : nil
            }
        }
        set { edit { $0.rule = newValue } }
    }

    /// The group, for `group_*` reasons.
    public var group: String? {
        get {
            switch origin {
            case .given(let given): return given.group
            case .site(let context, let site): return site.group >= 0 ? context.policy.groups[site.group].id : nil
            }
        }
        set { edit { $0.group = newValue } }
    }

    /// The message without the local day of a daily cap: what a report that counts a reason over many days
    /// shows for it.
    package var summary: String {
        switch origin {
        case .given(let given): return given.message
        case .site(let context, let site): return site.message(in: context, withDay: false)
        }
    }

    /// Whether ``summary`` depends only on the site (no other placement, no attribute), so that a tool counting
    /// millions of reasons renders it once per site.
    package var summaryIsFixed: Bool {
        guard case .site(_, let site) = origin else { return false }
        return site.summaryIsFixed
    }

    /// The site of a reason the evaluator gave, packed into one integer, nil for one given in full: reasons with
    /// equal keys have equal locations, so a tool can look a location up once per key.
    package var siteKey: Int64? {
        guard case .site(_, let site) = origin else { return nil }
        return site.key
    }

    /// Creates a reason.
    public init(code: ReasonCode, message: String, location: SourceLocation? = nil, clearsAt: Date? = nil, rule: String? = nil, group: String? = nil) {
        self.code = code
        self.origin = .given(Given(message: message, location: location, rule: rule, group: group))
        self.clearsAt = clearsAt
    }

    init(code: ReasonCode, origin: Origin, clearsAt: Date?) {
        self.code = code
        self.origin = origin
        self.clearsAt = clearsAt
    }

    /// Changes one part: the reason is given in full from then on.
    private mutating func edit(_ change: (inout Given) -> Void) {
        var given = Given(message: message, location: location, rule: rule, group: group)
        change(&given)
        origin = .given(given)
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
        var location: SourceLocation?
        if let file = try c.decodeIfPresent(String.self, forKey: .file) {
            location = SourceLocation(
                file: file, line: try c.decode(Int.self, forKey: .line), column: try c.decode(Int.self, forKey: .column))
        }
        self.init(
            code: try c.decode(ReasonCode.self, forKey: .code), message: try c.decode(String.self, forKey: .message),
            location: location, clearsAt: try Timestamps.decodeIfPresent(c, forKey: .clearsAt),
            rule: try c.decodeIfPresent(String.self, forKey: .rule), group: try c.decodeIfPresent(String.self, forKey: .group))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(code, forKey: .code)
        try c.encode(message, forKey: .message)
        let location = self.location
        // Every reason has the keys; a reason with no YAML behind it (unknown_placement) has them null.
        try c.encode(location?.file, forKey: .file)
        try c.encode(location?.line, forKey: .line)
        try c.encode(location?.column, forKey: .column)
        try c.encode(clearsAt.map(Timestamps.format), forKey: .clearsAt)
        try c.encodeIfPresent(rule, forKey: .rule)
        try c.encodeIfPresent(group, forKey: .group)
    }
}
