import AdRules
import AdRulesYAML

extension FieldReader {
    static let ambiguousBools = YAMLScalar.ambiguousBools

    static func isAmbiguousBool(_ scalar: YAMLScalar) -> Bool { scalar.isAmbiguousBool }

    static func boolValue(_ scalar: YAMLScalar) -> Bool? { scalar.coreSchemaBool }

    /// A plain scalar that the YAML 1.2 core schema reads as an integer: `[-+]?[0-9]+`, `0o[0-7]+` or
    /// `0x[0-9a-fA-F]+`. At most 18 decimal digits (15 hexadecimal, 20 octal), so that every product or sum the
    /// linter forms from it stays far from overflow.
    static func intValue(_ scalar: YAMLScalar) -> Int? {
        // The usual number, plain decimal digits alone (`6`, `30`), is read in one pass over its bytes: the general
        // path below takes a substring and `Int(_:radix:)`, about 1,200 instructions a number.
        if scalar.style == .plain, let value = plainDecimal(scalar.value.utf8) { return value }
        guard let (text, radix) = scalar.coreSchemaIntDigits else { return nil }
        // A `+` does not count towards the 18 characters; a `-` does.
        let length = text.utf8.first == UInt8(ascii: "+") ? text.utf8.count - 1 : text.utf8.count
        guard length <= (radix == 16 ? 15 : radix == 8 ? 20 : 18) else { return nil }
        return Int(text, radix: radix)
    }

    /// The value of 1 to 18 decimal digits and nothing else; nil for any other text (which the core schema's path reads).
    private static func plainDecimal(_ bytes: String.UTF8View) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    mutating func bool(_ node: YAMLNode, _ key: String) -> Located<Bool>? {
        if let scalar = node.scalar {
            if let value = FieldReader.boolValue(scalar) { return Located(value, at: location(node)) }
            if FieldReader.isAmbiguousBool(scalar) {
                report(.ambiguousBoolWhereBool(key, value: scalar.value, file: file, range: node.range))
                return nil
            }
        }
        report(.wrongType(key, expected: "true or false", found: node, file: file))
        return nil
    }

    /// - Parameter isCap: a cap of shows, which a history must be able to reach (at most
    ///   ``Facts/maxShowsPerHistory``); a larger one is a range error and is not read, like any value out of range.
    /// - Parameter optional: the key may be left out, so an empty value is told it can go (`daily_cap:` with no number).
    mutating func int(_ node: YAMLNode, _ key: String, minimum: Int, isCap: Bool = false, optional: Bool = false) -> Located<Int>? {
        if let scalar = node.scalar, let value = FieldReader.intValue(scalar) {
            guard value >= minimum else {
                report(.outOfRange(key, value: value, minimum: minimum, optional: optional, file: file, range: node.range))
                return nil
            }
            guard !isCap || value <= Facts.maxShowsPerHistory else {
                report(.capTooLarge(key, value, file: file, range: node.range))
                return nil
            }
            return Located(value, at: location(node))
        }
        if let scalar = node.scalar, scalar.coreSchemaIntDigits != nil {
            report(.wholeNumberTooLong(key, text: scalar.value, minimum: minimum, isCap: isCap, capMayBeLeftOut: optional, file: file, range: node.range))
            return nil
        }
        let empty = optional && node.scalar?.isNull == true ? "write a whole number, or remove \(key)" : nil
        // A duration for a count (`daily_cap: 5m`): a cap counts shows; the time between them is min_interval's.
        let time = isCap && node.scalar.map { RuleDuration(parsing: $0.value) != nil } == true
            ? "\(key) counts shows, not time: write a number of shows (the time between shows is min_interval)" : nil
        // `.inf` (YAML's infinity) for "no limit": a cap left out is none.
        let unlimited = isCap && optional
            && (node.scalar?.isCoreSchemaPositiveInfinity == true || node.scalar.map { Self.noLimitWords.contains($0.value.lowercased()) } == true)
            ? "leave \(key) out for no cap" : nil
        report(.wrongType(
            key, expected: "a whole number >= \(minimum)", found: node, file: file,
            advice: empty ?? unlimited ?? time ?? node.scalar.flatMap { Diagnostic.typographicQuotes(around: $0.value) } ?? Diagnostic.unquoting(node) { ($0.coreSchemaInt ?? Int.min) >= minimum }
                ?? Diagnostic.wholeNumber(node) { $0 >= minimum && (!isCap || $0 <= Facts.maxShowsPerHistory) }))
        return nil
    }

    /// Words for "no limit" written as a cap's value: a cap left out is none.
    static let noLimitWords: Set<String> = ["unlimited", "none", "no limit", "nolimit", "infinite", "infinity", "inf", "max", "any", "-1"]

    mutating func duration(_ node: YAMLNode, _ key: String) -> Located<RuleDuration>? {
        guard let scalar = node.scalar, let value = RuleDuration(parsing: scalar.value) else {
            report(.malformedDuration(key, found: node, file: file))
            return nil
        }
        guard value <= .maximum else {
            report(.durationTooLong(key, value: value, file: file, range: node.range))
            return nil
        }
        return Located(value, at: location(node))
    }

    /// A string value; a plain number or boolean (not text in the YAML 1.2 core schema) is a type error, and so is
    /// a text over 4096 characters or with a control character.
    /// - Parameter quotingHelps: false for a setting no word YAML 1.1 reads as a bool is a valid value of (a time zone):
    ///   its own error says what to write, and a warning to quote the word would be advice that mends nothing.
    /// - Parameter required: the key must be written (a rule's id, a test's name, a step's event): an empty value is told
    ///   to be written, not to be removed, which would only trade this finding for a missing key.
    mutating func string(_ node: YAMLNode, _ key: String, quotingHelps: Bool = true, required: Bool = false) -> Located<String>? {
        guard let scalar = node.scalar, !scalar.isNull, FieldReader.boolValue(scalar) == nil else {
            if let scalar = node.scalar, !scalar.isNull {
                // `True` is YAML's boolean, as a plain number is a number: quoted, it is the text.
                report(.scalarWhereString(key, value: scalar.value, kind: "boolean", file: file, range: node.range))
            } else {
                // (A `#` that made the value a comment has advice of its own.)
                let empty = required && node.scalar.map { $0.value.isEmpty && !$0.isCommentedOut } == true ? "write the text after the colon" : nil
                report(.wrongType(key, expected: "a string", found: node, file: file, advice: empty))
            }
            return nil
        }
        if scalar.isCoreSchemaNumber {
            // YAML 1.2 reads it as a number; other YAML tools and the JSON Schema would not take it as text.
            report(.scalarWhereString(key, value: scalar.value, kind: "number", file: file, range: node.range))
            return nil
        }
        if quotingHelps, FieldReader.isAmbiguousBool(scalar) {
            report(.ambiguousBoolInString(key, value: scalar.value, file: file, range: node.range))
        }
        return checkedText(scalar.value, key, node).map { Located($0, at: location(node)) }
    }

    /// - Parameter advice: what to write for a value other tools use in its place (nil: the closest allowed value).
    mutating func enumeration<E: RawRepresentable & CaseIterable>(
        _ node: YAMLNode, _ key: String, as type: E.Type, advice: (String) -> String? = { _ in nil }
    ) -> Located<E>? where E.RawValue == String {
        guard let scalar = node.scalar, !scalar.isNull else {
            report(.wrongType(key, expected: "one of \(E.allCases.map(\.rawValue).joined(separator: ", "))", found: node, file: file))
            return nil
        }
        if let value = E(rawValue: scalar.value) { return Located(value, at: location(node)) }
        // Past the findings a file keeps, the finding is only counted: its message is not built.
        report(.unknownEnum(
            key, value: scalar.value, allowed: hasRoom ? E.allCases.map(\.rawValue) : nil, advice: hasRoom ? advice(scalar.value) : nil, file: file,
            range: node.range))
        return nil
    }
}

extension YAMLScalar {
    /// The whole number a rule file, a scenario or a usage model reads from this scalar (``FieldReader/intValue(_:)``:
    /// at most 18 decimal digits), so that all three read one number alike.
    package var wholeNumber: Int? { FieldReader.intValue(self) }

    /// Whether the scalar is a whole number in YAML's form written with more digits than ``wholeNumber`` reads.
    package var isWholeNumberTooLong: Bool { wholeNumber == nil && coreSchemaIntDigits != nil }
}
