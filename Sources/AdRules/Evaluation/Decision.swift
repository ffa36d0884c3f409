import Foundation

/// The engine's answer: allow or deny, with every reason that applies.
public struct Decision: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Allow or deny.
    public enum Verdict: String, Sendable, Hashable, Codable, CaseIterable {
        /// The ask is allowed: no reason denies it.
        case allow
        /// At least one reason denies the ask.
        case deny
    }

    /// What was asked.
    public var ask: Ask
    /// Every reason, in the documented order; empty when allowed.
    ///
    /// The evaluator records each reason as plain values (its code, its site in the policy, its clear time);
    /// the `Reason` values are built from those when this is read.
    public var reasons: [Reason] {
        get {
            switch found {
            case .allowed: return []
            case .given(let reasons): return reasons
            case .sites(let context, let denials): return denials.map { $0.reason(in: context) }
            }
        }
        set { found = .given(newValue) }
    }
    /// The latest clear time when every reason is time-based; otherwise nil.
    public var nextAllowedAt: Date?
    /// Remarks that do not deny, such as a fullscreen ad treated as closed after `fullscreen_timeout`.
    public var notes: [String]
    /// The reasons: given in full, or as the evaluator found them.
    var found: Found

    enum Found: Sendable {
        /// No reason: what the evaluator gives an allowed ask (a case with no payload, so dropping it releases nothing).
        case allowed
        case given([Reason])
        case sites(SiteContext, [Denial])
    }

    /// Creates a decision.
    public init(ask: Ask, reasons: [Reason], nextAllowedAt: Date?, notes: [String] = []) {
        self.ask = ask
        self.found = .given(reasons)
        self.nextAllowedAt = nextAllowedAt
        self.notes = notes
    }

    /// A decision as the evaluator found it.
    init(ask: Ask, found: Found, nextAllowedAt: Date?, notes: [String]) {
        self.ask = ask
        self.found = found
        self.nextAllowedAt = nextAllowedAt
        self.notes = notes
    }

    /// The first reasons, at most `count`, in order: a report that lists a few of a decision's thousands builds only
    /// those.
    package func reasons(first count: Int) -> [Reason] {
        switch found {
        case .allowed: return []
        case .given(let reasons): return Array(reasons.prefix(count))
        case .sites(let context, let denials): return denials.prefix(count).map { $0.reason(in: context) }
        }
    }

    /// The number of reasons.
    public var reasonCount: Int {
        switch found {
        case .allowed: return 0
        case .given(let reasons): return reasons.count
        case .sites(_, let denials): return denials.count
        }
    }

    /// Allow when there is no reason to deny.
    public var verdict: Verdict { reasonCount == 0 ? .allow : .deny }
    /// Whether the ask is allowed.
    public var isAllowed: Bool { reasonCount == 0 }
    /// The reason codes.
    public var codes: [ReasonCode] {
        switch found {
        case .allowed: return []
        case .given(let reasons): return reasons.map(\.code)
        case .sites(_, let denials): return denials.map(\.code)
        }
    }

    public static func == (lhs: Decision, rhs: Decision) -> Bool {
        lhs.ask == rhs.ask && lhs.reasons == rhs.reasons && lhs.nextAllowedAt == rhs.nextAllowedAt && lhs.notes == rhs.notes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ask)
        hasher.combine(reasons)
        hasher.combine(nextAllowedAt)
        hasher.combine(notes)
    }

    enum CodingKeys: String, CodingKey {
        case verdict, ask, placement, trigger, reasons, nextAllowedAt = "next_allowed_at", notes
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        ask = Ask(
            try c.decode(AskKind.self, forKey: .ask), placement: try c.decode(String.self, forKey: .placement),
            trigger: try c.decodeIfPresent(ShowTrigger.self, forKey: .trigger))
        let reasons = try c.decode([Reason].self, forKey: .reasons)
        found = .given(reasons)
        nextAllowedAt = try Timestamps.decodeIfPresent(c, forKey: .nextAllowedAt)
        notes = try c.decodeIfPresent([String].self, forKey: .notes) ?? []
        // A decision written by another program says its verdict; one that disagrees with its reasons is refused rather
        // than read as whichever the reasons say.
        if let written = try c.decodeIfPresent(Verdict.self, forKey: .verdict), written != verdict {
            throw DecodingError.dataCorruptedError(
                forKey: .verdict, in: c, debugDescription: "verdict \(written.rawValue) with \(reasons.count) reason(s): a decision is deny exactly when it has reasons")
        }
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

    /// One line an app can log: `deny show app_open (resume): min_interval: …, next at 2026-11-30T09:04:00Z [rules/app_open.yaml:12:19]`,
    /// with each note after the reasons (`; note: …`).
    public var description: String {
        var head = "\(verdict.rawValue) \(ask.kind.rawValue) \(ask.placement)"
        if let trigger = ask.trigger { head += " (\(trigger.rawValue))" }
        // Ids and messages come from files and apps: control characters are escaped so the line stays one line.
        // The reasons are built from their sites once.
        let reasons = self.reasons
        // A note (an ad treated as closed after fullscreen_timeout) explains an allow as much as a deny.
        let notes = self.notes.map { "; note: \($0)" }.joined()
        guard !reasons.isEmpty else { return ControlCharacters.escaped(head + notes) }
        let parts = reasons.map { reason -> String in
            let message = reason.message
            var text = message.hasPrefix(reason.code.rawValue) ? message : "\(reason.code.rawValue): \(message)"
            // The full time with its zone: "next at 00:00:00" alone does not say which day or zone.
            if let clears = reason.clearsAt { text += ", next at \(Timestamps.format(clears))" }
            if let location = reason.location { text += " [\(location)]" }
            return text
        }
        return ControlCharacters.escaped(head + ": " + parts.joined(separator: "; ") + notes)
    }
}

