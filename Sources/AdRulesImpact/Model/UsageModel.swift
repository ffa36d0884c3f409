import Foundation
import AdRules
import AdRulesYAML

/// A usage model (`*.model.yaml`): who the simulated users are and how the ad network behaves.
public struct UsageModel: Sendable {
    /// The model file, as its path was given.
    public var file: String
    /// The default population size.
    public var users: Int
    /// Simulated days per user.
    public var days: Int
    /// The seed every user's random numbers derive from.
    public var seed: UInt64
    /// The first simulated day (local midnight in each user's zone).
    public var start: CalendarDate
    /// The user segments, in file order; their shares add up to 1.
    public var segments: [Segment]
    /// How loads and shows behave.
    public var network: NetworkModel
    /// Where `segments` is written (warnings about the model as a whole point here).
    public var segmentsLocation: SourceLocation

    /// Creates a model.
    public init(
        file: String, users: Int, days: Int, seed: UInt64, start: CalendarDate, segments: [Segment],
        network: NetworkModel, segmentsLocation: SourceLocation
    ) {
        self.file = file
        self.users = users
        self.days = days
        self.seed = seed
        self.start = start
        self.segments = segments
        self.network = network
        self.segmentsLocation = segmentsLocation
    }
}

/// A day of the calendar, without a time or a zone.
public struct CalendarDate: Sendable, Hashable, CustomStringConvertible {
    /// The year.
    public var year: Int
    /// The month, 1-12.
    public var month: Int
    /// The day of the month, 1-31.
    public var day: Int

    /// Creates a date.
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day a zone's users are played from when the zone skipped this day (its clocks jumped over the whole of it, as
    /// Pacific/Apia's did from 2011-12-29 to 2011-12-31); nil when the zone has this day.
    public func dayPlayed(in zone: TimeZone) -> CalendarDate? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        // Noon, as the simulation finds each day's start from its noon.
        guard let noon = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12)) else { return nil }
        let found = calendar.dateComponents([.year, .month, .day], from: noon)
        guard let y = found.year, let m = found.month, let d = found.day else { return nil }
        let played = CalendarDate(year: y, month: m, day: d)
        return played == self ? nil : played
    }

    /// The years a model (and a report of one) may start in.
    public static let supportedYears = 1971...2199

    /// A date written `YYYY-MM-DD` that is a real day of the Gregorian calendar; nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month)
        else { return nil }
        // The proleptic Gregorian calendar, as RFC 3339 reads dates: Foundation's switches to the Julian one before
        // 1582-10-15, where 1582-10-07 is no day and was refused as no calendar day rather than as out of range.
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        func pad(_ n: Int, _ width: Int) -> String {
            let text = String(n)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
}

/// One group of similar users.
public struct Segment: Sendable {
    /// What is wrong with a segment name a report would show, or nil: a name with nothing visible, or one a CI log
    /// reads as a command (GitHub Actions takes `::` starting a line, past spaces, and `##[` anywhere in one; the text
    /// report starts lines with segment names).
    public static func nameProblem(_ name: String) -> String? {
        if name.unicodeScalars.allSatisfy({ $0.properties.isWhitespace || $0.properties.isDefaultIgnorableCodePoint }) {
            return name.isEmpty ? "an empty text" : "only spaces or invisible characters"
        }
        if ControlCharacters.startsLogCommand(name) { return "a name starting with \"::\", which CI logs read as a command" }
        if ControlCharacters.holdsLogCommand(name) { return "a name holding \"##\" then \"[\", which CI logs read as a command" }
        return nil
    }

    /// The segment's name, unique in the model.
    public var name: String
    /// The fraction of users in this segment.
    public var share: Double
    /// The device's IANA time zone.
    public var timeZone: String
    /// The probability that a user of this segment is premium.
    public var premium: Double
    /// Days between install and the first simulated day.
    public var installedDaysAgo: NumberDistribution
    /// Sessions before the first simulated day; nil: days since install times the mean cold starts a day.
    public var sessionsBefore: CountDistribution?
    /// The local time of the first cold start each day (milliseconds after midnight).
    public var firstOpen: DurationDistribution
    /// Cold starts a day (at least one).
    public var coldStarts: CountDistribution
    /// Returns from background a day.
    public var resumes: CountDistribution
    /// The length of each visit.
    public var foreground: DurationDistribution
    /// The attributes the app passes with every ask, drawn once per user and day.
    public var attributes: [ModelAttribute]
    /// App moments that may show an ad.
    public var actions: [ActionStream]
    /// Rewarded offers the app makes.
    public var rewarded: [RewardedStream]
    /// Where the segment's name is written.
    public var location: SourceLocation
}

extension Segment {
    /// The app moments (actions and rewarded offers) a user of this segment has a day on average: the time in the
    /// foreground (visits times their mean length, at most a day) over each stream's mean gap.
    var expectedMomentsPerDay: Double {
        let foregroundTime = min(expectedVisitsPerDay * foreground.mean, 86_400_000)
        let gaps = actions.map(\.every.mean) + rewarded.map(\.every.mean)
        return gaps.reduce(0) { $0 + foregroundTime / max($1, 1) }
    }

    /// The visits a user of this segment has a day on average (a cold start at least).
    var expectedVisitsPerDay: Double { max(1, coldStarts.mean) + resumes.mean }

    /// The streams a user of this segment starts a day on average: every stream starts (its first gap is drawn) in
    /// every visit, however short, so this is work ``expectedMomentsPerDay`` does not count (2,000 one-second visits
    /// of 128 streams an hour apart are 71 moments and 256,000 starts a day).
    var expectedStreamStartsPerDay: Double { expectedVisitsPerDay * Double(actions.count + rewarded.count) }
}

/// An attribute the app passes with its asks.
public struct ModelAttribute: Sendable {
    /// What the model says the value is.
    public enum Value: Sendable, Hashable {
        /// A scalar as written (a word, a number, true/false, a duration), read against the policy's declared type.
        case scalar(String, plain: Bool)
        /// A number drawn uniformly from `low...high` (whole numbers when both ends are whole).
        case uniform(Double, Double, whole: Bool)
        /// A duration drawn uniformly from `low...high`, in whole milliseconds.
        case uniformDuration(RuleDuration, RuleDuration)
        /// A whole number drawn from the Poisson distribution with this mean, for an `int` or `number` attribute.
        case poisson(Double)
        /// A duration drawn from the exponential distribution with this mean, for a `duration` attribute.
        case exponential(RuleDuration)
        /// A list of scalars as written, for a `[string]` or `[int]` attribute.
        case list([Item])
    }

    /// One scalar of a list, as written.
    public struct Item: Sendable, Hashable {
        /// The scalar's text.
        public var text: String
        /// Whether it was written plain, not quoted.
        public var plain: Bool
    }

    /// The attribute's name.
    public var name: String
    /// The value or distribution.
    public var value: Value
    /// Where the name is written.
    public var location: SourceLocation
    /// Where the value is written.
    public var valueLocation: SourceLocation
}

/// Actions of the app that may show an ad (a level end), at random gaps while the app is in the foreground.
public struct ActionStream: Sendable {
    /// The placement asked.
    public var placement: String
    /// The gap between two actions.
    public var every: DurationDistribution
    /// Where the placement is written.
    public var location: SourceLocation
}

/// Rewarded offers ("watch an ad for a hint") at random gaps while the app is in the foreground.
public struct RewardedStream: Sendable {
    /// The placement offered.
    public var placement: String
    /// The gap between two offers.
    public var every: DurationDistribution
    /// The probability that the user accepts an offer.
    public var accept: Double
    /// Where the placement is written.
    public var location: SourceLocation
}

/// How the ad network behaves.
public struct NetworkModel: Sendable {
    /// From `load_started` to `load_completed` or `load_failed`.
    public var loadTime: DurationDistribution
    /// The probability that a load completes.
    public var fillRate: Double
    /// The time an ad is on screen before `ad_closed`.
    public var adDuration: DurationDistribution
    /// The probability that a show ends in `show_failed`.
    public var showFailure: Double

    /// The defaults: loads take 2 s on average and always fill; ads stay 15 s and never fail.
    public static let standard = NetworkModel(loadTime: .exponential(2000), fillRate: 1, adDuration: .constant(15_000), showFailure: 0)
}
