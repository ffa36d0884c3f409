import Foundation

/// How far a long `impact` run has got, on standard error: a bar redrawn in place on a terminal; elsewhere (a CI log, a
/// file) a plain line every ``lineInterval`` seconds, so that a run of minutes is not silent until it ends, and a run
/// shorter than that prints nothing.
final class ProgressBar: @unchecked Sendable {
    /// The seconds between two lines when standard error is not a terminal.
    static let lineInterval: TimeInterval = 30

    private let lock = NSLock()
    private let isTerminal: Bool
    /// The terminal's width in columns, when known: a line as wide wraps, and each redraw would then start a new line.
    private let columns: Int?
    private let clock: @Sendable () -> Date
    private let write: @Sendable (String) -> Void
    private let started: Date
    /// The most users drawn as done: threads count their users apart and may draw out of order, and a bar never goes
    /// back (it drew 100%, then 99%).
    private var shown = 0
    /// When not on a terminal: the seconds after the start at which the next line is due.
    private var nextLine = ProgressBar.lineInterval
    /// Whether the terminal clears a line's rest on `ESC [K`; a dumb one (`TERM=dumb`, an editor's shell buffer) shows
    /// the escape, so a shorter line is padded with spaces over the last one's rest instead.
    private let clearsLines: Bool
    /// The width of the line drawn last, which a dumb terminal's next line covers.
    private var drawnWidth = 0

    /// - Parameters:
    ///   - isTerminal: whether standard error is a terminal (a bar) or not (a line now and then).
    ///   - columns: the terminal's width, when known (80 is assumed otherwise): the bar shrinks to fit, and on a very
    ///     narrow terminal gives way to the figures alone, cut to fit.
    ///   - clearsLines: false on a dumb terminal (`TERM=dumb`), which shows escape sequences rather than acting on them.
    ///   - clock: the time (a test's own).
    ///   - write: where the text goes (a test's own); standard error by default, best effort: a terminal or pipe that
    ///     went away must not stop the run.
    init(
        isTerminal: Bool, columns: Int? = nil, clearsLines: Bool = true, clock: @escaping @Sendable () -> Date = Date.init,
        write: @escaping @Sendable (String) -> Void = { _ = StandardStreams.write($0, to: 2) }
    ) {
        self.isTerminal = isTerminal
        self.columns = columns
        self.clearsLines = clearsLines
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
            // Cleared to the end of the line after: a shorter line leaves nothing of the last one behind.
            let line = Self.line(done: done, of: total, percent: percent, seconds: Int(elapsed), columns: columns ?? 80)
            write("\r" + line + clearing(after: line.count))
        }
    }

    /// The bar's line, at most `columns - 1` wide (a line that fills the last column wraps on some terminals): a bar of
    /// 30 places and the figures, the bar shorter when that does not fit, the figures alone when a bar of 10 does not
    /// (as many whole figures as fit: the share done, then the users, then the time; none on a terminal too narrow for the share). The bar's width is worked out for the run's last figures (100%, every user done), so it keeps its width as
    /// the figures grow.
    static func line(done: Int, of total: Int, percent: Int, seconds: Int, columns: Int) -> String {
        let share = "\(percent)%", users = "\(share) \(done)/\(total) users"
        let figures = "\(users), \(seconds) s"
        let widest = "100% \(total)/\(total) users, \(seconds) s"
        let room = max(columns - 1, 1)
        // "[", the bar, "] " and the figures.
        let width = min(30, room - 3 - max(figures.count, widest.count))
        // Cut to whole figures: a figure cut short reads as another (10% and 100% both as 1).
        guard width >= 10 else { return [figures, users, share].first { $0.count <= room } ?? "" }
        let filled = total > 0 ? done * width / total : width
        return "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] " + figures
    }

    /// Clears the bar; lines stay.
    func finish() {
        guard isTerminal else { return }
        lock.withLock { write("\r" + clearing(after: 0) + (clearsLines ? "" : "\r")) }
    }

    /// What clears the rest of a line of `width` drawn over the last one: `ESC [K`, or on a dumb terminal spaces over
    /// what the last line had past it.
    private func clearing(after width: Int) -> String {
        defer { drawnWidth = width }
        return clearsLines ? "\u{1B}[K" : String(repeating: " ", count: max(0, drawnWidth - width))
    }
}
