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
        if let refusal = Output.unwritableRefusal(parsed.values["output"]) { return refusal }
        if let refusal = PolicyArgument.refusal(policyPaths) { return refusal }
        if parsed.positionals.isEmpty, let missing = DefaultRules.missing("adrules test path/to/rules") { return missing }
        var run = TestRun(
            json: json, color: AdRulesCommandLine.useColor(parsed, environment: environment), quiet: parsed.flags.contains("quiet"),
            diagnosticFormat: LintCommand.diagnosticFormat(environment))
        var policies = ScenarioPolicies()
        policies.strict = parsed.flags.contains("strict")
        policies.rulesGiven = parsed.values["rules"] != nil
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
                run.stderr += "error: \(ControlCharacters.escaped("\(error)"))\n"
                run.ioFailed = true
                continue
            }
            // A file named on the command line is read only as what it is: a rule file or a usage model holds no
            // scenario test, and decoding it as one would report its every key as unknown.
            if files == [path], !PolicyLoader.isScenarioFile(path) {
                run.stderr += "warning: \(ControlCharacters.escaped(path)) is not a scenario file (*.test.yaml), so it holds no test: "
                    + "name the scenario files, or a directory of them (a policy is linted by adrules lint)\n"
                continue
            }
            if files.isEmpty { untested.append((path, rulesPath)) }
            for file in files where ran.insert(FileIdentity.of(file) + "\u{0}" + policyKey).inserted {
                run.run(policies.prepare(file: file, rulesPath: rulesPath), file: file)
            }
        }
        run.reportUntested(untested, policies: &policies)
        return run.result(paths: paths, output: parsed.values["output"])
    }

    /// Whether a file's first 4 KB (`head`) are a json report of `adrules test`.
    static func isEarlierReport(_ head: String) -> Bool { head.hasPrefix("{\n  \"version\": 1,\n  \"passed\": ") }
}
