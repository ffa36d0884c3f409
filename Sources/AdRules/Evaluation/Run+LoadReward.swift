import AdRulesYAML
import Foundation

/// The reasons of `load` and `reward` asks.
extension Run {
    // MARK: load and reward

    mutating func loadReasons(context: AskContext) {
        let t = policy.placementLimits[index]
        if !t.enabled { deny(.placementDisabled, "placement \(box.value.id) is disabled (enabled: false)", at: box.value.enabled.location) }
        if t.excludePremium && context.premium {
            deny(.premiumUser, "premium users never load \(box.value.id) (exclude_premium)", at: box.value.excludePremium.location)
        }
        if t.blockDuringFullscreen { screenReasons(blockOthers: true) }
        if let loading = state.loadingSince, now - seen(loading) <= policy.loadTimeoutMs {
            deny(.alreadyLoading, "a load of \(box.value.id) is in progress", at: box.value.location)
        }
        if let loaded = state.loadedAt, now - seen(loaded) <= t.maxAdAge {
            deny(.alreadyLoaded, "an ad for \(box.value.id) is loaded and not expired (max_ad_age \(box.value.maxAdAge.value))", at: box.value.maxAdAge.location)
        }
    }

    mutating func rewardReasons() {
        if !box.value.format.value.isRewarded {
            deny(.notRewardedFormat, "\(box.value.id) is \(box.value.format.value.rawValue), which grants no reward", at: box.value.format.location)
        }
        guard let show = state.current else {
            deny(.noShow, "no show of \(box.value.id) to reward", at: box.value.location)
            return
        }
        if box.value.requireUserChoice.value && !show.hadChoice {
            deny(.noUserChoice, "the show of \(box.value.id) had no user choice before it (require_user_choice)", at: box.value.requireUserChoice.location)
        }
        if !show.earned { deny(.rewardNotEarned, "the network has not reported reward_earned for this show", at: box.value.location) }
        if show.granted { deny(.rewardAlreadyGranted, "the reward for this show was already granted", at: box.value.location) }
    }
}
