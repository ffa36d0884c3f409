import AdRules
import AdRulesYAML

/// Messages about RFC 3339 times written wrong or naming no instant.
extension Diagnostic {
    /// What to write for a time that misses a part RFC 3339 requires: its offset (`2026-11-29T09:00:00`), the colon
    /// of its offset (`+0900`), or its seconds (`09:00Z`); nil when no such fix makes a time.
    /// The time with each one-digit month, day, hour, minute and second written with two; nil for a text that does not
    /// have the shape of a date, a `T` and a time.
    private static func zeroPadded(_ written: String) -> String? {
        guard written.utf8.count <= 40, let t = written.firstIndex(where: { $0 == "T" || $0 == "t" }) else { return nil }
        let date = written[..<t].split(separator: "-", omittingEmptySubsequences: false)
        var rest = written[written.index(after: t)...]
        // The offset, kept as written: `Z`, or `+`/`-` and what follows.
        let zoneStart = rest.firstIndex { $0 == "Z" || $0 == "z" || $0 == "+" || $0 == "-" } ?? rest.endIndex
        let zone = rest[zoneStart...]
        rest = rest[..<zoneStart]
        let time = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard date.count == 3, date[0].count == 4, (2...3).contains(time.count) else { return nil }
        func pad(_ part: Substring) -> String? {
            let digits = part.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 2 else { return nil }
            return (digits.count == 1 ? "0" : "") + part
        }
        let parts = (date.dropFirst() + time).map(pad)
        guard !parts.contains(where: { $0 == nil }) else { return nil }
        let fixed = parts.compactMap { $0 }
        return "\(date[0])-\(fixed[0])-\(fixed[1])T" + fixed[2...].joined(separator: ":") + zone
    }

    /// `11/29/2026 8:00 PM`, `29.11.2026 20:00`, `2026/11/29 20:00:00Z`: a date written in another order or with other
    /// separators, perhaps with a 12-hour time, as RFC 3339 writes it (year first, hours to 23), with seconds and an
    /// offset added where missing. A date whose order cannot be told (`03/04/2026`: the 3rd of April or the 4th of March)
    /// is shown both ways; with dots it is day first, as where dots are written. Nil for any other text.
    static func otherDateFormAdvice(_ written: String) -> String? {
        guard written.utf8.count <= 40 else { return nil }
        let split = written.firstIndex { $0 == " " || $0 == "T" || $0 == "t" } ?? written.endIndex
        let date = written[..<split]
        guard let separator = date.first(where: { $0 == "/" || $0 == "." || $0 == "-" }) else { return nil }
        let fields = date.split(separator: separator, omittingEmptySubsequences: false)
        guard fields.count == 3, fields.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
        let n = fields.compactMap { Int($0) }
        // Each reading of the date as (year, month, day): year first, or year last with the day first or the month first.
        let readings: [(Int, Int, Int)]
        if fields[0].count == 4 {
            // Year first with `/` or `.`: only the separators differ (with `-` it is RFC 3339's own, advised elsewhere).
            guard separator != "-" else { return nil }
            readings = [(n[0], n[1], n[2])]
        } else if fields[2].count == 4 {
            let dayFirst = (n[2], n[1], n[0]), monthFirst = (n[2], n[0], n[1])
            readings = n[0] > 12 || separator == "." ? [dayFirst] : n[1] > 12 ? [monthFirst] : [monthFirst, dayFirst]
        } else {
            return nil
        }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var rest = written[split...].drop { $0 == " " || $0 == "T" || $0 == "t" }
        var time = "09:00:00", zone = "", hasTime = false, twelveHours = false
        if !rest.isEmpty {
            let clock = rest.prefix { ($0.isASCII && $0.isNumber) || $0 == ":" }
            let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(parts.count), parts.allSatisfy({ (1...2).contains($0.count) }), var hour = Int(parts[0]) else { return nil }
            rest = rest.dropFirst(clock.count).drop { $0 == " " }
            let meridiem = rest.prefix(2).lowercased()
            if meridiem == "am" || meridiem == "pm" {
                guard (1...12).contains(hour) else { return nil }
                hour = hour % 12 + (meridiem == "pm" ? 12 : 0)
                rest = rest.dropFirst(2).drop { $0 == " " }
                twelveHours = true
            }
            time = two(hour) + ":" + parts[1...].map { $0.count == 1 ? "0" + $0 : String($0) }.joined(separator: ":") + (parts.count == 2 ? ":00" : "")
            zone = String(rest)
            hasTime = true
        }
        func form(_ reading: (Int, Int, Int), zone: String) -> String? {
            let year = String(reading.0)
            let text = String(repeating: "0", count: max(0, 4 - year.count)) + year + "-\(two(reading.1))-\(two(reading.2))T\(time)" + zone
            return (try? Timestamps.read(text).get()) != nil ? text : nil
        }
        var what = ["the date as year-month-day"]
        if twelveHours { what.append("hours from 00 to 23") }
        if !hasTime { what.append("a time of day") }
        if zone.isEmpty { what.append("the offset from UTC") }
        let needs = what.count == 1 ? what[0] : what.dropLast().joined(separator: ", ") + " and " + what[what.count - 1]
        if readings.count == 2, n[0] != n[1] {
            guard let asMonth = form(readings[0], zone: zone.isEmpty ? "Z" : zone), let asDay = form(readings[1], zone: zone.isEmpty ? "Z" : zone) else { return nil }
            return "write \(needs): \(asMonth) if \(fields[0]) is the month, \(asDay) if it is the day"
        }
        let examples = (zone.isEmpty ? ["Z", "+09:00"] : [zone]).compactMap { form(readings[0], zone: $0) }
        guard !examples.isEmpty else { return nil }
        return "write \(needs), as in " + examples.joined(separator: " or ")
    }

    /// What to write for a time one slip away from RFC 3339 that the advice on missing parts does not cover: a comma
    /// before the fraction (`09:00:00,5Z`), a point with no digits after it, a space before the offset, `UTC` or `GMT`
    /// for `Z`, an offset's hour of one digit (`+9:00`), the compact form of ISO 8601 (`20261129T090000Z`), or a year
    /// of more or fewer than four digits. Nil for any other text, and for a fix that still makes no time.
    static func slipAdvice(_ written: String) -> String? {
        guard written.utf8.count <= 40, written.unicodeScalars.allSatisfy(\.isASCII) else { return nil }
        func taken(_ time: String) -> Bool { (try? Timestamps.read(time).get()) != nil }
        let chars = Array(written)
        // A year written with a sign or with other than four digits: said as the range a timestamp can write.
        let signed = chars.first == "-" || chars.first == "+"
        let yearDigits = chars.dropFirst(signed ? 1 : 0).prefix { $0.isASCII && $0.isNumber }.count
        let monthDay = Array(chars.dropFirst((signed ? 1 : 0) + yearDigits).prefix(6))
        if yearDigits > 0, yearDigits != 4 || signed, monthDay.count == 6, monthDay[0] == "-", monthDay[3] == "-",
            [monthDay[1], monthDay[2], monthDay[4], monthDay[5]].allSatisfy({ $0.isASCII && $0.isNumber })
        {
            return "years are written with four digits and no sign, from 0001 to 9999"
        }
        // The compact form: `20261129T090000Z`, `20261129T0900Z`, `20261129T090000+0900`.
        if chars.count >= 13, chars[..<8].allSatisfy({ $0.isASCII && $0.isNumber }), chars[8] == "T" || chars[8] == "t" {
            let clock = chars[9...].prefix { $0.isASCII && $0.isNumber }
            if clock.count == 4 || clock.count == 6 {
                let c = Array(clock)
                var zone = String(chars[(9 + clock.count)...])
                if zone.utf8.count == 5, let sign = zone.first, sign == "+" || sign == "-", zone.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) {
                    zone = String(zone.prefix(3)) + ":" + String(zone.suffix(2))
                }
                let fixed = String(chars[0..<4]) + "-" + String(chars[4..<6]) + "-" + String(chars[6..<8]) + "T" + String(c[0..<2]) + ":"
                    + String(c[2..<4]) + ":" + (c.count == 6 ? String(c[4..<6]) : "00") + zone
                if taken(fixed) { return "write the date and time with their separators: \(fixed)" }
            }
        }
        guard chars.count > 19 else { return nil }
        let head = String(chars[..<19]), tail = String(chars[19...])
        // `09:00:00,5Z`: the fraction follows a point.
        if tail.first == ",", taken(head + "." + tail.dropFirst()) { return "write the fraction of a second after a point: \(head).\(tail.dropFirst())" }
        // `09:00:00.Z`: a point with no digit after it.
        if tail.first == ".", tail.dropFirst().first.map({ !($0.isASCII && $0.isNumber) }) == true, taken(head + tail.dropFirst()) {
            return "a point is followed by the digits of a fraction: remove it, as in \(head + tail.dropFirst())"
        }
        // The time's fraction, then what should be its offset.
        let fraction = tail.first == "." ? "." + tail.dropFirst().prefix { $0.isASCII && $0.isNumber } : ""
        let zone = tail.dropFirst(fraction.count)
        let trimmed = zone.drop { $0 == " " }
        // `09:00:00 Z`, `09:00:00 +09:00`: no space before the offset.
        if trimmed.count < zone.count, taken(head + fraction + trimmed) { return "write the offset right after the time, with no space: \(head + fraction + trimmed)" }
        // `09:00:00UTC`: UTC is written Z.
        if ["UTC", "GMT", "UT"].contains(trimmed.uppercased()), taken(head + fraction + "Z") { return "write UTC as Z: \(head + fraction)Z" }
        // `+9:00`: an offset's hours take two digits.
        if let sign = trimmed.first, sign == "+" || sign == "-", trimmed.dropFirst().first?.isNumber == true, trimmed.dropFirst(2).first == ":" {
            let padded = String(sign) + "0" + trimmed.dropFirst()
            if taken(head + fraction + padded) { return "an offset's hours take two digits: write \(head + fraction + padded)" }
        }
        return nil
    }

    static func timeAdvice(_ written: String) -> String? {
        shapeAdvice(written) ?? slipAdvice(written)
    }

    private static func shapeAdvice(_ written: String) -> String? {
        if let other = otherDateFormAdvice(written) { return other }
        // `YYYY-MM-DDTHH:MM`, then perhaps `:SS` with a fraction, then perhaps `Z` or an offset with or without its
        // colon: read by hand (a regular expression for each of many findings is slow).
        let bytes = Array(written.utf8)
        func isDigit(_ i: Int) -> Bool { i < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) }
        func digits(_ range: Range<Int>) -> Bool { range.allSatisfy(isDigit) }
        func part(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        // `2026-11-29T9:00:00Z`, `2026-1-5T…`: a part written with one digit, which RFC 3339 writes with two.
        if let padded = zeroPadded(written), padded != written, (try? Timestamps.read(padded).get()) != nil {
            return "months, days, hours, minutes and seconds take two digits: write \(padded)"
        }
        // A day alone (`2026-11-29`): a scenario's times are instants.
        if bytes.count == 10, digits(0..<4), bytes[4] == UInt8(ascii: "-"), digits(5..<7), bytes[7] == UInt8(ascii: "-"), digits(8..<10) {
            let example = written + "T09:00:00Z"
            return (try? Timestamps.read(example).get()) != nil ? "add a time of day and its offset from UTC, as in \(example)" : nil
        }
        // A time of day alone (`09:30`, `9:30`, `09:30:00`, `09:30Z`, `09:30+09:00`): the day is missing, and the offset
        // unless it is written.
        let hourDigits = isDigit(0) && bytes.count > 2 && bytes[1] == UInt8(ascii: ":") ? 1 : digits(0..<2) && bytes.count > 3 && bytes[2] == UInt8(ascii: ":") ? 2 : 0
        if hourDigits > 0, bytes.count <= 20, digits((hourDigits + 1)..<(hourDigits + 3)) {
            var end = hourDigits + 3
            if end < bytes.count, bytes[end] == UInt8(ascii: ":"), digits((end + 1)..<(end + 3)) { end += 3 }
            let zone = part(end..<bytes.count)
            // Only a zone follows (`Z`, `+09:00`): a fraction of a minute (`09:30.5`) is no time to advise.
            guard zone.isEmpty || ["Z", "z", "+", "-"].contains(zone.first) else { return nil }
            let example = "2026-11-29T" + (hourDigits == 1 ? "0" : "") + part(0..<end) + (end == hourDigits + 3 ? ":00" : "") + (zone.isEmpty ? "Z" : zone)
            let missing = zone.isEmpty ? "the date and its offset from UTC" : "the date"
            return (try? Timestamps.read(example).get()) != nil ? "add \(missing), as in \(example)" : nil
        }
        guard bytes.count <= 40, bytes.count >= 16, digits(0..<4), bytes[4] == UInt8(ascii: "-"), digits(5..<7), bytes[7] == UInt8(ascii: "-"),
            digits(8..<10), [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(bytes[10]), digits(11..<13),
            bytes[13] == UInt8(ascii: ":"), digits(14..<16)
        else { return nil }
        var end = 16
        var seconds: String?
        if end < bytes.count, bytes[end] == UInt8(ascii: ":") {
            guard digits((end + 1)..<(end + 3)) else { return nil }
            var next = end + 3
            if next < bytes.count, bytes[next] == UInt8(ascii: ".") {
                next += 1
                guard isDigit(next) else { return nil }
                while isDigit(next) { next += 1 }
            }
            seconds = part(end..<next)
            end = next
        }
        var offset: String?
        var missing: [String] = []
        if seconds == nil { missing.append("its seconds") }
        let zone = part(end..<bytes.count)
        if zone == "Z" || zone == "z" {
            offset = zone
        } else if let sign = zone.first, sign == "+" || sign == "-" {
            let rest = zone.dropFirst()
            let hours = rest.prefix(2), minutes = rest.dropFirst(2).drop { $0 == ":" }
            let colon = rest.count == 5 && rest.dropFirst(2).first == ":"
            guard colon || rest.count == 4, hours.count == 2, minutes.count == 2, (hours + minutes).allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            offset = "\(sign)\(hours):\(minutes)"
            if !colon { missing.append("the colon of its offset") }
        } else if !zone.isEmpty {
            return nil
        }
        let fixed = part(0..<16) + (seconds ?? ":00")
        // Only a time a scenario takes is advised (no fraction past milliseconds, years 0001-9999 in UTC).
        func taken(_ time: String) -> Bool { (try? Timestamps.read(time).get()) != nil }
        guard let offset else {
            let examples = [fixed + "Z", fixed + "+09:00"].filter(taken)
            guard !examples.isEmpty else { return nil }
            return "add " + (missing + ["its offset from UTC"]).joined(separator: " and ") + ", as in " + examples.joined(separator: " or ")
        }
        guard !missing.isEmpty, taken(fixed + offset) else { return nil }
        return "add " + missing.joined(separator: " and ") + ": write \(fixed + offset)"
    }

    /// A time that is not RFC 3339 (`schema/type`, with the form to write), or that is in its shape but names no
    /// instant (`schema/range`, saying which part is wrong: a 29 February that does not exist).
    static func badTime(_ key: String, found: YAMLNode, problem: Timestamps.Problem, file: String) -> Diagnostic {
        let reason: String
        switch problem {
        case .shape:
            return Diagnostic(
                .error, rule: "schema/type",
                message: "\(key) must be an RFC 3339 time such as 2026-11-29T09:00:00+09:00, not \(found.kindDescription)"
                    + (found.scalar.flatMap { timeAdvice($0.value) }.map { ": " + $0 } ?? ""),
                file: file, range: found.range)
        case .yearZero: reason = "year 0000 does not exist: years run from 0001"
        case .month(let date): reason = "\(date) is not a date: months run from 01 to 12"
        case .day(let date, let days): reason = "\(date) is not a date: that month has \(days) days"
        case .timeOfDay(let time): reason = "\(time) is not a time of day"
        case .leapSecond(let time):
            reason = "\(time) is not a time of day: a second 60 is a leap second, which only the minute 23:59 in UTC has (23:59:60Z): write second 59, or 00 of the next minute"
        case .offset(let offset): reason = "the offset \(offset) is not one: hours run to 23 and minutes to 59"
        case .years: reason = "the time falls outside the years 0001-9999 in UTC, which is all a timestamp can write"
        case .finerThanMilliseconds(let fraction):
            reason = "the engine counts whole milliseconds, and \(fraction) is finer: write at most three digits after the point"
        }
        return Diagnostic(.error, rule: "schema/range", message: "\(key): \(reason)", file: file, range: found.range)
    }
}
