import AdRules
import AdRulesCompiler
import AdRulesImpact
import AdRulesYAML
import Foundation

/// `adrules impact MODEL [--rules POLICY] [--compare OLD_POLICY] …` and `adrules impact merge PART.json…`.
enum ImpactCommand {
    static let formats = ["text", "json", "html"]

    static let options: [OptionSpec] = [
        OptionSpec(name: "rules", short: nil, takesValue: true, allowed: nil),
        OptionSpec(name: "compare", short: nil, takesValue: true, allowed: nil),
        OptionSpec(name: "users", short: nil, takesValue: true, allowed: nil),
        OptionSpec(name: "days", short: nil, takesValue: true, allowed: nil),
        OptionSpec(name: "seed", short: nil, takesValue: true, allowed: nil),
        OptionSpec(name: "shard", short: nil, takesValue: true, allowed: nil),
        OptionSpec(name: "threads", short: nil, takesValue: true, allowed: nil),
        OptionSpec(name: "format", short: nil, takesValue: true, allowed: formats),
        AdRulesCommandLine.outputOption, AdRulesCommandLine.quietOption, AdRulesCommandLine.colorOption, AdRulesCommandLine.helpOption,
    ]

    static func run(_ parsed: ParsedArguments, environment: CommandEnvironment) -> CommandResult {
        if parsed.positionals.first == "merge", parsed.positionalsBeforeOptionsEnd > 0 { return merge(Array(parsed.positionals.dropFirst()), parsed) }
        guard let modelPath = parsed.positionals.first else { return AdRulesCommandLine.usageError(.missingArgument("MODEL"), command: "impact") }
        let inputs = [modelPath, parsed.values["rules"] ?? "rules"] + [parsed.values["compare"]].compactMap { $0 }
        if let refusal = Output.refusal(output: parsed.values["output"], inputs: inputs) { return refusal }
        guard parsed.positionals.count == 1 else { return AdRulesCommandLine.usageError(.unexpected(parsed.positionals[1]), command: "impact") }
        if let refusal = PolicyArgument.refusal(Array(inputs.dropFirst())) { return refusal }
        let options: ImpactOptions
        switch self.options(parsed) {
        case .failure(let error): return AdRulesCommandLine.usageError(error, command: "impact")
        case .success(let value): options = value
        }
        if options.shard != nil, let format = parsed.values["format"], format != "json" {
            return AdRulesCommandLine.usageError(.invalidValue(option: "format", value: format, allowed: ["json (--shard writes partial results as json)"]), command: "impact")
        }
        if parsed.values["rules"] == nil, let missing = DefaultRules.missing("--rules path/to/rules") { return missing }

        var stderr = ""
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: modelPath, isDirectory: &isDirectory) else {
            let missing = PolicyLoader.missing(modelPath)
            guard case .notFound = missing else { return failure("\(missing)") }
            return failure("no such model file: \(modelPath)")
        }
        guard !isDirectory.boolValue else {
            // A directory where a file belongs is a mistake in the command, not an I/O failure: exit 2.
            return CommandResult(
                stderr: "error: \(ControlCharacters.escaped(modelPath)) is a directory: impact takes a usage model file, such as rules/usage.model.yaml\n",
                exitCode: ExitCode.usage)
        }
        let modelBytes: [UInt8]
        do { modelBytes = try PolicyLoader.readBytes(modelPath) } catch { return failure("\(error)") }
        // A file of another kind named as the model is a mistake in the command, said once rather than as a cascade
        // of model findings about its keys (exit 2, as a usage model named as the policy is): a scenario file by its
        // name, a compiled policy or an impact report by what it says it is.
        if let kind = Self.otherKind(modelPath, modelBytes) {
            return CommandResult(
                stderr: "error: \(ControlCharacters.escaped(modelPath)) is \(kind); impact takes a usage model, such as rules/usage.model.yaml\n",
                exitCode: ExitCode.usage)
        }
        let read = ModelDecoder.read(modelBytes, file: modelPath)
        // A rule file named as the model (its `placements`, `groups` or `rules` at the top, where a model has none) is
        // said once.
        if read.model == nil, read.isRuleFile, !PolicyLoader.isUsageModel(modelPath), !PolicyLoader.isCompiledPolicyFile(modelPath) {
            return CommandResult(
                stderr: "error: \(ControlCharacters.escaped(modelPath)) is a rule file, not a usage model: give the policy as --rules; impact takes a usage model, such as rules/usage.model.yaml\n",
                exitCode: ExitCode.usage)
        }
        var diagnostics = read.diagnostics
        var files = [modelPath]

        // A policy is named as written, less a directory's trailing slash: `--rules new/` and `--rules new` are one
        // policy, in the report and for `impact merge` (a file named with a slash stays as written, and is refused
        // as lint refuses it).
        func policyName(_ path: String) -> String {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return path }
            return String(PathText.withoutTrailingSlashes(Substring(path)))
        }
        let rulesPath = policyName(parsed.values["rules"] ?? "rules")
        var named: [(path: String, role: ModelCheck.Role)] = [(rulesPath, .current)]
        if let old = parsed.values["compare"] { named.insert((policyName(old), .old), at: 0) }
        var policies: [NamedPolicy] = []
        // The model file as the system knows it (device and inode: links and `..` resolved by the kernel).
        let modelIdentity = FileIdentity.of(modelPath)
        for (path, role) in named {
            do {
                let load = try PolicyLoader.load(path: path)
                // A model inside the policy's folder under a rule file's name is read as one of its rule files: said
                // once, rather than as a cascade of findings about a rule file's keys.
                if load.files.contains(where: { FileIdentity.of($0) == modelIdentity }) {
                    let advice = FileIdentity.of(path) == modelIdentity
                        ? "is given both as the model and as the policy: give the policy's rule files (a folder, or a rule file) as \(role == .old ? "--compare" : "--rules")"
                        : "is read as a rule file of the policy \(ControlCharacters.escaped(path)): name a usage model *.model.yaml (loading a policy skips those files), or keep it outside the policy's folder"
                    return CommandResult(stderr: "error: \(ControlCharacters.escaped(modelPath)) \(advice)\n", exitCode: ExitCode.usage)
                }
                files += load.files
                // The policy's errors alone: a line counting findings it does not show says only the errors among them.
                let errors = load.diagnostics.filter { $0.severity == .error }.map { diagnostic in
                    guard let hidden = diagnostic.standsFor else { return diagnostic }
                    return Diagnostic.tooManyFindings(hidden.errors, errors: hidden.errors, file: diagnostic.file)
                }
                diagnostics += errors
                if errors.isEmpty { policies.append(NamedPolicy(name: path, policy: load.policy, written: load.written, valueLocations: load.valueLocations, policyStart: load.policyStart)) }
            } catch {
                return failure("\(error)")
            }
        }
        if let model = read.model ?? read.partial, policies.count == named.count {
            for (index, (policy, entry)) in zip(policies, named).enumerated() {
                // With --compare, each policy is checked knowing the other (a placement one of them removes).
                let other = policies.count == 2 ? policies[1 - index] : nil
                let found = read.suppressions.applied(to: ModelCheck.check(
                    model, against: policy.policy, name: entry.path, role: entry.role, comparedWith: other))
                // A model with errors of its own gets the errors of its segments that decoded without any too (an
                // unknown placement beside a duplicate segment name), so that one run reports them all; its warnings
                // too when no segment was left out (shares that do not add up), not otherwise: the segments left out
                // may settle them (a placement only they use is not unused).
                diagnostics += read.model == nil && !read.partialHasEverySegment ? found.filter { $0.severity == .error } : found
            }
        }
        diagnostics = diagnostics.sortedForDisplay()
        let color = AdRulesCommandLine.useColor(parsed, environment: environment, onStandardError: true)
        stderr += report(diagnostics, files: files, quiet: parsed.flags.contains("quiet"), color: color, format: LintCommand.diagnosticFormat(environment))
        guard let model = read.model, policies.count == named.count, !diagnostics.hasErrors else {
            return CommandResult(stderr: stderr, exitCode: ExitCode.findings)
        }
        // A run may take minutes: a report it could not write is said before it starts, not after.
        if let output = parsed.values["output"], let problem = OutputFile.unwritable(output) {
            return CommandResult(stderr: stderr + "error: cannot write \(ControlCharacters.escaped(output)): \(problem)\n", exitCode: ExitCode.failure)
        }

        let changes = PolicyDiff.listed(policies.count == 2 ? PolicyDiff.changes(from: policies[0], to: policies[1]) : [])
        let bar = parsed.flags.contains("quiet") ? nil : ProgressBar(isTerminal: environment.stderrIsTerminal)
        var progress: (@Sendable (Int, Int) -> Void)?
        // The runner counts each user once for each policy: shown as users (a compare run said 32416/40000 of 20,000).
        let perUser = policies.count
        if let bar { progress = { done, total in bar.draw(done / perUser, of: total / perUser) } }
        let played = Result { () throws(ImpactRunError) in
            try ImpactRunner.run(model: model, policies: policies, changes: changes.changes, options: options, progress: progress)
        }
        bar?.finish()
        var report: ImpactReport
        switch played {
        case .success(let played): report = played
        case .failure(let error): return CommandResult(stderr: stderr + "error: \(error)\n", exitCode: ExitCode.findings)
        }
        report.moreChanges = changes.more
        report.inputs = InputDigest.of(model: modelBytes, policies: policies.map(\.policy))
        let format = parsed.values["format"] ?? (options.shard != nil ? "json" : "text")
        let rendered = render(report, format: format)
        // A part is read back by `impact merge`, which reads at most `maxPartBytes`: one past it is not written. (Each
        // deny-reason row is written twice, in its segment and in its placement's total, with its indentation: a part
        // of 100,000 rows of 95-character messages, within the report's bounds, was 67 MB.)
        if options.shard != nil, rendered.utf8.count > Self.maxPartBytes {
            return CommandResult(
                stderr: stderr + "error: the part would be \(rendered.utf8.count) bytes of json, more than the \(Self.maxPartBytes >> 20) MiB `impact merge` reads: "
                    + "use fewer segments, shorter rule messages, or preview a policy with fewer placements or custom rules\n",
                exitCode: ExitCode.findings)
        }
        return Output.deliver(rendered, to: parsed.values["output"], stderr: stderr)
    }

    /// Reads `--users`, `--days`, `--seed`, `--shard` and `--threads`.
    static func options(_ parsed: ParsedArguments) -> Result<ImpactOptions, ArgumentError> {
        var options = ImpactOptions()
        func number(_ name: String, _ range: ClosedRange<Int>) -> Result<Int?, ArgumentError> {
            guard let text = parsed.values[name] else { return .success(nil) }
            guard let value = Int(text), range.contains(value) else {
                return .failure(.invalidValue(option: name, value: text, allowed: ["a whole number from \(range.lowerBound) to \(range.upperBound)"]))
            }
            return .success(value)
        }
        do {
            options.users = try number("users", 1...ModelDecoder.maxUsers).get()
            options.days = try number("days", 1...ModelDecoder.maxDays).get()
            options.seed = try number("seed", 0...ModelDecoder.maxSeed).get().map { UInt64($0) }
            if let threads = try number("threads", 1...1024).get() { options.threads = threads }
        } catch {
            return .failure(error)
        }
        if let text = parsed.values["shard"] {
            guard let shard = Shard(parsing: text) else {
                return .failure(.invalidValue(option: "shard", value: text, allowed: ["K/N with 1 <= K <= N <= \(Shard.maxCount), such as 1/4"]))
            }
            options.shard = shard
        }
        return .success(options)
    }

    static func render(_ report: ImpactReport, format: String) -> String {
        switch format {
        case "json": return ImpactJSON.render(report)
        case "html": return ImpactHTML.render(report)
        default: return ImpactText.render(report)
        }
    }

    /// Diagnostics as lint prints them (xcode format, github's under GitHub Actions), with the summary line.
    static func report(_ diagnostics: [Diagnostic], files: [String], quiet: Bool, color: Bool = false, format: LintFormat = .xcode) -> String {
        guard !diagnostics.isEmpty else { return "" }
        var text = DiagnosticReporter(format: format, color: color, lines: { _ in [] }).render(diagnostics, files: files)
        if !quiet { text += LintCommand.summary(diagnostics, files: Set(files).count) + "\n" }
        return text
    }

    /// What a file named as the model is when it is plainly something else, nil when it may be a model.
    static func otherKind(_ path: String, _ bytes: [UInt8]) -> String? {
        if PolicyLoader.isScenarioFile(path) { return "a scenario file, not a usage model (adrules test runs scenarios)" }
        guard PolicyLoader.isCompiledPolicyFile(path) else { return nil }
        // What the document says it is, if adrules wrote it: a compiled policy names its format (anywhere, as its keys
        // are sorted, and saved again with spaces or not), an impact report has its run's inputs and results.
        let text = String(decoding: bytes, as: UTF8.self)
        if text.range(of: #""format"\s*:\s*"adrules-compiled-policy""#, options: .regularExpression) != nil {
            return "a compiled policy, not a usage model: give a policy as --rules"
        }
        if text.range(of: #""inputs"\s*:"#, options: .regularExpression) != nil, text.range(of: #""results"\s*:"#, options: .regularExpression) != nil {
            return "an impact report, not a usage model: combine the parts of a --shard run with adrules impact merge"
        }
        return nil
    }

    /// An I/O failure; the message names paths from the command line, printed escaped.
    static func failure(_ message: String) -> CommandResult {
        CommandResult(stderr: "error: \(ControlCharacters.escaped(message))\n", exitCode: ExitCode.failure)
    }
}
