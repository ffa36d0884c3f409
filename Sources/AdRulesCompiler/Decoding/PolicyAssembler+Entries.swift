import AdRules
import AdRulesYAML

/// The steps of ``PolicyAssembler/assemble(_:files:)``: the settings files share, then each table of the policy in
/// turn, each entry checked against those before it.
extension PolicyAssembler {
    /// The placements in the policy so far: what group members and the placements a rule denies are checked against.
    struct PlacementNames {
        let placements: [Placement]
        /// Every placement id defined, with where it was first defined: also those left out for want of a format.
        let seen: [String: SourceLocation]
        /// The ids of ``placements``, in order, and as a set.
        let ids: [String]
        let known: Set<String>
        /// Every group's id: a group named where placements belong is said to be one.
        let groupIDs: Set<String>

        init(placements: [Placement], seen: [String: SourceLocation], groupIDs: Set<String>) {
            self.placements = placements
            self.seen = seen
            ids = placements.map(\.id)
            known = Set(ids)
            self.groupIDs = groupIDs
        }
    }

    /// A policy-wide setting (or `defaults:`) that a later file writes with another value than the first file that
    /// writes it: a finding at the later one.
    mutating func checkSharedSettings(_ fragments: [PolicyFragment]) {
        var firstSetting: [String: PolicyFragment.Setting] = [:]
        var firstDefaults: PlacementFields?
        for fragment in fragments {
            for key in RuleFileKeys.sharedSettings {
                guard let setting = fragment.settings[key] else { continue }
                if let first = firstSetting[key] {
                    if first.comparedAs != setting.comparedAs {
                        if key == "defaults", let earlier = firstDefaults, let later = fragment.defaults {
                            diagnostics += Self.conflictingDefaults(later, earlier, file: fragment.file, block: setting, first: first)
                        } else {
                            diagnostics.append(.conflictingSetting(
                                key, value: setting.canonical, other: first.canonical, file: setting.location.file,
                                range: setting.range, first: first.location))
                        }
                    }
                } else {
                    firstSetting[key] = setting
                    if key == "defaults" { firstDefaults = fragment.defaults }
                }
            }
        }
    }

    /// The placements of every file, in order, each resolved against `defaults:`; a fragment's placements are dropped
    /// from it once resolved. A placement defined again is reported and left out of the policy (at most
    /// ``maxLeftOut`` are kept in ``leftOut``, for lint).
    /// - Returns: the placements, and every id defined with where it was first defined.
    mutating func assemblePlacements(
        _ fragments: inout [PolicyFragment], defaults: PlacementFields, settingsMayBeLost: Bool
    ) -> (placements: [Placement], seen: [String: SourceLocation]) {
        // Sized once: a table grown by doubling rehashes what it holds each time (a large policy's tables are bigger
        // than the caches, and each rehash misses them).
        let placementCount = fragments.reduce(0) { $0 + $1.placements.count }
        var placements: [Placement] = []
        placements.reserveCapacity(placementCount)
        var seenPlacements: [String: SourceLocation] = [:]
        seenPlacements.reserveCapacity(placementCount)
        for index in fragments.indices {
            let fragment = (file: fragments[index].file, placements: fragments[index].placements)
            fragments[index].placements = []
            for named in fragment.placements {
                // A placement defined twice is left out of the policy, and its settings are still checked.
                let firstAt = seenPlacements[named.id.value]
                if let firstAt {
                    diagnostics.append(.duplicateID("placement", id: named.id.value, file: fragment.file, range: named.range, first: firstAt))
                    guard leftOut.placements.count < Self.maxLeftOut else { continue }
                } else {
                    seenPlacements[named.id.value] = named.id.location
                    if named.fields.hadErrors || defaults.hadErrors || settingsMayBeLost { placementsWithErrors.insert(named.id.value) }
                }
                guard let format = named.fields.format else { continue }
                for block in PlacementSetting.Block.allCases where format.value != .appOpen {
                    if let range = named.fields.appOpenBlocks[block] {
                        diagnostics.append(.formatKey(block.rawValue, format: format.value, file: fragment.file, range: range))
                    }
                }
                if firstAt == nil {
                    placements.append(resolve(named, format: format, defaults: defaults))
                } else {
                    leftOut.placements.append(resolve(named, format: format, defaults: defaults))
                }
            }
        }
        return (placements, seenPlacements)
    }

    /// The groups of every file, in order; a group defined again is reported and left out (kept in ``leftOut``).
    mutating func assembleGroups(_ fragments: [PolicyFragment], _ names: PlacementNames) -> [PlacementGroup] {
        var groups: [PlacementGroup] = []
        var seenGroups: [String: SourceLocation] = [:]
        for fragment in fragments {
            for fields in fragment.groups {
                let group = fields.group
                // A group defined twice is left out, and its placements are still checked.
                let firstAt = seenGroups[group.id]
                if let firstAt {
                    diagnostics.append(.duplicateID("group", id: group.id, file: fragment.file, range: fields.range, first: firstAt))
                    guard leftOut.groups.count < Self.maxLeftOut else { continue }
                } else {
                    seenGroups[group.id] = group.location
                }
                for member in group.placements where !names.known.contains(member.value) && names.seen[member.value] == nil {
                    reportUnknown(member, in: "group \"\(group.id)\"", names: names, fragments: fragments)
                }
                if firstAt == nil {
                    groups.append(group)
                    // A group's pacing that could not be read may be its members' (`pacing/missing`).
                    if fields.hadErrors { placementsWithErrors.formUnion(group.placements.map(\.value)) }
                } else {
                    leftOut.groups.append(group)
                }
            }
        }
        return groups
    }

    /// The attributes of every file, in order; one declared again is reported and left out.
    mutating func assembleAttributes(_ fragments: [PolicyFragment]) -> [AttributeDeclaration] {
        var attributes: [AttributeDeclaration] = []
        var seenAttributes: [String: SourceLocation] = [:]
        for fragment in fragments {
            for attribute in fragment.attributes {
                let name = attribute.declaration.name
                if let firstAt = seenAttributes[name] {
                    diagnostics.append(.duplicateID("attribute", id: name, file: fragment.file, range: attribute.range, first: firstAt))
                    continue
                }
                seenAttributes[name] = attribute.declaration.location
                attributes.append(attribute.declaration)
                valueLocations[PolicyLoad.valueKey("attribute", name, "type")] = attribute.typeAt
                valueLocations[PolicyLoad.valueKey("attribute", name, "default")] = attribute.defaultAt
            }
        }
        return attributes
    }

    /// The custom rules of every file, in order, their conditions compiled against `attributes`.
    mutating func assembleRules(_ fragments: [PolicyFragment], _ names: PlacementNames, attributes: [AttributeDeclaration]) -> [CustomRule] {
        var rules: [CustomRule] = []
        // Attributes whose declaration had an error: a condition naming one is not told the name is unknown.
        let brokenAttributes = Set(fragments.flatMap(\.brokenAttributes))
        var seenRules: [String: SourceLocation] = [:]
        var suggestionsLeft = ExpressionCompiler.maxSuggestions
        var rulesLeftOut = 0
        // The nodes of the conditions so far, and whether the bound on them all has been reported.
        var conditionNodes = 0
        var reportedNodes = false
        for fragment in fragments {
            for fields in fragment.rules {
                // A rule with no id, or with the id of a rule before it, is reported and left out of the policy; its
                // placements and its condition are still checked, so that lint prints every finding at once.
                var kept = fields.id != nil
                if let id = fields.id, let firstAt = seenRules[id.value] {
                    let position = SourcePosition(line: id.location.line, column: id.location.column)
                    diagnostics.append(.duplicateID("rule", id: id.value, file: fragment.file, range: SourceRange(at: position), first: firstAt))
                    kept = false
                } else if let id = fields.id {
                    seenRules[id.value] = id.location
                }
                if !kept {
                    guard rulesLeftOut < Self.maxLeftOut else { continue }
                    rulesLeftOut += 1
                }
                let name = fields.id.map { "rule \"\($0.value)\"" } ?? "a rule without a valid id"
                for member in fields.named where names.seen[member.value] == nil {
                    reportUnknown(member, in: name, names: names, fragments: fragments, allowsEvery: true)
                }
                guard let when = fields.when, let node = fields.whenNode else { continue }
                let condition = compileCondition(
                    when, node: node, file: fragment.file, attributes: attributes, broken: brokenAttributes, suggestionsLeft: &suggestionsLeft)
                conditionNodes += condition?.nodeCount ?? 0
                if conditionNodes > PolicyLimits.maxConditionNodes, !reportedNodes {
                    // At the `when` whose condition goes past the bound: the one an app's loader would refuse.
                    reportedNodes = true
                    diagnostics.append(.tooManyConditionNodes(file: fragment.file, range: node.range))
                }
                guard kept, let id = fields.id else { continue }
                valueLocations[PolicyLoad.valueKey("rule", id.value, "message")] = fields.messageAt
                rules.append(CustomRule(
                    id: id.value, location: id.location, deny: fields.deny, when: when,
                    message: fields.message ?? CustomRule.defaultMessage(id: id.value), condition: condition))
            }
        }
        return rules
    }
}
