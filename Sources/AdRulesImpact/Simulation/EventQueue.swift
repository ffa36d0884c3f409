/// Something that happens to a simulated user at a time: a load finishing, an ad closing, an app moment.
struct SimulationEvent {
    /// In the order events at the same millisecond are played: what the SDKs report first (an ad that closes, then
    /// a load that ends), then the user leaving, then the app's moments. An action due when an ad closes finds the
    /// screen free, and an ad that closes as the visit ends is closed (and rewarded) before the app goes away.
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
    /// Breaks ties between events of one kind at the same millisecond: first scheduled, first played.
    var sequence: Int
    var kind: Kind
    /// The placement slot (loads, ads) or the stream index (actions, offers).
    var index: Int
    /// The app process (loads) or visit (actions, offers, visit end) the event belongs to.
    var epoch: Int
    var flag: Bool
    /// For loads started at a cold start: ask `show` (trigger load_completed) when it completes.
    var showOnCompletion: Bool

    @inline(__always)
    func precedes(_ other: SimulationEvent) -> Bool {
        if time != other.time { return time < other.time }
        if kind != other.kind { return kind.rawValue < other.kind.rawValue }
        return sequence < other.sequence
    }
}

/// A binary min-heap of events by (time, kind, sequence); its storage is reused from user to user.
struct EventQueue {
    private var heap: [SimulationEvent] = []
    private var nextSequence = 0

    var isEmpty: Bool { heap.isEmpty }

    /// The time of the earliest event.
    var nextTime: Int64? { heap.first?.time }

    mutating func removeAll() {
        heap.removeAll(keepingCapacity: true)
        nextSequence = 0
    }

    mutating func push(_ kind: SimulationEvent.Kind, at time: Int64, index: Int, epoch: Int, flag: Bool = false, showOnCompletion: Bool = false) {
        let event = SimulationEvent(time: time, sequence: nextSequence, kind: kind, index: index, epoch: epoch, flag: flag, showOnCompletion: showOnCompletion)
        nextSequence += 1
        var i = heap.count
        heap.append(event)
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
        guard let first = heap.first else { return nil }
        let last = heap.removeLast()
        if heap.isEmpty { return first }
        var i = 0
        let count = heap.count
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
