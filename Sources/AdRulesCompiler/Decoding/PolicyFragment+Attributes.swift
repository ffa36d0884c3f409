import AdRules
import AdRulesYAML

extension PolicyFragment {
    static func readAttribute(nameNode entry: YAMLNode, value: YAMLNode, reader: inout FieldReader) -> AttributeFields? {
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
                    // The type its default reads as is the one to suggest (`default: false` wants `type: bool`).
                    let example = "type: \((defaultNode.map(typeSuggested) ?? .string).rawValue)"
                    reader.report(.missingKey("type", in: "attribute \"\(name)\"", example: example, file: reader.file, range: entry.range))
                }
                return nil
            }
        }
        guard let type = readType(typeNode, reader: &reader) else { return nil }
        var declaration = AttributeDeclaration(name: name, location: reader.location(entry), type: type, defaultValue: nil)
        if let defaultNode {
            // `default: ~` or an empty `default:` is no default written out: said so, with a value of the type to write.
            if let scalar = defaultNode.scalar, scalar.isNull, scalar.style == .plain {
                let advice = "write a default such as default: \(exampleDefault(type)), or remove default (an attribute with no default that the app "
                    + "does not supply makes each rule reading it deny with rule_error)"
                reader.report(.wrongType("default", expected: "a value of type \(type.rawValue)", found: defaultNode, file: reader.file, advice: advice))
                return nil
            }
            guard let value = AttributeValueReader.read(defaultNode, as: type, key: "default", reader: &reader) else { return nil }
            declaration.defaultValue = value
        }
        return AttributeFields(declaration: declaration, range: entry.range, typeAt: reader.location(typeNode), defaultAt: defaultNode.map(reader.location))
    }

    /// A default of each type, as written in a rule file: what the advice on a null default shows.
    static func exampleDefault(_ type: ValueType) -> String {
        switch type {
        case .bool: return "false"
        case .int: return "0"
        case .number: return "0.5"
        case .string: return "\"\""
        case .duration: return "0s"
        case .stringList, .intList: return "[]"
        }
    }

    /// The first type a default's value reads as with no finding (a plain `3` an int before a number, a quoted or any
    /// other text a string): the type to suggest for an attribute that has a default and no type.
    private static func typeSuggested(by value: YAMLNode) -> ValueType {
        let order: [ValueType] = [.bool, .int, .number, .duration, .intList, .stringList]
        return order.first { type in
            var trial = FieldReader(file: "")
            return AttributeValueReader.read(value, as: type, key: "default", reader: &trial) != nil && trial.diagnostics.isEmpty
        } ?? .string
    }

    private static func readType(_ node: YAMLNode, reader: inout FieldReader) -> ValueType? {
        let allowed = ValueType.allCases.map(\.rawValue)
        var text: String?
        // A type left out (`s:`, `s: ~`) is nothing, told as one, with an example: not the type "".
        if let scalar = node.scalar, !scalar.isNull {
            text = scalar.value
        } else if let items = node.items, items.count == 1, let inner = items[0].scalar?.value {
            text = "[\(inner)]"
        }
        guard let text else {
            let advice = node.scalar?.isNull == true ? "write a type, as in screen: string" : nil
            reader.report(.wrongType("type", expected: "one of \(allowed.joined(separator: ", "))", found: node, file: reader.file, advice: advice))
            return nil
        }
        guard let type = ValueType(rawValue: text) else {
            reader.report(.unknownEnum("type", value: text, allowed: allowed, file: reader.file, range: node.range))
            return nil
        }
        return type
    }
}
