import AdRules
import Foundation

/// Plays simulated users, one at a time, through the engine with the recommended integration
/// (impact.md, "The integration each simulated user plays"), counting what happens.
///
/// Only the engine decides: the player never shows an ad the engine denied. It drives the engine's core
/// (``EngineCore``, what ``AdEngine`` runs under its lock) at the simulated time, with no lock, clock or
/// ledger, because a simulated user lives on one thread. One player serves one thread; its buffers are
/// reused from user to user.
struct UserPlayer {
    let plan: SimulationPlan
    /// The counters as they are being counted.
    var counting: [SegmentCounters]

    // The user being played.
    var engine: EngineCore
    var segment = 0
    /// The current segment's action and offer streams and cold-start loads, taken from the plan once per user:
    /// an event reads them without copying the segment's plan.
    var actions: [(slot: Int, every: DurationDistribution)] = []
    var rewarded: [(slot: Int, every: DurationDistribution, accept: Double)] = []
    var preload: [Int] = []
    var context = AskContext.standard
    /// The contexts prepared so far, by segment, premium and attribute values (``preparedContext(_:)``), at most
    /// ``preparedContextsKept``.
    var preparedContexts: [PreparedContextKey: AskContext] = [:]
    let preparedContextsKept: Int
    /// The most contexts a player keeps, and the most memory they may take: a context holds a truth for every node of
    /// the policy's rules and a value for every attribute (``Policy/preparedContextBytes``), and 4,096 contexts of a
    /// policy of a million nodes would take 4 GB.
    static let maxPreparedContexts = 4_096
    static let preparedContextBudget = 16 << 20
    /// The reasons the last ask found, its storage reused from ask to ask (``EngineCore/find(_:context:at:into:)``).
    var found = Findings()
    /// The last ask, when it named a placement the policy does not have (its reason is built when counted).
    var unknownAsk: Ask?
    var chance = RandomSource(derivedFrom: 0)
    var visitRandom = RandomSource(derivedFrom: 0)
    var queue = EventQueue()
    /// Per slot: whether the app holds a loaded ad it has not shown.
    var held: [Bool]
    /// Per slot: impressions and reached caps (``CapKind`` bits) of the current day.
    var today: [Int]
    var capsToday: [UInt16]
    /// Per policy group: its caps reached today (``CapKind`` bits). A group's cap reached counts for each member at the
    /// day's end, once a group and day, which empties the table for the next day: marked for each member at every
    /// impression, 10,000 members under 64 windows made one user-day take 25 s.
    var groupCapsToday: [UInt16]
    var now: Int64 = 0
    var foreground = false
    /// The visit waits for the ad on screen to close before the app goes to the background.
    var endPending = false
    /// When the ad on screen closes (not later than `now` when none is on screen).
    var screenUntil: Int64 = 0
    /// When set, every impression is logged: (placement slot, time). Tests check the caps against it.
    var impressionLog: [(slot: Int, at: Int64)]?
    /// The key (``Reason/siteKey``) of each reason site met so far, and its location. A policy's reasons come from a
    /// few sites, scanned in `siteKeys`; past ``scannedSites`` of them the others are looked up in `siteIndex` (a policy
    /// of 10,000 rules that all deny has 10,000 sites, and a scan of them for each reason made one ask take a second).
    var siteKeys: [Int64] = []
    var siteIndex: [Int64: Int] = [:]
    static let scannedSites = 32
    /// The sites met most recently, by a hash of their key (``SiteCacheEntry``): most reasons find theirs here, with no
    /// scan.
    var siteCache = Array(repeating: SiteCacheEntry(), count: SiteCacheEntry.entries)
    var siteLocations: [SiteLocation] = []
    /// Per site: whether its summary depends on the site alone (``SiteLocation/summary`` is set).
    var siteSummaryIsFixed: [Bool] = []
    /// Per site and segment (`site * segments + segment`): where the site's denials are counted in its placement's
    /// counters (``SiteCell``). A site is of the placement asked about (its key holds it), so it is counted for one
    /// slot, kept in `siteSlots`. (Per site, segment and slot, a policy of 10,000 app-open placements made 1.3 GB of
    /// entries for one user.)
    var siteCells: [SiteCell] = []
    var siteSlots: [Int] = []
    /// The index of each deny-reason row in its block's counters since they were reset, by block and (code, location):
    /// a site's first denial in a chunk, or a reason given in full, finds its row here, not by a scan of the block's
    /// rows (a policy of 10,000 rules that all deny scanned 10,000 rows for each, 1.3 s a block and chunk).
    var rowIndex: [DenialRowKey: Int] = [:]
    /// The histogram entries, deny-reason rows and their texts (longest messages) of the counters since they were
    /// reset. Each only grows when chunks are added up, so a chunk that passes a report's bound alone passes it in the
    /// sum: the runner stops playing it there.
    var chunkSize = ReportSize()
    /// Calls into the engine so far (records, asks, shows begun, rewards claimed), for the benchmark.
    var engineCalls = 0
    /// Visits and app processes so far: events of an earlier visit or process are dropped.
    var visit = 0
    var process = 0
    /// When the current visit is planned to end: an action or offer due then or later is never played (the user has
    /// left, or is leaving once the ad on screen closes), so it is not queued.
    var visitEndsAt: Int64 = 0

    init(plan: SimulationPlan) {
        self.plan = plan
        counting = plan.segments.map { _ in SegmentCounters(placements: plan.placements.count) }
        engine = EngineCore(policy: plan.policy, facts: Facts(policy: plan.policy, installedAt: 0), deviceTimeZone: .gmt)
        held = Array(repeating: false, count: plan.placements.count)
        today = Array(repeating: 0, count: plan.placements.count)
        capsToday = Array(repeating: 0, count: plan.placements.count)
        groupCapsToday = Array(repeating: 0, count: plan.groupSlots.count)
        preparedContextsKept = min(Self.maxPreparedContexts, max(1, Self.preparedContextBudget / max(1, plan.policy.preparedContextBytes)))
    }

    /// Starts counting afresh (a new chunk of users).
    mutating func resetCounters() {
        counting = plan.segments.map { _ in SegmentCounters(placements: plan.placements.count) }
        for cell in siteCells.indices { siteCells[cell] = SiteCell() }
        rowIndex.removeAll(keepingCapacity: true)
        chunkSize = ReportSize()
    }

    /// Plays every day of one user.
    mutating func play(user: Int) {
        segment = plan.segmentIndex(ofUser: user)
        let seg = plan.segments[segment]
        (actions, rewarded, preload) = (seg.actions, seg.rewarded, seg.preload)
        let profile = seg.segment
        var behaviour = RandomSource(seed: plan.seed, user: user, stream: .behaviour)
        chance = RandomSource(seed: plan.seed, user: user, stream: .chance)
        let premium = behaviour.chance(profile.premium)
        let daysAgo = max(0, profile.installedDaysAgo.draw(&behaviour))
        let sessionsBefore = profile.sessionsBefore?.draw(&behaviour) ?? Int(daysAgo * max(1, profile.coldStarts.mean))
        now = seg.midnights[0]
        queue.removeAll()
        for slot in held.indices { held[slot] = false }
        (foreground, endPending, screenUntil, visit, process) = (false, false, 0, 0, 0)
        var lastEnd = Int64.min
        var starts: [Int64] = []
        for day in 0..<plan.days {
            let dayEnd = seg.midnights[day + 1]
            var drawn = PreparedContextKey(segment: segment, premium: premium, values: [])
            for attribute in seg.attributes { drawn.values.append(attribute.source.draw(&behaviour)) }
            context = seg.contextsRepeat ? preparedContext(drawn) : prepare(drawn)
            for slot in today.indices {
                today[slot] = 0
                capsToday[slot] = 0
            }
            let coldStarts = max(1, profile.coldStarts.draw(&behaviour))
            let visits = coldStarts + profile.resumes.draw(&behaviour)
            // `first_open` is a local clock time, which on a DST day is not the time since midnight. The day's first
            // visit always happens: one drawn in the last 2 s of the day starts 2 s before midnight.
            let firstOpen = min(seg.instant(ofClockTime: profile.firstOpen.draw(&behaviour), day: day), dayEnd - 2000)
            starts.removeAll(keepingCapacity: true)
            starts.append(firstOpen)
            for _ in 1..<max(visits, 1) { starts.append(behaviour.integer(firstOpen, dayEnd - 1)) }
            starts.sort()
            Self.spread(&starts, until: dayEnd)
            if day == 0 {
                // An app is installed when it is first opened: a user installed 0 days ago installs at the first visit
                // of the first day, so that the grace periods after install apply to new users (installed at midnight,
                // a user who first opens at 08:00 was past any grace of less than 8 hours).
                let installedAt = starts[0] - Int64((daysAgo * 86_400_000).rounded())
                engine = engine.forAnotherUser(
                    facts: Facts(policy: plan.policy, installedAt: installedAt, sessionsBefore: sessionsBefore), deviceTimeZone: seg.zone)
            }
            var coldLeft = coldStarts - 1
            for v in 0..<visits {
                // Which visits are cold starts, how long each lasts and its own random numbers are drawn
                // whether or not the visit fits, so that two policies see the same visits.
                var isCold = v == 0
                if v > 0, coldLeft > 0, behaviour.integer(0, Int64(visits - v - 1)) < coldLeft {
                    isCold = true
                    coldLeft -= 1
                }
                let length = profile.foreground.draw(&behaviour)
                visitRandom = RandomSource(derivedFrom: behaviour.next())
                // A visit starts when drawn (or 1 s after an ad that kept the last one open has closed) and ends after
                // its length, or 1 s before the next visit starts: every visit drawn happens. One that still cannot
                // start before local midnight is dropped (visits never cross days), which takes thousands of visits.
                let start = lastEnd == .min ? starts[v] : max(starts[v], lastEnd + 1000)
                guard start < dayEnd - 1000 else { continue }
                var end = min(start + max(length, 1000), dayEnd - 1)
                if v + 1 < visits { end = max(min(end, starts[v + 1] - 1000), start + 1000) }
                lastEnd = playVisit(from: start, until: end, cold: isCold)
            }
            // What happens in the background after the day's last visit (a load that completes, the show the app then
            // asks for and its denial) happens today: it is played before the day is counted, not at the next visit,
            // which may be tomorrow (a cap denied at 23:00 was counted as reached on the next day). After the last
            // visit of the run, an ad that loads then and is never shown is a wasted load, as on any other day.
            while let next = queue.nextTime, next < dayEnd, let event = queue.pop() { handle(event) }
            counting[segment].userDays += 1
            for group in groupCapsToday.indices where groupCapsToday[group] != 0 {
                for member in plan.groupSlots[group] { capsToday[member] |= groupCapsToday[group] }
                groupCapsToday[group] = 0
            }
            for slot in today.indices {
                let grown = counting[segment].placements[slot].countDay(impressions: today[slot])
                if grown > 0 {
                    chunkSize.histogramEntries += grown
                    chunkSize.longestHistogram = max(chunkSize.longestHistogram, today[slot] + 1)
                }
                var mask = capsToday[slot]
                while mask != 0 {
                    let kind = mask.trailingZeroBitCount
                    counting[segment].placements[slot].capDays[kind] += 1
                    mask &= mask - 1
                }
            }
        }
        for slot in held.indices where held[slot] { counting[segment].placements[slot].wastedLoads += 1 }
        counting[segment].users += 1
    }

    // MARK: visits

    /// Spaces sorted visit starts at least 2 s apart inside the day, moving as few as the day's room allows: the
    /// last ones back from midnight, then each after the one before.
    static func spread(_ starts: inout [Int64], until dayEnd: Int64) {
        guard var i = starts.indices.last else { return }
        let first = starts[0]
        starts[i] = min(starts[i], dayEnd - 2000)
        while i > 0 {
            starts[i - 1] = min(starts[i - 1], starts[i] - 2000)
            i -= 1
        }
        // Never before the day's first open: when the day has no room, the last visits are dropped instead.
        starts[0] = max(starts[0], first)
        for k in starts.indices.dropFirst() { starts[k] = max(starts[k], starts[k - 1] + 2000) }
    }

    /// Plays one visit and returns when the app went to the background.
    private mutating func playVisit(from start: Int64, until plannedEnd: Int64, cold: Bool) -> Int64 {
        // Loads that finish while the app is in the background still complete, those that finish as the user
        // returns included: the SDK's callback comes before the app's (events at one millisecond, docs/impact.md).
        while let next = queue.nextTime, next <= start, let event = queue.pop() { handle(event) }
        setTime(start)
        visit += 1
        foreground = true
        endPending = false
        if cold { coldStart() } else { resume() }
        queue.push(.visitEnd, at: plannedEnd, index: 0, epoch: visit)
        visitEndsAt = plannedEnd
        for i in actions.indices { pushMoment(.action, at: start + gap(actions[i].every), stream: i) }
        for i in rewarded.indices { pushMoment(.offer, at: start + gap(rewarded[i].every), stream: i) }
        while foreground, let event = queue.pop() { handle(event) }
        return now
    }

    /// Queues a stream's next action or offer of this visit, unless it falls at or after the visit's end, when it would
    /// be dropped unplayed (its visit end comes first at the same millisecond). Dead events left in the queue piled up:
    /// 2,000 visits a day of 128 streams took 30 ms a user-day. The gap is drawn either way, so the draws, and so every
    /// figure, are the same.
    /// - Parameter putOff: the moment came due while an ad was on screen: at a tie, it goes before the other moments.
    private mutating func pushMoment(_ kind: SimulationEvent.Kind, at time: Int64, stream: Int, putOff: Bool = false) {
        if time < visitEndsAt { queue.push(kind, at: time, index: stream, epoch: visit, putOff: putOff) }
    }

    /// The time until a stream's next action or offer: an `every` draw, at least 1 s (docs/impact.md).
    private mutating func gap(_ every: DurationDistribution) -> Int64 {
        max(every.draw(&visitRandom), 1000)
    }

    private mutating func setTime(_ time: Int64) {
        now = time
    }

    /// Cold start: `app_launched`, then a load of each app-open placement (shown when it completes in
    /// the launch phase) and of the placements the segment's actions and offers use.
    private mutating func coldStart() {
        process += 1
        for slot in held.indices where held[slot] {
            counting[segment].placements[slot].wastedLoads += 1
            held[slot] = false
        }
        record(.appLaunched)
        for slot in plan.appOpen { askLoad(slot, showOnCompletion: true) }
        for k in preload.indices { askLoad(preload[k], showOnCompletion: false) }
    }

    /// Return from background: `app_resumed`, then a `show` (trigger resume) of each app-open placement.
    private mutating func resume() {
        record(.appResumed)
        for slot in plan.appOpen {
            shown(beginShow(slot, trigger: .resume), slot: slot, reward: false)
        }
    }

    // MARK: events

    private mutating func handle(_ event: SimulationEvent) {
        setTime(event.time)
        switch event.kind {
        case .loadDone: loadDone(event)
        case .adClosed:
            // An ad of an earlier app process died with it (a banner still shown when the user left, then a cold start).
            guard event.epoch == process else { return }
            adClosed(slot: event.index, rewarded: event.flag)
        case .action:
            guard event.epoch == visit, foreground, !endPending else { return }
            let stream = actions[event.index]
            if screenUntil > now {
                // The user is watching an ad: the next action comes after it closes.
                pushMoment(.action, at: screenUntil + gap(stream.every), stream: event.index, putOff: true)
                return
            }
            record(.action, slot: stream.slot)
            shown(beginShow(stream.slot, trigger: .action), slot: stream.slot, reward: false)
            pushMoment(.action, at: max(now, screenUntil) + gap(stream.every), stream: event.index)
        case .offer:
            guard event.epoch == visit, foreground, !endPending else { return }
            let stream = rewarded[event.index]
            if screenUntil > now {
                pushMoment(.offer, at: screenUntil + gap(stream.every), stream: event.index, putOff: true)
                return
            }
            offer(stream.slot, accept: stream.accept)
            pushMoment(.offer, at: max(now, screenUntil) + gap(stream.every), stream: event.index)
        case .visitEnd:
            guard event.epoch == visit, foreground else { return }
            if screenUntil > now { endPending = true } else { background() }
        }
    }

    mutating func background() {
        record(.appBackgrounded)
        foreground = false
        endPending = false
    }
}
