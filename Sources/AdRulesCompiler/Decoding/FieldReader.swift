import AdRules
import AdRulesYAML

/// What reads a YAML file's nodes and records what is wrong with them: the rule-file reader and the
/// usage-model reader share its mappings, lists and key checks.
package protocol NodeReader {
    /// The path diagnostics name.
    var file: String { get }
    /// Records a finding.
    mutating func report(_ diagnostic: Diagnostic)
    /// Where the value's code point at an offset stands in the file, when the reader has the file's bytes.
    mutating func position(ofCodePoint offset: Int, in node: YAMLNode) -> SourcePosition?
}

extension NodeReader {
    /// The pairs of a mapping, or nil (with a `schema/type` diagnostic) for anything else.
    package mutating func mapping(_ node: YAMLNode, _ key: String) -> [YAMLPair]? {
        if let pairs = node.pairs { return pairs }
        report(.wrongType(key, expected: "a mapping of keys to values", found: node, file: file))
        return nil
    }

    /// `version: 1`: another whole number is `schema/version`; anything else, a quoted "1" too, is `schema/type`.
    /// - Parameter documents: what the file is, in the plural (`rule files`, `usage models`).
    package mutating func checkVersion(_ node: YAMLNode, documents: String) {
        guard let scalar = node.scalar, let number = FieldReader.intValue(scalar) else {
            report(.wrongType("version", expected: "the whole number 1", found: node, file: file))
            return
        }
        if number != 1 { report(.badVersion(scalar.value, documents: documents, file: file, range: node.range)) }
    }

    /// The text, or nil (with a diagnostic) when it is longer than a compiled policy may hold (4096 characters) or
    /// holds a control character: texts end up in compiled policies, logs, terminals and reports.
    package mutating func checkedText(_ text: String, _ key: String, _ node: YAMLNode) -> String? {
        if text.utf8.count > PolicyIDs.maxTextLength, text.unicodeScalars.count > PolicyIDs.maxTextLength {
            report(.tooLong(key, length: text.unicodeScalars.count, file: file, range: node.range))
            return nil
        }
        if ControlCharacters.contains(in: text), let control = text.unicodeScalars.first(where: ControlCharacters.isControl) {
            // At the character itself: a tab at the end of a block's second line, not the block's `>` (a finding's
            // position is where to look).
            let scalars = text.unicodeScalars
            let offset = scalars.firstIndex(where: ControlCharacters.isControl).map { scalars.distance(from: scalars.startIndex, to: $0) }
            let at = offset.flatMap { position(ofCodePoint: $0, in: node) }.map { SourceRange(at: $0) } ?? node.range
            report(.controlCharacter(key, scalar: control, file: file, range: at))
            return nil
        }
        return text
    }

    /// The items of a sequence, or nil (with a diagnostic).
    /// - Parameter example: an item as it is written, for the message (`- {placement: …}`).
    package mutating func sequence(_ node: YAMLNode, _ key: String, example: String? = nil) -> [YAMLNode]? {
        if let items = node.items { return items }
        report(.wrongType(key, expected: "a list", found: node, file: file, advice: example.map { "write each item on its own line, as in \($0)" }))
        return nil
    }

    /// A list of named entries (`segments`, `tests`). One written as a mapping keyed by name, as a rule file keys its
    /// placements, is told to make each entry a list item with `name:` (its settings stay indented as they are).
    /// - Parameter entryKeys: the keys an entry takes: a first key among them is an entry's own key, not its name.
    package mutating func namedList(_ node: YAMLNode, _ key: String, entry: String, entryKeys: [String]) -> [YAMLNode]? {
        // Only a name that reads back as written is advised (`"#1 test"` would be a comment after `name: `).
        if let first = node.pairs?.first, first.value.pairs != nil, let name = first.key.scalar?.value, !entryKeys.contains(name),
            name.split(separator: " ").allSatisfy({ GluedKey.isPlain(String($0)) }), !name.hasPrefix("-"), !name.hasSuffix(":"), !name.contains(": "),
            case let plain = YAMLScalar(value: name, style: .plain), !plain.isNull, plain.coreSchemaBool == nil, !plain.isCoreSchemaNumber
        {
            report(.keyedByName(key, entry: entry, name: name, found: node, file: file))
            return nil
        }
        return sequence(node, key)
    }

    /// Splits a mapping into known keys, reporting unknown ones (with "did you mean"). A plain `<<` merge key is
    /// left out: the YAML reader has reported it already.
    /// - Parameter belongsIn: for a file kind with blocks of its own (a usage model), where a key unknown here belongs.
    package mutating func fields(
        _ pairs: [YAMLPair], allowed: [String], context: String, belongsIn: (String) -> String? = { _ in nil }
    ) -> [(key: String, pair: YAMLPair)] {
        var result: [(key: String, pair: YAMLPair)] = []
        for pair in pairs {
            guard let key = pair.key.scalar?.value else {
                report(.wrongType("a key in \(context)", expected: "a plain word", found: pair.key, file: file))
                continue
            }
            if allowed.contains(key) {
                result.append((key, pair))
            } else if !FieldReader.isMergeKey(pair.key) {
                report(.unknownKey(
                    key, in: context, allowed: allowed, file: file, range: pair.key.range, belongsIn: belongsIn(key), isPlain: pair.key.scalar?.style == .plain))
            }
        }
        return result
    }

    /// Whether a key is YAML's merge key: a plain `<<`, which the YAML reader reports as `yaml/alias`. A quoted `"<<"`
    /// is an ordinary key.
    static func isMergeKey(_ key: YAMLNode) -> Bool {
        guard let scalar = key.scalar else { return false }
        return scalar.style == .plain && scalar.value == "<<"
    }
}

/// Reads typed values out of YAML nodes, recording a diagnostic for every bad one.
struct FieldReader: NodeReader {
    let file: String
    /// The file's name as every location read from it shares it.
    let source: SourceFile
    var diagnostics: [Diagnostic] = []
    /// The findings this file gets once, by key (``firstReport(of:upTo:)``).
    private var reportedOnce = Set<String>()

    /// Exact positions inside the file's scalars, when the reader has its bytes.
    private var positions: ScalarPositions

    init(file: String, bytes: [UInt8]? = nil) {
        self.file = file
        source = SourceFile(file)
        positions = ScalarPositions(bytes: bytes)
    }

    mutating func position(ofCodePoint offset: Int, in node: YAMLNode) -> SourcePosition? {
        positions.position(ofCodePoint: offset, in: node)
    }

    func location(_ node: YAMLNode) -> SourceLocation {
        SourceLocation(file: source, line: node.range.start.line, column: node.range.start.column)
    }

    /// Findings past this many in one file are counted, not kept: a file with 150,000 errors gets a report a
    /// person can read, in seconds.
    static let maxDiagnostics = YAMLEventCursor.maxFindings

    /// Whether a finding that a file gets once (by `key`) is due: true the first time, and for at most `limit`
    /// keys in all.
    mutating func firstReport(of key: String, upTo limit: Int) -> Bool {
        guard !reportedOnce.contains(key) else { return false }
        guard reportedOnce.count < limit else {
            // Past the limit a key is only counted, so that the file can say how many more there were.
            notReported.insert(key)
            return false
        }
        reportedOnce.insert(key)
        return true
    }

    /// The keys ``firstReport(of:upTo:)`` turned away for the limit: findings said once that were not said.
    private(set) var notReported: Set<String> = []

    /// The file's `# adrules:disable-next-line` comments, when they are known while it is read: a finding they hide
    /// is dropped as it is reported, and a finding a file gets once is counted at the first place none hides it.
    var suppressions: Suppressions?
    /// The comments as found in the bytes alone, for a file decoded as it is read: what they may hide is kept out of
    /// the count of findings (``report(_:)``).
    var mayBeSuppressed: Suppressions?
    /// Findings kept that ``mayBeSuppressed`` may hide.
    private var uncounted = 0
    /// "Did you mean" for each placement a scenario names that the policy does not have, once searched.
    var placementHints: [String: String] = [:]

    /// Whether a comment hides a warning of `rule` at `range`.
    func isSuppressed(_ rule: String, at range: SourceRange) -> Bool {
        suppressions?.suppresses(Diagnostic(.warning, rule: rule, message: "", file: file, range: range)) ?? false
    }
    /// The findings counted and not kept.
    var droppedFindings = DroppedFindings()
    /// How many findings were counted and not kept.
    var dropped: Int { droppedFindings.count }
    /// How many of those were errors: the summary of the findings not shown is an error only if one of them is.
    var droppedErrors: Int { droppedFindings.errors }
    /// Merge keys (`<<`) passed over so far: the cursor reported each; a mapping that had one may lack keys the merge
    /// would have brought, and saying so would only repeat that finding.
    var mergeKeys = 0
    /// The unknown keys of a rule file's top level, in order: `tests:` or `segments:` there give away a scenario file
    /// or a usage model saved under a rule file's name.
    var unknownTopLevelKeys: [(key: String, range: SourceRange, isList: Bool)] = []
    /// The keys written glued to their values (`format` of `format:interstitial`), after no-break spaces, or misspelt
    /// (`format` of `formta`, which the finding's "did you mean" names), each already an error: a block is not also told
    /// it lacks the key.
    var gluedKeys: [String] = []

    /// Whether a position is where an alias or a tagged node starts: a schema finding there only repeats the
    /// `yaml/alias` or `yaml/tag` one, kept or counted, and is neither kept nor counted.
    var standsForAliasOrTag: (SourcePosition) -> Bool = { _ in false }
    /// How many schema findings an alias or a tag stood for: values left unread all the same.
    private(set) var unreadAliasesAndTags = 0

    mutating func report(_ diagnostic: Diagnostic) {
        if diagnostic.rule.hasPrefix("schema/") && standsForAliasOrTag(diagnostic.range.start) {
            unreadAliasesAndTags += 1
            return
        }
        // A finding a comment hides is dropped, and never counts towards the limit: a file that hides a thousand
        // warnings still shows the error after them.
        if suppressions?.suppresses(diagnostic) == true { return }
        // Where the comments are not known yet (a rule file is decoded as libyaml reads it), a finding a comment above
        // may hide is kept aside from the count; the comments are applied once the file is read.
        if mayBeSuppressed?.suppresses(diagnostic) == true {
            diagnostics.append(diagnostic)
            uncounted += 1
            return
        }
        guard droppedFindings.keeps(diagnostic, kept: diagnostics.count - uncounted) else { return }
        diagnostics.append(diagnostic)
    }

    /// Whether another finding would be kept (not only counted): what is worth a "did you mean" search.
    var hasRoom: Bool { diagnostics.count - uncounted < FieldReader.maxDiagnostics }

    /// The finding of a file that held more than ``maxDiagnostics``: how many more there are, or nil.
    var tooManyFindings: Diagnostic? { droppedFindings.summary(file: file) }

    static let ambiguousBools = YAMLScalar.ambiguousBools

    static func isAmbiguousBool(_ scalar: YAMLScalar) -> Bool { scalar.isAmbiguousBool }

    static func boolValue(_ scalar: YAMLScalar) -> Bool? { scalar.coreSchemaBool }

    /// A plain scalar that the YAML 1.2 core schema reads as an integer: `[-+]?[0-9]+`, `0o[0-7]+` or
    /// `0x[0-9a-fA-F]+`. At most 18 decimal digits (15 hexadecimal, 20 octal), so that every product or sum the
    /// linter forms from it stays far from overflow.
    static func intValue(_ scalar: YAMLScalar) -> Int? {
        guard let (text, radix) = scalar.coreSchemaIntDigits else { return nil }
        // A `+` does not count towards the 18 characters; a `-` does.
        let length = text.utf8.first == UInt8(ascii: "+") ? text.utf8.count - 1 : text.utf8.count
        guard length <= (radix == 16 ? 15 : radix == 8 ? 20 : 18) else { return nil }
        return Int(text, radix: radix)
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
                report(.outOfRange(key, value: value, minimum: minimum, file: file, range: node.range))
                return nil
            }
            guard !isCap || value <= Facts.maxShowsPerHistory else {
                report(.capTooLarge(key, value, file: file, range: node.range))
                return nil
            }
            return Located(value, at: location(node))
        }
        if let scalar = node.scalar, scalar.coreSchemaIntDigits != nil {
            report(.wholeNumberTooLong(key, text: scalar.value, file: file, range: node.range))
            return nil
        }
        let empty = optional && node.scalar?.isNull == true ? "write a whole number, or remove \(key)" : nil
        report(.wrongType(
            key, expected: "a whole number >= \(minimum)", found: node, file: file,
            advice: empty ?? Diagnostic.unquoting(node) { ($0.coreSchemaInt ?? Int.min) >= minimum }
                ?? Diagnostic.wholeNumber(node) { $0 >= minimum && (!isCap || $0 <= Facts.maxShowsPerHistory) }))
        return nil
    }

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
    mutating func string(_ node: YAMLNode, _ key: String) -> Located<String>? {
        guard let scalar = node.scalar, !scalar.isNull, FieldReader.boolValue(scalar) == nil else {
            report(.wrongType(key, expected: "a string", found: node, file: file))
            return nil
        }
        if scalar.isCoreSchemaNumber {
            // YAML 1.2 reads it as a number; other YAML tools and the JSON Schema would not take it as text.
            report(.numberWhereString(key, value: scalar.value, file: file, range: node.range))
            return nil
        }
        if FieldReader.isAmbiguousBool(scalar) {
            report(.ambiguousBoolInString(key, value: scalar.value, file: file, range: node.range))
        }
        return checkedText(scalar.value, key, node).map { Located($0, at: location(node)) }
    }

    mutating func enumeration<E: RawRepresentable & CaseIterable>(
        _ node: YAMLNode, _ key: String, as type: E.Type
    ) -> Located<E>? where E.RawValue == String {
        let allowed = E.allCases.map(\.rawValue)
        guard let scalar = node.scalar, !scalar.isNull else {
            report(.wrongType(key, expected: "one of \(allowed.joined(separator: ", "))", found: node, file: file))
            return nil
        }
        if let value = E(rawValue: scalar.value) { return Located(value, at: location(node)) }
        report(.unknownEnum(key, value: scalar.value, allowed: allowed, file: file, range: node.range))
        return nil
    }

    /// A list of placement ids (a group's members, a rule's `deny`) holds at most as many as a policy has placements,
    /// the most a compiled policy's loader reads; the entries past that are not read.
    mutating func checkListLength(_ items: [YAMLNode], _ what: String) {
        guard items.count > PolicyLimits.maxPlacements else { return }
        report(.tooManyListedPlacements(what, count: items.count, file: file, range: items[PolicyLimits.maxPlacements].range))
    }

    /// The id an entry is read under: as written, or without the no-break spaces pasted before it (an error of its
    /// own), so that the groups and rules naming it are not also told it does not exist.
    static func idMeant(_ node: YAMLNode, _ written: String) -> String {
        GluedKey.isIndentedWithNoBreakSpaces(node) ? GluedKey.unindented(written) : written
    }

    /// Checks an id against its allowed characters and length. An id indented with no-break spaces (pasted from a
    /// document), which YAML reads as part of it, is told so rather than called invalid (see ``idMeant(_:_:)``).
    @discardableResult
    mutating func checkID(_ node: YAMLNode, kind: String, lowercaseOnly: Bool) -> Bool {
        let id = node.scalar?.value ?? ""
        if GluedKey.isIndentedWithNoBreakSpaces(node) {
            report(.unknownKey(id, in: kind + "s", allowed: [], file: file, range: node.range))
            return false
        }
        let valid = PolicyIDs.isValid(id, lowercaseOnly: lowercaseOnly)
        if !valid {
            report(.badID(kind, id: id, allowed: PolicyIDs.allowed(lowercaseOnly: lowercaseOnly), file: file, range: node.range))
        }
        return valid
    }
}

/// The findings of one file past the limit (``YAMLEventCursor/maxFindings``): counted, not kept, so that a hostile file
/// cannot flood a CI log. Rule files, scenario files and usage models share it.
package struct DroppedFindings {
    package private(set) var count = 0
    /// How many of them were errors: the summary is an error only if one of them is.
    package private(set) var errors = 0
    /// The findings kept, to tell a repeat.
    private var kept = Set<Diagnostic>()

    package init() {}

    /// Whether a file that keeps `kept` findings keeps one more; when not, it is counted. The same finding again (a
    /// value copied by an alias, read once for each copy) is neither kept nor counted: a thousand copies of one
    /// mistake hid the next one.
    package mutating func keeps(_ diagnostic: Diagnostic, kept count: Int) -> Bool {
        guard !kept.contains(diagnostic) else { return false }
        guard count >= YAMLEventCursor.maxFindings else {
            kept.insert(diagnostic)
            return true
        }
        self.count += 1
        if diagnostic.severity == .error { errors += 1 }
        return false
    }

    /// How many findings were not kept, as a finding (an error when one of them is), or nil.
    package func summary(file: String) -> Diagnostic? {
        count > 0 ? .tooManyFindings(count, errors: errors, file: file) : nil
    }
}
