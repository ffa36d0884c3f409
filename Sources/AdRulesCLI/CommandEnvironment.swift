import Foundation

/// The environment a command runs in: variables and whether stdout is a terminal.
public struct CommandEnvironment: Sendable {
    /// Environment variables.
    public var variables: [String: String]
    /// Whether standard output is a terminal (for `--color auto`).
    public var stdoutIsTerminal: Bool
    /// Whether standard error is a terminal (for `--color auto` of findings printed there, as `impact` prints them).
    public var stderrIsTerminal: Bool

    /// Creates an environment: no variables and no terminal unless given.
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
