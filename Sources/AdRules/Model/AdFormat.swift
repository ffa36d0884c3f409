/// The ad formats a placement can have.
public enum AdFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case appOpen = "app_open"
    case interstitial
    case rewarded
    case rewardedInterstitial = "rewarded_interstitial"
    case banner
    case native

    /// Whether an ad of this format covers the whole screen.
    public var isFullscreen: Bool {
        switch self {
        case .appOpen, .interstitial, .rewarded, .rewardedInterstitial: return true
        case .banner, .native: return false
        }
    }

    /// Whether the network grants a reward for this format.
    public var isRewarded: Bool { self == .rewarded || self == .rewardedInterstitial }
}

/// Whether test ad unit ids are acceptable.
public enum PolicyEnvironment: String, Sendable, Hashable, Codable, CaseIterable {
    case production
    case test
}
