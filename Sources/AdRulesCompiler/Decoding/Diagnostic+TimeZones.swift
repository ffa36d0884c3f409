import AdRules
import AdRulesYAML

/// Messages about time zone names (`policy/timezone`), with the zone meant.
extension Diagnostic {
    /// - Parameter deviceAllowed: whether `device` may be written here (a policy's `timezone`, not a scenario's
    ///   `device_timezone`, which names the device's zone).
    package static func unknownTimeZone(_ name: String, file: String, range: SourceRange, deviceAllowed: Bool = true) -> Diagnostic {
        // Quoted cut short and escaped, as other values are: a name of 4,096 characters made a line of 8 KB.
        let shown = ControlCharacters.escaped(YAMLScalar.shortened(name))
        var message = "unknown time zone \"\(shown)\": write an IANA name such as Asia/Tokyo or Europe/Berlin\(deviceAllowed ? ", or device" : "")"
        // Names are case-sensitive: `utc` or `Device` is most likely the name in other letters.
        let candidates = TimeZoneNames.all + ["UTC"] + (deviceAllowed ? ["device"] : [])
        let lowered = name.lowercased()
        if let invisible = InvisibleCharacters.first(in: name) {
            // "UTC" and a zero width space look like UTC: the character that makes it unknown is named, and the name
            // without it is what to write (or, when that is no zone either, the closest zone).
            let meant = InvisibleCharacters.removed(from: name)
            message = "unknown time zone \"\(shown)\": it holds \(invisible), which a zone name never has"
            if TimeZoneNames.zone(named: meant) != nil || (deviceAllowed && meant == "device") {
                message += ": write \"\(meant)\""
            } else if let suggestion = Suggestion.closest(to: meant, in: TimeZoneNames.all) {
                message += ": did you mean \"\(suggestion)\"?"
            } else {
                message += ": delete it"
            }
        } else if case let trimmed = name.trimmingCharacters(in: .whitespaces), trimmed != name, !trimmed.isEmpty,
            TimeZoneNames.zone(named: trimmed) != nil || (deviceAllowed && trimmed == "device")
        {
            // `"UTC "` pasted with a space inside its quotes: the name is right, the spaces make it unknown.
            message = "unknown time zone \"\(shown)\": a zone name has no spaces around it: write \"\(trimmed)\""
        } else if let offset = writtenOffset(name) {
            if offset.minutes == 0 && offset.hours == 0 {
                message = "unknown time zone \"\(shown)\": the offset 0 is written UTC"
            } else if offset.minutes == 0, let etc = etcName(offset) {
                // "GMT+5" is a fixed offset: IANA spells it with the POSIX sign, reversed.
                message = "unknown time zone \"\(shown)\": a fixed offset is written \(etc) (the sign is reversed in these names); a region's own name also follows its daylight saving time"
            } else if offset.minutes != 0, let region = partHourRegions[offset.text] {
                // No Etc/ zone has an offset of part of an hour: the region that keeps it is what to write.
                message = "unknown time zone \"\(shown)\": no zone name is a fixed offset of part of an hour: write the region's own zone, such as \(region) (UTC\(offset.text))"
            }
        } else if let suggestion = candidates.first(where: { $0.lowercased() == lowered }) {
            message = "unknown time zone \"\(shown)\": did you mean \"\(suggestion)\"?"
        } else if let zone = cityZones[cityKey(name)] {
            // `Paris`, `new york`: a city alone is the zone's last part.
            message = "unknown time zone \"\(shown)\": a zone is named Region/City: did you mean \"\(zone)\"?"
        } else if !name.isEmpty, name.count <= 5, name.allSatisfy({ $0.isLetter && $0.isUppercase }) {
            // An abbreviation (PST, CEST) names no place: "did you mean GMT" would shift every day by hours. One that most
            // often means one region is told which (JST is Japan's only); others get examples.
            let region = usualRegions[name].map { "\(name) is most often \($0): write \($0), or the region meant" }
            message = "unknown time zone \"\(shown)\": abbreviations name no place and no daylight saving rules: "
                + (region ?? "write a region such as America/Los_Angeles or Europe/Paris")
        } else if let suggestion = closestZone(to: name) {
            message = "unknown time zone \"\(shown)\": did you mean \"\(suggestion)\"?"
        }
        return Diagnostic(.error, rule: "policy/timezone", message: message, file: file, range: range)
    }

    /// The zone most likely meant by an unknown name, nil when none is close. A city under another region
    /// (`Europe/Tokyo`, `America/London`) or run together (`US/NewYork`) is that city's zone; otherwise the closest
    /// name, if its city is close to the one written, else a city one letter off, of five letters or more, under any
    /// region (`Europe/Tokio`: Asia/Tokyo, not the nearer spelling Europe/Oslo, hours away). A shorter city gets no
    /// such guess: `Nice` is one letter off `Niue`.
    static func closestZone(to name: String) -> String? {
        let city = cityKey(lastPart(name))
        guard name.contains("/"), !city.isEmpty else { return Suggestion.closest(to: name, in: TimeZoneNames.all) }
        if let zone = cityZones[city] ?? joinedCityZones[city] { return zone }
        if let closest = Suggestion.closest(to: name, in: TimeZoneNames.all), Suggestion.closest(to: city, in: [cityKey(lastPart(closest))]) != nil {
            return closest
        }
        guard city.count >= 5, let near = Suggestion.closest(to: city, in: cityNames, maxDistance: 1) else { return nil }
        return cityZones[near]
    }

    /// What follows a name's last `/`: a zone's city.
    private static func lastPart(_ name: String) -> String {
        name.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? name
    }

    /// The cities of ``cityZones``, sorted: the order a suggestion between two equally near is taken in.
    private static let cityNames = cityZones.keys.sorted()

    /// The zones by their last part written without `_` (`newyork` → America/New_York), for a city run together.
    private static let joinedCityZones: [String: String] = {
        var zones: [String: String] = [:]
        for (city, zone) in cityZones.sorted(by: { $0.key < $1.key }) where city.contains("_") {
            let joined = city.replacingOccurrences(of: "_", with: "")
            if cityZones[joined] == nil, zones[joined] == nil { zones[joined] = zone }
        }
        return zones
    }()

    /// Abbreviations that mostly name one region's time, with that region. Ambiguous ones (IST: India, Ireland or
    /// Israel; CST: the central US or China; BST: Britain or Bangladesh) are left out, and so are the ones that are zone
    /// names of their own (EST, CET: fixed offsets the zone database keeps, which a policy may name).
    private static let usualRegions = [
        "JST": "Asia/Tokyo", "KST": "Asia/Seoul", "HKT": "Asia/Hong_Kong", "SGT": "Asia/Singapore", "WIB": "Asia/Jakarta",
        "PST": "America/Los_Angeles", "PDT": "America/Los_Angeles", "EDT": "America/New_York",
        "AEST": "Australia/Sydney", "AEDT": "Australia/Sydney", "NZST": "Pacific/Auckland", "NZDT": "Pacific/Auckland",
        "MSK": "Europe/Moscow", "CEST": "Europe/Paris",
    ]

    /// A city written alone, and a zone's last part, compared: lowercased, without accents (`São Paulo`, `Zürich`),
    /// with `_` for spaces and hyphens (`New York`, `Port-au-Prince`). Only a city named exactly is suggested: one
    /// letter off, `China` is `Chita` and `Nice` is `Niue`, hours away.
    private static func cityKey(_ name: String) -> String {
        guard name.utf8.count <= 64 else { return "" }
        return String(name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased().map { $0 == " " || $0 == "-" ? "_" : $0 })
    }

    /// The zones by their last part (`paris` → Europe/Paris; the first zone in sorted order where two share one).
    private static let cityZones: [String: String] = {
        var zones: [String: String] = [:]
        for zone in TimeZoneNames.all.sorted() where zone.contains("/") {
            let city = cityKey(lastPart(zone))
            if zones[city] == nil { zones[city] = zone }
        }
        return zones
    }()

    /// An offset from UTC written for a zone's name.
    struct WrittenOffset {
        var isEast: Bool
        var hours: Int
        var minutes: Int
        /// As `+05:30`.
        var text: String
    }

    /// An offset written as one from UTC: `GMT+5`, `UTC-3`, `UTC+05:00`, `+05:30`, `UTC+5:45` (at most 14 hours; the
    /// minutes 00, 15, 30 or 45); nil for anything else.
    static func writtenOffset(_ name: String) -> WrittenOffset? {
        let upper = name.uppercased()
        // A bare offset (`+01:00`, as ISO 8601 writes it) reads as one from UTC.
        let bare = upper.hasPrefix("+") || upper.hasPrefix("-")
        guard bare || upper.hasPrefix("GMT") || upper.hasPrefix("UTC") else { return nil }
        var rest = bare ? Substring(upper) : upper.dropFirst(3)
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        rest = rest.dropFirst()
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ $0.allSatisfy(\.isASCII) }), (1...2).contains(parts[0].count), let hours = Int(parts[0]),
            (0...14).contains(hours)
        else { return nil }
        var minutes = 0
        if parts.count == 2 {
            guard parts[1].count == 2, let m = Int(parts[1]), [0, 15, 30, 45].contains(m) else { return nil }
            minutes = m
        }
        let text = "\(sign)\(hours < 10 ? "0" : "")\(hours):\(minutes < 10 ? "0" : "")\(minutes)"
        return WrittenOffset(isEast: sign == "+", hours: hours, minutes: minutes, text: text)
    }

    /// The `Etc/GMT±N` name of a whole-hour offset, nil where none exists (Etc/GMT-14 to Etc/GMT+12 do).
    static func etcName(_ offset: WrittenOffset) -> String? {
        let etc = "Etc/GMT\(offset.isEast ? "-" : "+")\(offset.hours)"
        return TimeZoneNames.zone(named: etc) == nil ? nil : etc
    }

    /// The offsets of part of an hour, each with the zone of the region whose standard time it is (no `Etc/` zone has
    /// one; where several regions keep it, the most populous). A region's zone also follows its daylight saving time,
    /// as the author most likely meant.
    private static let partHourRegions = [
        "-09:30": "Pacific/Marquesas", "-03:30": "America/St_Johns", "+03:30": "Asia/Tehran", "+04:30": "Asia/Kabul",
        "+05:30": "Asia/Kolkata", "+05:45": "Asia/Kathmandu", "+06:30": "Asia/Yangon", "+08:45": "Australia/Eucla",
        "+09:30": "Australia/Darwin", "+10:30": "Australia/Lord_Howe", "+12:45": "Pacific/Chatham",
    ]
}
