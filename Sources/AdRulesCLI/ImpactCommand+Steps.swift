import AdRules
import AdRulesCompiler
import AdRulesImpact
import AdRulesYAML
import Foundation

/// The steps of `adrules impact`: read the model, load the policies, check the model against them, play.
extension ImpactCommand {
    /// A step that stops the command, with what it prints and its exit code.
    struct Stop: Error {
        let result: CommandResult
        init(_ result: CommandResult) { self.result = result }
    }

    /// The usage model's bytes and what they decode to; a path that names no usage model (a directory, a scenario
    /// file, a compiled policy, a rule file) stops the command.
    static func readModel(_ modelPath: String) throws(Stop) -> (bytes: [UInt8], read: ModelDecoder.Read) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: modelPath, isDirectory: &isDirectory) else {
            let missing = PolicyLoader.missing(modelPath)
            guard case .notFound = missing else { throw Stop(failure("\(missing)")) }
            throw Stop(failure("no such model file: \(modelPath)" + PolicyLoadError.missingPathAdvice(modelPath, oneFile: true)))
        }
        guard !isDirectory.boolValue else {
            // A directory where a file belongs is a mistake in the command, not an I/O failure: exit 2.
            throw Stop(CommandResult(
                stderr: "error: \(ControlCharacters.escaped(modelPath)) is a directory: impact takes a usage model file, such as rules/usage.model.yaml\n",
                exitCode: ExitCode.usage))
        }
        let modelBytes: [UInt8]
        do { modelBytes = try PolicyLoader.readBytes(modelPath) } catch { throw Stop(failure("\(error)")) }
        // A file of another kind named as the model is a mistake in the command, said once rather than as a cascade
        // of model findings about its keys (exit 2, as a usage model named as the policy is): a scenario file by its
        // name, a compiled policy or an impact report by what it says it is.
        if let kind = Self.otherKind(modelPath, modelBytes) {
            throw Stop(CommandResult(
                stderr: "error: \(ControlCharacters.escaped(modelPath)) is \(kind); impact takes a usage model, such as rules/usage.model.yaml\n",
                exitCode: ExitCode.usage))
        }
        let read = ModelDecoder.read(modelBytes, file: modelPath)
        // A rule file named as the model (its `placements`, `groups` or `rules` at the top, where a model has none) is
        // said once.
        if read.model == nil, read.isRuleFile, !PolicyLoader.isUsageModel(modelPath), !PolicyLoader.isCompiledPolicyFile(modelPath) {
            throw Stop(CommandResult(
                stderr: "error: \(ControlCharacters.escaped(modelPath)) is a rule file, not a usage model: give the policy as --rules; impact takes a usage model, such as rules/usage.model.yaml\n",
                exitCode: ExitCode.usage))
        }
        return (modelBytes, read)
    }

    /// A policy's name: its path as written, less a directory's trailing slash, so that `--rules new/` and `--rules new`
    /// are one policy, in the report and for `impact merge` (a file named with a slash stays as written, and is
    /// refused as lint refuses it).
    static func policyName(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return path }
        return String(PathText.withoutTrailingSlashes(Substring(path)))
    }

    /// Loads each policy named (`--compare`'s first), adding its files to `files` and its errors to `diagnostics`: a
    /// policy with errors is not in the result. A model the policy reads as one of its rule files stops the command.
    static func loadPolicies(
        _ named: [(path: String, role: ModelCheck.Role)], modelPath: String, files: inout [String], diagnostics: inout [Diagnostic]
    ) throws(Stop) -> [NamedPolicy] {
        var policies: [NamedPolicy] = []
        // The model file as the system knows it (device and inode: links and `..` resolved by the kernel).
        let modelIdentity = FileIdentity.of(modelPath)
        for (path, role) in named {
            let load: PolicyLoad
            do { load = try PolicyLoader.load(path: path) } catch { throw Stop(failure("\(error)")) }
            // A model inside the policy's folder under a rule file's name is read as one of its rule files: said
            // once, rather than as a cascade of findings about a rule file's keys.
            if load.files.contains(where: { FileIdentity.of($0) == modelIdentity }) {
                let advice = FileIdentity.of(path) == modelIdentity
                    ? "is given both as the model and as the policy: give the policy's rule files (a folder, or a rule file) as \(role == .old ? "--compare" : "--rules")"
                    : "is read as a rule file of the policy \(ControlCharacters.escaped(path)): name a usage model *.model.yaml (loading a policy skips those files), or keep it outside the policy's folder"
                throw Stop(CommandResult(stderr: "error: \(ControlCharacters.escaped(modelPath)) \(advice)\n", exitCode: ExitCode.usage))
            }
            files += load.files
            // The policy's errors alone: a line counting findings it does not show says only the errors among them.
            let errors = load.diagnostics.filter { $0.severity == .error }.map { diagnostic in
                guard let hidden = diagnostic.standsFor else { return diagnostic }
                return Diagnostic.tooManyFindings(hidden.errors, errors: hidden.errors, file: diagnostic.file)
            }
            diagnostics += errors
            if errors.isEmpty { policies.append(NamedPolicy(name: path, policy: load.policy, written: load.written, valueLocations: load.valueLocations, policyStart: load.policyStart)) }
        }
        return policies
    }

    /// The model's findings against each policy, when every policy loaded.
    static func modelFindings(_ read: ModelDecoder.Read, policies: [NamedPolicy], named: [(path: String, role: ModelCheck.Role)]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
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
        return diagnostics
    }

    /// Plays the model against the policies and delivers the report, after the findings already in `stderr`.
    static func play(
        _ model: UsageModel, modelBytes: [UInt8], policies: [NamedPolicy], options: ImpactOptions, parsed: ParsedArguments,
        environment: CommandEnvironment, stderr: String
    ) -> CommandResult {
        let changes = PolicyDiff.listed(policies.count == 2 ? PolicyDiff.changes(from: policies[0], to: policies[1]) : [])
        let bar = parsed.flags.contains("quiet") ? nil : ProgressBar(
            isTerminal: environment.stderrIsTerminal, columns: environment.stderrColumns, clearsLines: environment.variables["TERM"] != "dumb")
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
}
