import Foundation

/// Pacing and caps: min_interval, session, hourly, daily and window caps, for placements and groups.
extension Run {
    // MARK: pacing and caps

    func pacingReasons(_ policy: PolicyStorage, _ placement: PlacementLimits, _ facts: borrowing Facts, zone: TimeZone, _ found: inout Findings) {
        let t = placement.pacing
        if t.minInterval > 0, let last = facts.placementShows[index].last {
            let clears = seen(last.at) + t.minInterval
            if now < clears { deny(.minInterval, .minInterval, at: .minInterval, clearsAt: clears, &found) }
        }
        placementCapReasons(policy, t, facts, zone: zone, &found)
        let groups = policy.groupsOfPlacement.range(of: index)
        guard !groups.isEmpty else { return }
        // One pass over the groups: their min_interval, and whether any history could reach a cap (most cannot).
        let session = facts.sessionActive ? facts.sessionCount : nil
        var capsMayDeny = false
        for k in groups {
            let g = policy.groupsOfPlacement.item(at: k)
            let limits = policy.groupLimits[g]
            if limits.minInterval > 0, let last = facts.groups[g].last {
                let clears = seen(last.at) + limits.minInterval
                if now < clears { deny(.groupMinInterval, capSite(.groupMinInterval, at: .minInterval, group: g), clearsAt: clears, &found) }
            }
            if !capsMayDeny {
                capsMayDeny = limits.capsMayDeny(count: facts.groups[g].count, newest: facts.groups[g].last, now: now, session: session)
            }
        }
        if capsMayDeny { groupCapReasons(policy, groups, facts, zone: zone, &found) }
    }

    /// The placement's own caps. A history that cannot reach a cap is not passed on: most asks stop here.
    func placementCapReasons(_ policy: PolicyStorage, _ t: Limits, _ facts: borrowing Facts, zone: TimeZone, _ found: inout Findings) {
        let session = facts.sessionActive ? facts.sessionCount : nil
        if t.capsMayDeny(count: facts.placementShows[index].count, newest: facts.placementShows[index].last, now: now, session: session) {
            capReasons(policy, facts.placementShows[index], t, group: -1, facts, zone: zone, &found)
        }
    }

    /// The caps of the placement's groups; `groups` are positions in `groupsOfPlacement`. Reasons come in the
    /// order of the spec's table (every group's session cap, then every group's hourly cap, and so on), each kind
    /// in the order of the groups.
    func groupCapReasons(_ policy: PolicyStorage, _ groups: Range<Int>, _ facts: borrowing Facts, zone: TimeZone, _ found: inout Findings) {
        let session = facts.sessionActive ? facts.sessionCount : nil
        let first = found.denials.count
        for k in groups {
            let g = policy.groupsOfPlacement.item(at: k)
            if policy.groupLimits[g].capsMayDeny(count: facts.groups[g].count, newest: facts.groups[g].last, now: now, session: session) {
                capReasons(policy, facts.groups[g], policy.groupLimits[g], group: g, facts, zone: zone, &found)
            }
        }
        if found.denials.count - first > 1 { found.sortGroupCaps(from: first) }
    }

    /// The site of a pacing or cap reason: of this placement (group < 0) or of a group.
    func capSite(_ text: ReasonSite.Text, at setting: ReasonSite.Setting, group: Int, window: Int = -1) -> ReasonSite {
        var site = site(text, at: setting)
        site.group = group
        site.window = window
        return site
    }

    /// Session, hourly, daily and window caps over one show history, in that order.
    func capReasons(
        _ policy: PolicyStorage, _ shows: borrowing [ShowRecord], _ t: Limits, group: Int, _ facts: borrowing Facts, zone: TimeZone,
        _ found: inout Findings
    ) {
        let isGroup = group >= 0
        if t.sessionCap >= 0 {
            var count = 0
            if facts.sessionActive {
                var i = shows.count - 1
                // Counted back to the cap at most: a history of 15,000 shows in this session scanned them all on every
                // ask, in each group too (a scenario within the test runner's bound took 22 s).
                while i >= 0, count < t.sessionCap, shows[i].session == facts.sessionCount {
                    count += 1
                    i -= 1
                }
            }
            if count >= t.sessionCap {
                deny(isGroup ? .groupSessionCap : .sessionCap, capSite(.sessionCap, at: .sessionCap, group: group), &found)
            }
        }
        if t.hourlyCap >= 0, case .full(let clears) = window(shows, max: t.hourlyCap, length: 3_600_000) {
            deny(isGroup ? .groupHourlyCap : .hourlyCap, capSite(.hourlyCap, at: .hourlyCap, group: group), clearsAt: clears, &found)
        }
        if t.dailyCap >= 0 && dailyCapMayBeReached(shows, cap: t.dailyCap) {
            let day = found.today ?? localDay(policy, facts, zone: zone)
            found.today = day
            // Shows are sorted: the cap is reached when the cap-th newest show is from today.
            if t.dailyCap == 0 || seen(shows[shows.count - t.dailyCap].at) >= day.start {
                var site = capSite(.dailyCap, at: .dailyCap, group: group)
                site.day = day.start
                deny(isGroup ? .groupDailyCap : .dailyCap, site, clearsAt: t.dailyCap > 0 ? day.end : nil, &found)
            }
        }
        for w in t.windows {
            let cap = policy.windows[w]
            if case .full(let clears) = window(shows, max: cap.max, length: cap.length) {
                let site = capSite(.windowCap, at: .window, group: group, window: w - t.windows.lowerBound)
                deny(isGroup ? .groupWindowCap : .windowCap, site, clearsAt: clears, &found)
            }
        }
    }

    /// Whether a daily cap could be reached at all: only when the cap-th newest show is recent enough to fall
    /// on the local day of now. Most asks are decided here, with no calendar work.
    func dailyCapMayBeReached(_ shows: borrowing [ShowRecord], cap: Int) -> Bool {
        guard cap > 0 else { return true }
        return shows.count >= cap && seen(shows[shows.count - cap].at) > now - LocalDay.longest
    }

    /// A rolling window's state: below its cap, or full until a time (nil for a cap of 0, which never clears).
    enum WindowState {
        case open
        case full(clearsAt: Int64?)
    }

    /// Whether a rolling window holds `max` shows or more (the shows with `time > now - length`), and if so
    /// when it clears: when enough of them leave.
    func window(_ shows: borrowing [ShowRecord], max: Int, length: Int64) -> WindowState {
        // Shows are sorted (and `seen` keeps their order): the first show inside the window is found by binary
        // search, so a long history costs its logarithm, not its length, on every ask.
        var low = 0
        var high = shows.count
        while low < high {
            let middle = (low + high) / 2
            if seen(shows[middle].at) > now - length { high = middle } else { low = middle + 1 }
        }
        let count = shows.count - low
        guard count >= max else { return .open }
        // The shows in the window are shows[low...]; for the count to fall below max, the oldest count - max + 1 of them
        // must leave, the last of which is shows[shows.count - max].
        return .full(clearsAt: max > 0 ? seen(shows[shows.count - max].at) + length : nil)
    }

    /// The calendar day of now: the one cached in the facts when it is still today, else computed.
    func localDay(_ policy: PolicyStorage, _ facts: borrowing Facts, zone: TimeZone) -> (start: Int64, end: Int64) {
        if let day = facts.day, now >= day.start, now < day.end, isInZone(day, policy, zone: zone) {
            return (day.start, day.end)
        }
        let day = LocalDay.containing(now, in: Run.timeZone(policy, device: zone))
        return (day.start, day.end)
    }
}

/// The caps a show would meet now: what a report counts as a cap reached, even when no later ask was denied by it.
extension Evaluator {
    /// Visits the caps of a placement, and of its groups, that a show at `now` would meet (count at or over the cap):
    /// the session, hourly, daily and window caps, by reason code, with the group (an index into the policy's
    /// groups) for a group's cap. Pacing (`min_interval`) is not a cap and is left out. No list of the caps is
    /// returned: the impact preview asks after every show. The caps are found into `found` (emptied first), whose
    /// storage the caller keeps from call to call.
    package static func forEachCapReached(
        placement index: Int, policy: Policy, facts: borrowing Facts, now: Int64, deviceTimeZone: TimeZone, dayInZone: Bool? = nil,
        into found: inout Findings,
        _ body: (_ code: ReasonCode, _ group: Int?) -> Void
    ) {
        found.reset()
        let storage = policy.storage
        guard index >= 0, index < storage.placementLimits.count, facts.fits(policy) else { return }
        let run = Run(index: index, now: Milliseconds.clamped(now), dayInZone: dayInZone)
        run.placementCapReasons(storage, storage.placementLimits[index].pacing, facts, zone: deviceTimeZone, &found)
        run.groupCapReasons(storage, storage.groupsOfPlacement.range(of: index), facts, zone: deviceTimeZone, &found)
        for denial in found.denials { body(denial.code, denial.site.group >= 0 ? denial.site.group : nil) }
    }
}
