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

    /// Creates a result of the given output and exit code.
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
