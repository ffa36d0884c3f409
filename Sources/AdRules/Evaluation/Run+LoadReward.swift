import Foundation

/// The reasons of `load` and `reward` asks.
extension Run {
    // MARK: load and reward

    mutating func loadReasons(context: AskContext, _ facts: borrowing Facts) {
        let t = policy.placementLimits[index]
        if !t.enabled { deny(.placementDisabled, .disabled, at: .enabled) }
        if t.excludePremium && context.premium { deny(.premiumUser, .premiumLoad, at: .excludePremium) }
        if t.blockDuringFullscreen { screenReasons(blockOthers: true, facts) }
        if let loading = facts.placements[index].loadingSince, now - seen(loading) <= policy.loadTimeoutMs {
            deny(.alreadyLoading, .alreadyLoading, at: .placement)
        }
        if let loaded = facts.placements[index].loadedAt, now - seen(loaded) <= t.maxAdAge {
            deny(.alreadyLoaded, .alreadyLoaded, at: .maxAdAge)
        }
    }

    mutating func rewardReasons(_ facts: borrowing Facts) {
        let t = policy.placementLimits[index]
        if !t.enabled { deny(.placementDisabled, .disabled, at: .enabled) }
        if !t.format.isRewarded { deny(.notRewardedFormat, .notRewarded, at: .format) }
        guard let show = facts.placements[index].current else {
            deny(.noShow, .noShow, at: .placement)
            return
        }
        if t.requireUserChoice && !show.hadChoice { deny(.noUserChoice, .rewardWithoutChoice, at: .requireUserChoice) }
        if !show.earned { deny(.rewardNotEarned, .rewardNotEarned, at: .placement) }
        if show.granted { deny(.rewardAlreadyGranted, .rewardAlreadyGranted, at: .placement) }
    }
}
