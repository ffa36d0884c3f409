/// The keys each mapping of a scenario file accepts, and where a key in the wrong one belongs.
enum ScenarioKeys {
    static let top = ["tests"]
    static let test = ["name", "start", "device_timezone", "installed", "sessions_before", "history", "context", "steps"]
    static let history = ["placement", "at"]
    static let context = ["premium", "attributes"]
    static let step = [
        "after", "at", "event", "placement", "source", "ask", "trigger", "context", "expect", "reasons", "reasons_include", "retry_in",
    ]

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
