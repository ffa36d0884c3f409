/// Turns a policy into its compiled document, with file paths interned and made relative.
struct CompiledPolicyWriter {
    let policy: Policy
    var files: [String] = []
    /// By the path's bytes: `String` compares canonically equivalent texts equal, and a directory may hold `café.yaml`
    /// twice, composed and decomposed, as two files.
    var fileIndex: [[UInt8]: Int] = [:]
    /// The file of the last location written and its index: most locations are in the file of the one before, and
    /// hold the same shared name (compared by identity: a path of kilobytes is not compared byte by byte each time).
    private var lastFile: (file: SourceFile, index: Int)?

    init(policy: Policy, relativePath: (String) -> String) {
        self.policy = policy
        for file in policy.files {
            let key = Array(file.utf8)
            if fileIndex[key] == nil {
                fileIndex[key] = files.count
                files.append(relativePath(file))
            }
        }
    }

    /// The file index of a location; a location in a file the policy does not list (none should) maps to file 0.
    mutating func at(_ location: SourceLocation) -> AtRecord {
        let file = location.sourceFile
        let index: Int
        if let lastFile, lastFile.file === file {
            index = lastFile.index
        } else {
            index = fileIndex[Array(file.path.utf8)] ?? 0
            lastFile = (file, index)
        }
        return AtRecord(file: index, line: location.line, column: location.column)
    }

    mutating func located<T>(_ value: Located<T>) -> LocatedRecord<T> { LocatedRecord(value: value.value, at: at(value.location)) }
    mutating func located(_ value: Located<RuleDuration>) -> LocatedRecord<Int64> {
        LocatedRecord(value: value.value.milliseconds, at: at(value.location))
    }
    mutating func windows(_ caps: [Located<WindowCap>]) -> [LocatedRecord<WindowRecord>] {
        var records: [LocatedRecord<WindowRecord>] = []
        records.reserveCapacity(caps.count)
        for cap in caps {
            records.append(LocatedRecord(value: WindowRecord(max: cap.value.max, window: cap.value.window.milliseconds), at: at(cap.location)))
        }
        return records
    }

    /// The document's bytes: its keys sorted, no white space. Placements are made into records and written
    /// one at a time, so a large policy is not held a second time as records.
    /// - Throws: ``CompiledPolicyError`` for a number JSON cannot hold (NaN or an infinity), with its path.
    /// - Parameter maxBytes: once the document is longer, no more placements or groups are written (the caller
    ///   refuses it for its size).
    mutating func document(sourceDigest: String, generator: String, maxBytes: Int = .max) throws(CompiledPolicyError) -> [UInt8] {
        var json = JSONWriter()
        try json.object { json throws(CompiledPolicyError) in
            json.key("attributes")
            try json.array { json throws(CompiledPolicyError) in
                for (i, a) in policy.attributes.enumerated() {
                    let record = AttributeRecord(name: a.name, at: self.at(a.location), type: a.type, default: a.defaultValue.map(ValueRecord.init))
                    try Self.writeFinite(record.write, to: &json, at: "attributes[\(i)].default")
                }
            }
            json.key("environment")
            json.string(policy.environment.rawValue)
            json.key("files")
            json.array { json in
                for file in files.isEmpty ? ["policy.yaml"] : files { json.string(file) }
            }
            json.key("format")
            json.string(CompiledPolicyRecord.formatName)
            json.key("fullscreen_timeout")
            located(policy.fullscreenTimeout).write(to: &json) { json, ms in json.int(ms) }
            json.key("generator")
            json.string(generator)
            json.key("groups")
            json.array { json in
                for g in policy.groups where json.bytes.count <= maxBytes { group(g).write(to: &json) }
            }
            json.key("load_timeout")
            json.int(policy.loadTimeout.milliseconds)
            json.key("placements")
            json.array { json in
                for p in policy.placements where json.bytes.count <= maxBytes { placement(p).write(to: &json) }
            }
            json.key("rules")
            try json.array { json throws(CompiledPolicyError) in
                for (i, r) in policy.rules.enumerated() {
                    guard let record = rule(r) else { continue }
                    try Self.writeFinite(record.write, to: &json, at: "rules[\(i)].condition")
                }
            }
            json.key("session_timeout")
            json.int(policy.sessionTimeout.milliseconds)
            json.key("source_digest")
            json.string(sourceDigest)
            json.key("timezone")
            switch policy.timeZone {
            case .device: json.string("device")
            // `timezone: UTC` is written back as UTC, not as Foundation's "GMT" for it.
            case .named(let zone): json.string(TimeZoneNames.name(of: zone))
            }
            json.key("version")
            json.int(CompiledPolicyRecord.currentVersion)
        }
        return json.bytes
    }

    /// Writes a record that may hold numbers: a NaN or an infinity, which JSON cannot hold, is reported at `path`.
    static func writeFinite(
        _ write: (inout JSONWriter) throws(JSONWriter.NonFiniteNumber) -> Void, to json: inout JSONWriter, at path: @autoclosure () -> String
    ) throws(CompiledPolicyError) {
        do throws(JSONWriter.NonFiniteNumber) {
            try write(&json)
        } catch {
            throw CompiledPolicyError(path: path(), "\(error.value) cannot be written: JSON has no NaN or infinity")
        }
    }

    /// A placement's record, its settings in key order (the order they are written in).
    mutating func placement(_ p: Placement) -> PlacementRecord {
        var settings: [SettingRecord] = []
        settings.reserveCapacity(SettingTable.placement.keyOrder.count)
        for setting in SettingTable.placement.keyOrder {
            if let value = setting.access.value(in: p) { settings.append(record(setting, value)) }
        }
        return PlacementRecord(id: p.id, at: at(p.location), settings: settings)
    }

    /// A group's record, its settings in key order.
    mutating func group(_ g: PlacementGroup) -> GroupRecord {
        var settings: [SettingRecord] = []
        for setting in SettingTable.group.keyOrder {
            if let value = setting.groupAccess?.value(in: g) { settings.append(record(setting, value)) }
        }
        var members: [LocatedRecord<String>] = []
        members.reserveCapacity(g.placements.count)
        for member in g.placements { members.append(located(member)) }
        return GroupRecord(id: g.id, at: at(g.location), placements: members, settings: settings)
    }

    /// One setting's value as the document writes it.
    mutating func record(_ setting: PlacementSetting, _ value: Located<SettingValue>) -> SettingRecord {
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
    mutating func rule(_ r: CustomRule) -> RuleRecord? {
        guard let condition = r.condition else { return nil }
        var deny: [LocatedRecord<String>]?
        if let members = r.deny {
            deny = []
            for member in members { deny?.append(located(member)) }
        }
        return RuleRecord(
            id: r.id, at: at(r.location), deny: deny, when: located(r.when), message: r.message, condition: ExpressionRecord(condition))
    }
}
