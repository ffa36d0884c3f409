import AdRules
import AdRulesCompiler
import Foundation
import Testing

/// The evaluator against a deliberately naive reference that rescans the whole event history for every ask.
@Suite("Evaluator vs naive reference")
struct PropertyTests {
    static let policyText = """
        version: 1
        timezone: UTC
        placements:
          p:
            format: interstitial
            min_interval: 2m
            hourly_cap: 3
            daily_cap: 5
            session_cap: 4
            caps: [{max: 2, window: 15m}]
            every_n_actions: 2
            max_ad_age: 30m
          r:
            format: rewarded
            min_interval: 1m
            daily_cap: 6
        groups:
          g:
            placements: [p, r]
            min_interval: 1m
            hourly_cap: 4
        """

    struct Reference {
        var events: [(at: Int64, event: AdEvent)] = []
        let minute: Int64 = 60_000

        func sessionOf(_ index: Int) -> Int {
            var session = 0
            var background: Int64?
            for (i, e) in events.enumerated() where i <= index {
                switch e.event {
                case .appLaunched: session += 1; background = nil
                case .appBackgrounded: background = e.at
                case .appResumed:
                    if let b = background, e.at - b >= 30 * minute { session += 1 }
                    background = nil
                default: break
                }
            }
            return session
        }

        func lastIndex(_ match: (AdEvent) -> Bool, before end: Int? = nil) -> Int? {
            let upper = end ?? events.count
            return events[..<upper].lastIndex { match($0.event) }
        }

        func decide(_ placement: String, now: Int64) -> (Set<ReasonCode>, Int64?) {
            var codes: [(ReasonCode, Int64?)] = []
            let showIndices = events.indices.filter { events[$0].event == .showStarted(PlacementID(placement)) }
            let groupShows = events.indices.filter { events[$0].event == .showStarted("p") || events[$0].event == .showStarted("r") }
            let launch = lastIndex({ $0 == .appLaunched }) ?? -1
            let lastShow = showIndices.last ?? -1
            // On screen.
            for other in ["p", "r"] {
                guard let s = lastIndex({ $0 == .showStarted(PlacementID(other)) }), s > launch else { continue }
                let closed = events[(s + 1)...].contains { $0.event == .adClosed(PlacementID(other)) }
                // fullscreen_timeout (30m): a show reported on screen for longer is treated as closed.
                if !closed && now - events[s].at <= 30 * minute { codes.append((other == placement ? .alreadyShowing : .fullscreenActive, nil)) }
            }
            if placement == "r" {
                // r2: app_launched clears a pending choice.
                let chose = events.indices.contains { $0 > lastShow && $0 > launch && events[$0].event == .userChose("r") }
                if !chose { codes.append((.noUserChoice, nil)) }
            } else {
                let actions = events.indices.filter { $0 > lastShow && events[$0].event == .action("p") }.count
                if actions < 2 { codes.append((.everyNActions, nil)) }
            }
            if let load = lastIndex({ $0 == .loadCompleted(PlacementID(placement)) }), load > lastShow, load > launch {
                let age = now - events[load].at
                if age > (placement == "p" ? 30 : 60) * minute { codes.append((.adExpired, nil)) }
            } else {
                codes.append((.adNotReady, nil))
            }
            let times = showIndices.map { events[$0].at }
            if let last = times.last, now - last < (placement == "p" ? 2 : 1) * minute {
                codes.append((.minInterval, last + (placement == "p" ? 2 : 1) * minute))
            }
            func window(_ list: [Int64], _ w: Int64, _ max: Int) -> Int64? {
                let inside = list.filter { $0 > now - w }.sorted()
                return inside.count >= max ? inside[inside.count - max] + w : nil
            }
            let dayStart = now - now % (1440 * minute)
            if placement == "p" {
                let session = sessionOf(events.count - 1)
                if showIndices.filter({ sessionOf($0) == session && launch >= 0 }).count >= 4 { codes.append((.sessionCap, nil)) }
                if let c = window(times, 60 * minute, 3) { codes.append((.hourlyCap, c)) }
                if times.filter({ $0 >= dayStart }).count >= 5 { codes.append((.dailyCap, dayStart + 1440 * minute)) }
                if let c = window(times, 15 * minute, 2) { codes.append((.windowCap, c)) }
            } else if times.filter({ $0 >= dayStart }).count >= 6 {
                codes.append((.dailyCap, dayStart + 1440 * minute))
            }
            let gTimes = groupShows.map { events[$0].at }
            if let last = gTimes.last, now - last < minute { codes.append((.groupMinInterval, last + minute)) }
            if let c = window(gTimes, 60 * minute, 4) { codes.append((.groupHourlyCap, c)) }
            let next = !codes.isEmpty && codes.allSatisfy { $0.1 != nil } ? codes.compactMap(\.1).max() : nil
            return (Set(codes.map(\.0)), next)
        }
    }

    @Test(arguments: Array(UInt64(1)...24))
    func randomHistoriesAgree(seed: UInt64) throws {
        let policy = try Policy(yaml: Self.policyText)
        var generator = SplitMix64(seed: seed)
        var now: Int64 = 1_795_000_000_000
        var facts = Facts(policy: policy, installedAt: now)
        var reference = Reference()
        var asks = 0
        func record(_ event: AdEvent) {
            facts.apply(event, at: now, policy: policy)
            reference.events.append((now, event))
        }
        record(.appLaunched)
        var foreground = true
        for _ in 0..<600 {
            now += Int64.random(in: 0...(8 * 60_000), using: &generator)
            let roll = Int.random(in: 0..<100, using: &generator)
            switch roll {
            case 0..<4:
                record(foreground ? .appBackgrounded : .appResumed)
                foreground.toggle()
            case 4..<6: record(.appLaunched); foreground = true
            case 6..<20: record(.loadCompleted(Bool.random(using: &generator) ? "p" : "r"))
            case 20..<35: record(.action("p"))
            case 35..<42: record(.userChose("r"))
            case 42..<55: record(.adClosed(Bool.random(using: &generator) ? "p" : "r"))
            default:
                for placement in ["p", "r"] {
                    let decision = Evaluator.decide(.show(PlacementID(placement), trigger: .action), policy: policy, facts: facts, now: now, deviceTimeZone: TimeZone(identifier: "UTC")!)
                    let (codes, next) = reference.decide(placement, now: now)
                    asks += 1
                    #expect(Set(decision.codes) == codes, "seed \(seed) at \(now) \(placement): \(decision)")
                    #expect(decision.nextAllowedAt.map(Milliseconds.from) == next, "seed \(seed) at \(now) \(placement): \(decision)")
                    if decision.isAllowed && Bool.random(using: &generator) { record(.showStarted(PlacementID(placement))) }
                }
            }
        }
        #expect(asks > 300)
    }
}
