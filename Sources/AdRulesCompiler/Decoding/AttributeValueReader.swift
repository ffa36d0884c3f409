import AdRules
import AdRulesYAML

/// Reads an attribute value of a declared type from YAML (defaults in rule files, contexts in scenarios).
enum AttributeValueReader {
    static func read(_ node: YAMLNode, as type: ValueType, key: String, reader: inout FieldReader) -> AttributeValue? {
        if let items = node.items, items.count > PolicyLimits.maxListItems {
            reader.report(.tooManyListItems(key, count: items.count, file: reader.file, range: node.range))
            return nil
        }
        switch type {
        case .bool: return reader.bool(node, key).map { .bool($0.value) }
        case .int:
            if let scalar = node.scalar, let value = FieldReader.intValue(scalar) { return .int(Int64(value)) }
            // A whole number in YAML's form, too long to read safely, says so (as a cap does), not "not a whole number".
            if let scalar = node.scalar, scalar.coreSchemaIntDigits != nil {
                reader.report(.wholeNumberTooLong(key, text: scalar.value, file: reader.file, range: node.range))
                return nil
            }
            // A whole number in quotes (`"1"`) or written another way (`1.0`) is told how to write it, as a cap is.
            let advice = Diagnostic.unquoting(node) { FieldReader.intValue($0) != nil } ?? Diagnostic.wholeNumber(node) { _ in true }
            reader.report(.wrongType(key, expected: "a whole number", found: node, file: reader.file, advice: advice))
            return nil
        case .number:
            switch node.scalar?.numberReading {
            case .value(let value)?: return .number(value)
            case .tooSmall?:
                reader.report(.wrongType(key, expected: NumberReading.tooSmallAdvice, found: node, file: reader.file))
            case .tooLong?:
                reader.report(.wholeNumberTooLong(key, text: node.scalar?.value ?? "", file: reader.file, range: node.range))
            case .notANumber?, nil:
                let advice = Diagnostic.unquoting(node) { if case .value = $0.numberReading { true } else { false } } ?? Diagnostic.finiteNumber(node)
                reader.report(.wrongType(key, expected: "a finite number", found: node, file: reader.file, advice: advice))
            }
            return nil
        // Texts kept composed, as a rule's constants are (``Swift/String/composed``): comparing them stays fast.
        case .string: return reader.string(node, key).map { .string($0.value.composed) }
        case .duration: return reader.duration(node, key).map { .duration($0.value) }
        case .stringList:
            guard let items = reader.sequence(node, key, ofWords: true) else { return nil }
            var list: [String] = []
            for item in items {
                // Each item is a string: a message names the item, not the list.
                guard let value = reader.string(item, "each item of \(key)") else { return nil }
                list.append(value.value.composed)
            }
            return .stringList(list)
        case .intList:
            guard let items = reader.sequence(node, key, ofWords: true) else { return nil }
            var list: [Int64] = []
            for item in items {
                guard let scalar = item.scalar, let value = FieldReader.intValue(scalar) else {
                    if let scalar = item.scalar, scalar.coreSchemaIntDigits != nil {
                        reader.report(.wholeNumberTooLong("each item of \(key)", text: scalar.value, file: reader.file, range: item.range))
                    } else {
                        reader.report(.wrongType("each item of \(key)", expected: "a whole number", found: item, file: reader.file))
                    }
                    return nil
                }
                list.append(Int64(value))
            }
            return .intList(list)
        }
    }
}
