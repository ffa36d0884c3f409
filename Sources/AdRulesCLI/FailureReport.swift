import AdRules
import AdRulesCompiler
import AdRulesYAML
import Foundation

/// How a failing step is shown: the step, then the expected and the actual decision side by side.
enum FailureReport {
    /// The failing steps a test reports in full; past it they are counted. The first ones are the ones to fix, and a
    /// scenario of thousands of failing asks with long messages would otherwise build gigabytes of report.
    static let maxFailuresShown = 100

    /// About the most bytes of failing steps (`test`) or of deny reasons and notes (`simulate`) one run's text report
    /// holds, over all its tests: past it `test` counts the failing steps it does not show, and `simulate` lists each
    /// step's reason codes without their messages. 150 tests of 100 failing asks, each denied by 200 rules with
    /// 4,000-character messages, would make 3 GB of text with `test` (the run crashed at 4 GB building it). Text counts the
    /// bytes written; the json bound (``maxJSONBytes``) weighs each reason at 256 bytes and twice its texts.
    static let maxTextBytes = 64_000_000

    /// One reason as the text reports list it: its code, its message and where in the rule files it comes from.
    static func reasonLine(_ reason: Reason, indent: String) -> String {
        var line = "\(indent)\(reason.code.rawValue): \(ControlCharacters.escaped(reason.message))"
        // The rule file's path comes from a directory listing or --rules: escaped as the message is, so a file name
        // cannot start a forged line or send escape codes.
        if let location = reason.location { line += " [\(ControlCharacters.escaped(location.description))]" }
        return line + "\n"
    }

    /// The failing steps of a test in text, while `bytesLeft` (shared by the run's tests) lasts; the others counted.
    /// - Parameter zone: the zone the policy counts days in, for the steps' times (as `simulate` shows them: across a
    ///   DST change the offset of `start:` would put a step on another local date than its daily-cap reason).
    static func render(_ outcome: TestOutcome, zone: TimeZone, bytesLeft: inout Int) -> String {
        var out = ""
        let failures = outcome.failures
        var listed = 0
        for failure in failures.prefix(maxFailuresShown) {
            // A failing step past what the runner kept (``ScenarioRunner/KeptDecisions``) is counted, not shown.
            guard bytesLeft > 0, case .ask(let ask, _, let expectation) = failure.step.action, let decision = failure.decision else { continue }
            let start = out.utf8.count
            defer { bytesLeft -= out.utf8.count - start }
            listed += 1
            let time = Timestamps.format(milliseconds: failure.time, in: zone)
            out += "  \(Diagnostic.terminalFile(failure.step.location.file)):\(failure.step.location.line): at \(time): \(describe(ask))\n"
            var rows: [(String, String, String)] = [("", "expected", "actual")]
            let retry = decision.nextAllowedAt.map { RuleDuration(milliseconds: Milliseconds.from($0) - failure.time).description } ?? "null"
            let codes = codeList(decision.codes)
            // The verdict, expected or not: an allow has no reason lines, and nothing else would say it was one.
            rows.append(("verdict", expectation.verdict?.rawValue ?? "(not checked)", decision.verdict.rawValue))
            if let reasons = expectation.reasons { rows.append(("reasons", list(reasons, ask.kind), codes)) }
            if let include = expectation.reasonsInclude { rows.append(("reasons_include", list(include, ask.kind), codes)) }
            if let expected = expectation.retryIn {
                rows.append(("retry_in", expected.map(\.description) ?? "null", retry))
            } else if !decision.isAllowed {
                // When the deny clears, though the step does not check it: what to expect once the reasons are right.
                rows.append(("retry_in", "(not checked)", retry))
            }
            let width0 = rows.map(\.0.count).max() ?? 0
            let width1 = rows.map(\.1.count).max() ?? 0
            for (index, row) in rows.enumerated() {
                let mark = index > 0 && failure.mismatches.contains(row.0) ? "x" : " "
                out += "   \(mark) \(row.0.padding(toLength: width0, withPad: " ", startingAt: 0))  \(row.1.padding(toLength: width1, withPad: " ", startingAt: 0))  \(row.2)\n"
            }
            for reason in decision.reasons(first: maxReasonsListed) { out += reasonLine(reason, indent: "      ") }
            if decision.reasonCount > maxReasonsListed { out += "      \(moreReasons(decision.reasonCount))\n" }
            if failure.step.triggerDefaulted, ask.trigger == .resume { out += "    note: " + defaultResumeNote + "\n" }
        }
        if failures.count > listed {
            let count = failures.count - listed
            if bytesLeft > 0 || listed == maxFailuresShown {
                out += "  \(count) more failing steps in this test are not shown: fix the ones listed and test again\n"
            } else {
                // The run's bound, not this test's: none of its steps may be listed.
                let steps = count == 1 ? "1 failing step" : "\(count) failing steps"
                out += "  \(steps) not shown: the report reached \(maxTextBytes / 1_000_000) MB; fix the failures it lists, or test fewer files at once\n"
            }
        }
        return out
    }

    /// What a failing app_open show that names no trigger is told: it asked as a return from background, and a cold
    /// start's show is written otherwise (a product manager may otherwise turn `allow_deferred` on to pass it).
    static let defaultResumeNote = "this step names no trigger, so it asked as trigger: resume (an app_open show's default: the return from "
        + "background); a show when the cold start's load completes is written trigger: load_completed"

    /// A note for a failing test that writes its start in an offset other than UTC's and names no `device_timezone`,
    /// against a policy that counts days in the device's zone: its device is then in UTC, and its daily caps and
    /// `now.hour` are read there, which a test written in local time rarely means. Nil otherwise.
    static func deviceZoneNote(_ test: ScenarioTest, policy: Policy) -> String? {
        guard policy.timeZone == .device, !test.deviceTimeZoneIsWritten, test.displayOffset != 0 else { return nil }
        let offset = Timestamps.offset(seconds: test.displayOffset)
        return "  note: the policy says timezone: device and this test names no device_timezone, so its device counts days "
            + "and hours in UTC, not in the \(offset) its start is written in: add device_timezone with the zone to test in "
            + "(an IANA name, as in device_timezone: Asia/Tokyo)\n"
    }

    /// The reasons of one decision listed in text: a policy whose thousands of rules all deny would otherwise make
    /// each step print thousands of lines (a 6 KB scenario took 760 MB to report). The json lists them all.
    static let maxReasonsListed = 50

    static func moreReasons(_ count: Int) -> String {
        let more = count - maxReasonsListed
        return more == 1 ? "1 more reason is not listed (--format json lists it)" : "\(more) more reasons are not listed (--format json lists them all)"
    }

    /// The actual codes of a step: each one, or past ``maxReasonsListed`` each distinct code once with its count, so
    /// the code that differs from the expected ones is always there.
    /// - Parameter limit: past how many codes they are counted (0: always).
    static func codeList(_ codes: [ReasonCode], countingPast limit: Int = maxReasonsListed) -> String {
        guard codes.count > limit else { return "[" + codes.map(\.rawValue).joined(separator: ", ") + "]" }
        // Each distinct code in the order it first comes, with how often it comes.
        var counted: [(code: ReasonCode, count: Int)] = []
        for code in codes {
            if let i = counted.firstIndex(where: { $0.code == code }) { counted[i].count += 1 } else { counted.append((code, 1)) }
        }
        return "[" + counted.map { $0.count > 1 ? "\($0.code.rawValue) ×\($0.count)" : $0.code.rawValue }.joined(separator: ", ") + "]"
    }

    static func describe(_ ask: Ask) -> String {
        var text = "ask \(ask.kind.rawValue) \(ControlCharacters.escaped(ask.placement))"
        if let trigger = ask.trigger { text += " (\(trigger.rawValue))" }
        return text
    }

    /// Expected codes in the order the decision lists them (rules.md §7).
    private static func list(_ codes: Set<ReasonCode>, _ kind: AskKind) -> String {
        "[" + ReasonCode.sorted(codes, for: kind).map(\.rawValue).joined(separator: ", ") + "]"
    }

    /// About the most bytes of deny reasons the json of one `test` run holds, over every failing step it shows (as
    /// `simulate`'s).
    static let maxJSONBytes = SimulateCommand.maxJSONBytes
    /// The reasons the failing steps a test keeps may hold in all (``ScenarioRunner/KeptDecisions``).
    static let maxReasonsKept = 200_000

    /// The json entry of a scenario file or policy with findings, in place of its tests: the keys of a test's entry
    /// (no line, no failing step), with the findings, so that a reader of the document reads every entry alike.
    static func json(brokenFile file: String, name: String, diagnostics: [Diagnostic]) -> JSON {
        .object([
            ("file", .string(file)), ("line", .null), ("name", .string(name)), ("passed", .bool(false)), ("failures", .array([])),
            ("diagnostics", JSONDiagnostics.array(diagnostics)),
        ])
    }

    /// A test as json: its first failing steps, each with every reason, while `bytesLeft` (shared by the run's tests)
    /// lasts; the others counted in `more_failures`.
    static func json(_ outcome: TestOutcome, zone: TimeZone, bytesLeft: inout Int) -> JSON {
        let all = outcome.failures
        var listed = 0
        var failures: [JSON] = []
        for failure in all.prefix(maxFailuresShown) {
            guard case .ask(let ask, _, let expectation) = failure.step.action, let decision = failure.decision else { continue }
            let actual = DecisionJSON.weighed(decision, at: failure.time)
            guard actual.weight <= bytesLeft else { break }
            bytesLeft -= actual.weight
            listed += 1
            var expected: [(String, JSON)] = []
            if let verdict = expectation.verdict { expected.append(("verdict", .string(verdict.rawValue))) }
            if let reasons = expectation.reasons { expected.append(("reasons", .array(sortedCodes(reasons, ask.kind)))) }
            if let include = expectation.reasonsInclude { expected.append(("reasons_include", .array(sortedCodes(include, ask.kind)))) }
            if let retry = expectation.retryIn { expected.append(("retry_in", retry.map { .string($0.description) } ?? .null)) }
            failures.append(.object([
                ("line", .int(failure.step.location.line)),
                ("time", .string(Timestamps.format(milliseconds: failure.time, in: zone))),
                ("mismatches", .array(failure.mismatches.map(JSON.string))),
                ("expected", .object(expected)),
                ("actual", actual.json),
            ]))
        }
        var object: [(String, JSON)] = [
            ("file", .string(outcome.test.location.file)), ("line", .int(outcome.test.location.line)),
            ("name", .string(outcome.test.name)), ("passed", .bool(outcome.passed)), ("failures", .array(failures)),
            ("diagnostics", .array([])),
        ]
        // Only when some are left out: the failing steps past the ones listed.
        if all.count > listed { object.append(("more_failures", .int(all.count - listed))) }
        return .object(object)
    }

    private static func sortedCodes(_ codes: Set<ReasonCode>, _ kind: AskKind) -> [JSON] {
        ReasonCode.sorted(codes, for: kind).map { .string($0.rawValue) }
    }
}

/// A decision as JSON, with `retry_in` relative to the time it was made.
enum DecisionJSON {
    /// The decision as JSON, and about the bytes its reasons and notes take pretty-printed: the keys and indentation of
    /// each reason, and its texts (the message, the file, the rule or group), escaped at worst to twice their bytes; each
    /// note's indentation and text likewise (an ask after 1,000 external fullscreen ads ran out has 1,000 notes). The
    /// reasons are built once, for both.
    static func weighed(_ decision: Decision, at time: Int64) -> (json: JSON, weight: Int) {
        let reasons = decision.reasons
        let reasonWeight = reasons.reduce(0) { sum, reason in
            let texts = reason.message.utf8.count + (reason.location?.file.utf8.count ?? 0) + (reason.rule?.utf8.count ?? 0)
                + (reason.group?.utf8.count ?? 0)
            return sum + 256 + 2 * texts
        }
        let notes = notes(of: decision, reasons: reasons)
        let weight = notes.reduce(reasonWeight) { $0 + 16 + 2 * $1.utf8.count }
        return (object(decision, reasons: reasons, notes: notes, at: time), weight)
    }

    static func object(_ decision: Decision, at time: Int64) -> JSON {
        let reasons = decision.reasons
        return object(decision, reasons: reasons, notes: notes(of: decision, reasons: reasons), at: time)
    }

    /// The note a decision's json gets when the time it clears at lies past what a timestamp can write.
    static let clearTimePastYear9999 =
        "the time this decision clears at is past 9999-12-31T23:59:59.999Z, the last a timestamp can write: it is null here, and retry_in gives the wait"

    /// The note when a reason's clear time lies past it, in a decision that has no time it clears at (another reason
    /// is not time-based).
    static let reasonClearTimePastYear9999 =
        "a reason's clears_at is past 9999-12-31T23:59:59.999Z, the last a timestamp can write: it is null here"

    /// A time a reason or decision clears at, as a timestamp; null past the year 9999 (which a scenario could not take back).
    static func clearTime(_ date: Date?) -> JSON {
        guard let date, Milliseconds.from(date) <= Timestamps.latest else { return .null }
        return .string(Timestamps.format(date))
    }

    /// The decision's notes, and the one saying that a time it clears at is written null (past the year 9999).
    private static func notes(of decision: Decision, reasons: [Reason]) -> [String] {
        // The latest clear time is the decision's when it has one; a decision with other reasons has none, and no wait.
        func pastYear9999(_ date: Date?) -> Bool { date.map { Milliseconds.from($0) > Timestamps.latest } ?? false }
        if pastYear9999(decision.nextAllowedAt) { return decision.notes + [clearTimePastYear9999] }
        if reasons.contains(where: { pastYear9999($0.clearsAt) }) { return decision.notes + [reasonClearTimePastYear9999] }
        return decision.notes
    }

    private static func object(_ decision: Decision, reasons: [Reason], notes: [String], at time: Int64) -> JSON {
        let retry: JSON = decision.nextAllowedAt.map { .string(RuleDuration(milliseconds: Milliseconds.from($0) - time).description) } ?? .null
        return .object([
            ("verdict", .string(decision.verdict.rawValue)),
            ("ask", .string(decision.ask.kind.rawValue)),
            ("placement", .string(decision.ask.placement)),
            ("trigger", decision.ask.trigger.map { .string($0.rawValue) } ?? .null),
            ("reasons", .array(reasons.map { reason in
                var pairs: [(String, JSON)] = [("code", .string(reason.code.rawValue)), ("message", .string(reason.message))]
                // Every reason has the keys; one with no YAML behind it (unknown_placement) has them null.
                let location = reason.location
                pairs += [
                    ("file", location.map { .string($0.file) } ?? .null), ("line", location.map { .int($0.line) } ?? .null),
                    ("column", location.map { .int($0.column) } ?? .null),
                ]
                pairs.append(("clears_at", clearTime(reason.clearsAt)))
                if let rule = reason.rule { pairs.append(("rule", .string(rule))) }
                if let group = reason.group { pairs.append(("group", .string(group))) }
                return .object(pairs)
            })),
            ("next_allowed_at", clearTime(decision.nextAllowedAt)),
            ("retry_in", retry),
            ("notes", .array(notes.map(JSON.string))),
        ])
    }
}
