import AdRules
import AdRulesCompiler
import AdRulesYAML
import Foundation

extension ModelDecoder {
    static func decodeSegments(_ node: YAMLNode, reader: inout ModelReader) -> [Segment] {
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
        var last: SegmentRead?
        for item in items {
            let read = decodeSegment(item, reader: &reader)
            last = read
            if let share = read.share { (shares, shareSum) = (shares + 1, shareSum + share) }
            guard let name = read.name else { continue }
            // A segment written as an alias (`- *casual`) holds its anchor's name, written elsewhere: it is reported at the alias.
            let written = SourcePosition(line: name.location.line, column: name.location.column)
            let position = item.range.start <= written && written <= item.range.end ? written : item.range.start
            if let first = seen[name.text] {
                reader.report(.modelDuplicateSegment(name.text, file: reader.file, range: SourceRange(at: position), first: first))
                continue
            }
            seen[name.text] = position
            if let segment = read.segment { segments.append(segment) }
        }
        if items.isEmpty {
            reader.report(.modelNoSegments(file: reader.file, range: node.range))
        } else if shares == items.count, abs(shareSum - 1) > shareTolerance {
            // What the last segment would take for the shares to add up to 1, with the others as written.
            let others = last?.share.map { shareSum - $0 }
            let suggestion = others.flatMap { others in
                others >= 0 && others < 1 ? (last?.name?.text, ShareText.rest(after: others, tolerance: shareTolerance), items.count == 1) : nil
            }
            reader.report(.modelShares(sum: shareSum, lastSegment: suggestion, file: reader.file, range: node.range))
        }
        return segments
    }

    /// How far from 1 the shares may add up: what adding decimals in binary floating point may be off by, no more (thirds
    /// are written 0.33, 0.33, 0.34, or to as many decimals as wanted, the last taking the rest).
    static let shareTolerance = 1e-9

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
                    if let problem = Segment.nameProblem(text) {
                        reader.report(.modelOutOfRange(key, "a name the report can show, such as casual", found: problem, file: reader.file, range: value.range))
                    } else {
                        name = (text, reader.location(value))
                    }
                }
            case "share":
                share = reader.number(value, key, in: 0...1, expected: "above 0 and at most 1", fractions: { $0 > 0 }, takesZero: false)
                if let s = share, s == 0 {
                    reader.report(.modelOutOfRange(key, "above 0 and at most 1", found: "0", file: reader.file, range: value.range))
                }
            case "timezone":
                if let zone = reader.string(value, key) {
                    if KnownTimeZones.zone(named: zone) == nil {
                        reader.report(.modelTimeZone(zone, file: reader.file, range: value.range))
                    } else {
                        segment.timeZone = zone
                        if let meant = Diagnostic.fixedOffsetZones[zone] {
                            reader.report(.modelFixedOffsetZone(zone, meant: meant, file: reader.file, range: value.range))
                        }
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
        // A key misspelt (`nam:`, "did you mean") is told once, there: the segment is not also told it lacks the key.
        let present = GluedKey.keysMeant(pairs, allowed: ModelKeys.segment, relocation: { ModelKeys.relocation(of: $0, in: ModelKeys.segment) })
        if name == nil, !present.contains("name") {
            reader.report(.missingKey("name", in: "a segment", example: "name: casual", file: reader.file, range: node.range))
        }
        if share == nil, !present.contains("share") {
            reader.report(.missingKey(
                "share", in: "a segment", example: "share: 0.5", describing: "the fraction of users in it (the segments' shares add up to 1)",
                file: reader.file, range: node.range))
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
}
