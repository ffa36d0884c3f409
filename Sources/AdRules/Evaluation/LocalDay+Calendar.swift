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
        let date = Milliseconds.date(ms)
        let offset = Int64(zone.secondsFromGMT(for: date)) * 1000
        let local = ms + offset
        let start = local - ((local % 86_400_000) + 86_400_000) % 86_400_000 - offset
        let end = start + 86_400_000
        // The first change of offset from a day before this midnight: none up to the end means that the offset at
        // `ms` holds from midnight to midnight. (A change at the end moves the next midnight; a change shortly
        // before this midnight, such as Newfoundland's at 00:01 until 2011, can make midnight come twice.)
        let change = zone.nextDaylightSavingTimeTransition(after: Milliseconds.date(start - 86_400_000)).map(Milliseconds.from)
        guard let change, change <= end else {
            return LocalDay(zone: zone.identifier, start: start, end: end, offset: offset, offsetFrom: start, offsetUntil: end)
        }
        return calendarDay(ms, in: zone)
    }

    /// ``containing(_:in:)`` asked of the Gregorian calendar, for any day.
    static func calendarDay(_ ms: Int64, in zone: TimeZone) -> LocalDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let date = Milliseconds.date(ms)
        var day: LocalDay
        if let interval = calendar.dateInterval(of: .day, for: date) {
            day = LocalDay(zone: zone.identifier, start: Milliseconds.from(interval.start), end: Milliseconds.from(interval.end))
        } else {
            let start = ms - ((ms % 86_400_000) + 86_400_000) % 86_400_000
            day = LocalDay(zone: zone.identifier, start: start, end: start + 86_400_000)
        }
        day.offset = Int64(zone.secondsFromGMT(for: date)) * 1000
        day.offsetFrom = ms
        let change = zone.nextDaylightSavingTimeTransition(after: date).map(Milliseconds.from) ?? day.end
        day.offsetUntil = min(day.end, change)
        return day
    }
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
