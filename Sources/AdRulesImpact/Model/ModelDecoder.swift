import AdRules
import AdRulesCompiler
import AdRulesYAML
import Foundation

/// The keys each mapping of a usage model accepts: the single source for decoding and "did you mean".
public enum ModelKeys {
    public static let top = ["version", "users", "days", "seed", "start", "segments", "network"]
    public static let segment = [
        "name", "share", "timezone", "premium", "installed_days_ago", "sessions_before", "first_open", "cold_starts",
        "resumes", "foreground", "attributes", "actions", "rewarded",
    ]
    public static let action = ["placement", "every"]
    public static let rewarded = ["placement", "every", "accept"]
    public static let network = ["load_time", "fill_rate", "ad_duration", "show_failure"]

    /// Where a key unknown in a block of a model belongs, when another block takes it (cli.md r2: a key valid one
    /// level deeper or shallower says which block it belongs to).
    static func relocation(of key: String, in block: [String]) -> String? {
        if block != network, network.contains(key) {
            return "\(key) is a network setting, the same for every user: put it under the top-level `network:` block"
        }
        if block != action, block != rewarded, action.contains(key) || rewarded.contains(key) {
            return "\(key) belongs in an entry of `actions:` or `rewarded:`, as in rewarded: [{placement: rewarded_hint, every: 10m, accept: 0.3}]"
        }
        if block == action || block == rewarded, segment.contains(key) {
            return "\(key) is a setting of the segment: write it beside `actions:` or `rewarded:`, not inside one of their entries"
        }
        if block != segment, segment.contains(key), key != "name" {
            return "\(key) describes a segment's users: indent it under a segment in `segments:`"
        }
        if block != top, top.contains(key) {
            return "\(key) is a top-level setting of the model: indent it less, at the start of a line"
        }
        if block == action, key == "accept" {
            return "accept belongs to a rewarded offer: list the placement under `rewarded:`, as in {placement: rewarded_hint, every: 10m, accept: 0.3}"
        }
        return nil
    }
}

/// Decodes usage models (`*.model.yaml`) read through libyaml, with a diagnostic for every problem.
public enum ModelDecoder {
    /// The largest population and the longest run a model may ask for.
    /// The most segments a model may have: each is planned for every day, whether or not users fall in it.
    static let maxSegments = 1000
    /// The most app moments (actions and rewarded offers) a segment's user may have a day, on average: a hundred
    /// times a heavy player's.
    static let maxMomentsPerDay = 10_000
    /// The most action or rewarded streams a segment may have: each is drawn all through every visit.
    static let maxStreams = 64
    public static let maxUsers = 100_000_000
    public static let maxDays = 366

    /// Decodes a model from a file's bytes.
    /// - Returns: the model (nil when it has errors) and every diagnostic, sorted.
    public static func decode(_ bytes: [UInt8], file: String) -> (model: UsageModel?, diagnostics: [Diagnostic]) {
        let read = read(bytes, file: file)
        return (read.model, read.diagnostics)
    }

    /// A model as read, with the file's `# adrules:disable-next-line` comments: they apply to what the check against
    /// a policy finds in the file too (``ModelCheck``).
    package struct Read {
        package var model: UsageModel?
        /// A model with errors, holding the segments that decoded without any (a segment with one bad value is left
        /// out whole): checked against the policy for errors of their own, so that one run reports them all; never
        /// played. Its shares and names are checked as written, those of the segments left out included.
        package var partial: UsageModel?
        /// Whether every segment written is in ``partial``: the errors are then the model's own (shares that do not add
        /// up, a bad `start`), and the check against the policy finds its warnings as it would with them fixed.
        package var partialHasEverySegment = false
        package var diagnostics: [Diagnostic]
        package var suppressions: Suppressions
        /// Whether the file is a rule file rather than a model: `placements`, `groups`, `rules` or `defaults` at its
        /// top, and no `segments`.
        package var isRuleFile = false
    }

    /// Reads a model: ``decode(_:file:)``, with the file's suppression comments.
    package static func read(_ bytes: [UInt8], file: String) -> Read {
        let document = YAMLReader.read(bytes, file: file)
        var reader = ModelReader(file: file, bytes: bytes)
        // `# adrules:disable-next-line RULE` works as in rule files (cli.md, Diagnostics).
        let suppressions = Suppressions(file: file, bytes: bytes, document: document)
        reader.suppressions = suppressions
        reader.aliasOrTagPositions = document.aliasOrTagPositions
        var model: UsageModel?
        if let root = document.root {
            model = decode(root, reader: &reader)
        } else if document.diagnostics.isEmpty {
            reader.report(.modelEmpty(file: file))
        }
        // A type error at a merge key only repeats its finding too.
        let found = (document.diagnostics + reader.diagnostics + (reader.tooManyFindings.map { [$0] } ?? [])).withoutRepeatsOfAliasesAndTags()
        let diagnostics = suppressions.applied(to: found).sortedForDisplay()
        let hasErrors = diagnostics.hasErrors
        var read = Read(model: hasErrors ? nil : model, partial: hasErrors ? model : nil, diagnostics: diagnostics, suppressions: suppressions)
        if case .mapping(let pairs)? = document.root?.content {
            let keys = Set(pairs.compactMap { $0.key.scalar?.value })
            read.isRuleFile = !keys.contains("segments") && !keys.isDisjoint(with: ["placements", "groups", "rules", "defaults"])
            let written = pairs.first { $0.key.scalar?.value == "segments" }?.value.items?.count
            read.partialHasEverySegment = read.partial != nil && written == read.partial?.segments.count && written != 0
        }
        return read
    }

    /// Decodes a model from a text (tests).
    public static func decode(_ text: String, file: String) -> (model: UsageModel?, diagnostics: [Diagnostic]) {
        decode(Array(text.utf8), file: file)
    }

    private static func decode(_ root: YAMLNode, reader: inout ModelReader) -> UsageModel? {
        guard let pairs = reader.mapping(root, "a usage model") else { return nil }
        var users = 1000, days = 7
        var seed: UInt64 = 1
        var start = CalendarDate(year: 2026, month: 1, day: 5)
        var segments: [Segment] = []
        var segmentsLocation: SourceLocation?
        var network = NetworkModel.standard
        var sawVersion = false
        for (key, pair) in reader.fields(pairs, allowed: ModelKeys.top, context: "the usage model", belongsIn: { ModelKeys.relocation(of: $0, in: ModelKeys.top) }) {
            let value = pair.value
            switch key {
            case "version":
                sawVersion = true
                reader.checkVersion(value, documents: "usage models")
            case "users": users = reader.int(value, key, in: 1...maxUsers) ?? users
            case "days": days = reader.int(value, key, in: 1...maxDays) ?? days
            case "seed": seed = reader.int(value, key, in: 0...Int(Int64.max / 2)).map { UInt64($0) } ?? seed
            case "start": start = date(value, reader: &reader) ?? start
            case "segments":
                segmentsLocation = reader.location(pair.key)
                segments = decodeSegments(value, reader: &reader)
            default: network = decodeNetwork(value, reader: &reader)
            }
        }
        if !sawVersion {
            reader.report(.missingKey("version", in: "the usage model", example: "version: 1", file: reader.file, range: root.range))
        }
        guard let segmentsLocation else {
            reader.report(.missingKey("segments", in: "the usage model", example: "segments: [{name: everyone, share: 1}]", file: reader.file, range: root.range))
            return nil
        }
        return UsageModel(
            file: reader.file, users: users, days: days, seed: seed, start: start, segments: segments, network: network,
            segmentsLocation: segmentsLocation)
    }

    /// `YYYY-MM-DD`, a real calendar day.
    private static func date(_ node: YAMLNode, reader: inout ModelReader) -> CalendarDate? {
        if let date = node.scalar.flatMap({ CalendarDate(parsing: $0.value) }) {
            guard CalendarDate.supportedYears.contains(date.year) else {
                reader.report(.modelOutOfRange("start", "a day from 1971-01-01 to 2199-12-31", found: node.scalar?.value ?? "", file: reader.file, range: node.range))
                return nil
            }
            return date
        }
        reader.report(.wrongType("start", expected: "a calendar day such as 2026-12-07", found: node, file: reader.file))
        return nil
    }

    private static func decodeSegments(_ node: YAMLNode, reader: inout ModelReader) -> [Segment] {
        guard let items = reader.namedList(node, "segments", entry: "segment", entryKeys: ModelKeys.segment) else { return [] }
        // Each segment gets a plan for every day, users or not: a model of 100,000 segments took minutes and gigabytes.
        guard items.count <= maxSegments else {
            reader.report(.modelOutOfRange("segments", "a list of at most \(maxSegments) segments", found: "\(items.count) segments", file: reader.file, range: node.range))
            return []
        }
        var segments: [Segment] = []
        var seen: [String: SourcePosition] = [:]
        // The names and shares as written, whatever else a segment gets wrong (a misspelt time zone), so that one run
        // reports a repeated name and shares that do not add up too: a misnamed segment still has the share its
        // author gave it.
        var (shares, shareSum) = (0, 0.0)
        for item in items {
            let read = decodeSegment(item, reader: &reader)
            if let share = read.share { (shares, shareSum) = (shares + 1, shareSum + share) }
            guard let name = read.name else { continue }
            let position = SourcePosition(line: name.location.line, column: name.location.column)
            if let first = seen[name.text] {
                reader.report(.modelDuplicateSegment(name.text, file: reader.file, range: SourceRange(at: position), first: first))
                continue
            }
            seen[name.text] = position
            if let segment = read.segment { segments.append(segment) }
        }
        if items.isEmpty {
            reader.report(.modelNoSegments(file: reader.file, range: node.range))
        } else if shares == items.count, abs(shareSum - 1) > 1e-9 {
            reader.report(.modelShares(sum: shareSum, file: reader.file, range: node.range))
        }
        return segments
    }

    /// A segment as read: the segment when it has no error, and its name and share whenever they could be read.
    private struct SegmentRead {
        var segment: Segment?
        var name: (text: String, location: SourceLocation)?
        var share: Double?
    }

    private static func decodeSegment(_ node: YAMLNode, reader: inout ModelReader) -> SegmentRead {
        guard let pairs = reader.mapping(node, "a segment") else { return SegmentRead() }
        let errorsBefore = reader.diagnostics.count
        var name: (text: String, location: SourceLocation)?
        var share: Double?
        var segment = Segment(
            name: "", share: 0, timeZone: "UTC", premium: 0, installedDaysAgo: .constant(30), sessionsBefore: nil,
            firstOpen: .constant(8 * 3_600_000), coldStarts: .constant(1), resumes: .constant(0), foreground: .constant(300_000),
            attributes: [], actions: [], rewarded: [], location: reader.location(node))
        for (key, pair) in reader.fields(pairs, allowed: ModelKeys.segment, context: "a segment", belongsIn: { ModelKeys.relocation(of: $0, in: ModelKeys.segment) }) {
            let value = pair.value
            switch key {
            case "name":
                // A name is a string field: a plain yes/no is read as text here, as a YAML 1.1 tool would not.
                if let scalar = value.scalar, scalar.isAmbiguousBool {
                    reader.report(.ambiguousBoolInString(key, value: scalar.value, file: reader.file, range: value.range))
                }
                // A plain true, 12 or 1.5e3 is a bool or a number to YAML, not a name (as in rule files and scenarios).
                if let scalar = value.scalar, scalar.style == .plain,
                    scalar.coreSchemaBool != nil || scalar.isCoreSchemaNumber
                {
                    reader.report(.wrongType(key, expected: "a name, such as casual (quote a name that is a number or true/false)", found: value, file: reader.file))
                } else if let text = reader.string(value, key) {
                    if text.allSatisfy(\.isWhitespace) {
                        reader.report(.modelOutOfRange(key, "a name the report can show, such as casual", found: text.isEmpty ? "an empty text" : "only spaces", file: reader.file, range: value.range))
                    } else {
                        name = (text, reader.location(value))
                    }
                }
            case "share":
                share = reader.number(value, key, in: 0...1, expected: "above 0 and at most 1", fractions: { $0 > 0 })
                if let s = share, s == 0 {
                    reader.report(.modelOutOfRange(key, "above 0 and at most 1", found: "0", file: reader.file, range: value.range))
                }
            case "timezone":
                if let zone = reader.string(value, key) {
                    if KnownTimeZones.zone(named: zone) == nil {
                        reader.report(.modelTimeZone(zone, file: reader.file, range: value.range))
                    } else {
                        segment.timeZone = zone
                    }
                }
            case "premium": segment.premium = reader.probability(value, key) ?? 0
            case "installed_days_ago": segment.installedDaysAgo = reader.numberDistribution(value, key, in: 0...3650) ?? segment.installedDaysAgo
            case "sessions_before": segment.sessionsBefore = reader.count(value, key, in: 0...1_000_000)
            case "first_open":
                let timeOfDay = "a time of day such as 8h or {uniform: [7h, 10h]}"
                if let open = reader.durationDistribution(value, key, below: 86_400_000, expected: timeOfDay) {
                    if case .exponential = open {
                        reader.report(.modelDistributionKind(key, kind: "exponential", expected: timeOfDay, file: reader.file, range: value.range))
                    } else {
                        // Each end is before 24h (`below`).
                        segment.firstOpen = open
                    }
                }
            case "cold_starts":
                segment.coldStarts = reader.count(value, key, in: 0...1000) ?? segment.coldStarts
                // Every day has its first cold start (impact.md): a count that is always 0 is played as 1.
                if segment.coldStarts.mean == 0 { reader.report(.modelNoColdStart(file: reader.file, range: value.range)) }
            case "resumes": segment.resumes = reader.count(value, key, in: 0...1000) ?? segment.resumes
            case "foreground": segment.foreground = reader.durationDistribution(value, key, minimum: 1000) ?? segment.foreground
            case "attributes": segment.attributes = decodeAttributes(value, reader: &reader)
            case "actions": segment.actions = decodeActions(value, reader: &reader)
            default: segment.rewarded = decodeRewarded(value, reader: &reader)
            }
        }
        if name == nil, !pairs.contains(where: { $0.key.scalar?.value == "name" }) {
            reader.report(.missingKey("name", in: "a segment", example: "name: casual", file: reader.file, range: node.range))
        }
        if share == nil, !pairs.contains(where: { $0.key.scalar?.value == "share" }) {
            reader.report(.missingKey("share", in: "a segment", example: "share: 0.5", file: reader.file, range: node.range))
        }
        let read = SegmentRead(name: name, share: share)
        guard let name, let share, !reader.diagnostics[errorsBefore...].contains(where: { $0.severity == .error }) else {
            return read
        }
        segment.name = name.text
        segment.location = name.location
        segment.share = share
        let atName = SourceRange(at: SourcePosition(line: name.location.line, column: name.location.column))
        // What a user-day costs is bounded, so that a model cannot ask for days of work per simulated user.
        let moments = segment.expectedMomentsPerDay
        if moments > Double(maxMomentsPerDay) {
            reader.report(.modelTooManyMoments(
                segment: segment.name, moments: moments, limit: maxMomentsPerDay, file: reader.file, range: atName))
            return read
        }
        let starts = segment.expectedStreamStartsPerDay
        if starts > Double(maxMomentsPerDay) {
            reader.report(.modelTooManyStreamStarts(
                segment: segment.name, streams: segment.actions.count + segment.rewarded.count, visits: segment.expectedVisitsPerDay,
                limit: maxMomentsPerDay, file: reader.file, range: atName))
            return read
        }
        return SegmentRead(segment: segment, name: name, share: share)
    }

    private static func decodeAttributes(_ node: YAMLNode, reader: inout ModelReader) -> [ModelAttribute] {
        guard let pairs = reader.mapping(node, "attributes") else { return [] }
        var attributes: [ModelAttribute] = []
        for pair in pairs {
            guard let name = pair.key.scalar?.value, !name.isEmpty else {
                reader.report(.wrongType("an attribute name", expected: "a plain word", found: pair.key, file: reader.file))
                continue
            }
            guard reader.checkedText(name, "an attribute name", pair.key) != nil else { continue }
            // The share of premium users is the segment's own setting (no policy may declare an attribute of that
            // name): as an attribute, every user of the segment would play as one who is not premium.
            if name == "premium" {
                reader.report(.premiumAsAttribute(inModel: true, file: reader.file, range: pair.key.range))
                continue
            }
            let value: ModelAttribute.Value
            if let scalar = pair.value.scalar, !scalar.isNull {
                guard let text = reader.checkedText(scalar.value, "attribute \(name)", pair.value) else { continue }
                // Texts kept composed, as a rule's constants are (``Swift/String/composed``): comparing them stays fast.
                value = .scalar(text.composed, plain: scalar.style == .plain)
            } else if let inner = pair.value.pairs, inner.count == 1, inner[0].key.scalar?.value == "uniform",
                let ends = inner[0].value.items, ends.count == 2
            {
                // Ends written as durations (`[5s, 20s]`) draw a duration; plain numbers draw a number.
                if ends.contains(where: { $0.scalar.flatMap { RuleDuration(parsing: $0.value) } != nil }) {
                    guard let low = reader.duration(ends[0], "\(name).uniform"), let high = reader.duration(ends[1], "\(name).uniform") else { continue }
                    guard low <= high else {
                        reader.report(.modelOutOfRange("\(name).uniform", "[low, high] with low <= high", found: "a longer low end", file: reader.file, range: inner[0].value.range))
                        continue
                    }
                    attributes.append(ModelAttribute(
                        name: name, value: .uniformDuration(RuleDuration(milliseconds: low), RuleDuration(milliseconds: high)),
                        location: reader.location(pair.key), valueLocation: reader.location(pair.value)))
                    continue
                }
                guard let low = reader.number(ends[0], "\(name).uniform", in: -1e15...1e15),
                    let high = reader.number(ends[1], "\(name).uniform", in: -1e15...1e15)
                else { continue }
                guard low <= high else {
                    reader.report(.modelOutOfRange("\(name).uniform", "[low, high] with low <= high", found: "a higher low end", file: reader.file, range: inner[0].value.range))
                    continue
                }
                value = .uniform(low, high, whole: low == low.rounded() && high == high.rounded())
            } else if let items = pair.value.items {
                // A [string] or [int] attribute: a list of plain values, as a rule's list literal holds.
                guard items.count <= PolicyLimits.maxListItems else {
                    reader.report(.modelOutOfRange("attribute \(name)", "a list of at most \(PolicyLimits.maxListItems) values", found: "\(items.count) values", file: reader.file, range: pair.value.range))
                    continue
                }
                var list: [ModelAttribute.Item] = []
                for item in items {
                    guard let scalar = item.scalar, !scalar.isNull else {
                        reader.report(.wrongType("a value in attribute \(name)", expected: "a word or a whole number", found: item, file: reader.file))
                        break
                    }
                    guard let text = reader.checkedText(scalar.value, "a value in attribute \(name)", item) else { break }
                    list.append(ModelAttribute.Item(text: text.composed, plain: scalar.style == .plain))
                }
                guard list.count == items.count else { continue }
                value = .list(list)
            } else {
                // `{min: 1, max: 40}` is told to be `uniform`; a mistyped distribution (`{unifrom: [1, 4]}`) gets its
                // "did you mean"; any other mapping its type.
                if let inner = pair.value.pairs, reader.reportIfRangeWrittenAsBounds(inner, "attribute \(name)", node: pair.value)
                    || reader.fields(inner, allowed: ["uniform"], context: "attribute \(name)").count < inner.count
                {
                    continue
                }
                // A uniform draw whose bounds are not two (`[1, 40, 50]`, `5`), or beside another key, is told which.
                if let inner = pair.value.pairs, let uniform = inner.first(where: { $0.key.scalar?.value == "uniform" }) {
                    let found = inner.count > 1 ? "\(inner.count) keys"
                        : uniform.value.items.map { "\($0.count) \($0.count == 1 ? "bound" : "bounds")" }
                        ?? uniform.value.scalar.map { $0.style == .plain ? "the bound \($0.shortValue)" : "the bound \"\($0.shortValue)\"" }
                        ?? uniform.value.kindDescription
                    reader.report(.modelOutOfRange(
                        "attribute \(name)", "{uniform: [low, high]}, one key with a list of two bounds", found: found,
                        file: reader.file, range: pair.value.range))
                    continue
                }
                reader.report(.wrongType("attribute \(name)", expected: "a value, a list or {uniform: [low, high]}", found: pair.value, file: reader.file))
                continue
            }
            attributes.append(ModelAttribute(
                name: name, value: value, location: reader.location(pair.key), valueLocation: reader.location(pair.value)))
        }
        return attributes
    }

    private static func placement(_ pairs: [(key: String, pair: YAMLPair)], node: YAMLNode, context: String, reader: inout ModelReader) -> (String, SourceLocation)? {
        guard let pair = pairs.first(where: { $0.key == "placement" })?.pair else {
            // `placement:…` glued to its value is an error of its own, which says what to write.
            if !GluedKey.keysPresent(node.pairs ?? []).contains("placement") {
                reader.report(.missingKey("placement", in: context, example: "placement: level_end", file: reader.file, range: node.range))
            }
            return nil
        }
        return reader.string(pair.value, "placement").map { ($0, reader.location(pair.value)) }
    }

    private static func every(_ pairs: [(key: String, pair: YAMLPair)], node: YAMLNode, context: String, reader: inout ModelReader) -> DurationDistribution? {
        guard let pair = pairs.first(where: { $0.key == "every" })?.pair else {
            // `every:…` glued to its value is an error of its own, which says what to write.
            if !GluedKey.keysPresent(node.pairs ?? []).contains("every") {
                reader.report(.missingKey("every", in: context, example: "every: {exponential: 2m}", file: reader.file, range: node.range))
            }
            return nil
        }
        return reader.durationDistribution(pair.value, "every", minimum: 1000)
    }

    private static func decodeActions(_ node: YAMLNode, reader: inout ModelReader) -> [ActionStream] {
        guard let items = reader.sequence(node, "actions", example: "- {placement: level_end, every: {exponential: 2m}}") else { return [] }
        guard items.count <= maxStreams else {
            reader.report(.modelOutOfRange("actions", "a list of at most \(maxStreams) streams", found: "\(items.count) streams", file: reader.file, range: node.range))
            return []
        }
        return items.compactMap { item in
            guard let pairs = reader.mapping(item, "an action") else { return nil }
            let fields = reader.fields(pairs, allowed: ModelKeys.action, context: "an action", belongsIn: { ModelKeys.relocation(of: $0, in: ModelKeys.action) })
            let placement = placement(fields, node: item, context: "an action", reader: &reader)
            let every = every(fields, node: item, context: "an action", reader: &reader)
            guard let placement, let every else { return nil }
            return ActionStream(placement: placement.0, every: every, location: placement.1)
        }
    }

    private static func decodeRewarded(_ node: YAMLNode, reader: inout ModelReader) -> [RewardedStream] {
        guard let items = reader.sequence(node, "rewarded", example: "- {placement: rewarded_hint, every: 5m, accept: 0.5}") else { return [] }
        guard items.count <= maxStreams else {
            reader.report(.modelOutOfRange("rewarded", "a list of at most \(maxStreams) streams", found: "\(items.count) streams", file: reader.file, range: node.range))
            return []
        }
        return items.compactMap { item in
            guard let pairs = reader.mapping(item, "a rewarded offer") else { return nil }
            let fields = reader.fields(pairs, allowed: ModelKeys.rewarded, context: "a rewarded offer", belongsIn: { ModelKeys.relocation(of: $0, in: ModelKeys.rewarded) })
            let placement = placement(fields, node: item, context: "a rewarded offer", reader: &reader)
            let every = every(fields, node: item, context: "a rewarded offer", reader: &reader)
            var accept = 1.0
            if let pair = fields.first(where: { $0.key == "accept" })?.pair {
                guard let value = reader.probability(pair.value, "accept") else { return nil }
                accept = value
            }
            guard let placement, let every else { return nil }
            return RewardedStream(placement: placement.0, every: every, accept: accept, location: placement.1)
        }
    }

    private static func decodeNetwork(_ node: YAMLNode, reader: inout ModelReader) -> NetworkModel {
        var network = NetworkModel.standard
        guard let pairs = reader.mapping(node, "network") else { return network }
        for (key, pair) in reader.fields(pairs, allowed: ModelKeys.network, context: "network", belongsIn: { ModelKeys.relocation(of: $0, in: ModelKeys.network) }) {
            switch key {
            case "load_time": network.loadTime = reader.durationDistribution(pair.value, key) ?? network.loadTime
            case "fill_rate": network.fillRate = reader.probability(pair.value, key) ?? network.fillRate
            case "ad_duration": network.adDuration = reader.durationDistribution(pair.value, key) ?? network.adDuration
            default: network.showFailure = reader.probability(pair.value, key) ?? network.showFailure
            }
        }
        return network
    }
}

extension DurationDistribution {
    /// The largest value a draw can take (the tail cap for exponential).
    var upperBound: Int64 {
        switch self {
        case .constant(let ms): return ms
        case .uniform(_, let high): return high
        case .exponential(let mean): return mean * 100
        }
    }
}
