import AdRules
import AdRulesYAML

/// The blocks of entries of a rule file: its placements, read as their events arrive; its groups, attributes and rules,
/// each entry read as a node, then dropped.
extension PolicyFragment {
    /// Reads `placements:`, each placement as its events arrive.
    /// - Parameters:
    ///   - emptyPlacements: set to the finding for `placements:` with nothing under it, which is told unless its
    ///     placements follow unindented (they are told to indent under it: the same slip, said once at each of them).
    ///   - emptyLastPlacement: the last placement, when it has no value: where that value stands, and how many unknown
    ///     top-level keys came before (its settings may follow indented with no-break spaces, which YAML reads as
    ///     top-level keys).
    mutating func readPlacements(
        _ event: YAMLEvent, _ cursor: YAMLEventCursor, emptyPlacements: inout Diagnostic?, emptyLastPlacement: inout (at: SourcePosition, unknownKeys: Int)?,
        reader: inout FieldReader
    ) {
        if case .scalar(let node) = event, node.scalar?.isNull == true {
            emptyPlacements = .wrongType("placements", expected: "a mapping of keys to values", found: node, file: file)
            placementsUnread = true
            return
        }
        guard reader.enterMapping(event, cursor, "placements") else {
            placementsUnread = true
            return
        }
        var previous: String?
        var settingsRun = false
        // Whether the placement before has no value (`app_open:` indented as far as the settings under it).
        var previousIsEmpty = false
        reader.forEachEntry(cursor) { reader, idNode, event in
            // `<<: *base` among the placements (a yaml/alias error already) is no placement named "<<": what
            // it would bring is not read.
            if FieldReader.isMergeKey(idNode) {
                reader.mergeKeys += 1
                reader.mergedPolicyWide = true
                placementsUnread = true
                return
            }
            if reader.isMisplacedEntry(idNode, event, keys: RuleFileKeys.placement, kind: "placement", after: previous, settingsRun: &settingsRun, cursor) {
                // The settings after a placement with no value are its own, indented as far as its id: the first
                // says to indent them under it, and the rest are passed over, as after a missing id line.
                if previousIsEmpty { settingsRun = true }
                // A placement whose id line is missing is not read: "no placements", or a group naming it, would
                // only follow from that.
                if settingsRun { placementsUnread = true }
                return
            }
            if case .scalar(let node) = event { previousIsEmpty = node.scalar?.isNull == true } else { previousIsEmpty = false }
            if case .scalar(let node) = event, previousIsEmpty {
                emptyLastPlacement = (node.range.start, reader.unknownTopLevelKeys.count)
            } else {
                emptyLastPlacement = nil
            }
            guard let written = reader.nameKey(idNode, in: "placements") else { return }
            // A bad id is reported and its settings still read, so that every finding in them is printed;
            // the policy holds an error then and is never used.
            reader.checkID(idNode, kind: "placement", lowercaseOnly: false)
            let id = FieldReader.idMeant(idNode, written)
            let block = PlacementFields.read(
                event, cursor, context: "placement \"\(id)\"", placementKey: idNode.range,
                topLevelName: RuleFileKeys.topBlocksOfEntries.contains(id) ? id : nil, id: id,
                misplacedBlock: PlacementSetting.Block(rawValue: id).map { ($0, previous) }, reader: &reader)
            // A block of settings indented as a placement id is no placement (its finding names the one before).
            if block.isMisplacedBlock { return }
            previous = id
            placements.append(NamedPlacement(id: Located(id, at: reader.location(idNode)), range: idNode.range, fields: block))
        }
    }

    /// Reads `groups:`.
    mutating func readGroups(_ event: YAMLEvent, _ cursor: YAMLEventCursor, reader: inout FieldReader) {
        guard reader.enterMapping(event, cursor, "groups") else { return }
        var previous: String?
        var settingsRun = false
        reader.forEachEntry(cursor) { reader, idNode, event in
            if reader.isMisplacedEntry(idNode, event, keys: RuleFileKeys.group, kind: "group", after: previous, settingsRun: &settingsRun, cursor) { return }
            guard let written = reader.nameKey(idNode, in: "groups"), let value = cursor.node(from: event) else { return }
            reader.checkID(idNode, kind: "group", lowercaseOnly: false)
            let id = FieldReader.idMeant(idNode, written)
            previous = id
            if let group = Self.readGroup(id: id, key: idNode, value: value, reader: &reader) { groups.append(group) }
        }
    }

    /// Reads `attributes:`; an attribute declared with an error is kept by name in ``brokenAttributes``.
    ///
    /// An entry that is no declaration but a key of another block (cli.md r2: a key valid one level deeper or shallower
    /// says which block it belongs to) is told so, rather than read as an attribute named after it: an attribute's
    /// `type:` or `default:` indented as far as the names (`default: false` under `onboarding:`, "type must be one of
    /// …, not false"), or a top-level key indented under `attributes:` (`timezone: UTC`, a whole `rules:` block, whose
    /// rules were lost under "type must be one of …, not a list").
    mutating func readAttributes(_ event: YAMLEvent, _ cursor: YAMLEventCursor, reader: inout FieldReader) {
        guard reader.enterMapping(event, cursor, "attributes") else { return }
        // The attribute before, under which a setting written beside the names belongs; and one written with no value
        // (`level:`), read once the entry after it shows whether its settings follow one level too shallow.
        var previous: String?
        var pendingEmpty: (name: YAMLNode, value: YAMLNode)?
        func read(_ nameNode: YAMLNode, _ value: YAMLNode, _ reader: inout FieldReader) {
            if let attribute = Self.readAttribute(nameNode: nameNode, value: value, reader: &reader) {
                attributes.append(attribute)
            } else if let name = nameNode.scalar?.value {
                brokenAttributes.append(name)
            }
        }
        reader.forEachEntry(cursor) { reader, nameNode, event in
            guard reader.nameKey(nameNode, in: "attributes") != nil, let value = cursor.node(from: event) else { return }
            let name = nameNode.scalar?.value ?? ""
            if RuleFileKeys.attribute.contains(name), let owner = previous, !Self.isDeclaration(value) || pendingEmpty != nil {
                // `level:` then `type: int`: the settings of `level`, not an attribute named type.
                if let empty = pendingEmpty, let emptyName = empty.name.scalar?.value { brokenAttributes.append(emptyName) }
                pendingEmpty = nil
                reader.report(.settingAsID(name, kind: "attribute", after: owner, file: reader.file, range: nameNode.range))
                return
            }
            if let empty = pendingEmpty {
                read(empty.name, empty.value, &reader)
                pendingEmpty = nil
            }
            if RuleFileKeys.top.contains(name), !Self.isDeclaration(value) {
                reader.report(.topLevelKeyAsID(name, kind: "attribute", block: "attributes", file: reader.file, range: nameNode.range))
                return
            }
            previous = name
            if value.scalar?.isNull == true {
                pendingEmpty = (nameNode, value)
                return
            }
            read(nameNode, value, &reader)
        }
        if let empty = pendingEmpty { read(empty.name, empty.value, &reader) }
    }

    /// Whether an entry of `attributes:` is written as a declaration: a type (`string`, `[int]`), or a block of an
    /// attribute's keys. Anything else there (`false`, `UTC`, a list of rules) is a key of another block.
    private static func isDeclaration(_ value: YAMLNode) -> Bool {
        if let scalar = value.scalar { return ValueType(rawValue: scalar.value) != nil }
        if let items = value.items { return items.count == 1 && items[0].scalar.map { ValueType(rawValue: "[\($0.value)]") != nil } == true }
        if let pairs = value.pairs { return pairs.contains { $0.key.scalar.map { RuleFileKeys.attribute.contains($0.value) } == true } }
        return false
    }

    /// Reads `rules:`.
    mutating func readRules(_ event: YAMLEvent, _ cursor: YAMLEventCursor, reader: inout FieldReader) {
        guard reader.enterSequence(event, cursor, "rules") else { return }
        reader.forEachItem(cursor) { reader, event in
            guard let item = cursor.node(from: event) else { return }
            if let rule = Self.readRule(item, reader: &reader) { rules.append(rule) }
        }
    }
}
