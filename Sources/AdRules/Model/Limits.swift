/// The pacing and caps a placement and a group both have, as written: what `Limits` and the cap lint read.
package protocol Pacing {
    /// `min_interval`; nil when a group has none (a placement always has one, 0s by default).
    var pacing: Located<RuleDuration>? { get }
    var dailyCap: Located<Int>? { get }
    var hourlyCap: Located<Int>? { get }
    var sessionCap: Located<Int>? { get }
    var caps: [Located<WindowCap>] { get }
}

extension Pacing {
    /// Whether any pacing or cap applies.
    package var isPaced: Bool {
        (pacing?.value.milliseconds ?? 0) > 0 || dailyCap != nil || hourlyCap != nil || sessionCap != nil || !caps.isEmpty
    }
}

extension Placement: Pacing {
    package var pacing: Located<RuleDuration>? { minInterval }
}

extension PlacementGroup: Pacing {
    package var pacing: Located<RuleDuration>? { minInterval }
}

/// A placement's or group's pacing and caps as plain numbers and flags, built at load time.
///
/// The evaluator reads only these on the allow path; the `Located` settings, with their file
/// names, are read only when a deny reason's message or location is read. Every field is a plain
/// value, so reading a `Limits` from its table copies no reference.
struct Limits: Sendable {
    struct Window: Sendable {
        var max: Int
        var length: Int64
    }

    /// Milliseconds; 0 means no pacing.
    let minInterval: Int64
    /// -1 means no cap.
    let sessionCap: Int
    let hourlyCap: Int
    let dailyCap: Int
    /// Where this block's `caps` windows sit in the policy's flat window table.
    let windows: Range<Int>
    /// The smallest cap set (session, hourly, daily, windows); `Int.max` when none is.
    let smallestCap: Int
    /// How long a show counts for the time-bound caps set (an hour, the longest local day, each window's length);
    /// 0 when none is.
    let horizon: Int64

    init(_ block: borrowing some Pacing, windows: Range<Int>) {
        minInterval = block.pacing?.value.milliseconds ?? 0
        sessionCap = block.sessionCap?.value ?? -1
        hourlyCap = block.hourlyCap?.value ?? -1
        dailyCap = block.dailyCap?.value ?? -1
        self.windows = windows
        smallestCap = Limits.capBounds(of: block)?.smallest ?? .max
        var horizon: Int64 = hourlyCap >= 0 ? 3_600_000 : 0
        if dailyCap >= 0 { horizon = max(horizon, LocalDay.longest) }
        for cap in block.caps { horizon = max(horizon, cap.value.window.milliseconds) }
        self.horizon = horizon
    }

    /// Whether a history could reach any cap of this block: a necessary condition, read from its length and its
    /// newest show only, so that a history that cannot is not scanned.
    ///
    /// A cap of 0 always denies. Any other cap needs at least as many shows as itself; the session cap needs the
    /// newest show to be of the current session, and the hourly, daily and window caps need it to be recent
    /// enough (a time later than now, which counts as now, is).
    /// - Parameter session: the current session, nil when none is active.
    func capsMayDeny(count: Int, newest: ShowRecord?, now: Int64, session: Int?) -> Bool {
        if smallestCap == 0 { return true }
        guard count >= smallestCap, let newest else { return false }
        if sessionCap > 0, newest.session == session { return true }
        return newest.at > now - horizon
    }

    /// The smallest and the largest of the caps a block sets (session, hourly, daily, each window's); nil when it sets
    /// none. Kept out of `Limits`, which the decision path copies: the largest is read once, at load. (Worked out as the
    /// caps are read, with no list of them made: a policy's load reads every placement's.)
    static func capBounds(of block: borrowing some Pacing) -> (smallest: Int, largest: Int)? {
        var bounds: (smallest: Int, largest: Int)?
        func add(_ cap: Int) {
            bounds = bounds.map { (min($0.smallest, cap), max($0.largest, cap)) } ?? (cap, cap)
        }
        if let cap = block.sessionCap { add(cap.value) }
        if let cap = block.hourlyCap { add(cap.value) }
        if let cap = block.dailyCap { add(cap.value) }
        for cap in block.caps { add(cap.value.max) }
        return bounds
    }

    /// The windows of `caps` entries, in the order written.
    static func windows(of caps: [Located<WindowCap>]) -> [Window] {
        caps.map { Window(max: $0.value.max, length: $0.value.window.milliseconds) }
    }
}

/// A placement's settings as plain values, built at load time: its format, switches, readiness, grace
/// and pacing. Group limits are `Limits` alone; a group is not a placement.
struct PlacementLimits: Sendable {
    let format: AdFormat
    let enabled: Bool
    let excludePremium: Bool
    let blockDuringFullscreen: Bool
    let requireUserChoice: Bool
    let showOnFirstLoad: Bool
    let showIfReady: Bool
    let allowDeferred: Bool
    let maxAdAge: Int64
    /// 0 means not set.
    let everyNActions: Int
    /// -1 means not set.
    let launchMaxWait: Int64
    /// app_open: how long after a return from background a `resume` show may come.
    let resumeMaxDelay: Int64
    let graceSessions: Int
    let graceInstall: Int64
    let graceSessionStart: Int64
    /// Pacing and caps, shaped as a group's are.
    let pacing: Limits

    init(_ p: borrowing Placement, windows: Range<Int>) {
        format = p.format.value
        enabled = p.enabled.value
        excludePremium = p.excludePremium.value
        blockDuringFullscreen = p.blockDuringFullscreen.value
        requireUserChoice = p.requireUserChoice.value
        showOnFirstLoad = p.showOnFirstLoad.value
        showIfReady = p.showIfReady.value
        allowDeferred = p.allowDeferred.value
        maxAdAge = p.maxAdAge.value.milliseconds
        everyNActions = p.everyNActions?.value ?? 0
        launchMaxWait = p.launchMaxWait?.value.milliseconds ?? -1
        resumeMaxDelay = p.resumeMaxDelay.value.milliseconds
        graceSessions = p.graceFirstSessions.value
        graceInstall = p.graceAfterInstall.value.milliseconds
        graceSessionStart = p.graceAfterSessionStart.value.milliseconds
        pacing = Limits(p, windows: windows)
    }
}

/// Lists of indices, one per owner (the groups of each placement, the rules of each placement), kept in
/// one flat array: reading a list allocates nothing. Immutable and shared by reference.
package final class IndexLists: Sendable {
    private let starts: [Int]
    private let items: [Int]
    /// Items every owner has besides its own, in order (the rules for every placement): kept once, not under each
    /// owner, and merged in order with an owner's own by ``next(_:)``.
    private let common: [Int]

    init(_ lists: [[Int]], common: [Int] = []) {
        var starts = [0]
        starts.reserveCapacity(lists.count + 1)
        for list in lists { starts.append(starts[starts.count - 1] + list.count) }
        self.starts = starts
        items = lists.flatMap { $0 }
        self.common = common
    }

    /// Where a walk of one owner's items, common ones included, stands.
    struct Walk {
        var own: Int
        let ownEnd: Int
        var common = 0
    }

    /// A walk of owner `i`'s items and the common ones, in order.
    @inline(__always)
    func walk(of i: Int) -> Walk { Walk(own: starts[i], ownEnd: starts[i + 1]) }

    /// Whether owner `i` has no item, common ones included.
    @inline(__always)
    func isEmpty(of i: Int) -> Bool { starts[i] == starts[i + 1] && common.isEmpty }

    /// The next item of a walk, the smaller of the owner's next and the next common one; nil at the end.
    @inline(__always)
    func next(_ walk: inout Walk) -> Int? {
        let hasOwn = walk.own < walk.ownEnd
        let hasCommon = walk.common < common.count
        if hasCommon, !hasOwn || common[walk.common] < items[walk.own] {
            walk.common += 1
            return common[walk.common - 1]
        }
        guard hasOwn else { return nil }
        walk.own += 1
        return items[walk.own - 1]
    }

    /// The positions of owner `i`'s items, for `item(at:)`.
    func range(of i: Int) -> Range<Int> { starts[i]..<starts[i + 1] }
    /// One item.
    func item(at k: Int) -> Int { items[k] }
    /// Owner `i`'s items.
    package subscript(i: Int) -> ArraySlice<Int> { items[range(of: i)] }
    /// The items every owner has besides its own.
    package var commonItems: [Int] { common }
}
