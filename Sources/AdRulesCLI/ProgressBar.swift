import Foundation

/// A progress bar on standard error, redrawn in place; used only when standard error is a terminal.
final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private let started = Date()
    /// The most users drawn as done: threads count their users apart and may draw out of order, and a bar never goes
    /// back (it drew 100%, then 99%).
    private var shown = 0

    func draw(_ done: Int, of total: Int) {
        lock.withLock {
            guard done >= shown else { return }
            shown = done
            let width = 30
            let filled = total > 0 ? done * width / total : width
            let percent = total > 0 ? done * 100 / total : 100
            let elapsed = Date().timeIntervalSince(started)
            let line = "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(percent)% \(done)/\(total) users, \(Int(elapsed)) s"
            // Best effort: a terminal that went away must not stop the run.
            _ = StandardStreams.write(line, to: 2)
        }
    }

    func finish() {
        lock.withLock { _ = StandardStreams.write("\r\u{1B}[K", to: 2) }
    }
}
