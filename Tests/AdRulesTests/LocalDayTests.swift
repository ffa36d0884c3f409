@testable import AdRules
import Foundation
import Testing

/// The local day of a time is found from the zone's offset when the offset holds all day, else asked of the
/// calendar (``LocalDay/containing(_:in:)``). Both must give the same day, everywhere and on every kind of day.
@Suite("local days")
struct LocalDayTests {
    /// Zones with DST at midnight (Santiago, Havana, Beirut), at other hours, half and quarter hours, a 30-minute
    /// DST (Lord Howe), a zone that skipped a day (Apia, 2011-12-30), and zones that changed their standard offset.
    static let zones = [
        "UTC", "America/New_York", "America/Santiago", "America/Havana", "Asia/Beirut", "Europe/London", "Europe/Berlin",
        "Australia/Lord_Howe", "Asia/Kolkata", "Asia/Kathmandu", "Pacific/Chatham", "Pacific/Apia", "Asia/Tokyo",
        "America/Sao_Paulo", "Europe/Moscow", "Africa/Casablanca", "Pacific/Kiritimati", "America/St_Johns", "Asia/Pyongyang",
    ]

    @Test(arguments: zones)
    func theOffsetAndTheCalendarAgree(_ identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        // Every 7 hours 13 minutes over 2010-2027: every hour of the day, on every kind of day, including each
        // transition's day (a step shorter than a day never skips one).
        var ms: Int64 = 1_262_304_000_000
        var checked = 0
        while ms < 1_830_297_600_000 {
            let fast = LocalDay.containing(ms, in: zone)
            let calendar = LocalDay.calendarDay(ms, in: zone)
            #expect(fast.start == calendar.start && fast.end == calendar.end, "\(identifier) at \(ms): \(fast) vs \(calendar)")
            #expect(fast.offset == calendar.offset, "\(identifier) offset at \(ms)")
            #expect(fast.offsetFrom <= ms && ms < fast.offsetUntil, "\(identifier): the offset is given for a span holding \(ms)")
            if fast.start != calendar.start || fast.end != calendar.end { return }
            ms += 26_000_000
            checked += 1
        }
        #expect(checked > 20_000)
    }

    @Test func aDayWithAChangeOfOffsetIsAskedOfTheCalendar() throws {
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        // 2026-03-08, 12:00 local: a 23-hour day.
        let day = LocalDay.containing(1_772_989_200_000, in: zone)
        #expect(day.end - day.start == 23 * 3_600_000)
        let ordinary = LocalDay.containing(1_773_075_600_000, in: zone)
        #expect(ordinary.end - ordinary.start == 24 * 3_600_000)
        #expect(ordinary.start == day.end)
    }
}
