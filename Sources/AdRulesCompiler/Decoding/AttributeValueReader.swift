import AdRules
import AdRulesYAML

/// Reads an attribute value of a declared type from YAML (defaults in rule files, contexts in scenarios).
enum AttributeValueReader {
    static func read(_ node: YAMLNode, as type: ValueType, key: String, reader: inout FieldReader) -> AttributeValue? {
        if let items = node.items, items.count > PolicyLimits.maxListItems {
            reader.report(Diagnostic(
                .error, rule: "schema/range",
                message: "\(key) lists \(items.count) items; a list value holds at most \(PolicyLimits.maxListItems): shorten it",
                file: reader.file, range: node.range))
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
            reader.report(.wrongType(key, expected: "a whole number", found: node, file: reader.file))
            return nil
        case .number:
            switch node.scalar?.numberReading {
            case .value(let value)?: return .number(value)
            case .tooSmall?:
                reader.report(.wrongType(key, expected: "a number a double can tell from 0 (about 5e-324 or larger), or 0", found: node, file: reader.file))
            case .tooLong?:
                reader.report(.wholeNumberTooLong(key, text: node.scalar?.value ?? "", file: reader.file, range: node.range))
            case .notANumber?, nil:
                reader.report(.wrongType(key, expected: "a finite number", found: node, file: reader.file))
            }
            return nil
        // Texts kept composed, as a rule's constants are (``Swift/String/composed``): comparing them stays fast.
        case .string: return reader.string(node, key).map { .string($0.value.composed) }
        case .duration: return reader.duration(node, key).map { .duration($0.value) }
        case .stringList:
            guard let items = reader.sequence(node, key) else { return nil }
            var list: [String] = []
            for item in items {
                guard let value = reader.string(item, key) else { return nil }
                list.append(value.value.composed)
            }
            return .stringList(list)
        case .intList:
            guard let items = reader.sequence(node, key) else { return nil }
            var list: [Int64] = []
            for item in items {
                guard let scalar = item.scalar, let value = FieldReader.intValue(scalar) else {
                    if let scalar = item.scalar, scalar.coreSchemaIntDigits != nil {
                        reader.report(.wholeNumberTooLong(key, text: scalar.value, file: reader.file, range: item.range))
                    } else {
                        reader.report(.wrongType(key, expected: "a list of whole numbers", found: item, file: reader.file))
                    }
                    return nil
                }
                list.append(Int64(value))
            }
            return .intList(list)
        }
    }
}

/// How a scalar reads as a number (a `number` attribute's value, a usage model's number).
package enum NumberReading: Equatable {
    case value(Double)
    /// A float too small for a double, not 0 as written (`1e-400`): it would read as 0.
    case tooSmall
    /// A hex or octal whole number with more digits than are read safely.
    case tooLong
    /// Not a finite number in the core schema (`0x1p3` and `nan` are Swift's, and text in YAML).
    case notANumber
}

extension YAMLScalar {
    /// The scalar as the YAML 1.2 core schema reads a number: a whole number in any of its forms (`12`, `0o17`,
    /// `0x1F`) or a float, finite (NaN and infinities compare with nothing and have no JSON form).
    package var numberReading: NumberReading {
        guard isCoreSchemaNumber else { return .notANumber }
        if let whole = FieldReader.intValue(self) { return .value(Double(whole)) }
        // A long decimal whole number reads as the nearest double; a long hex or octal one does not read.
        if let digits = coreSchemaIntDigits, digits.radix != 10 { return .tooLong }
        guard let value = Double(value), value.isFinite else { return .notANumber }
        let mantissa = self.value.prefix { $0 != "e" && $0 != "E" }
        return value != 0 || !mantissa.contains(where: { ("1"..."9").contains($0) }) ? .value(value) : .tooSmall
    }
}
