import AdRules
import AdRulesYAML
import Foundation

/// What happened at one step of a replay.
public struct StepOutcome: Sendable {
    /// The step.
    public var step: ScenarioStep
    /// The time of the step, ms since 1970.
    public var time: Int64
    /// The decision, for an ask.
    public var decision: Decision?
    /// The parts of the expectation that did not hold (empty: it held, or there was none).
    public var mismatches: [String]
    /// For a `show_failed`: whether the engine took back a show (one in progress, within `fullscreen_timeout`, its reward
    /// not granted), which then no longer counts for pacing or caps.
    public var tookBackAShow = false
}

/// The replay of one test.
public struct TestOutcome: Sendable {
    /// The test.
    public var test: ScenarioTest
    /// Every step's outcome.
    public var steps: [StepOutcome]
    /// Whether every expectation held.
    public var passed: Bool { steps.allSatisfy { $0.mismatches.isEmpty } }
    /// The steps whose expectations failed.
    public var failures: [StepOutcome] { steps.filter { !$0.mismatches.isEmpty } }
}

/// Runs scenario tests through the real `AdEngine` with a virtual clock and an in-memory ledger.
public enum ScenarioRunner {
    /// The decisions a replay keeps in its outcome. A decision holds every reason found, and a policy of 10,000 rules
    /// that all deny gives each ask 10,000 (about 1 MB): a replay that kept every one of a few thousand asks ran out
    /// of memory.
    public enum KeptDecisions: Sendable {
        /// Every ask's decision.
        case all
        /// The decisions of the first failing asks, up to `count` of them and `reasons` reasons in all (the first
        /// one whatever its reasons): what a failure report shows.
        case failures(Int, reasons: Int)
        /// None: a caller that needs them takes each as it is made (`each`).
        case none
    }

    /// Replays a test.
    /// - Parameters:
    ///   - keeping: the decisions the outcome keeps.
    ///   - each: called with each step's outcome, its decision included, as the step is played.
    public static func run(
        _ test: ScenarioTest, policy: Policy, keeping: KeptDecisions = .all, each: ((StepOutcome) -> Void)? = nil
    ) -> TestOutcome {
        let clock = ManualClock(Milliseconds.date(test.start))
        var facts = Facts(policy: policy, installedAt: test.installed, sessionsBefore: test.sessionsBefore)
        // All at once: sorted once, and only what a history keeps (however long the history, however many groups).
        facts.addHistoricalShows(test.history.map { ($0.placement, $0.at) }, session: 0, policy: policy)
        // No ledger store: nothing reads a scenario's ledger back, and writing one copies the facts and the show history
        // of every placement at each show and each new session (12,000 shows of as many placements ran for 50 s).
        let engine = AdEngine(policy: policy, facts: facts, clock: clock, deviceTimeZone: test.deviceTimeZone)
        var now = test.start
        var outcomes: [StepOutcome] = []
        var (failuresKept, reasonsKept) = (0, 0)
        // Once a failing step is not kept, no later one is: the ones kept are the first.
        var full = false
        for step in test.steps {
            now = Milliseconds.clamped(step.at ?? now.addingSaturated(step.after))
            clock.set(Milliseconds.date(now))
            var outcome: StepOutcome
            switch step.action {
            case .event(let event):
                // Whether a show_failed took a show back is read from the engine's own history, for what reports count.
                var countBefore: Int?
                if case .showFailed(let id) = event { countBefore = engine.currentFacts.showCount(of: id.rawValue, policy: policy) }
                engine.record(event)
                outcome = StepOutcome(step: step, time: now, decision: nil, mismatches: [])
                if case .showFailed(let id) = event, let before = countBefore, let after = engine.currentFacts.showCount(of: id.rawValue, policy: policy) {
                    outcome.tookBackAShow = after < before
                }
            case .ask(let ask, let context, let expectation):
                let decision = engine.ask(ask, context: context ?? test.context)
                outcome = StepOutcome(step: step, time: now, decision: decision, mismatches: expectation.mismatches(decision, now: now))
            }
            each?(outcome)
            switch keeping {
            case .all: break
            case .failures(let most, let reasons):
                let count = outcome.decision?.reasonCount ?? 0
                if !outcome.mismatches.isEmpty, failuresKept >= most || (failuresKept > 0 && reasonsKept + count > reasons) { full = true }
                if outcome.mismatches.isEmpty || full {
                    outcome.decision = nil
                } else {
                    (failuresKept, reasonsKept) = (failuresKept + 1, reasonsKept + count)
                }
            case .none: outcome.decision = nil
            }
            outcomes.append(outcome)
        }
        return TestOutcome(test: test, steps: outcomes)
    }
}
