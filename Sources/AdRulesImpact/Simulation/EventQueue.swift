/// Something that happens to a simulated user at a time: a load finishing, an ad closing, an app moment.
struct SimulationEvent {
    enum Kind: UInt8 {
        /// A load ends (`success`: completed, else failed).
        case loadDone
        /// The ad on screen closes (`success`: the user watched it for a reward).
        case adClosed
        /// An app moment of an action stream.
        case action
        /// A rewarded offer of a rewarded stream.
        case offer
        /// The user leaves the app.
        case visitEnd
    }

    var time: Int64
    /// Breaks ties between events at the same millisecond: first scheduled, first played.
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
        time < other.time || (time == other.time && sequence < other.sequence)
    }
}

/// A binary min-heap of events by (time, sequence); its storage is reused from user to user.
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
