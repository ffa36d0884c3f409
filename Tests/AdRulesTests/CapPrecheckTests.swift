@testable import AdRules
import AdRulesCompiler
import Foundation
import Testing

/// The evaluator scans a show history for caps only when ``Limits/capsMayDeny(count:newest:now:session:)`` says the
/// history could reach one. That must be a necessary condition: whenever the scan would deny, the check lets it run.
@Suite("cap pre-check")
struct CapPrecheckTests {
    @Test(arguments: Array(UInt64(1)...12))
    func thePrecheckNeverHidesACap(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let utc = try #require(TimeZone(identifier: "UTC"))
        var checked = 0, denied = 0
        for _ in 0..<150 {
            // Caps from 0 (always denies) to more than the history holds; sometimes unset.
            func cap() -> String? { Int.random(in: 0..<4, using: &generator) == 0 ? nil : String(Int.random(in: 0...6, using: &generator)) }
            var lines = ["version: 1", "timezone: UTC", "placements:", "  p:", "    format: interstitial"]
            for (key, value) in [("session_cap", cap()), ("hourly_cap", cap()), ("daily_cap", cap())] {
                if let value { lines.append("    \(key): \(value)") }
            }
            if Bool.random(using: &generator) {
                lines.append("    caps: [{max: \(Int.random(in: 0...4, using: &generator)), window: \(Int.random(in: 1...300, using: &generator))m}]")
            }
            let policy = try Policy(yaml: lines.joined(separator: "\n"))
            let limits = policy.storage.placementLimits[0].pacing
            let now: Int64 = 1_795_000_000_000 + Int64.random(in: 0...86_400_000, using: &generator)
            let sessions = Int.random(in: 1...3, using: &generator)
            var facts = Facts(policy: policy, installedAt: now - 10 * 86_400_000, sessionsBefore: sessions - 1)
            // Shows over the last four days, some in this session, some recorded while the clock was ahead.
            for _ in 0..<Int.random(in: 0...8, using: &generator) {
                let at = now + Int64.random(in: (-4 * 86_400_000)...600_000, using: &generator)
                facts.addHistoricalShow(placement: "p", at: at, session: Int.random(in: (sessions - 1)...sessions, using: &generator), policy: policy)
            }
            if Bool.random(using: &generator) { facts.apply(.appLaunched, at: now - 60_000, policy: policy) }
            let shows = facts.placementShows[0]
            var found = Findings()
            Run(index: 0, now: now).capReasons(policy.storage, shows, limits, group: -1, facts, zone: utc, &found)
            let session = facts.sessionActive ? facts.sessionCount : nil
            let mayDeny = limits.capsMayDeny(count: shows.count, newest: shows.last, now: now, session: session)
            #expect(found.denials.isEmpty || mayDeny, "\(lines) shows \(shows) now \(now) session \(String(describing: session)): \(found.denials.map(\.code))")
            checked += 1
            if !found.denials.isEmpty { denied += 1 }
        }
        #expect(checked == 150 && denied > 10, "the histories reach caps often enough to test the check (\(denied))")
    }
}
