import AdRules
import AdRulesYAML

extension FieldReader {
    /// A list of placement ids (a group's members, a rule's `deny`) holds at most as many as a policy has placements,
    /// the most a compiled policy's loader reads; the entries past that are not read.
    mutating func checkListLength(_ items: [YAMLNode], _ what: String) {
        guard items.count > PolicyLimits.maxPlacements else { return }
        report(.tooManyListedPlacements(what, count: items.count, file: file, range: items[PolicyLimits.maxPlacements].range))
    }

    /// The id an entry is read under: as written, or without the no-break spaces (or other pasted spaces) before it (an error of its
    /// own), so that the groups and rules naming it are not also told it does not exist.
    static func idMeant(_ node: YAMLNode, _ written: String) -> String {
        GluedKey.isIndentedWithPastedSpaces(node) ? GluedKey.unindented(written) : written
    }

    /// Checks an id against its allowed characters and length. An id indented with no-break spaces or other pasted spaces (from a
    /// document), which YAML reads as part of it, is told so rather than called invalid (see ``idMeant(_:_:)``).
    @discardableResult
    mutating func checkID(_ node: YAMLNode, kind: String, lowercaseOnly: Bool) -> Bool {
        let id = node.scalar?.value ?? ""
        if GluedKey.isIndentedWithPastedSpaces(node) {
            report(.unknownKey(id, in: kind + "s", allowed: [], file: file, range: node.range))
            return false
        }
        let valid = PolicyIDs.isValid(id, lowercaseOnly: lowercaseOnly)
        if !valid {
            report(.badID(kind, id: id, allowed: PolicyIDs.allowed(lowercaseOnly: lowercaseOnly), lowercaseOnly: lowercaseOnly, file: file, range: node.range))
        }
        return valid
    }
}
