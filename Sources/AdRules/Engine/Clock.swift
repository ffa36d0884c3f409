import Foundation

/// Where the engine reads the time: injectable so that tests and simulations control it.
///
/// The engine reads it under its lock (events are then applied in the order of their times), so `now()` must not call
/// the engine: that would wait on the lock it holds.
public protocol AdClock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The system clock.
public struct SystemClock: AdClock {
    /// Creates a system clock.
    public init() {}
    /// The system's time.
    public func now() -> Date { Date() }
}

/// A clock that moves only when told to (tests, scenarios, simulations).
public final class ManualClock: AdClock, Sendable {
    private let current: Guarded<Date>

    /// Creates a clock that reads `start`.
    public init(_ start: Date) { current = Guarded(start) }

    /// The time the clock started at, as set or moved since.
    public func now() -> Date { current.withLock { $0 } }

    /// Moves the clock by a number of seconds (negative: set back).
    public func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }

    /// Sets the clock.
    public func set(_ date: Date) { current.withLock { $0 = date } }
}
