import AdRules
import AdRulesYAML

extension PolicyFragment {
    static func readGroup(id: String, key: YAMLNode, value: YAMLNode, reader: inout FieldReader) -> GroupFields? {
        let context = "group \"\(id)\""
        let mark = reader.mark
        guard let pairs = reader.mapping(value, context) else { return nil }
        var group = PlacementGroup(id: id, location: reader.location(key), placements: [])
        var sawPlacements = false
        for (key, pair) in reader.fields(pairs, allowed: RuleFileKeys.group, context: context) {
            let value = pair.value
            switch key {
            case "placements":
                sawPlacements = true
                guard let items = reader.sequence(value, "placements", ofWords: true) else { continue }
                reader.checkListLength(items, context)
                for item in items.prefix(PolicyLimits.maxPlacements) {
                    // `- daily_cap: 30` among the members: a setting of the group, written in its list.
                    if let pairs = item.pairs, pairs.count == 1, let key = pairs[0].key.scalar?.value, RuleFileKeys.group.contains(key), key != "placements" {
                        reader.report(.wrongType(
                            "a group member", expected: "a placement id", found: item, file: reader.file,
                            advice: "\(key) is a setting of the group, not a member: write it beside placements:, without the `- `"))
                        continue
                    }
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
        var fields = GroupFields(group: group, range: key.range)
        // As a placement's: what an error or a merge key left unread may be the group's pacing. (A group is read as a
        // node, whose merge keys the reader does not count.)
        fields.hadErrors = reader.lostSettings(since: mark) || pairs.contains { FieldReader.isMergeKey($0.key) }
        return fields
    }
}
