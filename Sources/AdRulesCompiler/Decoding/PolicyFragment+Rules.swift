import AdRules
import AdRulesYAML

extension PolicyFragment {
    static func readRule(_ node: YAMLNode, reader: inout FieldReader) -> RuleFields? {
        guard let pairs = reader.mapping(node, "a rule") else { return nil }
        var id: Located<String>?
        var deny: [Located<String>]?
        var named: [Located<String>] = []
        var sawDeny = false
        var when: Located<String>?
        var whenNode: YAMLNode?
        var message: String?
        var messageAt: SourceLocation?
        var context = "a rule"
        if let idPair = pairs.first(where: { $0.key.scalar?.value == "id" }), let text = idPair.value.scalar?.value {
            context = "rule \"\(text)\""
        }
        for (key, pair) in reader.fields(pairs, allowed: RuleFileKeys.rule, context: context) {
            let value = pair.value
            switch key {
            case "id":
                // A bad id is reported, and the rule still read so that its other findings are printed.
                if let text = reader.string(value, key, required: true) {
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
                    // error. A boolean or a number is most likely no id: the advice names what deny takes, not "quote it"
                    // (an id of digits is quoted).
                    if scalar.style == .plain, scalar.coreSchemaBool != nil || scalar.isCoreSchemaNumber {
                        let digits = scalar.isCoreSchemaNumber ? " (an id of digits in quotes: deny: [\"\(scalar.shortValue)\"])" : ""
                        reader.report(.wrongType(
                            "deny", expected: "placement ids or \"*\"", found: value, file: reader.file,
                            advice: "list the placement ids the rule denies, as in deny: [interstitial_level_end]\(digits), or write deny: \"*\" for every placement"))
                        deny = []  // the rule is still read, so that its other findings are printed; it denies nothing
                        continue
                    }
                    guard let member = reader.string(value, "deny") else {
                        deny = []
                        continue
                    }
                    deny = member.value == "*" ? nil : [member]
                    named = deny ?? []
                } else if let items = reader.sequence(value, key, ofWords: true) {
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
                // A condition is a bool: a plain yes/no/on/off/y/n meant one, which YAML 1.2 reads as a text.
                if scalar.isAmbiguousBool {
                    reader.report(.ambiguousBoolWhereBool("when", value: scalar.value, file: reader.file, range: value.range))
                    continue
                }
                // YAML reads a plain `True` or `FALSE` as the bool `when: true` is: the expression of that bool.
                let bool = scalar.style == .plain ? scalar.coreSchemaBool : nil
                when = Located(bool.map { $0 ? "true" : "false" } ?? scalar.value, at: reader.location(value))
                whenNode = value
            case "message":
                message = reader.string(value, key)?.value
                messageAt = reader.location(value)
                if let text = message, text.allSatisfy(\.isWhitespace) {
                    // A reason with no words helps no one; without `message` it reads "denied by rule ID".
                    reader.report(.wrongType("message", expected: "a sentence saying why (or left out, for \"denied by rule <id>\")", found: value, file: reader.file))
                    message = nil
                }
            default: break
            }
        }
        // A key glued to its value (`deny:*`) is an error of its own, which says what to write.
        // A key misspelt (`whn:`, "did you mean") is told once, there: the rule is not also told it lacks the key.
        let present = GluedKey.keysMeant(pairs, allowed: RuleFileKeys.rule)
        let missing: [(key: String, example: String, listing: String?, describing: String?)] = [
            ("id", "id: no-ads-in-checkout", nil, "a name for the rule"), ("deny", "deny: [interstitial_level_end]", "the placement ids it denies", nil),
            ("when", "when: screen == \"checkout\"", nil, "the condition under which the rule denies"),
        ]
        for (key, example, listing, describing) in missing where !present.contains(key) {
            reader.report(.missingKey(
                key, in: context, example: example, listing: listing, describing: describing, file: reader.file, range: SourceRange(at: node.range.start)))
        }
        guard sawDeny || !present.contains("deny") else { return nil }
        // A rule with no id, no condition and no placement named leaves nothing to check once read: it is not kept (five
        // million `{}` rules were kept to no end, 1.7 GB).
        guard id != nil || when != nil || !named.isEmpty else { return nil }
        return RuleFields(id: id, range: node.range, deny: deny, named: named, when: when, whenNode: whenNode, message: message, messageAt: messageAt)
    }
}
