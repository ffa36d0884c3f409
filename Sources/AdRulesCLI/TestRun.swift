import AdRules
import AdRulesCompiler
import AdRulesYAML

/// One run of `adrules test`: what it has printed, counted and kept for the json document so far, within the run's
/// bounds.
struct TestRun {
    let json: Bool
    let color: Bool
    let quiet: Bool
    /// How findings are printed: as lint prints them here (github's annotations under GitHub Actions).
    let diagnosticFormat: LintFormat

    var text = ""
    var stderr = "" {
        // Each message's place among the text's lines (the json document is written whole, after its messages).
        didSet { if !json { order.append(.init(report: text.utf8.count, messages: stderr.utf8.count)) } }
    }
    /// Where the messages stand among the lines of the text: a broken policy's lint summary after its findings and
    /// before its FAIL line, and every message before the closing `N passed, N failed` (cli.md: the run ends with it).
    private var order: [CommandResult.Interleaving] = []
    private var records: [JSON] = []
    private var passed = 0
    private var failed = 0
    /// The tests found, run or not (a broken scenario file or policy counts as one).
    private(set) var testsFound = 0
    /// Whether a scenario file or a policy could not be read.
    var ioFailed = false
    /// The read errors said so far: a policy that cannot be read is the same failure for each of its scenario files.
    private var ioMessages = Set<String>()
    /// The broken policies reported so far, by real path.
    private var brokenPolicies = Set<String>()

    /// The bytes of reasons the json may still hold (every reason of each failing step it shows).
    private var bytesLeft = FailureReport.maxJSONBytes
    private var textLeft = FailureReport.maxTextBytes
    /// A run prints at most as many findings as a lint report, over all its files: 1,000 malformed scenario files of
    /// 1,000 findings each printed 1,000,000 lines (116 MB, 777 MB of memory).
    private var findingsLeft = DiagnosticReporter.maxPrinted
    /// The bytes the json's entries of tests may hold beside the reasons of their failures: each repeats its file's
    /// path and its name, so 30,000 one-step tests named by a 4 KB path made 125 MB (a 16 MB file, 942 MB). Past it,
    /// tests run and count, and the document says how many are not listed.
    private var entriesLeft = FailureReport.maxJSONBytes
    private var notListed = 0

    init(json: Bool, color: Bool, quiet: Bool, diagnosticFormat: LintFormat) {
        self.json = json
        self.color = color
        self.quiet = quiet
        self.diagnosticFormat = diagnosticFormat
    }

    /// A read error, said once however many scenario files it stops.
    mutating func readFailed(_ message: String) {
        if ioMessages.insert(message).inserted { stderr += "error: \(ControlCharacters.escaped(message))\n" }
        ioFailed = true
    }

    /// Runs the tests of a scenario file as prepared against its policy, or reports why none of them can run.
    mutating func run(_ prepared: ScenarioPolicies.Prepared, file: String) {
        switch prepared {
        case .ioFailure(let message):
            readFailed(message)
        case .brokenPolicy(let rulesPath, let diagnostics, let fileCount):
            testsFound += 1
            reportBroken(rulesPath, diagnostics, files: fileCount)
        case .broken(let name, let found):
            let diagnostics = withinRunBound(found)
            testsFound += 1
            failed += 1
            text += rendered(diagnostics)
            text += resultLine(passed: false, name)
            records.append(FailureReport.json(brokenFile: file, name: name, diagnostics: diagnostics))
        case .ready(let scenario, let policy, let warnings):
            // Warnings about the scenario file: with the results in text, on stderr beside a json document.
            let warnings = rendered(withinRunBound(warnings))
            if json { stderr += warnings } else { text += warnings }
            testsFound += scenario.tests.count
            for test in scenario.tests { run(test, policy: policy) }
        }
    }

    /// Runs one test, and prints and keeps its outcome.
    private mutating func run(_ test: ScenarioTest, policy: Policy) {
        let outcome = ScenarioRunner.run(test, policy: policy, keeping: .failures(FailureReport.maxFailuresShown, reasons: FailureReport.maxReasonsKept))
        if outcome.passed {
            passed += 1
            text += resultLine(passed: true, test.name)
        } else {
            failed += 1
            text += resultLine(passed: false, test.name)
            // The failing steps in text only when text is delivered: json lists its own.
            if !json {
                text += FailureReport.render(outcome, zone: SimulateCommand.zone(test, policy: policy), bytesLeft: &textLeft)
                text += FailureReport.deviceZoneNote(test, policy: policy) ?? ""
            }
        }
        guard json else { return }
        // An entry's keys, indentation and texts, escaped at worst to twice their bytes.
        entriesLeft -= 200 + 2 * (test.location.file.utf8.count + test.name.utf8.count)
        if entriesLeft < 0 {
            notListed += 1
        } else {
            records.append(FailureReport.json(outcome, zone: SimulateCommand.zone(test, policy: policy), bytesLeft: &bytesLeft))
        }
    }

    /// A broken policy, reported once as lint reports it (its summary on stderr); none of its tests runs.
    mutating func reportBroken(_ rulesPath: String, _ found: [Diagnostic], files fileCount: Int) {
        // Once however the path is written (`rules`, `rules/`, `./rules`).
        guard brokenPolicies.insert(PolicyLoader.realPath(rulesPath) ?? rulesPath).inserted else { return }
        failed += 1
        let diagnostics = withinRunBound(found)
        text += rendered(diagnostics)
        // The summary counts every finding; the report shows those within the run's bound.
        if !quiet { stderr += LintCommand.summary(found, files: fileCount) + "\n" }
        let problem = diagnostics.hasErrors ? "has errors" : "has warnings (--strict)"
        let name = "the policy in \(rulesPath) \(problem): no test ran"
        text += resultLine(passed: false, name)
        records.append(FailureReport.json(brokenFile: rulesPath, name: name, diagnostics: diagnostics))
    }

    /// The paths with no scenario file under them, with their policies: a policy that would have stopped their tests
    /// is said to be broken, as lint says it ("nothing was tested" is not the only thing to fix there, and `test good
    /// bad` must not pass on good's tests alone). Beside tests that ran, a policy that cannot be read fails the run as
    /// it would with tests of its own (exit 3); with no test at all, the read error is printed and "nothing was
    /// tested" is the answer (cli.md r2: exit 1). Nothing is checked once a read failed.
    mutating func reportUntested(_ untested: [(path: String, rulesPath: String)], policies: inout ScenarioPolicies) {
        guard !ioFailed else { return }
        // A policy's read error is said once however its path is spelled (`dir`, `./dir`); the warning is per path.
        var unreadable = Set<String>()
        for entry in untested {
            switch policies.check(entry.rulesPath) {
            case .stopped(.brokenPolicy(let path, let diagnostics, let fileCount)):
                reportBroken(path, diagnostics, files: fileCount)
            case .stopped(.ioFailure(let message)):
                // Said either way: with no test at all, it is why nothing there could have run.
                if unreadable.insert(PolicyLoader.realPath(entry.rulesPath) ?? entry.rulesPath).inserted, ioMessages.insert(message).inserted {
                    stderr += "error: \(ControlCharacters.escaped(message))\n"
                }
                if testsFound > 0 { ioFailed = true }
            default:
                if testsFound > 0 {
                    stderr += "warning: no scenario test (*.test.yaml) under \(ControlCharacters.escaped(entry.path)): nothing there was tested\n"
                }
            }
        }
    }

    /// The run's result: its report (text, or the json document) delivered to `output` or standard output, and its
    /// exit code.
    /// - Parameter paths: the paths given, as written, for the error of a run that found no test.
    mutating func result(paths: [String], output: String?) -> CommandResult {
        let closing = "\(passed) passed, \(failed) failed"
        var exitCode = ioFailed ? ExitCode.failure : (failed > 0 ? ExitCode.findings : ExitCode.success)
        // What failed the run beside its tests; in json too, where "0 failed" alone would read as a pass.
        var errors: [String] = []
        if testsFound == 0 && !ioFailed {
            // A CI job that tests nothing must not pass (cli.md r2).
            // Each path once, as it was written (`test d d` names d once).
            var named = Set<String>()
            let error = "no scenario tests (*.test.yaml with at least one test) under \(paths.filter { named.insert($0).inserted }.joined(separator: ", ")): nothing was tested"
            stderr += "error: \(ControlCharacters.escaped(error))\n"
            errors.append(error)
            exitCode = ExitCode.findings
        }
        // A json document of a run that could not read a scenario file would read as a complete result (CI would see
        // every test listed passed): none is written, on standard output or at --output, and an earlier one there is
        // removed, as lint does.
        if json && ioFailed {
            if !quiet && testsFound > 0 { stderr += closing + "\n" }
            stderr += Output.removedEarlierReport(output, isReport: TestCommand.isEarlierReport)
            return CommandResult(stderr: stderr, exitCode: exitCode)
        }
        if json {
            var pairs: [(String, JSON)] = [("version", .int(1)), ("passed", .int(passed)), ("failed", .int(failed)), ("tests", .array(records))]
            // Only when some are left out: the tests past those the document lists (counted in passed and failed).
            if notListed > 0 {
                pairs.append(("more_tests", .int(notListed)))
                stderr += "warning: \(notListed) tests are not listed in the json: its entries reached \(FailureReport.maxJSONBytes / 1_000_000) MB; they ran, and are counted in passed and failed\n"
            }
            pairs.append(("errors", .array(errors.map(JSON.string))))
            let document = JSON.object(pairs)
            if !quiet { stderr += closing + "\n" }
            return Output.deliver(document.rendered() + "\n", to: output, stderr: stderr, exitCode: exitCode)
        }
        // Nothing read and nothing run: the error says it all, a "0 passed" line would not add to it.
        if !quiet && !(ioFailed && testsFound == 0) { text += closing + "\n" }
        var result = Output.deliver(text, to: output, stderr: stderr, exitCode: exitCode)
        result.order = order
        return result
    }

    /// The diagnostics within what the run may still print, and one finding for the rest when there are more.
    private mutating func withinRunBound(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        guard diagnostics.count > findingsLeft else {
            findingsLeft -= diagnostics.count
            return diagnostics
        }
        let shown = Array(diagnostics.prefix(findingsLeft)), rest = diagnostics.dropFirst(findingsLeft)
        findingsLeft = 0
        return shown + [.tooManyFindingsInRun(
            rest.count, errors: rest.count { $0.severity == .error }, shown: DiagnosticReporter.maxPrinted, file: rest.first?.file ?? "")]
    }

    /// A test's line: PASS or FAIL (green or red with color) and its name, escaped.
    private func resultLine(passed: Bool, _ name: String) -> String {
        let verdict = passed ? "PASS" : "FAIL"
        return "\(color ? "\u{1B}[\(passed ? "1;32" : "1;31")m\(verdict)\u{1B}[0m" : verdict) \(ControlCharacters.escaped(name))\n"
    }

    /// Findings as lint prints them, without their source lines.
    private func rendered(_ diagnostics: [Diagnostic]) -> String {
        DiagnosticReporter(format: diagnosticFormat, color: color).render(diagnostics, files: [])
    }
}
