import AdRules

/// The keys each mapping of a scenario file accepts, and where a key in the wrong one belongs.
enum ScenarioKeys {
    static let top = ["tests"]
    static let test = ["name", "start", "device_timezone", "installed", "sessions_before", "history", "context", "steps"]
    static let history = ["placement", "at"]
    static let context = ["premium", "attributes"]
    static let step = [
        "after", "at", "event", "placement", "source", "ask", "trigger", "context", "expect", "reasons", "reasons_include", "retry_in",
    ]

    /// The events as ad SDKs' callbacks and other tools name them (`ad_loaded`), with the event a scenario writes: the
    /// closest spelling (`ad_closed` for `ad_loaded`) would be another event.
    static let eventSynonyms: [String: String] = [
        "ad_loaded": "load_completed", "loaded": "load_completed", "load_success": "load_completed", "load_succeeded": "load_completed",
        "ad_load_success": "load_completed", "load_finished": "load_completed", "load_complete": "load_completed",
        "ad_failed_to_load": "load_failed", "load_error": "load_failed", "ad_load_failed": "load_failed", "load_fail": "load_failed",
        "ad_shown": "show_started", "ad_showed": "show_started", "shown": "show_started", "impression": "show_started",
        "ad_impression": "show_started", "ad_opened": "show_started", "ad_displayed": "show_started", "show_start": "show_started",
        "ad_presented": "show_started",
        "ad_dismissed": "ad_closed", "dismissed": "ad_closed", "ad_hidden": "ad_closed", "closed": "ad_closed", "ad_close": "ad_closed",
        "ad_failed_to_show": "show_failed", "show_error": "show_failed", "failed_to_present": "show_failed", "present_failed": "show_failed",
        "reward": "reward_earned", "rewarded": "reward_earned", "user_earned_reward": "reward_earned", "earned_reward": "reward_earned",
        "reward_given": "reward_granted", "reward_claimed": "reward_granted",
        "app_start": "app_launched", "app_started": "app_launched", "cold_start": "app_launched", "launch": "app_launched",
        "app_launch": "app_launched", "launched": "app_launched",
        "app_foreground": "app_resumed", "foreground": "app_resumed", "became_active": "app_resumed", "app_active": "app_resumed",
        "resumed": "app_resumed", "app_resume": "app_resumed", "app_foregrounded": "app_resumed",
        "app_background": "app_backgrounded", "background": "app_backgrounded", "entered_background": "app_backgrounded",
        "app_paused": "app_backgrounded", "app_pause": "app_backgrounded",
        "user_choice": "user_chose", "user_chose_to_watch": "user_chose", "watch_tapped": "user_chose", "user_accepted": "user_chose",
    ]

    /// What to write for a trigger named as the moment it stands for (`launch`, `foreground`): the spec names each by
    /// what starts the show.
    /// - Parameter placement: the placement asked about, when the policy has it: only an app_open placement shows on a
    ///   launch or a return, and only another format at an app moment.
    static func triggerAdvice(_ written: String, for placement: Placement?) -> String? {
        let meant: ShowTrigger
        switch written.lowercased() {
        case "launch", "cold_start", "coldstart", "first_load", "startup", "app_launch", "app_launched", "load", "loaded", "splash": meant = .loadCompleted
        case "foreground", "return", "resumed", "app_resumed", "app_resume", "became_active", "warm_start": meant = .resume
        case "user", "tap", "button", "level_end", "moment", "event", "manual", "user_action": meant = .action
        default: return nil
        }
        // A trigger the placement asked about cannot take: the one it can.
        if let placement {
            let format = placement.format.value
            if meant == .action, format == .appOpen {
                return "\(placement.id) is an app_open placement, which shows on a launch or a return, not at an app moment: write trigger: load_completed (the first load of a launch) or resume"
            }
            if meant != .action, format != .appOpen {
                return "\(placement.id) is \(Article.indefinite(format.rawValue)) \(format.rawValue) placement, which shows at an app moment (a level end, a tap), never on a launch or a return: write trigger: action"
            }
        }
        switch meant {
        case .loadCompleted: return "a cold-start show is asked when the first load completes: write trigger: load_completed"
        case .resume: return "a show on the return from background is trigger: resume"
        case .action: return "a show at an app moment (a level end, a tap) is trigger: action"
        }
    }

    /// A mapping of a scenario file, by what holds it: a context is a test's or an ask's, and only an ask step takes one.
    enum Block {
        case file, test, history, testContext, askStep, eventStep, askContext
    }

    /// Where a key unknown in `block` belongs, when another block takes it (cli.md r2: a key valid one level deeper or
    /// shallower says which block it belongs to). The advice, followed, gives a key the block takes: a step's `start`
    /// is not sent beside the test's own `start`.
    static func relocation(of key: String, in block: Block) -> String? {
        // `context` is a key of a test and of a step alike: unknown only inside a context, which says so below.
        let ofTest = test.contains(key) && key != "context"
        let ofStep = step.contains(key) && key != "context"
        let ofContext = context.contains(key)
        let example = key == "premium" ? "context: {premium: true}" : "context: {attributes: {screen: home}}"
        switch block {
        case .file where ofTest || key == "context":
            return "\(key) is a setting of a test: indent it under an entry of `tests:` (each entry starts with - name:)"
        case .file where ofStep:
            return "\(key) belongs to a step: indent it under an entry of a test's `steps:`"
        case .file where ofContext, .test where ofContext:
            return "\(key) belongs in the test's `context:`, which holds the premium flag and attributes of every ask: write \(example)"
        case .test where ofStep:
            return "\(key) belongs to a step: indent it under an entry of `steps:`"
        case .askStep where ofContext:
            return "\(key) belongs in the ask's own `context:`: write \(example)"
        case .eventStep where ofContext:
            return "\(key) is part of a context, which an event does not take: put it in the test's `context:` (every ask) or in an ask step's"
        case .askStep where key == "name", .eventStep where key == "name", .askContext where key == "name":
            return "a step has no name: say what it does in a comment (# …) above it"
        case .askStep where key == "start", .eventStep where key == "start", .askContext where key == "start":
            return "a step sets its time with at: (a time) or after: (a duration since the step before), not start:"
        case _ where key == "steps" && block != .file && block != .test:
            return "steps is the test's one list of steps: write each step as an entry of it, not inside another block"
        case .askStep where ofTest, .eventStep where ofTest, .askContext where ofTest, .testContext where ofTest:
            // The test may have it already: the advice says where it goes, not to write it twice.
            return "\(key) is a setting of the test, written once beside its `steps:`; it is not part of a \(block == .testContext || block == .askContext ? "context, which takes premium and attributes" : "step")"
        case .testContext where ofStep:
            return "\(key) is not part of `context:`, which takes premium and attributes: write it in a step"
        case .askContext where key == "ask" || key == "placement":
            return "\(key) is not part of `context:`, which takes premium and attributes: the ask has its own \(key), beside `context:`"
        case .askContext where key == "event" || key == "source":
            return "\(key) belongs to an event step, not to an ask's `context:`: write the event as a step of its own"
        case .askContext where ofStep:
            return "\(key) is not part of `context:`, which takes premium and attributes: write it beside `context:`"
        case .askStep where ["wait", "delay", "sleep", "elapsed", "then"].contains(key), .eventStep where ["wait", "delay", "sleep", "elapsed", "then"].contains(key):
            return "a step's time since the step before is after: write after: 2s (or at: with a time, to set the clock)"
        case .askStep where key == "time" || key == "when", .eventStep where key == "time" || key == "when":
            return "a step's time is at: (write at: 2026-11-29T09:00:05Z) or after: (a duration since the step before, as in after: 2s)"
        case .history where ofStep:
            return "a history entry is a past show, with placement and at only: \(key) belongs to a step in `steps:`"
        case .file where RuleFileKeys.top.contains(key):
            // A policy written into the scenario file: the test runs against the rule files beside it (or --rules).
            return "\(key) belongs in a rule file, not a scenario file: a test runs against the policy of the rule files beside it (or --rules); this file holds tests: only"
        default:
            return nil
        }
    }
}
