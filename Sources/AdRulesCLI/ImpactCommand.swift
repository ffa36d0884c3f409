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
        // The model the user named is read first: a mistake in it is said before anything about the default policy.
        let modelBytes: [UInt8]
        let read: ModelDecoder.Read
        do { (modelBytes, read) = try readModel(modelPath) } catch { return error.result }
        if parsed.values["rules"] == nil, let missing = DefaultRules.missing("--rules path/to/rules") { return missing }

        var stderr = ""
        let policies: [NamedPolicy]
        var files = [modelPath]
        var diagnostics = read.diagnostics
        let rulesPath = policyName(parsed.values["rules"] ?? "rules")
        var named: [(path: String, role: ModelCheck.Role)] = [(rulesPath, .current)]
        if let old = parsed.values["compare"] { named.insert((policyName(old), .old), at: 0) }
        do {
            policies = try loadPolicies(named, modelPath: modelPath, files: &files, diagnostics: &diagnostics)
        } catch {
            return error.result
        }
        diagnostics += modelFindings(read, policies: policies, named: named)
        diagnostics = diagnostics.sortedForDisplay()
        let color = AdRulesCommandLine.useColor(parsed, environment: environment, onStandardError: true)
        stderr += report(diagnostics, files: files, quiet: parsed.flags.contains("quiet"), color: color, format: LintCommand.diagnosticFormat(environment))
        guard let model = read.model, policies.count == named.count, !diagnostics.hasErrors else {
            return CommandResult(stderr: stderr, exitCode: ExitCode.findings)
        }
        // A run may take minutes: a report it could not write is said before it starts, not after.
        if var refusal = Output.unwritableRefusal(parsed.values["output"]) {
            refusal.stderr = stderr + refusal.stderr
            return refusal
        }

        return play(model, modelBytes: modelBytes, policies: policies, options: options, parsed: parsed, environment: environment, stderr: stderr)
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
        var text = DiagnosticReporter(format: format, color: color).render(diagnostics, files: files)
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
        if text.range(of: #""format"\s*:\s*""# + Policy.compiledFormatName + #"""#, options: .regularExpression) != nil {
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
