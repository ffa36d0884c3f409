import Foundation

/// Checks what the records read from a compiled document mean, value by value, and builds the policy from
/// them. (Their types and the lengths of their lists were checked as they were read, and the document's
/// format and version by `Policy(compiled:)`.)
///
/// Every check names the path of the bad value; the limits match what the rule-file loader accepts. The
/// checks below throw with the path inside the value they are handed, and `inside(_:_:)` puts the way to
/// it in front, so that nothing is formatted unless a check fails.
struct CompiledPolicyReader {
    static let maxFiles = PolicyLimits.maxFiles
    static let maxPlacements = PolicyLimits.maxPlacements
    static let maxGroups = PolicyLimits.maxGroups
    static let maxRules = PolicyLimits.maxRules
    static let maxAttributes = PolicyLimits.maxAttributes
    static let maxText = PolicyIDs.maxTextLength
    static let maxLine = 100_000_000
    static let maxDuration = RuleDuration.maximum.milliseconds

    let record: CompiledPolicyRecord

    init(_ record: CompiledPolicyRecord) { self.record = record }

    func policy() throws(CompiledPolicyError) -> Policy {
        var seenFiles = Set<String>(minimumCapacity: record.files.count)
        for (i, file) in record.files.enumerated() {
            try inside("files", i) { () throws(CompiledPolicyError) in
                try text(file)
                // `String` takes two names that differ only in Unicode normalisation for one; they are two files
                // (``CompiledPolicyWriter``), so a name the set has already is compared byte for byte (rarely needed).
                let isNew = seenFiles.insert(file).inserted || !record.files[..<i].contains { $0.utf8.elementsEqual(file.utf8) }
                guard !file.isEmpty, isNew else { throw CompiledPolicyError("a file name is empty or listed twice") }
            }
        }
        if let generator = record.generator { try inside("generator") { () throws(CompiledPolicyError) in try text(generator) } }
        try inside("source_digest") { () throws(CompiledPolicyError) in try text(record.sourceDigest) }
        // One shared name per file: every location of the policy refers to it.
        let files = record.files.map(SourceFile.init)
        let timeZone: PolicyTimeZone
        if record.timezone == "device" {
            timeZone = .device
        } else if let zone = TimeZoneNames.compiledZone(named: record.timezone) {
            // The IANA names a rule file may write, and no others (`GMT+5`, a name with a NUL and more after it).
            timeZone = .named(zone)
        } else {
            throw CompiledPolicyError(path: "timezone", "unknown time zone \(ControlCharacters.quoted(record.timezone))", kind: .unknownTimeZone)
        }

        var placements: [Placement] = []
        placements.reserveCapacity(record.placements.count)
        var ids = Set<String>(minimumCapacity: record.placements.count)
        for (i, p) in record.placements.enumerated() {
            let placement = try inside("placements", i) { () throws(CompiledPolicyError) in try self.placement(p, files: files) }
            guard ids.insert(placement.id).inserted else {
                throw CompiledPolicyError(path: "placements[\(i)].id", "placement \"\(placement.id)\" is defined twice")
            }
            placements.append(placement)
        }
        var groups: [PlacementGroup] = []
        var groupIDs = Set<String>(minimumCapacity: record.groups.count)
        for (i, g) in record.groups.enumerated() {
            let group = try inside("groups", i) { () throws(CompiledPolicyError) in try self.group(g, placements: ids, files: files) }
            guard groupIDs.insert(g.id).inserted else { throw CompiledPolicyError(path: "groups[\(i)].id", "group \"\(g.id)\" is defined twice") }
            groups.append(group)
        }
        var attributes: [AttributeDeclaration] = []
        var declared: [String: AttributeDeclaration] = Dictionary(minimumCapacity: record.attributes.count)
        for (i, a) in record.attributes.enumerated() {
            let declaration = try inside("attributes", i) { () throws(CompiledPolicyError) in
                try self.attribute(a, declared: declared, files: files)
            }
            declared[a.name] = declaration
            attributes.append(declaration)
        }
        var rules: [CustomRule] = []
        var ruleIDs = Set<String>(minimumCapacity: record.rules.count)
        for (i, r) in record.rules.enumerated() {
            let rule = try inside("rules", i) { () throws(CompiledPolicyError) in
                try self.rule(r, placements: ids, attributes: declared, files: files)
            }
            guard ruleIDs.insert(r.id).inserted else { throw CompiledPolicyError(path: "rules[\(i)].id", "rule \"\(r.id)\" is defined twice") }
            rules.append(rule)
        }
        let policy = Policy(
            files: record.files, environment: record.environment, timeZone: timeZone,
            sessionTimeout: try inside("session_timeout") { () throws(CompiledPolicyError) in try plainDuration(record.sessionTimeout) },
            fullscreenTimeout: try inside("fullscreen_timeout") { () throws(CompiledPolicyError) in try duration(record.fullscreenTimeout, files) },
            loadTimeout: try inside("load_timeout") { () throws(CompiledPolicyError) in try plainDuration(record.loadTimeout) },
            placements: placements, groups: groups, attributes: attributes, rules: rules)
        let groupRecords = policy.groupRecords
        if let g = groupRecords.firstPastBound {
            // Not "never edited": a policy compiled by an earlier version right at the bound passes it now (groups keep
            // more for failed shows since 2026-12-05).
            throw CompiledPolicyError(
                path: "groups[\(g)]", policy.groupRecordsMessage(total: groupRecords.total) + " in the rule files, then compile them again")
        }
        return policy
    }

    // MARK: records

    func placement(_ p: PlacementRecord, files: [SourceFile]) throws(CompiledPolicyError) -> Placement {
        try inside("id") { () throws(CompiledPolicyError) in try id(p.id, lowercaseOnly: false) }
        let at = try inside("at") { () throws(CompiledPolicyError) in try location(p.at, files) }
        // The format comes first: a placement starts with its format's built-in defaults.
        guard let record = p.settings.first(where: { $0.setting == .format }), case .format(let format) = record.value else {
            throw CompiledPolicyError.missing("format")
        }
        let formatAt = try inside("format") { () throws(CompiledPolicyError) in try location(format.at, files) }
        var placement = Placement(id: p.id, location: at, format: Located(format.value, at: formatAt))
        for record in p.settings where record.setting != .format {
            let value = try inside(record.setting.key) { () throws(CompiledPolicyError) in try self.value(record, files) }
            record.setting.set(value, in: &placement)
        }
        return placement
    }

    func group(_ g: GroupRecord, placements ids: Set<String>, files: [SourceFile]) throws(CompiledPolicyError) -> PlacementGroup {
        try inside("id") { () throws(CompiledPolicyError) in try id(g.id, lowercaseOnly: false) }
        let members = try inside("placements") { () throws(CompiledPolicyError) in try self.members(g.placements, ids, files) }
        let at = try inside("at") { () throws(CompiledPolicyError) in try location(g.at, files) }
        var group = PlacementGroup(id: g.id, location: at, placements: members)
        for record in g.settings {
            let value = try inside(record.setting.key) { () throws(CompiledPolicyError) in try self.value(record, files) }
            record.setting.groupAccess?.set(value, in: &group)
        }
        return group
    }

    func attribute(
        _ a: AttributeRecord, declared: [String: AttributeDeclaration], files: [SourceFile]
    ) throws(CompiledPolicyError) -> AttributeDeclaration {
        try inside("name") { () throws(CompiledPolicyError) in
            try text(a.name)
            guard PolicyIDs.isValidAttributeName(a.name) else {
                throw CompiledPolicyError(
                    "attribute name \(ControlCharacters.quoted(a.name)) is not valid: \(PolicyIDs.attributeNameProblem(a.name))")
            }
            guard declared[a.name] == nil else { throw CompiledPolicyError("attribute \"\(a.name)\" is declared twice") }
        }
        if let value = a.default, value.value.type != a.type {
            throw CompiledPolicyError(path: "default", "the default is \(value.value.type.rawValue), not \(a.type.rawValue)")
        }
        // The values a rule file can write: a duration from 0s to 366d, texts as every text of a policy.
        switch a.default?.value {
        case .duration(let d)? where !(0...Self.maxDuration).contains(d.milliseconds):
            throw CompiledPolicyError(path: "default", "\(d.milliseconds) ms is not a duration between 0 and 366d")
        case .string(let s)?:
            try inside("default") { () throws(CompiledPolicyError) in try text(s) }
        case .stringList(let list)?:
            try inside("default") { () throws(CompiledPolicyError) in
                for s in list { try text(s) }
            }
        default:
            break
        }
        let at = try inside("at") { () throws(CompiledPolicyError) in try location(a.at, files) }
        return AttributeDeclaration(name: a.name, location: at, type: a.type, defaultValue: a.default?.value)
    }

    func rule(
        _ r: RuleRecord, placements ids: Set<String>, attributes: [String: AttributeDeclaration], files: [SourceFile]
    ) throws(CompiledPolicyError) -> CustomRule {
        try inside("id") { () throws(CompiledPolicyError) in try id(r.id, lowercaseOnly: true) }
        try inside("message") { () throws(CompiledPolicyError) in try text(r.message) }
        let when = try inside("when") { () throws(CompiledPolicyError) in
            // A condition may span lines (`when: |`) and hold tabs: the whitespace its lexer skips.
            try text(r.when.value, allowing: ["\t", "\n", "\r"])
            return Located(r.when.value, at: try location(r.when.at, files))
        }
        let deny = try r.deny.map { list throws(CompiledPolicyError) in
            try inside("deny") { () throws(CompiledPolicyError) in
                // As in a rule file: an empty list would deny nothing (all placements are written as no list).
                guard !list.isEmpty else { throw CompiledPolicyError("an empty list denies nothing: list placement ids, or leave deny out for all") }
                return try members(list, ids, files)
            }
        }
        let condition = try inside("condition") { () throws(CompiledPolicyError) in try r.condition.compiled(attributes: attributes) }
        let at = try inside("at") { () throws(CompiledPolicyError) in try location(r.at, files) }
        return CustomRule(id: r.id, location: at, deny: deny, when: when, message: r.message, condition: condition)
    }

    /// Placement ids as a group or a rule lists them: each must name a placement.
    func members(_ list: [LocatedRecord<String>], _ ids: Set<String>, _ files: [SourceFile]) throws(CompiledPolicyError) -> [Located<String>] {
        var members: [Located<String>] = []
        members.reserveCapacity(list.count)
        for (j, member) in list.enumerated() {
            try inside(j) { () throws(CompiledPolicyError) in
                guard ids.contains(member.value) else {
                    throw CompiledPolicyError("unknown placement \(ControlCharacters.quoted(member.value))")
                }
                members.append(Located(member.value, at: try location(member.at, files)))
            }
        }
        return members
    }

    /// The value of a placement's or group's setting.
    func value(_ record: SettingRecord, _ files: [SourceFile]) throws(CompiledPolicyError) -> Located<SettingValue> {
        switch record.value {
        case .flag(let v): return Located(.flag(v.value), at: try location(v.at, files))
        case .count(let v):
            let minimum = if case .count(let minimum) = record.setting.kind { minimum } else { 0 }
            // A cap above what a history keeps could never be reached: lint refuses it, and so does the runtime.
            if record.setting.isCap, v.value > Facts.maxShowsPerHistory {
                throw CompiledPolicyError("\(v.value) is above \(Facts.maxShowsPerHistory), the largest cap a policy may set").inValue
            }
            return try cap(v, files, minimum: minimum).map(SettingValue.count)
        case .duration(let v): return try duration(v, files).map(SettingValue.duration)
        case .format(let v): return Located(.format(v.value), at: try location(v.at, files))
        case .text(let v):
            try checkingValue { () throws(CompiledPolicyError) in try text(v.value) }
            return Located(.text(v.value), at: try location(v.at, files))
        case .windows(let v):
            let caps = try windows(v, files)
            return Located(.windows(caps), at: caps.first?.location ?? .unknown)
        }
    }

    // MARK: value checks

    /// - Parameter allowed: control characters this text may hold (a condition's line breaks and tabs).
    func text(_ s: String, allowing allowed: Set<Unicode.Scalar> = []) throws(CompiledPolicyError) {
        // Printable ASCII, most texts, holds no control character; only other texts are read scalar by scalar.
        let isPrintableASCII = s.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        let length = isPrintableASCII ? s.utf8.count : s.unicodeScalars.count
        guard length <= Self.maxText else { throw CompiledPolicyError("the text is \(length) characters long; at most \(Self.maxText) fit") }
        guard isPrintableASCII || !ControlCharacters.contains(in: s, except: allowed) else {
            throw CompiledPolicyError("the text holds a control character (a line break, a tab, an escape code or a direction mark)")
        }
    }

    func id(_ s: String, lowercaseOnly: Bool) throws(CompiledPolicyError) {
        guard PolicyIDs.isValid(s, lowercaseOnly: lowercaseOnly) else {
            throw CompiledPolicyError(
                "\(ControlCharacters.quoted(s)) is not a valid id (1-64 characters of \(PolicyIDs.allowed(lowercaseOnly: lowercaseOnly)))")
        }
    }

    func location(_ at: AtRecord, _ files: [SourceFile]) throws(CompiledPolicyError) -> SourceLocation {
        guard files.indices.contains(at.file), (1...Self.maxLine).contains(at.line), (1...Self.maxLine).contains(at.column) else {
            throw CompiledPolicyError("location [\(at.file), \(at.line), \(at.column)] is outside the files and lines of the policy")
        }
        return SourceLocation(file: files[at.file], line: at.line, column: at.column)
    }

    func plainDuration(_ ms: Int64) throws(CompiledPolicyError) -> RuleDuration {
        guard (0...Self.maxDuration).contains(ms) else {
            throw CompiledPolicyError("\(ms) ms is not a duration between 0 and 366d")
        }
        return RuleDuration(milliseconds: ms)
    }

    func duration(_ v: LocatedRecord<Int64>, _ files: [SourceFile]) throws(CompiledPolicyError) -> Located<RuleDuration> {
        Located(try checkingValue { () throws(CompiledPolicyError) in try plainDuration(v.value) }, at: try location(v.at, files))
    }

    func cap(_ v: LocatedRecord<Int>, _ files: [SourceFile], minimum: Int = 0) throws(CompiledPolicyError) -> Located<Int> {
        guard v.value >= minimum else { throw CompiledPolicyError("\(v.value) is below \(minimum)").inValue }
        return Located(v.value, at: try location(v.at, files))
    }

    func windows(_ caps: [LocatedRecord<WindowRecord>], _ files: [SourceFile]) throws(CompiledPolicyError) -> [Located<WindowCap>] {
        var windows: [Located<WindowCap>] = []
        windows.reserveCapacity(caps.count)
        for (i, cap) in caps.enumerated() {
            try inside(i) { () throws(CompiledPolicyError) in
                guard cap.value.max >= 0 else { throw CompiledPolicyError(path: "max", "\(cap.value.max) is below 0") }
                guard cap.value.max <= Facts.maxShowsPerHistory else {
                    throw CompiledPolicyError(path: "max", "\(cap.value.max) is above \(Facts.maxShowsPerHistory), the largest cap a policy may set")
                }
                guard cap.value.window >= 0 else { throw CompiledPolicyError(path: "window", "a window must not be negative") }
                let window = try inside("window") { () throws(CompiledPolicyError) in try plainDuration(cap.value.window) }
                windows.append(Located(WindowCap(max: cap.value.max, window: window), at: try location(cap.at, files)))
            }
        }
        return windows
    }
}
