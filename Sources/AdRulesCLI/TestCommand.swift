import AdRules
import AdRulesCompiler
import AdRulesYAML
import Foundation

/// `adrules test [PATH...] [--rules DIR]`.
enum TestCommand {
    static let options: [OptionSpec] = [
        OptionSpec(name: "rules", short: nil, takesValue: true, allowed: nil),
        OptionSpec(name: "format", short: nil, takesValue: true, allowed: ["text", "json"]),
        AdRulesCommandLine.outputOption, AdRulesCommandLine.strictOption, AdRulesCommandLine.quietOption, AdRulesCommandLine.colorOption,
        AdRulesCommandLine.helpOption,
    ]

    static func run(_ parsed: ParsedArguments, environment: CommandEnvironment) -> CommandResult {
        let paths = parsed.positionals.isEmpty ? ["rules"] : parsed.positionals
        // The policy of each path: --rules, or the one next to a scenario file or inside a directory.
        let policyPaths = paths.map { parsed.values["rules"] ?? ScenarioPolicies.defaultRulesPath(for: $0) }
        let json = parsed.values["format"] == "json"
        if var refusal = Output.refusal(output: parsed.values["output"], inputs: paths + policyPaths) {
            // An input directory that cannot be read in full stops the run here: no document, and none left from before.
            if refusal.exitCode == ExitCode.failure && json { refusal.stderr += Output.removedEarlierReport(parsed.values["output"], isReport: isEarlierReport) }
            return refusal
        }
        if let refusal = PolicyArgument.refusal(policyPaths) { return refusal }
        if parsed.positionals.isEmpty, let missing = DefaultRules.missing("adrules test path/to/rules") { return missing }
        let color = AdRulesCommandLine.useColor(parsed, environment: environment)
        var text = ""
        var stderr = ""
        var records: [JSON] = []
        // The bytes of reasons the json may still hold (every reason of each failing step it shows).
        var bytesLeft = FailureReport.maxJSONBytes
        var textLeft = FailureReport.maxTextBytes
        var passed = 0
        var failed = 0
        var ioFailed = false
        var ioMessages = Set<String>()
        var policies = ScenarioPolicies()
        policies.strict = parsed.flags.contains("strict")
        policies.rulesGiven = parsed.values["rules"] != nil
        var testsFound = 0
        var brokenPolicies = Set<String>()
        // Findings are printed as lint prints them here (github's annotations under GitHub Actions).
        let diagnosticFormat = LintCommand.diagnosticFormat(environment)
        // A run prints at most as many findings as a lint report, over all its files: 1,000 malformed scenario files of
        // 1,000 findings each printed 1,000,000 lines (116 MB, 777 MB of memory).
        var findingsLeft = DiagnosticReporter.maxPrinted
        func withinRunBound(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
            guard diagnostics.count > findingsLeft else {
                findingsLeft -= diagnostics.count
                return diagnostics
            }
            let shown = Array(diagnostics.prefix(findingsLeft)), rest = diagnostics.dropFirst(findingsLeft)
            findingsLeft = 0
            return shown + [.tooManyFindingsInRun(
                rest.count, errors: rest.count { $0.severity == .error }, shown: DiagnosticReporter.maxPrinted, file: rest.first?.file ?? "")]
        }
        // The bytes the json's entries of tests may hold beside the reasons of their failures: each repeats its file's
        // path and its name, so 30,000 one-step tests named by a 4 KB path made 125 MB (a 16 MB file, 942 MB). Past it,
        // tests run and count, and the document says how many are not listed.
        var entriesLeft = FailureReport.maxJSONBytes
        var notListed = 0
        // A broken policy is reported once, as lint reports it (its summary on stderr); none of its tests runs.
        func reportBroken(_ rulesPath: String, _ found: [Diagnostic], files fileCount: Int) {
            // Once however the path is written (`rules`, `rules/`, `./rules`).
            guard brokenPolicies.insert(PolicyLoader.realPath(rulesPath) ?? rulesPath).inserted else { return }
            failed += 1
            // The summary counts every finding; the report shows those within the run's bound.
            if !parsed.flags.contains("quiet") { stderr += LintCommand.summary(found, files: fileCount) + "\n" }
            let diagnostics = withinRunBound(found)
            text += DiagnosticReporter(format: diagnosticFormat, color: color, lines: { _ in [] }).render(diagnostics, files: [])
            let problem = diagnostics.hasErrors ? "has errors" : "has warnings (--strict)"
            let name = "the policy in \(rulesPath) \(problem): no test ran"
            text += "\(paint("FAIL", "1;31", color)) \(ControlCharacters.escaped(name))\n"
            records.append(FailureReport.json(brokenFile: rulesPath, name: name, diagnostics: diagnostics))
        }
        // The paths with no scenario file under them, with their policies: a broken one is still reported.
        var untested: [(path: String, rulesPath: String)] = []
        // A scenario file named twice (`test rules rules`, a link, `../rules/x.test.yaml`) runs once against a policy.
        var ran = Set<String>()
        // A path given twice (`test d d`, or `d` and `./d`) against one policy is walked once: a walk costs its
        // directory's entries, and 5,000 copies of a directory of 1,000 files took 9 s. The same file under another
        // directory's name (a symlink) runs against that directory's policy too.
        var walked = Set<String>()
        for path in paths {
            let rulesPath = parsed.values["rules"] ?? ScenarioPolicies.defaultRulesPath(for: path)
            let policyKey = PolicyLoader.realPath(rulesPath) ?? rulesPath
            guard walked.insert((PolicyLoader.realPath(path) ?? path) + "\u{0}" + policyKey).inserted else { continue }
            let files: [String]
            do {
                files = try PolicyLoader.files(at: path, where: PolicyLoader.isScenarioFile)
            } catch {
                stderr += "error: \(ControlCharacters.escaped("\(error)"))\n"
                ioFailed = true
                continue
            }
            // A file named on the command line is read only as what it is: a rule file or a usage model holds no
            // scenario test, and decoding it as one would report its every key as unknown.
            if files == [path], !PolicyLoader.isScenarioFile(path) {
                stderr += "warning: \(ControlCharacters.escaped(path)) is not a scenario file (*.test.yaml), so it holds no test: "
                    + "name the scenario files, or a directory of them (a policy is linted by adrules lint)\n"
                continue
            }
            if files.isEmpty { untested.append((path, rulesPath)) }
            for file in files {
                guard ran.insert(FileIdentity.of(file) + "\u{0}" + policyKey).inserted else { continue }
                let prepared = policies.prepare(file: file, rulesPath: rulesPath)
                switch prepared {
                case .ioFailure(let message):
                    // A policy that cannot be read is the same failure for each of its scenario files: said once.
                    if ioMessages.insert(message).inserted { stderr += "error: \(ControlCharacters.escaped(message))\n" }
                    ioFailed = true
                case .brokenPolicy(let rulesPath, let diagnostics, let fileCount):
                    testsFound += 1
                    reportBroken(rulesPath, diagnostics, files: fileCount)
                case .broken(let name, let found):
                    let diagnostics = withinRunBound(found)
                    testsFound += 1
                    failed += 1
                    text += DiagnosticReporter(format: diagnosticFormat, color: color, lines: { _ in [] }).render(diagnostics, files: [])
                    text += "\(paint("FAIL", "1;31", color)) \(ControlCharacters.escaped(name))\n"
                    records.append(FailureReport.json(brokenFile: file, name: name, diagnostics: diagnostics))
                case .ready(let scenario, let policy, let warnings):
                    // Warnings about the scenario file: with the results in text, on stderr beside a json document.
                    let rendered = DiagnosticReporter(format: diagnosticFormat, color: color, lines: { _ in [] }).render(withinRunBound(warnings), files: [])
                    if json { stderr += rendered } else { text += rendered }
                    testsFound += scenario.tests.count
                    for test in scenario.tests {
                        let outcome = ScenarioRunner.run(test, policy: policy, keeping: .failures(FailureReport.maxFailuresShown, reasons: FailureReport.maxReasonsKept))
                        if outcome.passed {
                            passed += 1
                            text += "\(paint("PASS", "1;32", color)) \(ControlCharacters.escaped(test.name))\n"
                        } else {
                            failed += 1
                            text += "\(paint("FAIL", "1;31", color)) \(ControlCharacters.escaped(test.name))\n"
                            // The failing steps in text only when text is delivered: json lists its own.
                            if !json {
                                text += FailureReport.render(outcome, zone: SimulateCommand.zone(test, policy: policy), bytesLeft: &textLeft)
                                text += FailureReport.deviceZoneNote(test, policy: policy) ?? ""
                            }
                        }
                        if json {
                            // An entry's keys, indentation and texts, escaped at worst to twice their bytes.
                            entriesLeft -= 200 + 2 * (test.location.file.utf8.count + test.name.utf8.count)
                            if entriesLeft < 0 {
                                notListed += 1
                            } else {
                                records.append(FailureReport.json(outcome, zone: SimulateCommand.zone(test, policy: policy), bytesLeft: &bytesLeft))
                            }
                        }
                    }
                }
            }
        }
        if !ioFailed {
            // A path with nothing to run, yet a policy that would have stopped its tests, is said to be broken, as lint
            // says it: "nothing was tested" is not the only thing to fix there, and `test good bad` must not pass on
            // good's tests alone. Beside tests that ran, a policy that cannot be read fails the run as it would with tests
            // of its own (exit 3); with no test at all, the read error is printed and "nothing was tested" is the answer (cli.md
            // r2: exit 1).
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
            if !parsed.flags.contains("quiet") && testsFound > 0 { stderr += closing + "\n" }
            stderr += Output.removedEarlierReport(parsed.values["output"], isReport: isEarlierReport)
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
            if !parsed.flags.contains("quiet") { stderr += closing + "\n" }
            return Output.deliver(document.rendered() + "\n", to: parsed.values["output"], stderr: stderr, exitCode: exitCode)
        }
        // Nothing read and nothing run: the error says it all, a "0 passed" line would not add to it.
        if !parsed.flags.contains("quiet") && !(ioFailed && testsFound == 0) { text += closing + "\n" }
        return Output.deliver(text, to: parsed.values["output"], stderr: stderr, exitCode: exitCode)
    }

    /// Whether a file's first 4 KB (`head`) are a json report of `adrules test`.
    static func isEarlierReport(_ head: String) -> Bool { head.hasPrefix("{\n  \"version\": 1,\n  \"passed\": ") }

    static func paint(_ text: String, _ code: String, _ color: Bool) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

/// Loads the policy for scenario files once per rules path, and decodes scenario files against it.
struct ScenarioPolicies {
    enum Prepared {
        case ready(Scenario, Policy, warnings: [Diagnostic])
        /// The policy has errors: every diagnostic, as lint reports them, and how many files it has.
        case brokenPolicy(String, [Diagnostic], files: Int)
        case broken(name: String, [Diagnostic])
        case ioFailure(String)
    }

    private var loaded: [String: Result<PolicyLoad, PolicyLoadError>] = [:]
    /// `--strict`: a policy with warnings fails as one with errors does, before any step, and so does a scenario file
    /// with warnings.
    var strict = false
    /// Whether `--rules` named the policy; else a path's scenario files run against the path itself (a directory) or
    /// the directory a scenario file is in.
    var rulesGiven = false
    /// The work of the scenario files prepared to run so far.
    private var runWork = 0
    /// The most work the run's files may take together.
    var maxRunWork = ScenarioDecoder.maxRunWork

    /// The policy of a PATH when `--rules` is not given: the directory itself, or a file's directory.
    static func defaultRulesPath(for path: String) -> String {
        var isDirectory: ObjCBool = false
        // A path that does not exist is reported as missing; its parent (perhaps the working directory) is never
        // taken for the policy, nor walked to check `--output` against.
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return path }
        if isDirectory.boolValue { return path }
        let parent = PathText.parent(path)
        return parent.isEmpty ? "." : parent
    }

    /// What stops the tests of a policy, or the policy that runs them.
    enum Checked {
        case runnable(Policy)
        case stopped(Prepared)
    }

    /// The policy at `rulesPath`, loaded once, checked as its tests need it.
    mutating func check(_ rulesPath: String) -> Checked {
        if loaded[rulesPath] == nil {
            do { loaded[rulesPath] = .success(try PolicyLoader.load(path: rulesPath)) }
            catch let error as PolicyLoadError { loaded[rulesPath] = .failure(error) }
            catch { loaded[rulesPath] = .failure(.unreadable(rulesPath, reason: "\(error)")) }
        }
        guard let result = loaded[rulesPath] else { return .stopped(.ioFailure("cannot load \(rulesPath)")) }
        let load: PolicyLoad
        switch result {
        case .failure(let error): return .stopped(.ioFailure("\(error)"))
        case .success(let value): load = value
        }
        guard let policy = load.validPolicy, !(strict && !load.diagnostics.isEmpty) else {
            return .stopped(.brokenPolicy(rulesPath, load.diagnostics, files: load.files.count))
        }
        return .runnable(policy)
    }

    /// Whether the policy at `rulesPath` was read as a directory with no rule file.
    private func isEmptyDirectory(_ rulesPath: String) -> Bool {
        if case .failure(.noRuleFiles) = loaded[rulesPath] { return true }
        return false
    }

    mutating func prepare(file: String, rulesPath: String) -> Prepared {
        let policy: Policy
        switch check(rulesPath) {
        case .stopped(.ioFailure(let message)) where !rulesGiven && isEmptyDirectory(rulesPath):
            // A scenario file kept apart from its policy: the fix is to name the policy.
            return .ioFailure(message + "; scenario files run against the policy in the directory named (or, for a file, its directory) unless --rules names it: add --rules with the policy's directory or file")
        case .stopped(let prepared): return prepared
        case .runnable(let runnable): policy = runnable
        }
        let bytes: [UInt8]
        do { bytes = try PolicyLoader.readBytes(file) } catch { return .ioFailure("\(error)") }
        let (scenario, diagnostics) = ScenarioDecoder.decode(bytes, file: file, policy: policy)
        if diagnostics.hasErrors { return .broken(name: "\(file) (malformed scenario file)", diagnostics) }
        // With --strict a warning fails the file too: an event about a placement the policy lacks may be a typo that
        // a test expecting a denial would pass over.
        if strict && !diagnostics.isEmpty { return .broken(name: "\(file) (scenario file with warnings, --strict)", diagnostics) }
        // Each file is within its own bound; a run of thousands of them is bounded too (a file that would pass it does
        // not run, and later ones that fit still do).
        guard runWork + scenario.work <= maxRunWork else {
            let at = scenario.tests.first.map { SourceRange(at: SourcePosition(line: $0.location.line, column: $0.location.column)) } ?? .fileStart
            let finding = Diagnostic.tooMuchRunWork(limit: maxRunWork, before: runWork, work: scenario.work, file: file, range: at)
            return .broken(name: "\(file) (not run: the run's scenario files take too long together)", (diagnostics + [finding]).sortedForDisplay())
        }
        runWork += scenario.work
        return .ready(scenario, policy, warnings: diagnostics)
    }
}
