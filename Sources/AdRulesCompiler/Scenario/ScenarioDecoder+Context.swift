import AdRules
import AdRulesYAML

extension ScenarioDecoder {
    /// - Parameter owner: whose context it is, for the advice about a key that belongs elsewhere.
    static func decodeContext(
        _ node: YAMLNode, base: AskContext, owner: ScenarioKeys.Block, policy: Policy, declared declaredTypes: [String: ValueType],
        reader: inout FieldReader
    ) -> AskContext? {
        guard let pairs = reader.mapping(node, "context") else { return nil }
        var context = base
        // An attribute the policy declares, written beside `premium`, belongs one level deeper (cli.md r2).
        var attributeNames: [String]?  // sorted on the first unknown key: the suggestion must not depend on hashing
        let belongsIn = { (key: String) -> String? in
            if let advice = ScenarioKeys.relocation(of: key, in: owner) { return advice }
            if declaredTypes[key] != nil {
                return "\(key) is an attribute of the policy: write it under `attributes:`, as in context: {attributes: {\(key): …}}"
            }
            // Not a misspelt premium or attributes: perhaps a misspelt attribute, which belongs one level deeper too.
            guard Suggestion.closest(to: key, in: ScenarioKeys.context) == nil else { return nil }
            let names = attributeNames ?? declaredTypes.keys.sorted()
            attributeNames = names
            guard let attribute = Suggestion.closest(to: key, in: names) else { return nil }
            return "did you mean the attribute \"\(attribute)\"? Attributes go under `attributes:`, as in context: {attributes: {\(attribute): …}}"
        }
        for (key, pair) in reader.fields(pairs, allowed: ScenarioKeys.context, context: "context", belongsIn: belongsIn) {
            if key == "premium" {
                if let value = reader.bool(pair.value, "premium") { context.premium = value.value }
                continue
            }
            guard let entries = reader.mapping(pair.value, "attributes") else { continue }
            // An app passes the attributes its policy declares: at most as many as a policy may declare.
            guard entries.count <= PolicyLimits.maxAttributes else {
                reader.report(.tooManyContextAttributes(entries.count, file: reader.file, range: pair.value.range))
                continue
            }
            // Set at once, after the loop: each change of a context's attributes checks them all again, so one at a time took
            // the square of their number (100 contexts of 1,000 attributes took 12 s).
            var attributes = context.attributes
            defer { context.attributes = attributes }
            for entry in entries {
                guard let name = reader.nameKey(entry.key, in: "attributes") else { continue }
                let type = declaredTypes[name]
                // The premium flag is the context's own (no policy may declare an attribute of that name): written as an
                // attribute, the ask would run as a user who is not premium.
                if name == "premium", type == nil {
                    reader.report(.premiumAsAttribute(inModel: false, value: !["false", "no", "off", "n"].contains(entry.value.scalar?.value.lowercased() ?? ""), file: reader.file, range: entry.key.range))
                    continue
                }
                // Said once per name, for the first hundred names of a file: each costs a search for the closest. Where
                // a comment hides it, it is not counted, so the next place it is named still gets it.
                if type == nil, !reader.isSuppressed("scenario/unknown-attribute", at: entry.key.range),
                    reader.firstReport(of: "undeclared attribute \(name)", upTo: 100)
                {
                    reader.report(.undeclaredAttribute(
                        name, declared: policy.attributes.map(\.name), rule: "scenario/unknown-attribute", file: reader.file, range: entry.key.range))
                }
                let declared = type ?? inferType(entry.value)
                if let value = AttributeValueReader.read(entry.value, as: declared, key: name, reader: &reader) {
                    attributes[name] = value
                }
            }
        }
        return context
    }

    private static func inferType(_ node: YAMLNode) -> ValueType {
        if let items = node.items {
            return items.allSatisfy { $0.scalar.flatMap(FieldReader.intValue) != nil } && !items.isEmpty ? .intList : .stringList
        }
        guard let scalar = node.scalar else { return .string }
        if FieldReader.boolValue(scalar) != nil { return .bool }
        if FieldReader.intValue(scalar) != nil { return .int }
        if scalar.style == .plain, let value = Double(scalar.value), value.isFinite { return .number }
        return .string
    }
}
