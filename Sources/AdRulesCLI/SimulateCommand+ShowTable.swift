import AdRules
import AdRulesCompiler
import Foundation

extension SimulateCommand {
    /// The placements shown on a day and their shows, in the policy's order (the table's columns).
    static func showsOn(_ day: String, _ table: ShowTable) -> [(placement: String, shows: Int)] {
        (table.counts[day] ?? [:]).map { ($0.key, $0.value) }.sorted { table.order[$0.placement, default: 0] < table.order[$1.placement, default: 0] }
    }

    /// The text table of shows per day is a grid of at most this many cells and columns; a larger one is printed as
    /// a row for each day and placement with shows.
    static let maxTableCells = 10_000
    static let maxTableColumns = 50

    /// Shows by day and placement: the zone's name, the days with shows in order, the placements shown in the policy's
    /// order (and each one's place in it), and the counts by day and placement.
    struct ShowTable {
        var zone: String
        var days: [String]
        var placements: [String]
        var order: [String: Int]
        var counts: [String: [String: Int]]
    }

    /// The shows the engine counts, by calendar day in the policy's zone: see the comment inside.
    static func showsPerDay(_ outcome: TestOutcome, policy: Policy) -> ShowTable {
        let zone = zone(outcome.test, policy: policy)
        // The shows the engine counts (rules.md §6, §8): history and show_started of the policy's placements, less the show
        // in progress (started, not closed) that a show_failed took back, as the engine says it did (within
        // fullscreen_timeout, its reward not granted); a time later than a step's (a clock set back) is pinned to that
        // step's time, so a show counts in the day it was pinned to.
        // Looked up by id: a set of every placement's id, built for each test, copied every placement (10,000 placements
        // took 6 ms a test).
        func known(_ id: String) -> Bool { policy.placementID(id) != nil }
        // Every step pins the times after its own: a show's time is the earliest of its own and every later step's.
        var earliestFrom = Array(repeating: Int64.max, count: outcome.steps.count + 1)
        for k in outcome.steps.indices.reversed() { earliestFrom[k] = min(outcome.steps[k].time, earliestFrom[k + 1]) }
        var shows: [(placement: String, at: Int64, stood: Bool)] = outcome.test.history.filter { known($0.placement) }
            .map { ($0.placement, min($0.at, earliestFrom[0]), true) }
        var inProgress: [String: Int] = [:]
        for (k, step) in outcome.steps.enumerated() {
            guard case .event(let event) = step.step.action else { continue }
            switch event {
            case .showStarted(let id) where known(id.rawValue):
                inProgress[id.rawValue] = shows.count
                shows.append((id.rawValue, min(step.time, earliestFrom[k + 1]), true))
            case .showFailed(let id):
                if let index = inProgress.removeValue(forKey: id.rawValue), outcome.steps[k].tookBackAShow { shows[index].stood = false }
            case .adClosed(let id):
                inProgress[id.rawValue] = nil
            case .appLaunched:
                inProgress.removeAll()
            default: break
            }
        }
        shows.removeAll { !$0.stood }
        var counts: [String: [String: Int]] = [:]
        // The day of the show before, which most shows share (a day is worked out once, not for each of 100,000 shows).
        var last: (start: Int64, end: Int64, name: String)?
        for show in shows {
            // The day caps count the show in, named by the local date it starts on (a zone that fell back across
            // midnight gives the minute of the next date that came first to the day before), in the (proleptic
            // Gregorian) calendar the steps print, whatever the year (Foundation's gregorian calendar turns Julian
            // before 1582).
            let name: String
            if let last, show.at >= last.start, show.at < last.end {
                name = last.name
            } else {
                let day = zone.capDay(containing: show.at)
                name = Timestamps.localDate(milliseconds: day.start, in: zone)
                last = (day.start, day.end, name)
            }
            counts[name, default: [:]][show.placement, default: 0] += 1
        }
        // The placements shown, in the policy's order.
        let placements = Set(shows.map(\.placement)).compactMap { id in policy.placementID(id).map { (id, $0.slot) } }
            .sorted { $0.1 < $1.1 }.map(\.0)
        let order = Dictionary(placements.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        // In date order: a year past 9999 (a local day of 9999-12-31T20:00Z at +14:00) is written with five digits.
        return ShowTable(zone: TimeZoneNames.name(of: zone), days: counts.keys.sorted { ($0.count, $0) < ($1.count, $1) }, placements: placements, order: order, counts: counts)
    }
}
