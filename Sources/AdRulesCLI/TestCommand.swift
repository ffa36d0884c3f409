import AdRules

/// `adrules test [PATH...] [--rules DIR]`.
enum TestCommand {
    static let options: [OptionSpec] = [
        OptionSpec(name: "rules", short: nil, takesValue: true, allowed: nil),
        OptionSpec(name: "format", short: nil, takesValue: true, allowed: ["text", "json"]),
        AdRulesCommandLine.outputOption, AdRulesCommandLine.quietOption, AdRulesCommandLine.colorOption,
        AdRulesCommandLine.helpOption,
    ]

    static func run(_ parsed: ParsedArguments, environment: CommandEnvironment) -> CommandResult {
        CommandResult(stderr: "error: adrules test is not built yet\n", exitCode: ExitCode.failure)
    }
}

/// `adrules simulate SCENARIO [--rules DIR]`.
enum SimulateCommand {
    static let options: [OptionSpec] = TestCommand.options

    static func run(_ parsed: ParsedArguments, environment: CommandEnvironment) -> CommandResult {
        CommandResult(stderr: "error: adrules simulate is not built yet\n", exitCode: ExitCode.failure)
    }
}

/// The JSON Schema of rule files.
enum RuleFileSchema {
    static let text = "{}"
}
