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

    /// Newfoundland fell back at 00:01 until 2011: 00:00-00:01 of the 7th, then 23:01 of the 6th again. Days still
    /// follow one another with no gap and no overlap (a day kept from an earlier ask is the day of every time inside
    /// it), and a day ends after the time it holds (a daily cap never clears in the past): the 6th runs from its
    /// midnight to the midnight after the fall back, the minute of the 7th inside it. A minute at a time over the
    /// fall backs of 2009 and 2010, and the spring forward of 2010 (00:01 to 01:01).
    @Test(arguments: ["2009-10-31T00:00:00Z", "2010-11-06T00:00:00Z", "2010-03-13T00:00:00Z"])
    func daysFollowOneAnotherWhereAZoneFellBackAcrossMidnight(_ from: String) throws {
        let zone = try #require(TimeZone(identifier: "America/St_Johns"))
        var ms = try Timestamps.read(from).get()
        var previous: LocalDay?
        for _ in 0..<(3 * 24 * 60) {
            let day = LocalDay.containing(ms, in: zone)
            #expect(day.start <= ms && ms < day.end, "\(ms): \(day)")
            #expect(day.offsetFrom <= ms && ms < day.offsetUntil, "\(ms): \(day)")
            if let previous, previous.start != day.start {
                #expect(day.start == previous.end, "\(ms): \(previous) then \(day)")
            }
            if previous?.start != day.start { previous = day }
            ms += 60_000
        }
        if from == "2010-11-06T00:00:00Z" {
            let day = LocalDay.containing(try Timestamps.read("2010-11-07T02:30:30Z").get(), in: zone)
            let start = try Timestamps.read("2010-11-06T02:30:00Z").get(), end = try Timestamps.read("2010-11-07T03:30:00Z").get()
            #expect(day.start == start && day.end == end, "\(day)")
        }
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
