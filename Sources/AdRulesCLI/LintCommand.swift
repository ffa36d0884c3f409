import AdRules
import AdRulesCompiler
import AdRulesYAML
import Foundation

/// `adrules lint [PATH...]`.
enum LintCommand {
    static let options: [OptionSpec] = [
        OptionSpec(name: "format", short: nil, takesValue: true, allowed: LintFormat.allCases.map(\.rawValue)),
        AdRulesCommandLine.outputOption, AdRulesCommandLine.strictOption,
        AdRulesCommandLine.quietOption, AdRulesCommandLine.colorOption, AdRulesCommandLine.helpOption,
    ]

    /// Removes an earlier lint report of this format at --output when this run has none (``Output/removedEarlierReport(_:isReport:)``).
    static func removedEarlierReport(_ parsed: ParsedArguments, format: LintFormat) -> String {
        Output.removedEarlierReport(parsed.values["output"]) { isEarlierReport($0, format: format) }
    }

    /// The format lint prints diagnostics in by default, and the other commands print a policy's findings in (cli.md:
    /// "reported like lint reports it"): xcode, or github's annotations under GitHub Actions (`GITHUB_ACTIONS=true`).
    static func diagnosticFormat(_ environment: CommandEnvironment) -> LintFormat {
        environment.variables["GITHUB_ACTIONS"] == "true" ? .github : .xcode
    }

    static func run(_ parsed: ParsedArguments, environment: CommandEnvironment) -> CommandResult {
        let paths = parsed.positionals.isEmpty ? ["rules"] : parsed.positionals
        let format = parsed.values["format"].flatMap(LintFormat.init(rawValue:)) ?? diagnosticFormat(environment)
        let needsDocument = format == .json || format == .sarif
        if var refusal = Output.refusal(output: parsed.values["output"], inputs: paths, reads: PolicyLoader.isRuleFile) {
            // An input directory that cannot be read in full stops the run here: no document, and none left from before.
            if refusal.exitCode == ExitCode.failure && needsDocument { refusal.stderr += removedEarlierReport(parsed, format: format) }
            return refusal
        }
        if let refusal = Output.unwritableRefusal(parsed.values["output"]) { return refusal }
        if parsed.positionals.isEmpty, let missing = DefaultRules.missing("adrules lint path/to/rules") { return missing }
        // A scenario file or a usage model among the paths (`lint rules/*.yaml` takes them in) is a usage error, said
        // before anything is linted: a line for each, then the usage, and no findings about the other paths.
        let misnamed = paths.filter(PolicyLoader.isNamedAsNoRuleFile)
        if !misnamed.isEmpty {
            let lines = misnamed.map { "error: \(ControlCharacters.escaped(PolicyLoadError.notRuleFile($0).description))\n" }.joined()
            return CommandResult(stderr: lines + "\n" + (AdRulesCommandLine.commandUsage("lint") ?? "") + "\n", exitCode: ExitCode.usage)
        }
        var diagnostics: [Diagnostic] = []
        var files: [String] = []
        var stderr = ""
        var ioFailed = false
        // A policy named twice (`lint rules rules`, `a.yaml ./a.yaml`, a link) is linted once, and a path that cannot be
        // read is reported once.
        var linted = Set<String>()
        for path in paths {
            guard linted.insert(FileIdentity.of(path)).inserted else { continue }
            do {
                let load = try PolicyLoader.load(path: path)
                diagnostics += load.diagnostics
                files += load.files
            } catch {
                stderr += "error: \(ControlCharacters.escaped("\(error)"))\n"
                ioFailed = true
            }
        }
        // A file inside two of the paths (`lint rules rules/ads`) is linted with each, and its findings come twice: the
        // same finding is reported once (two SARIF results would be two code-scanning alerts for one problem).
        // A file is known by its identity, however each path spells it (`rules/a.yaml`, `./rules/a.yaml`).
        if paths.count > 1 {
            var identities: [String: String] = [:]
            var seen = Set<Diagnostic>()
            diagnostics = diagnostics.filter { diagnostic in
                var key = diagnostic
                key.file = identities[diagnostic.file] ?? FileIdentity.of(diagnostic.file)
                identities[diagnostic.file] = key.file
                return seen.insert(key).inserted
            }
        }
        var cache: [String: SourceLines] = [:]
        let reporter = DiagnosticReporter(
            format: format, color: AdRulesCommandLine.useColor(parsed, environment: environment),
            sourceLine: { file, index in
                if let lines = cache[file] { return lines.line(index) }
                let text = (try? PolicyLoader.readBytes(file)).map { String(decoding: $0, as: UTF8.self) } ?? ""
                // Lines as positions count them (LF, CR LF, CR), so that a diagnostic's line is the line shown. A rule
                // file holding a NEL, LS or PS, which libyaml would count too, is refused at that character before
                // libyaml reads it; a compiled policy's json counts lines at LF and CR only, and may hold them in a
                // string. (Split at them too, a json excerpt showed the wrong line, and a rule file's excerpt ended
                // at the character it is refused for, which is now shown escaped.)
                let lines = SourceLines(text)
                cache[file] = lines
                return lines.line(index)
            })
        let report = reporter.render(diagnostics, files: files)
        // A file's `lint/too-many-findings` line counts as the findings it stands for.
        let (errors, warnings) = diagnostics.findingCounts
        // cli.md: the summary goes to stderr, and only --quiet leaves it out (a clean run says what it checked). A run
        // that could not read a path ends with why, not with a count of what it did read. A file two policies hold
        // (`lint rules rules/a.yaml`) counts once.
        if !parsed.flags.contains("quiet"), !ioFailed {
            stderr += summary(errors: errors, warnings: warnings, files: Set(files.map(FileIdentity.of)).count) + "\n"
        }
        var exitCode = ExitCode.success
        if errors > 0 || (parsed.flags.contains("strict") && warnings > 0) { exitCode = ExitCode.findings }
        if ioFailed { exitCode = ExitCode.failure }
        // A json or SARIF document of a run that could not read its input would look like a clean result (a code
        // scanning upload would say "no problems"): none is written, and the error says why.
        if ioFailed && needsDocument {
            stderr += removedEarlierReport(parsed, format: format)
            return CommandResult(stderr: stderr, exitCode: exitCode)
        }
        return Output.deliver(
            report.isEmpty && !needsDocument ? "" : report, to: parsed.values["output"], stderr: stderr,
            exitCode: exitCode)
    }

    /// Whether a file's first 4 KB (`head`) begin as a json or SARIF report of lint does (the format asked for).
    static func isEarlierReport(_ head: String, format: LintFormat) -> Bool {
        switch format {
        case .json: return head.hasPrefix("{\n  \"version\": 1,\n  \"diagnostics\": [")
        case .sarif: return head.hasPrefix("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\"") && head.contains("\"name\": \"adrules\"")
        default: return false
        }
    }

    /// The summary of some diagnostics over `files` files.
    static func summary(_ diagnostics: [Diagnostic], files: Int) -> String {
        let (errors, warnings) = diagnostics.findingCounts
        return summary(errors: errors, warnings: warnings, files: files)
    }

    static func summary(errors: Int, warnings: Int, files: Int) -> String {
        "Found \(Article.counted(errors, "error")) and \(Article.counted(warnings, "warning")) in \(Article.counted(files, "file"))."
    }
}
