import AdRules
import AdRulesYAML

/// What one rule file says, before the files of a policy are merged.
struct PolicyFragment: Sendable {
    struct Setting: Sendable {
        /// The value as findings name it.
        var canonical: String
        /// What two files' values are compared by: the canonical text, but one text for each of UTC's names.
        var comparedAs: String
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
        /// Whether a setting of the group could not be read (an error in it, or a merge key): the pacing it may hold is
        /// unknown, and its members get no `pacing/missing`.
        var hadErrors = false
    }

    struct RuleFields: Sendable {
        /// Nil when the rule has no id, or one that is not a text (reported): its condition and placements are still
        /// checked, and the rule is left out of the policy.
        var id: Located<String>?
        var range: SourceRange
        var deny: [Located<String>]?
        /// The placement ids the `deny` list names, also when it holds `"*"` too (each must exist).
        var named: [Located<String>]
        var when: Located<String>?
        var whenNode: YAMLNode?
        var message: String?
        var messageAt: SourceLocation?
    }

    struct AttributeFields: Sendable {
        var declaration: AttributeDeclaration
        var range: SourceRange
        /// Where the type and the default are written (the type is the value itself in `level: int`).
        var typeAt: SourceLocation
        var defaultAt: SourceLocation?
    }

    var file: String
    /// The file is not a mapping of keys (a list, a word, an empty document): nothing in it was read, so findings
    /// about the policy as a whole (no placements, an unknown placement) would only follow from that.
    var rootUnread = false
    /// Where `version:` is written: a finding about the whole policy (`policy/empty`) is placed there, where a comment
    /// on the line above can hide it, and a report of changes points there for a policy-wide setting left unwritten.
    var versionKey: (range: SourceRange, location: SourceLocation)?
    /// `placements:` is not a mapping (a list, a word, nothing), or its first entries are settings with no id line above
    /// them: its placements (or that one) were not read, so "no placements" and "unknown placement" would only follow
    /// from that, as from an unread file.
    var placementsUnread = false
    /// Whether a placement is written outside `placements:` (at the top level, told so): a policy with no other
    /// placement is not also told it has none.
    var placementsOutsideBlock = false
    /// The ids of placements written outside `placements:` or under another placement (``FieldReader/misplacedPlacements``).
    var misplacedPlacements: [String] = []
    /// Whether any placement may have lost settings this file meant for it, its pacing among them: a merge key at the
    /// top level or among the placements (``FieldReader/mergedPolicyWide``), or a placement's setting indented with
    /// no-break spaces, which YAML reads as a top-level key (`\u{A0}\u{A0}\u{A0}\u{A0}min_interval: 1m`).
    var placementSettingsMayBeLost = false
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

    /// Whether a document's root is nothing at all: an empty plain scalar (not `~` or `null`, which were written).
    private static func isNothing(_ root: YAMLEvent) -> Bool {
        guard case .scalar(let node) = root, let scalar = node.scalar else { return false }
        return scalar.style == .plain && scalar.value.isEmpty
    }

    /// Decodes one file from its events, each placement as its events arrive.
    /// - Returns: the fragment; when the cursor stopped inside the document (a syntax error), what it holds is partial.
    static func decode(_ cursor: YAMLEventCursor, reader: inout FieldReader) -> PolicyFragment {
        let file = reader.file
        var fragment = PolicyFragment(file: file)
        // No document, or one with nothing in it (`---` alone, or with every line after it commented out), is an empty
        // file, and told so, rather than "not nothing (null)" at the line after the `---`.
        guard let root = cursor.next(), !isNothing(root) else {
            reader.report(.missingKey("version", in: "this rule file", example: "version: 1", file: file, range: .fileStart))
            return fragment
        }
        guard reader.enterMapping(root, cursor, "a rule file"), case .mappingStart(let start) = root else {
            fragment.rootUnread = true
            return fragment
        }
        var sawVersion = false
        // `placements:` with nothing under it: told so unless its placements follow unindented, which are told to
        // indent under it (the same slip, said once at each of them).
        var emptyPlacements: Diagnostic?
        // The last placement, when it has no value: where that value stands, and how many unknown top-level keys came
        // before the placements' block ended. Its settings may follow indented with no-break spaces, which YAML reads as
        // top-level keys (each says so): "must be a mapping, not nothing" there is the same slip.
        var emptyLastPlacement: (at: SourcePosition, unknownKeys: Int)?
        reader.forEachField(cursor, allowed: RuleFileKeys.top, context: "the top level") { reader, _, key, keyNode, event in
            if let empty = emptyLastPlacement, reader.unknownTopLevelKeys.count == empty.unknownKeys { emptyLastPlacement = nil }
            switch key {
            case "defaults":
                let block = PlacementFields.read(event, cursor, context: "defaults", placementKey: nil, reader: &reader)
                fragment.defaults = block
                fragment.remember(key, "{\(block.canonical)}", keyNode, reader: reader)
            case "placements":
                fragment.readPlacements(event, cursor, emptyPlacements: &emptyPlacements, emptyLastPlacement: &emptyLastPlacement, reader: &reader)
            case "groups":
                fragment.readGroups(event, cursor, reader: &reader)
            case "attributes":
                fragment.readAttributes(event, cursor, reader: &reader)
            case "rules":
                fragment.readRules(event, cursor, reader: &reader)
            default:
                guard let value = reader.shallowNode(event, cursor) else { return }
                if key == "version" {
                    sawVersion = true
                    fragment.versionKey = (keyNode.range, reader.location(keyNode))
                }
                fragment.readSetting(key, value, reader: &reader)
            }
        }
        // `placments:` (misspelt, or glued to its value) is an unknown key that names placements: its placements were not
        // read, and a group or rule naming one is not also told to define it.
        if let emptyPlacements, reader.placementsOutsideBlock == 0 { reader.report(emptyPlacements) }
        if reader.gluedKeys.contains("placements") { fragment.placementsUnread = true }
        fragment.placementsOutsideBlock = reader.placementsOutsideBlock > 0
        fragment.misplacedPlacements = reader.misplacedPlacements
        // `verison: 1` is an unknown key that names version: the file is not also told it lacks one. (Nor is a file read
        // through unchecked past so many findings, whose version may stand in the part not read.)
        if !sawVersion, !reader.gluedKeys.contains("version"), !reader.stoppedChecking {
            reader.report(.missingKey("version", in: "this rule file", example: "version: 1", file: file, range: SourceRange(at: start)))
        }
        func isLostPlacementSetting(_ key: String) -> Bool {
            GluedKey.isIndentedWithPastedSpaces(key) && RuleFileKeys.placement.contains(GluedKey.unindented(key))
        }
        let lostSetting = reader.unknownTopLevelKeys.contains { isLostPlacementSetting($0.key) }
        fragment.placementSettingsMayBeLost = reader.mergedPolicyWide || lostSetting
        if let empty = emptyLastPlacement, empty.unknownKeys < reader.unknownTopLevelKeys.count,
            isLostPlacementSetting(reader.unknownTopLevelKeys[empty.unknownKeys].key)
        {
            reader.diagnostics.removeAll {
                $0.rule == "schema/type" && $0.range.start == empty.at && $0.message.contains(", not \(YAMLNode.nullDescription)")
            }
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
            // `timezone: -6` or `+9`: an offset, which daylight saving changes, is no zone; "quote it" would not help.
            if let scalar = value.scalar, scalar.style == .plain, scalar.isCoreSchemaNumber {
                reader.report(.wrongType(
                    key, expected: "an IANA time zone name or device", found: value, file: reader.file,
                    advice: "write the zone's name, as in America/Chicago or Asia/Tokyo (an offset changes with daylight saving), or device"))
                return
            }
            // (`timezone: no` is an unknown zone, which its own error says; quoted, it would be one still.)
            timezone = reader.string(value, key, quotingHelps: false)
            remember(key, timezone.map { "\"\($0.value)\"" }, value, comparedAs: timezone.map { "\"\(TimeZoneNames.comparedName(of: $0.value))\"" }, reader: reader)
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

    private mutating func remember(_ key: String, _ canonical: String?, _ node: YAMLNode, comparedAs: String? = nil, reader: FieldReader) {
        guard let canonical else { return }
        settings[key] = Setting(canonical: canonical, comparedAs: comparedAs ?? canonical, location: reader.location(node), range: node.range)
    }
}
