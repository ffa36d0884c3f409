/// The ad formats a placement can have.
public enum AdFormat: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Shown when the app starts cold and when it comes back to the foreground.
    case appOpen = "app_open"
    /// Fullscreen, between moments of the app (a level end).
    case interstitial
    /// Fullscreen, watched by the user's choice for a reward.
    case rewarded
    /// Fullscreen at a natural break, with a reward.
    case rewardedInterstitial = "rewarded_interstitial"
    /// A strip in the app's layout: not fullscreen.
    case banner
    /// An ad laid out as the app's own content: not fullscreen.
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
    /// Real ad units: a test unit id is a lint error.
    case production
    /// A policy for testing, which may use the networks' test unit ids.
    case test
}

extension AdFormat {
    /// What a log line or `print` shows: the spelling of rule files, scenario files and reports (`app_open`), not the
    /// Swift case name (`appOpen`).
    public var description: String { rawValue }
}
