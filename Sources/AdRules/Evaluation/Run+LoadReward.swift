import Foundation

/// The reasons of `load` and `reward` asks.
extension Run {
    // MARK: load and reward

    mutating func loadReasons(context: AskContext) {
        let t = policy.placementLimits[index]
        if !t.enabled { deny(.placementDisabled, t.messages.disabled, at: box.value.enabled.location) }
        if t.excludePremium && context.premium {
            deny(.premiumUser, t.messages.premiumLoad, at: box.value.excludePremium.location)
        }
        if t.blockDuringFullscreen { screenReasons(blockOthers: true) }
        if let loading = state.loadingSince, now - seen(loading) <= policy.loadTimeoutMs {
            deny(.alreadyLoading, t.messages.alreadyLoading, at: box.value.location)
        }
        if let loaded = state.loadedAt, now - seen(loaded) <= t.maxAdAge {
            deny(.alreadyLoaded, t.messages.alreadyLoaded, at: box.value.maxAdAge.location)
        }
    }

    mutating func rewardReasons() {
        let t = policy.placementLimits[index]
        if !t.enabled { deny(.placementDisabled, t.messages.disabled, at: box.value.enabled.location) }
        if !box.value.format.value.isRewarded {
            deny(.notRewardedFormat, t.messages.notRewarded, at: box.value.format.location)
        }
        guard let show = state.current else {
            deny(.noShow, t.messages.noShow, at: box.value.location)
            return
        }
        if box.value.requireUserChoice.value && !show.hadChoice {
            deny(.noUserChoice, t.messages.rewardWithoutChoice, at: box.value.requireUserChoice.location)
        }
        if !show.earned { deny(.rewardNotEarned, "the network has not reported reward_earned for this show", at: box.value.location) }
        if show.granted { deny(.rewardAlreadyGranted, "the reward for this show was already granted", at: box.value.location) }
    }
}
