extension Facts {
    /// The fewest shows one history may be cut to: a history keeps this many, or one more than the policy's largest
    /// cap when that is more (``PolicyStorage/showsKept``).
    static let minShowsPerHistory = 512
    /// The largest cap: lint refuses a larger one (`schema/range`). A history keeps one show more than its cap (a
    /// `show_failed` may take one back); a ledger never grows past what its file may hold.
    package static let maxShowsPerHistory = 100_000

    /// Records an event at a time.
    /// - Parameters:
    ///   - event: what happened.
    ///   - now: when, in ms since 1970.
    ///   - policy: the policy these facts are indexed by.
    public mutating func apply(_ event: AdEvent, at now: Int64, policy: Policy) {
        if !fits(policy) { self = fitted(to: policy) }
        let now = Milliseconds.clamped(now)
        prepare(clamped: now, policy: policy)
        let index = event.placementID.flatMap { policy.storage.index(of: $0) }
        applyPrepared(event.kind, placement: index, source: event.source, at: now, policy: policy)
    }

    /// Records an event in facts that fit the policy and were brought to `now` (clamped) by ``prepare(clamped:policy:)``:
    /// what the engine calls, which prepares them first itself.
    /// - Parameters:
    ///   - kind: the event, without its placement or source.
    ///   - index: the event's placement, an index of the policy's placements; nil for none, or one the policy lacks (a
    ///     placement event is then ignored).
    ///   - source: the source of a `fullscreen_opened` or `fullscreen_closed`.
    package mutating func applyPrepared(_ kind: AdEvent.Kind, placement index: Int?, source: String?, at now: Int64, policy: Policy) {
        defer { newestTime = max(newestTime, now) }
        switch kind {
        case .appLaunched:
            sessionCount = sessionCount.addingSaturated(1)
            sessionActive = true
            sessionStart = now
            launchedAt = now
            backgroundSince = nil
            returnedAt = nil
            external.removeAll()
            nextLoadDeadline = .max
            for i in placements.indices {
                placements[i].loadingSince = nil
                placements[i].loadedAt = nil
                setShowing(i, since: nil)
                placements[i].consumed = nil
                placements[i].showRanOut = false
                placements[i].userChose = false
                placements[i].shownSinceReturn = false
                placements[i].launchOpen = policy.storage.placementLimits[i].format == .appOpen
                (placements[i].launchRanOut, placements[i].resumeRanOut, placements[i].loadedAfterReturn) = (false, false, false)
            }
        case .appBackgrounded:
            // An app-open ad covers the app's opening or return, and the user leaving the app dismisses it: back
            // from background, the app-open placement is not `already_showing` (cli.md's example scenario expects
            // `ad_not_ready` alone there, with no `ad_closed`). Other ads stay on screen through a trip to the
            // background (the user tapped the ad and comes back from the App Store to it): an app-open ad must
            // not stack over them.
            for i in placements.indices {
                placements[i].launchOpen = false
                if placements[i].showingSince != nil, policy.storage.placementLimits[i].format == .appOpen { setShowing(i, since: nil) }
            }
            // Background time starts at the first app_backgrounded since the app was last active (a multi-scene
            // app reports one per scene): a second one does not restart the session_timeout clock.
            if backgroundSince == nil { backgroundSince = now }
            returnedAt = nil
        case .appResumed:
            // Only an app_resumed after an app_backgrounded is a return; Control Center, a system alert or
            // coming back from an ad's web page also report "active" and change nothing.
            guard let since = backgroundSince else { return }
            if !sessionActive || now.subtractingSaturated(min(since, now)) >= policy.sessionTimeout.milliseconds {
                sessionCount = sessionCount.addingSaturated(1)
                sessionActive = true
                sessionStart = now
            }
            backgroundSince = nil
            returnedAt = now
            for i in placements.indices {
                placements[i].shownSinceReturn = false
                (placements[i].resumeRanOut, placements[i].loadedAfterReturn) = (false, false)
            }
        case .fullscreenOpened:
            external[source ?? ""] = now
        case .fullscreenClosed:
            // Each source is tracked on its own; without a source every external ad closes.
            if let source { external.removeValue(forKey: source) } else { external.removeAll() }
        default:
            guard let index, index >= 0, index < placements.count else { return }
            applyPlacementEvent(kind, index: index, at: now, policy: policy)
        }
    }

    private mutating func applyPlacementEvent(_ kind: AdEvent.Kind, index i: Int, at now: Int64, policy: Policy) {
        switch kind {
        case .loadStarted:
            placements[i].loadingSince = now
            nextLoadDeadline = min(nextLoadDeadline, now.addingSaturated(policy.storage.loadTimeoutMs))
        case .loadCompleted:
            // A load that outlived load_timeout was already settled as failed by `prepare`.
            placements[i].loadingSince = nil
            placements[i].loadedAt = now
            (placements[i].loadedAfterReturn, placements[i].adRanOut) = (false, false)
        case .loadFailed:
            placements[i].loadingSince = nil
            placements[i].launchOpen = false
        case .action:
            placements[i].actions += 1
        case .userChose:
            placements[i].userChose = true
        case .showStarted:
            let record = ShowRecord(at: now, session: sessionActive ? sessionCount : 0)
            let keep = policy.storage.showsKept
            Facts.append(record, to: &placementShows[i], keep: keep)
            for g in policy.groupsOfPlacement[i] { Facts.append(record, to: &groups[g], keep: policy.storage.groupShowsKept[g]) }
            placements[i].consumed = (placements[i].userChose, placements[i].actions)
            placements[i].showRanOut = false
            placements[i].current = CurrentShow(at: now, hadChoice: placements[i].userChose)
            setShowing(i, since: now)
            placements[i].userChose = false
            placements[i].actions = 0
            placements[i].loadedAt = nil
            placements[i].launchOpen = false
            placements[i].shownSinceReturn = true
        case .showFailed:
            // The show in progress (started, not closed, within fullscreen_timeout) is taken back; with none, only the ad
            // is consumed. A show whose reward was granted happened: it is not taken back, nor is its choice given back (a
            // show_failed after each granted reward paid out one choice's rewards without end, past every cap).
            if placements[i].failureTakesBackAShow(at: now, fullscreenTimeoutMs: policy.storage.fullscreenTimeoutMs),
                let consumed = placements[i].consumed, let current = placements[i].current
            {
                Facts.remove(at: current.at, from: &placementShows[i])
                for g in policy.groupsOfPlacement[i] { Facts.remove(at: current.at, from: &groups[g]) }
                placements[i].userChose = consumed.userChose || placements[i].userChose
                placements[i].actions += consumed.actions
                placements[i].current = nil
            }
            placements[i].consumed = nil
            placements[i].showRanOut = false
            setShowing(i, since: nil)
            placements[i].loadedAt = nil
            placements[i].launchOpen = false
        case .adClosed:
            setShowing(i, since: nil)
            placements[i].consumed = nil
            placements[i].showRanOut = false
        case .rewardEarned:
            placements[i].current?.earned = true
        case .rewardGranted:
            placements[i].current?.granted = true
        default:
            break
        }
    }

    /// Appends a show and forgets the oldest past the newest `keep`. The list is already pinned to `now` (`apply`, or the
    /// engine before `applyPrepared`, runs `prepare` first), so it stays sorted.
    ///
    /// Shows are forgotten by count, never by age: a cap of `max` reads at most the newest `max` shows, whatever the
    /// time, and a clock set back by days brings shows of that age back into their windows and calendar days (rules.md
    /// §8). (Forgetting shows older than the longest window let a clock set back a minute past it allow a capped show.)
    static func append(_ record: ShowRecord, to list: inout [ShowRecord], keep: Int) {
        list.append(record)
        if list.count > keep { list.removeFirst(list.count - keep) }
    }

    static func remove(at time: Int64, from list: inout [ShowRecord]) {
        if let index = list.lastIndex(where: { $0.at == time }) { list.remove(at: index) }
    }
}
