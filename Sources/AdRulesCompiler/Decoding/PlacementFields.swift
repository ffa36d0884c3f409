import AdRules
import AdRulesYAML

/// The settings of a placement or of `defaults` as written, before defaults are applied.
struct PlacementFields: Sendable {
    /// A setting as written.
    struct Written: Sendable {
        var setting: PlacementSetting
        var value: Located<SettingValue>
    }

    /// The settings written, each once, in the order first written. (A struct, not a tuple, per setting: an array of
    /// tuples is destroyed through the runtime's generic tuple code, about 95 instructions a setting.)
    private(set) var written: [Written] = []
    /// Where the app_open-only blocks (`launch`, `resume`) are written, for `policy/format-key`.
    var appOpenBlocks: [PlacementSetting.Block: SourceRange] = [:]
    /// Blocks written with nothing in them (`grace:`), each with its finding: held until the placement is read, and
    /// dropped when the block's keys follow it unindented (each of them says to indent it under the block).
    var emptyBlocks: [(block: PlacementSetting.Block, finding: Diagnostic)] = []
    /// Whether any of this block's values had an error (semantic lint then leaves it alone).
    var hadErrors = false
    /// Whether this is no placement but a placement's block of settings (`launch:`) indented as one, already reported.
    var isMisplacedBlock = false

    /// The value written for `setting`, if any.
    subscript(setting: PlacementSetting) -> Located<SettingValue>? {
        written.first { $0.setting == setting }?.value
    }

    /// Records what was read for `setting`; nil (a value with an error) takes back what an earlier copy of the key set.
    mutating func set(_ setting: PlacementSetting, _ value: Located<SettingValue>?) {
        let index = written.firstIndex { $0.setting == setting }
        if let index {
            if let value { written[index].value = value } else { written.remove(at: index) }
        } else if let value {
            // Room for four settings at once rather than growing one by one; a placement of more grows once. (Room for
            // eight raised the peak memory of loading 50,000 placements by 5%: the fields are all held until assembled.)
            if written.isEmpty { written.reserveCapacity(4) }
            written.append(Written(setting: setting, value: value))
        }
    }

    /// The format written, if any.
    var format: Located<AdFormat>? {
        guard let written = self[.format], case .format(let format) = written.value else { return nil }
        return Located(format, at: written.location)
    }

    /// A text of the values alone (no locations), to compare `defaults` written in two files (windows in any order).
    var canonical: String {
        PlacementSetting.allCases.filter(\.isAllowedInDefaults).compactMap { setting in
            self[setting].map { "\(setting.key)=\($0.value.compared)" }
        }.joined(separator: " ")
    }

    /// Reads a placement, or the `defaults` block, from the value `event` begins.
    /// - Parameters:
    ///   - context: what the block is (`placement "p1"`, `defaults`), as its findings name it: made only for a finding
    ///     (built for each of 10,000 placements, it was 1.2% of their load).
    ///   - placementKey: where the placement's id is written, for `schema/missing-key` when it has no `format`;
    ///     nil for `defaults`, where `format` is not allowed.
    ///   - topLevelName: the placement's id when it is also a top-level key (`groups`): a block with no `format` is then
    ///     most likely that top-level block indented too far, and the advice says so.
    ///   - id: the placement's id, whose words may name its format (`rewarded_hint`) when it has none.
    ///   - misplacedBlock: the block of settings the placement's id names (`launch`), and the id of the placement before:
    ///     a block with no `format` that holds only that block's keys is the block indented one level too little, which
    ///     one finding says (not one finding a key, each telling to indent it under the `launch:` it is under).
    static func read(
        _ event: YAMLEvent, _ cursor: YAMLEventCursor, context: @autoclosure () -> String, placementKey: SourceRange?, topLevelName: String? = nil,
        id: String? = nil, misplacedBlock: (block: PlacementSetting.Block, previous: String?)? = nil, reader: inout FieldReader
    ) -> PlacementFields {
        let mark = reader.mark
        var fields = PlacementFields()
        var missesFormat = false
        if reader.enterMapping(event, cursor, context()) {
            var wroteFormat = false
            let gluedBefore = reader.gluedKeys.count
            let listed = placementKey == nil ? RuleFileKeys.defaults : nil
            if misplacedBlock != nil, placementKey != nil { reader.heldBack = [] }
            let unknownBefore = reader.unknownKeysSeen.count
            reader.placementFormat = nil
            reader.isReadingPlacement = placementKey != nil
            defer { (reader.placementFormat, reader.isReadingPlacement) = (nil, false) }
            reader.forEachField(cursor, allowed: RuleFileKeys.placement, listed: listed, context: context()) { reader, index, key, keyNode, value in
                if key == "format" { wroteFormat = true }
                fields.read(Self.keys[index], keyNode, value, cursor, isDefaults: placementKey == nil, reader: &reader)
                if key == "format" { reader.placementFormat = fields.format?.value }
            }
            for empty in fields.emptyBlocks where !reader.unknownKeysSeen[unknownBefore...].contains(where: RuleFileKeys.keys(in: empty.block).contains) {
                reader.report(empty.finding)
            }
            // `format:interstitial` (no space) is an error of its own, which says what to write.
            if reader.gluedKeys[gluedBefore...].contains("format") { wroteFormat = true }
            if let misplacedBlock, let placementKey, let held = reader.heldBack {
                reader.heldBack = nil
                let blockKeys = RuleFileKeys.keys(in: misplacedBlock.block)
                if !wroteFormat, !held.isEmpty, held.allSatisfy({ $0.unknownKey.map(blockKeys.contains) ?? false }) {
                    reader.report(.settingAsID(
                        misplacedBlock.block.rawValue, kind: "placement", after: misplacedBlock.previous, file: reader.file, range: placementKey))
                    fields.hadErrors = true
                    fields.isMisplacedBlock = true
                    return fields
                }
                for (finding, _) in held { reader.report(finding) }
            }
            // (A placement cut short by the limit of findings may have its format in the part not read.)
            if let placementKey, !wroteFormat, !reader.stoppedChecking {
                missesFormat = true
                let advice = Self.formatAdvice(id: id, appOpenBlocks: !fields.appOpenBlocks.isEmpty)
                // After a merge key (already an error), the format may be what the merge would have brought.
                if reader.mergeKeys == mark.mergeKeys, let topLevelName {
                    reader.report(.missingFormatOrTopLevelBlock(in: context(), topLevelName: topLevelName, advice: advice, file: reader.file, range: placementKey))
                } else if reader.mergeKeys == mark.mergeKeys {
                    reader.report(.missingFormat(in: context(), advice: advice, file: reader.file, range: placementKey))
                }
            }
        }
        fields.hadErrors = missesFormat || reader.lostSettings(since: mark)
        return fields
    }

    /// What to add to a placement with no format: `format: app_open` beside `launch:` or `resume:` (app_open's blocks,
    /// which another format would be told to remove); else the formats to choose from, and the one the id names when
    /// it names one. A format is never made up: one that lints clean and is not the ad meant would go unnoticed.
    static func formatAdvice(id: String?, appOpenBlocks: Bool) -> String {
        if appOpenBlocks { return "add `format: app_open`" }
        let named = id.flatMap(formatNamed(by:)).map { " (the id says `format: \($0.rawValue)`)" } ?? ""
        return "add `format:` with one of \(AdFormat.allCases.map(\.rawValue).joined(separator: ", "))\(named)"
    }

    /// The format a placement id names (`rewarded_hint`, `AppOpenSplash`), the longest name first.
    static func formatNamed(by id: String) -> AdFormat? {
        let words = id.lowercased().filter { $0 != "_" && $0 != "-" && $0 != "." }
        let names: [(String, AdFormat)] = [
            ("rewardedinterstitial", .rewardedInterstitial), ("appopen", .appOpen), ("interstitial", .interstitial), ("reward", .rewarded),
            ("banner", .banner), ("native", .native),
        ]
        return names.first { words.contains($0.0) }?.1
    }

    /// What a key written on a placement names: a block of settings or a setting.
    enum Key: Equatable {
        case block(PlacementSetting.Block)
        case setting(PlacementSetting)

        /// The key as written.
        var name: String {
            switch self {
            case .block(let block): return block.rawValue
            case .setting(let setting): return setting.key
            }
        }
    }

    /// What each key of a placement names, in `PlacementSetting` order: ``RuleFileKeys/placement`` is their names, so a
    /// key read is known by its index there, not compared again with the name of every setting
    /// (`PlacementSetting(rawValue:)`) and every block.
    static let keys: [Key] = PlacementSetting.allCases.reduce(into: []) { keys, setting in
        let key = setting.block.map(Key.block) ?? .setting(setting)
        if !keys.contains(key) { keys.append(key) }
    }

    /// Reads the value of one placement key.
    private mutating func read(
        _ key: Key, _ keyNode: YAMLNode, _ event: YAMLEvent, _ cursor: YAMLEventCursor, isDefaults: Bool, reader: inout FieldReader
    ) {
        switch key {
        case .block(let block): readBlock(block, keyNode, event, cursor, reader: &reader)
        case .setting(let setting):
            if isDefaults, !setting.isAllowedInDefaults {
                reader.report(.notAllowedInDefaults(setting.key, file: reader.file, range: keyNode.range))
                return
            }
            read(setting, event, cursor, reader: &reader)
        }
    }

    /// Reads the value of `setting`.
    private mutating func read(_ setting: PlacementSetting, _ event: YAMLEvent, _ cursor: YAMLEventCursor, reader: inout FieldReader) {
        if setting.kind == .windows {
            // A short list read as a node: its length is checked before any of its items.
            if let node = cursor.node(from: event) { set(setting, reader.value(of: setting, node)) }
            return
        }
        // A scalar, the usual value, is read as it is: going through `shallowNode`'s optional, each node was destroyed
        // through the runtime's generic code for optionals (about 115 instructions a setting).
        if case .scalar(let node) = event {
            set(setting, reader.value(of: setting, node))
            return
        }
        guard let value = reader.shallowNode(event, cursor) else { return }
        set(setting, reader.value(of: setting, value))
    }

    /// Reads a nested block (`launch`, `resume`, `grace`): its keys are read as `block.key`.
    private mutating func readBlock(
        _ block: PlacementSetting.Block, _ keyNode: YAMLNode, _ event: YAMLEvent, _ cursor: YAMLEventCursor, reader: inout FieldReader
    ) {
        if block.isAppOpenOnly { appOpenBlocks[block] = keyNode.range }
        // `grace:` with nothing after it: its keys may follow unindented, which they then say.
        if case .scalar = event, let node = reader.shallowNode(event, cursor), let scalar = node.scalar, scalar.isNull, scalar.style == .plain {
            emptyBlocks.append((block, .wrongType(block.rawValue, expected: "a mapping of keys to values", found: node, file: reader.file)))
            return
        }
        guard reader.enterMapping(event, cursor, block.rawValue) else { return }
        // The block's keys are its settings' names, in the same order (``RuleFileKeys/keys(in:)``).
        let settings = PlacementSetting.settings(in: block)
        reader.forEachField(cursor, allowed: RuleFileKeys.keys(in: block), context: block.rawValue) { reader, index, _, _, value in
            read(settings[index], value, cursor, reader: &reader)
        }
    }

    /// The most rolling windows one placement or group may list.
    static let maxCaps = PlacementSetting.maxWindowCaps

    /// Reads a `caps` list of `{max, window}`.
    static func readCaps(_ node: YAMLNode, reader: inout FieldReader) -> [Located<WindowCap>]? {
        // One cap written as the mapping itself (`caps:` then `max: 3` and `window: 30m` under it): the item to write.
        if let pairs = node.pairs, !pairs.isEmpty, pairs.count <= 2,
            pairs.allSatisfy({ $0.key.scalar.map { RuleFileKeys.cap.contains($0.value) } == true && $0.value.scalar != nil })
        {
            func value(_ key: String, _ placeholder: String) -> String {
                pairs.first { $0.key.scalar?.value == key }?.value.scalar?.shortValue ?? placeholder
            }
            let item = "{max: \(value("max", "…")), window: \(value("window", "…"))}"
            reader.report(.wrongType("caps", expected: "a list", found: node, file: reader.file, advice: "a cap is an item of the list: write caps: [\(item)], or - \(item) on the next line, indented"))
            return nil
        }
        // Windows written as the keys of a mapping (`caps:` then `30m: 3`, a window and its max): the items to write. (Only
        // for whole numbers: `30m: .inf` written as `{max: .inf, …}` would be as wrong.)
        if let pairs = node.pairs, !pairs.isEmpty, pairs.count <= 4,
            case let caps = pairs.compactMap({ pair -> String? in
                guard let window = pair.key.scalar?.value, RuleDuration(parsing: window) != nil, let max = pair.value.scalar,
                    FieldReader.intValue(max) != nil
                else { return nil }
                return "{max: \(max.shortValue), window: \(window)}"
            }), caps.count == pairs.count
        {
            reader.report(.wrongType("caps", expected: "a list", found: node, file: reader.file, advice: "each cap is an item of the list, with its max and its window: write caps: [\(caps.joined(separator: ", "))]"))
            return nil
        }
        guard let items = reader.sequence(node, "caps") else { return nil }
        guard items.count <= maxCaps else {
            reader.report(.tooManyCaps(items.count, limit: maxCaps, file: reader.file, range: node.range))
            return nil
        }
        var caps: [Located<WindowCap>] = []
        for item in items {
            guard let pairs = reader.mapping(item, "each item of caps") else { continue }
            var max: Located<Int>?
            var window: Located<RuleDuration>?
            var (wroteMax, wroteWindow) = (false, false)
            for (key, pair) in reader.fields(pairs, allowed: RuleFileKeys.cap, context: "a cap") {
                if key == "max" {
                    max = reader.int(pair.value, "max", minimum: 0, isCap: true)
                    wroteMax = true
                } else {
                    window = reader.duration(pair.value, "window")
                    wroteWindow = true
                }
            }
            // A key glued to its value or misspelt (`max:3`, `mx: 3`) counts as written: worked out only when one of the
            // two is not written as it is.
            let meant = wroteMax && wroteWindow ? [] : GluedKey.keysMeant(pairs, allowed: RuleFileKeys.cap)
            if !wroteMax, !meant.contains("max") {
                reader.report(.missingKey("max", in: "this cap", example: "max: 3", describing: "the shows the window allows", file: reader.file, range: item.range))
            }
            if !wroteWindow, !meant.contains("window") {
                reader.report(.missingKey("window", in: "this cap", example: "window: 6h", describing: "the time it counts shows over", file: reader.file, range: item.range))
            }
            if let max, let window {
                // A window of 0s holds no show: allowed (a duration may be 0s), and `cap/unreachable` says it never binds.
                caps.append(Located(WindowCap(max: max.value, window: window.value), at: max.location))
            }
        }
        return caps
    }
}

extension FieldReader {
    /// Reads the value of `setting` as its kind says, with the findings of a wrong one.
    mutating func value(of setting: PlacementSetting, _ node: YAMLNode) -> Located<SettingValue>? {
        let key = setting.key
        switch setting.kind {
        case .flag: return bool(node, key)?.map(SettingValue.flag)
        case .count(let minimum): return int(node, key, minimum: minimum, isCap: setting.isCap, optional: true)?.map(SettingValue.count)
        case .duration: return duration(node, key)?.map(SettingValue.duration)
        case .format: return enumeration(node, key, as: AdFormat.self)?.map(SettingValue.format)
        case .text: return string(node, key)?.map(SettingValue.text)
        case .windows: return PlacementFields.readCaps(node, reader: &self).map { Located(.windows($0), at: location(node)) }
        }
    }
}
