import Foundation

/// IANA time zone names, for validation and suggestions.
package enum TimeZoneNames {
    /// The names of UTC in the zone database: one zone, whichever a policy writes.
    package static let universalNames: Set<String> = [
        "UTC", "GMT", "UCT", "Zulu", "Universal", "Greenwich", "GMT0", "GMT+0", "GMT-0", "Etc/UTC", "Etc/GMT", "Etc/UCT",
        "Etc/Zulu", "Etc/Universal", "Etc/Greenwich", "Etc/GMT0", "Etc/GMT+0", "Etc/GMT-0",
    ]

    /// What a zone's name is compared by, in a policy split over files and in a report of changes: `UTC` for each of
    /// UTC's names (`Etc/UTC`, and `GMT`, Foundation's name for `UTC`), any other name as it is.
    package static func comparedName(of name: String) -> String { universalNames.contains(name) ? "UTC" : name }

    /// The zone of an IANA time zone name, nil for anything else.
    ///
    /// Foundation's list of known identifiers holds canonical names only (`Asia/Calcutta`, not `Asia/Kolkata`;
    /// no `Etc/UTC`, no `US/Eastern`), so a name is also accepted when it has the shape of an IANA name and the
    /// time zone database knows it under that very name, or when it is one of the database's names without an
    /// area (`UTC`, `EST`, `Japan`). Names Foundation would rewrite (`GMT+5` becomes `GMT+0500`) and bare
    /// abbreviations (`PST`) are not IANA names and are refused. The checks on the text come
    /// first: a 64,000-character "name" never reaches the database.
    package static func zone(named name: String) -> TimeZone? {
        guard name.utf8.count <= 64, !name.isEmpty else { return nil }
        if known.contains(name) { return TimeZone(identifier: name) }
        if withoutArea.contains(name) { return TimeZone(identifier: name) }
        guard name.contains("/"), hasIANAShape(name), let zone = TimeZone(identifier: name), zone.identifier == name else { return nil }
        return zone
    }

    /// The zone of a name a compiled policy holds: one that has the shape of an IANA name (or is one of the
    /// database's names without an area) and that this device's time zone database knows. Looser than
    /// ``zone(named:)``, which lint runs: a device may spell an alias it knows under another name, and a policy
    /// that linted clean must load there; `GMT+5` and a name with a NUL in it are still refused.
    package static func compiledZone(named name: String) -> TimeZone? {
        guard name.utf8.count <= 64, !name.isEmpty else { return nil }
        guard known.contains(name) || withoutArea.contains(name) || (name.contains("/") && hasIANAShape(name)) else { return nil }
        return TimeZone(identifier: name)
    }

    /// Letters, digits, `_`, `-` and `+` in `/`-separated parts, each starting with a letter or digit: `Etc/GMT+5`,
    /// `America/Port-au-Prince`, `America/Argentina/Buenos_Aires`.
    static func hasIANAShape(_ name: String) -> Bool {
        name.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { part in
            guard let first = part.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic || ("0"..."9").contains(first) else {
                return false
            }
            return part.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-+".unicodeScalars.contains($0)) }
        }
    }

    /// The names of the IANA database that have no area part (`UTC`, `EST`, `Japan`): without this list a bare
    /// abbreviation that Foundation happens to accept (`PST`) would pass as a zone.
    static let withoutArea: Set<String> = [
        "CET", "CST6CDT", "Cuba", "EET", "EST", "EST5EDT", "Egypt", "Eire", "GB", "GB-Eire", "GMT", "GMT+0", "GMT-0", "GMT0",
        "Greenwich", "HST", "Hongkong", "Iceland", "Iran", "Israel", "Jamaica", "Japan", "Kwajalein", "Libya", "MET", "MST",
        "MST7MDT", "NZ", "NZ-CHAT", "Navajo", "PRC", "PST8PDT", "Poland", "Portugal", "ROC", "ROK", "Singapore", "Turkey",
        "UCT", "UTC", "Universal", "W-SU", "WET", "Zulu",
    ]

    /// A zone's IANA name as messages, simulations and compiled policies write it: Foundation calls UTC "GMT" on Linux,
    /// where a policy written `timezone: UTC` should read UTC back (the two names are one zone).
    package static func name(of zone: TimeZone) -> String { zone.identifier == "GMT" ? "UTC" : zone.identifier }

    package static let all: [String] = TimeZone.knownTimeZoneIdentifiers
    private static let known = Set(all)
}
