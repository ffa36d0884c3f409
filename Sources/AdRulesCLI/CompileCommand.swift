import AdRules
import AdRulesCompiler
import AdRulesYAML
import Foundation

/// `adrules compile [PATH] [-o FILE] [--root DIR] [--format json|swift] [--strict]`: lint, then write the compiled policy,
/// as JSON or as the Swift file the build plugin adds to an app target.
enum CompileCommand {
    static let options: [OptionSpec] = [
        AdRulesCommandLine.outputOption,
        OptionSpec(name: "root", short: nil, takesValue: true, allowed: nil),
        OptionSpec(name: "format", short: nil, takesValue: true, allowed: ["json", "swift"]),
        AdRulesCommandLine.strictOption, AdRulesCommandLine.quietOption, AdRulesCommandLine.colorOption, AdRulesCommandLine.helpOption,
    ]

    static func run(_ parsed: ParsedArguments, environment: CommandEnvironment) -> CommandResult {
        let path = parsed.positionals.first ?? "rules"
        if let refusal = Output.refusal(output: parsed.values["output"], inputs: [path], reads: PolicyLoader.isRuleFile) { return refusal }
        if let refusal = Output.unwritableRefusal(parsed.values["output"]) { return refusal }
        if parsed.positionals.isEmpty, let missing = DefaultRules.missing("adrules compile path/to/rules -o policy.json") { return missing }
        if let refusal = PolicyArgument.refusal([path]) { return refusal }
        if let root = parsed.values["root"] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
                return CommandResult(
                    stderr: "error: --root \(ControlCharacters.escaped(root)) is not a directory: give the directory the compiled policy's file names are relative to, such as the package root\n",
                    exitCode: ExitCode.usage)
            }
            // A root that does not hold the policy names nothing relative to it: its files would keep their paths as
            // given, and a reason would name a file the app's sources do not have at that path.
            // Held as written (a `rules` that is a link to a folder elsewhere, as the build plugin passes it) or once
            // links are resolved.
            func holds(_ root: String, _ path: String) -> Bool { path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/") }
            let asWritten = holds(PolicyCompiler.absolute(root), PolicyCompiler.absolute(path))
            if !asWritten, let realRoot = PolicyLoader.realPath(root), let realPath = PolicyLoader.realPath(path), !holds(realRoot, realPath) {
                return CommandResult(
                    stderr: "error: --root \(ControlCharacters.escaped(root)) does not hold \(ControlCharacters.escaped(path)): give a directory the policy is in, such as the package root\n",
                    exitCode: ExitCode.usage)
            }
        }
        let compilation: PolicyCompilation
        do {
            // Swift names two ids share (`level-end`, `level_end`) are a warning where the build shows it.
            compilation = try PolicyCompiler.compile(path: path, root: parsed.values["root"], checkingSwiftNames: parsed.values["format"] == "swift")
        } catch {
            return CommandResult(stderr: "error: \(ControlCharacters.escaped("\(error)"))\n", exitCode: ExitCode.failure)
        }
        let diagnostics = compilation.diagnostics
        // The document may go to stdout, so diagnostics go to stderr, in the xcode format build logs read (github's
        // annotations under GitHub Actions, as lint prints them there).
        let color = AdRulesCommandLine.useColor(parsed, environment: environment, onStandardError: true)
        var stderr = DiagnosticReporter(format: LintCommand.diagnosticFormat(environment), color: color).render(diagnostics, files: compilation.files)
        if !parsed.flags.contains("quiet"), !diagnostics.isEmpty {
            stderr += LintCommand.summary(diagnostics, files: compilation.files.count) + "\n"
        }
        guard let document = compilation.document else {
            return CommandResult(stderr: stderr + "error: \(ControlCharacters.escaped(path)) has errors; nothing was written\n", exitCode: ExitCode.findings)
        }
        // --strict: warnings fail too, as in lint, so that CI never ships a policy with one.
        if parsed.flags.contains("strict"), !diagnostics.isEmpty {
            return CommandResult(stderr: stderr + "error: \(ControlCharacters.escaped(path)) has warnings (--strict); nothing was written\n", exitCode: ExitCode.findings)
        }
        let text: String
        do {
            // What is written is what an app will load: the runtime's loader reads it first (the Swift source is
            // checked the same way as it is generated).
            if parsed.values["format"] == "swift" {
                text = try GeneratedSwift.source(for: document)
            } else {
                _ = try Policy(compiled: document)
                text = String(decoding: document, as: UTF8.self)
            }
        } catch {
            // The compiler wrote a document the runtime refuses: a bug, not a rule-file mistake.
            return CommandResult(stderr: stderr + "error: internal: \(ControlCharacters.escaped(error.localizedDescription))\n", exitCode: ExitCode.failure)
        }
        // An unchanged output keeps its modification time, so a build does not recompile the code that uses it.
        if let path = parsed.values["output"], path != "-", holds(path, text) {
            return CommandResult(stderr: stderr)
        }
        return Output.deliver(text, to: parsed.values["output"], stderr: stderr)
    }

    /// Whether a regular file already holds exactly these bytes (never reads a device or a FIFO such as /dev/stdout).
    /// The text's bytes are copied only for a file of its size (a 100 MB Swift source was copied for every run).
    private static func holds(_ path: String, _ text: String) -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            (attributes[.size] as? NSNumber)?.intValue == text.utf8.count
        else { return false }
        return FileManager.default.contents(atPath: path) == Data(text.utf8)
    }
}
