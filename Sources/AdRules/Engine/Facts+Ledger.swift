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

    /// Takes in a ledger that could not be read when these facts started fresh, from `sessionsBefore` sessions (the
    /// app's count for a ledger started fresh).
    ///
    /// The ledger's install time, sessions and shows come first, as a ledger read at the start would have given them;
    /// the sessions and shows recorded since are counted after them, so nothing either side knew is lost, and the app's
    /// count for a fresh ledger, which the ledger's own replaces, is not added to it.
    mutating func adopt(_ snapshot: LedgerSnapshot, startedFrom sessionsBefore: Int, policy: Policy, now: Int64) {
        let base = max(0, sessionsBefore)
        // A session recorded since is numbered after the ledger's.
        func renumbered(_ session: Int) -> Int { snapshot.sessionCount.addingSaturated(max(0, session - base)) }
        var shows = snapshot.shows
        for (id, list) in showHistory(policy: policy) {
            shows[id, default: []] += list.map { ShowRecord(at: $0.at, session: $0.session > 0 ? renumbered($0.session) : 0) }
        }
        installedAt = min(snapshot.installedAt, now)
        sessionCount = renumbered(sessionCount)
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
