/// A show that counts for pacing and caps: when, and in which session.
public struct ShowRecord: Sendable, Hashable, Codable {
    /// Milliseconds since 1970.
    public var at: Int64
    /// The session it happened in (0 for shows before the ledger's first session).
    public var session: Int

    /// Creates a show record.
    public init(at: Int64, session: Int) {
        self.at = at
        self.session = session
    }
}

/// The show that a reward would be for.
struct CurrentShow: Sendable, Hashable {
    var at: Int64
    var hadChoice: Bool
    var earned = false
    var granted = false
}

/// What is known about one placement, but its shows (``Facts/placementShows``): plain values only, so that a decision reads
/// a placement's facts without a reference to count.
struct PlacementFacts: Sendable, Hashable {
    var loadingSince: Int64?
    var loadedAt: Int64?
    /// Set through ``Facts/setShowing(_:since:)`` only, which keeps ``Facts/placementsShowing``.
    fileprivate(set) var showingSince: Int64?
    var userChose = false
    var actions = 0
    var launchOpen = false
    /// A show started since the last return from background: it closes this placement's resume window.
    var shownSinceReturn = false
    /// The launch phase, or the resume window, had run out when the clock was set back; the ad finished loading
    /// after the return. Pinned times alone would no longer say so (``Facts/prepare(at:policy:)``).
    var launchRanOut = false
    var resumeRanOut = false
    var loadedAfterReturn = false
    /// The cached ad had expired when the clock was set back.
    var adRanOut = false
    var current: CurrentShow?
    /// What a show consumed, restored when the show fails.
    var consumed: (userChose: Bool, actions: Int)?

    /// The show in progress had run past `fullscreen_timeout` when the clock was set back: pinned times alone would
    /// bring it back within the timeout, and a `show_failed` would take it back.
    var showRanOut = false

    /// Whether a `show_failed` at `now` takes the show in progress back: one started (its ad consumed) and not closed,
    /// within `fullscreen_timeout` of its start, whose reward was not granted (a show that paid its reward happened). A
    /// show the timeout treats as closed is over: a failure past it, with no `show_started` of its own, is of another
    /// attempt, and takes nothing back (it gave back a lost-close show's impression and choice hours later). An app-open
    /// ad the user left is still taken back: its present may fail as the app leaves. The engine writes the ledger when
    /// it does.
    func failureTakesBackAShow(at now: Int64, fullscreenTimeoutMs: Int64) -> Bool {
        guard consumed != nil, let current, !current.granted, !showRanOut else { return false }
        return Facts.isWithinTimeout(since: current.at, now: now, timeoutMs: fullscreenTimeoutMs)
    }

    /// Every part, each of which can change a decision (written out: `consumed`, a tuple, keeps `==` from being made).
    static func == (lhs: PlacementFacts, rhs: PlacementFacts) -> Bool {
        lhs.loadingSince == rhs.loadingSince && lhs.loadedAt == rhs.loadedAt
            && lhs.showingSince == rhs.showingSince && lhs.userChose == rhs.userChose && lhs.actions == rhs.actions
            && lhs.launchOpen == rhs.launchOpen && lhs.shownSinceReturn == rhs.shownSinceReturn
            && lhs.launchRanOut == rhs.launchRanOut && lhs.resumeRanOut == rhs.resumeRanOut && lhs.showRanOut == rhs.showRanOut
            && lhs.loadedAfterReturn == rhs.loadedAfterReturn && lhs.adRanOut == rhs.adRanOut && lhs.current == rhs.current
            && lhs.consumed?.userChose == rhs.consumed?.userChose && lhs.consumed?.actions == rhs.consumed?.actions
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(loadedAt)
        hasher.combine(actions)
    }
}

/// A calendar day in one time zone, cached so that a decision does no calendar work on most asks.
struct LocalDay: Sendable, Hashable {
    var zone: String
    var start: Int64
    var end: Int64
    /// The zone's offset from UTC, in ms, from `offsetFrom` until `offsetUntil` (the next change of offset,
    /// or the end of the day): what `now.hour` reads without asking the zone again.
    var offset: Int64 = 0
    var offsetFrom: Int64 = 0
    var offsetUntil: Int64 = 0

    func contains(_ ms: Int64, zone: String) -> Bool { ms >= start && ms < end && self.zone == zone }
}

/// Everything the evaluator needs to know about the past: sessions, loads, shows, rewards, what is on screen.
///
/// Facts are built from recorded events by ``apply(_:at:policy:)``; the evaluator only reads them.
public struct Facts: Sendable, Hashable {
    /// When the app was installed (ms since 1970).
    public internal(set) var installedAt: Int64
    /// Sessions started so far, the current one included.
    public internal(set) var sessionCount: Int
    /// Whether a session is running (false before the first `app_launched`).
    public internal(set) var sessionActive = false
    var sessionStart: Int64 = 0
    var launchedAt: Int64?
    var backgroundSince: Int64?
    /// When the app last came back from background; nil before any return, and once it leaves again.
    var returnedAt: Int64?
    /// The latest time recorded anywhere in these facts: nothing needs pinning while `now` is at or past it.
    var newestTime: Int64 = .min
    /// The latest `now` an event or an ask was handled at: what had run out by then stays run out when the clock
    /// is set back.
    var observedTime: Int64 = .min
    /// The earliest `load_started + load_timeout` of the loads in progress, when one of them times out.
    var nextLoadDeadline: Int64 = .max
    var placements: [PlacementFacts]
    /// Each placement's shows, oldest first, by the placement's index (as ``placements``). Kept apart from the rest of its
    /// facts, as the groups' are (``groups``): a placement's facts are then plain values, and reading a history for its
    /// caps copies none of them.
    var placementShows: [[ShowRecord]]
    /// How many placements are on screen (have a `showingSince`): a decision looks for another fullscreen ad only
    /// when one is, so the usual ask, with nothing on screen, does not walk the fullscreen placements.
    fileprivate(set) var placementsShowing = 0
    var groups: [[ShowRecord]]
    var external: [String: Int64] = [:]
    var day: LocalDay?
    /// The shows of placements the policy does not have, by id: read from a ledger written under another policy, or
    /// kept over an update that removed the placement. The ledger keeps them, and a policy that has the placement
    /// again counts them (an app that starts on an older bundled policy must not erase what a newer one recorded).
    var setAside: [String: [ShowRecord]] = [:]
    /// Facts for a fresh install.
    /// - Parameters:
    ///   - policy: the policy the facts are indexed by.
    ///   - installedAt: the install time.
    ///   - sessionsBefore: sessions that happened before these facts start.
    public init(policy: Policy, installedAt: Int64, sessionsBefore: Int = 0) {
        let installedAt = Milliseconds.clamped(installedAt)
        self.installedAt = installedAt
        self.sessionCount = max(0, sessionsBefore)
        self.newestTime = installedAt
        self.placements = Array(repeating: PlacementFacts(), count: policy.storage.placements.count)
        self.placementShows = Array(repeating: [], count: policy.storage.placements.count)
        self.groups = Array(repeating: [], count: policy.groups.count)
    }

    /// Marks placement `i` on screen since a time, or off screen (nil), keeping ``placementsShowing``.
    mutating func setShowing(_ i: Int, since time: Int64?) {
        let was = placements[i].showingSince != nil
        placements[i].showingSince = time
        placementsShowing += (time != nil ? 1 : 0) - (was ? 1 : 0)
    }

    /// Counts the placements on screen again, after placements were added, removed or copied in whole.
    mutating func countShowing() {
        placementsShowing = placements.reduce(0) { $0 + ($1.showingSince != nil ? 1 : 0) }
    }

    /// Adds a show that happened before these facts start (scenario `history`, a restored ledger).
    public mutating func addHistoricalShow(placement: String, at written: Int64, session: Int, policy: Policy) {
        if !fits(policy) { self = fitted(to: policy) }
        let at = Milliseconds.clamped(written)
        newestTime = max(newestTime, at)
        guard let index = policy.storage.index(of: placement) else { return }
        let record = ShowRecord(at: at, session: session)
        Facts.insertSorted(record, into: &placementShows[index])
        for g in policy.groupsOfPlacement[index] { Facts.insertSorted(record, into: &groups[g]) }
    }

    /// Adds shows from before these facts start (a scenario's `history`), all at once: each placement keeps the newest
    /// shows a history keeps (the policy's `showsKept`), and each group is built from what its members keep, so a long
    /// history in many groups costs no more than the histories kept (a show one placement drops is never among the
    /// newest of its group either).
    public mutating func addHistoricalShows(_ shows: [(placement: String, at: Int64)], session: Int, policy: Policy) {
        if !fits(policy) { self = fitted(to: policy) }
        let keep = policy.storage.showsKept
        var added: [Int: [ShowRecord]] = [:]
        for show in shows {
            let at = Milliseconds.clamped(show.at)
            newestTime = max(newestTime, at)
            guard let index = policy.storage.index(of: show.placement) else { continue }
            added[index, default: []].append(ShowRecord(at: at, session: session))
        }
        var byGroup: [Int: [[ShowRecord]]] = [:]
        for (index, records) in added {
            let kept = Facts.newest(records, keep: keep)
            placementShows[index] = Facts.newest(placementShows[index] + kept, keep: keep)
            for g in policy.groupsOfPlacement[index] { byGroup[g, default: []].append(kept) }
        }
        // Each group takes the newest it keeps of its members' lists, merged from their ends: 10,000 groups of one
        // placement took a copy each of 20,000 shows, 3.2 GB, and 500 groups of 500 placements a copy each of every
        // member's list before trimming, 2.1 GB.
        for (g, lists) in byGroup {
            let keep = policy.storage.groupShowsKept[g]
            groups[g] = Facts.newest(groups[g] + Facts.newest(of: lists, keep: keep), keep: keep)
        }
    }

    /// The newest `keep` records of some lists each in time order, in time order: taken from the lists' ends, the
    /// latest first (a heap of the lists by their latest record not yet taken), so that many long lists cost what is
    /// kept of them, not all they hold.
    static func newest(of lists: [[ShowRecord]], keep: Int) -> [ShowRecord] {
        /// How many records of each list are not yet taken: its next one is at `remaining[list] - 1`.
        var remaining = lists.map(\.count)
        func latest(_ list: Int) -> ShowRecord { lists[list][remaining[list] - 1] }
        func isLater(_ a: Int, _ b: Int) -> Bool { (latest(a).at, latest(a).session) > (latest(b).at, latest(b).session) }
        var heap = lists.indices.filter { remaining[$0] > 0 }
        func siftDown(_ start: Int) {
            var i = start
            while true {
                var largest = i
                let left = 2 * i + 1, right = left + 1
                if left < heap.count, isLater(heap[left], heap[largest]) { largest = left }
                if right < heap.count, isLater(heap[right], heap[largest]) { largest = right }
                guard largest != i else { return }
                heap.swapAt(i, largest)
                i = largest
            }
        }
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
        var taken: [ShowRecord] = []
        taken.reserveCapacity(min(keep, remaining.reduce(0, +)))
        while taken.count < keep, let list = heap.first {
            taken.append(latest(list))
            remaining[list] -= 1
            if remaining[list] == 0 {
                heap.swapAt(0, heap.count - 1)
                heap.removeLast()
            }
            siftDown(0)
        }
        return taken.reversed()
    }

    /// The newest `keep` of some shows, in time order (and session order at one time).
    static func newest(_ shows: [ShowRecord], keep: Int) -> [ShowRecord] {
        // Sessions order shows at one time (a clock set back pins an older session's show to a newer one's time): a
        // session cap counts back from the end and stops at another session's show.
        Array(shows.sorted { ($0.at, $0.session) < ($1.at, $1.session) }.suffix(keep))
    }

    static func insertSorted(_ record: ShowRecord, into list: inout [ShowRecord]) {
        var i = list.count
        while i > 0, list[i - 1].at > record.at { i -= 1 }
        list.insert(record, at: i)
    }
}
