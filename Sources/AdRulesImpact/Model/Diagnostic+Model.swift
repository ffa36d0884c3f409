import AdRules
import AdRulesCompiler
import AdRulesYAML
import Foundation

/// Messages about usage models (`*.model.yaml`) that rule files do not have; wrong types, unknown and
/// missing keys and durations use the rule files' own messages (`Diagnostic+Values.swift`, `Diagnostic+Keys.swift`,
/// `Diagnostic+Durations.swift`).
extension Diagnostic {
    static func modelOutOfRange(_ key: String, _ requirement: String, found: String, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range", message: "\(key) must be \(requirement), not \(found)",
            file: file, range: range)
    }

    static func modelTooManyMoments(segment: String, moments: Double, limit: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "segment \(segment) has about \(Int(moments.rounded())) app moments (actions and offers) a user-day, more than the \(limit) a simulation plays: write longer gaps (every), fewer streams or shorter visits",
            file: file, range: range)
    }

    static func modelTooManyStreamStarts(segment: String, streams: Int, visits: Double, limit: Int, file: String, range: SourceRange) -> Diagnostic {
        let starts = Int((Double(streams) * visits).rounded())
        return Diagnostic(
            .error, rule: "schema/range",
            message: "segment \(segment) starts its \(streams) streams (actions and rewarded) in each of about \(Int(visits.rounded())) visits a user-day: about \(starts) starts, more than the \(limit) a simulation plays: write fewer visits (cold_starts, resumes) or fewer streams",
            file: file, range: range)
    }

    /// - Parameter showsKept: the shows a history of the policy keeps (one more than its largest cap), when filling histories is most
    ///   of the estimate: named when it is large, as each show is counted as moving histories that full (a single
    ///   `daily_cap: 100000` made a model of a few hundred actions a day too much, with nothing in the advice pointing at it).
    static func modelTooMuchWork(segment: String, work: Double, limit: Int, showsKept: Int?, file: String, range: SourceRange) -> Diagnostic {
        var message = "a user-day of segment \(segment) would take about \(Int((work / 1_000_000).rounded())) million steps of the policy's rules and caps, more than the \(limit / 1_000_000) million a simulation plays: write fewer visits (cold_starts, resumes), longer gaps (every), fewer streams, shorter visits or shorter attribute lists, or preview a policy with fewer placements, groups, window caps or rules per placement"
        if let showsKept, showsKept > 1_000 {
            message += "; each show is counted as filling histories of \(showsKept) shows, one more than the policy's largest cap: a cap that high makes the estimate large"
        }
        return Diagnostic(.error, rule: "schema/range", message: message, file: file, range: range)
    }

    static func modelReportTooLarge(segments: Int, placements: Int, policy: String, limit: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "the report would hold \(segments) segment\(segments == 1 ? "" : "s") x \(placements) placements of \(policy) = \(segments * placements) blocks of figures, more than \(limit): use fewer segments, or preview a policy with fewer placements",
            file: file, range: range)
    }

    static func modelDistributionKind(_ key: String, kind: String, expected: String, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/type",
            message: "\(key) cannot be drawn from {\(kind): ...}: write \(expected)",
            file: file, range: range)
    }

    /// The rule files' advice: a fixed offset (`GMT+5`) is told its `Etc/GMT-5` name, an abbreviation that it names no
    /// place, anything else its closest zone.
    static func modelTimeZone(_ name: String, file: String, range: SourceRange) -> Diagnostic {
        .unknownTimeZone(name, file: file, range: range, deviceAllowed: false)
    }

    /// - Parameter lastSegment: the last segment's name, if it has one, and the share it would take for the shares to add
    ///   up to 1 with the others as written; nil when no share of it would.
    static func modelShares(sum: Double, lastSegment: (name: String?, share: String, isOnly: Bool)?, file: String, range: SourceRange) -> Diagnostic {
        // A sum off by less than six decimals show is given with as many as it takes: "add up to 1, not 1" says nothing.
        var decimals = 6
        while ShareText.format(sum, decimals: decimals) == "1", decimals < 15 { decimals += 1 }
        let shown = ShareText.format(sum, decimals: decimals)
        return Diagnostic(
            .error, rule: "model/shares",
            message: "the segments' shares add up to \(shown), not 1: make them add up to 1"
                + (lastSegment.map { last in
                    let named = last.name.map { ", \($0)," } ?? ""
                    return last.isOnly
                        ? "; the only segment\(named) takes 1" : "; with the others as written, the last segment\(named) would take \(last.share)"
                } ?? ""),
            file: file, range: range)
    }

    static func modelNoSegments(file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/type",
            message: "segments is empty: list at least one segment, as in - {name: casual, share: 1, timezone: UTC}",
            file: file, range: range)
    }

    static func modelDuplicateSegment(_ name: String, file: String, range: SourceRange, first: SourcePosition) -> Diagnostic {
        Diagnostic(
            .error, rule: "model/duplicate-segment",
            message: "segment \"\(name)\" is defined twice: rename or remove one of them",
            file: file, range: range,
            notes: [DiagnosticNote(message: "segment \"\(name)\" is first defined here", file: file, position: first)])
    }

    /// `{min: 0, max: 60}` where a distribution belongs: a value drawn between two ends is `uniform`.
    static func rangeWrittenAsBounds(_ key: String, low: String, high: String, found: YAMLNode, file: String) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/type",
            message: "\(key) gives two ends, which is no distribution here: a value drawn between them is written {uniform: [\(low), \(high)]}",
            file: file, range: found.range)
    }

    /// - Parameter removedFrom: the `--compare` policy that plays the placement, when the policy under `--rules` lacks
    ///   it: the change under study removes it.
    static func modelUnknownPlacement(
        _ id: String, segment: String, policy: String, known: [String], severity: Severity, removedFrom: String? = nil, file: String,
        range: SourceRange
    ) -> Diagnostic {
        var message = "segment \(segment) names placement \"\(ControlCharacters.escaped(YAMLScalar.shortened(id)))\", which the policy \(policy) does not define"
        if let removedFrom {
            message += " (the --compare policy \(ControlCharacters.escaped(removedFrom)) does): its asks are denied unknown_placement"
        } else if let suggestion = Suggestion.closest(to: id, in: known) {
            message += ": " + Suggestion.didYouMean(suggestion, for: id)
        } else if severity == .error {
            // A policy of thousands of placements names ten; one of none says so rather than list nothing.
            let more = known.count > 10 ? ", and \(known.count - 10) more" : ""
            message += known.isEmpty ? ": the policy has no placements (check --rules)" : ": the placements are \(known.prefix(10).joined(separator: ", "))\(more)"
        } else {
            message += ": its asks are denied unknown_placement"
        }
        return Diagnostic(severity, rule: "policy/unknown-placement", message: message, file: file, range: range)
    }

    /// - Parameter severity: an error for the policy under `--rules`; a warning for one policy of a comparison when the
    ///   other plays the placement (its format changed: its asks are then denied `trigger_not_supported`, and the
    ///   comparison shows it).
    static func modelPlacementFormat(_ id: String, format: String, usage: String, severity: Severity = .error, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            severity, rule: "model/placement-format",
            message: "placement \(id) is \(format), which the app never shows from \(usage): app-open ads are played on every cold start and resume; remove it here",
            file: file, range: range)
    }

    /// Zone names that read like a region's but are fixed offsets with no daylight saving: the region's zone, and the
    /// offset, and a zone that keeps that offset all year.
    static let fixedOffsetZones = [
        "EST": (region: "America/New_York", offset: "-05:00", fixed: "America/Panama"),
        "MST": (region: "America/Denver", offset: "-07:00", fixed: "America/Phoenix"),
    ]

    static func modelFixedOffsetZone(_ zone: String, meant: (region: String, offset: String, fixed: String), file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .warning, rule: "model/fixed-offset-zone",
            message: "\(zone) is the fixed offset UTC\(meant.offset), with no daylight saving, so its users are played an hour off in summer: "
                + "write \(meant.region) (or \(meant.fixed), a place that keeps UTC\(meant.offset) all year)",
            file: file, range: range)
    }

    static func modelNoColdStart(file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .warning, rule: "model/cold-starts",
            message: "cold_starts is always 0 here, and every simulated day starts with a cold start, so it is played as 1: write 1, and resumes for the returns from background",
            file: file, range: range)
    }

    /// A placement the model plays where its policy denies what the play is for: its shows (a choice the play never
    /// makes) or its rewards (a format that has none).
    static func modelUsageMismatch(_ id: String, _ mismatch: UsageMismatch, file: String, range: SourceRange) -> Diagnostic {
        let message: String
        switch mismatch {
        case .choiceInActions:
            message = "placement \(id) requires the user's choice (require_user_choice), which an action never gives, so each of "
                + "its shows is denied no_user_choice: list it under rewarded, where the user accepts an offer"
        case .notRewardedInOffers(let format):
            message = "placement \(id) is \(format), so any reward after an accepted offer is denied not_rewarded_format: "
                + "offers are for rewarded and rewarded_interstitial placements; list it under actions"
        }
        return Diagnostic(.warning, rule: "model/placement-format", message: message, file: file, range: range)
    }

    /// - Parameter policy: the policy compared with (`--compare`), named so that its warnings and the current
    ///   policy's stay apart; nil for the current one.
    static func modelUnusedPlacement(_ id: String, model: String, policy: String? = nil, definedAt: SourceLocation, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .warning, rule: "model/unused-placement",
            message: "no segment of \(model) uses placement \(id)\(policy.map { " of \($0)" } ?? ""), so it is never asked about or shown (its impressions, deny reasons and loads are all zero; a group it is in may still reach its caps): add it to a segment's actions or rewarded",
            file: file, range: range,
            notes: [DiagnosticNote(
                message: "placement \(id) is defined here", file: definedAt.file,
                position: SourcePosition(line: definedAt.line, column: definedAt.column))])
    }

    static func modelAttributeType(_ name: String, declared: ValueType, value: ModelAttribute.Value, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "model/attribute-type",
            message: "attribute \(name) is declared \(declared.rawValue) in the policy, and \(value.text) is not one: \(value.advice(for: declared))",
            file: file, range: range)
    }

    /// - Parameters:
    ///   - names: the first attributes the segment leaves out (ten at most); `more` counts the others.
    ///   - declaredAt: where the first is declared.
    static func modelMissingAttribute(
        _ names: [String], more: Int, segment: String, declaredAt: SourceLocation, file: String, range: SourceRange
    ) -> Diagnostic {
        let what = names.count == 1 && more == 0
            ? "attribute \(names[0]), which has no default: asks of placements whose rules read it are denied rule_error"
            : "attributes \(names.joined(separator: ", "))\(more > 0 ? " and \(more) more" : ""), which have no default: asks of placements whose rules read them are denied rule_error"
        return Diagnostic(
            .warning, rule: "model/missing-attribute", message: "segment \(segment) gives no value for \(what)",
            file: file, range: range,
            notes: [DiagnosticNote(
                message: "attribute \(names[0]) is declared here", file: declaredAt.file,
                position: SourcePosition(line: declaredAt.line, column: declaredAt.column))])
    }

    static func modelEmpty(file: String) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/missing-key", message: "the usage model is empty: start it with `version: 1` and `segments:`",
            file: file, range: .fileStart)
    }
}

/// The rule files' time zone table, shared: one list, one length guard.
typealias KnownTimeZones = TimeZoneNames

/// Shares as short decimal text (0.7, 0.95) for messages and reports.
enum ShareText {
    /// A share rounded to `decimals` places, without a trailing `.0`.
    static func format(_ value: Double, decimals: Int = 6) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        // A value too small to show in six decimals is not shown as 0, which it is not.
        if rounded == 0, value != 0 { return String(value) }
        var text = String(rounded)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// The share that makes shares adding up to `others` add up to 1, written with the fewest decimals (six at least)
    /// that make them add up within `tolerance`.
    static func rest(after others: Double, tolerance: Double) -> String {
        let rest = 1 - others
        var decimals = 6
        var text = format(rest, decimals: decimals)
        while decimals < 15, let written = Double(text), abs(others + written - 1) > tolerance {
            decimals += 1
            text = format(rest, decimals: decimals)
        }
        return text
    }
}
