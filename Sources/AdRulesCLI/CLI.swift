import AdRules
import AdRulesCompiler
import Foundation

/// What a command printed and how it ended; `main.swift` writes it out.
public struct CommandResult: Sendable, Equatable {
    /// Text for standard output.
    public var stdout: String = ""
    /// Text for standard error.
    public var stderr: String = ""
    /// The process exit code.
    public var exitCode: Int32 = ExitCode.success
    /// Whether `stderr` carries the report (`--output /dev/stderr`): losing it is then an I/O failure.
    public var reportOnStderr = false

    public init(stdout: String = "", stderr: String = "", exitCode: Int32 = ExitCode.success) {
        self.stdout = stdout
        self.stderr = stderr
        self.exitCode = exitCode
    }
}

/// The exit codes of cli.md.
public enum ExitCode {
    /// Lint found no errors; every test passed.
    public static let success: Int32 = 0
    /// Lint errors (or warnings with --strict); failing tests.
    public static let findings: Int32 = 1
    /// The command line was wrong.
    public static let usage: Int32 = 2
    /// A file could not be read or written, or something failed inside.
    public static let failure: Int32 = 3
}

/// The environment a command runs in: variables and whether stdout is a terminal.
public struct CommandEnvironment: Sendable {
    /// Environment variables.
    public var variables: [String: String]
    /// Whether standard output is a terminal (for `--color auto`).
    public var stdoutIsTerminal: Bool
    /// Whether standard error is a terminal (for `--color auto` of findings printed there, as `impact` prints them).
    public var stderrIsTerminal: Bool

    public init(variables: [String: String] = [:], stdoutIsTerminal: Bool = false, stderrIsTerminal: Bool = false) {
        self.variables = variables
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
    }

    /// The real process environment.
    public static var process: CommandEnvironment {
        CommandEnvironment(variables: ProcessInfo.processInfo.environment, stdoutIsTerminal: isatty(1) == 1, stderrIsTerminal: isatty(2) == 1)
    }
}

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
          --quiet            No summary line
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
                                  [--shard K/N] [--threads N] [--format text|json|html] [--output FILE] [--quiet] [--color WHEN]
                   adrules impact merge PART.json... [--format text|json|html] [--output FILE]

            Plays the simulated users of a usage model (*.model.yaml) through the policy (default: rules) with
            the recommended integration, and reports per placement, per segment and in total: impressions per
            user per day, user-days that reached each cap, deny reasons with the YAML line behind each, wasted
            loads and rewarded offers. --compare OLD_POLICY plays both, lists the old one first and the
            settings that differ. --users, --days and --seed override the model; the same inputs give the same
            json on any machine and with any --threads (default: every core). --shard K/N plays users u with
            u mod N = K-1 and writes partial json; `impact merge` combines the parts into the whole run's output.
            """,
        "schema": """
            USAGE: adrules schema [--output FILE] [--quiet] [--color WHEN]

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
        switch command {
        case "--version", "version":
            if let extra = rest.first { return usageError(.unexpected(extra)) }
            return CommandResult(stdout: "adrules \(AdRulesVersion.current)\n")
        case "-h", "--help":
            return CommandResult(stdout: usage + "\n")
        case "help":
            // One topic at most: `help lint extra` or an empty word is a usage error, as for every command. `impact
            // merge` is a part of impact, whose help covers it.
            let words = rest.starts(with: ["impact", "merge"]) ? 2 : 1
            if rest.count > words { return usageError(.unexpected(rest[words])) }
            if rest.first == "" { return usageError(.emptyArgument) }
            if let topic = rest.first, topic != "help" {
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
            return terminal && environment.variables["NO_COLOR"] == nil
        }
    }
}

/// Checks on the paths a command takes as its policy.
enum PolicyArgument {
    /// A usage error (exit 2, printed once) when a path given as the policy is a scenario file or a usage model, as
    /// `lint` reports one: the command was given the wrong file, which no rereading fixes.
    static func refusal(_ paths: [String]) -> CommandResult? {
        for path in Set(paths).sorted() where PolicyLoader.isScenarioFile(path) || PolicyLoader.isUsageModel(path) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            return CommandResult(
                stderr: "error: \(ControlCharacters.escaped(PolicyLoadError.notRuleFile(path).description))\n", exitCode: ExitCode.usage)
        }
        return nil
    }
}

/// The `rules` a command reads when no path is given.
enum DefaultRules {
    /// An I/O failure (exit 3, as for any missing path) that says the path was the default, when `rules` is missing.
    /// - Parameter naming: how the command names a policy, such as `adrules lint path/to/rules`.
    static func missing(_ naming: String) -> CommandResult? {
        var info = stat()
        guard lstat("rules", &info) != 0 else { return nil }
        return CommandResult(
            stderr: "error: no such file or directory: rules, the policy read when none is named: run this where rules/ is, or name the policy, such as \(naming)\n",
            exitCode: ExitCode.failure)
    }
}

/// What a path names, to tell a file or directory named twice (`rules rules/`, a link, `x/../rules`): the file itself
/// (device and inode) however it is spelt, or for a path that cannot be read, its absolute spelling without `.` and
/// `..` parts and a trailing slash.
enum FileIdentity {
    static func of(_ path: String) -> String {
        var info = stat()
        if stat(path, &info) == 0 { return "\(info.st_dev):\(info.st_ino)" }
        return "unread:" + URL(fileURLWithPath: path).standardized.path
    }
}

/// Writes a report to standard output or to the `--output` file.
enum Output {
    /// Removes an earlier run's document at `output` when this run has none: a CI step that uploads it whatever the
    /// exit code would publish it as this run's result. Only a report `isReport` knows as one adrules wrote is removed:
    /// `-` is standard output, a file standard output or error goes to is the run's own stream, and any other file is
    /// the user's, left as it is.
    /// - Returns: the note saying so, or nothing.
    static func removedEarlierReport(_ output: String?, isReport: (String) -> Bool) -> String {
        guard let output, output != "-", OutputFile.stream(output) == nil, isRegularFile(output), isReport(output),
            (try? FileManager.default.removeItem(atPath: output)) != nil
        else { return "" }
        return "note: removed the earlier report at \(ControlCharacters.escaped(output)): this run has none, and the old one would read as this run's\n"
    }

    /// The first 4 KB of a file, as text.
    static func head(of path: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        return String(decoding: (try? handle.read(upToCount: 4096)) ?? Data(), as: UTF8.self)
    }

    /// Whether `path` is a regular file itself (not a link, a device or a FIFO).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// A refusal when `output` would overwrite a file this run reads: one of `inputs`, or a rule, scenario or model
    /// file inside an input directory. Checked before any work, so the input is still there to fix the command.
    /// - Parameter reads: the files of an input directory the run reads (lint and compile read rule files only): a
    ///   file it does not read can neither be overwritten through it nor stop it.
    static func refusal(output: String?, inputs: [String], reads: (String) -> Bool = PolicyLoader.isYAMLFile) -> CommandResult? {
        guard let output, output != "-" else { return nil }
        /// Where a write to `path` lands: through its symlinks (a dangling one included) into its real directory.
        func resolved(_ path: String) -> String {
            var path = path
            for _ in 0..<40 {
                guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else { break }
                let parent = PathText.parent(path)
                path = destination.hasPrefix("/") || parent.isEmpty ? destination : parent + "/" + destination
            }
            // The system resolves symlinks before any `..`, as the kernel does.
            if let real = PolicyLoader.realPath(path) { return real }
            let parent = PathText.parent(path)
            return (PolicyLoader.realPath(parent.isEmpty ? "." : parent) ?? parent) + "/" + (path as NSString).lastPathComponent
        }
        /// The file's identity (device and inode): the same file under another name or through a hard link.
        func identity(_ path: String) -> (UInt64, UInt64)? {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return (UInt64(info.st_dev), UInt64(info.st_ino))
        }
        let target = resolved(output)
        let targetIdentity = identity(output)
        // The file standard input reads from (`-o /dev/stdin < notes.txt`) is someone's input, never a report.
        var standardInput = stat()
        if let targetIdentity, fstat(0, &standardInput) == 0, (standardInput.st_mode & S_IFMT) == S_IFREG,
            (UInt64(standardInput.st_dev), UInt64(standardInput.st_ino)) == targetIdentity
        {
            return CommandResult(
                stderr: "error: --output \(ControlCharacters.escaped(output)) is the file standard input reads: write the report elsewhere\n", exitCode: ExitCode.usage)
        }
        // What loading a directory reads: rule, scenario and model files.
        let isYAML = PolicyLoader.isYAMLFile(target)
        for input in inputs {
            let source = resolved(input)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) else { continue }
            var overwritesInput = false
            if let targetIdentity {
                // The input itself, or (for a directory) any file the loader's own walk reads in it, under any name.
                // A walk that fails (too many entries, an entry that cannot be opened) would fail the run too: it
                // stops here with that cause (an I/O failure), and the output is left as it was. The walk is the
                // loader's own, of the input as given, so that its error names the path as the command line spells it.
                let candidates: [String]
                do {
                    candidates = try PolicyLoader.files(at: input, where: reads)
                } catch {
                    return CommandResult(stderr: "error: \(ControlCharacters.escaped("\(error)"))\n", exitCode: ExitCode.failure)
                }
                overwritesInput = ([source] + candidates).contains { path in identity(path).map { $0 == targetIdentity } ?? false }
            }
            // A new rule or scenario file in an input directory would be read by the next run, and fail it.
            let addsToInputDirectory = isDirectory.boolValue && isYAML && target.hasPrefix(source.hasSuffix("/") ? source : source + "/")
            guard overwritesInput || addsToInputDirectory else { continue }
            let what = overwritesInput
                ? "would overwrite a file this run reads (\(ControlCharacters.escaped(input)))"
                : targetIdentity != nil
                    ? "would overwrite a YAML file in \(ControlCharacters.escaped(input)), which later runs read"
                    : "would put a YAML file into \(ControlCharacters.escaped(input)), which the next run would read"
            return CommandResult(stderr: "error: --output \(ControlCharacters.escaped(output)) \(what): write the report elsewhere\n", exitCode: ExitCode.usage)
        }
        // No report is YAML, and a YAML file is what the next run may read (or a rule file beside an input named
        // alone, which a report would overwrite): by its name or through a link. Standard output or error named as a
        // file is that stream, wherever the shell sent it.
        if PolicyLoader.isYAMLFile(output) || isYAML, OutputFile.stream(output) == nil {
            return CommandResult(
                stderr: "error: --output \(ControlCharacters.escaped(output)) would write a YAML file, and no report is one (a rule, scenario or model file there would be overwritten, or read by the next run): name it with the report's own extension, such as .txt, .json, .sarif or .swift\n",
                exitCode: ExitCode.usage)
        }
        return nil
    }

    static func deliver(_ text: String, to path: String?, stderr: String = "", exitCode: Int32 = ExitCode.success) -> CommandResult {
        // `-` is standard output, as for most tools that take an output path.
        guard let path, path != "-" else { return CommandResult(stdout: text, stderr: stderr, exitCode: exitCode) }
        // A run that could not read its input has no report: the file named is left as it was.
        guard exitCode != ExitCode.failure else { return CommandResult(stderr: stderr, exitCode: exitCode) }
        // Standard output or error named as a file (`/dev/stdout`, `/dev/fd/2`, or the file either is redirected to)
        // is that stream: the report goes where the rest of the run's output goes, after what is already there.
        switch OutputFile.stream(path) {
        case 1?: return CommandResult(stdout: text, stderr: stderr, exitCode: exitCode)
        case 2?:
            var result = CommandResult(stderr: stderr + text, exitCode: exitCode)
            result.reportOnStderr = true
            return result
        default: break
        }
        guard let problem = OutputFile.write(Data(text.utf8), to: path) else { return CommandResult(stderr: stderr, exitCode: exitCode) }
        return CommandResult(stderr: stderr + "error: cannot write \(ControlCharacters.escaped(path)): \(problem)\n", exitCode: ExitCode.failure)
    }
}

/// Where a report is written with `--output`.
///
/// The file named is written in place, so it stays the file it was (its owner, permissions, hard links, and the
/// file a symlink points at). A regular file's previous contents are kept until the new report is written in full:
/// when a write fails (a full disk, a file-size limit) they are written back and the file cut to their length, so
/// a failed run never leaves a cut-off report where a good one was. A new file that cannot be written in full is
/// removed. A device, a FIFO or a socket is written through.
enum OutputFile {
    /// The system's reason for a failed call, in words.
    static func reason(_ code: Int32) -> String { code != 0 ? String(cString: strerror(code)).lowercased() : "the write failed" }

    /// The previous contents kept to restore, at most this many bytes (a larger file is written through).
    static let maxKept = 256 << 20

    /// 1 or 2 when `path` is the file standard output or standard error is (same device and inode), else nil.
    static func stream(_ path: String) -> Int32? {
        var target = stat()
        guard stat(path, &target) == 0 else { return nil }
        for fd: Int32 in [1, 2] {
            var open = stat()
            if fstat(fd, &open) == 0, open.st_dev == target.st_dev, open.st_ino == target.st_ino { return fd }
        }
        return nil
    }

    /// Why a report could not be written to `path`, checked without writing (before a long run); nil when it looks
    /// writable. The write itself may still fail (a full disk), and says so then.
    static func unwritable(_ path: String) -> String? {
        // `-` is standard output.
        guard path != "-" else { return nil }
        var info = stat()
        if stat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { return reason(EISDIR) }
            return access(path, W_OK) == 0 ? nil : reason(errno)
        }
        // A path through a file (ENOTDIR) or a link loop says so, as the write would; a new name ending in `/` is a
        // directory, which no report is written to.
        let code = errno
        guard code == ENOENT else { return reason(code) }
        guard !path.hasSuffix("/") else { return reason(EISDIR) }
        // A new file: its directory must exist and take it.
        let parent = PathText.parent(path)
        let directory = parent.isEmpty ? "." : parent
        guard stat(directory, &info) == 0 else { return reason(errno) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return reason(ENOTDIR) }
        return access(directory, W_OK | X_OK) == 0 ? nil : reason(errno)
    }

    /// Writes `data` to `path`; nil when it worked, else why not.
    static func write(_ data: Data, to path: String) -> String? {
        var info = stat()
        let exists = stat(path, &info) == 0
        // Ctrl-C, a cancelled CI job (SIGTERM) or a closed terminal while a regular file is written in place would
        // leave it cut off, its previous contents gone: those signals are ignored until it is written (or restored),
        // and the run then finishes without acting on them. A FIFO or a device has nothing to keep, and a write to
        // one that blocks stays interruptible.
        let interrupts = exists && (info.st_mode & S_IFMT) != S_IFREG ? [] : [SIGINT, SIGTERM, SIGHUP]
        let dispositions = interrupts.map { signal($0, SIG_IGN) }
        defer { for (sig, disposition) in zip(interrupts, dispositions) { _ = signal(sig, disposition) } }
        // A file too large to keep a copy of is emptied first (written through): never a mix of old and new.
        var isRegular = exists && (info.st_mode & S_IFMT) == S_IFREG && Int(info.st_size) <= maxKept
        // Opened non-blocking, so that a FIFO no process reads is an error rather than a wait that never ends; the
        // writes then block as usual, so a slow reader gets the whole report. A regular file is opened for reading
        // too, to keep what it holds; one this run may write but not read is written through.
        var fd = isRegular ? open(path, O_RDWR | O_CLOEXEC, 0o644) : -1
        if fd < 0 {
            isRegular = false
            fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0o644)
        }
        // ENXIO is a FIFO with no reader when the path is a FIFO; on a device (`/dev/tty` with no terminal) it is the
        // device that is missing.
        guard fd >= 0 else {
            let code = errno
            var target = stat()
            let isFIFO = stat(path, &target) == 0 && (target.st_mode & S_IFMT) == S_IFIFO
            return code == ENXIO && isFIFO ? "a FIFO that no process reads" : reason(code)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        // What the file held, to write back if the new report cannot be written in full.
        var previous: Data?
        if isRegular {
            previous = try? handle.readToEnd() ?? Data()
            if previous == nil { return "cannot read it to keep it: \(reason(errno))" }
        }
        do {
            if isRegular {
                try handle.seek(toOffset: 0)
                try handle.write(contentsOf: data)
                try handle.truncate(atOffset: UInt64(data.count))
            } else {
                try handle.write(contentsOf: data)
            }
            try handle.synchronize()
            return nil
        } catch {
            // The system's reason (Foundation's error on Linux names only a domain and a number).
            let problem = reason(errno)
            if let previous {
                // Back to what it held: these bytes fit where they were before.
                _ = try? handle.seek(toOffset: 0)
                _ = try? handle.write(contentsOf: previous)
                _ = try? handle.truncate(atOffset: UInt64(previous.count))
                _ = try? handle.synchronize()
            } else if !exists, let resolved = realpath(path, nil) {
                // A file this run created and could not fill is removed, not left cut off.
                unlink(resolved)
                free(resolved)
            }
            return problem
        }
    }
}
