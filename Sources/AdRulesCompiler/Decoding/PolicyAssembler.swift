import AdRules
import AdRulesYAML
import Foundation

/// Merges the fragments of a policy's files into one `Policy`, reporting conflicts and dangling names.
struct PolicyAssembler {
    var diagnostics: [Diagnostic] = []
    /// The bytes of each file, by path: read only to place a finding inside a `when` expression.
    var sources: [String: [UInt8]] = [:]
    /// The positions inside each file that had such a finding, its line index built the first time.
    var positions: [String: ScalarPositions] = [:]
    /// Per file, the `policy/unknown-placement` findings past what a report shows (``FieldReader/maxDiagnostics``):
    /// counted, not built. A list of a million unknown names would otherwise take gigabytes and a "did you mean" each.
    private(set) var droppedUnknownPlacements: [String: Int] = [:]
    private var unknownPlacementsBuilt: [String: Int] = [:]
    /// How many group members and `deny` entries name each id: a name several entries share and no entry gives the
    /// placement it resembles points at a placement whose id was renamed. Counted at the first unknown name (most
    /// policies have none, and a load counts nothing for them).
    private var placementReferences: [String: Int]?
    /// Placement ids whose blocks, `defaults:` or groups had errors; `pacing/missing` leaves them alone.
    private(set) var placementsWithErrors: Set<String> = []
    /// Where the values of `defaults:` are written: a lint finding placed at one of them names the placement it is about.
    private(set) var defaultsWritten: Set<SourceLocation> = []
    /// The policy-wide settings as written (`timezone: UTC`, not the zone Foundation makes of it), with where.
    private(set) var writtenSettings: [String: Located<String>] = [:]
    /// The first file's `version:` (``PolicyLoad/policyStart``).
    private(set) var policyStart: SourceLocation?
    /// Where the values the policy model does not locate are written (``PolicyLoad/valueLocations``).
    private(set) var valueLocations: [String: SourceLocation] = [:]

    /// Two files' `defaults` differ: a finding for each setting that differs, at its value in the later file (at that
    /// file's `defaults:` when only the earlier file sets it), with a note at the earlier one. When either block has
    /// an error, that error is a finding of its own and a value it lost is no conflict: only a setting both blocks
    /// read, with different values, is one (none when there is none). `caps` is not such a setting: a list with
    /// a bad entry is read without it, and would differ from the list as meant.
    private static func conflictingDefaults(
        _ later: PlacementFields, _ earlier: PlacementFields, file: String, block: PolicyFragment.Setting, first: PolicyFragment.Setting
    ) -> [Diagnostic] {
        let lostSome = later.hadErrors || earlier.hadErrors
        // Every setting that differs, each a finding of its own: fixing one does not reveal the next.
        let differing = PlacementSetting.allCases.filter(\.isAllowedInDefaults).filter { setting in
            // Compared by their values: two files' equal `caps` lists hold windows located in different files, maybe
            // written in another order.
            let here = later[setting]?.value.compared, there = earlier[setting]?.value.compared
            return lostSome ? setting != .caps && here != nil && there != nil && here != there : here != there
        }
        guard !differing.isEmpty else {
            if lostSome { return [] }
            return [.conflictingSetting("defaults", value: block.canonical, other: first.canonical, file: file, range: block.range, first: first.location)]
        }
        return differing.map { setting in
            let key = "defaults.\(setting.key)"
            let here = later[setting], there = earlier[setting]
            let range = here.map { SourceRange(at: SourcePosition(line: $0.location.line, column: $0.location.column)) } ?? block.range
            var diagnostic = Diagnostic.conflictingSetting(
                key, value: here?.value.written ?? "not set", other: there?.value.written ?? "not set", file: file, range: range,
                first: there?.location ?? first.location)
            if there == nil, !diagnostic.notes.isEmpty { diagnostic.notes[0].message = "the defaults here do not set \(setting.key)" }
            return diagnostic
        }
    }

    /// The defined placement id closest to each unknown name met (``reportUnknown(_:in:known:placements:fragments:isGroup:allowsEvery:)``).
    private var closestKnown: [String: String?] = [:]
    /// The ids of placements written out of their place, each told so (``PolicyFragment/misplacedPlacements``).
    private var misplaced: Set<String> = []
    /// Placements and groups left out because their id was defined before: ``SemanticLint`` still checks their settings.
    private(set) var leftOut: (placements: [Placement], groups: [PlacementGroup]) = ([], [])
    /// How many left-out placements, groups and rules (each kind) are checked: a policy of 100,000 repeats costs what
    /// it did before they were checked, and a file shows 1,000 findings.
    static let maxLeftOut = 1_000

    /// Builds the policy; each fragment's placements are dropped as soon as they are resolved, so a large
    /// policy is never held twice (as written and as resolved) while its tables are built and linted (but for at most
    /// ``maxLeftOut`` placements defined twice, kept for the lint).
    mutating func assemble(_ written: consuming [PolicyFragment], files: [String]) -> Policy {
        var fragments = consume written
        misplaced = Set(fragments.flatMap(\.misplacedPlacements))
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
        func first<T>(_ path: KeyPath<PolicyFragment, T?>) -> T? {
            for fragment in fragments { if let value = fragment[keyPath: path] { return value } }
            return nil
        }
        let origin = SourceLocation(file: files.first ?? "", position: SourcePosition(line: 1, column: 1))
        let environment = first(\.environment)?.value ?? .production
        var timeZone = PolicyTimeZone.device
        if let zone = first(\.timezone), zone.value != "device", let named = TimeZoneNames.zone(named: zone.value) { timeZone = .named(named) }
        // Every file's unknown zone is said, also where it conflicts with another file's (a typo in the second file was
        // reported as a conflict alone).
        for fragment in fragments {
            guard let zone = fragment.timezone, zone.value != "device", TimeZoneNames.zone(named: zone.value) == nil else { continue }
            let position = SourcePosition(line: zone.location.line, column: zone.location.column)
            diagnostics.append(.unknownTimeZone(zone.value, file: zone.location.file, range: SourceRange(at: position)))
        }
        // The first file's `version:`: where a finding about the whole policy stands, and what a report of changes names
        // for a policy-wide setting left at its default.
        let firstVersion = fragments.first { $0.file == files.first }?.versionKey
        policyStart = firstVersion?.location
        if let setting = first(\.environment) { writtenSettings["environment"] = Located(setting.value.rawValue, at: setting.location) }
        if let setting = first(\.timezone) { writtenSettings["timezone"] = setting }
        let durations: [(String, Located<RuleDuration>?)] = [
            ("session_timeout", first(\.sessionTimeout)), ("fullscreen_timeout", first(\.fullscreenTimeout)), ("load_timeout", first(\.loadTimeout)),
        ]
        for case let (key, setting?) in durations { writtenSettings[key] = Located(setting.value.description, at: setting.location) }
        let defaults = first(\.defaults) ?? PlacementFields()
        // A merge key at a file's top level or among its placements may have brought any placement's pacing, and a
        // setting indented with no-break spaces may have been any placement's.
        let settingsMayBeLost = fragments.contains(where: \.placementSettingsMayBeLost)
        for entry in defaults.written {
            defaultsWritten.insert(entry.value.location)
            if case .windows(let caps) = entry.value.value { defaultsWritten.formUnion(caps.map(\.location)) }
        }

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
        let placementIDs = placements.map(\.id)
        let known = Set(placementIDs)

        var groups: [PlacementGroup] = []
        var seenGroups: [String: SourceLocation] = [:]
        // A group named where placements belong is said to be one.
        let groupIDs = Set(fragments.flatMap { $0.groups.map(\.group.id) })
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
                for member in group.placements where !known.contains(member.value) && seenPlacements[member.value] == nil {
                    reportUnknown(member, in: "group \"\(group.id)\"", known: placementIDs, placements: placements, fragments: fragments, isGroup: groupIDs.contains(member.value))
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

        var attributes: [AttributeDeclaration] = []
        var seenAttributes: [String: SourceLocation] = [:]
        let brokenAttributes = Set(fragments.flatMap(\.brokenAttributes))
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

        var rules: [CustomRule] = []
        var seenRules: [String: SourceLocation] = [:]
        var suggestionsLeft = ExpressionCompiler.maxSuggestions
        var rulesLeftOut = 0
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
                for member in fields.named where seenPlacements[member.value] == nil {
                    reportUnknown(
                        member, in: name, known: placementIDs, placements: placements, fragments: fragments,
                        isGroup: groupIDs.contains(member.value), allowsEvery: true)
                }
                guard let when = fields.when, let node = fields.whenNode else { continue }
                let condition = compileCondition(
                    when, node: node, file: fragment.file, attributes: attributes, broken: brokenAttributes, suggestionsLeft: &suggestionsLeft)
                guard kept, let id = fields.id else { continue }
                valueLocations[PolicyLoad.valueKey("rule", id.value, "message")] = fields.messageAt
                rules.append(CustomRule(
                    id: id.value, location: id.location, deny: fields.deny, when: when,
                    message: fields.message ?? CustomRule.defaultMessage(id: id.value), condition: condition))
            }
        }

        // The limits an app's loader of compiled policies applies: a policy lint passes always loads.
        countLimit(placements, \.location, PolicyLimits.maxPlacements, "placements")
        countLimit(groups, \.location, PolicyLimits.maxGroups, "groups")
        countLimit(attributes, \.location, PolicyLimits.maxAttributes, "attributes")
        countLimit(rules, \.location, PolicyLimits.maxRules, "rules")

        if placements.isEmpty && seenPlacements.isEmpty && !fragments.contains(where: \.placementsOutsideBlock) {
            // At the first file's `version:`, where `# adrules:disable-next-line policy/empty` above it can hide it.
            diagnostics.append(.emptyPolicy(file: files.first ?? "", range: firstVersion?.range ?? .fileStart))
        }

        let fullscreenTimeout = first(\.fullscreenTimeout) ?? Located(.minutes(30), at: origin)
        return Policy(
            files: files, environment: environment, timeZone: timeZone,
            sessionTimeout: first(\.sessionTimeout)?.value ?? .minutes(30), fullscreenTimeout: fullscreenTimeout,
            loadTimeout: first(\.loadTimeout)?.value ?? .seconds(60), placements: placements, groups: groups,
            attributes: attributes, rules: rules)
    }

    /// A group member or `deny` entry naming no placement: a finding, up to a report's worth per file, then counted.
    /// - Parameters:
    ///   - isGroup: the name is a group's.
    ///   - allowsEvery: `"*"` may stand there (a rule's `deny`), for a name like `all`.
    ///   - placements, fragments: where the placements are defined and named, for a name that may be a renamed id's.
    private mutating func reportUnknown(
        _ member: Located<String>, in context: String, known: [String], placements: [Placement], fragments: [PolicyFragment], isGroup: Bool = false,
        allowsEvery: Bool = false
    ) {
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
                let at = placements.first(where: { $0.id == closest })?.location
            else { return nil }
            return (closest, at, count)
        }
        diagnostics.append(.unknownPlacement(
            member.value, in: context, known: known, closest: closest, isGroup: isGroup, allowsEvery: allowsEvery, renamed: renamed, file: file,
            range: SourceRange(at: SourcePosition(line: member.location.line, column: member.location.column))))
    }

    /// How many group members and `deny` entries name each id.
    private static func references(in fragments: [PolicyFragment]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for fragment in fragments {
            for fields in fragment.groups { for member in fields.group.placements { counts[member.value, default: 0] += 1 } }
            for fields in fragment.rules { for member in fields.named { counts[member.value, default: 0] += 1 } }
        }
        return counts
    }

    /// One finding, at the first entry past the limit, when a table holds more entries than a policy may.
    private mutating func countLimit<Entry>(_ entries: [Entry], _ location: KeyPath<Entry, SourceLocation>, _ limit: Int, _ kind: String) {
        guard entries.count > limit else { return }
        let at = entries[limit][keyPath: location]
        diagnostics.append(.tooManyEntries(
            entries.count, kind, limit: limit, file: at.file, range: SourceRange(at: SourcePosition(line: at.line, column: at.column))))
    }

    /// A placement's settings: what it writes, else what `defaults:` writes (an app_open-only block's keys only
    /// for app_open placements), else the built-in default.
    private func resolve(_ named: PolicyFragment.NamedPlacement, format: Located<AdFormat>, defaults: PlacementFields) -> Placement {
        var placement = Placement(id: named.id.value, location: named.id.location, format: format)
        for entry in defaults.written where entry.setting.block?.isAppOpenOnly != true || format.value == .appOpen {
            entry.setting.set(entry.value, in: &placement)
        }
        for entry in named.fields.written { entry.setting.set(entry.value, in: &placement) }
        return placement
    }
}
