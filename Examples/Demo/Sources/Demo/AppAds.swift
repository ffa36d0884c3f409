import AdRules
import Foundation

/// The ad code of an app, as it sits in the AppDelegate, the SceneDelegate and the ad SDK's callbacks.
///
/// The engine decides; this code records what happens and does what the decisions say. It keeps no flags
/// such as `isLoading`, `isShowing` or `isInitialLaunch`: the engine knows them from the events. The ad
/// network is simulated (``SimulatedAdNetwork``) so that the demo runs anywhere, on a manual clock.
@MainActor
final class AppAds {
    let engine: AdEngine
    let network: SimulatedAdNetwork
    let log: Transcript
    /// Who the user is: premium users see no ads; custom rules read the attributes (rules/custom.yaml).
    var isSubscribed = false { didSet { updateContext() } }
    var currentScreen = "home" { didSet { updateContext() } }
    var level = 1 { didSet { updateContext() } }
    private var appOpenAd: SimulatedAd?
    private var rewardedAd: SimulatedAd?
    private var interstitialAd: SimulatedAd?

    /// Starts the engine on the policy compiled into the app. A cold start is a new process: caps, sessions and
    /// the install time come back from the ledger file.
    init(clock: any AdClock, deviceTimeZone: TimeZone, ledgerURL: URL, network: SimulatedAdNetwork, log: Transcript) throws {
        let policy = try Policy.bundled()      // compiled from Sources/Demo/rules/ at build time by AdRulesPlugin
        engine = AdEngine(
            policy: policy,
            clock: clock,                      // an app leaves the default, SystemClock()
            store: FileLedgerStore(url: ledgerURL),  // caps, sessions and the install time survive relaunch
            deviceTimeZone: deviceTimeZone,    // an app leaves the default, the user's zone: daily caps reset at their midnight
            onLedgerProblem: { problem in log.say("ledger: \(problem)") }  // a corrupt ledger is kept aside, an unreadable one left alone
        )
        self.network = network
        self.log = log
        updateContext()
    }

    /// Sets who is asking on the engine, at launch and whenever it changes (a purchase, a restore, a new screen):
    /// every ask below then uses it, so no ad path can forget that the user is premium.
    private func updateContext() {
        engine.context = AskContext(premium: isSubscribed, attributes: ["screen": .string(currentScreen), "level": .int(Int64(level))])
    }

    // MARK: App-open ads

    /// application(_:didFinishLaunchingWithOptions:)
    func applicationDidFinishLaunching() {
        engine.record(.appLaunched)
        loadAppOpenAd()
    }

    /// sceneDidEnterBackground(_:)
    func sceneDidEnterBackground() {
        engine.record(.appBackgrounded)
    }

    /// sceneDidBecomeActive(_:) (applicationDidBecomeActive(_:) in an app without scenes): the UI is ready to present.
    /// It also runs at a cold launch and after Control Center or a system alert; the engine knows from the events
    /// that those are no return from background, and denies their resume show.
    func sceneDidBecomeActive() {
        engine.record(.appResumed)
        // Shows only an ad loaded before the return, within resume.max_delay (3s) of it.
        let decision = showAppOpenAd(trigger: .resume)
        if decision.codes.contains(.adNotReady) || decision.codes.contains(.adExpired) {
            loadAppOpenAd()  // for the next return: an ad that finishes loading now is never shown late
        }
    }

    /// Loads an ad for a placement when the policy allows it (not while one is loading, cached or on screen, not for a
    /// premium user), recording the load's events; `loaded` keeps the ad.
    func load(_ placement: PlacementID, then loaded: @escaping (SimulatedAd) -> Void) {
        // Asked and recorded as load_started in one step: two callers never both start a load.
        let decision = engine.beginLoad(placement)
        guard decision.isAllowed else { return log.say("\(decision)") }
        network.load(placement) { ad in
            guard let ad else { return self.engine.record(.loadFailed(placement)) }
            self.engine.record(.loadCompleted(placement))
            loaded(ad)
        }
    }

    func loadAppOpenAd() {
        load(Placements.appOpen) { ad in
            self.appOpenAd = ad
            // The cold-start show: allowed only inside the launch phase (launch.max_wait: 5s), never late.
            // The shipped rules say grace.first_sessions: 2, so in the first two sessions after install (a launch, or a
            // return after session_timeout, starts one) this is denied grace_sessions (rules/app_open.yaml).
            self.showAppOpenAd(trigger: .loadCompleted)
        }
    }

    @discardableResult
    func showAppOpenAd(trigger: ShowTrigger) -> Decision {
        // Asks and, when allowed, records show_started under the engine's lock: two callers are never both allowed.
        let decision = engine.beginShow(Placements.appOpen, trigger: trigger)
        log.say("\(decision)")  // deny show app_open (resume): min_interval 4m not elapsed … [rules/app_open.yaml:12:19]
        guard decision.isAllowed else {
            if let next = decision.nextAllowedAt { log.say("  its time limits clear at \(log.time(next)); a later return can show one") }
            return decision
        }
        guard let ad = appOpenAd else {
            engine.record(.showFailed(Placements.appOpen))  // takes the show back
            return decision
        }
        appOpenAd = nil
        network.present(ad, onDismiss: { self.appOpenAdDidDismiss() }, onFailure: { self.appOpenAdDidFailToPresent() })
        return decision
    }

    /// adDidDismissFullScreenContent(_:)
    func appOpenAdDidDismiss() {
        engine.record(.adClosed(Placements.appOpen))
        loadAppOpenAd()
    }

    /// ad(_:didFailToPresentFullScreenContentWithError:)
    func appOpenAdDidFailToPresent() {
        engine.record(.showFailed(Placements.appOpen))
        loadAppOpenAd()
    }

    // MARK: Interstitials: at a level's end, when the policy's pacing allows

    func loadInterstitial() {
        load(Placements.levelEnd) { self.interstitialAd = $0 }
    }

    /// The user finished a level: an action for every_n_actions, then a show if the policy allows one now.
    func levelEnded() {
        engine.record(.action(Placements.levelEnd))
        let decision = engine.beginShow(Placements.levelEnd, trigger: .action)
        log.say("\(decision)")  // deny show level_end (action): every_n_actions: fewer than 3 actions … [rules/interstitial.yaml:12:22]
        guard decision.isAllowed else { return }
        guard let ad = interstitialAd else {
            engine.record(.showFailed(Placements.levelEnd))  // takes the show back
            return loadInterstitial()
        }
        interstitialAd = nil
        network.present(
            ad,
            onDismiss: {
                self.engine.record(.adClosed(Placements.levelEnd))
                self.loadInterstitial()  // the next one, ready for a later level end
            },
            onFailure: {
                self.engine.record(.showFailed(Placements.levelEnd))
                self.loadInterstitial()
            }
        )
    }

    // MARK: Rewarded ads: offer, the user's choice, one show, one reward

    func loadRewardedAd() {
        load(Placements.rewardedHint) { self.rewardedAd = $0 }
    }

    /// Whether to show the "Watch an ad for a hint" button: loaded, not capped, not premium.
    func offersHint() -> Bool {
        let decision = engine.ask(.offer(Placements.rewardedHint))
        log.say("\(decision)")
        return decision.isAllowed
    }

    /// The user tapped "Watch an ad for a hint".
    func userTappedWatchButton() {
        engine.record(.userChose(Placements.rewardedHint))
        let decision = engine.beginShow(Placements.rewardedHint, trigger: .action)
        log.say("\(decision)")
        guard decision.isAllowed else { return }
        guard let ad = rewardedAd else {
            engine.record(.showFailed(Placements.rewardedHint))  // gives the choice back; the next ad is loaded at once
            return loadRewardedAd()
        }
        rewardedAd = nil
        network.present(
            ad,
            onReward: { self.userEarnedReward() },  // the network's earned-reward callback
            onDismiss: {
                self.engine.record(.adClosed(Placements.rewardedHint))
                self.loadRewardedAd()
            },
            onFailure: {
                self.engine.record(.showFailed(Placements.rewardedHint))
                self.loadRewardedAd()  // after a failure as after a close: the button comes back with the next ad
            }
        )
    }

    /// Grants the hint once, and only after the network said the reward was earned: a second callback is denied.
    func userEarnedReward() {
        engine.record(.rewardEarned(Placements.rewardedHint))
        let decision = engine.claimReward(Placements.rewardedHint)
        log.say("\(decision)")
        if decision.isAllowed { log.say("  hint granted") }
    }

    // MARK: Another SDK's fullscreen ad

    /// Another SDK (mediation, a house ad) covers the screen: no placement loads or shows until it closes.
    /// Recorded when its ad did present (a will-present callback may still be followed by a failure).
    func otherSDKDidPresentFullscreen() {
        engine.record(.fullscreenOpened(source: "mediation"))
    }

    func otherSDKDidDismissFullscreen() {
        engine.record(.fullscreenClosed(source: "mediation"))
    }

    /// The other SDK's ad failed to present: closed too, or every placement stays denied fullscreen_active until
    /// fullscreen_timeout.
    func otherSDKDidFailToPresentFullscreen() {
        engine.record(.fullscreenClosed(source: "mediation"))
    }

    // MARK: Remote policy updates

    /// A compiled policy downloaded from the server (`adrules compile` ran in CI). A bad download is refused and the
    /// policy in force stays in force.
    func policyDownloaded(_ data: Data) {
        do {
            let policy = try Policy(compiled: data)
            // Every id the bundled rules have must be in it: an ask for one it lacks is always denied unknown_placement.
            let missing = Placements.all.filter { policy.placementID($0.rawValue) == nil }
            guard missing.isEmpty else { return log.say("kept the policy in force: it lacks \(missing)") }
            engine.update(policy: policy)
            log.say("policy updated: \(policy.placements.count) placements")
        } catch {
            log.say("kept the policy in force: \(error.localizedDescription)")
        }
    }
}

extension AppAds {
    /// The engine as an app starts it: the system clock and the user's time zone (the defaults the demo replaces), the
    /// ledger in Application Support (`FileLedgerStore` creates its folder on the first write), and the app's logger told
    /// of a ledger it cannot read or write.
    static func appEngine() throws -> AdEngine {
        let support = try FileManager.default.url(for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: false)
        return AdEngine(
            policy: try Policy.bundled(),
            store: FileLedgerStore(url: support.appending(path: "AdRules/ad-ledger.json")),
            onLedgerProblem: { problem in print("ad ledger: \(problem)") }  // the app's logger
        )
    }
}
