import AdRulesTestSupport
import AdRules
import AdRulesYAML
import Testing

@testable import AdRulesImpact

/// Decodes a model that must be valid.
func model(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> UsageModel {
    let (model, diagnostics) = ModelDecoder.decode(text, file: "m.model.yaml")
    #expect(!diagnostics.hasErrors, "\(diagnostics)", sourceLocation: sourceLocation)
    return try #require(model, sourceLocation: sourceLocation)
}

/// One user's one day that can be counted by hand: in UTC from 2026-03-02, one cold start at 08:00 and no resume, on a
/// network that always fills, loads in 1 s and keeps each ad on screen 15 s. `visit` is the rest of the segment: its
/// foreground and its streams.
func oneUserDay(installedDaysAgo: Int = 30, _ visit: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> UsageModel {
    try model("""
        version: 1
        users: 1
        days: 1
        seed: 1
        start: 2026-03-02
        segments:
          - {name: one, share: 1, timezone: UTC, installed_days_ago: \(installedDaysAgo), first_open: 8h, cold_starts: 1, resumes: 0,
             \(visit)}
        network: {load_time: 1s, fill_rate: 1, ad_duration: 15s, show_failure: 0}
        """, sourceLocation: sourceLocation)
}

/// One user's day (``oneUserDay(installedDaysAgo:_:sourceLocation:)``) played on a policy of two placements,
/// `level_end`, an interstitial, and `other` (`id: {format: …}`): the two placements' totals, in that order.
func playLevelEnd(
    besides other: String, _ visit: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> (levelEnd: PlacementCounters, other: PlacementCounters) {
    let policy = try Policy(yaml: "version: 1\nplacements:\n  level_end: {format: interstitial}\n  \(other)\n")
    let result = try play(try oneUserDay(visit, sourceLocation: sourceLocation), policy).total
    return (result.placements[0], result.placements[1])
}

/// Plays a model with one policy and returns that policy's result.
func play(_ model: UsageModel, _ policy: Policy, threads: Int = 1) throws -> ImpactPolicyResult {
    let report = try ImpactRunner.run(model: model, policies: [NamedPolicy(name: "p", policy: policy)], options: ImpactOptions(threads: threads))
    return report.results[0]
}

/// A policy with one app-open placement capped at `dailyCap` a day; a cached ad keeps 4 hours, so that
/// of ten resumes spread over 16 hours at most three find it expired (no gap is longer than 4 hours more than 3 times).
func appOpenPolicy(dailyCap: Int, file: String = "p.yaml") throws -> Policy {
    try Policy(yaml: """
        version: 1
        timezone: device
        placements:
          app_open:
            format: app_open
            daily_cap: \(dailyCap)
            max_ad_age: 4h
        """, file: file)
}

/// Every user opens the app once and returns ten times a day; loads take 1 s and always fill; ads never fail.
let flatModel = """
    version: 1
    users: 60
    days: 3
    seed: 7
    start: 2026-03-02
    segments:
      - name: everyone
        share: 1
        timezone: UTC
        installed_days_ago: 30
        first_open: 8h
        cold_starts: 1
        resumes: 10
        foreground: 1m
    network:
      load_time: 1s
      fill_rate: 1
      ad_duration: 5s
      show_failure: 0
    """
