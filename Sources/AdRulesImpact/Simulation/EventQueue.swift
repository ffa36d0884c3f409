/// Something that happens to a simulated user at a time: a load finishing, an ad closing, an app moment.
struct SimulationEvent {
    /// In the order events at the same millisecond are played: what the SDKs report first (an ad that closes, then
    /// a load that ends), then the user leaving, then the app's moments (a moment an ad put off before the others). An
    /// action due when an ad closes finds the screen free, and an ad that closes as the visit ends is closed (and
    /// rewarded) before the app goes away.
    enum Kind: UInt8 {
        /// The ad on screen closes (`success`: the user watched it for a reward).
        case adClosed
        /// A load ends (`success`: completed, else failed).
        case loadDone
        /// The user leaves the app.
        case visitEnd
        /// An app moment of an action stream.
        case action
        /// A rewarded offer of a rewarded stream.
        case offer
    }

    var time: Int64
    /// The rank and the kind in the top byte, then the sequence: orders events at one millisecond in one comparison
    /// (rank first, then kind, then first scheduled, first played). The rank is the kind's, but an action or offer an
    /// ad on screen put off ranks before the other moments: with the same constant `every`, the moment that first came
    /// due as another showed its ad would otherwise come due with that one again after the ad, lose again, and never
    /// be played.
    private var order: UInt64
    /// The app process (loads) or visit (actions, offers, visit end) the event belongs to.
    var epoch: Int
    /// The placement slot (loads, ads) or the stream index (actions, offers).
    private var slotOrStream: Int32
    var flag: Bool
    /// For loads started at a cold start: ask `show` (trigger load_completed) when it completes.
    var showOnCompletion: Bool

    /// - Parameter sequence: breaks ties between events of one kind at the same millisecond (below 2^56: a user plays at
    ///   most 366 days, each of at most 10,000 app moments and the visits, loads and ads that come with them).
    /// - Parameter putOff: an action or offer that came due while an ad was on screen, played after it.
    init(time: Int64, sequence: Int, kind: Kind, index: Int, epoch: Int, flag: Bool, showOnCompletion: Bool, putOff: Bool = false) {
        self.time = time
        let rank = putOff ? Kind.action.rawValue : kind.rawValue < Kind.action.rawValue ? kind.rawValue : kind.rawValue + 1
        order = UInt64(rank << 4 | kind.rawValue) << 56 | UInt64(sequence)
        self.epoch = epoch
        slotOrStream = Int32(index)
        self.flag = flag
        self.showOnCompletion = showOnCompletion
    }

    /// Read back from the low half of the top byte of ``order``, where a kind's raw value always is (the fallback is never
    /// taken).
    var kind: Kind { Kind(rawValue: UInt8(truncatingIfNeeded: order >> 56) & 0x0F) ?? .offer }
    var index: Int { Int(slotOrStream) }

    @inline(__always)
    func precedes(_ other: SimulationEvent) -> Bool {
        time != other.time ? time < other.time : order < other.order
    }
}

/// A binary min-heap of events by (time, rank, kind, sequence); its storage is reused from user to user.
struct EventQueue {
    /// The heap is `heap[..<count]`; the storage past it is kept for the next events.
    private var heap: [SimulationEvent] = []
    private var count = 0
    private var nextSequence = 0

    var isEmpty: Bool { count == 0 }

    /// The time of the earliest event.
    var nextTime: Int64? { count > 0 ? heap[0].time : nil }

    mutating func removeAll() {
        count = 0
        nextSequence = 0
    }

    mutating func push(
        _ kind: SimulationEvent.Kind, at time: Int64, index: Int, epoch: Int, flag: Bool = false, showOnCompletion: Bool = false, putOff: Bool = false
    ) {
        let event = SimulationEvent(
            time: time, sequence: nextSequence, kind: kind, index: index, epoch: epoch, flag: flag, showOnCompletion: showOnCompletion, putOff: putOff)
        nextSequence += 1
        var i = count
        if count < heap.count { heap[count] = event } else { heap.append(event) }
        count += 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard event.precedes(heap[parent]) else { break }
            heap[i] = heap[parent]
            i = parent
        }
        heap[i] = event
    }

    /// Removes and returns the earliest event.
    mutating func pop() -> SimulationEvent? {
        guard count > 0 else { return nil }
        let first = heap[0]
        count -= 1
        guard count > 0 else { return first }
        let last = heap[count]
        var i = 0
        while true {
            let left = 2 * i + 1
            guard left < count else { break }
            var child = left
            if left + 1 < count, heap[left + 1].precedes(heap[left]) { child = left + 1 }
            guard heap[child].precedes(last) else { break }
            heap[i] = heap[child]
            i = child
        }
        heap[i] = last
        return first
    }
}
