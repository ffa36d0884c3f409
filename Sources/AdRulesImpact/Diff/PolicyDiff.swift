import AdRules

/// One setting that differs between two policies.
public struct PolicyChange: Sendable, Hashable {
    /// Changed, added or removed.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case changed, added, removed
    }

    /// What happened to the setting.
    public var kind: Kind
    /// What the setting belongs to: `policy`, `placement app_open`, `group fullscreen`, `attribute level`, `rule quiet-hours`.
    public var subject: String
    /// The setting (`daily_cap`, `launch.max_wait`); empty when the whole subject was added or removed.
    public var setting: String
    /// The old value as rule files write it (nil where there is none).
    public var old: String?
    /// The new value as rule files write it (nil where there is none).
    public var new: String?
    /// Where the old policy sets it (nil where it does not, or for settings without a recorded location).
    public var oldLocation: ImpactLocation?
    /// Where the new policy sets it (nil where it does not, or for settings without a recorded location).
    public var newLocation: ImpactLocation?

    /// Creates a change.
    public init(kind: Kind, subject: String, setting: String, old: String?, new: String?, oldLocation: ImpactLocation?, newLocation: ImpactLocation?) {
        self.kind = kind
        self.subject = subject
        self.setting = setting
        self.old = old
        self.new = new
        self.oldLocation = oldLocation
        self.newLocation = newLocation
    }
}

/// The semantic difference of two policies: settings compared by meaning, not by text or position.
public enum PolicyDiff {
    /// The most changes a report lists, and the most bytes of their texts (subjects, settings, values and file names):
    /// past either the others are counted. A default changed under 10,000 placements is a change of each (two policies
    /// of 321 KB made 139,986 changes, 122 MB of json, and with a 3.7 KB path the run crashed).
    public static let maxListed = 10_000
    /// See ``maxListed``.
    public static let maxListedText = 4_000_000

    /// The first changes, within ``maxListed`` and ``maxListedText``, and how many more there are.
    public static func listed(_ changes: [PolicyChange]) -> (changes: [PolicyChange], more: Int) {
        var bytes = 0
        var kept = 0
        for change in changes.prefix(maxListed) {
            bytes += change.subject.utf8.count + change.setting.utf8.count + (change.old?.utf8.count ?? 0) + (change.new?.utf8.count ?? 0)
                + (change.oldLocation?.file.utf8.count ?? 0) + (change.newLocation?.file.utf8.count ?? 0)
            guard bytes <= maxListedText else { break }
            kept += 1
        }
        return (Array(changes.prefix(kept)), changes.count - kept)
    }

    /// Whether a change's subject and setting are ones a run writes: `policy` and a policy-wide setting, or an item
    /// (`placement`, `group`, `attribute`, `rule`) with a valid id and one of its settings, or none when it was added or
    /// removed. What a merge checks of a part's changes: a text report starts a line with the subject.
    package static func isWritten(subject: String, setting: String) -> Bool {
        if subject == "policy" { return PolicySettings.keys["policy"]?.contains(setting) == true }
        guard let space = subject.firstIndex(of: " ") else { return false }
        let kind = String(subject[..<space]), id = String(subject[subject.index(after: space)...])
        guard let keys = PolicySettings.keys[kind], setting.isEmpty || keys.contains(setting) else { return false }
        switch kind {
        case "attribute": return PolicyIDs.isValidAttributeName(id)
        case "rule": return PolicyIDs.isValid(id, lowercaseOnly: true)
        default: return PolicyIDs.isValid(id, lowercaseOnly: false)
        }
    }

    /// The settings that differ, policy-wide first, then placements, groups, attributes and rules (new policy order, removed ones last).
    public static func changes(from old: Policy, to new: Policy) -> [PolicyChange] {
        changes(from: NamedPolicy(name: "old", policy: old), to: NamedPolicy(name: "new", policy: new))
    }

    /// The settings that differ, policy-wide settings named as written and located where known.
    public static func changes(from oldNamed: NamedPolicy, to newNamed: NamedPolicy) -> [PolicyChange] {
        let old = oldNamed.policy, new = newNamed.policy
        var changes: [PolicyChange] = []
        compare(
            "policy", PolicySettings.topLevel(old, written: oldNamed.written, start: oldNamed.policyStart),
            PolicySettings.topLevel(new, written: newNamed.written, start: newNamed.policyStart), into: &changes)
        compareItems(
            "placement", old: old.placements.map { ($0.id, ImpactLocation($0.location), PolicySettings.placement($0)) },
            new: new.placements.map { ($0.id, ImpactLocation($0.location), PolicySettings.placement($0)) }, into: &changes)
        compareItems(
            "group", old: old.groups.map { ($0.id, ImpactLocation($0.location), PolicySettings.group($0)) },
            new: new.groups.map { ($0.id, ImpactLocation($0.location), PolicySettings.group($0)) }, into: &changes)
        compareItems(
            "attribute", old: old.attributes.map { ($0.name, ImpactLocation($0.location), PolicySettings.attribute($0, at: oldNamed.valueLocations)) },
            new: new.attributes.map { ($0.name, ImpactLocation($0.location), PolicySettings.attribute($0, at: newNamed.valueLocations)) }, into: &changes)
        compareItems(
            "rule", old: old.rules.map { ($0.id, ImpactLocation($0.location), PolicySettings.rule($0, at: oldNamed.valueLocations)) },
            new: new.rules.map { ($0.id, ImpactLocation($0.location), PolicySettings.rule($0, at: newNamed.valueLocations)) }, into: &changes)
        return changes
    }

    private static func compareItems(
        _ kind: String, old: [(String, ImpactLocation, [PolicySetting])], new: [(String, ImpactLocation, [PolicySetting])],
        into changes: inout [PolicyChange]
    ) {
        // Placements and groups inherit defaults, located at the item, which an added or removed one leaves out; an
        // attribute's or a rule's settings are all its own.
        let inherits = kind == "placement" || kind == "group"
        func summary(_ settings: [PolicySetting], of item: ImpactLocation) -> String {
            PolicyDiff.summary(settings, of: inherits ? item : nil)
        }
        for (id, location, settings) in new {
            if let previous = old.first(where: { $0.0 == id }) {
                compare("\(kind) \(id)", previous.2, settings, items: (previous.1, location), into: &changes)
            } else {
                changes.append(PolicyChange(kind: .added, subject: "\(kind) \(id)", setting: "", old: nil, new: summary(settings, of: location), oldLocation: nil, newLocation: location))
            }
        }
        for (id, location, settings) in old where !new.contains(where: { $0.0 == id }) {
            changes.append(PolicyChange(kind: .removed, subject: "\(kind) \(id)", setting: "", old: summary(settings, of: location), new: nil, oldLocation: location, newLocation: nil))
        }
    }

    /// - Parameter items: where the item is written in each policy: a setting added or removed is located, on the
    ///   side that lacks it, at the item that would hold it (impact.md: "each with both locations").
    private static func compare(
        _ subject: String, _ old: [PolicySetting], _ new: [PolicySetting], items: (old: ImpactLocation, new: ImpactLocation)? = nil,
        into changes: inout [PolicyChange]
    ) {
        for setting in new {
            let before = old.first { $0.key == setting.key }
            let oldValue = before?.value, newValue = setting.value
            guard oldValue != newValue else { continue }
            let kind: PolicyChange.Kind = oldValue == nil ? .added : newValue == nil ? .removed : .changed
            changes.append(PolicyChange(
                kind: kind, subject: subject, setting: setting.key, old: before?.display, new: setting.display,
                oldLocation: oldValue == nil ? items?.old : before?.location, newLocation: newValue == nil ? items?.new : setting.location))
        }
    }

    /// The values written for an added or removed item, as one line (inherited defaults point at the item itself and
    /// are left out; nil `item` keeps every value).
    private static func summary(_ settings: [PolicySetting], of item: ImpactLocation?) -> String {
        settings.compactMap { setting in
            guard let value = setting.display, item == nil || setting.location != item else { return nil }
            return "\(setting.key): \(value)"
        }.joined(separator: ", ")
    }
}
