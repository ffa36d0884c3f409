import AdRules
import AdRulesYAML

/// Reading rule files from the cursor's events: the loops over a mapping's keys and a list's items, with the
/// same findings as the node-based reading (unknown keys, wrong kinds), and nothing of the document kept.
extension FieldReader {
    /// The value `event` begins as a node: a scalar as it is; a mapping or a list is read through and stands as
    /// an empty node of its kind with its whole range, which is all a "must be …, not a mapping" finding needs.
    /// - Returns: the node, or nil when reading stopped inside the value.
    func shallowNode(_ event: YAMLEvent, _ cursor: YAMLEventCursor) -> YAMLNode? {
        switch event {
        case .scalar(let node): return node
        case .mappingStart(let start): return cursor.skipCollection().map { YAMLNode(.mapping([]), range: SourceRange(start: start, end: $0)) }
        case .sequenceStart(let start): return cursor.skipCollection().map { YAMLNode(.sequence([]), range: SourceRange(start: start, end: $0)) }
        case .end(let at): return YAMLNode(.sequence([]), range: SourceRange(at: at))
        }
    }

    /// Whether `event` starts a mapping (read its keys next); anything else gets `schema/type` and is read through.
    /// - Parameter key: what the value is, for its finding (made only for one: a placement's names its id).
    mutating func enterMapping(_ event: YAMLEvent, _ cursor: YAMLEventCursor, _ key: @autoclosure () -> String) -> Bool {
        if case .mappingStart = event { return true }
        if case .sequenceStart(let start) = event {
            // Its keys written as items of a list (`- show_on_first_load: true`): told to lose the `- `, from the first
            // key of each item (of the first four), the rest read through.
            // Only items whose first keys differ are keys of one mapping: `- id: a`, `- id: b` are records, which
            // losing the `- ` would turn into repeated keys. (Looked at for the first hundred items.)
            let level = cursor.openCollections
            var (keys, items, allKeyed) = ([String](), 0, true)
            var firstKeys = Set<String>()
            while let item = cursor.next() {
                if case .end(let end) = item {
                    let node = YAMLNode(.sequence([]), range: SourceRange(start: start, end: end))
                    if allKeyed, items > 0, items <= 100 {
                        report(.wrongType(key(), expected: "a mapping of keys to values", found: node, file: file, advice: Diagnostic.keysAsListItems(keys, items: items)))
                    } else {
                        _ = mapping(node, key())
                    }
                    return false
                }
                items += 1
                if items <= 100, case .mappingStart = item, case .scalar(let first)? = cursor.next(), let word = first.scalar?.value,
                    firstKeys.insert(word).inserted
                {
                    if keys.count < 4 { keys.append(word) }
                } else {
                    allKeyed = false
                }
                cursor.skip(toOpenCollections: level)
            }
            return false
        }
        if let node = shallowNode(event, cursor) { _ = mapping(node, key()) }
        return false
    }

    /// Whether `event` starts a list (read its items next); anything else gets `schema/type` and is read through.
    mutating func enterSequence(_ event: YAMLEvent, _ cursor: YAMLEventCursor, _ key: String) -> Bool {
        if case .sequenceStart = event { return true }
        if let node = shallowNode(event, cursor) { _ = sequence(node, key) }
        return false
    }

    /// Reads the entries of the mapping just entered, to its end. `body` gets each key (a collection key as an
    /// empty node of its kind) and the first event of its value; whatever of the value `body` leaves unread is
    /// read through after it.
    mutating func forEachEntry(_ cursor: YAMLEventCursor, _ body: (inout FieldReader, YAMLNode, YAMLEvent) -> Void) {
        let level = cursor.openCollections
        while let event = cursor.next() {
            let key: YAMLNode
            switch event {
            case .end: return
            // A scalar key, the usual one, is taken as it is: through `shallowNode`'s optional, each key was destroyed
            // through the runtime's generic code for optionals (about 115 instructions a key).
            case .scalar(let node): key = node
            default:
                guard let node = shallowNode(event, cursor) else { return }
                key = node
            }
            guard let value = cursor.next() else { return }
            if stillChecking() { body(&self, key, value) }
            cursor.skip(toOpenCollections: level)
        }
    }

    /// Reads the keys of the mapping just entered, as ``fields(_:allowed:context:belongsIn:)`` splits a mapping node: an
    /// unknown key gets `schema/unknown-key` (with where it belongs, or "did you mean"), a key that is not a
    /// word gets `schema/type`, a plain `<<` is passed over (the cursor reported it); `body` reads each allowed key's
    /// value, given the key's index in `allowed` too. A quoted `"<<"` is no merge key: it is an unknown key like any other.
    /// - Parameter listed: the keys an unknown key's message lists and suggests from, when not all of `allowed` are
    ///   right there (`defaults:` reads `format` to say it belongs on each placement, and never suggests it).
    mutating func forEachField(
        _ cursor: YAMLEventCursor, allowed: [String], listed: [String]? = nil, context: @autoclosure () -> String,
        _ body: (inout FieldReader, Int, String, YAMLNode, YAMLEvent) -> Void
    ) {
        // The keys read so far, which "did you mean" does not suggest for a later unknown one: their indices in `allowed`
        // (a set of their names took a hash and an insert of every key read, and a list an allocation a mapping).
        var present = IndexBits()
        forEachEntry(cursor) { reader, keyNode, value in
            guard let key = reader.wordKey(keyNode, in: context()) else { return }
            if let index = allowed.keyIndex(of: key) {
                present.insert(index)
                body(&reader, index, key, keyNode, value)
            } else if FieldReader.isMergeKey(keyNode) {
                reader.mergeKeys += 1
                if allowed == RuleFileKeys.top { reader.mergedPolicyWide = true }
            } else {
                // A placement written at the top level, outside `placements:` (its `format:` gives it away), says so.
                var belongsIn: String?
                // (Read only for a mapping: its keys are read here, and the value is passed over.)
                func holdsFormat() -> Bool {
                    guard case .mappingStart = value else { return false }
                    var hasFormat = false
                    reader.forEachEntry(cursor) { _, inner, _ in hasFormat = hasFormat || inner.scalar?.value == "format" }
                    return hasFormat
                }
                if allowed == RuleFileKeys.top, RuleFileKeys.relocation(of: key, allowed: allowed) == nil, holdsFormat() {
                    belongsIn = "\(YAMLScalar.shortened(key)) has a format, so it is a placement: indent it under `placements:`"
                    reader.placementsOutsideBlock += 1
                    reader.misplacedPlacements.append(key)
                } else if reader.isReadingPlacement, allowed == RuleFileKeys.placement, holdsFormat() {
                    // A placement indented under the one above it.
                    belongsIn = "\(YAMLScalar.shortened(key)) has a format, so it is a placement of its own: indent it as the placement above it is, under `placements:`"
                    reader.misplacedPlacements.append(key)
                }
                if allowed == RuleFileKeys.top {
                    let isList = if case .sequenceStart = value { true } else { false }
                    reader.unknownTopLevelKeys.append((key, keyNode.range, isList))
                }
                // Past the findings a file keeps, an unknown key is counted, not shown: where it belongs and "did you mean"
                // are not looked for (about 0.1 ms a key: a placement of a million unknown keys took minutes). What it
                // meant is, as it decides other findings (a misspelt or glued key counts as written).
                let advised = reader.hasRoom || reader.heldBack != nil
                    || reader.mayBeSuppressed?.names(Suppressions.unknownKey, file: reader.file, line: keyNode.range.start.line) == true
                // A key of `launch:` or `resume:` on a placement of another format: that format has neither block.
                if advised, belongsIn == nil, reader.isReadingPlacement {
                    belongsIn = RuleFileKeys.appOpenOnlyAdvice(for: key, allowed: allowed, format: reader.placementFormat)
                }
                // Where a key belongs is found among the keys read here (`max_wait` in `defaults:` belongs in `launch:`).
                if advised, listed != nil, belongsIn == nil { belongsIn = RuleFileKeys.relocation(of: key, allowed: allowed) }
                if advised, let meant = GluedKey.keyMeant(key, allowed: listed ?? allowed, told: belongsIn == nil, synonyms: allowed != RuleFileKeys.top) {
                    reader.gluedKeys.append(meant)
                } else if !advised, case let read = (listed ?? allowed).filter(FieldReader.keysMeantDecideFindings.contains), !read.isEmpty,
                    let meant = GluedKey.keyMeant(key, allowed: read, relocation: { _ in nil }, synonyms: allowed != RuleFileKeys.top)
                {
                    // (Counted: only the keys whose absence is a finding are looked for, and nowhere else.)
                    reader.gluedKeys.append(meant)
                }
                reader.unknownKeysSeen.append(key)
                let finding = advised
                    ? Diagnostic.unknownKey(
                        key, in: context(), allowed: listed ?? allowed, file: reader.file, range: keyNode.range, belongsIn: belongsIn,
                        isPlain: keyNode.scalar?.style == .plain, present: Set(present.indices.map { allowed[$0] }))
                    : Diagnostic.countedUnknownKey(key, in: context(), file: reader.file, range: keyNode.range)
                if reader.heldBack != nil {
                    reader.heldBack?.append((finding, key))
                } else {
                    reader.report(finding)
                }
            }
        }
    }

    /// The key of a mapping entry, of settings or of ids and names (`placements`, `groups`, `attributes`): a list or a
    /// mapping used as the key gets `schema/type`, so that the entry is never dropped without a word.
    mutating func wordKey(_ keyNode: YAMLNode, in context: @autoclosure () -> String) -> String? {
        if let key = keyNode.scalar?.value { return key }
        report(.wrongType("a key in \(context())", expected: "a plain word", found: keyNode, file: file))
        return nil
    }

    /// A key that names something (a placement, a group, an attribute): a word, and a string field too, where a
    /// plain yes/no/on/off/y/n is a warning (a YAML 1.1 reader turns `no:` into false).
    mutating func nameKey(_ keyNode: YAMLNode, in context: @autoclosure () -> String) -> String? {
        if let scalar = keyNode.scalar, FieldReader.isAmbiguousBool(scalar) {
            report(.ambiguousBoolInString("a key in \(context())", value: scalar.value, file: file, range: keyNode.range))
        }
        return wordKey(keyNode, in: context())
    }

    /// Reads the items of the list just entered, to its end; whatever of an item `body` leaves unread is read through.
    mutating func forEachItem(_ cursor: YAMLEventCursor, _ body: (inout FieldReader, YAMLEvent) -> Void) {
        let level = cursor.openCollections
        while let event = cursor.next() {
            if case .end = event { return }
            if stillChecking() { body(&self, event) }
            cursor.skip(toOpenCollections: level)
        }
    }

    /// Whether an entry of `placements:` or `groups:` is a setting written one level too shallow (`format: app_open`
    /// beside the placement ids, its value not a block of settings): reported as a key that belongs one level deeper,
    /// naming the entry before it, rather than as a placement or group named "format".
    /// - Parameter previous: the id of the entry before, under which the setting most likely belongs.
    ///
    /// A top-level key there whose value is written out as no block of settings could be (`timezone: UTC`, `rules: […]`
    /// indented under `placements:`) is said to be top-level, indented too far (or there twice), and one indented with
    /// no-break spaces (or other pasted spaces) is said to be.
    mutating func reportIfMisplacedSetting(_ keyNode: YAMLNode, _ value: YAMLEvent, keys: [String], kind: String, after previous: String?) -> Bool {
        // An entry whose value is a block of settings, as every placement's is, is an entry: nothing more to look at.
        if case .mappingStart = value { return false }
        guard let key = keyNode.scalar?.value else { return false }
        let block = kind + "s"
        // `  min_interval: 3m` indented with no-break spaces (or other pasted spaces): YAML reads them as part of the key. One finding says so.
        // (An entry so indented is read under the id meant, and ``checkID(_:kind:lowercaseOnly:)`` says so.)
        if GluedKey.isIndentedWithPastedSpaces(keyNode), case let meant = GluedKey.unindented(key), keys.contains(meant) || RuleFileKeys.top.contains(meant) {
            report(.unknownKey(key, in: block, allowed: [], file: file, range: keyNode.range))
            return true
        }
        if !keys.contains(key), key != block, RuleFileKeys.top.contains(key) {
            // An alias or a tag is reported as such: what it stands for is not known here.
            let start: SourcePosition
            switch value {
            case .scalar(let node): start = node.range.start
            case .sequenceStart(let position): start = position
            default: return false
            }
            guard !standsForAliasOrTag(start) else { return false }
            report(.topLevelKeyAsID(key, kind: kind, block: block, file: file, range: keyNode.range))
            return true
        }
        guard keys.contains(key) else { return false }
        // The first entry a setting: the id line above the settings is missing (deleted, or never written).
        report(.settingAsID(key, kind: kind, after: previous, file: file, range: keyNode.range))
        return true
    }

    /// Whether an entry of `placements:` or `groups:` is no id but a setting or a top-level key (reported by
    /// ``reportIfMisplacedSetting(_:_:keys:kind:after:)``), and so not read as one.
    ///
    /// A setting as the first entry means the id line above is missing, which its finding says: the settings after it
    /// (`settingsRun`) are then passed over in silence, a block of settings (`grace:`, `launch:`) included, rather than
    /// one finding per setting and a block read as an entry. A top-level key among them is told so and keeps the run.
    mutating func isMisplacedEntry(
        _ keyNode: YAMLNode, _ value: YAMLEvent, keys: [String], kind: String, after previous: String?, settingsRun: inout Bool,
        _ cursor: YAMLEventCursor
    ) -> Bool {
        // Looked up only when needed: an entry of a block of settings, every placement, needs it only inside a run.
        func isSetting() -> Bool { keyNode.scalar.map { keys.keyIndex(of: $0.value) != nil } ?? false }
        if settingsRun, isSetting() {
            cursor.skip(value)
            return true
        }
        guard reportIfMisplacedSetting(keyNode, value, keys: keys, kind: kind, after: previous) else {
            settingsRun = false
            return false
        }
        settingsRun = settingsRun || previous == nil && isSetting()
        return true
    }
}

/// A set of small indices (those of a mapping's allowed keys), held in bits with no allocation up to 64 of them.
struct IndexBits {
    private var low: UInt64 = 0
    private var high: Set<Int> = []

    mutating func insert(_ index: Int) {
        if (0..<64).contains(index) { low |= 1 << UInt64(index) } else { high.insert(index) }
    }

    /// The indices held, in increasing order.
    var indices: [Int] { (0..<64).filter { low & (1 << UInt64($0)) != 0 } + high.sorted() }
}
