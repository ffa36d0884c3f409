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
    var droppedUnknownPlacements: [String: Int] = [:]
    var unknownPlacementsBuilt: [String: Int] = [:]
    /// How many group members and `deny` entries name each id: a name several entries share and no entry gives the
    /// placement it resembles points at a placement whose id was renamed. Counted at the first unknown name (most
    /// policies have none, and a load counts nothing for them).
    var placementReferences: [String: Int]?
    /// Placement ids whose blocks, `defaults:` or groups had errors; `pacing/missing` leaves them alone.
    var placementsWithErrors: Set<String> = []
    /// Where the values of `defaults:` are written: a lint finding placed at one of them names the placement it is about.
    private(set) var defaultsWritten: Set<SourceLocation> = []
    /// The policy-wide settings as written (`timezone: UTC`, not the zone Foundation makes of it), with where.
    private(set) var writtenSettings: [String: Located<String>] = [:]
    /// The first file's `version:` (``PolicyLoad/policyStart``).
    private(set) var policyStart: SourceLocation?
    /// Where the values the policy model does not locate are written (``PolicyLoad/valueLocations``).
    var valueLocations: [String: SourceLocation] = [:]

    /// Two files' `defaults` differ: a finding for each setting that differs, at its value in the later file (at that
    /// file's `defaults:` when only the earlier file sets it), with a note at the earlier one. When either block has
    /// an error, that error is a finding of its own and a value it lost is no conflict: only a setting both blocks
    /// read, with different values, is one (none when there is none). `caps` is not such a setting: a list with
    /// a bad entry is read without it, and would differ from the list as meant.
    static func conflictingDefaults(
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
    var closestKnown: [String: String?] = [:]
    /// The ids of placements written out of their place, each told so (``PolicyFragment/misplacedPlacements``).
    var misplaced: Set<String> = []
    /// Placements and groups left out because their id was defined before: ``SemanticLint`` still checks their settings.
    var leftOut: (placements: [Placement], groups: [PlacementGroup]) = ([], [])
    /// How many left-out placements, groups and rules (each kind) are checked: a policy of 100,000 repeats costs what
    /// it did before they were checked, and a file shows 1,000 findings.
    static let maxLeftOut = 1_000

    /// Builds the policy; each fragment's placements are dropped as soon as they are resolved, so a large
    /// policy is never held twice (as written and as resolved) while its tables are built and linted (but for at most
    /// ``maxLeftOut`` placements defined twice, kept for the lint).
    mutating func assemble(_ written: consuming [PolicyFragment], files: [String]) -> Policy {
        var fragments = consume written
        misplaced = Set(fragments.flatMap(\.misplacedPlacements))
        checkSharedSettings(fragments)
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

        let (placements, seenPlacements) = assemblePlacements(&fragments, defaults: defaults, settingsMayBeLost: settingsMayBeLost)
        let names = PlacementNames(
            placements: placements, seen: seenPlacements, groupIDs: Set(fragments.flatMap { $0.groups.map(\.group.id) }))
        let groups = assembleGroups(fragments, names)
        let attributes = assembleAttributes(fragments)
        let rules = assembleRules(fragments, names, attributes: attributes)

        // The limits an app's loader of compiled policies applies: a policy lint passes always loads.
        countLimit(placements, \.location, PolicyLimits.maxPlacements, "placements")
        countLimit(groups, \.location, PolicyLimits.maxGroups, "groups")
        countLimit(attributes, \.location, PolicyLimits.maxAttributes, "attributes")
        countLimit(rules, \.location, PolicyLimits.maxRules, "rules")
        listedPlacementsLimit(groups.lazy.map(\.placements) + rules.lazy.compactMap(\.deny))

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

    /// One finding, at the first entry past the limit, when a table holds more entries than a policy may.
    private mutating func countLimit<Entry>(_ entries: [Entry], _ location: KeyPath<Entry, SourceLocation>, _ limit: Int, _ kind: String) {
        guard entries.count > limit else { return }
        let at = entries[limit][keyPath: location]
        diagnostics.append(.tooManyEntries(
            entries.count, kind, limit: limit, file: at.file, range: SourceRange(at: SourcePosition(line: at.line, column: at.column))))
    }

    /// One finding, at the first placement id past the limit, when the groups' and rules' lists name more placements
    /// in all than a policy's lists may (``PolicyLimits/maxListedPlacements``).
    private mutating func listedPlacementsLimit(_ lists: some Sequence<[Located<String>]>) {
        var listed = 0
        var past: SourceLocation?
        for list in lists {
            if past == nil, listed + list.count > PolicyLimits.maxListedPlacements { past = list[PolicyLimits.maxListedPlacements - listed].location }
            listed += list.count
        }
        guard let at = past else { return }
        diagnostics.append(.tooManyListedPlacementsInAll(listed, file: at.file, range: SourceRange(at: SourcePosition(line: at.line, column: at.column))))
    }

    /// A placement's settings: what it writes, else what `defaults:` writes (an app_open-only block's keys only
    /// for app_open placements), else the built-in default.
    func resolve(_ named: PolicyFragment.NamedPlacement, format: Located<AdFormat>, defaults: PlacementFields) -> Placement {
        var placement = Placement(id: named.id.value, location: named.id.location, format: format)
        for entry in defaults.written where entry.setting.block?.isAppOpenOnly != true || format.value == .appOpen {
            entry.setting.set(entry.value, in: &placement)
        }
        for entry in named.fields.written { entry.setting.set(entry.value, in: &placement) }
        return placement
    }
}
