import AdRules

/// What a duration written in another way means, for the advice of a finding.
package enum DurationAdvice {
    /// What to write instead of a malformed duration, when it plainly means one: a number and a unit in another form
    /// (`0.5s`, `1e3s`, `2 hours`), parts written apart (`1h 30m`), or quoted digits (`"30"`, a bare number).
    /// - Parameters:
    ///   - accepts: whether the key takes the duration meant (a time of day is below 24h).
    ///   - bareNumbers: whether digits alone are told to take seconds or minutes (not for a time of day, where they
    ///     most likely mean hours).
    package static func advice(for text: String, accepts: (RuleDuration) -> Bool = { _ in true }, bareNumbers: Bool = true) -> String? {
        if let ascii = asciiForm(of: text) {
            let written = RuleDuration(parsing: ascii).flatMap { accepts($0) ? "write \(ascii)" : nil }
            return (written ?? advice(for: ascii, accepts: accepts, bareNumbers: bareNumbers)).map { "it is written in full-width or another script's digits or letters: \($0)" }
        }
        // `"4m "`, a value pasted with a space around it in quotes: the duration inside.
        // Cut by index: a text built back from its reversed characters took 3 of the 4.5 s lint spent on a value of 8
        // million characters (`1s1m` two million times).
        let head = text.drop { $0 == " " || $0 == "\t" }
        let trimmed = String(head[..<(head.lastIndex { $0 != " " && $0 != "\t" }.map(head.index(after:)) ?? head.startIndex)])
        if trimmed != text, !trimmed.isEmpty {
            if let length = RuleDuration(parsing: trimmed) { return accepts(length) ? "remove the spaces around it: write \(trimmed)" : nil }
            return advice(for: trimmed, accepts: accepts, bareNumbers: bareNumbers)
        }
        if let meant = meant(by: text) ?? joined(text) ?? reordered(text) ?? lastUnitLeftOut(text) ?? iso8601(text) ?? decimalComma(text) {
            return accepts(meant) ? "write \(meant)" : nil
        }
        // A time of day as a clock shows it (`08:00`, `8pm`, `8:30 am`): hours and minutes with units.
        if !bareNumbers, let time = timeOfDay(text), accepts(time) {
            return "a time of day is written with units: write \(time.milliseconds == 0 ? "0h" : time.description)"
        }
        if let clock = clockAdvice(text, accepts: accepts) { return clock }
        // `30s,` or `30s;`: a separator left at the end (a line copied out of a list).
        if let last = text.last, last == "," || last == ";", case let written = String(text.dropLast()), let length = RuleDuration(parsing: written), accepts(length) {
            return "remove the \(last == "," ? "comma" : "semicolon") at the end: write \(written)"
        }
        // `-30s`: a duration is a length of time, never negative.
        if text.hasPrefix("-"), let length = RuleDuration(parsing: String(text.dropFirst())), accepts(length) {
            return "a duration is never negative: write \(length)"
        }
        return bareNumber(text, accepts: accepts, bareNumbers: bareNumbers)
    }

    /// The time of day a clock reading means (`08:00`, `8:30`, `8pm`, `12am`, `8:30 PM`), as hours and minutes, or nil.
    static func timeOfDay(_ text: String) -> RuleDuration? {
        var body = text.lowercased().filter { $0 != " " }
        var half: Int64?
        for (suffix, offset) in [("am", Int64(0)), ("pm", 12)] where body.hasSuffix(suffix) {
            body.removeLast(2)
            half = offset
        }
        let fields = body.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(fields.count), fields.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            fields.count == 2 || half != nil, var hours = Int64(fields[0]), let minutes = fields.count == 2 ? Int64(fields[1]) : 0, minutes < 60
        else { return nil }
        if let half {
            guard (1...12).contains(hours) else { return nil }
            hours = hours % 12 + half
        }
        guard hours < 24 else { return nil }
        return RuleDuration(milliseconds: hours * 3_600_000 + minutes * 60_000)
    }

    /// `00:04:00` (hours, minutes, seconds) or `1:30` (hours and minutes, or minutes and seconds), as a clock writes a
    /// length of time: the duration each reading means, with units.
    static func clockAdvice(_ text: String, accepts: (RuleDuration) -> Bool) -> String? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count), fields.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isNumber) }),
            fields.dropFirst().allSatisfy({ $0.count == 2 }), let numbers = Optional(fields.compactMap { Int64($0) }), numbers.count == fields.count,
            numbers.dropFirst().allSatisfy({ $0 < 60 })
        else { return nil }
        func reading(_ units: [Int64]) -> RuleDuration? {
            let ms = zip(numbers, units).reduce(Int64(0)) { $0 + $1.0 * $1.1 }
            let duration = RuleDuration(milliseconds: ms)
            return ms > 0 && duration <= .maximum && accepts(duration) ? duration : nil
        }
        let readings = numbers.count == 3 ? [reading([3_600_000, 60_000, 1000])] : [reading([3_600_000, 60_000]), reading([60_000, 1000])]
        let meant = readings.compactMap { $0 }
        guard let first = meant.first else { return nil }
        return "a duration is written with units, not as a clock: write \(first)" + (meant.count > 1 ? " (or \(meant[1]), if it counts minutes and seconds)" : "")
    }

    /// Digits alone: the advice to give them a unit, in the units that keep them within 366d and what the key takes.
    package static func bareNumber(_ text: String, accepts: (RuleDuration) -> Bool = { _ in true }, bareNumbers: Bool = true) -> String? {
        // Digits alone (quoted, or where the caller did not say so itself): a bare number has no unit.
        guard bareNumbers, !text.isEmpty, text.utf8.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int64(text) else { return nil }
        let units = [("s", Int64(1000)), ("m", Int64(60_000))].filter { accepts(RuleDuration(milliseconds: n * $0.1)) && n * $0.1 <= RuleDuration.maximum.milliseconds }
        guard !units.isEmpty else { return nil }
        return "a bare number has no unit: write " + units.map { "\(n)\($0.0)" }.joined(separator: " or ")
    }

    /// Whether a text is a duration as written (`<digits><unit>` parts, largest first) that is longer than the longest
    /// a rule file may hold, or too long to be read at all (a part of more than 12 digits, or milliseconds past
    /// 64 bits): too long, not malformed.
    package static func isOverlong(_ text: String) -> Bool {
        // Units largest first, each once: d, h, m, s, ms.
        guard let parts = parts(of: text, atMost: 5), zip(parts, parts.dropFirst()).allSatisfy({ $0.unit > $1.unit }) else { return false }
        return RuleDuration(parsing: text).map { $0 > .maximum } ?? true
    }

    /// A duration's units (``RuleDuration/units``), the longer suffix first: `ms` is read before `m`.
    private static let partUnits = RuleDuration.units.sorted { $0.suffix.count > $1.suffix.count }

    /// The `<digits><unit>` parts a text is made of, each unit as its milliseconds, or nil when it is not made of them
    /// alone or has more than `limit` of them. Read by hand (a regular expression for each of 150,000 findings made a
    /// lint of one file take 17 s), and no further than `limit` parts (a 10 MB value of 5 million parts took 3 s).
    static func parts(of text: String, atMost limit: Int) -> [(digits: Substring, unit: Int64)]? {
        var parts: [(digits: Substring, unit: Int64)] = []
        var rest = text.utf8[...]
        while let first = rest.first {
            guard parts.count < limit, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return nil }
            let digits = rest.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            rest = rest.dropFirst(digits.count)
            guard let unit = partUnits.first(where: { rest.starts(with: $0.suffix.utf8) }) else { return nil }
            rest = rest.dropFirst(unit.suffix.utf8.count)
            parts.append((Substring(digits), unit.ms))
        }
        return parts.isEmpty ? nil : parts
    }

    /// The duration a number and a unit mean, written as a duration is written: `0.5s` is 500ms, `1e3s` 16m40s,
    /// `2 hours` 2h, `5e-1s` 500ms. Nil when the text is not one number and one unit, or means no whole number of
    /// milliseconds from 0 to 366d as written.
    package static func meant(by text: String) -> RuleDuration? {
        guard text.utf8.count <= 40 else { return nil }
        let number = text.prefix { $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }
        let unit = String(text.dropFirst(number.count).drop { $0 == " " || $0 == "\t" }).lowercased()
        guard !number.isEmpty, let value = Double(number), let scale = units[unit] else { return nil }
        // Only a number a double holds as written is advised on: at most 15 significant digits (1.9999999999999999999s
        // reads as 2), and not one that reads as 0 unless it is 0 (1e-400s).
        guard FloatText.significantDigits(number) <= 15, !FloatText.readsAsZero(number, value: value) else { return nil }
        // 4.35m is 260,999.99999999997 ms in binary: a value within a few ulp of a whole millisecond is that
        // millisecond; 365.999999999999d, 0.00009 ms off one, and 1e-10s, which is not 0, are not.
        let ms = (value * scale).rounded()
        guard ms >= 0, ms <= Double(RuleDuration.maximum.milliseconds), abs(value * scale - ms) <= max(1e-9, ms * 1e-15) else { return nil }
        return RuleDuration(milliseconds: Int64(ms))
    }

    /// Parts that are each a duration, written apart (`1h 30m`, `1h, 30m`, `1h+30m`, `3h:30m`): the duration they make
    /// together, if they are in order.
    package static func joined(_ text: String) -> RuleDuration? {
        let parts = text.split { $0 == " " || $0 == "\t" || $0 == "," || $0 == "+" || $0 == "_" || $0 == ":" || $0 == ";" }
        guard parts.count > 1, parts.allSatisfy({ RuleDuration(parsing: String($0)) != nil }),
            let whole = RuleDuration(parsing: parts.joined()), whole <= .maximum
        else { return nil }
        return whole
    }

    /// Parts out of order or repeated (`1m1h`, `1h1h`, `30s1m`): the duration they add up to, written largest first.
    package static func reordered(_ text: String) -> RuleDuration? {
        guard text.utf8.count <= 40, let parts = parts(of: text, atMost: 20) else { return nil }
        var total: Int64 = 0
        for part in parts {
            // Each part is at most 366d (a longer one is no duration meant): the sum of 40 characters' worth stays far
            // from overflow.
            guard let count = Int64(part.digits), count <= RuleDuration.maximum.milliseconds / part.unit else { return nil }
            total += count * part.unit
        }
        let whole = RuleDuration(milliseconds: total)
        return whole <= .maximum ? whole : nil
    }

    /// Digits after the last part, with no unit (`1h30`, `2m30`): they count the next smaller unit, as a clock reads.
    static func lastUnitLeftOut(_ text: String) -> RuleDuration? {
        let digits = text.reversed().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count < text.count, digits.count <= 2 else { return nil }
        let head = String(text.dropLast(digits.count))
        let next: [Character: String] = ["d": "h", "h": "m", "m": "s"]
        guard let last = head.last, let unit = next[last], !head.hasSuffix("ms"), let whole = RuleDuration(parsing: head + String(digits.reversed()) + unit),
            whole <= .maximum
        else { return nil }
        return whole
    }

    /// An ISO 8601 duration (`PT30S`, `PT1H30M`, `P1D`), as other tools write one.
    static func iso8601(_ text: String) -> RuleDuration? {
        let upper = text.uppercased()
        guard upper.hasPrefix("P"), upper.utf8.count <= 40 else { return nil }
        var total: Int64 = 0
        var inTime = false
        var number = ""
        var read = false
        for c in upper.dropFirst() {
            if c == "T", number.isEmpty, !inTime {
                inTime = true
                continue
            }
            if c.isASCII, c.isNumber {
                number.append(c)
                continue
            }
            // Days and weeks before the T, hours, minutes and seconds after it (an M before it is months: no advice).
            let unit: String? = switch (c, inTime) {
            case ("D", false), ("W", false), ("H", true), ("M", true), ("S", true): String(c).lowercased()
            default: nil
            }
            guard let scale = unit.flatMap({ units[$0] }).map(Int64.init), let n = Int64(number), n <= RuleDuration.maximum.milliseconds / scale
            else { return nil }
            total += n * scale
            guard total <= RuleDuration.maximum.milliseconds else { return nil }
            number = ""
            read = true
        }
        return read && number.isEmpty ? RuleDuration(milliseconds: total) : nil
    }

    /// A decimal comma (`1,5h`, as many languages write 1.5): the duration the number means with a point. Three digits
    /// after it are a thousands separator (`1,000ms`), or may be: no advice then.
    static func decimalComma(_ text: String) -> RuleDuration? {
        guard text.filter({ $0 == "," }).count == 1, let comma = text.firstIndex(of: ","), comma > text.startIndex,
            text[text.index(before: comma)].isNumber, text.index(after: comma) < text.endIndex, text[text.index(after: comma)].isNumber,
            text[text.index(after: comma)...].prefix(while: \.isNumber).count != 3
        else { return nil }
        return meant(by: text.replacingOccurrences(of: ",", with: "."))
    }

    /// Milliseconds a unit, by the names a person may write.
    private static let units: [String: Double] = [
        "ms": 1, "millisecond": 1, "milliseconds": 1, "s": 1000, "sec": 1000, "secs": 1000, "second": 1000, "seconds": 1000,
        "m": 60_000, "min": 60_000, "mins": 60_000, "minute": 60_000, "minutes": 60_000,
        "h": 3_600_000, "hr": 3_600_000, "hrs": 3_600_000, "hour": 3_600_000, "hours": 3_600_000,
        "d": 86_400_000, "day": 86_400_000, "days": 86_400_000,
        "w": 604_800_000, "wk": 604_800_000, "wks": 604_800_000, "week": 604_800_000, "weeks": 604_800_000,
        // A year as a length of time: 365 days (366d, a leap year's, is the longest duration).
        "y": 31_536_000_000, "yr": 31_536_000_000, "yrs": 31_536_000_000, "year": 31_536_000_000, "years": 31_536_000_000,
    ]

    /// `1ｓ` (full-width) or `١s` (Arabic-Indic digits): the text in ASCII digits and letters, when it is written in
    /// other forms of them; nil when it is ASCII already or holds anything else.
    static func asciiForm(of text: String) -> String? {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        var out = ""
        for character in text {
            if !character.isASCII, let digit = character.wholeNumberValue, (0...9).contains(digit), character.isNumber {
                out += String(digit)
                continue
            }
            let plain = String(character).precomposedStringWithCompatibilityMapping
            guard plain.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
            out += plain
        }
        return out
    }
}
