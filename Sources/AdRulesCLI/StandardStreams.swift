import AdRules
import Foundation

/// Writing the report and the messages to standard output and error, whatever those are.
public enum StandardStreams {
    /// Writes `text` to the file descriptor in full, in chunks: a partial write goes on from where it stopped, and a
    /// descriptor left non-blocking by the parent (EAGAIN) is waited for, so a slow reader still gets everything.
    /// - Returns: nil once written, else the `errno` that stopped it.
    public static func write(_ text: String, to fd: Int32) -> Int32? {
        write(Array(text.utf8), to: fd)
    }

    /// Writes bytes as ``write(_:to:)`` writes a text.
    static func write(_ bytes: [UInt8], to fd: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let chunk = Array(bytes[offset..<min(bytes.count, offset + 65_536)])
            let written = Foundation.write(fd, chunk, chunk.count)
            if written >= 0 {
                offset += written
                continue
            }
            switch errno {
            case EINTR:
                continue
            case EAGAIN:
                var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
            case let code:
                return code
            }
        }
        return nil
    }

    /// Delivers a command's result: its report to standard output, its messages to standard error.
    /// - Returns: the exit code. A standard output that cannot be written (a full disk, a file-size limit, a closed
    ///   descriptor) loses the report: exit 3, said on standard error. A reader that went away (`adrules … | head`,
    ///   EPIPE) chose to stop reading: the run ends quietly with its own code. Standard error that cannot be written
    ///   loses only messages, and the code stays, unless it carried the report.
    public static func deliver(_ result: CommandResult) -> Int32 {
        var exitCode = result.exitCode
        // Streams end in CI logs, which read `##[…]` anywhere in a line as a command: text from a rule file, a model
        // or a scenario must not add annotations (texts quoted in messages and JSON strings have it escaped already).
        var stderr = result.stderr
        if let code = write(ControlCharacters.defusingLogCommands(Array(result.stdout.utf8)), to: 1), code != EPIPE {
            stderr += "error: cannot write standard output: \(OutputFile.reason(code))\n"
            exitCode = ExitCode.failure
        }
        // Messages that cannot be written are lost; a report sent to standard error (`--output /dev/stderr`) is an
        // I/O failure, as on standard output.
        if let code = write(ControlCharacters.defusingLogCommands(Array(stderr.utf8)), to: 2), code != EPIPE, result.reportOnStderr {
            exitCode = ExitCode.failure
        }
        return exitCode
    }
}
