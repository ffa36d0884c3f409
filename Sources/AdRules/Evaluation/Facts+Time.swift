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
        // Facts built for another policy are fitted first, as `apply` fits them: never an index out of range.
        if !fits(policy) { self = fitted(to: policy) }
        // Clamped, as every public entry clamps the times it is given: a time pinned to Int64.min made the next
        // decision's `now - loaded` overflow.
        return prepare(clamped: Milliseconds.clamped(now), policy: policy)
    }

    /// ``prepare(at:policy:)`` for a time already clamped (``Milliseconds/clamped(_:)``): what the engine calls, before
    /// every event and ask. (Inlined: most calls only compare three times, and the call cost more than that.)
    @discardableResult
    @inline(__always)
    package mutating func prepare(clamped now: Int64, policy: Policy) -> Bool {
        var ledgerChanged = false
        // A clock set back never reopens what had already run out by the latest time handled (rules.md §8: a
        // clock change never grants a show): a launch phase past `launch.max_wait`, a resume window past
        // `resume.max_delay`, an ad that finished loading after the return, an expired ad. Pinning below rewrites their times.
        let previous = max(observedTime, newestTime)
        if now < previous { endRunOutWindows(asOf: previous, policy: policy) }
        // Like a recorded time, the latest time handled is pinned: time runs on from `now`.
        observedTime = now
        if now < newestTime {
            ledgerChanged = pin(to: now)
            newestTime = now
        }
        if now > nextLoadDeadline { settleLoads(at: now, timeout: policy.storage.loadTimeoutMs) }
        return ledgerChanged
    }

    /// Marks the cached ads that had expired at `previous` and, per app_open placement, the launch phase and the resume
    /// window that had run out then, and an ad loaded after the return, so that pinning their times to an earlier `now` does not open them again.
    private mutating func endRunOutWindows(asOf previous: Int64, policy: Policy) {
        for i in placements.indices {
            let limits = policy.storage.placementLimits[i]
            if let loaded = placements[i].loadedAt, previous.subtractingSaturated(loaded) > limits.maxAdAge { placements[i].adRanOut = true }
            if placements[i].consumed != nil, let current = placements[i].current,
                !Facts.isWithinTimeout(since: current.at, now: previous, timeoutMs: policy.storage.fullscreenTimeoutMs)
            {
                placements[i].showRanOut = true
            }
            guard limits.format == .appOpen else { continue }
            if placements[i].launchOpen, let launched = launchedAt, limits.launchMaxWait >= 0,
                previous.subtractingSaturated(launched) > limits.launchMaxWait
            {
                placements[i].launchRanOut = true
            }
            guard let returned = returnedAt else { continue }
            if previous.subtractingSaturated(returned) > limits.resumeMaxDelay { placements[i].resumeRanOut = true }
            if let loaded = placements[i].loadedAt, loaded > returned { placements[i].loadedAfterReturn = true }
        }
    }

    /// Whether something reported on screen since `since` still counts at `now`, with `fullscreen_timeout` applied: for
    /// at most the timeout, a time later than `now` read as `now`.
    static func isWithinTimeout(since: Int64, now: Int64, timeoutMs: Int64) -> Bool {
        now.subtractingSaturated(min(since, now)) <= timeoutMs
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
        // Histories are sorted: only their tail can lie in the future.
        func pinned(_ shows: inout [ShowRecord]) -> Bool {
            var k = shows.count - 1
            while k >= 0, shows[k].at > now {
                shows[k].at = now
                k -= 1
            }
            return k < shows.count - 1
        }
        for i in placements.indices {
            if pinned(&placementShows[i]) { ledgerChanged = true }
            _ = pinned(&placements[i].loadingSince)
            _ = pinned(&placements[i].loadedAt)
            if let since = placements[i].showingSince, since > now { setShowing(i, since: now) }
            if let at = placements[i].current?.at, at > now { placements[i].current?.at = now }
        }
        for id in setAside.keys {
            if pinned(&setAside[id, default: []]) { ledgerChanged = true }
        }
        for g in groups.indices { _ = pinned(&groups[g]) }
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
