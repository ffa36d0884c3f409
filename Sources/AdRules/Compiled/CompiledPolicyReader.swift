import Foundation

/// Checks a decoded compiled document value by value and builds the policy from it.
///
/// Every check names the path of the bad value; the limits match what the rule-file loader accepts.
struct CompiledPolicyReader {
    static let maxFiles = 1000
    static let maxPlacements = 100_000
    static let maxGroups = 10_000
    static let maxRules = 10_000
    static let maxAttributes = 1000
    static let maxText = 4096
    static let maxLine = 100_000_000
    static let maxDuration = RuleDuration.days(366).milliseconds

    let record: CompiledPolicyRecord

    init(_ record: CompiledPolicyRecord) { self.record = record }

    func policy() throws(CompiledPolicyError) -> Policy {
        guard record.format == CompiledPolicyRecord.formatName else {
            throw CompiledPolicyError(path: "format", "expected \"\(CompiledPolicyRecord.formatName)\", found \"\(record.format)\"")
        }
        guard record.version == CompiledPolicyRecord.currentVersion else {
            throw CompiledPolicyError(
                path: "version",
                "version \(record.version) is not supported by this runtime (it reads version \(CompiledPolicyRecord.currentVersion)): compile with a matching adrules")
        }
        try count(record.files.count, 1...Self.maxFiles, "files")
        for (i, file) in record.files.enumerated() { try text(file, "files[\(i)]") }
        // One shared name per file: every location of the policy refers to it.
        let files = record.files.map(SourceFile.init)
        let timeZone: PolicyTimeZone
        if record.timezone == "device" {
            timeZone = .device
        } else if record.timezone.utf8.count <= 64, !record.timezone.isEmpty, let zone = TimeZone(identifier: record.timezone) {
            timeZone = .named(zone)
        } else {
            throw CompiledPolicyError(path: "timezone", "unknown time zone \"\(record.timezone)\"")
        }
        try count(record.placements.count, 0...Self.maxPlacements, "placements")
        try count(record.groups.count, 0...Self.maxGroups, "groups")
        try count(record.rules.count, 0...Self.maxRules, "rules")
        try count(record.attributes.count, 0...Self.maxAttributes, "attributes")

        var placements: [Placement] = []
        var ids = Set<String>()
        for (i, p) in record.placements.enumerated() {
            let placement = try self.placement(p, path: "placements[\(i)]", files: files)
            guard ids.insert(placement.id).inserted else {
                throw CompiledPolicyError(path: "placements[\(i)].id", "placement \"\(placement.id)\" is defined twice")
            }
            placements.append(placement)
        }
        var groups: [PlacementGroup] = []
        var groupIDs = Set<String>()
        for (i, g) in record.groups.enumerated() {
            let path = "groups[\(i)]"
            try id(g.id, path + ".id", lowercaseOnly: false)
            guard groupIDs.insert(g.id).inserted else { throw CompiledPolicyError(path: path + ".id", "group \"\(g.id)\" is defined twice") }
            try count(g.placements.count, 1...Self.maxPlacements, path + ".placements")
            let members = try g.placements.enumerated().map { (j, member) throws(CompiledPolicyError) -> Located<String> in
                guard ids.contains(member.value) else {
                    throw CompiledPolicyError(path: "\(path).placements[\(j)]", "unknown placement \"\(ControlCharacters.escaped(member.value))\"")
                }
                return Located(member.value, at: try location(member.at, "\(path).placements[\(j)]", files))
            }
            var group = PlacementGroup(id: g.id, location: try location(g.at, path + ".at", files), placements: members)
            for setting in try settings(g.settings, path: path, files: files) { setting.setting.groupAccess?.set(setting.value, in: &group) }
            groups.append(group)
        }
        var attributes: [AttributeDeclaration] = []
        var declared: [String: AttributeDeclaration] = [:]
        for (i, a) in record.attributes.enumerated() {
            let path = "attributes[\(i)]"
            try text(a.name, path + ".name")
            guard !a.name.isEmpty, declared[a.name] == nil, Builtin(rawValue: a.name) == nil else {
                throw CompiledPolicyError(path: path + ".name", "attribute \"\(a.name)\" is empty, repeated or a built-in name")
            }
            if let value = a.default, value.value.type != a.type {
                throw CompiledPolicyError(path: path + ".default", "the default is \(value.value.type.rawValue), not \(a.type.rawValue)")
            }
            let declaration = AttributeDeclaration(
                name: a.name, location: try location(a.at, path + ".at", files), type: a.type, defaultValue: a.default?.value)
            declared[a.name] = declaration
            attributes.append(declaration)
        }
        var rules: [CustomRule] = []
        var ruleIDs = Set<String>()
        for (i, r) in record.rules.enumerated() {
            let path = "rules[\(i)]"
            try id(r.id, path + ".id", lowercaseOnly: true)
            guard ruleIDs.insert(r.id).inserted else { throw CompiledPolicyError(path: path + ".id", "rule \"\(r.id)\" is defined twice") }
            try text(r.message, path + ".message")
            try text(r.when.value, path + ".when")
            let deny = try r.deny.map { list throws(CompiledPolicyError) -> [Located<String>] in
                try list.enumerated().map { (j, member) throws(CompiledPolicyError) -> Located<String> in
                    guard ids.contains(member.value) else {
                        throw CompiledPolicyError(path: "\(path).deny[\(j)]", "unknown placement \"\(ControlCharacters.escaped(member.value))\"")
                    }
                    return Located(member.value, at: try location(member.at, "\(path).deny[\(j)]", files))
                }
            }
            let condition: CompiledExpression
            do {
                condition = try r.condition.compiled(attributes: declared)
            } catch {
                throw CompiledPolicyError(path: path + ".condition", error.reason)
            }
            rules.append(CustomRule(
                id: r.id, location: try location(r.at, path + ".at", files), deny: deny,
                when: Located(r.when.value, at: try location(r.when.at, path + ".when", files)), message: r.message,
                condition: condition))
        }
        return Policy(
            files: record.files, environment: record.environment, timeZone: timeZone,
            sessionTimeout: try plainDuration(record.sessionTimeout, "session_timeout"),
            fullscreenTimeout: try duration(record.fullscreenTimeout, "fullscreen_timeout", files),
            loadTimeout: try plainDuration(record.loadTimeout, "load_timeout"), placements: placements, groups: groups,
            attributes: attributes, rules: rules)
    }

    func placement(_ p: PlacementRecord, path: String, files: [SourceFile]) throws(CompiledPolicyError) -> Placement {
        try id(p.id, path + ".id", lowercaseOnly: false)
        for record in p.settings {
            if case .text(let v) = record.value { try text(v.value, "\(path).\(record.setting.key)") }
        }
        let at = try location(p.at, path + ".at", files)
        let values = try settings(p.settings, path: path, files: files)
        guard let first = values.first, case .format(let format) = first.value.value else {
            throw CompiledPolicyError(path: path + ".format", "\"format\" is missing")
        }
        var placement = Placement(id: p.id, location: at, format: Located(format, at: first.value.location))
        for (setting, value) in values.dropFirst() { setting.access.set(value, in: &placement) }
        return placement
    }

    /// Checks the settings of a placement or group, in their order, each at `path.key`.
    func settings(
        _ records: [SettingRecord], path: String, files: [SourceFile]
    ) throws(CompiledPolicyError) -> [(setting: PlacementSetting, value: Located<SettingValue>)] {
        try records.map { record throws(CompiledPolicyError) in
            let path = "\(path).\(record.setting.key)"
            switch record.value {
            case .flag(let v): return (record.setting, Located(.flag(v.value), at: try location(v.at, path, files)))
            case .count(let v):
                let minimum = if case .count(let minimum) = record.setting.kind { minimum } else { 0 }
                return (record.setting, try cap(v, path, files, minimum: minimum).map(SettingValue.count))
            case .duration(let v): return (record.setting, try duration(v, path, files).map(SettingValue.duration))
            case .format(let v): return (record.setting, Located(.format(v.value), at: try location(v.at, path, files)))
            case .text(let v): return (record.setting, Located(.text(v.value), at: try location(v.at, path, files)))
            case .windows(let v):
                let caps = try windows(v, path, files)
                return (record.setting, Located(.windows(caps), at: caps.first?.location ?? .unknown))
            }
        }
    }

    // MARK: value checks

    func count(_ n: Int, _ range: ClosedRange<Int>, _ path: String) throws(CompiledPolicyError) {
        guard range.contains(n) else { throw CompiledPolicyError(path: path, "\(n) entries; expected \(range.lowerBound)-\(range.upperBound)") }
    }

    func text(_ s: String, _ path: String) throws(CompiledPolicyError) {
        guard s.utf8.count <= Self.maxText * 4, !ControlCharacters.contains(in: s) else {
            throw CompiledPolicyError(path: path, "the text is longer than \(Self.maxText) characters or holds control characters")
        }
    }

    func id(_ s: String, _ path: String, lowercaseOnly: Bool) throws(CompiledPolicyError) {
        guard PolicyIDs.isValid(s, lowercaseOnly: lowercaseOnly) else {
            throw CompiledPolicyError(
                path: path,
                "\"\(ControlCharacters.escaped(String(s.prefix(80))))\" is not a valid id (1-64 characters of \(PolicyIDs.allowed(lowercaseOnly: lowercaseOnly)))")
        }
    }

    func location(_ at: AtRecord, _ path: String, _ files: [SourceFile]) throws(CompiledPolicyError) -> SourceLocation {
        guard files.indices.contains(at.file), (1...Self.maxLine).contains(at.line), (1...Self.maxLine).contains(at.column) else {
            throw CompiledPolicyError(path: path, "location [\(at.file), \(at.line), \(at.column)] is outside the files and lines of the policy")
        }
        return SourceLocation(file: files[at.file], line: at.line, column: at.column)
    }

    func plainDuration(_ ms: Int64, _ path: String) throws(CompiledPolicyError) -> RuleDuration {
        guard (0...Self.maxDuration).contains(ms) else {
            throw CompiledPolicyError(path: path, "\(ms) ms is not a duration between 0 and 366d")
        }
        return RuleDuration(milliseconds: ms)
    }

    func duration(_ v: LocatedRecord<Int64>, _ path: String, _ files: [SourceFile]) throws(CompiledPolicyError) -> Located<RuleDuration> {
        Located(try plainDuration(v.value, path), at: try location(v.at, path, files))
    }

    func cap(_ v: LocatedRecord<Int>, _ path: String, _ files: [SourceFile], minimum: Int = 0) throws(CompiledPolicyError) -> Located<Int> {
        guard v.value >= minimum else { throw CompiledPolicyError(path: path, "\(v.value) is below \(minimum)") }
        return Located(v.value, at: try location(v.at, path, files))
    }

    func windows(_ caps: [LocatedRecord<WindowRecord>], _ path: String, _ files: [SourceFile]) throws(CompiledPolicyError) -> [Located<WindowCap>] {
        try count(caps.count, 0...1000, path)
        return try caps.enumerated().map { (i, cap) throws(CompiledPolicyError) -> Located<WindowCap> in
            guard cap.value.max >= 0 else { throw CompiledPolicyError(path: "\(path)[\(i)].max", "\(cap.value.max) is below 0") }
            guard cap.value.window > 0 else { throw CompiledPolicyError(path: "\(path)[\(i)].window", "a window must be longer than 0") }
            let window = try plainDuration(cap.value.window, "\(path)[\(i)].window")
            return Located(WindowCap(max: cap.value.max, window: window), at: try location(cap.at, "\(path)[\(i)]", files))
        }
    }
}
