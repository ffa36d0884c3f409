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

    static func timeAdvice(_ written: String) -> String? {
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
        case .offset(let offset): reason = "the offset \(offset) is not one: hours run to 23 and minutes to 59"
        case .years: reason = "the time falls outside the years 0001-9999 in UTC, which is all a timestamp can write"
        case .finerThanMilliseconds(let fraction):
            reason = "the engine counts whole milliseconds, and \(fraction) is finer: write at most three digits after the point"
        }
        return Diagnostic(.error, rule: "schema/range", message: "\(key): \(reason)", file: file, range: found.range)
    }
}
