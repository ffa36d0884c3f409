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
            groups.append(PlacementGroup(
                id: g.id, location: try location(g.at, path + ".at", files), placements: members,
                minInterval: try g.minInterval.map { v throws(CompiledPolicyError) in try duration(v, path + ".min_interval", files) },
                dailyCap: try g.dailyCap.map { v throws(CompiledPolicyError) in try cap(v, path + ".daily_cap", files) },
                hourlyCap: try g.hourlyCap.map { v throws(CompiledPolicyError) in try cap(v, path + ".hourly_cap", files) },
                sessionCap: try g.sessionCap.map { v throws(CompiledPolicyError) in try cap(v, path + ".session_cap", files) },
                caps: try windows(g.caps, path + ".caps", files)))
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
        if let unit = p.adUnit { try text(unit.value, path + ".ad_unit") }
        func flag(_ v: LocatedRecord<Bool>, _ key: String) throws(CompiledPolicyError) -> Located<Bool> {
            Located(v.value, at: try location(v.at, "\(path).\(key)", files))
        }
        return Placement(
            id: p.id, location: try location(p.at, path + ".at", files),
            format: Located(p.format.value, at: try location(p.format.at, path + ".format", files)),
            adUnit: try p.adUnit.map { v throws(CompiledPolicyError) in Located(v.value, at: try location(v.at, path + ".ad_unit", files)) },
            enabled: try flag(p.enabled, "enabled"), excludePremium: try flag(p.excludePremium, "exclude_premium"),
            blockDuringFullscreen: try flag(p.blockDuringFullscreen, "block_during_fullscreen"),
            minInterval: try duration(p.minInterval, path + ".min_interval", files),
            dailyCap: try p.dailyCap.map { v throws(CompiledPolicyError) in try cap(v, path + ".daily_cap", files) },
            hourlyCap: try p.hourlyCap.map { v throws(CompiledPolicyError) in try cap(v, path + ".hourly_cap", files) },
            sessionCap: try p.sessionCap.map { v throws(CompiledPolicyError) in try cap(v, path + ".session_cap", files) },
            caps: try windows(p.caps, path + ".caps", files), maxAdAge: try duration(p.maxAdAge, path + ".max_ad_age", files),
            everyNActions: try p.everyNActions.map { v throws(CompiledPolicyError) in try cap(v, path + ".every_n_actions", files, minimum: 1) },
            requireUserChoice: try flag(p.requireUserChoice, "require_user_choice"),
            showOnFirstLoad: try flag(p.showOnFirstLoad, "launch.show_on_first_load"),
            launchMaxWait: try p.launchMaxWait.map { v throws(CompiledPolicyError) in try duration(v, path + ".launch.max_wait", files) },
            showIfReady: try flag(p.showIfReady, "resume.show_if_ready"), allowDeferred: try flag(p.allowDeferred, "resume.allow_deferred"),
            resumeMaxDelay: try duration(p.resumeMaxDelay, path + ".resume.max_delay", files),
            graceFirstSessions: try cap(p.graceFirstSessions, path + ".grace.first_sessions", files),
            graceAfterInstall: try duration(p.graceAfterInstall, path + ".grace.after_install", files),
            graceAfterSessionStart: try duration(p.graceAfterSessionStart, path + ".grace.after_session_start", files))
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
