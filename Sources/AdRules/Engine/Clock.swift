import Foundation

/// Where the engine reads the time: injectable so that tests and simulations control it.
public protocol AdClock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The system clock.
public struct SystemClock: AdClock {
    /// Creates a system clock.
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that moves only when told to (tests, scenarios, simulations).
public final class ManualClock: AdClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    /// Creates a clock that reads `start`.
    public init(_ start: Date) { current = start }

    public func now() -> Date { lock.withLock { current } }

    /// Moves the clock by a number of seconds (negative: set back).
    public func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }

    /// Sets the clock.
    public func set(_ date: Date) { lock.withLock { current = date } }
}
