import AdRules
import AdRulesYAML
import Foundation

/// A scenario file: tests that replay events and check decisions.
public struct Scenario: Sendable {
    /// The file path.
    public var file: String
    /// The tests in file order.
    public var tests: [ScenarioTest]
    /// The steps of the policy's rules and caps its tests take, as ``ScenarioDecoder/maxWork`` bounds them: what a run
    /// of many files adds up (``ScenarioDecoder/maxRunWork``).
    package var work = 0
}

/// One test of a scenario file.
public struct ScenarioTest: Sendable {
    /// The test's name.
    public var name: String
    /// Where the test starts in the file.
    public var location: SourceLocation
    /// The start time, ms since 1970.
    public var start: Int64
    /// The UTC offset the start was written with.
    public var displayOffset: Int
    /// The zone used when the policy says `timezone: device`.
    public var deviceTimeZone: TimeZone
    /// Whether the test names the device's zone (`device_timezone`); without it the device is in UTC.
    public var deviceTimeZoneIsWritten: Bool
    /// The install time, ms since 1970.
    public var installed: Int64
    /// Sessions before the start.
    public var sessionsBefore: Int
    /// Shows before the start, in earlier sessions.
    public var history: [(placement: String, at: Int64)]
    /// The default context of asks.
    public var context: AskContext
    /// The steps.
    public var steps: [ScenarioStep]
}

/// One step: an event or an ask, after some time.
public struct ScenarioStep: Sendable {
    /// What the step does.
    public enum Action: Sendable {
        /// Records an event.
        case event(AdEvent)
        /// Asks, in the step's context when it gives one (else the scenario's), and checks the decision against what it
        /// expects.
        case ask(Ask, context: AskContext?, expectation: Expectation)
    }

    /// Where the step is written.
    public var location: SourceLocation
    /// Time since the previous step, ms.
    public var after: Int64
    /// The clock's time at this step (`at:`), possibly earlier than the previous step's: a clock set back.
    public var at: Int64?
    /// The event or the ask.
    public var action: Action
    /// Whether the step is a show that names no trigger, asked with its format's (`resume` for app_open, else `action`):
    /// a failing one says so, since a cold start's show is written `trigger: load_completed`.
    public var triggerDefaulted = false
}

/// What a step expects of a decision (every part optional).
public struct Expectation: Sendable, Hashable {
    /// allow or deny.
    public var verdict: Decision.Verdict?
    /// The exact set of reason codes.
    public var reasons: Set<ReasonCode>?
    /// Codes that must be among the reasons.
    public var reasonsInclude: Set<ReasonCode>?
    /// The expected `next_allowed_at - step time`: `.some(nil)` expects null.
    public var retryIn: RuleDuration??

    /// Whether the step checks anything.
    public var isEmpty: Bool { verdict == nil && reasons == nil && reasonsInclude == nil && retryIn == nil }

    /// The differences between this expectation and a decision made at `now` (empty when it holds).
    public func mismatches(_ decision: Decision, now: Int64) -> [String] {
        var problems: [String] = []
        if let verdict, verdict != decision.verdict { problems.append("verdict") }
        let actual = Set(decision.codes)
        if let reasons, reasons != actual { problems.append("reasons") }
        if let include = reasonsInclude, !include.isSubset(of: actual) { problems.append("reasons_include") }
        if let retryIn {
            let actualRetry = decision.nextAllowedAt.map { Milliseconds.from($0) - now }
            if retryIn?.milliseconds != actualRetry { problems.append("retry_in") }
        }
        return problems
    }
}
