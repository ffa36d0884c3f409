import AdRules
import AdRulesCompiler
import AdRulesYAML

/// A placement played where its policy denies what the play is for: a show that needs the user's choice played as an
/// action (each show is denied), or an offer of a placement that gives no reward (any reward is denied).
enum UsageMismatch: Sendable, Hashable {
    case choiceInActions
    case notRewardedInOffers(format: String)

    /// - Parameter usage: `actions` or `rewarded`, the list of the model that names the placement.
    init?(_ placement: Placement, usage: String) {
        if usage == "actions", placement.requireUserChoice.value {
            self = .choiceInActions
        } else if usage == "rewarded", !placement.format.value.isRewarded {
            self = .notRewardedInOffers(format: placement.format.value.rawValue)
        } else {
            return nil
        }
    }
}
