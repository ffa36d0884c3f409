import AdRules
import AdRulesYAML

/// Names of placements that no placement has: where a group or a rule names one.
extension PolicyAssembler {
    /// A group member or `deny` entry naming no placement: a finding, up to a report's worth per file, then counted.
    /// - Parameters:
    ///   - names: the placements defined, and the groups' ids (a group named where placements belong is told so).
    ///   - fragments: where the placements are named, for a name that may be a renamed id's.
    ///   - allowsEvery: `"*"` may stand there (a rule's `deny`), for a name like `all`.
    mutating func reportUnknown(_ member: Located<String>, in context: String, names: PlacementNames, fragments: [PolicyFragment], allowsEvery: Bool = false) {
        let known = names.ids
        // A placement written out of its place is told so where it stands: naming it is no second mistake.
        if misplaced.contains(member.value) { return }
        // The defined id closest to the name, found once a name: a name repeated in many groups and rules (or in many
        // copies of one) costs one search of the ids.
        let closest: String?
        if let found = closestKnown[member.value] {
            closest = found
        } else {
            closest = Suggestion.closest(to: member.value, in: known)
            closestKnown[member.value] = .some(closest)
        }
        // The placement meant has an id that is not valid (`level end` for `level_end`): that id is the finding, and
        // "did you mean" it would send every correct name after the broken one.
        if let closest, !PolicyIDs.isValid(closest, lowercaseOnly: false) { return }
        let file = member.location.file
        let built = unknownPlacementsBuilt[file, default: 0]
        guard built < FieldReader.maxDiagnostics else {
            droppedUnknownPlacements[file, default: 0] += 1
            return
        }
        unknownPlacementsBuilt[file] = built + 1
        // `level_end` named in several places, none naming the `level-end` defined: the definition may be what changed.
        let references = placementReferences ?? Self.references(in: fragments)
        placementReferences = references
        let renamed = closest.flatMap { closest -> (id: String, at: SourceLocation, count: Int)? in
            guard let count = references[member.value], count > 1, references[closest] == nil,
                let at = names.placements.first(where: { $0.id == closest })?.location
            else { return nil }
            return (closest, at, count)
        }
        diagnostics.append(.unknownPlacement(
            member.value, in: context, known: known, closest: closest, isGroup: names.groupIDs.contains(member.value), allowsEvery: allowsEvery, renamed: renamed, file: file,
            range: SourceRange(at: SourcePosition(line: member.location.line, column: member.location.column))))
    }

    /// How many group members and `deny` entries name each id.
    static func references(in fragments: [PolicyFragment]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for fragment in fragments {
            for fields in fragment.groups { for member in fields.group.placements { counts[member.value, default: 0] += 1 } }
            for fields in fragment.rules { for member in fields.named { counts[member.value, default: 0] += 1 } }
        }
        return counts
    }
}
