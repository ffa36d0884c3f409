import AdRules
import AdRulesYAML

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
    /// The most findings of a rule file counted past those kept: past it, the file's entries are read through without
    /// being checked (each finding past the limit was still built, to be counted: 15 million `{}` rules took 40 s).
    static let maxCountedFindings = 100_000
    /// Whether the file's entries were read through unchecked past ``maxCountedFindings``.
    private(set) var stoppedChecking = false
    /// Whether the entry read next is checked: not past ``maxCountedFindings`` (from then on, no entry is).
    mutating func stillChecking() -> Bool {
        guard droppedFindings.count >= Self.maxCountedFindings else { return true }
        stoppedChecking = true
        return false
    }
    /// How many of those were errors: the summary of the findings not shown is an error only if one of them is.
    var droppedErrors: Int { droppedFindings.errors }
    /// Merge keys (`<<`) passed over so far: the cursor reported each; a mapping that had one may lack keys the merge
    /// would have brought, and saying so would only repeat that finding.
    var mergeKeys = 0
    /// Whether a merge key stood at a rule file's top level or among its placements: it may have brought any
    /// placement's pacing (`defaults:`, a group, the placement itself), so no placement is told it has none.
    var mergedPolicyWide = false

    /// Where the reader stands before a block of settings is read: what ``lostSettings(since:)`` compares with.
    struct Mark {
        let diagnostics: Int
        let droppedErrors: Int
        let unreadAliasesAndTags: Int
        let mergeKeys: Int
    }

    var mark: Mark {
        Mark(diagnostics: diagnostics.count, droppedErrors: droppedErrors, unreadAliasesAndTags: unreadAliasesAndTags, mergeKeys: mergeKeys)
    }

    /// Whether a setting read since `mark` may have been lost, so that a finding about what the block lacks
    /// (`pacing/missing`) would only follow from it: an error, shown or counted past the file's bound; a value written
    /// as an alias or with a tag (its yaml/alias or yaml/tag error stands for it); or a merge key, whose settings are not
    /// read (`<<: {min_interval: 1m}` was told to add a min_interval).
    func lostSettings(since mark: Mark) -> Bool {
        droppedErrors > mark.droppedErrors || unreadAliasesAndTags > mark.unreadAliasesAndTags || mergeKeys > mark.mergeKeys
            || diagnostics[mark.diagnostics...].contains { $0.severity == .error }
    }
    /// The unknown keys of a rule file's top level, in order: `tests:` or `segments:` there give away a scenario file
    /// or a usage model saved under a rule file's name.
    var unknownTopLevelKeys: [(key: String, range: SourceRange, isList: Bool)] = []
    /// The keys written glued to their values (`format` of `format:interstitial`), after no-break spaces, or misspelt
    /// (`format` of `formta`, which the finding's "did you mean" names), each already an error: a block is not also told
    /// it lacks the key.
    var gluedKeys: [String] = []
    /// The keys among ``gluedKeys`` that other findings read (a placement's `format`, a file's `placements` and
    /// `version`): what an unknown key past the findings a file keeps is still looked at for.
    static let keysMeantDecideFindings: Set<String> = ["format", "placements", "version"]
    /// The unknown keys of the mappings read so far, in order: a block left empty (`grace:`) whose keys follow it
    /// unindented is told once, at those keys (``PlacementFields``).
    var unknownKeysSeen: [String] = []
    /// The format of the placement being read, once its `format:` is read: a key of an app_open-only block
    /// (`max_wait`, `show_if_ready`) on another format is told to go, not to move into a block that format refuses.
    var placementFormat: AdFormat?
    /// Whether a placement is being read (not `defaults:`, where `launch:` keys are told to go under `launch:`).
    var isReadingPlacement = false
    /// Placements written at a rule file's top level, outside `placements:` (told to indent them under it).
    var placementsOutsideBlock = 0
    /// The ids of placements written outside `placements:` or under another placement, each told so: a group or rule
    /// naming one is not also told it is unknown.
    var misplacedPlacements: [String] = []

    /// Whether a position is where an alias or a tagged node starts: a schema finding there only repeats the
    /// `yaml/alias` or `yaml/tag` one, kept or counted, and is neither kept nor counted.
    var standsForAliasOrTag: (SourcePosition) -> Bool = { _ in false }
    /// How many schema findings an alias or a tag stood for: values left unread all the same.
    private(set) var unreadAliasesAndTags = 0

    /// Findings held back while a placement whose id names a block of settings (`launch:`) is read: that block indented
    /// as a placement id gets one finding, not one a key (``PlacementFields/read(_:_:context:placementKey:topLevelName:misplacedBlock:reader:)``).
    /// Each unknown key's finding is held with the key.
    var heldBack: [(finding: Diagnostic, unknownKey: String?)]?

    mutating func report(_ diagnostic: Diagnostic) {
        if heldBack != nil {
            heldBack?.append((diagnostic, nil))
            return
        }
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
}
