import AdRules
import Foundation

// A day of a new user's ad experience, played on a manual clock: every decision the app's ad code (AppAds.swift)
// gets is printed. The policy is Sources/Demo/rules/, compiled into the app at build time by AdRulesPlugin.
// Each cold start is a new process: a new AdEngine that reads the same ledger file.

let zone = TimeZone(identifier: "Asia/Tokyo") ?? .gmt
let clock = ManualClock(Date(timeIntervalSince1970: 1_795_910_400))  // 2026-11-29 09:00 in Tokyo
let log = Transcript(clock: clock, timeZone: zone)
let network = SimulatedAdNetwork(clock: clock, log: log)
let ledgerDirectory = FileManager.default.temporaryDirectory.appending(path: "adrules-demo-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: ledgerDirectory) }

@MainActor
func launchApp(subscribed: Bool = false) throws -> AppAds {
    log.say("the app starts (cold start)")
    let app = try AppAds(
        clock: clock, deviceTimeZone: zone, ledgerURL: ledgerDirectory.appending(path: "ad-ledger.json"), network: network, log: log)
    app.isSubscribed = subscribed
    app.applicationDidFinishLaunching()
    return app
}

@MainActor
func leaveAndReturn(_ app: AppAds, after seconds: TimeInterval) {
    log.say("the user leaves the app")
    app.sceneDidEnterBackground()
    clock.advance(by: seconds)
    log.say("the user comes back")
    app.sceneDidBecomeActive()
}

do {
    try FileManager.default.createDirectory(at: ledgerDirectory, withIntermediateDirectories: true)

    // grace.first_sessions: 2 in rules/app_open.yaml: the first two sessions after install get no app-open ad.
    log.section("First launch after install: no app-open ad (grace_sessions)")
    _ = try launchApp()
    network.finishLoads(after: 2)

    clock.advance(by: 3 * 3600)
    log.section("Second launch: still a grace session")
    _ = try launchApp()
    network.finishLoads(after: 2)

    clock.advance(by: 3 * 3600)
    log.section("Third launch: the first load completes in 2s, inside launch.max_wait (5s), so the ad is shown")
    var app = try launchApp()
    network.finishLoads(after: 2)
    network.userCloses(after: 5)
    log.say("(the reload completes after the launch phase: never shown late)")
    network.finishLoads(after: 3)

    log.section("Back from the background after 10 minutes: the ad loaded before the return is shown")
    leaveAndReturn(app, after: 10 * 60)
    network.userCloses(after: 5)
    network.finishLoads(after: 2)

    log.section("Back after 1 minute: min_interval (4m) has not passed")
    leaveAndReturn(app, after: 60)

    log.section("Back after 5 hours: the cached ad expired (max_ad_age 4h); a new one loads for the next return")
    leaveAndReturn(app, after: 5 * 3600)
    network.finishLoads(after: 2)

    log.section("Rewarded: offered when loaded, shown after the user's choice, one reward")
    app.currentScreen = "level_select"
    app.loadRewardedAd()
    network.finishLoads(after: 3)
    if app.offersHint() {
        clock.advance(by: 4)
        log.say("the user taps \"Watch an ad for a hint\"")
        app.userTappedWatchButton()
        network.userCloses(after: 30)
        log.say("the network sends the earned-reward callback again")
        app.userEarnedReward()
    }
    network.finishLoads(after: 3)

    log.section("Interstitials: every third level end (every_n_actions: 3), from level 5 on, 90s apart")
    app.level = 6
    app.currentScreen = "game"
    app.loadInterstitial()
    network.finishLoads(after: 2)
    for _ in 0..<6 {
        clock.advance(by: 40)
        log.say("the user finishes a level")
        app.levelEnded()
        network.userCloses(after: 5)
        network.finishLoads(after: 2)
    }

    log.section("Another SDK's fullscreen ad: no app-open ad over it")
    app.otherSDKDidPresentFullscreen()
    log.say("another SDK shows a fullscreen ad")
    leaveAndReturn(app, after: 10 * 60)
    clock.advance(by: 20)
    app.otherSDKDidDismissFullscreen()
    log.say("the other SDK's ad closed")
    leaveAndReturn(app, after: 10 * 60)
    network.userCloses(after: 5)
    network.finishLoads(after: 2)

    log.section("Remote policy updates: bad downloads are refused, a good one is swapped in")
    app.policyDownloaded(Policy.bundledDocument.prefix(100))
    app.policyDownloaded(Data(#"{"format": "adrules-compiled-policy", "version": 2}"#.utf8))
    app.policyDownloaded(Policy.bundledDocument)

    clock.advance(by: 24 * 3600)
    log.section("Next day: a cold start shows the ad; the sessions and shows so far came from the ledger file")
    app = try launchApp()
    network.finishLoads(after: 1)
    network.userCloses(after: 5)
    network.finishLoads(after: 2)

    clock.advance(by: 3600)
    log.section("The user subscribed: a premium user's app loads, offers and shows nothing")
    app = try launchApp(subscribed: true)
    app.loadRewardedAd()
    _ = app.offersHint()
    leaveAndReturn(app, after: 10 * 60)
} catch {
    log.say("error: \(error.localizedDescription)")
    exit(1)
}
