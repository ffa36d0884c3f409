import AdRules
import AdRulesYAML

/// What one rule file says, before the files of a policy are merged.
struct PolicyFragment: Sendable {
    struct Setting: Sendable {
        var canonical: String
        var location: SourceLocation
        var range: SourceRange
    }

    struct NamedPlacement: Sendable {
        var id: Located<String>
        var range: SourceRange
        var fields: PlacementFields
    }

    struct GroupFields: Sendable {
        var id: Located<String>
        var range: SourceRange
        var placements: [Located<String>]
        var block: PlacementFields
    }

    struct RuleFields: Sendable {
        var id: Located<String>
        var range: SourceRange
        var deny: [Located<String>]?
        var when: Located<String>?
        var whenNode: YAMLNode?
        var message: String?
    }

    struct AttributeFields: Sendable {
        var declaration: AttributeDeclaration
        var range: SourceRange
    }

    var file: String
    var settings: [String: Setting] = [:]
    var environment: Located<PolicyEnvironment>?
    var timezone: Located<String>?
    var sessionTimeout: Located<RuleDuration>?
    var fullscreenTimeout: Located<RuleDuration>?
    var loadTimeout: Located<RuleDuration>?
    var defaults: PlacementFields?
    var placements: [NamedPlacement] = []
    var groups: [GroupFields] = []
    var attributes: [AttributeFields] = []
    var rules: [RuleFields] = []

    /// Decodes one file's root node.
    static func decode(_ root: YAMLNode?, file: String, reader: inout FieldReader) -> PolicyFragment {
        var fragment = PolicyFragment(file: file)
        guard let root else {
            reader.report(.missingKey("version", in: "this rule file", example: "version: 1", file: file, range: .fileStart))
            return fragment
        }
        guard let pairs = reader.mapping(root, "a rule file") else { return fragment }
        let fields = reader.fields(pairs, allowed: RuleFileKeys.top, context: "the top level")
        if !fields.contains(where: { $0.key == "version" }) {
            reader.report(.missingKey("version", in: "this rule file", example: "version: 1", file: file, range: SourceRange(at: root.range.start)))
        }
        for (key, pair) in fields {
            let value = pair.value
            switch key {
            case "version":
                if let scalar = value.scalar, FieldReader.intValue(scalar) == 1 { break }
                if value.scalar != nil, value.scalar.flatMap(FieldReader.intValue) != nil {
                    reader.report(.badVersion(value.scalar?.value ?? "", file: file, range: value.range))
                } else {
                    reader.report(.wrongType("version", expected: "the whole number 1", found: value, file: file))
                }
            case "environment":
                fragment.environment = reader.enumeration(value, key, as: PolicyEnvironment.self)
                fragment.remember(key, fragment.environment.map { $0.value.rawValue }, value)
            case "timezone":
                fragment.timezone = reader.string(value, key)
                fragment.remember(key, fragment.timezone.map { "\"\($0.value)\"" }, value)
            case "session_timeout":
                fragment.sessionTimeout = reader.duration(value, key)
                fragment.remember(key, fragment.sessionTimeout.map { "\($0.value)" }, value)
            case "fullscreen_timeout":
                fragment.fullscreenTimeout = reader.duration(value, key)
                fragment.remember(key, fragment.fullscreenTimeout.map { "\($0.value)" }, value)
            case "load_timeout":
                fragment.loadTimeout = reader.duration(value, key)
                fragment.remember(key, fragment.loadTimeout.map { "\($0.value)" }, value)
            case "defaults":
                let block = PlacementFields.read(value, context: "defaults", isDefaults: true, reader: &reader)
                fragment.defaults = block
                fragment.remember(key, "{\(block.canonical)}", pair.key)
            case "placements":
                guard let entries = reader.mapping(value, key) else { continue }
                for entry in entries {
                    guard let id = entry.key.scalar?.value, reader.checkID(entry.key, kind: "placement", lowercaseOnly: false) else { continue }
                    var block = PlacementFields.read(entry.value, context: "placement \"\(id)\"", isDefaults: false, reader: &reader)
                    if block.format == nil, entry.value.pairs != nil,
                        !(entry.value.pairs ?? []).contains(where: { $0.key.scalar?.value == "format" })
                    {
                        reader.report(.missingKey(
                            "format", in: "placement \"\(id)\"", example: "format: interstitial",
                            file: file, range: entry.key.range))
                        block.hadErrors = true
                    }
                    fragment.placements.append(NamedPlacement(id: Located(id, at: reader.location(entry.key)), range: entry.key.range, fields: block))
                }
            case "groups":
                guard let entries = reader.mapping(value, key) else { continue }
                for entry in entries {
                    guard let id = entry.key.scalar?.value, reader.checkID(entry.key, kind: "group", lowercaseOnly: false) else { continue }
                    if let group = readGroup(id: id, entry: entry, reader: &reader) { fragment.groups.append(group) }
                }
            case "attributes":
                guard let entries = reader.mapping(value, key) else { continue }
                for entry in entries {
                    if let attribute = readAttribute(entry, reader: &reader) { fragment.attributes.append(attribute) }
                }
            case "rules":
                guard let items = reader.sequence(value, key) else { continue }
                for item in items {
                    if let rule = readRule(item, reader: &reader) { fragment.rules.append(rule) }
                }
            default: break
            }
        }
        return fragment
    }

    private mutating func remember(_ key: String, _ canonical: String?, _ node: YAMLNode) {
        guard let canonical else { return }
        settings[key] = Setting(canonical: canonical, location: SourceLocation(file: file, position: node.range.start), range: node.range)
    }

    private static func readGroup(id: String, entry: YAMLPair, reader: inout FieldReader) -> GroupFields? {
        let context = "group \"\(id)\""
        guard let pairs = reader.mapping(entry.value, context) else { return nil }
        var members: [Located<String>] = []
        var block = PlacementFields()
        var sawPlacements = false
        for (key, pair) in reader.fields(pairs, allowed: RuleFileKeys.group, context: context) {
            let value = pair.value
            switch key {
            case "placements":
                sawPlacements = true
                guard let items = reader.sequence(value, "placements") else { continue }
                for item in items {
                    if let member = reader.string(item, "a group member") { members.append(member) }
                }
                if items.isEmpty {
                    reader.report(.missingKey("placements", in: context, example: "placements: [interstitial_level_end]", file: reader.file, range: value.range))
                }
            case "min_interval": block.minInterval = reader.duration(value, key)
            case "daily_cap": block.dailyCap = reader.int(value, key, minimum: 0)
            case "hourly_cap": block.hourlyCap = reader.int(value, key, minimum: 0)
            case "session_cap": block.sessionCap = reader.int(value, key, minimum: 0)
            case "caps": block.caps = PlacementFields.readCaps(value, reader: &reader)
            default: break
            }
        }
        if !sawPlacements {
            reader.report(.missingKey("placements", in: context, example: "placements: [interstitial_level_end]", file: reader.file, range: entry.key.range))
        }
        return GroupFields(id: Located(id, at: reader.location(entry.key)), range: entry.key.range, placements: members, block: block)
    }

    private static func readAttribute(_ entry: YAMLPair, reader: inout FieldReader) -> AttributeFields? {
        guard let name = entry.key.scalar?.value else { return nil }
        let reserved = Set(["and", "or", "not", "in", "true", "false"] + Builtin.allCases.map(\.rawValue))
        let validName =
            !name.isEmpty && name.count <= 64 && !reserved.contains(name)
            && name.unicodeScalars.first.map { $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) } == true
            && name.unicodeScalars.allSatisfy { $0 == "_" || $0 == "." || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
            && !name.hasSuffix(".")
        guard validName else {
            reader.report(.badAttributeName(name, file: reader.file, range: entry.key.range))
            return nil
        }
        var typeNode = entry.value
        var defaultNode: YAMLNode?
        if let pairs = entry.value.pairs {
            var sawType = false
            for (key, pair) in reader.fields(pairs, allowed: RuleFileKeys.attribute, context: "attribute \"\(name)\"") {
                if key == "type" {
                    typeNode = pair.value
                    sawType = true
                } else {
                    defaultNode = pair.value
                }
            }
            guard sawType else {
                reader.report(.missingKey("type", in: "attribute \"\(name)\"", example: "type: string", file: reader.file, range: entry.key.range))
                return nil
            }
        }
        guard let type = readType(typeNode, reader: &reader) else { return nil }
        var declaration = AttributeDeclaration(name: name, location: reader.location(entry.key), type: type, defaultValue: nil)
        if let defaultNode {
            guard let value = AttributeValueReader.read(defaultNode, as: type, key: "default", reader: &reader) else { return nil }
            declaration.defaultValue = value
        }
        return AttributeFields(declaration: declaration, range: entry.key.range)
    }

    private static func readType(_ node: YAMLNode, reader: inout FieldReader) -> ValueType? {
        let allowed = ValueType.allCases.map(\.rawValue)
        var text: String?
        if let scalar = node.scalar {
            text = scalar.value
        } else if let items = node.items, items.count == 1, let inner = items[0].scalar?.value {
            text = "[\(inner)]"
        }
        guard let text else {
            reader.report(.wrongType("type", expected: "one of \(allowed.joined(separator: ", "))", found: node, file: reader.file))
            return nil
        }
        guard let type = ValueType(rawValue: text) else {
            reader.report(.unknownEnum("type", value: text, allowed: allowed, file: reader.file, range: node.range))
            return nil
        }
        return type
    }

    private static func readRule(_ node: YAMLNode, reader: inout FieldReader) -> RuleFields? {
        guard let pairs = reader.mapping(node, "a rule") else { return nil }
        var id: Located<String>?
        var deny: [Located<String>]?
        var sawDeny = false
        var when: Located<String>?
        var whenNode: YAMLNode?
        var message: String?
        var context = "a rule"
        if let idPair = pairs.first(where: { $0.key.scalar?.value == "id" }), let text = idPair.value.scalar?.value {
            context = "rule \"\(text)\""
        }
        for (key, pair) in reader.fields(pairs, allowed: RuleFileKeys.rule, context: context) {
            let value = pair.value
            switch key {
            case "id":
                if let text = reader.string(value, key), reader.checkID(value, kind: "rule", lowercaseOnly: true) { id = text }
            case "deny":
                sawDeny = true
                if let scalar = value.scalar, !scalar.isNull {
                    deny = scalar.value == "*" ? nil : [Located(scalar.value, at: reader.location(value))]
                } else if let items = reader.sequence(value, key) {
                    var list: [Located<String>] = []
                    var all = false
                    for item in items {
                        guard let member = reader.string(item, "a placement in deny") else { continue }
                        if member.value == "*" { all = true } else { list.append(member) }
                    }
                    deny = all ? nil : list
                    if items.isEmpty {
                        reader.report(.wrongType("deny", expected: "a list of placement ids, or \"*\" for all", found: value, file: reader.file))
                    }
                }
            case "when":
                guard let scalar = value.scalar, !scalar.isNull else {
                    reader.report(.wrongType("when", expected: "an expression such as screen == \"checkout\"", found: value, file: reader.file))
                    continue
                }
                when = Located(scalar.value, at: reader.location(value))
                whenNode = value
            case "message":
                message = reader.string(value, key)?.value
            default: break
            }
        }
        let present = Set(pairs.compactMap { $0.key.scalar?.value })
        for (key, example) in [("id", "id: no-ads-in-checkout"), ("deny", "deny: [interstitial]"), ("when", "when: screen == \"checkout\"")]
        where !present.contains(key) {
            reader.report(.missingKey(key, in: context, example: example, file: reader.file, range: SourceRange(at: node.range.start)))
        }
        guard let id, sawDeny || !present.contains("deny") else { return nil }
        return RuleFields(id: id, range: node.range, deny: deny, when: when, whenNode: whenNode, message: message)
    }
}
