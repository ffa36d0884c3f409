import AdRules
import AdRulesCompiler
import AdRulesYAML
import Foundation

/// `adrules compile [PATH] [-o FILE] [--root DIR]`: lint, then write the compiled policy.
enum CompileCommand {
    static let options: [OptionSpec] = [
        OptionSpec(name: "output", short: "o", takesValue: true, allowed: nil),
        OptionSpec(name: "root", short: nil, takesValue: true, allowed: nil),
        AdRulesCommandLine.quietOption, AdRulesCommandLine.colorOption, AdRulesCommandLine.helpOption,
    ]

    static func run(_ parsed: ParsedArguments, environment: CommandEnvironment) -> CommandResult {
        let path = parsed.positionals.first ?? "rules"
        let compilation: PolicyCompilation
        do {
            compilation = try PolicyCompiler.compile(path: path, root: parsed.values["root"])
        } catch {
            return CommandResult(stderr: "error: \(ControlCharacters.escaped("\(error)"))\n", exitCode: ExitCode.failure)
        }
        // The document may go to stdout, so diagnostics go to stderr, in the xcode format build logs read.
        let color = parsed.values["color"] == "always"
        var stderr = DiagnosticReporter(format: .xcode, color: color, lines: { _ in [] }).render(compilation.diagnostics, files: compilation.files)
        let errors = compilation.diagnostics.filter { $0.severity == .error }.count
        if !parsed.flags.contains("quiet"), !compilation.diagnostics.isEmpty {
            stderr += LintCommand.summary(errors: errors, warnings: compilation.diagnostics.count - errors, files: compilation.files.count) + "\n"
        }
        guard let document = compilation.document else {
            return CommandResult(stderr: stderr + "error: \(path) has errors; nothing was written\n", exitCode: ExitCode.findings)
        }
        let text = String(decoding: document, as: UTF8.self)
        return Output.deliver(text, to: parsed.values["output"], stderr: stderr)
    }
}
