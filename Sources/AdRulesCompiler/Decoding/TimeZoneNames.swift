import AdRules
import Foundation

/// Known IANA time zone names, for validation and suggestions.
package enum TimeZoneNames {
    /// The zone of a name that is a known IANA name (or UTC/GMT), checked against the list before Foundation
    /// parses it: a 64,000-character "name" never reaches the time zone database.
    package static func zone(named name: String) -> TimeZone? {
        guard name.utf8.count <= 64, known.contains(name) || name == "UTC" || name == "GMT" else { return nil }
        return TimeZone(identifier: name)
    }

    package static let all: [String] = TimeZone.knownTimeZoneIdentifiers
    private static let known = Set(all)
}
