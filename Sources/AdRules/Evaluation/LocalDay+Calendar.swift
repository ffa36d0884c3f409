import Foundation

extension LocalDay {
    /// Longer than any calendar day in any zone (DST days are 23 or 25 hours; a zone moving across the date
    /// line repeats a day): a show older than this is never from the local day of now.
    static let longest: Int64 = 72 * 3_600_000

    /// The calendar day containing a time, in a zone (23 or 25 hours long on DST days), with the zone's
    /// offset at that time and until it next changes.
    ///
    /// On a day with no change of offset, the day is the 24 hours from local midnight, found with the offset
    /// alone; a day with a change (DST, a zone changing its rules) is asked of the Gregorian calendar.
    static func containing(_ ms: Int64, in zone: TimeZone) -> LocalDay {
        let offset = offset(at: ms, in: zone)
        let start = midnight(ofLocal: ms + offset) - offset
        let end = start + 86_400_000
        // The first change of offset from a day before this midnight: none up to a day after the end means that the
        // offset at `ms` holds from midnight to midnight. (A change at the end moves the next midnight; a change
        // shortly after a midnight, such as Newfoundland's at 00:01 until 2011, can bring back the date before it.)
        let change = zone.nextDaylightSavingTimeTransition(after: Milliseconds.date(start - 86_400_000)).map(Milliseconds.from)
        guard let change, change <= end + 86_400_000 else {
            return LocalDay(zone: zone.identifier, start: start, end: end, offset: offset, offsetFrom: start, offsetUntil: end)
        }
        return calendarDay(ms, in: zone)
    }

    /// ``containing(_:in:)`` asked of the Gregorian calendar, for any day.
    ///
    /// The days it gives follow one another with no gap and no overlap, so that a day kept from an earlier ask is the
    /// day of every time inside it, and each ends after the times it holds. The calendar alone does not do that where a
    /// zone fell back across midnight (Newfoundland at 00:01 until 2011: 00:00-00:01 of the 7th, then 23:01 of the 6th
    /// again): it gives the hour of the 6th that comes back a day that ended before it. Here the 6th runs from its
    /// midnight to the midnight after the fall back, the minute of the 7th inside it, and the 7th from that midnight.
    static func calendarDay(_ ms: Int64, in zone: TimeZone) -> LocalDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let date = Milliseconds.date(ms)
        var day: LocalDay
        if let interval = calendar.dateInterval(of: .day, for: date) {
            day = LocalDay(zone: zone.identifier, start: Milliseconds.from(interval.start), end: Milliseconds.from(interval.end))
            if let fallBack = fallBackToTheDateBefore(after: day.start, in: zone), fallBack < day.end {
                // The calendar's day holds a fall back to the date before: up to the midnight after it, the day before
                // goes on; from there, this date starts.
                let midnight = midnight(after: fallBack, in: zone)
                if ms < midnight {
                    day.end = midnight
                    if let before = calendar.dateInterval(of: .day, for: Milliseconds.date(day.start - 1)) { day.start = Milliseconds.from(before.start) }
                } else {
                    day.start = midnight
                }
            } else if let fallBack = fallBackToTheDateBefore(after: day.end - 1, in: zone), fallBack < day.end + 86_400_000 {
                // This date comes back after its end (or has come back, and the calendar gave the day it first had).
                day.end = midnight(after: fallBack, in: zone)
            }
        } else {
            let start = midnight(ofLocal: ms)
            day = LocalDay(zone: zone.identifier, start: start, end: start + 86_400_000)
        }
        day.offset = offset(at: ms, in: zone)
        day.offsetFrom = ms
        let change = zone.nextDaylightSavingTimeTransition(after: date).map(Milliseconds.from) ?? day.end
        day.offsetUntil = min(day.end, change)
        return day
    }

    /// The zone's next change of offset after `ms` when it turns the local date back (Newfoundland's 00:01 fall
    /// back), else nil.
    private static func fallBackToTheDateBefore(after ms: Int64, in zone: TimeZone) -> Int64? {
        guard let change = zone.nextDaylightSavingTimeTransition(after: Milliseconds.date(ms)).map(Milliseconds.from) else { return nil }
        func localDate(_ ms: Int64) -> Int64 { midnight(ofLocal: ms + offset(at: ms, in: zone)) }
        return localDate(change) < localDate(change - 1) ? change : nil
    }

    /// The first local midnight after `ms`, with the offset that holds at `ms`.
    private static func midnight(after ms: Int64, in zone: TimeZone) -> Int64 {
        let offset = offset(at: ms, in: zone)
        return midnight(ofLocal: ms + offset) + 86_400_000 - offset
    }

    /// The midnight that starts the day of a local time (ms since 1970 read on the local clock), on that clock.
    private static func midnight(ofLocal local: Int64) -> Int64 { local - ((local % 86_400_000) + 86_400_000) % 86_400_000 }

    /// The zone's offset from UTC at `ms`, in ms.
    private static func offset(at ms: Int64, in zone: TimeZone) -> Int64 { Int64(zone.secondsFromGMT(for: Milliseconds.date(ms))) * 1000 }
}

extension Facts {
    /// Caches the calendar day of `now`, so that daily caps cost no calendar work until midnight.
    public mutating func prepareDay(at now: Int64, policy: Policy, deviceTimeZone: TimeZone) {
        let now = Milliseconds.clamped(now)
        let zone: TimeZone
        if case .named(let named) = policy.timeZone { zone = named } else { zone = deviceTimeZone }
        if let day, day.contains(now, zone: zone.identifier) { return }
        day = LocalDay.containing(now, in: zone)
    }
}

extension TimeZone {
    /// The local day containing `ms` as daily caps count days in this zone: its start and end, in ms since 1970.
    ///
    /// What a tool that groups times by day uses (`simulate`'s shows per day, the impact preview's user-days), so that
    /// its days are the caps' days: where a zone fell back across midnight (Newfoundland at 00:01 until 2011), the
    /// minute of the next date that came first belongs to the day before (``LocalDay/calendarDay(_:in:)``), which
    /// Foundation's calendar alone does not say.
    package func capDay(containing ms: Int64) -> (start: Int64, end: Int64) {
        let day = LocalDay.containing(Milliseconds.clamped(ms), in: self)
        return (day.start, day.end)
    }
}
