/// What the app asks the engine.
public enum AskKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// May I show this placement's ad now?
    case show
    /// May I offer a "watch an ad for a reward" button now?
    case offer
    /// May I load an ad for this placement now?
    case load
    /// May I grant the reward for this placement's current show?
    case reward
}

/// Why the app wants to show an ad.
public enum ShowTrigger: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The app came back to the foreground (app_open).
    case resume
    /// A load just completed (app_open: the cold-start show).
    case loadCompleted = "load_completed"
    /// An app moment such as a level end (every other format).
    case action
}

/// One question to the engine.
public struct Ask: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Show, offer, load or reward.
    public var kind: AskKind
    /// The placement id.
    public var placement: String
    /// For `show`: why. `offer` always uses `action`.
    public var trigger: ShowTrigger?
    /// The placement's ``PlacementID/slot`` when the ask was made from a typed id: checked, never trusted.
    var slot: Int32 = -1

    enum CodingKeys: String, CodingKey { case kind, placement, trigger }

    /// Creates an ask.
    public init(_ kind: AskKind, placement: String, trigger: ShowTrigger? = nil) {
        self.kind = kind
        self.placement = placement
        self.trigger = trigger
    }

    /// Creates an ask about a typed id, keeping its slot.
    public init(_ kind: AskKind, placement: PlacementID, trigger: ShowTrigger? = nil) {
        self.init(kind, placement: placement.rawValue, trigger: trigger)
        slot = placement.slot
    }

    /// May I show this placement now, for this trigger?
    public static func show(_ placement: PlacementID, trigger: ShowTrigger) -> Ask { Ask(.show, placement: placement, trigger: trigger) }
    /// May I offer a rewarded ad for this placement now?
    public static func offer(_ placement: PlacementID) -> Ask { Ask(.offer, placement: placement) }
    /// May I load this placement now?
    public static func load(_ placement: PlacementID) -> Ask { Ask(.load, placement: placement) }
    /// May I grant the reward of this placement's current show?
    public static func reward(_ placement: PlacementID) -> Ask { Ask(.reward, placement: placement) }

    public static func == (lhs: Ask, rhs: Ask) -> Bool {
        lhs.kind == rhs.kind && lhs.placement == rhs.placement && lhs.trigger == rhs.trigger
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(placement)
        hasher.combine(trigger)
    }
}

/// Who is asking: whether the user is premium, and the attributes custom rules read.
public struct AskContext: Sendable, Hashable, CustomStringConvertible {
    /// A premium (ad-free) user.
    public var premium: Bool
    /// Attribute values by name.
    ///
    /// Each change reads the values once to find any that no rule can compare, so many values are best set at once
    /// (`context.attributes = values`, or `merge`d into a copy assigned back), not one at a time in a loop: that reads
    /// them all on each change.
    public var attributes: [String: AttributeValue] {
        didSet {
            prepared = nil
            // Only the values that changed are read again: a value kept from before shares its storage, and compares
            // equal at once (a step of a scenario that sets one attribute beside a list of 4 MB read the list again).
            var names = unusable
            for (name, value) in attributes where oldValue[name] != value {
                if value.unusableBecause != nil { names.insert(name) } else { names.remove(name) }
            }
            if !names.isEmpty { names = names.filter { attributes[$0] != nil } }
            unusable = names
        }
    }
    /// The attribute values laid out in one policy's slots, by ``Policy/prepared(_:)``.
    var prepared: PreparedAttributes?
    /// The names of the values no rule can compare (``AttributeValue/unusableBecause``), found when the attributes are
    /// set, not on each ask (1,000 accented strings read by 200 rules made a scenario's asks 6 times slower).
    private(set) var unusable: Set<String> = []

    /// Creates a context.
    public init(premium: Bool = false, attributes: [String: AttributeValue] = [:]) {
        self.premium = premium
        self.attributes = attributes
        unusable = Self.unusableNames(in: attributes)
    }

    private static func unusableNames(in attributes: [String: AttributeValue]) -> Set<String> {
        var names: Set<String> = []
        for (name, value) in attributes where value.unusableBecause != nil { names.insert(name) }
        return names
    }

    public static func == (lhs: AskContext, rhs: AskContext) -> Bool {
        lhs.premium == rhs.premium && lhs.attributes == rhs.attributes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(premium)
        hasher.combine(attributes)
    }

    /// Whether the context is prepared for `policy` (``Policy/prepared(_:)``): its rules then read its attributes by slot.
    package func isPrepared(for policy: Policy) -> Bool {
        prepared?.programID == ObjectIdentifier(policy.storage.ruleProgram)
    }

    /// A non-premium user with no attributes.
    public static let standard = AskContext()
}

/// A context's attribute values by slot, for the rule program of one policy. The program is held so that its
/// identity stays unique while the context lives; a rule reads the identity without retaining anything.
struct PreparedAttributes: Sendable {
    let program: RuleProgram
    let programID: ObjectIdentifier
    let values: [AttributeValue?]
    /// Per slot: whether the value is one no rule can compare (``AttributeValue/unusableBecause``), checked here once.
    let unusable: [Bool]
    /// Per node of the program: the truth of the conditions that read attributes only.
    let known: [RuleProgram.Known]

    /// - Parameters:
    ///   - names: the policy's attribute names, by slot.
    ///   - context: the context prepared, whose values are checked once already (``AskContext/unusable``).
    init(program: RuleProgram, names: [String], context: AskContext) {
        self.program = program
        programID = ObjectIdentifier(program)
        values = names.map { context.attributes[$0] }
        unusable = names.map { context.unusable.contains($0) }
        var plain = context
        plain.prepared = nil
        known = program.knownTruths(plain)
    }
}

extension Ask {
    /// What a log line or `print` shows, as a decision's ``Decision/description`` starts: `show app_open (resume)`, not the
    /// struct's fields and its private slot. Control characters in the id are escaped, so the line stays one line.
    public var description: String {
        var text = "\(kind.rawValue) \(placement)"
        if let trigger { text += " (\(trigger.rawValue))" }
        return ControlCharacters.escaped(text)
    }
}

extension AskContext {
    /// What a log line or `print` shows: `premium, level=3, screen="shop"`, the attributes sorted by name; not the
    /// prepared slots kept for a policy. `standard` for a non-premium user with no attributes.
    public var description: String {
        var parts = premium ? ["premium"] : []
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) { parts.append("\(name)=\(value)") }
        return parts.isEmpty ? "standard" : ControlCharacters.escaped(parts.joined(separator: ", "))
    }
}

extension ShowTrigger {
    /// What a log line or `print` shows: the spelling of rule files, scenario files and reports (`load_completed`), not the
    /// Swift case name (`loadCompleted`).
    public var description: String { rawValue }
}
