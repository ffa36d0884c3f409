/// Turns a policy into its compiled document, with file paths interned and made relative.
struct CompiledPolicyWriter {
    let policy: Policy
    var files: [String] = []
    var fileIndex: [String: Int] = [:]

    init(policy: Policy, relativePath: (String) -> String) {
        self.policy = policy
        for file in policy.files {
            let relative = relativePath(file)
            if fileIndex[file] == nil {
                fileIndex[file] = files.count
                files.append(relative)
            }
        }
    }

    /// The file index of a location; a location in a file the policy does not list (none should) maps to file 0.
    func at(_ location: SourceLocation) -> AtRecord {
        AtRecord(file: fileIndex[location.file] ?? 0, line: location.line, column: location.column)
    }

    func located<T>(_ value: Located<T>) -> LocatedRecord<T> { LocatedRecord(value: value.value, at: at(value.location)) }
    func located(_ value: Located<RuleDuration>) -> LocatedRecord<Int64> {
        LocatedRecord(value: value.value.milliseconds, at: at(value.location))
    }
    func windows(_ caps: [Located<WindowCap>]) -> [LocatedRecord<WindowRecord>] {
        caps.map { LocatedRecord(value: WindowRecord(max: $0.value.max, window: $0.value.window.milliseconds), at: at($0.location)) }
    }

    func record(sourceDigest: String, generator: String) -> CompiledPolicyRecord {
        let zone: String
        switch policy.timeZone {
        case .device: zone = "device"
        case .named(let named): zone = named.identifier
        }
        return CompiledPolicyRecord(
            format: CompiledPolicyRecord.formatName, version: CompiledPolicyRecord.currentVersion, generator: generator,
            sourceDigest: sourceDigest, files: files.isEmpty ? ["policy.yaml"] : files, environment: policy.environment,
            timezone: zone, sessionTimeout: policy.sessionTimeout.milliseconds,
            fullscreenTimeout: located(policy.fullscreenTimeout), loadTimeout: policy.loadTimeout.milliseconds,
            placements: policy.placements.map(placement), groups: policy.groups.map(group),
            attributes: policy.attributes.map { AttributeRecord(name: $0.name, at: at($0.location), type: $0.type, default: $0.defaultValue.map(ValueRecord.init)) },
            rules: policy.rules.compactMap(rule))
    }

    func placement(_ p: Placement) -> PlacementRecord {
        PlacementRecord(
            id: p.id, at: at(p.location), format: located(p.format), adUnit: p.adUnit.map(located),
            enabled: located(p.enabled), excludePremium: located(p.excludePremium),
            blockDuringFullscreen: located(p.blockDuringFullscreen), minInterval: located(p.minInterval),
            dailyCap: p.dailyCap.map(located), hourlyCap: p.hourlyCap.map(located), sessionCap: p.sessionCap.map(located),
            caps: windows(p.caps), maxAdAge: located(p.maxAdAge), everyNActions: p.everyNActions.map(located),
            requireUserChoice: located(p.requireUserChoice), showOnFirstLoad: located(p.showOnFirstLoad),
            launchMaxWait: p.launchMaxWait.map(located), showIfReady: located(p.showIfReady),
            allowDeferred: located(p.allowDeferred), resumeMaxDelay: located(p.resumeMaxDelay),
            graceFirstSessions: located(p.graceFirstSessions), graceAfterInstall: located(p.graceAfterInstall),
            graceAfterSessionStart: located(p.graceAfterSessionStart))
    }

    func group(_ g: PlacementGroup) -> GroupRecord {
        GroupRecord(
            id: g.id, at: at(g.location), placements: g.placements.map(located), minInterval: g.minInterval.map(located),
            dailyCap: g.dailyCap.map(located), hourlyCap: g.hourlyCap.map(located), sessionCap: g.sessionCap.map(located),
            caps: windows(g.caps))
    }

    /// A rule as data; a rule whose condition did not compile never reaches a compiled policy (lint fails first).
    func rule(_ r: CustomRule) -> RuleRecord? {
        guard let condition = r.condition else { return nil }
        return RuleRecord(
            id: r.id, at: at(r.location), deny: r.deny?.map(located), when: located(r.when), message: r.message,
            condition: ExpressionRecord(condition))
    }
}
