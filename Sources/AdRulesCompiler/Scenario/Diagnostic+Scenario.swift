import AdRules
import AdRulesYAML

/// Messages about scenario files that rule files do not have, in one place.
extension Diagnostic {
    /// `tests:` with an empty list: it tests nothing, as a file without `tests:` does.
    static func noTests(file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/missing-key", message: "tests lists no test: add one, with its name, start and steps",
            file: file, range: range)
    }

    /// A rule file saved under a scenario file's name: the policy leaves it out (cli.md: `*.test.yaml` are scenario
    /// files), so its rules are lost, and `adrules test` finds no tests in it.
    static func ruleFileNamedAsScenario(_ file: String, key: YAMLNode) -> Diagnostic {
        let name = String(file.split(separator: "/").last ?? Substring(file))
        let base = FileNames.withoutExtension(name, FileNames.scenarioExtensions)
        return Diagnostic(
            .error, rule: "schema/unknown-key",
            message: "\(ControlCharacters.escaped(name)) holds rules (`\(key.scalar?.value ?? "placements"):`), not scenario tests: name it "
                + "\(ControlCharacters.escaped(String(base))).yaml, so that the policy loads it (a name ending in .test.yaml is a scenario file, which "
                + "the policy leaves out)",
            file: file, range: key.range)
    }

    /// The undeclared attribute names past those listed, counted: no name is dropped without a word.
    static func undeclaredAttributesNotListed(_ count: Int, file: String) -> Diagnostic {
        Diagnostic(
            .warning, rule: "scenario/unknown-attribute",
            message: count == 1
                ? "1 more attribute name that the policy does not declare is not listed: declare it, or fix the names listed"
                : "\(count) more attribute names that the policy does not declare are not listed: declare them, or fix the names listed",
            file: file, range: .fileStart)
    }

    /// A context that passes more attributes than a policy may declare.
    static func tooManyContextAttributes(_ count: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "attributes names \(count) attributes; a context holds at most \(PolicyLimits.maxAttributes), as a policy declares at most that many: pass the ones the policy reads",
            file: file, range: range)
    }

    /// `retry_in: none` (or `never`, `nil`, `"null"`): "no retry time" written another way than null.
    static func retryInWordForNull(_ written: YAMLScalar, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/duration",
            message: "retry_in must be a duration such as 4m, or null when the decision has no next allowed time; not \(written.style == .plain ? written.value : "\"\(written.value)\""): write retry_in: null",
            file: file, range: range)
    }

    /// `retry_in` written as the time the decision allows again (`next_allowed_at`), not the wait until it.
    static func retryInAsTime(_ written: YAMLScalar, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/duration",
            message: "retry_in must be a duration, not the time \(written.shortValue): it is the wait from this step's time to the decision's "
                + "next_allowed_at; write it as a duration, as in retry_in: 4m",
            file: file, range: range)
    }

    /// - Parameter hint: "did you mean", or what the policy's placements are (``unknownPlacementHint(_:known:)``); nil
    ///   when the finding will only be counted.
    static func unknownHistoryPlacement(_ id: String, hint: String?, file: String, range: SourceRange) -> Diagnostic {
        unknownScenarioPlacement(
            "history names placement \"\(ControlCharacters.escaped(YAMLScalar.shortened(id)))\", which the policy does not have (the show counts for nothing)",
            hint: hint, file: file, range: range)
    }

    /// An event step about a placement the policy does not have: the engine ignores the event.
    static func unknownStepPlacement(_ id: String, event: String, hint: String?, file: String, range: SourceRange) -> Diagnostic {
        unknownScenarioPlacement(
            "event \(event) names placement \"\(ControlCharacters.escaped(YAMLScalar.shortened(id)))\", which the policy does not have (the engine ignores the event)",
            hint: hint, file: file, range: range)
    }

    /// What follows a finding about a placement a scenario names and the policy does not have: "did you mean", or the
    /// policy's placements.
    static func unknownPlacementHint(_ id: String, known: [String]) -> String {
        if let suggestion = Suggestion.closest(to: id, in: known) { return Suggestion.didYouMean(suggestion, for: id) }
        if known.isEmpty { return "the policy the test runs against defines no placements" }
        return "its placements are \(known.prefix(10).joined(separator: ", "))\(known.count > 10 ? ", and \(known.count - 10) more" : "")"
    }

    /// A scenario file that is a list of tests: its `tests:` line is missing.
    static func testsWithoutTheirLine(found: YAMLNode, file: String) -> Diagnostic {
        wrongType(
            "a scenario file", expected: "a mapping of keys to values", found: found, file: file,
            advice: "the tests need a `tests:` line above them, with the list indented under it")
    }

    /// Steps written at the level of the tests, which YAML reads as tests: one finding for the run of them.
    /// - Parameters:
    ///   - testAbove: whether a test stands above them (else they come first in `tests:`).
    ///   - emptySteps: the empty `steps:` of the test just above, where the finding then stands.
    static func stepsAtTestLevel(_ steps: ArraySlice<YAMLNode>, testAbove: Bool, emptySteps: YAMLNode?, file: String) -> Diagnostic {
        let first = steps.first?.range.start.line ?? 0, last = steps.last?.range.end.line ?? first
        let one = steps.count == 1
        let which = one ? "the step on line \(first) stands" : "the \(steps.count) steps on lines \(first)-\(last) stand"
        let them = one ? "it" : "them", read = one ? "it as a test" : "them as tests"
        let message: String
        if emptySteps != nil {
            message = "steps is empty: \(which) at the level of the tests, so YAML reads \(read): indent \(them) under `steps:`, deeper than its key" + (emptySteps?.items != nil ? ", in place of its [ ]" : "")
        } else if testAbove {
            message = "\(which) at the level of the tests, so YAML reads \(read): indent \(them) as the steps of the test above are indented"
        } else {
            message = "\(which) where a test goes: write a test around \(them), `- name: …` with its `start:` and `steps:`"
        }
        let range = emptySteps?.range ?? steps.first?.range ?? .fileStart
        return Diagnostic(.error, rule: "schema/type", message: message, file: file, range: range)
    }

    /// A test named as an earlier one of its file: the `PASS`/`FAIL` lines and json cannot tell the two apart. A warning:
    /// both run.
    static func repeatedTestName(_ name: String, first: SourceLocation, file: String, range: SourceRange) -> Diagnostic {
        var diagnostic = Diagnostic(
            .warning, rule: "scenario/duplicate-name",
            message: "test name \"\(ControlCharacters.escaped(YAMLScalar.shortened(name)))\" is used by an earlier test of this file, so the "
                + "PASS and FAIL lines cannot tell the two apart: give each test a name of its own, saying what it checks",
            file: file, range: range)
        diagnostic.notes = [DiagnosticNote(message: "the earlier test starts here", file: first.file, position: SourcePosition(line: first.line, column: first.column))]
        return diagnostic
    }

    /// An ask about a placement the policy does not have: it is denied `unknown_placement` whatever the test meant.
    static func unknownAskPlacement(_ id: String, ask: String, hint: String?, file: String, range: SourceRange) -> Diagnostic {
        unknownScenarioPlacement(
            "ask \(ask) names placement \"\(ControlCharacters.escaped(YAMLScalar.shortened(id)))\", which the policy does not have (it is denied unknown_placement; a test of that reason lists it in reasons)",
            hint: hint, file: file, range: range)
    }

    private static func unknownScenarioPlacement(_ start: String, hint: String?, file: String, range: SourceRange) -> Diagnostic {
        // A warning: the test still runs as written (an app may record events about a placement a policy lacks, and a
        // test may check that its asks are `unknown_placement`), and a typo is named beside the asks it makes fail.
        Diagnostic(.warning, rule: "scenario/unknown-placement", message: start + (hint.map { ": " + $0 } ?? ""), file: file, range: range)
    }

    /// A scenario file whose steps would take more than `limit` steps of the policy's rules and caps.
    /// - Parameter step: what the step is, for the message: `an ask of app_open`, `show_started of app_open`.
    /// - Parameter upTo: what the position is one of: `steps`, or `tests` for a test's start.
    static func tooMuchRuleWork(limit: Int, perStep: Int, step: String, upTo: String = "steps", file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "the \(upTo) up to this one would take more than \(limit / 1_000_000) million steps of the policy's rules and caps (this one, \(ControlCharacters.escaped(step)), about \(perStep)): "
                + (perStep > limit
                    ? "this step alone is over it: give the rules shorter lists (fewer or shorter strings) or test against a smaller policy"
                    : "split the file into smaller ones"),
            file: file, range: range)
    }

    /// A scenario file that would take the run's files past ``ScenarioDecoder/maxRunWork`` together, though it is within
    /// its own bound: its tests do not run.
    /// - Parameters:
    ///   - before: the work of the files run before it; `work`, its own.
    package static func tooMuchRunWork(limit: Int, before: Int, work: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "the scenario files of this run would take more than \(Article.grouped(limit)) steps of the policies' rules and caps together "
                + "(the files run before this one about \(Article.grouped(before)), this one about \(Article.grouped(work))), so its tests do not run: test fewer scenario files at once, such as one directory a run",
            file: file, range: range)
    }

    /// A test whose `history` would keep more show records than a replay may hold.
    static func tooLongHistory(records: Int, limit: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "this test's history would keep \(records) show records in its placements' and their groups' histories, more than the \(limit) a test may hold: shorten the history, or test against a policy with fewer groups",
            file: file, range: range)
    }

    /// A scenario step whose time would be after the last a timestamp can write (year 9999).
    static func stepPastLastTime(file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "this step falls after \(Timestamps.format(milliseconds: Timestamps.latest, offsetSeconds: 0)), the last time a timestamp can write: start the test earlier or shorten its `after:` steps",
            file: file, range: range)
    }

    /// `after: -5m` in a scenario step: a clock set back is written with `at:` (cli.md r2).
    static func negativeAfter(file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/duration",
            message: "after is the time since the step before, never negative: to set the clock back, write at: with the time the clock shows, as in at: 2026-11-29T08:00:00+09:00",
            file: file, range: range)
    }

    static func afterAndAt(file: String, at position: SourcePosition) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/type",
            message: "a step sets its time with after: (since the previous step) or at: (a timestamp), not both: keep one",
            file: file, range: SourceRange(at: position))
    }

    static func eventAndAsk(file: String, at position: SourcePosition) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/type", message: "a step is either an event or an ask, not both: split it into two steps",
            file: file, range: SourceRange(at: position))
    }

    static func askKeyOnEvent(_ key: String, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/unknown-key",
            message: "\(key) belongs to an ask step, not to an event: move it to the ask it checks (a step takes an event or an ask, not both), or remove it", file: file, range: range)
    }

    /// `placement` on an event of no placement, `source` on one of no source (or on an ask: `event` nil).
    /// - Parameter value: the value written, for the advice to name a fullscreen ad's source as one.
    /// - Parameter isPolicyPlacement: the value names one of the policy's placements.
    static func keyNotTakenByEvent(
        _ key: String, event: String?, value: String? = nil, isPolicyPlacement: Bool = false, file: String, range: SourceRange
    ) -> Diagnostic {
        let takers = key == "source" ? AdEvent.sourceEvents : AdEvent.placementEvents
        let subject = event.map { "event \($0)" } ?? "an ask"
        // `{event: fullscreen_opened, placement: level_end}`: an ad of the policy's own on screen is its show.
        if key == "placement", let event, event == "fullscreen_opened" || event == "fullscreen_closed", isPolicyPlacement, let value {
            let own = event == "fullscreen_opened" ? "show_started" : "ad_closed"
            return Diagnostic(
                .error, rule: "schema/unknown-key",
                message: "\(subject) takes no placement: it is about a fullscreen ad the policy does not manage, and \(ControlCharacters.escaped(value)) is one of "
                    + "its placements, whose ad on screen is written event: \(own)",
                file: file, range: range)
        }
        // `{event: fullscreen_opened, placement: mediation_sdk}`: another SDK's ad is named by its source.
        if key == "placement", let event, AdEvent.sourceEvents.contains(event) {
            let source = value.map { ControlCharacters.escaped(YAMLScalar.shortened($0)) } ?? "mediation"
            return Diagnostic(
                .error, rule: "schema/unknown-key",
                message: "\(subject) takes no placement: a fullscreen ad the policy does not manage is named by its source: write source: \(source)",
                file: file, range: range)
        }
        return Diagnostic(
            .error, rule: "schema/unknown-key",
            message: "\(subject) takes no \(key) (only \(takers.joined(separator: ", ")) do): remove it", file: file, range: range)
    }

    /// `trigger` on an ask other than a show; on an offer, a trigger other than `action` (an offer answers a
    /// user's action, so `trigger: action` is accepted there as saying what is so).
    static func triggerOutsideShow(ask: AskKind, file: String, range: SourceRange) -> Diagnostic {
        let message = ask == .offer
            ? "an offer is always asked on a user action: remove the trigger (or write trigger: action)"
            : "trigger applies to show asks only: remove it"
        // On an offer the key is one it takes, with a value it does not: an enum finding, not an unknown key.
        return Diagnostic(.error, rule: ask == .offer ? "schema/enum" : "schema/unknown-key", message: message, file: file, range: range)
    }
}
