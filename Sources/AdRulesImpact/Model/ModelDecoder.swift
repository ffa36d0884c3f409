import AdRules
import AdRulesCompiler
import AdRulesYAML
import Foundation

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
    /// The most users a model or `--users` may give.
    public static let maxUsers = 100_000_000
    /// The most days a model or `--days` may give.
    public static let maxDays = 366
    /// The largest seed: a model's `seed`, `--seed`, and what `impact merge` reads in a part.
    public static let maxSeed = Int(Int64.max / 2)

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
        var startRange: SourceRange?
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
            case "seed": seed = reader.int(value, key, in: 0...maxSeed).map { UInt64($0) } ?? seed
            case "start":
                if let date = date(value, reader: &reader) {
                    start = date
                    startRange = value.range
                }
            case "segments":
                segmentsLocation = reader.location(pair.key)
                segments = decodeSegments(value, reader: &reader)
            default: network = decodeNetwork(value, reader: &reader)
            }
        }
        let present = GluedKey.keysMeant(pairs, allowed: ModelKeys.top, relocation: { ModelKeys.relocation(of: $0, in: ModelKeys.top) })
        if !sawVersion, !present.contains("version") {
            reader.report(.missingKey("version", in: "the usage model", example: "version: 1", file: reader.file, range: root.range))
        }
        guard let segmentsLocation else {
            if !present.contains("segments") {
                reader.report(.missingKey("segments", in: "the usage model", example: "segments: [{name: everyone, share: 1}]", file: reader.file, range: root.range))
            }
            return nil
        }
        if let startRange { warnOfSkippedStart(start, segments: segments, range: startRange, reader: &reader) }
        return UsageModel(
            file: reader.file, users: users, days: days, seed: seed, start: start, segments: segments, network: network,
            segmentsLocation: segmentsLocation)
    }

    /// Warns when `start` is a day a segment's zone skipped (Pacific/Apia went from 2011-12-29 to 2011-12-31): that
    /// segment's users are played from the next day the zone has, and the report's header names the day written.
    private static func warnOfSkippedStart(_ start: CalendarDate, segments: [Segment], range: SourceRange, reader: inout ModelReader) {
        var checked: Set<String> = []
        for segment in segments where checked.insert(segment.timeZone).inserted {
            guard let zone = KnownTimeZones.zone(named: segment.timeZone), let played = start.dayPlayed(in: zone) else { continue }
            let named = segments.filter { $0.timeZone == segment.timeZone }.map(\.name)
            let who = named.count == 1 ? "segment \(named[0])" : "segments " + named.joined(separator: ", ")
            reader.report(Diagnostic(
                .warning, rule: "model/skipped-start",
                message: "start: \(start) is no day in \(segment.timeZone) (its clocks skipped it), so the users of \(who) are played from \(played): write start: \(played), or another day",
                file: reader.file, range: range))
        }
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
        // `2026-02-30`: a day the month does not have is told so, as a scenario's times are.
        if let text = node.scalar?.value, text.utf8.count == 10, case .failure(let problem) = Timestamps.read(text + "T00:00:00Z") {
            let reason: String? = switch problem {
            case .month(let date): "\(date) is not a date: months run from 01 to 12"
            case .day(let date, let days): "\(date) is not a date: that month has \(days) days"
            default: nil
            }
            if let reason {
                reader.report(Diagnostic(.error, rule: "schema/range", message: "start: \(reason)", file: reader.file, range: node.range))
                return nil
            }
        }
        reader.report(.wrongType("start", expected: "a calendar day such as 2026-12-07", found: node, file: reader.file, advice: node.scalar.flatMap { dayAdvice($0.value) }))
        return nil
    }

    /// What to write for a day written as a time (`2026-12-07T00:00:00Z`), with one-digit parts (`2026-12-7`) or with no
    /// dashes (`20261207`): the day as `YYYY-MM-DD`, when that is one. Nil for any other text.
    static func dayAdvice(_ text: String) -> String? {
        guard text.utf8.count <= 40, text.unicodeScalars.allSatisfy(\.isASCII) else { return nil }
        func day(_ candidate: String) -> String? { CalendarDate(parsing: candidate) != nil ? candidate : nil }
        let chars = Array(text)
        if chars.count > 10, ["T", "t", " "].contains(chars[10]), let written = day(String(chars[..<10])) {
            return "a model's start is a day, with no time of day (each user's day starts at local midnight): write \(written)"
        }
        if chars.count == 8, chars.allSatisfy({ $0.isNumber }), let written = day(String(chars[0..<4]) + "-" + String(chars[4..<6]) + "-" + String(chars[6..<8])) {
            return "write the day with its dashes: \(written)"
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0].count == 4, (1...2).contains(parts[1].count), (1...2).contains(parts[2].count),
            parts.allSatisfy({ $0.allSatisfy(\.isNumber) }),
            let written = day(parts[0] + "-" + (parts[1].count == 1 ? "0" : "") + parts[1] + "-" + (parts[2].count == 1 ? "0" : "") + parts[2])
        {
            return "months and days take two digits: write \(written)"
        }
        return nil
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
