/// A lifecycle event the app records.
public enum AdEvent: Sendable, Hashable, CustomStringConvertible {
    /// A cold start: a new session, with nothing loading, cached or showing; the launch phase opens.
    case appLaunched
    /// The app went to the background: the launch phase and the resume window close.
    case appBackgrounded
    /// The app is active again; a return from background when an `appBackgrounded` came before it.
    case appResumed
    /// A load of the placement's ad started.
    case loadStarted(PlacementID)
    /// The load completed: an ad is cached.
    case loadCompleted(PlacementID)
    /// The load failed.
    case loadFailed(PlacementID)
    /// An app moment that counts towards `every_n_actions` (a level end).
    case action(PlacementID)
    /// The user chose to watch (tapped "watch an ad for a reward").
    case userChose(PlacementID)
    /// The ad is on screen; the show counts for pacing and caps.
    case showStarted(PlacementID)
    /// The ad failed to present: the ad is consumed, and the show in progress (not closed, within `fullscreen_timeout` of
    /// its start) taken back unless its reward was granted.
    case showFailed(PlacementID)
    /// The ad was dismissed.
    case adClosed(PlacementID)
    /// The network's earned-reward callback fired for the current show.
    case rewardEarned(PlacementID)
    /// The app gave the reward for the current show.
    case rewardGranted(PlacementID)
    /// A fullscreen ad the policy does not manage is on screen. Each source is tracked on its own; nil (or "") is
    /// the unnamed source.
    case fullscreenOpened(source: String?)
    /// A fullscreen ad the policy does not manage has closed: the source's, or with nil every external one ("" closes
    /// the unnamed source alone).
    case fullscreenClosed(source: String?)

    /// Event names that take a placement.
    public static let placementEvents = [
        "load_started", "load_completed", "load_failed", "action", "user_chose", "show_started", "show_failed",
        "ad_closed", "reward_earned", "reward_granted",
    ]
    /// The events that take a `source`: another SDK's fullscreen ad.
    public static let sourceEvents = ["fullscreen_opened", "fullscreen_closed"]
    /// Every event name, as scenario files spell them.
    public static let names = ["app_launched", "app_backgrounded", "app_resumed"] + placementEvents + sourceEvents

    /// Creates an event from its name as scenario files spell it; nil for an unknown name or a missing placement.
    public init?(name: String, placement: String?, source: String? = nil) {
        switch name {
        case "app_launched": self = .appLaunched
        case "app_backgrounded": self = .appBackgrounded
        case "app_resumed": self = .appResumed
        case "fullscreen_opened": self = .fullscreenOpened(source: source)
        case "fullscreen_closed": self = .fullscreenClosed(source: source)
        default:
            guard let text = placement else { return nil }
            let placement = PlacementID(text)
            switch name {
            case "load_started": self = .loadStarted(placement)
            case "load_completed": self = .loadCompleted(placement)
            case "load_failed": self = .loadFailed(placement)
            case "action": self = .action(placement)
            case "user_chose": self = .userChose(placement)
            case "show_started": self = .showStarted(placement)
            case "show_failed": self = .showFailed(placement)
            case "ad_closed": self = .adClosed(placement)
            case "reward_earned": self = .rewardEarned(placement)
            case "reward_granted": self = .rewardGranted(placement)
            default: return nil
            }
        }
    }

    /// The event's name as scenario files spell it.
    public var name: String {
        switch self {
        case .appLaunched: return "app_launched"
        case .appBackgrounded: return "app_backgrounded"
        case .appResumed: return "app_resumed"
        case .loadStarted: return "load_started"
        case .loadCompleted: return "load_completed"
        case .loadFailed: return "load_failed"
        case .action: return "action"
        case .userChose: return "user_chose"
        case .showStarted: return "show_started"
        case .showFailed: return "show_failed"
        case .adClosed: return "ad_closed"
        case .rewardEarned: return "reward_earned"
        case .rewardGranted: return "reward_granted"
        case .fullscreenOpened: return "fullscreen_opened"
        case .fullscreenClosed: return "fullscreen_closed"
        }
    }

    /// What a log line or `print` shows, as scenario files spell the event: `load_completed app_open`,
    /// `fullscreen_opened source: sdk`, `app_launched`. Control characters in ids are escaped.
    public var description: String {
        if let placement { return ControlCharacters.escaped("\(name) \(placement)") }
        if let source { return ControlCharacters.escaped("\(name) source: \(source)") }
        return name
    }

    /// The placement the event is about, if any.
    public var placement: String? { placementID?.rawValue }

    /// The placement the event is about, with its slot.
    var placementID: PlacementID? {
        switch self {
        case .loadStarted(let p), .loadCompleted(let p), .loadFailed(let p), .action(let p), .userChose(let p),
            .showStarted(let p), .showFailed(let p), .adClosed(let p), .rewardEarned(let p), .rewardGranted(let p):
            return p
        default: return nil
        }
    }

    /// What an event is, without its placement or source. With the placement looked up (an index of the policy's
    /// placements), it is what the engine applies: a caller that has the index already (the impact preview, which
    /// plays millions of events) records one without an id to look up, copy and release
    /// (``EngineCore/record(_:placement:source:at:)``).
    package enum Kind: Sendable {
        case appLaunched, appBackgrounded, appResumed
        case loadStarted, loadCompleted, loadFailed, action, userChose, showStarted, showFailed, adClosed, rewardEarned, rewardGranted
        case fullscreenOpened, fullscreenClosed
    }

    /// The event without its placement or source.
    package var kind: Kind {
        switch self {
        case .appLaunched: return .appLaunched
        case .appBackgrounded: return .appBackgrounded
        case .appResumed: return .appResumed
        case .loadStarted: return .loadStarted
        case .loadCompleted: return .loadCompleted
        case .loadFailed: return .loadFailed
        case .action: return .action
        case .userChose: return .userChose
        case .showStarted: return .showStarted
        case .showFailed: return .showFailed
        case .adClosed: return .adClosed
        case .rewardEarned: return .rewardEarned
        case .rewardGranted: return .rewardGranted
        case .fullscreenOpened: return .fullscreenOpened
        case .fullscreenClosed: return .fullscreenClosed
        }
    }

    /// The source of a `fullscreen_opened` or `fullscreen_closed` (nil for the unnamed one, or every one); nil for others.
    var source: String? {
        switch self {
        case .fullscreenOpened(let source), .fullscreenClosed(let source): return source
        default: return nil
        }
    }

    /// A launch, a return or a move to the background: the moments a ledger write that failed is tried again.
    var isLifecycle: Bool {
        switch self {
        case .appLaunched, .appResumed, .appBackgrounded: return true
        default: return false
        }
    }
}
