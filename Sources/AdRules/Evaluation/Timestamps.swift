import Foundation

/// RFC 3339 timestamps in UTC, with milliseconds only when they are not zero.
package enum Timestamps {
    /// The last millisecond a timestamp can name (9999-12-31T23:59:59.999Z): RFC 3339 years have four digits.
    package static let latest: Int64 = daysFromCivil(10_000, 1, 1) * 86_400_000 - 1
    /// The first millisecond a timestamp can name (0001-01-01T00:00:00Z).
    package static let earliest: Int64 = daysFromCivil(1, 1, 1) * 86_400_000

    /// Formats a date as `2026-11-29T09:04:00Z`.
    package static func format(_ date: Date) -> String {
        // Through the engine's conversion: a date an app set (a NaN or infinite `nextAllowedAt`) formats, clamped.
        format(milliseconds: Milliseconds.from(date), offsetSeconds: 0)
    }

    /// The calendar date of a time at a UTC offset, `YYYY-MM-DD` (a year past 9999 in full): the local day a daily cap
    /// counts in, which may lie past what a timestamp can write. The offset is taken to the second (a local mean time
    /// of +0:53:28 puts its midnight on the right day), where a timestamp's text keeps whole minutes.
    package static func localDate(milliseconds: Int64, offsetSeconds: Int) -> String {
        let (y, m, d) = civil(fromDays: floorDiv(milliseconds + Int64(offsetSeconds) * 1000, 86_400_000))
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))"
    }

    /// A time as a wall clock in `zone` shows it: at the zone's offset at that instant (``format(milliseconds:offsetSeconds:)``).
    package static func format(milliseconds: Int64, in zone: TimeZone) -> String {
        format(milliseconds: milliseconds, offsetSeconds: zone.secondsFromGMT(for: Milliseconds.date(milliseconds)))
    }

    /// The local date of a time in `zone` (``localDate(milliseconds:offsetSeconds:)``).
    package static func localDate(milliseconds: Int64, in zone: TimeZone) -> String {
        localDate(milliseconds: milliseconds, offsetSeconds: zone.secondsFromGMT(for: Milliseconds.date(milliseconds)))
    }

    /// Formats milliseconds since 1970 at a fixed UTC offset.
    ///
    /// RFC 3339 offsets are whole minutes: an offset with seconds (a zone's local mean time, before 1972) is cut
    /// to its minutes, and the wall clock is shown at that offset, so the text still names the same instant. A time
    /// whose wall clock there falls outside the years 0001-9999 (9999-12-31T23:59Z at +14:00) is shown in UTC, which
    /// four digits of year can still write.
    package static func format(milliseconds: Int64, offsetSeconds: Int) -> String {
        var offsetSeconds = offsetSeconds / 60 * 60
        if !(earliest...latest).contains(milliseconds + Int64(offsetSeconds) * 1000) { offsetSeconds = 0 }
        let local = milliseconds + Int64(offsetSeconds) * 1000
        let days = floorDiv(local, 86_400_000)
        let msOfDay = local - days * 86_400_000
        let (y, m, d) = civil(fromDays: days)
        let h = msOfDay / 3_600_000, mi = (msOfDay / 60_000) % 60, s = (msOfDay / 1000) % 60, frac = msOfDay % 1000
        var text = "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(h, 2)):\(pad(mi, 2)):\(pad(s, 2))"
        if frac != 0 { text += "." + pad(frac, 3) }
        return text + (offsetSeconds == 0 ? "Z" : offset(seconds: offsetSeconds))
    }

    /// A UTC offset as a timestamp writes it, `+09:00` or `-05:30` (whole minutes).
    package static func offset(seconds: Int) -> String {
        let off = abs(seconds)
        return (seconds < 0 ? "-" : "+") + "\(pad(Int64(off / 3600), 2)):\(pad(Int64((off / 60) % 60), 2))"
    }

    /// Parses an RFC 3339 timestamp (`2026-11-29T09:00:00+09:00`, `...Z`, optional fraction).
    package static func parse(_ text: String) -> Date? {
        parseMilliseconds(text).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    /// Parses an RFC 3339 timestamp into milliseconds since 1970: offsets from -23:59 to +23:59, minutes below 60; a
    /// fraction finer than milliseconds is cut to them (a decision read back from json keeps its times).
    package static func parseMilliseconds(_ text: String) -> Int64? {
        try? read(text, finerThanMilliseconds: .cut).get()
    }

    /// What a fraction with a digit past milliseconds that is not 0 does.
    package enum FinerFraction {
        /// It is refused (``Problem/finerThanMilliseconds(_:)``): a scenario's times, which the engine compares.
        case refused
        /// It is cut to milliseconds.
        case cut
    }

    /// Why a text is not a timestamp: not in RFC 3339's shape, or in that shape but naming no instant.
    package enum Problem: Error, Equatable {
        /// Not `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (`t` or a space for the `T`, `z` for the `Z`).
        case shape
        /// Year 0000.
        case yearZero
        /// A month outside 01-12 (the date as written).
        case month(String)
        /// A day the month does not have (the date as written, and the month's days).
        case day(String, days: Int64)
        /// A time of day past 23:59:60 (as written).
        case timeOfDay(String)
        /// A second 60 in a minute other than 23:59 in UTC, the only minute a leap second ends (the time of day as
        /// written): `09:00:60Z` is no time RFC 3339 writes, and was read as 09:01:00.
        case leapSecond(String)
        /// An offset past ±23:59 or with 60 minutes or more (as written).
        case offset(String)
        /// A time outside 0001-9999 in UTC: no timestamp could write it back.
        case years
        /// A fraction with a digit past milliseconds that is not 0 (the fraction as written, from its point): the
        /// engine counts whole milliseconds, and cutting the rest would let two times under a millisecond apart
        /// compare equal (a `min_interval` passing early).
        case finerThanMilliseconds(String)
    }

    /// Reads an RFC 3339 timestamp into milliseconds since 1970, or says why it is not one: the shape is checked
    /// first, then each part's range. The date and the time are joined by `T`, `t` or, as RFC 3339 allows for
    /// readability (section 5.6, note), a space. A leap second (`23:59:60` in UTC, the only minute one ends) is the second
    /// after `:59`, as POSIX time counts it,
    /// and any number of fraction digits is read, as long as those past milliseconds are 0.
    package static func read(_ text: String, finerThanMilliseconds: FinerFraction = .refused) -> Result<Int64, Problem> {
        let chars = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int64? {
            guard from + count <= chars.count else { return nil }
            var value: Int64 = 0
            for c in chars[from..<(from + count)] {
                guard c >= 48, c <= 57 else { return nil }
                value = value * 10 + Int64(c - 48)
            }
            return value
        }
        func written(_ range: Range<Int>) -> String { String(decoding: chars[range], as: UTF8.self) }
        guard chars.count >= 20, chars[4] == 45, chars[7] == 45, chars[10] == 84 || chars[10] == 116 || chars[10] == 32,
            chars[13] == 58, chars[16] == 58,
            let y = number(0, 4), let mo = number(5, 2), let d = number(8, 2), let h = number(11, 2),
            let mi = number(14, 2), let s = number(17, 2)
        else { return .failure(.shape) }
        var index = 19
        var fraction: Int64 = 0
        var finer = false
        if index < chars.count, chars[index] == 46 {
            index += 1
            var digits = 0
            while index < chars.count, chars[index] >= 48, chars[index] <= 57 {
                if digits < 3 { fraction = fraction * 10 + Int64(chars[index] - 48) } else if chars[index] != 48 { finer = true }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return .failure(.shape) }
            if digits < 3 { for _ in digits..<3 { fraction *= 10 } }
        }
        var offset: (hours: Int64, minutes: Int64, sign: Int64)?
        if index + 1 == chars.count, chars[index] == 90 || chars[index] == 122 {
            offset = nil
        } else if index + 6 == chars.count, chars[index] == 43 || chars[index] == 45, chars[index + 3] == 58,
            let oh = number(index + 1, 2), let om = number(index + 4, 2)
        {
            offset = (oh, om, chars[index] == 45 ? -1 : 1)
        } else {
            return .failure(.shape)
        }
        guard y >= 1 else { return .failure(.yearZero) }
        guard (1...12).contains(mo) else { return .failure(.month(written(0..<10))) }
        let days = daysIn(month: mo, year: y)
        guard (1...days).contains(d) else { return .failure(.day(written(0..<10), days: days)) }
        guard h < 24, mi < 60, s <= 60 else { return .failure(.timeOfDay(written(11..<19))) }
        if let offset, offset.hours >= 24 || offset.minutes >= 60 { return .failure(.offset(written(index..<chars.count))) }
        // A leap second ends a day in UTC (RFC 3339 5.7): 23:59:60Z, 08:59:60+09:00; any other minute has no second 60.
        if s == 60 {
            let shift = offset.map { ($0.hours * 60 + $0.minutes) * $0.sign } ?? 0
            guard ((h * 60 + mi - shift) % 1440 + 1440) % 1440 == 1439 else { return .failure(.leapSecond(written(11..<19))) }
        }
        if finer, finerThanMilliseconds == .refused {
            // At most 12 digits of it in the message: the rest says nothing more.
            let fraction = written(19..<index)
            return .failure(.finerThanMilliseconds(fraction.count > 13 ? String(fraction.prefix(13)) + "..." : fraction))
        }
        let shift = offset.map { ($0.hours * 60 + $0.minutes) * 60_000 * $0.sign } ?? 0
        let time = daysFromCivil(y, mo, d) * 86_400_000 + ((h * 60 + mi) * 60 + s) * 1000 + fraction - shift
        // Years 0001-9999 in UTC too: what an offset moves past them could not be written back.
        return (earliest...latest).contains(time) ? .success(time) : .failure(.years)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func pad(_ n: Int64, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

    // Howard Hinnant's civil-date algorithms.
    static func daysFromCivil(_ y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp + (mp < 10 ? 3 : -9)
        return (m <= 2 ? y + 1 : y, m, d)
    }
}

extension Timestamps {
    /// A time a decision or a reason was written with (`next_allowed_at`, `clears_at`): null or absent is no time, and a
    /// text that is no RFC 3339 time is an error rather than no time (a decision read back would drop it unseen).
    static func decodeIfPresent<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> Date? {
        guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let date = parse(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "\(key.stringValue) must be an RFC 3339 time such as 2026-11-29T09:04:00Z, or null")
        }
        return date
    }
}
