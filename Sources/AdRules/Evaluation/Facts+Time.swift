/// What time does to the facts before an event or an ask: pinning times from a clock set back, and
/// settling loads that outlived `load_timeout` (rules.md §6, §8).
extension Facts {
    /// Brings the facts to `now` before an event or an ask is handled.
    ///
    /// Every recorded time later than `now` (the device clock was set back) is pinned to `now`, so the
    /// `next_allowed_at` given now comes true; a load in progress for longer than `load_timeout` becomes a
    /// failed load, with every effect of `load_failed`.
    /// - Returns: whether what the ledger persists (install time, show times) changed.
    @discardableResult
    public mutating func prepare(at now: Int64, policy: Policy) -> Bool {
        var ledgerChanged = false
        if now < newestTime {
            ledgerChanged = pin(to: now)
            newestTime = now
        }
        if now > nextLoadDeadline { settleLoads(at: now, timeout: policy.storage.loadTimeoutMs) }
        return ledgerChanged
    }

    /// Rewrites every recorded time later than `now` to `now`.
    private mutating func pin(to now: Int64) -> Bool {
        func pinned(_ t: inout Int64) -> Bool {
            guard t > now else { return false }
            t = now
            return true
        }
        func pinned(_ t: inout Int64?) -> Bool {
            guard let value = t, value > now else { return false }
            t = now
            return true
        }
        var ledgerChanged = pinned(&installedAt)
        _ = pinned(&sessionStart)
        _ = pinned(&launchedAt)
        _ = pinned(&backgroundSince)
        _ = pinned(&returnedAt)
        for (source, since) in external where since > now { external[source] = now }
        day = nil
        // A load start pinned to now times out at another time than the cached deadline: it is found again.
        nextLoadDeadline = .min
        for i in placements.indices {
            // Histories are sorted: only their tail can lie in the future.
            var k = placements[i].shows.count - 1
            while k >= 0, placements[i].shows[k].at > now {
                placements[i].shows[k].at = now
                ledgerChanged = true
                k -= 1
            }
            _ = pinned(&placements[i].loadingSince)
            _ = pinned(&placements[i].loadedAt)
            _ = pinned(&placements[i].showingSince)
            if let at = placements[i].current?.at, at > now { placements[i].current?.at = now }
        }
        for g in groups.indices {
            var k = groups[g].count - 1
            while k >= 0, groups[g][k].at > now {
                groups[g][k].at = now
                k -= 1
            }
        }
        return ledgerChanged
    }

    /// Ends the loads that outlived `load_timeout`: each is a `load_failed` (loading ends, the launch phase closes).
    private mutating func settleLoads(at now: Int64, timeout: Int64) {
        var next = Int64.max
        for i in placements.indices {
            guard let since = placements[i].loadingSince else { continue }
            let deadline = since.addingSaturated(timeout)
            if now > deadline {
                placements[i].loadingSince = nil
                placements[i].launchOpen = false
            } else {
                next = min(next, deadline)
            }
        }
        nextLoadDeadline = next
    }
}
