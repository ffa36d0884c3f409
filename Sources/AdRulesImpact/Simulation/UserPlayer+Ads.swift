import AdRules

/// The engine calls, loads, shows and offers of a simulated user.
extension UserPlayer {
    // MARK: the engine

    /// Records an event, of the placement in `slot` (nil for a lifecycle event), by its index in the policy: no id is
    /// looked up or copied.
    @inline(__always)
    mutating func record(_ kind: AdEvent.Kind, slot: Int? = nil) {
        engineCalls += 1
        _ = engine.record(kind, placement: slot.flatMap(plan.policyIndex), at: now)
    }

    /// Asks about the placement in `slot`, by its index in the policy (no id is looked up or copied), and, when allowed,
    /// records `then` of it (`show_started` after a show, as `AdEngine.beginShow` does; `reward_granted` after a reward,
    /// as `AdEngine.claimReward` does); true when allowed. The reasons of a denial are left in ``found`` for
    /// ``denied(slot:)``; an ask about a placement the policy lacks, in ``unknownAsk``.
    @inline(__always)
    mutating func ask(_ kind: AskKind, slot: Int, trigger: ShowTrigger? = nil, then: AdEvent.Kind? = nil) -> Bool {
        engineCalls += 1
        guard let index = plan.policyIndex(slot) else {
            // (Asked all the same, as an app would: the engine brings its facts to now.)
            let ask = Ask(kind, placement: plan.placements[slot].id, trigger: trigger)
            if !engine.find(ask, context: context, at: now, into: &found) { unknownAsk = ask }
            return unknownAsk == nil && found.isAllowed
        }
        // (An index of the policy's placements is always found: the engine answers false for one outside them only.)
        let known =
            if let then {
                engine.find(kind, placement: index, trigger: trigger, context: context, thenRecord: then, at: now, into: &found)
            } else {
                engine.find(kind, placement: index, trigger: trigger, context: context, at: now, into: &found)
            }
        assert(known, "slot \(slot) is not placement \(index) of the policy")
        return unknownAsk == nil && found.isAllowed
    }

    /// Asks to show and, when allowed, records `show_started`, as `AdEngine.beginShow` does.
    @inline(__always)
    mutating func beginShow(_ slot: Int, trigger: ShowTrigger) -> Bool {
        ask(.show, slot: slot, trigger: trigger, then: .showStarted)
    }

    /// Asks to reward and, when allowed, records `reward_granted`, as `AdEngine.claimReward` does.
    @inline(__always)
    mutating func claimReward(_ slot: Int) -> Bool {
        ask(.reward, slot: slot, then: .rewardGranted)
    }

    /// A rewarded offer: `offer`; if allowed the user accepts with probability `accept`, chooses, and the app begins the show.
    mutating func offer(_ slot: Int, accept: Double) {
        guard ask(.offer, slot: slot) else {
            denied(slot: slot)
            return
        }
        counting[segment].placements[slot].offers += 1
        guard visitRandom.chance(accept) else { return }
        counting[segment].placements[slot].accepted += 1
        record(.userChose, slot: slot)
        shown(beginShow(slot, trigger: .action), slot: slot, reward: true)
    }

    // MARK: loads and shows

    mutating func askLoad(_ slot: Int, showOnCompletion: Bool) {
        guard ask(.load, slot: slot) else {
            unknownAsk = nil  // a load denied is not counted
            return
        }
        record(.loadStarted, slot: slot)
        counting[segment].placements[slot].loadsStarted += 1
        let completes = chance.chance(plan.network.fillRate)
        let time = now + plan.network.loadTime.draw(&chance)
        queue.push(.loadDone, at: time, index: slot, epoch: process, flag: completes, showOnCompletion: showOnCompletion)
    }

    mutating func loadDone(_ event: SimulationEvent) {
        // A load of an earlier app process died with it.
        guard event.epoch == process else { return }
        let slot = event.index
        guard event.flag else {
            record(.loadFailed, slot: slot)
            counting[segment].placements[slot].loadsFailed += 1
            return
        }
        record(.loadCompleted, slot: slot)
        counting[segment].placements[slot].loadsCompleted += 1
        if held[slot] { counting[segment].placements[slot].wastedLoads += 1 }
        held[slot] = true
        // The cold-start show is asked on every completion, as the recommended integration does (impact.md), in the
        // background too: the engine decides (leaving closes the launch phase, so a late load is `deferred_show`).
        // Only an app in the foreground can present: in the background an allowed ask leaves the ad cached.
        guard event.showOnCompletion else { return }
        if foreground, !endPending {
            shown(beginShow(slot, trigger: .loadCompleted), slot: slot, reward: false)
        } else {
            if !ask(.show, slot: slot, trigger: .loadCompleted) { denied(slot: slot) }
        }
    }

    /// Follows a `beginShow` decision: an allowed show runs (or fails); a denied one is counted, and an
    /// ad that is missing or expired is loaded for next time.
    mutating func shown(_ allowed: Bool, slot: Int, reward: Bool) {
        guard allowed else {
            denied(slot: slot)
            return
        }
        held[slot] = false
        if chance.chance(plan.network.showFailure) {
            record(.showFailed, slot: slot)
            counting[segment].placements[slot].showFailures += 1
            askLoad(slot, showOnCompletion: false)
            return
        }
        today[slot] += 1
        markCapsReached(slot)
        impressionLog?.append((slot, now))
        let closes = now + max(0, plan.network.adDuration.draw(&chance))
        // A fullscreen ad holds the user until it closes; a banner or native ad leaves the app usable.
        if plan.fullscreen[slot] { screenUntil = closes }
        queue.push(.adClosed, at: closes, index: slot, epoch: process, flag: reward)
    }

    /// After an impression: the caps it made full count as reached today, whether or not a later ask meets them. A
    /// group's cap is reached for every member of the group: marked for the group, and for its members at the day's
    /// end (``groupCapsToday``).
    mutating func markCapsReached(_ slot: Int) {
        // The marks go to tables taken from the player for the call, so that the closure does not capture the
        // player while its engine is in use (it finds the caps into the engine's findings): an overlapping access.
        var marks = capsToday, groupMarks = groupCapsToday
        (capsToday, groupCapsToday) = ([], [])
        engine.forEachCapReached(placement: slot, at: now) { code, group in
            guard let cap = CapKind(code: code) else { return }
            if let group { groupMarks[group] |= cap.bit } else { marks[slot] |= cap.bit }
        }
        (capsToday, groupCapsToday) = (marks, groupMarks)
    }

    mutating func adClosed(slot: Int, rewarded: Bool) {
        if rewarded {
            record(.rewardEarned, slot: slot)
            if claimReward(slot) { counting[segment].placements[slot].granted += 1 } else { unknownAsk = nil }
        }
        record(.adClosed, slot: slot)
        if plan.fullscreen[slot] { screenUntil = now }
        askLoad(slot, showOnCompletion: false)
        if endPending, screenUntil <= now { background() }
    }
}
