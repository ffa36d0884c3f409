import AdRules
import AdRulesYAML
import Foundation

/// Merges the fragments of a policy's files into one `Policy`, reporting conflicts and dangling names.
struct PolicyAssembler {
    private(set) var diagnostics: [Diagnostic] = []
    /// Placement ids whose blocks had errors; semantic lint leaves them alone.
    private(set) var placementsWithErrors: Set<String> = []

    /// Builds the policy; each fragment's placements are dropped as soon as they are resolved, so a large
    /// policy is never held twice (as written and as resolved) while its tables are built and linted.
    mutating func assemble(_ written: consuming [PolicyFragment], files: [String]) -> Policy {
        var fragments = consume written
        var firstSetting: [String: PolicyFragment.Setting] = [:]
        for fragment in fragments {
            for key in RuleFileKeys.sharedSettings {
                guard let setting = fragment.settings[key] else { continue }
                if let first = firstSetting[key] {
                    if first.canonical != setting.canonical {
                        diagnostics.append(.conflictingSetting(
                            key, value: setting.canonical, other: first.canonical, file: setting.location.file,
                            range: setting.range, first: first.location))
                    }
                } else {
                    firstSetting[key] = setting
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
        if let zone = first(\.timezone), zone.value != "device" {
            if let named = TimeZoneNames.zone(named: zone.value) {
                timeZone = .named(named)
            } else {
                let position = SourcePosition(line: zone.location.line, column: zone.location.column)
                diagnostics.append(.unknownTimeZone(zone.value, file: zone.location.file, range: SourceRange(at: position)))
            }
        }
        let defaults = first(\.defaults) ?? PlacementFields()

        var placements: [Placement] = []
        placements.reserveCapacity(fragments.reduce(0) { $0 + $1.placements.count })
        var seenPlacements: [String: SourceLocation] = [:]
        for index in fragments.indices {
            let fragment = (file: fragments[index].file, placements: fragments[index].placements)
            fragments[index].placements = []
            for named in fragment.placements {
                if let firstAt = seenPlacements[named.id.value] {
                    diagnostics.append(.duplicateID("placement", id: named.id.value, file: fragment.file, range: named.range, first: firstAt))
                    continue
                }
                seenPlacements[named.id.value] = named.id.location
                if named.fields.hadErrors || defaults.hadErrors { placementsWithErrors.insert(named.id.value) }
                guard let format = named.fields.format else { continue }
                for (key, range) in [("launch", named.fields.launchKey), ("resume", named.fields.resumeKey)] {
                    if let range, format.value != .appOpen {
                        diagnostics.append(.formatKey(key, format: format.value, file: fragment.file, range: range))
                    }
                }
                placements.append(resolve(named, format: format, defaults: defaults))
            }
        }
        let placementIDs = placements.map(\.id)
        let known = Set(placementIDs)

        var groups: [PlacementGroup] = []
        var seenGroups: [String: SourceLocation] = [:]
        for fragment in fragments {
            for group in fragment.groups {
                if let firstAt = seenGroups[group.id.value] {
                    diagnostics.append(.duplicateID("group", id: group.id.value, file: fragment.file, range: group.range, first: firstAt))
                    continue
                }
                seenGroups[group.id.value] = group.id.location
                for member in group.placements where !known.contains(member.value) && seenPlacements[member.value] == nil {
                    diagnostics.append(.unknownPlacement(
                        member.value, in: "group \"\(group.id.value)\"", known: placementIDs, file: member.location.file,
                        range: SourceRange(at: SourcePosition(line: member.location.line, column: member.location.column))))
                }
                groups.append(PlacementGroup(
                    id: group.id.value, location: group.id.location, placements: group.placements,
                    minInterval: group.block.minInterval, dailyCap: group.block.dailyCap, hourlyCap: group.block.hourlyCap,
                    sessionCap: group.block.sessionCap, caps: group.block.caps ?? []))
            }
        }

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
            }
        }

        var rules: [CustomRule] = []
        var seenRules: [String: SourceLocation] = [:]
        for fragment in fragments {
            for fields in fragment.rules {
                if let firstAt = seenRules[fields.id.value] {
                    let position = SourcePosition(line: fields.id.location.line, column: fields.id.location.column)
                    diagnostics.append(.duplicateID("rule", id: fields.id.value, file: fragment.file, range: SourceRange(at: position), first: firstAt))
                    continue
                }
                seenRules[fields.id.value] = fields.id.location
                for member in fields.deny ?? [] where seenPlacements[member.value] == nil {
                    diagnostics.append(.unknownPlacement(
                        member.value, in: "rule \"\(fields.id.value)\"", known: placementIDs, file: member.location.file,
                        range: SourceRange(at: SourcePosition(line: member.location.line, column: member.location.column))))
                }
                guard let when = fields.when, let node = fields.whenNode else { continue }
                var rule = CustomRule(
                    id: fields.id.value, location: fields.id.location, deny: fields.deny, when: when,
                    message: fields.message ?? "denied by rule \(fields.id.value)", condition: nil)
                switch ExpressionCompiler.compile(when.value, attributes: attributes) {
                case .success(let compiled): rule.condition = compiled
                case .failure(let findings):
                    for finding in findings {
                        diagnostics.append(.expression(finding, file: fragment.file, position: Self.position(of: finding.offset, in: node)))
                    }
                }
                rules.append(rule)
            }
        }

        if placements.isEmpty && seenPlacements.isEmpty {
            diagnostics.append(.emptyPolicy(file: files.first ?? "", range: .fileStart))
        }

        let fullscreenTimeout = first(\.fullscreenTimeout) ?? Located(.minutes(30), at: origin)
        return Policy(
            files: files, environment: environment, timeZone: timeZone,
            sessionTimeout: first(\.sessionTimeout)?.value ?? .minutes(30), fullscreenTimeout: fullscreenTimeout,
            loadTimeout: first(\.loadTimeout)?.value ?? .seconds(60), placements: placements, groups: groups,
            attributes: attributes, rules: rules)
    }

    /// The file position of a character offset inside a `when` scalar.
    static func position(of offset: Int, in node: YAMLNode) -> SourcePosition {
        let start = node.range.start
        guard let scalar = node.scalar, node.range.end.line == start.line else { return start }
        switch scalar.style {
        case .plain: return SourcePosition(line: start.line, column: start.column + offset)
        case .singleQuoted, .doubleQuoted: return SourcePosition(line: start.line, column: start.column + 1 + offset)
        case .literal, .folded: return start
        }
    }

    private func resolve(_ named: PolicyFragment.NamedPlacement, format: Located<AdFormat>, defaults d: PlacementFields) -> Placement {
        // Written out rather than through key paths: this runs once per placement of a large policy.
        let f = named.fields
        let at = named.id.location
        let isAppOpen = format.value == .appOpen
        return Placement(
            id: named.id.value, location: at, format: format, adUnit: f.adUnit,
            enabled: f.enabled ?? d.enabled ?? Located(true, at: at),
            excludePremium: f.excludePremium ?? d.excludePremium ?? Located(true, at: at),
            blockDuringFullscreen: f.blockDuringFullscreen ?? d.blockDuringFullscreen ?? Located(true, at: at),
            minInterval: f.minInterval ?? d.minInterval ?? Located(.zero, at: at),
            dailyCap: f.dailyCap ?? d.dailyCap, hourlyCap: f.hourlyCap ?? d.hourlyCap, sessionCap: f.sessionCap ?? d.sessionCap,
            caps: f.caps ?? d.caps ?? [], maxAdAge: f.maxAdAge ?? d.maxAdAge ?? Located(.hours(1), at: at),
            everyNActions: f.everyNActions ?? d.everyNActions,
            requireUserChoice: f.requireUserChoice ?? d.requireUserChoice ?? Located(format.value == .rewarded, at: at),
            showOnFirstLoad: f.showOnFirstLoad ?? (isAppOpen ? d.showOnFirstLoad : nil) ?? Located(true, at: at),
            launchMaxWait: f.launchMaxWait ?? (isAppOpen ? d.launchMaxWait : nil),
            showIfReady: f.showIfReady ?? (isAppOpen ? d.showIfReady : nil) ?? Located(true, at: at),
            allowDeferred: f.allowDeferred ?? (isAppOpen ? d.allowDeferred : nil) ?? Located(false, at: at),
            resumeMaxDelay: f.resumeMaxDelay ?? (isAppOpen ? d.resumeMaxDelay : nil) ?? Located(.seconds(3), at: at),
            graceFirstSessions: f.graceFirstSessions ?? d.graceFirstSessions ?? Located(0, at: at),
            graceAfterInstall: f.graceAfterInstall ?? d.graceAfterInstall ?? Located(.zero, at: at),
            graceAfterSessionStart: f.graceAfterSessionStart ?? d.graceAfterSessionStart ?? Located(.zero, at: at))
    }
}
