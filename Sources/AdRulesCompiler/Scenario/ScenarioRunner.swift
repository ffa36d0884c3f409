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
    /// Replays a test.
    public static func run(_ test: ScenarioTest, policy: Policy) -> TestOutcome {
        let clock = ManualClock(Milliseconds.date(test.start))
        var facts = Facts(policy: policy, installedAt: test.installed, sessionsBefore: test.sessionsBefore)
        // All at once: sorted once, and only what a history keeps (however long the history, however many groups).
        facts.addHistoricalShows(test.history.map { ($0.placement, $0.at) }, session: 0, policy: policy)
        let engine = AdEngine(policy: policy, facts: facts, clock: clock, store: InMemoryLedgerStore(), deviceTimeZone: test.deviceTimeZone)
        var now = test.start
        var outcomes: [StepOutcome] = []
        for step in test.steps {
            now = Milliseconds.clamped(step.at ?? now.addingSaturated(step.after))
            clock.set(Milliseconds.date(now))
            switch step.action {
            case .event(let event):
                engine.record(event)
                outcomes.append(StepOutcome(step: step, time: now, decision: nil, mismatches: []))
            case .ask(let ask, let context, let expectation):
                let decision = engine.ask(ask, context: context ?? test.context)
                outcomes.append(StepOutcome(step: step, time: now, decision: decision, mismatches: expectation.mismatches(decision, now: now)))
            }
        }
        return TestOutcome(test: test, steps: outcomes)
    }
}
