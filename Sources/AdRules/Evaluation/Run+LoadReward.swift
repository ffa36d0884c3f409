import Foundation

/// The reasons of `load` and `reward` asks.
extension Run {
    // MARK: load and reward

    mutating func loadReasons(context: AskContext, _ facts: borrowing Facts) {
        let t = policy.placementLimits[index]
        if !t.enabled { deny(.placementDisabled, message(.disabled), at: policy.placements[index].enabled.location) }
        if t.excludePremium && context.premium {
            deny(.premiumUser, message(.premiumLoad), at: policy.placements[index].excludePremium.location)
        }
        if t.blockDuringFullscreen { screenReasons(blockOthers: true, facts) }
        if let loading = facts.placements[index].loadingSince, now - seen(loading) <= policy.loadTimeoutMs {
            deny(.alreadyLoading, message(.alreadyLoading), at: policy.placements[index].location)
        }
        if let loaded = facts.placements[index].loadedAt, now - seen(loaded) <= t.maxAdAge {
            deny(.alreadyLoaded, message(.alreadyLoaded), at: policy.placements[index].maxAdAge.location)
        }
    }

    mutating func rewardReasons(_ facts: borrowing Facts) {
        let t = policy.placementLimits[index]
        if !t.enabled { deny(.placementDisabled, message(.disabled), at: policy.placements[index].enabled.location) }
        if !policy.placements[index].format.value.isRewarded {
            deny(.notRewardedFormat, message(.notRewarded), at: policy.placements[index].format.location)
        }
        guard let show = facts.placements[index].current else {
            deny(.noShow, message(.noShow), at: policy.placements[index].location)
            return
        }
        if policy.placements[index].requireUserChoice.value && !show.hadChoice {
            deny(.noUserChoice, message(.rewardWithoutChoice), at: policy.placements[index].requireUserChoice.location)
        }
        if !show.earned { deny(.rewardNotEarned, "the network has not reported reward_earned for this show", at: policy.placements[index].location) }
        if show.granted { deny(.rewardAlreadyGranted, "the reward for this show was already granted", at: policy.placements[index].location) }
    }
}
