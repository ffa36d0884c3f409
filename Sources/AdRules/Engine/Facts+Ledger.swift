/// Facts from a persisted ledger: restored at start-up, or adopted when a ledger that could not be read becomes readable.
extension Facts {
    /// Facts restored from a validated ledger.
    ///
    /// Times later than `now` are pinned to `now` (spec §8), each history is sorted once (O(n log n), whatever order
    /// the file lists them in) and trimmed to its newest 512 shows (or the policy's largest cap), whatever their age.
    init(restoring snapshot: LedgerSnapshot, policy: Policy, now: Int64) {
        self.init(policy: policy, installedAt: min(snapshot.installedAt, now), sessionsBefore: snapshot.sessionCount)
        setHistories(snapshot.shows, policy: policy, now: now)
    }

    /// Takes in a ledger that could not be read when these facts started fresh.
    ///
    /// The ledger's install time, sessions and shows come first; the sessions and shows recorded since are counted
    /// after them, so nothing either side knew is lost.
    mutating func adopt(_ snapshot: LedgerSnapshot, policy: Policy, now: Int64) {
        let offset = snapshot.sessionCount
        var shows = snapshot.shows
        for (id, list) in showHistory(policy: policy) {
            shows[id, default: []] += list.map { ShowRecord(at: $0.at, session: $0.session > 0 ? $0.session.addingSaturated(offset) : 0) }
        }
        installedAt = min(installedAt, snapshot.installedAt, now)
        sessionCount = sessionCount.addingSaturated(offset)
        setHistories(shows, policy: policy, now: now)
    }

    /// Replaces every placement and group history with `shows`, sorted, pinned and trimmed.
    private mutating func setHistories(_ shows: [String: [ShowRecord]], policy: Policy, now: Int64) {
        // Every time is now at the latest: a clock set back later pins them again (spec §8).
        newestTime = max(newestTime, now)
        for i in placements.indices {
            placementShows[i] = []
            // The show in progress is pinned with its record, so that a show_failed finds the time it was recorded at.
            if let at = placements[i].current?.at, at > now { placements[i].current?.at = now }
        }
        var groupShows = Array(repeating: [ShowRecord](), count: groups.count)
        setAside = [:]
        for (id, list) in shows {
            guard let i = policy.storage.index(of: id) else {
                // Kept for the ledger, and for a policy that has the placement again: as many as any history keeps, not
                // only as many as this policy's caps need.
                keepAside(id, Facts.trimmedHistory(list, now: now, keep: Facts.maxShowsPerHistory))
                continue
            }
            let history = Facts.trimmedHistory(list, now: now, keep: policy.storage.showsKept)
            placementShows[i] = history
            for g in policy.groupsOfPlacement[i] { groupShows[g] += history.suffix(policy.storage.groupShowsKept[g]) }
        }
        groups = groupShows.enumerated().map { g, list in
            Facts.trimmedHistory(list, now: now, keep: policy.storage.groupShowsKept[g])
        }
    }

    /// A history pinned to `now`, sorted by time, cut to its newest `keep` shows (as ``append(_:to:keep:)`` keeps them).
    static func trimmedHistory(_ shows: [ShowRecord], now: Int64, keep: Int) -> [ShowRecord] {
        var list = shows.map { $0.at > now ? ShowRecord(at: now, session: $0.session) : $0 }
        list.sort { ($0.at, $0.session) < ($1.at, $1.session) }
        return list.count > keep ? Array(list.suffix(keep)) : list
    }
}
