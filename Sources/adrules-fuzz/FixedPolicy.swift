import AdRules
import AdRulesCompiler

/// The valid policies the ledger, engine and scenario targets run against, so that their input need not also be
/// a valid policy. The first is the shipped `rules/` directory in one file (its scenario files make good seeds)
/// plus a banner, a native placement and a rule on the built-ins; the second is what `update(policy:)` swaps in.
enum FixedPolicy {
    static let main: Policy? = try? Policy(yaml: mainText, file: "fixed.yaml")
    static let other: Policy? = try? Policy(yaml: otherText, file: "other.yaml")

    static let mainText = """
        version: 1
        environment: production
        timezone: device
        session_timeout: 30m
        fullscreen_timeout: 30m
        load_timeout: 60s
        defaults:
          exclude_premium: true
          block_during_fullscreen: true
          max_ad_age: 1h
        placements:
          app_open:
            format: app_open
            min_interval: 4m
            daily_cap: 6
            max_ad_age: 4h
            launch: {show_on_first_load: true, max_wait: 5s}
            resume: {show_if_ready: true, allow_deferred: false, max_delay: 3s}
            grace: {first_sessions: 2}
          level_end:
            format: interstitial
            every_n_actions: 3
            min_interval: 90s
            hourly_cap: 4
            daily_cap: 20
            grace: {after_install: 10m, after_session_start: 30s}
          rewarded_hint:
            format: rewarded
            require_user_choice: true
            daily_cap: 10
            caps:
              - {max: 3, window: 30m}
          home_banner:
            format: banner
            session_cap: 5
            hourly_cap: 12
          feed_native:
            format: native
            exclude_premium: false
            caps:
              - {max: 2, window: 10m}
              - {max: 5, window: 7d}
        groups:
          fullscreen:
            placements: [app_open, level_end, rewarded_hint]
            min_interval: 1m
            daily_cap: 30
          inline:
            placements: [home_banner, feed_native]
            session_cap: 8
        attributes:
          screen: string
          onboarding: {type: bool, default: false}
          level: {type: int, default: 1}
        rules:
          - id: no-ads-during-onboarding
            deny: "*"
            when: onboarding
            message: No ads during onboarding
          - id: no-interstitials-in-checkout
            deny: [level_end]
            when: screen in ["checkout", "paywall"]
            message: Never interrupt a purchase
          - id: quiet-hours
            deny: [level_end]
            when: now.hour >= 22 or now.hour < 7
            message: No interstitials between 22:00 and 07:00
          - id: not-before-level-5
            deny: [level_end]
            when: level < 5
            message: No interstitials before level 5
          - id: new-users
            deny: [home_banner, feed_native]
            when: install.age < 1d or session.count <= 1 or session.age < 10s or now.weekday == "sun"
            message: Inline ads only for returning users
        """

    static let otherText = """
        version: 1
        timezone: Asia/Tokyo
        placements:
          rewarded_hint: {format: rewarded, daily_cap: 2}
          app_open: {format: app_open, min_interval: 10m}
          late: {format: interstitial, caps: [{max: 1, window: 366d}]}
        groups:
          all: {placements: [late, app_open], min_interval: 2m}
        """
}
