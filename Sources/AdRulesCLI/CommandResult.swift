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
    /// Where the messages stood among the report's lines as the command wrote them, in order; empty: the report, then
    /// the messages. A terminal that shows both streams then shows each message where it belongs (`adrules test`: a
    /// broken policy's lint summary before its FAIL line, and the `N passed, N failed` line last).
    public var order: [Interleaving] = []

    /// A point of ``order``: `stderr`'s first `messages` bytes (UTF-8) came after `stdout`'s first `report` bytes and
    /// before the rest.
    public struct Interleaving: Sendable, Equatable {
        /// Bytes of `stdout` written before the messages.
        public var report: Int
        /// Bytes of `stderr` written by then.
        public var messages: Int

        /// A point after `report` bytes of the report and `messages` bytes of the messages.
        public init(report: Int, messages: Int) {
            self.report = report
            self.messages = messages
        }
    }

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
