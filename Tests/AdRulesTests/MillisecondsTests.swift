@testable import AdRules
import Foundation
import Testing

/// A date to milliseconds as `rounded()` rounds (to the nearest, halves away from zero), in integers.
@Suite("Milliseconds")
struct MillisecondsTests {
    /// What the integer rounding replaces: the same for every date.
    static func reference(_ date: Date) -> Int64 {
        let ms = (date.timeIntervalSince1970 * 1000).rounded()
        guard !ms.isNaN else { return 0 }
        if ms >= Double(Milliseconds.limit) { return Milliseconds.limit }
        if ms <= -Double(Milliseconds.limit) { return -Milliseconds.limit }
        return Int64(ms)
    }

    /// Exact halves of a millisecond round away from zero. A `Date` keeps its time from 2001, so a time since 1970 comes
    /// back exactly only where it is a binary fraction: 0.0625 s is 62.5 ms exactly (0.0005 s comes back as 0.49995 ms,
    /// no half at all). Near a half but not on it rounds to the nearest.
    @Test func halvesRoundAwayFromZero() {
        let cases: [(Double, Int64)] = [
            (0.0625, 63), (-0.0625, -63), (0.1875, 188), (-0.3125, -313), (1.0625, 1063),
            (0.0004, 0), (-0.0004, 0), (0.0006, 1), (-0.0006, -1),
        ]
        for (seconds, expected) in cases {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(Milliseconds.from(date) == expected, "\(seconds)")
            #expect(Milliseconds.from(date) == Self.reference(date), "\(seconds)")
        }
    }

    @Test func agreesWithRoundedEverywhere() {
        var generator = SystemRandomNumberGenerator()
        var dates: [Date] = [
            .distantPast, .distantFuture, Date(timeIntervalSince1970: .nan), Date(timeIntervalSince1970: .infinity),
            Date(timeIntervalSince1970: -.infinity), Date(timeIntervalSince1970: 1e300), Date(timeIntervalSince1970: -1e300),
            Date(timeIntervalSince1970: Double(Milliseconds.limit) / 1000), Date(timeIntervalSince1970: -Double(Milliseconds.limit) / 1000),
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.0),
        ]
        for _ in 0..<20_000 {
            // Whole and half milliseconds, and anything else, near 1970 and far from it.
            let ms = Double(Int64.random(in: -1_000_000_000_000_000...1_000_000_000_000_000, using: &generator))
            dates.append(Date(timeIntervalSince1970: ms / 1000))
            dates.append(Date(timeIntervalSince1970: (ms + 0.5) / 1000))
            dates.append(Date(timeIntervalSince1970: Double.random(in: -1e12...1e12, using: &generator)))
            dates.append(Date(timeIntervalSince1970: Double.random(in: -2...2, using: &generator)))
        }
        for date in dates {
            #expect(Milliseconds.from(date) == Self.reference(date), "\(date.timeIntervalSince1970)")
        }
    }
}
