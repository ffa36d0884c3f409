import Foundation

/// The decision function: a pure function of (policy, ask, context, facts, now).
///
/// It reads tables built when the policy was loaded (limits, group membership, compiled
/// rules) and the caller's facts in place; message strings are built only for deny reasons.
public enum Evaluator {
    /// Decides an ask.
    /// - Parameters:
    ///   - ask: what the app asks.
    ///   - context: premium flag and attributes.
    ///   - policy: the loaded policy.
    ///   - facts: what has happened.
    ///   - now: the time, in ms since 1970.
    ///   - deviceTimeZone: the zone used when the policy says `timezone: device`.
    /// - Returns: allow, or deny with every reason.
    public static func decide(
        _ ask: Ask, context: AskContext = .standard, policy: Policy, facts: borrowing Facts, now: Int64,
        deviceTimeZone: TimeZone = .autoupdatingCurrent
    ) -> Decision {
        guard let index = policy.storage.index(of: ask.placement) else {
            return Decision(ask: ask, reasons: [Reason(
                code: .unknownPlacement,
                message: "placement \"\(ask.placement)\" is not in the policy (\(policy.storage.placements.count) placements)")], nextAllowedAt: nil)
        }
        let now = Milliseconds.clamped(now)
        guard facts.fits(policy) else {
            return decide(ask, context: context, policy: policy, facts: facts.fitted(to: policy), now: now, deviceTimeZone: deviceTimeZone)
        }
        var run = Run(policy: policy.storage, index: index, now: now, zone: deviceTimeZone)
        switch ask.kind {
        case .show: run.showReasons(trigger: ask.trigger ?? run.defaultTrigger, context: context, isOffer: false, facts)
        case .offer: run.showReasons(trigger: .action, context: context, isOffer: true, facts)
        case .load: run.loadReasons(context: context, facts)
        case .reward: run.rewardReasons(facts)
        }
        return run.decision(for: ask)
    }

    /// Decides an ask with the time as a `Date`.
    public static func decide(
        _ ask: Ask, context: AskContext = .standard, policy: Policy, facts: borrowing Facts, now: Date,
        deviceTimeZone: TimeZone = .autoupdatingCurrent
    ) -> Decision {
        decide(ask, context: context, policy: policy, facts: facts, now: Milliseconds.from(now), deviceTimeZone: deviceTimeZone)
    }
}

/// Conversions between `Date` and milliseconds since 1970.
package enum Milliseconds {
    /// The largest time the engine handles: about 146 million years either side of 1970, so that
    /// adding or subtracting any duration a policy can hold never overflows.
    package static let limit: Int64 = 1 << 62

    /// A millisecond time clamped to ±``limit``.
    package static func clamped(_ ms: Int64) -> Int64 { Swift.min(Swift.max(ms, -limit), limit) }

    /// Milliseconds since 1970 of a date, clamped to ±``limit`` (a NaN date reads as 0).
    package static func from(_ date: Date) -> Int64 {
        let ms = (date.timeIntervalSince1970 * 1000).rounded()
        guard !ms.isNaN else { return 0 }
        if ms >= Double(limit) { return limit }
        if ms <= -Double(limit) { return -limit }
        return Int64(ms)
    }
    /// The date of a millisecond count.
    package static func date(_ ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }
}

/// One evaluation: collects reasons in the documented order.
///
/// It reads the policy's tables and the caller's facts in place: the facts come in as a borrowing
/// parameter of each step, the placement's settings through `policy.placements[index]`.
struct Run {
    let policy: PolicyStorage
    let index: Int
    let now: Int64
    let zone: TimeZone
    var reasons: [Reason] = []
    var notes: [String] = []
    /// The calendar day of now, once a daily cap has needed it (a placement and its groups share it).
    var today: (start: Int64, end: Int64)?

    init(policy: PolicyStorage, index: Int, now: Int64, zone: TimeZone) {
        self.policy = policy
        self.index = index
        self.now = now
        self.zone = zone
    }

    var defaultTrigger: ShowTrigger { policy.placementLimits[index].format == .appOpen ? .resume : .action }

    /// A recorded time, never later than now (a clock set back never grants a show).
    func seen(_ t: Int64) -> Int64 { t > now ? now : t }

    /// A site of the placement asked about.
    func site(_ text: ReasonSite.Text, at setting: ReasonSite.Setting) -> ReasonSite {
        ReasonSite(text, at: setting, placement: index)
    }

    /// Denies with a reason about the placement asked about.
    mutating func deny(_ code: ReasonCode, _ text: ReasonSite.Text, at setting: ReasonSite.Setting, clearsAt: Int64? = nil) {
        deny(code, site(text, at: setting), clearsAt: clearsAt)
    }

    mutating func deny(_ code: ReasonCode, _ site: ReasonSite, clearsAt: Int64? = nil) {
        reasons.append(Reason(code: code, origin: .site(policy, site), clearsAt: clearsAt.map(Milliseconds.date)))
    }

    func decision(for ask: Ask) -> Decision {
        var next: Date?
        for reason in reasons {
            guard let clears = reason.clearsAt else {
                next = nil
                break
            }
            if next.map({ clears > $0 }) ?? true { next = clears }
        }
        return Decision(ask: ask, reasons: reasons, nextAllowedAt: next, notes: notes)
    }
}
