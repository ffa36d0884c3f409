import AdRules
import AdRulesCompiler
import Foundation

/// The `adrules` command line.
public enum AdRulesCommandLine {
    static let usage = """
        USAGE: adrules <command> [options]

        COMMANDS:
          lint [PATH...]                 Lint rule files or directories (default: rules)
          test [PATH...] [--rules DIR]   Run scenario files (*.test.yaml) against a policy
          simulate SCENARIO [--rules DIR]
                                         Replay a scenario and print every decision
          compile [PATH] [-o FILE]       Lint a policy and write it compiled for apps (JSON, or Swift)
          schema                         Print the JSON Schema of rule files
          impact MODEL [--rules POLICY] [--compare OLD_POLICY]
                                         Preview what a policy does to simulated users
          impact merge PART.json...      Combine the results of --shard runs
          help [COMMAND]                 Show help

        OPTIONS:
          --format FORMAT    lint: xcode (default), text, json, sarif, github; test, simulate: text, json;
                             impact: text (default), json, html; compile: json (default), swift
          -o, --output FILE  Write the report to FILE instead of standard output
          --strict           lint, compile: warnings fail too; test, simulate: a policy or scenario file
                             with warnings fails
          -q, --quiet        No summary line
          --color WHEN       auto (default), always, never
          --version          Print the version
          -h, --help         Show help

        EXIT CODES: 0 success, 1 findings or failing tests, 2 usage error, 3 I/O or internal failure
        """

    static let commandHelp: [String: String] = [
        "lint": """
            USAGE: adrules lint [PATH...] [--format xcode|text|json|sarif|github] [--output FILE] [--strict] [--quiet] [--color auto|always|never]

            Loads each PATH (a rule file or a directory of them; default: rules) as one policy and prints
            every diagnostic. Under GitHub Actions (GITHUB_ACTIONS=true) the default format is github.
            A comment `# adrules:disable-next-line RULE` suppresses RULE on the next line.
            """,
        "test": """
            USAGE: adrules test [PATH...] [--rules DIR] [--format text|json] [--output FILE] [--strict] [--quiet] [--color auto|always|never]

            Runs the scenario files (*.test.yaml) under each PATH (default: rules) against the policy in
            --rules (default: the PATH itself, or the directory of a scenario file). Prints PASS/FAIL per
            test and ends with `N passed, N failed`. With --strict, a policy with lint warnings fails as one
            with errors does, before any step, and so does a scenario file with warnings.
            """,
        "simulate": """
            USAGE: adrules simulate SCENARIO [--rules DIR] [--format text|json] [--output FILE] [--strict] [--quiet] [--color auto|always|never]

            Replays every test of one scenario file and prints each step's decision, then the shows per
            placement per day. Expectations are ignored. Times and the table are in the zone the policy counts
            days in (its timezone, or the test's device_timezone for `timezone: device`; default UTC). A show is
            a show_started event that no show_failed took back; history shows are included.

            SCENARIO FILES (*.test.yaml):
              tests:
                - name: a resume without a ready ad never shows late
                  start: 2026-11-29T09:00:00+09:00   # required, RFC 3339
                  device_timezone: Asia/Tokyo        # for timezone: device (default UTC)
                  installed: 2026-11-01T00:00:00Z    # default: start
                  sessions_before: 2                 # sessions before start (default 0)
                  history: [{placement: app_open, at: 2026-11-29T08:58:00+09:00}]
                  context: {premium: false, attributes: {screen: home}}
                  steps:
                    - event: app_launched             # after: time since the previous step (default 0s)
                    - {after: 1m, event: app_backgrounded}
                    - {at: 2026-11-29T09:20:00+09:00, event: app_resumed}   # at: sets the clock (may go back)
                    - {ask: show, placement: app_open, trigger: resume, expect: deny, reasons: [ad_not_ready], retry_in: null}
              Events: app_launched, app_backgrounded, app_resumed, load_started, load_completed, load_failed,
              action, user_chose, show_started, show_failed, ad_closed, reward_earned, reward_granted,
              fullscreen_opened, fullscreen_closed (optional source). Asks: show (trigger resume,
              load_completed or action), offer, load, reward.
            """,
        "compile": """
            USAGE: adrules compile [PATH] [-o FILE] [--root DIR] [--format json|swift] [--strict] [--quiet] [--color auto|always|never]

            Lints the policy at PATH (a rule file or a directory of them; default: rules). With any error it
            prints the diagnostics to stderr, writes nothing and exits 1. Otherwise it writes the compiled
            policy (JSON, see docs/compiled-policy.md) to FILE, or to standard output. Apps load it with
            Policy(compiled:). File paths inside are relative to --root (default: the current directory).
            Every command that takes a policy also takes a compiled policy (*.json).

            --format swift writes the Swift file the build plugin (AdRulesPlugin) adds to an app target:
            the compiled policy embedded (Policy.bundledDocument, Policy.bundled()) and one constant per
            placement id (Placements.appOpen for app_open). Diagnostics name the files as PATH does: give an
            absolute PATH and they are absolute, as Xcode and swift build need to show them at the line.
            """,
        "impact": """
            USAGE: adrules impact MODEL [--rules POLICY] [--compare OLD_POLICY] [--users N] [--days N] [--seed N]
                                  [--shard K/N] [--threads N] [--format text|json|html] [--output FILE] [--quiet]
                                  [--color auto|always|never]
                   adrules impact merge PART.json... [--format text|json|html] [--output FILE] [--quiet]
                                        [--color auto|always|never]

            Plays the simulated users of a usage model (*.model.yaml) through the policy (default: rules) with
            the recommended integration, and reports per placement, per segment and in total: impressions per
            user per day, user-days that reached each cap, deny reasons with the YAML line behind each, wasted
            loads and rewarded offers. --compare OLD_POLICY plays both, lists the old one first and the
            settings that differ. --users, --days and --seed override the model; the same inputs give the same
            json on any machine and with any --threads (default: every core). --shard K/N plays users u with
            u mod N = K-1 and writes partial json; `impact merge` combines the parts into the whole run's output.
            """,
        "schema": """
            USAGE: adrules schema [--output FILE] [--quiet] [--color auto|always|never]

            Prints the JSON Schema (draft-07) of rule files, for editors such as VS Code.
            """,
    ]

    /// Runs the command line and returns what it printed and its exit code.
    /// - Parameters:
    ///   - arguments: the arguments after the program name.
    ///   - environment: variables and terminal state.
    public static func run(_ arguments: [String], environment: CommandEnvironment = .process) -> CommandResult {
        guard let command = arguments.first else {
            return CommandResult(stderr: usage + "\n", exitCode: ExitCode.usage)
        }
        // Arguments reach Swift decoded from UTF-8, a byte that is not UTF-8 replaced by U+FFFD: a path holding one
        // names another file than the one given (an --output would overwrite it), so it is refused.
        if let bad = arguments.first(where: { $0.unicodeScalars.contains("\u{FFFD}") }) {
            return CommandResult(
                stderr: "error: the argument \"\(ControlCharacters.escaped(bad))\" is not UTF-8 (or holds U+FFFD): adrules reads its arguments as UTF-8; write it in UTF-8 (a path: rename the file)\n",
                exitCode: ExitCode.usage)
        }
        let rest = Array(arguments.dropFirst())
        // Standard error into a file the run reads would take its findings or a usage error: refused before any is made.
        // (The version and help write to standard output only.)
        if !["--version", "version", "-h", "--help", "help"].contains(command), let refused = Output.standardErrorRefusal(arguments: rest) {
            return refused
        }
        switch command {
        case "--version", "version":
            if let extra = rest.first { return usageError(.unexpected(extra)) }
            return CommandResult(stdout: "adrules \(AdRulesVersion.current)\n")
        case "help", "-h", "--help":
            // `--help lint` and `-h lint` are `help lint`. One topic at most: `help lint extra` or an empty word is a
            // usage error, as for every command. `impact merge` is a part of impact, whose help covers it. Help on
            // help (`help help`, `help -h`) is the usage.
            // `help -- lint` is `help lint`: `--` ends the options, as for every command.
            var rest = rest
            if let end = rest.firstIndex(of: "--") { rest.remove(at: end) }
            let words = rest.starts(with: ["impact", "merge"]) ? 2 : 1
            // `help --format json`: help takes a command's name only, and says so (it was "unexpected argument json").
            if let option = rest.first(where: { $0.hasPrefix("--") && $0 != "--help" }) {
                let name = option.dropFirst(2).prefix { $0 != "=" }
                return usageError(.notTaken(
                    option: String(name), by: "help", because: "help takes a command's name only and prints text: write adrules help lint, or adrules lint --help"))
            }
            if rest.count > words { return usageError(.unexpected(rest[words])) }
            if rest.first == "" { return usageError(.emptyArgument) }
            if let topic = rest.first, !["help", "-h", "--help"].contains(topic) {
                guard let text = commandHelp[topic] else { return unknownCommand(topic) }
                return CommandResult(stdout: text + "\n")
            }
            return CommandResult(stdout: usage + "\n")
        case "lint":
            return runParsed(rest, options: LintCommand.options, maxPositionals: .max, help: "lint") {
                LintCommand.run($0, environment: environment)
            }
        case "test":
            return runParsed(rest, options: TestCommand.options, maxPositionals: .max, help: "test") {
                TestCommand.run($0, environment: environment)
            }
        case "simulate":
            return runParsed(rest, options: SimulateCommand.options, maxPositionals: 1, help: "simulate") {
                SimulateCommand.run($0, environment: environment)
            }
        case "compile":
            return runParsed(rest, options: CompileCommand.options, maxPositionals: 1, help: "compile") {
                CompileCommand.run($0, environment: environment)
            }
        case "impact":
            return runParsed(rest, options: ImpactCommand.options, maxPositionals: .max, help: "impact") {
                ImpactCommand.run($0, environment: environment)
            }
        case "schema":
            return runParsed(rest, options: [outputOption, quietOption, colorOption, helpOption], maxPositionals: 0, help: "schema") {
                Output.refusal(output: $0.values["output"], inputs: []) ?? Output.deliver(RuleFileSchema.text, to: $0.values["output"])
            }
        default:
            return unknownCommand(command)
        }
    }

    /// A command, or a help topic, that is none: a usage error with the closest command.
    static func unknownCommand(_ command: String) -> CommandResult {
        let commands = ["lint", "test", "simulate", "compile", "impact", "schema", "help"]
        var message = "unknown command \"\(ControlCharacters.escaped(command))\""
        if let suggestion = Suggestion.closest(to: command, in: commands) { message += "; did you mean \"\(suggestion)\"?" }
        return CommandResult(stderr: "error: \(message)\n\n\(usage)\n", exitCode: ExitCode.usage)
    }

    static let outputOption = OptionSpec(name: "output", short: "o", takesValue: true, allowed: nil)
    static let helpOption = OptionSpec(name: "help", short: "h", takesValue: false, allowed: nil)
    static let quietOption = OptionSpec(name: "quiet", short: "q", takesValue: false, allowed: nil)
    static let strictOption = OptionSpec(name: "strict", short: nil, takesValue: false, allowed: nil)
    static let colorOption = OptionSpec(name: "color", short: nil, takesValue: true, allowed: ["auto", "always", "never"])

    private static func runParsed(
        _ arguments: [String], options: [OptionSpec], maxPositionals: Int, help: String,
        body: (ParsedArguments) -> CommandResult
    ) -> CommandResult {
        do {
            let parsed = try ParsedArguments.parse(arguments, options: options, maxPositionals: maxPositionals)
            if parsed.flags.contains("help") { return CommandResult(stdout: (commandHelp[help] ?? usage) + "\n") }
            return body(parsed)
        } catch let error as ArgumentError {
            // The command's own usage, not the top-level help: the user already chose the command.
            return usageError(error, command: help)
        } catch {
            return CommandResult(stderr: "error: \(ControlCharacters.escaped("\(error)"))\n", exitCode: ExitCode.failure)
        }
    }

    /// - Parameter command: the command whose usage to print (the user already chose it); nil for the global usage.
    static func usageError(_ error: ArgumentError, command: String? = nil) -> CommandResult {
        CommandResult(stderr: "error: \(ControlCharacters.escaped("\(error)"))\n\n\(command.flatMap(commandUsage) ?? usage)\n", exitCode: ExitCode.usage)
    }

    /// A command's usage (cli.md: a usage error prints "a one-line error and the usage"): the USAGE lines of its
    /// help, and where the rest is.
    static func commandUsage(_ command: String) -> String? {
        guard let help = commandHelp[command] else { return nil }
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
        return lines.joined(separator: "\n") + "\n\nRun `adrules help \(command)` for more."
    }

    /// Whether to colour what a command prints: `--color`, or with `auto` whether the stream it goes to is a terminal
    /// (standard output unless `--output` sends the report elsewhere; standard error for findings printed there).
    static func useColor(_ parsed: ParsedArguments, environment: CommandEnvironment, onStandardError: Bool = false) -> Bool {
        switch parsed.values["color"] ?? "auto" {
        case "always": return true
        case "never": return false
        default:
            let terminal = onStandardError ? environment.stderrIsTerminal : environment.stdoutIsTerminal && parsed.values["output"] == nil
            // no-color.org: `NO_COLOR` set to anything but the empty string turns colour off; so does a terminal that
            // says it has none (`TERM=dumb`: Emacs' shell, some CI log viewers).
            let noColor = environment.variables["NO_COLOR"].map { !$0.isEmpty } ?? false
            return terminal && !noColor && environment.variables["TERM"] != "dumb"
        }
    }
}
