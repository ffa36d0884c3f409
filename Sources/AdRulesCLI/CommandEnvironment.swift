import Foundation

/// The environment a command runs in: variables and whether stdout is a terminal.
public struct CommandEnvironment: Sendable {
    /// Environment variables.
    public var variables: [String: String]
    /// Whether standard output is a terminal (for `--color auto`).
    public var stdoutIsTerminal: Bool
    /// Whether standard error is a terminal (for `--color auto` of findings printed there, as `impact` prints them).
    public var stderrIsTerminal: Bool
    /// The width in columns of the terminal on standard error, when known (for `impact`'s progress bar).
    public var stderrColumns: Int?

    /// Creates an environment: no variables and no terminal unless given.
    public init(variables: [String: String] = [:], stdoutIsTerminal: Bool = false, stderrIsTerminal: Bool = false, stderrColumns: Int? = nil) {
        self.variables = variables
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        self.stderrColumns = stderrColumns
    }

    /// The real process environment.
    public static var process: CommandEnvironment {
        let variables = ProcessInfo.processInfo.environment
        let stderrIsTerminal = isatty(2) == 1
        return CommandEnvironment(
            variables: variables, stdoutIsTerminal: isatty(1) == 1, stderrIsTerminal: stderrIsTerminal,
            stderrColumns: stderrIsTerminal ? terminalColumns(of: 2) ?? columns(in: variables) : nil)
    }

    /// The width the terminal on `fd` reports, if it reports one.
    static func terminalColumns(of fd: Int32) -> Int? {
        var size = winsize()
        let status = withUnsafeMutablePointer(to: &size) { ioctl(fd, UInt(TIOCGWINSZ), $0) }
        return status == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
    }

    /// The width `COLUMNS` gives, when it is a positive whole number (a terminal that reports none).
    static func columns(in variables: [String: String]) -> Int? {
        guard let text = variables["COLUMNS"], let columns = Int(text), columns > 0 else { return nil }
        return columns
    }
}
