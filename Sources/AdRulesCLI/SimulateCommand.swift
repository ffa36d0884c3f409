import AdRules
import AdRulesCompiler
import AdRulesYAML
import Foundation

/// `adrules simulate SCENARIO [--rules DIR]`: a timeline of every decision and the shows per placement per day.
enum SimulateCommand {
    static let options: [OptionSpec] = TestCommand.options

    static func run(_ parsed: ParsedArguments, environment: CommandEnvironment) -> CommandResult {
        guard let file = parsed.positionals.first else {
            return AdRulesCommandLine.usageError(.missingArgument("SCENARIO"), command: "simulate")
        }
        var policies = ScenarioPolicies()
        policies.strict = parsed.flags.contains("strict")
        policies.rulesGiven = parsed.values["rules"] != nil
        let rulesPath = parsed.values["rules"] ?? ScenarioPolicies.defaultRulesPath(for: file)
        if let refusal = Output.refusal(output: parsed.values["output"], inputs: [file, rulesPath]) { return refusal }
        if let refusal = Output.unwritableRefusal(parsed.values["output"]) { return refusal }
        if let refusal = PolicyArgument.refusal([rulesPath]) { return refusal }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
            let missing = PolicyLoader.missing(file)
            let message = if case .notFound = missing { "no such scenario file: \(file)" + PolicyLoadError.missingPathAdvice(file, oneFile: true) } else { "\(missing)" }
            return CommandResult(stderr: "error: \(ControlCharacters.escaped(message))\n", exitCode: ExitCode.failure)
        }
        guard !isDirectory.boolValue else {
            return CommandResult(
                stderr: "error: \(ControlCharacters.escaped(file)) is a directory: simulate replays one scenario file, such as rules/app_open.test.yaml\n", exitCode: ExitCode.usage)
        }
        // A rule file or a usage model is not read as a scenario, which would report its every key as unknown.
        guard PolicyLoader.isScenarioFile(file) else {
            return CommandResult(
                stderr: "error: \(ControlCharacters.escaped(file)) is not a scenario file (*.test.yaml): simulate replays one scenario file, such as rules/app_open.test.yaml\n",
                exitCode: ExitCode.usage)
        }
        switch policies.prepare(file: file, rulesPath: rulesPath) {
        case .ioFailure(let message):
            return CommandResult(stderr: "error: \(ControlCharacters.escaped(message))\n", exitCode: ExitCode.failure)
        case .broken(_, let diagnostics):
            return broken(diagnostics, file: file, files: 1, of: "scenario file", parsed, environment: environment)
        case .brokenPolicy(_, let diagnostics, let files):
            return broken(diagnostics, file: file, files: files, of: "policy", parsed, environment: environment)
        case .ready(let scenario, let policy, let warnings):
            // Warnings about the scenario file go to stderr, beside the replay.
            let stderr = DiagnosticReporter(format: LintCommand.diagnosticFormat(environment), color: AdRulesCommandLine.useColor(parsed, environment: environment, onStandardError: true)).render(warnings, files: [])
            if parsed.values["format"] == "json" {
                var tests: [JSON] = []
                var listed = 0
                for test in scenario.tests {
                    guard let replay = json(test, policy: policy, listed: &listed) else {
                        return CommandResult(
                            stderr: stderr + "error: the replay's json would hold more than \(maxJSONBytes / 1_000_000) MB of deny reasons and notes: use --format text, which lists \(FailureReport.maxReasonsListed) a step, or replay fewer asks\n",
                            exitCode: ExitCode.findings)
                    }
                    tests.append(replay)
                }
                let document = JSON.object([
                    ("version", .int(1)), ("file", .string(file)), ("tests", .array(tests)),
                    ("diagnostics", JSONDiagnostics.array(warnings)),
                ])
                return Output.deliver(document.rendered() + "\n", to: parsed.values["output"], stderr: stderr)
            }
            var bytesLeft = FailureReport.maxTextBytes
            // The replay as a whole is bounded too: each test's header repeats the file's path, so 30,000 one-step tests
            // named by a 4 KB path printed 128 MB (a 16 MB file, 968 MB and 3.7 GB of memory). Past it no test is
            // replayed, and the report says how many were not.
            var report = ""
            for (index, test) in scenario.tests.enumerated() {
                guard report.utf8.count <= maxTextReport else {
                    let left = scenario.tests.count - index
                    let note = "\(left) more tests are not replayed: the replay reached \(maxTextReport / 1_000_000) MB; replay fewer tests at once (split the file), or shorten the path that names it\n"
                    return Output.deliver(report + "\n" + note, to: parsed.values["output"], stderr: stderr + "warning: " + note)
                }
                if index > 0 { report += "\n" }
                report += text(test, policy: policy, bytesLeft: &bytesLeft, printed: report.utf8.count)
            }
            // The last test's steps past the bound are counted in its replay; stderr says so too.
            let cut = report.utf8.count > maxTextReport
                ? "warning: the replay reached \(maxTextReport / 1_000_000) MB: the steps past it were played and are not shown\n" : ""
            return Output.deliver(report, to: parsed.values["output"], stderr: stderr + cut)
        }
    }

    /// About the most bytes of text one replay prints: tests past it are not replayed (each prints at least its header,
    /// with the file's path, its steps and its table of shows). Above the 64 MB of reasons and notes
    /// (``FailureReport/maxTextBytes``), past which each step still gets its line.
    static let maxTextReport = 96_000_000

    /// About the most bytes of deny reasons the json of one simulate run holds, over the file's tests
    /// (``DecisionJSON/weighed(_:at:)``): a policy of 10,000 rules that all deny gives each ask 10,000 reasons, and their
    /// messages may have 4,096 characters each; a few thousand asks would make gigabytes of json (a million reasons
    /// took 490 MB to build, 60 asks of 2,900 long messages 3.7 GB).
    static let maxJSONBytes = 64_000_000

    /// A scenario file or policy with errors, reported in the format asked for (in json, the replay's document with no
    /// test and the findings, as a replay's lists its warnings), with lint's summary on stderr.
    /// - Parameter what: what has the findings (`policy`, `scenario file`), for the line that says why nothing ran.
    static func broken(
        _ diagnostics: [Diagnostic], file: String, files: Int, of what: String, _ parsed: ParsedArguments, environment: CommandEnvironment
    ) -> CommandResult {
        let report = parsed.values["format"] == "json"
            ? JSON.object([
                ("version", .int(1)), ("file", .string(file)), ("tests", .array([])),
                ("diagnostics", JSONDiagnostics.array(diagnostics)),
            ]).rendered() + "\n"
            : DiagnosticReporter(format: LintCommand.diagnosticFormat(environment), color: AdRulesCommandLine.useColor(parsed, environment: environment)).render(diagnostics, files: [])
        var summary = parsed.flags.contains("quiet") ? "" : LintCommand.summary(diagnostics, files: files) + "\n"
        // Errors speak for themselves, as lint reports them; with --strict, say that warnings alone stopped it.
        if !diagnostics.hasErrors { summary += "error: the \(what) has warnings (--strict): nothing was replayed\n" }
        return Output.deliver(report, to: parsed.values["output"], stderr: summary, exitCode: ExitCode.findings)
    }

    static func stepText(_ outcome: StepOutcome) -> String {
        switch outcome.step.action {
        case .event(let event):
            var text = "event \(event.name)"
            if let placement = event.placement { text += " \(ControlCharacters.escaped(placement))" }
            if case .fullscreenOpened(let source?) = event { text += " (\(ControlCharacters.escaped(source)))" }
            if case .fullscreenClosed(let source?) = event { text += " (\(ControlCharacters.escaped(source)))" }
            return text
        case .ask(let ask, _, _):
            return FailureReport.describe(ask)
        }
    }

    /// The zone days are counted in: the policy's, or the test's device zone for `timezone: device`.
    static func zone(_ test: ScenarioTest, policy: Policy) -> TimeZone {
        if case .named(let named) = policy.timeZone { return named }
        return test.deviceTimeZone
    }

    /// Replays a test and prints it: each step as it is played (its decision is not kept), then the shows per day.
    /// - Parameter bytesLeft: what is left of ``FailureReport/maxTextBytes`` for reasons and notes, shared by the run's
    ///   tests. Past it each step still gets its line (steps are bounded by the file's size and the scenario work
    ///   bound), its reasons their codes and its notes their count.
    /// - Parameter printed: the bytes of the report before this test: past ``maxTextReport`` its steps are counted, not
    ///   printed (one test of a 16 MB file of asks printed 194 MB, each step a line).
    static func text(_ test: ScenarioTest, policy: Policy, bytesLeft: inout Int, printed: Int = 0) -> String {
        // One zone for the step times and the table: the one the policy counts days in.
        let zone = zone(test, policy: policy)
        var out = "== \(ControlCharacters.escaped(test.name)) (\(ControlCharacters.escaped(test.location.file)):\(test.location.line)), times in \(TimeZoneNames.name(of: zone))\n"
        // The step callback is an optional closure, so escaping: it counts in a local, written back after the replay.
        var left = bytesLeft
        defer { bytesLeft = left }
        // Whether this test's replay has said that the bound was passed (once a test).
        var passedBound = false
        // The steps played past the whole report's bound.
        var unprinted = 0
        let outcome = ScenarioRunner.run(test, policy: policy, keeping: .none) { step in
            guard printed + out.utf8.count <= maxTextReport else {
                unprinted += 1
                return
            }
            let time = Timestamps.format(milliseconds: step.time, in: zone)
            var line = "\(time)  \(stepText(step))"
            if let decision = step.decision {
                line += " -> \(decision.verdict.rawValue)"
                if let next = decision.nextAllowedAt.map(Milliseconds.from) {
                    // Past the year 9999 no timestamp writes the time: the wait is given instead.
                    line += next <= Timestamps.latest
                        ? ", next allowed at \(Timestamps.format(milliseconds: next, in: zone))"
                        : ", next allowed in \(RuleDuration(milliseconds: next - step.time)), past the year 9999"
                }
            }
            out += line + "\n"
            let count = step.decision?.reasonCount ?? 0
            let notes = step.decision?.notes ?? []
            if left <= 0, count + notes.count > 0 {
                if !passedBound {
                    passedBound = true
                    out += "    (the report passed \(FailureReport.maxTextBytes / 1_000_000) MB: from here on reasons are listed by code, without their messages, and notes are counted)\n"
                }
                // Each distinct code once, with its count.
                if count > 0 { out += "    reasons \(FailureReport.codeList(step.decision?.codes ?? [], countingPast: 0))\n" }
                if !notes.isEmpty { out += notes.count == 1 ? "    1 note\n" : "    \(notes.count) notes\n" }
                return
            }
            let start = out.utf8.count
            for reason in step.decision?.reasons(first: FailureReport.maxReasonsListed) ?? [] {
                out += FailureReport.reasonLine(reason, indent: "    ")
            }
            if count > FailureReport.maxReasonsListed { out += "    \(FailureReport.moreReasons(count))\n" }
            for note in notes { out += "    note: \(ControlCharacters.escaped(note))\n" }
            left -= out.utf8.count - start
        }
        if unprinted > 0 {
            out += "  \(unprinted) more steps were played and are not shown: the replay reached \(maxTextReport / 1_000_000) MB; replay fewer steps at once (split the test)\n"
        }
        let table = showsPerDay(outcome, policy: policy)
        // The shows caps count: history and show_started, less those a show_failed took back, in the day a clock set
        // back pinned them to (README, the simulate command).
        out += "Shows per placement per day in \(table.zone), as caps count them:\n"
        if table.days.isEmpty {
            out += "  no shows\n"
            return out
        }
        // A day a row and a placement a column, while that grid stays small; past it (thousands of placements shown
        // on thousands of days would be millions of cells, nearly all 0) a row for each day and placement with shows.
        let header: [String]
        var rows: [[String]]
        // The day, and a placement's id in the long form, are text: aligned left; counts right.
        var textColumns = 1
        if table.days.count * table.placements.count <= maxTableCells, table.placements.count <= maxTableColumns {
            header = ["day"] + table.placements.map(ControlCharacters.escaped)
            rows = [header]
            for day in table.days {
                rows.append([day] + table.placements.map { String(table.counts[day]?[$0] ?? 0) })
            }
        } else {
            header = ["day", "placement", "shows"]
            rows = [header]
            textColumns = 2
            for day in table.days {
                for (placement, shows) in showsOn(day, table) { rows.append([day, ControlCharacters.escaped(placement), String(shows)]) }
            }
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            out += "  " + row.enumerated().map { column, cell in
                column < textColumns ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ") + "\n"
        }
        return out
    }

    /// Replays a test as json: each step as it is played (its decision is not kept), then the shows per day; nil once
    /// the weight of the reasons listed so far, `listed`, passes ``maxJSONBytes``.
    static func json(_ test: ScenarioTest, policy: Policy, listed: inout Int) -> JSON? {
        let zone = zone(test, policy: policy)
        var steps: [JSON] = []
        var count = listed
        let outcome = ScenarioRunner.run(test, policy: policy, keeping: .none) { step in
            guard count <= maxJSONBytes else { return }
            let decision = step.decision.map { DecisionJSON.weighed($0, at: step.time) }
            count += decision?.weight ?? 0
            guard count <= maxJSONBytes else { return }
            var pairs: [(String, JSON)] = [
                ("line", .int(step.step.location.line)),
                ("time", .string(Timestamps.format(milliseconds: step.time, in: zone))),
            ]
            switch step.step.action {
            case .event(let event):
                pairs.append(("event", .string(event.name)))
                pairs.append(("placement", event.placement.map(JSON.string) ?? .null))
                // An external fullscreen ad's source, as the text output shows it.
                switch event {
                case .fullscreenOpened(let source?), .fullscreenClosed(let source?): pairs.append(("source", .string(source)))
                default: break
                }
            case .ask:
                if let decision { pairs.append(("decision", decision.json)) }
            }
            steps.append(.object(pairs))
        }
        listed = count
        guard count <= maxJSONBytes else { return nil }
        let table = showsPerDay(outcome, policy: policy)
        // Only the days and placements with shows: a grid with every 0 in it grows as days x placements, and 3,000
        // placements each shown on its own day made 9,000,000 entries and a crash.
        var shows: [JSON] = []
        for day in table.days {
            for (placement, count) in showsOn(day, table) {
                shows.append(.object([("day", .string(day)), ("placement", .string(placement)), ("shows", .int(count))]))
            }
        }
        return .object([
            ("name", .string(outcome.test.name)), ("line", .int(outcome.test.location.line)), ("time_zone", .string(table.zone)),
            ("steps", .array(steps)), ("shows", .array(shows)),
        ])
    }
}
