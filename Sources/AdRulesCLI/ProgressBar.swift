import Foundation

/// How far a long `impact` run has got, on standard error: a bar redrawn in place on a terminal; elsewhere (a CI log, a
/// file) a plain line every ``lineInterval`` seconds, so that a run of minutes is not silent until it ends, and a run
/// shorter than that prints nothing.
final class ProgressBar: @unchecked Sendable {
    /// The seconds between two lines when standard error is not a terminal.
    static let lineInterval: TimeInterval = 30

    private let lock = NSLock()
    private let isTerminal: Bool
    private let clock: @Sendable () -> Date
    private let write: @Sendable (String) -> Void
    private let started: Date
    /// The most users drawn as done: threads count their users apart and may draw out of order, and a bar never goes
    /// back (it drew 100%, then 99%).
    private var shown = 0
    /// When not on a terminal: the seconds after the start at which the next line is due.
    private var nextLine = ProgressBar.lineInterval

    /// - Parameters:
    ///   - isTerminal: whether standard error is a terminal (a bar) or not (a line now and then).
    ///   - clock: the time (a test's own).
    ///   - write: where the text goes (a test's own); standard error by default, best effort: a terminal or pipe that
    ///     went away must not stop the run.
    init(
        isTerminal: Bool, clock: @escaping @Sendable () -> Date = Date.init,
        write: @escaping @Sendable (String) -> Void = { _ = StandardStreams.write($0, to: 2) }
    ) {
        self.isTerminal = isTerminal
        self.clock = clock
        self.write = write
        started = clock()
    }

    func draw(_ done: Int, of total: Int) {
        lock.withLock {
            guard done >= shown else { return }
            shown = done
            let percent = total > 0 ? done * 100 / total : 100
            let elapsed = clock().timeIntervalSince(started)
            guard isTerminal else {
                guard elapsed >= nextLine else { return }
                // The next line is due a whole interval after this one, however late this one came.
                nextLine = (elapsed / Self.lineInterval).rounded(.down) * Self.lineInterval + Self.lineInterval
                write("adrules impact: \(percent)% (\(done)/\(total) users) after \(Int(elapsed)) s\n")
                return
            }
            let width = 30
            let filled = total > 0 ? done * width / total : width
            write("\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(percent)% \(done)/\(total) users, \(Int(elapsed)) s")
        }
    }

    /// Clears the bar; lines stay.
    func finish() {
        guard isTerminal else { return }
        lock.withLock { write("\r\u{1B}[K") }
    }
}
