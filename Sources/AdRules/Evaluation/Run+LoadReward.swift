import Foundation

/// The reasons of `load` and `reward` asks.
extension Run {
    // MARK: load and reward

    func loadReasons(_ policy: PolicyStorage, context: AskContext, _ facts: borrowing Facts, _ found: inout Findings) {
        let t = policy.placementLimits[index]
        if !t.enabled { deny(.placementDisabled, .disabled, at: .enabled, &found) }
        if t.excludePremium && context.premium { deny(.premiumUser, .premiumLoad, at: .excludePremium, &found) }
        if t.blockDuringFullscreen { screenReasons(policy, blockOthers: true, facts, &found) }
        if let loading = facts.placements[index].loadingSince, now - seen(loading) <= policy.loadTimeoutMs {
            deny(.alreadyLoading, .alreadyLoading, at: .placement, &found)
        }
        if let loaded = facts.placements[index].loadedAt, !facts.placements[index].adRanOut, now - seen(loaded) <= t.maxAdAge {
            deny(.alreadyLoaded, .alreadyLoaded, at: .maxAdAge, &found)
        }
    }

    func rewardReasons(_ policy: PolicyStorage, _ facts: borrowing Facts, _ found: inout Findings) {
        let t = policy.placementLimits[index]
        if !t.enabled { deny(.placementDisabled, .disabled, at: .enabled, &found) }
        if !t.format.isRewarded { deny(.notRewardedFormat, .notRewarded, at: .format, &found) }
        guard let show = facts.placements[index].current else {
            deny(.noShow, .noShow, at: .placement, &found)
            return
        }
        if t.requireUserChoice && !show.hadChoice { deny(.noUserChoice, .rewardWithoutChoice, at: .requireUserChoice, &found) }
        if !show.earned { deny(.rewardNotEarned, .rewardNotEarned, at: .placement, &found) }
        if show.granted { deny(.rewardAlreadyGranted, .rewardAlreadyGranted, at: .placement, &found) }
    }
}
