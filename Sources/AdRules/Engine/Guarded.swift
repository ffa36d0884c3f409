import Foundation

#if canImport(Synchronization) && os(Linux) && !ADRULES_NSLOCK
import Synchronization

/// A value reached only under its lock: the engine's state and the manual clock's time.
///
/// On Linux it is the standard library's `Mutex`, a futex taken with one atomic compare-and-swap when no other thread
/// holds it. The value lives inside the lock, so reaching it needs no dynamic exclusivity check either: the lock is
/// what makes the access exclusive.
///
/// ThreadSanitizer does not see the hand-over of a contended `Mutex` (the kernel passes the futex to the waiting
/// thread), and reports the next access as a race. The ThreadSanitizer run of `.ci/run` therefore builds with
/// `-D ADRULES_NSLOCK`, the `NSLock` form below, which is the one Apple platforms use: the code under the lock is
/// the same.
final class Guarded<State: Sendable>: Sendable {
    private let mutex: Mutex<State>

    init(_ state: State) { mutex = Mutex(state) }

    /// Runs `body` on the value with the lock held.
    func withLock<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
        mutex.withLock { state in body(&state) }
    }
}
#else

/// A value reached only under its lock: the engine's state and the manual clock's time.
///
/// On Apple platforms it is an `NSLock`; the standard library's `Mutex` needs iOS 18 and macOS 15, and the package
/// supports iOS 16 and macOS 13. Reaching `state`, a stored property of a class, costs a dynamic exclusivity check.
final class Guarded<State: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    init(_ state: State) { self.state = state }

    /// Runs `body` on the value with the lock held.
    func withLock<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }
}
#endif
