import AdRules
import Foundation

/// Known IANA time zone names, for validation and suggestions.
enum TimeZoneNames {
    static let all: [String] = TimeZone.knownTimeZoneIdentifiers
}
