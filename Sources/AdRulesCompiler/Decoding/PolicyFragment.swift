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
        var group: PlacementGroup
        var range: SourceRange
    }

    struct RuleFields: Sendable {
        var id: Located<String>
        var range: SourceRange
        var deny: [Located<String>]?
        /// The placement ids the `deny` list names, also when it holds `"*"` too (each must exist).
        var named: [Located<String>]
        var when: Located<String>?
        var whenNode: YAMLNode?
        var message: String?
    }

    struct AttributeFields: Sendable {
        var declaration: AttributeDeclaration
        var range: SourceRange
    }

    var file: String
    /// The file is not a mapping of keys (a list, a word, an empty document): nothing in it was read, so findings
    /// about the policy as a whole (no placements, an unknown placement) would only follow from that.
    var rootUnread = false
    /// `placements:` is not a mapping (a list, a word, nothing), or its first entries are settings with no id line above
    /// them: its placements (or that one) were not read, so "no placements" and "unknown placement" would only follow
    /// from that, as from an unread file.
    var placementsUnread = false
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
    /// Attributes declared with an error (a bad type, default or name): already reported, so a rule that uses one
    /// is not told the name is unknown.
    var brokenAttributes: [String] = []
    var rules: [RuleFields] = []

    /// Decodes one file from its events, each placement as its events arrive.
    /// - Returns: the fragment; when the cursor stopped inside the document (a syntax error), what it holds is partial.
    static func decode(_ cursor: YAMLEventCursor, reader: inout FieldReader) -> PolicyFragment {
        let file = reader.file
        var fragment = PolicyFragment(file: file)
        guard let root = cursor.next() else {
            reader.report(.missingKey("version", in: "this rule file", example: "version: 1", file: file, range: .fileStart))
            return fragment
        }
        guard reader.enterMapping(root, cursor, "a rule file"), case .mappingStart(let start) = root else {
            fragment.rootUnread = true
            return fragment
        }
        var sawVersion = false
        reader.forEachField(cursor, allowed: RuleFileKeys.top, context: "the top level") { reader, key, keyNode, event in
            switch key {
            case "defaults":
                let block = PlacementFields.read(event, cursor, context: "defaults", placementKey: nil, reader: &reader)
                fragment.defaults = block
                fragment.remember(key, "{\(block.canonical)}", keyNode, reader: reader)
            case "placements":
                guard reader.enterMapping(event, cursor, key) else {
                    fragment.placementsUnread = true
                    return
                }
                var previous: String?
                var settingsRun = false
                reader.forEachEntry(cursor) { reader, idNode, event in
                    if reader.isMisplacedEntry(idNode, event, keys: RuleFileKeys.placement, kind: "placement", after: previous, settingsRun: &settingsRun, cursor) {
                        // A placement whose id line is missing is not read: "no placements", or a group naming it, would
                        // only follow from that.
                        if settingsRun { fragment.placementsUnread = true }
                        return
                    }
                    guard let written = reader.nameKey(idNode, in: "placements") else { return }
                    // A bad id is reported and its settings still read, so that every finding in them is printed;
                    // the policy holds an error then and is never used.
                    reader.checkID(idNode, kind: "placement", lowercaseOnly: false)
                    let id = FieldReader.idMeant(idNode, written)
                    previous = id
                    let block = PlacementFields.read(
                        event, cursor, context: "placement \"\(id)\"", placementKey: idNode.range,
                        topLevelName: RuleFileKeys.topBlocksOfEntries.contains(id) ? id : nil, reader: &reader)
                    fragment.placements.append(NamedPlacement(id: Located(id, at: reader.location(idNode)), range: idNode.range, fields: block))
                }
            case "groups":
                // Groups, attributes and rules are few and small: each entry is read as a node, then dropped.
                guard reader.enterMapping(event, cursor, key) else { return }
                var previous: String?
                var settingsRun = false
                reader.forEachEntry(cursor) { reader, idNode, event in
                    if reader.isMisplacedEntry(idNode, event, keys: RuleFileKeys.group, kind: "group", after: previous, settingsRun: &settingsRun, cursor) { return }
                    guard let written = reader.nameKey(idNode, in: "groups"), let value = cursor.node(from: event) else { return }
                    reader.checkID(idNode, kind: "group", lowercaseOnly: false)
                    let id = FieldReader.idMeant(idNode, written)
                    previous = id
                    if let group = readGroup(id: id, key: idNode, value: value, reader: &reader) { fragment.groups.append(group) }
                }
            case "attributes":
                guard reader.enterMapping(event, cursor, key) else { return }
                reader.forEachEntry(cursor) { reader, nameNode, event in
                    guard reader.nameKey(nameNode, in: "attributes") != nil, let value = cursor.node(from: event) else { return }
                    if let attribute = readAttribute(nameNode: nameNode, value: value, reader: &reader) {
                        fragment.attributes.append(attribute)
                    } else if let name = nameNode.scalar?.value {
                        fragment.brokenAttributes.append(name)
                    }
                }
            case "rules":
                guard reader.enterSequence(event, cursor, key) else { return }
                reader.forEachItem(cursor) { reader, event in
                    guard let item = cursor.node(from: event) else { return }
                    if let rule = readRule(item, reader: &reader) { fragment.rules.append(rule) }
                }
            default:
                guard let value = reader.shallowNode(event, cursor) else { return }
                if key == "version" { sawVersion = true }
                fragment.readSetting(key, value, reader: &reader)
            }
        }
        // `verison: 1` is an unknown key that names version: the file is not also told it lacks one.
        if !sawVersion, !reader.gluedKeys.contains("version") {
            reader.report(.missingKey("version", in: "this rule file", example: "version: 1", file: file, range: SourceRange(at: start)))
        }
        return fragment
    }

    /// Whether the file holds nothing of a rule file but `version:` (no placement, group, attribute, rule, `defaults:` or
    /// top-level setting): what a scenario file or a usage model read as a rule file holds.
    var holdsNoRules: Bool {
        placements.isEmpty && groups.isEmpty && attributes.isEmpty && rules.isEmpty && defaults == nil && !placementsUnread
            && environment == nil && timezone == nil && sessionTimeout == nil && fullscreenTimeout == nil && loadTimeout == nil
    }

    /// Reads a top-level scalar setting: `version`, `environment`, `timezone` or a timeout.
    private mutating func readSetting(_ key: String, _ value: YAMLNode, reader: inout FieldReader) {
        switch key {
        case "version": reader.checkVersion(value, documents: "rule files")
        case "environment":
            environment = reader.enumeration(value, key, as: PolicyEnvironment.self)
            remember(key, environment.map { $0.value.rawValue }, value, reader: reader)
        case "timezone":
            timezone = reader.string(value, key)
            remember(key, timezone.map { "\"\($0.value)\"" }, value, reader: reader)
        case "session_timeout":
            sessionTimeout = reader.duration(value, key)
            remember(key, sessionTimeout.map { "\($0.value)" }, value, reader: reader)
        case "fullscreen_timeout":
            fullscreenTimeout = reader.duration(value, key)
            remember(key, fullscreenTimeout.map { "\($0.value)" }, value, reader: reader)
        case "load_timeout":
            loadTimeout = reader.duration(value, key)
            remember(key, loadTimeout.map { "\($0.value)" }, value, reader: reader)
        default: break
        }
    }

    private mutating func remember(_ key: String, _ canonical: String?, _ node: YAMLNode, reader: FieldReader) {
        guard let canonical else { return }
        settings[key] = Setting(canonical: canonical, location: reader.location(node), range: node.range)
    }

    private static func readGroup(id: String, key: YAMLNode, value: YAMLNode, reader: inout FieldReader) -> GroupFields? {
        let context = "group \"\(id)\""
        guard let pairs = reader.mapping(value, context) else { return nil }
        var group = PlacementGroup(id: id, location: reader.location(key), placements: [])
        var sawPlacements = false
        for (key, pair) in reader.fields(pairs, allowed: RuleFileKeys.group, context: context) {
            let value = pair.value
            switch key {
            case "placements":
                sawPlacements = true
                guard let items = reader.sequence(value, "placements") else { continue }
                reader.checkListLength(items, context)
                for item in items.prefix(PolicyLimits.maxPlacements) {
                    if let member = reader.string(item, "a group member") { group.placements.append(member) }
                }
                if items.isEmpty {
                    reader.report(.missingKey("placements", in: context, example: "placements: [interstitial_level_end]", listing: "its members' placement ids", file: reader.file, range: value.range))
                }
            default:
                guard let setting = PlacementSetting(rawValue: key), let access = setting.groupAccess else { continue }
                access.set(reader.value(of: setting, value), in: &group)
            }
        }
        if !sawPlacements, !GluedKey.keysMeant(pairs, allowed: RuleFileKeys.group).contains("placements") {
            reader.report(.missingKey("placements", in: context, example: "placements: [interstitial_level_end]", listing: "its members' placement ids", file: reader.file, range: key.range))
        }
        return GroupFields(group: group, range: key.range)
    }

    private static func readAttribute(nameNode entry: YAMLNode, value: YAMLNode, reader: inout FieldReader) -> AttributeFields? {
        guard let name = entry.scalar?.value else { return nil }
        guard PolicyIDs.isValidAttributeName(name) else {
            reader.report(.badAttributeName(name, file: reader.file, range: entry.range))
            return nil
        }
        var typeNode = value
        var defaultNode: YAMLNode?
        if let pairs = value.pairs {
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
                // `typ: string` is an unknown key that names type: the attribute is not also told it lacks one.
                if !GluedKey.keysMeant(pairs, allowed: RuleFileKeys.attribute).contains("type") {
                    reader.report(.missingKey("type", in: "attribute \"\(name)\"", example: "type: string", file: reader.file, range: entry.range))
                }
                return nil
            }
        }
        guard let type = readType(typeNode, reader: &reader) else { return nil }
        var declaration = AttributeDeclaration(name: name, location: reader.location(entry), type: type, defaultValue: nil)
        if let defaultNode {
            guard let value = AttributeValueReader.read(defaultNode, as: type, key: "default", reader: &reader) else { return nil }
            declaration.defaultValue = value
        }
        return AttributeFields(declaration: declaration, range: entry.range)
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
        var named: [Located<String>] = []
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
                // A bad id is reported, and the rule still read so that its other findings are printed.
                if let text = reader.string(value, key) {
                    reader.checkID(value, kind: "rule", lowercaseOnly: true)
                    id = text
                }
            case "deny":
                sawDeny = true
                if let scalar = value.scalar, !scalar.isNull {
                    // An empty text (`deny: ""`, an empty `|` block) names no placement, as an empty list does not.
                    guard !scalar.value.isEmpty else {
                        reader.report(.emptyDeny(file: reader.file, range: value.range))
                        deny = []
                        continue
                    }
                    // Read as the list's items are: a plain yes/no is a warning, a number or a control character an
                    // error. A boolean is no id: the advice names what deny takes, not "quote it".
                    if scalar.style == .plain, scalar.coreSchemaBool != nil {
                        reader.report(.wrongType(
                            "deny", expected: "placement ids or \"*\"", found: value, file: reader.file,
                            advice: "list the placement ids the rule denies, as in deny: [interstitial_level_end], or write deny: \"*\" for every placement"))
                        deny = []  // the rule is still read, so that its other findings are printed; it denies nothing
                        continue
                    }
                    guard let member = reader.string(value, "deny") else {
                        deny = []
                        continue
                    }
                    deny = member.value == "*" ? nil : [member]
                    named = deny ?? []
                } else if let items = reader.sequence(value, key) {
                    var list: [Located<String>] = []
                    var all = false
                    reader.checkListLength(items, "deny")
                    for item in items.prefix(PolicyLimits.maxPlacements) {
                        guard let member = reader.string(item, "a placement in deny") else { continue }
                        if member.value == "*" { all = true } else { list.append(member) }
                    }
                    deny = all ? nil : list
                    named = list
                    if items.isEmpty {
                        reader.report(.emptyDenyList(file: reader.file, range: value.range))
                    }
                } else {
                    deny = []  // not a list or an id (reported): the rule denies nothing, rather than every placement
                }
            case "when":
                guard let scalar = value.scalar, !scalar.isNull else {
                    reader.report(.wrongType("when", expected: "an expression such as screen == \"checkout\"", found: value, file: reader.file))
                    continue
                }
                // YAML reads a plain `True` or `FALSE` as the bool `when: true` is: the expression of that bool.
                let bool = scalar.style == .plain ? scalar.coreSchemaBool : nil
                when = Located(bool.map { $0 ? "true" : "false" } ?? scalar.value, at: reader.location(value))
                whenNode = value
            case "message":
                message = reader.string(value, key)?.value
                if let text = message, text.allSatisfy(\.isWhitespace) {
                    // A reason with no words helps no one; without `message` it reads "denied by rule ID".
                    reader.report(.wrongType("message", expected: "a sentence saying why (or left out, for \"denied by rule <id>\")", found: value, file: reader.file))
                    message = nil
                }
            default: break
            }
        }
        // A key glued to its value (`deny:*`) is an error of its own, which says what to write.
        let present = GluedKey.keysPresent(pairs)
        let missing: [(key: String, example: String, listing: String?)] = [
            ("id", "id: no-ads-in-checkout", nil), ("deny", "deny: [interstitial]", "the placement ids it denies"),
            ("when", "when: screen == \"checkout\"", nil),
        ]
        for (key, example, listing) in missing where !present.contains(key) {
            reader.report(.missingKey(key, in: context, example: example, listing: listing, file: reader.file, range: SourceRange(at: node.range.start)))
        }
        guard let id, sawDeny || !present.contains("deny") else { return nil }
        return RuleFields(id: id, range: node.range, deny: deny, named: named, when: when, whenNode: whenNode, message: message)
    }
}
