import AdRules
import Foundation

/// Writing the report and the messages to standard output and error, whatever those are.
public enum StandardStreams {
    /// The standard descriptors (0, 1, 2) that were closed when the process started (`adrules … >&-`). Each is opened
    /// on /dev/null the first time this is read, which `main` does before anything else: otherwise the first file, pipe
    /// or event descriptor the run opens takes its number, and the report is written into that (a `write` to an epoll
    /// descriptor failed with "invalid argument"; to a file opened for writing, it would land in the file).
    public static let closedAtStart: Set<Int32> = {
        var closed: Set<Int32> = []
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            // The lowest free number is taken: this one, as the lower ones are open (or were just opened here).
            let opened = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
            if opened >= 0 && opened != fd {
                _ = dup2(opened, fd)
                _ = close(opened)
            }
            closed.insert(fd)
        }
        return closed
    }()

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
        // Each part is defused on its own: the parts end at line ends, and a command is read within a line.
        let report = Array(result.stdout.utf8), messages = Array(result.stderr.utf8)
        // A descriptor closed at the start holds /dev/null (``closedAtStart``): writing there would lose the report unsaid.
        var stdoutCode: Int32? = report.isEmpty ? nil : closedAtStart.contains(1) ? EBADF : nil
        var stderrCode: Int32? = messages.isEmpty ? nil : closedAtStart.contains(2) ? EBADF : nil
        // The report and the messages in the order the command wrote them (``CommandResult/order``), then the rest.
        var reportAt = 0, messagesAt = 0
        for point in result.order + [CommandResult.Interleaving(report: report.count, messages: messages.count)] {
            let reportEnd = min(max(point.report, reportAt), report.count)
            if stdoutCode == nil, reportEnd > reportAt {
                stdoutCode = write(ControlCharacters.defusingLogCommands(Array(report[reportAt..<reportEnd])), to: 1)
            }
            reportAt = reportEnd
            let messagesEnd = min(max(point.messages, messagesAt), messages.count)
            if stderrCode == nil, messagesEnd > messagesAt {
                stderrCode = write(ControlCharacters.defusingLogCommands(Array(messages[messagesAt..<messagesEnd])), to: 2)
            }
            messagesAt = messagesEnd
        }
        if let code = stdoutCode, code != EPIPE {
            if stderrCode == nil {
                stderrCode = closedAtStart.contains(2) ? EBADF : write("error: cannot write standard output: \(OutputFile.reason(code))\n", to: 2)
            }
            exitCode = ExitCode.failure
        }
        // Messages that cannot be written are lost; a report sent to standard error (`--output /dev/stderr`) is an
        // I/O failure, as on standard output.
        if let code = stderrCode, code != EPIPE, result.reportOnStderr {
            exitCode = ExitCode.failure
        }
        return exitCode
    }
}
