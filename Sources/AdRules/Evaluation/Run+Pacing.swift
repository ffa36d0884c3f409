import Foundation

/// Pacing and caps: min_interval, session, hourly, daily and window caps, for placements and groups.
extension Run {
    // MARK: pacing and caps

    mutating func pacingReasons(_ placement: PlacementLimits, _ facts: borrowing Facts) {
        let t = placement.pacing
        if t.minInterval > 0, let last = facts.placements[index].shows.last {
            let clears = seen(last.at) + t.minInterval
            if now < clears {
                deny(.minInterval, message(.minInterval), at: policy.placements[index].minInterval.location, clearsAt: clears)
            }
        }
        capReasons(facts.placements[index].shows, t, group: -1, facts)
        let groups = policy.groupsOfPlacement[index]
        guard !groups.isEmpty else { return }
        for g in groups {
            let limits = policy.groupLimits[g]
            if limits.minInterval > 0, let last = facts.groups[g].last {
                let clears = seen(last.at) + limits.minInterval
                if now < clears {
                    let group = policy.groups[g]
                    deny(.groupMinInterval, capMessage(.minInterval, window: nil, group: g), at: group.minInterval?.location, clearsAt: clears, group: group.id)
                }
            }
        }
        for g in groups {
            capReasons(facts.groups[g], policy.groupLimits[g], group: g, facts)
        }
    }

    /// Where a cap is written: in the placement (group < 0) or in a group.
    enum CapKind { case session, hourly, daily, minInterval }

    func capLocation(_ key: CapKind, window: Int?, group: Int) -> SourceLocation? {
        if group < 0 {
            if let window { return policy.placements[index].caps[window].location }
            switch key {
            case .session: return policy.placements[index].sessionCap?.location
            case .hourly: return policy.placements[index].hourlyCap?.location
            case .daily: return policy.placements[index].dailyCap?.location
            case .minInterval: return policy.placements[index].minInterval.location
            }
        }
        let g = policy.groups[group]
        if let window { return g.caps[window].location }
        switch key {
        case .session: return g.sessionCap?.location
        case .hourly: return g.hourlyCap?.location
        case .daily: return g.dailyCap?.location
        case .minInterval: return g.minInterval?.location
        }
    }

    /// Session, hourly, daily and window caps over one show history, in that order.
    mutating func capReasons(_ shows: [ShowRecord], _ t: Limits, group: Int, _ facts: borrowing Facts) {
        let isGroup = group >= 0
        if t.sessionCap >= 0 {
            var count = 0
            if facts.sessionActive {
                var i = shows.count - 1
                while i >= 0, shows[i].session == facts.sessionCount {
                    count += 1
                    i -= 1
                }
            }
            if count >= t.sessionCap {
                deny(isGroup ? .groupSessionCap : .sessionCap, capMessage(.session, window: nil, group: group), at: capLocation(.session, window: nil, group: group), group: groupID(group))
            }
        }
        if t.hourlyCap >= 0 {
            windowCap(shows, max: t.hourlyCap, window: 3_600_000, code: isGroup ? .groupHourlyCap : .hourlyCap, message: capMessage(.hourly, window: nil, group: group), windowIndex: nil, group: group)
        }
        if t.dailyCap >= 0 {
            let day = today ?? localDay(facts)
            today = day
            var count = 0
            var i = shows.count - 1
            while i >= 0, seen(shows[i].at) >= day.start {
                count += 1
                i -= 1
            }
            if count >= t.dailyCap {
                let message = capMessage(.daily, window: nil, group: group, day: (day.start, timeZone))
                deny(isGroup ? .groupDailyCap : .dailyCap, message, at: capLocation(.daily, window: nil, group: group), clearsAt: t.dailyCap > 0 ? day.end : nil, group: groupID(group))
            }
        }
        for (k, cap) in t.windows.enumerated() {
            windowCap(shows, max: cap.max, window: cap.length, code: isGroup ? .groupWindowCap : .windowCap, message: capMessage(.hourly, window: k, group: group), windowIndex: k, group: group)
        }
    }

    func groupID(_ group: Int) -> String? { group >= 0 ? policy.groups[group].id : nil }

    /// A rolling window holds the shows with `time > now - window`; it clears when enough of them leave.
    mutating func windowCap(_ shows: [ShowRecord], max: Int, window: Int64, code: ReasonCode, message: ReasonText, windowIndex: Int?, group: Int) {
        var i = shows.count - 1
        var count = 0
        while i >= 0, seen(shows[i].at) > now - window {
            count += 1
            i -= 1
        }
        guard count >= max else { return }
        // The shows in the window are shows[i+1 ... end]; the (count - max + 1)-th oldest must leave.
        let clears: Int64? = max > 0 ? seen(shows[i + 1 + (count - max)].at) + window : nil
        deny(code, message, at: capLocation(.hourly, window: windowIndex, group: group), clearsAt: clears, group: groupID(group))
    }

    /// The calendar day of now: the one cached in the facts when it is still today, else computed.
    func localDay(_ facts: borrowing Facts) -> (start: Int64, end: Int64) {
        if let day = facts.day, now >= day.start, now < day.end,
            day.zone == (policy.namedZoneID ?? zone.identifier)
        {
            return (day.start, day.end)
        }
        let day = LocalDay.containing(now, in: timeZone)
        return (day.start, day.end)
    }

}
