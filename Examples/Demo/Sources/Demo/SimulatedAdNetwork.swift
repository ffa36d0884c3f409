import AdRules
import Foundation

/// A loaded ad of the simulated network.
struct SimulatedAd {
    let placement: PlacementID
}

/// Stands in for an ad SDK such as Google Mobile Ads: loads finish, ads close and rewards arrive when the demo
/// says so, on the demo's manual clock.
@MainActor
final class SimulatedAdNetwork {
    let clock: ManualClock
    let log: Transcript
    private var pendingLoads: [(placement: PlacementID, completion: (SimulatedAd?) -> Void)] = []
    private var onScreen: (ad: SimulatedAd, onReward: (() -> Void)?, onDismiss: () -> Void)?

    init(clock: ManualClock, log: Transcript) {
        self.clock = clock
        self.log = log
    }

    /// Starts loading an ad; the completion runs when the demo calls ``finishLoads(after:failing:)``.
    func load(_ placement: PlacementID, completion: @escaping (SimulatedAd?) -> Void) {
        pendingLoads.append((placement, completion))
    }

    /// Every pending load finishes `seconds` from now, with an ad or (failing) without one.
    func finishLoads(after seconds: TimeInterval, failing: Bool = false) {
        clock.advance(by: seconds)
        let loads = pendingLoads
        pendingLoads = []
        for load in loads {
            log.say("[network] \(load.placement) \(failing ? "failed to load" : "loaded")")
            load.completion(failing ? nil : SimulatedAd(placement: load.placement))
        }
    }

    /// Puts an ad on screen.
    func present(_ ad: SimulatedAd, onReward: (() -> Void)? = nil, onDismiss: @escaping () -> Void, onFailure: @escaping () -> Void) {
        log.say("[network] \(ad.placement) is on screen")
        onScreen = (ad, onReward, onDismiss)
    }

    /// The user watches the ad on screen for `seconds` (a rewarded ad to its end) and closes it.
    func userCloses(after seconds: TimeInterval) {
        guard let shown = onScreen else { return }
        clock.advance(by: seconds)
        if let onReward = shown.onReward {
            log.say("[network] \(shown.ad.placement): reward earned")
            onReward()
        }
        onScreen = nil
        log.say("[network] \(shown.ad.placement) closed")
        shown.onDismiss()
    }
}

/// Prints what happens, each line at the demo clock's time in the device's zone.
struct Transcript: Sendable {
    let clock: any AdClock
    let timeZone: TimeZone

    func say(_ text: String) {
        print("\(time(clock.now()))  \(text)")
    }

    func section(_ title: String) {
        print("\n== \(title)")
    }

    /// `Nov 29 09:00:02` in the device's zone.
    func time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "MMM d HH:mm:ss"
        return formatter.string(from: date)
    }
}
