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
        PlacementRecord(id: p.id, at: at(p.location), settings: PlacementSetting.allCases.compactMap { setting in
            setting.access.value(in: p).map { record(setting, $0) }
        })
    }

    func group(_ g: PlacementGroup) -> GroupRecord {
        GroupRecord(id: g.id, at: at(g.location), placements: g.placements.map(located), settings: PlacementSetting.groupSettings.compactMap { setting in
            setting.groupAccess?.value(in: g).map { record(setting, $0) }
        })
    }

    /// One setting's value as the document writes it.
    func record(_ setting: PlacementSetting, _ value: Located<SettingValue>) -> SettingRecord {
        let at = at(value.location)
        switch value.value {
        case .flag(let v): return SettingRecord(setting: setting, value: .flag(LocatedRecord(value: v, at: at)))
        case .count(let v): return SettingRecord(setting: setting, value: .count(LocatedRecord(value: v, at: at)))
        case .duration(let v): return SettingRecord(setting: setting, value: .duration(LocatedRecord(value: v.milliseconds, at: at)))
        case .format(let v): return SettingRecord(setting: setting, value: .format(LocatedRecord(value: v, at: at)))
        case .text(let v): return SettingRecord(setting: setting, value: .text(LocatedRecord(value: v, at: at)))
        case .windows(let caps): return SettingRecord(setting: setting, value: .windows(windows(caps)))
        }
    }

    /// A rule as data; a rule whose condition did not compile never reaches a compiled policy (lint fails first).
    func rule(_ r: CustomRule) -> RuleRecord? {
        guard let condition = r.condition else { return nil }
        return RuleRecord(
            id: r.id, at: at(r.location), deny: r.deny?.map(located), when: located(r.when), message: r.message,
            condition: ExpressionRecord(condition))
    }
}
