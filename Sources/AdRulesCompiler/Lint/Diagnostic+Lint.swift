import AdRules
import AdRulesYAML

/// Messages of the lint rules that know ads (``SemanticLint``), in one place.
extension Diagnostic {
    static func zeroCap(_ key: String, at location: SourceLocation, inGroup: Bool) -> Diagnostic {
        let written = key == "max" ? "this caps window" : "\(key): 0"
        let message = if inGroup {
            "\(key) is 0, so no member of this group can ever show: to turn placements off, write enabled: false in each of them instead of \(written)"
        } else {
            "\(key) is 0, so this can never show: to turn a placement off, write enabled: false instead of \(written)"
        }
        return Diagnostic(
            .warning, rule: "cap/zero", message: message,
            file: location.file, range: SourceRange(at: SourcePosition(line: location.line, column: location.column)))
    }

    static func unreachable(at location: SourceLocation, _ message: String, notes: [DiagnosticNote] = []) -> Diagnostic {
        Diagnostic(
            .warning, rule: "cap/unreachable", message: message, file: location.file,
            range: SourceRange(at: SourcePosition(line: location.line, column: location.column)), notes: notes)
    }

    static func pacingMissing(_ p: Placement) -> Diagnostic {
        Diagnostic(
            .warning, rule: "pacing/missing",
            // A min_interval written as 0s is there, and says nothing: the message names it (a default points at the placement).
            message: "\(p.format.value.rawValue) placement \(p.id) has \(p.minInterval.location != p.location ? "min_interval \(p.minInterval.value)" : "no min_interval") and no cap, so it may show back to back: \(p.minInterval.location != p.location ? "raise min_interval (for example to 4m) or add daily_cap" : "add min_interval (for example 4m) or daily_cap")",
            file: p.location.file, range: SourceRange(at: SourcePosition(line: p.location.line, column: p.location.column)),
            // The 0s may be the placement's or its defaults': a note points at the value to raise.
            notes: p.minInterval.location != p.location
                ? [DiagnosticNote(
                    message: "min_interval \(p.minInterval.value) is written here", file: p.minInterval.location.file,
                    position: SourcePosition(line: p.minInterval.location.line, column: p.minInterval.location.column))]
                : [])
    }

    static func rewardedWithoutChoice(_ location: SourceLocation) -> Diagnostic {
        Diagnostic(
            .error, rule: "rewarded/no-user-choice",
            message: "rewarded ads may be shown only after the user chooses to watch (ad network policy): write require_user_choice: true, or use format: rewarded_interstitial",
            file: location.file, range: SourceRange(at: SourcePosition(line: location.line, column: location.column)))
    }

    static func deferredShow(_ location: SourceLocation) -> Diagnostic {
        Diagnostic(
            .warning, rule: "app-open/deferred-show",
            message: "allow_deferred: true shows an app-open ad when a load completes after a resume, interrupting a user who has started working: write allow_deferred: false",
            file: location.file, range: SourceRange(at: SourcePosition(line: location.line, column: location.column)))
    }

    static func expiryTooLong(_ age: Located<RuleDuration>, format: AdFormat, limit: RuleDuration) -> Diagnostic {
        Diagnostic(
            .warning, rule: "expiry/too-long",
            message: "max_ad_age \(age.value) is longer than the \(limit) networks keep a cached \(format.rawValue) ad valid; an expired ad earns nothing: write max_ad_age: \(limit) or less",
            file: age.location.file, range: SourceRange(at: SourcePosition(line: age.location.line, column: age.location.column)))
    }

    static func testAdUnit(_ unit: Located<String>, network: String) -> Diagnostic {
        Diagnostic(
            .error, rule: "ids/test-ad-unit",
            message: "\"\(unit.value)\" is a test ad unit id of \(network) in a production policy: use the real ad unit id, or write environment: test",
            file: unit.location.file, range: SourceRange(at: SourcePosition(line: unit.location.line, column: unit.location.column)))
    }

    /// A list of placements: a group's members or a rule's `deny`.
    enum PlacementList {
        case group(String)
        case rule(String)
    }

    /// - Parameter member: the second listing; `first` the first, `times` how many there are.
    static func repeatedPlacement(_ member: Located<String>, first: Located<String>, times: Int, in list: PlacementList) -> Diagnostic {
        let listed = times == 2 ? "twice" : "\(times) times"
        let advice = switch list {
        case .group(let id): "is listed \(listed) in group \"\(id)\", which counts each member once"
        case .rule(let id): "is listed \(listed) in the deny list of rule \"\(id)\", which denies it once all the same"
        }
        return Diagnostic(
            .warning, rule: "policy/repeated-placement",
            message: "placement \"\(member.value)\" \(advice): list it once, or name the placement you meant",
            file: member.location.file, range: SourceRange(at: SourcePosition(line: member.location.line, column: member.location.column)),
            notes: [DiagnosticNote(message: "first listed here", file: first.location.file, position: SourcePosition(line: first.location.line, column: first.location.column))])
    }

    static func duplicateAdUnit(_ unit: Located<String>, first: Located<String>) -> Diagnostic {
        Diagnostic(
            .warning, rule: "ids/duplicate-ad-unit",
            message: "ad unit \"\(unit.value)\" is already used by another placement (\(first.location)): give each placement its own ad unit",
            file: unit.location.file, range: SourceRange(at: SourcePosition(line: unit.location.line, column: unit.location.column)),
            notes: [DiagnosticNote(message: "first used here", file: first.location.file, position: SourcePosition(line: first.location.line, column: first.location.column))])
    }

    /// The group whose records take a policy past what a compiled policy's loader reads (the runtime's own message).
    static func tooManyGroupRecords(_ policy: Policy, total: Int, at location: SourceLocation) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range", message: policy.groupRecordsMessage(total: total),
            file: location.file, range: SourceRange(at: SourcePosition(line: location.line, column: location.column)))
    }

    /// A suppression comment that names no rule.
    /// - Parameter others: how many more names of the comment are no rule.
    static func unknownRuleInComment(_ name: String, others: Int, closest: String?, file: String, at position: SourcePosition) -> Diagnostic {
        // A plain word close to no rule is most often the start of a reason written without `--`.
        let reason = name.allSatisfy(\.isLetter) ? "; to give a reason, write it after -- (# adrules:disable-next-line cap/zero -- why)" : ""
        let advice = closest.map { "did you mean \($0)?" } ?? "name a rule id such as cap/zero (see adrules lint --format sarif, or docs/lint-rules.md)\(reason)"
        let more = others > 0 ? " (\(others) more name\(others == 1 ? "" : "s") in this comment \(others == 1 ? "is" : "are") no rule either)" : ""
        return Diagnostic(
            .warning, rule: "lint/unknown-rule",
            message: "adrules:disable-next-line names \(ControlCharacters.escaped(String(name.prefix(80)))), which is no lint rule, so that name hides nothing: \(advice)\(more)",
            file: file, range: SourceRange(at: position))
    }

    /// The diagnostics past what one report prints, over all its files (each file's own bound already applied: a
    /// file's line counting those it does not show is one of them).
    package static func tooManyFindingsInRun(_ count: Int, errors: Int, shown: Int, file: String) -> Diagnostic {
        let low = String(shown % 1000)
        let bound = shown >= 1000 ? "\(shown / 1000)," + String(repeating: "0", count: 3 - low.count) + low : low
        // (Printed after the summary was counted from every diagnostic: it stands for nothing more.)
        return Diagnostic(
            errors > 0 ? .error : .warning, rule: "lint/too-many-findings",
            message: "\(count) more diagnostics are not printed (a report prints \(bound)): fix the ones listed and run again",
            file: file, range: .fileStart)
    }
}
