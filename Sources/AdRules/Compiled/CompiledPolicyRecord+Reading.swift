/// The records read from a document's JSON, each value checked for its type and each list for its length;
/// keys this runtime does not know are skipped, and a key that is missing is reported by name.
extension CompiledPolicyRecord {
    /// Reads a whole document.
    /// - Throws: ``CompiledPolicyError`` with the path of the first value of the wrong type or the missing key.
    init(reading bytes: [UInt8]) throws(CompiledPolicyError) {
        var json = RecordReader(bytes)
        var format: String?, version: Int?, generator: String?, sourceDigest: String?, files: [String]?
        var environment: PolicyEnvironment?, timezone: String?, sessionTimeout: Int64?, fullscreenTimeout: LocatedRecord<Int64>?
        var loadTimeout: Int64?, placements: [PlacementRecord]?, groups: [GroupRecord]?, attributes: [AttributeRecord]?
        var rules: [RuleRecord]?
        // The placement ids groups and rules list, counted as they are read (``PolicyLimits/maxListedPlacements``).
        var listed = 0
        // The nodes of the rules' conditions, counted as they are read (``PolicyLimits/maxConditionNodes``).
        var conditionNodes = 0
        try json.object { key, json throws(CompiledPolicyError) in
            switch key {
            case "format": format = try json.string()
            case "version": version = try json.int()
            case "generator": generator = try json.optional { json throws(CompiledPolicyError) in try json.string() }
            case "source_digest": sourceDigest = try json.string()
            case "files":
                files = try json.array(entries: 1...CompiledPolicyReader.maxFiles) { json throws(CompiledPolicyError) in try json.string() }
            case "environment": environment = try json.oneOf("an environment")
            case "timezone": timezone = try json.string()
            case "session_timeout": sessionTimeout = try json.int64()
            case "fullscreen_timeout": fullscreenTimeout = try json.located { json throws(CompiledPolicyError) in try json.int64() }
            case "load_timeout": loadTimeout = try json.int64()
            case "placements":
                placements = try json.array(entries: 0...CompiledPolicyReader.maxPlacements) { json throws(CompiledPolicyError) in
                    try PlacementRecord(from: &json)
                }
            case "groups":
                groups = try json.array(entries: 0...CompiledPolicyReader.maxGroups) { json throws(CompiledPolicyError) in
                    try GroupRecord(from: &json, listed: &listed)
                }
            case "attributes":
                attributes = try json.array(entries: 0...CompiledPolicyReader.maxAttributes) { json throws(CompiledPolicyError) in
                    try AttributeRecord(from: &json)
                }
            case "rules":
                rules = try json.array(entries: 0...CompiledPolicyReader.maxRules) { json throws(CompiledPolicyError) in try RuleRecord(from: &json, listed: &listed, conditionNodes: &conditionNodes) }
            default: throw CompiledPolicyError.unknownKey(key)
            }
        }
        try json.end()
        self.format = try required(format, "format")
        self.version = try required(version, "version")
        self.generator = generator
        self.sourceDigest = try required(sourceDigest, "source_digest")
        self.files = try required(files, "files")
        self.environment = try required(environment, "environment")
        self.timezone = try required(timezone, "timezone")
        self.sessionTimeout = try required(sessionTimeout, "session_timeout")
        self.fullscreenTimeout = try required(fullscreenTimeout, "fullscreen_timeout")
        self.loadTimeout = try required(loadTimeout, "load_timeout")
        self.placements = try required(placements, "placements")
        self.groups = try required(groups, "groups")
        self.attributes = try required(attributes, "attributes")
        self.rules = try required(rules, "rules")
    }
}

extension PlacementRecord {
    init(from json: inout RecordReader) throws(CompiledPolicyError) {
        var id: String?, at: AtRecord?
        var settings = SettingTable.Values(.placement)
        try json.object { key, json throws(CompiledPolicyError) in
            switch key {
            case "id": id = try json.string()
            case "at": at = try json.at()
            default: if try !settings.read(key, from: &json) { throw CompiledPolicyError.unknownKey(key) }
            }
        }
        self.id = try required(id, "id")
        self.at = try required(at, "at")
        self.settings = try settings.records()
    }
}

/// One more placement id listed by a group or a rule: past ``PolicyLimits/maxListedPlacements`` in all, an error.
private func countListed(_ listed: inout Int) throws(CompiledPolicyError) {
    listed += 1
    guard listed <= PolicyLimits.maxListedPlacements else {
        throw CompiledPolicyError(
            "the groups' placements and the rules' deny lists name more than \(PolicyLimits.maxListedPlacements) placements in all: "
                + "a policy's lists hold at most that many: compile rule files with fewer, larger groups, and deny: \"*\" for a rule that denies every placement")
    }
}

extension GroupRecord {
    init(from json: inout RecordReader, listed: inout Int) throws(CompiledPolicyError) {
        var id: String?, at: AtRecord?, placements: [LocatedRecord<String>]?
        var settings = SettingTable.Values(.group)
        try json.object { key, json throws(CompiledPolicyError) in
            switch key {
            case "id": id = try json.string()
            case "at": at = try json.at()
            case "placements":
                placements = try json.array(entries: 1...CompiledPolicyReader.maxPlacements) { json throws(CompiledPolicyError) in
                    try countListed(&listed)
                    return try json.located { json throws(CompiledPolicyError) in try json.string() }
                }
            default: if try !settings.read(key, from: &json) { throw CompiledPolicyError.unknownKey(key) }
            }
        }
        self.id = try required(id, "id")
        self.at = try required(at, "at")
        self.placements = try required(placements, "placements")
        self.settings = try settings.records()
    }
}

extension WindowRecord {
    init(from json: inout RecordReader) throws(CompiledPolicyError) {
        var max: Int?, window: Int64?
        try json.object { key, json throws(CompiledPolicyError) in
            switch key {
            case "max": max = try json.int()
            case "window": window = try json.int64()
            default: throw CompiledPolicyError.unknownKey(key)
            }
        }
        self.max = try required(max, "max")
        self.window = try required(window, "window")
    }
}

extension AttributeRecord {
    init(from json: inout RecordReader) throws(CompiledPolicyError) {
        var name: String?, at: AtRecord?, type: ValueType?, defaultValue: ValueRecord?
        try json.object { key, json throws(CompiledPolicyError) in
            switch key {
            case "name": name = try json.string()
            case "at": at = try json.at()
            case "type": type = try json.oneOf("a value type")
            case "default": defaultValue = try json.optional { json throws(CompiledPolicyError) in try ValueRecord(from: &json) }
            default: throw CompiledPolicyError.unknownKey(key)
            }
        }
        self.name = try required(name, "name")
        self.at = try required(at, "at")
        self.type = try required(type, "type")
        self.default = defaultValue
    }
}

extension RuleRecord {
    init(from json: inout RecordReader, listed: inout Int, conditionNodes: inout Int) throws(CompiledPolicyError) {
        var id: String?, at: AtRecord?, deny: [LocatedRecord<String>]?, when: LocatedRecord<String>?, message: String?
        var condition: ExpressionRecord?
        try json.object { key, json throws(CompiledPolicyError) in
            switch key {
            case "id": id = try json.string()
            case "at": at = try json.at()
            case "deny":
                deny = try json.optional { json throws(CompiledPolicyError) in
                    try json.array(entries: 0...CompiledPolicyReader.maxPlacements) { json throws(CompiledPolicyError) in
                        try countListed(&listed)
                        return try json.located { json throws(CompiledPolicyError) in try json.string() }
                    }
                }
            case "when": when = try json.located { json throws(CompiledPolicyError) in try json.string() }
            case "message": message = try json.string()
            case "condition": condition = try ExpressionRecord.condition(from: &json, policyNodes: &conditionNodes)
            default: throw CompiledPolicyError.unknownKey(key)
            }
        }
        self.id = try required(id, "id")
        self.at = try required(at, "at")
        self.deny = deny
        self.when = try required(when, "when")
        self.message = try required(message, "message")
        self.condition = try required(condition, "condition")
    }
}
