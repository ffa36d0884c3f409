import Foundation

/// The bounds a stored ledger keeps. A value outside them means the file was damaged or edited, and the
/// ledger is treated as corrupt instead of reaching arithmetic that would trap.
enum LedgerBounds {
    /// The largest ledger file read; a larger one is corrupt. 512 shows take about 17 KiB. What the engine writes is
    /// kept under it (``LedgerSnapshot/dropOldestShowsToFit()``).
    static let maxFileBytes = 4 << 20
    /// 2000-01-01T00:00:00Z in ms: the earliest plausible install or show time.
    static let earliest: Int64 = 946_684_800_000
    /// 9999-12-31T23:59:59.999Z in ms, the latest time a scenario may write: the latest install or show time a ledger
    /// holds. (It was 2200: a device clock past it wrote its shows clamped to 2200, and at the next start every show looked
    /// decades old, which reset every cap and interval.) A time later than the clock is pinned to it when read.
    static let latest = Timestamps.latest
    /// The most sessions a ledger may count (27 years at 1,000 sessions a day).
    static let maxSessionCount = 10_000_000
    /// The most placement ids a ledger may hold: as many as a policy may have.
    static let maxPlacements = PolicyLimits.maxPlacements
    /// The most shows a ledger may hold, all placements together (only 512 per placement, or the largest cap, are kept).
    static let maxShows = 1_000_000

    /// The most bytes one show takes in the file, `{"at":253402300799999,"session":10000000},` at the latest time and
    /// the largest session: what keeps a written ledger under ``maxFileBytes``.
    static let showBytes = 43
    /// The bytes a placement's entry takes besides its shows: its id as ``JSONWriter`` writes it (a policy's ids are
    /// letters, digits, `_`, `.` and `-`, written as they are; an id a ledger file held may need escapes), then colon,
    /// brackets and comma. Measured by writing it, so it follows the writer's escapes.
    static func entryBytes(_ id: String) -> Int {
        var writer = JSONWriter()
        writer.string(id)
        return writer.bytes.count + 4
    }

    static var times: ClosedRange<Int64> { earliest...latest }
    static let timesText = "a time between 2000-01-01 and 9999-12-31 (\(earliest)...\(latest) ms)"
}

extension LedgerSnapshot {
    /// The version of the ledgers this runtime reads and writes.
    static let currentVersion = 1

    /// A ledger a newer version of AdRules wrote (the app was rolled back): this runtime cannot read it, and it is moved
    /// aside as a corrupt one is (kept, not deleted), with a reason that says so. Left in place it was tried: nothing was
    /// written while the app stayed rolled back, so every launch started with no shows, and caps and grace started over
    /// each time, where moving it aside starts them over once.
    static func newerVersion(_ version: Int) -> LedgerError {
        .corrupt("the ledger is version \(version), written by a newer version of AdRules than this app's (which reads version \(currentVersion))")
    }

    /// Decodes and validates a ledger file's bytes.
    /// - Parameter data: the JSON a ``FileLedgerStore`` writes.
    /// - Throws: ``LedgerError/corrupt(_:)`` when the bytes are not JSON of a ledger (a key given twice, or a whole number
    ///   written with a fraction or an exponent, included), a value is out of range, or a newer version wrote it
    ///   (``newerVersion(_:)``).
    public init(validating data: Data) throws {
        guard data.count <= LedgerBounds.maxFileBytes else {
            throw LedgerError.corrupt("too large: more than \(LedgerBounds.maxFileBytes) bytes")
        }
        let bytes = [UInt8](data)
        do {
            self = try LedgerSnapshot(json: bytes)
        } catch {
            // A newer version's ledger may be laid out otherwise: its version alone is read then, so that the reason
            // names it (one laid out as this one is has its version checked by `validate()`).
            if let version = Self.version(in: bytes), version > Self.currentVersion { throw Self.newerVersion(version) }
            throw error
        }
        try validate()
    }

    /// Checks that every value is plausible: version 1, times between 2000 and 9999, a bounded session count,
    /// show sessions within it, and a bounded number of placements and shows.
    /// - Throws: ``LedgerError/corrupt(_:)`` naming the first field out of range and its value.
    public func validate() throws {
        guard version <= Self.currentVersion else { throw Self.newerVersion(version) }
        guard version == Self.currentVersion else { throw LedgerError.corrupt("version is \(version); only version 1 is known") }
        guard LedgerBounds.times.contains(installedAt) else {
            throw LedgerError.corrupt("installedAt is \(installedAt), not \(LedgerBounds.timesText)")
        }
        guard (0...LedgerBounds.maxSessionCount).contains(sessionCount) else {
            throw LedgerError.corrupt("sessionCount is \(sessionCount), not in 0...\(LedgerBounds.maxSessionCount)")
        }
        guard shows.count <= LedgerBounds.maxPlacements else {
            throw LedgerError.corrupt("shows has \(shows.count) placements, more than \(LedgerBounds.maxPlacements)")
        }
        var total = 0
        for (id, list) in shows {
            total += list.count
            guard total <= LedgerBounds.maxShows else {
                throw LedgerError.corrupt("shows holds more than \(LedgerBounds.maxShows) shows")
            }
            for show in list {
                guard LedgerBounds.times.contains(show.at) else {
                    throw LedgerError.corrupt("a show of \(Self.quoted(id)) is at \(show.at), not \(LedgerBounds.timesText)")
                }
                guard (0...sessionCount).contains(show.session) else {
                    throw LedgerError.corrupt("a show of \(Self.quoted(id)) has session \(show.session), not in 0...\(sessionCount) (sessionCount)")
                }
            }
        }
    }

    /// The snapshot with every value moved into the bounds ``validate()`` checks, so that what the engine writes
    /// always loads again, even when the device clock reads 1970.
    func clampedToBounds() -> LedgerSnapshot {
        let sessions = min(max(sessionCount, 0), LedgerBounds.maxSessionCount)
        func fits(_ show: ShowRecord) -> Bool { LedgerBounds.times.contains(show.at) && (0...sessions).contains(show.session) }
        var copy = self
        copy.sessionCount = sessions
        copy.installedAt = installedAt.clamped(to: LedgerBounds.times)
        for (id, list) in shows where !list.allSatisfy(fits) {
            copy.shows[id] = list.map { ShowRecord(at: $0.at.clamped(to: LedgerBounds.times), session: min(max($0.session, 0), sessions)) }
        }
        copy.dropOldestShowsToFit()
        return copy
    }

    /// Drops the oldest shows, of all placements together, until the file is sure to hold at most
    /// ``LedgerBounds/maxShows`` shows in at most ``LedgerBounds/maxFileBytes`` bytes, so that it loads again rather
    /// than being moved aside as corrupt, which would lose every show. Each placement keeps its newest show, which its
    /// `min_interval` reads. Caps of tens of thousands of shows with as many played, or about 190 placements with the 512
    /// shows each keeps whatever their age, come near the bound; those caps may then count fewer shows after a restart
    /// than before it, and a clock set back to the time of a dropped show no longer counts it.
    /// When the newest shows alone are too many (tens of thousands of placements, each shown, with long ids), the
    /// placements shown longest ago lose theirs too, entry and all: the file still loads.
    mutating func dropOldestShowsToFit() {
        let header = 128
        var size = header + shows.reduce(0) { $0 + LedgerBounds.entryBytes($1.key) + $1.value.count * LedgerBounds.showBytes }
        var total = shows.values.reduce(0) { $0 + $1.count }
        func overBounds() -> Bool { size > LedgerBounds.maxFileBytes || total > LedgerBounds.maxShows }
        guard overBounds() else { return }
        // Each list is oldest first: the oldest of all but each placement's newest are found by time, and taken from
        // the front of their lists.
        let oldestFirst = shows.flatMap { id, list in list.dropLast().map { (id: id, at: $0.at) } }.sorted { $0.at < $1.at }
        var dropped: [String: Int] = [:]
        for show in oldestFirst {
            guard overBounds() else { break }
            dropped[show.id, default: 0] += 1
            size -= LedgerBounds.showBytes
            total -= 1
        }
        for (id, count) in dropped { shows[id] = Array(shows[id, default: []].dropFirst(count)) }
        guard overBounds() else { return }
        // Entries with no show first (they hold nothing), then by their newest show, the id breaking ties.
        let byNewest = shows.map { id, list in (id: id, at: list.last?.at ?? .min) }.sorted { ($0.at, $0.id) < ($1.at, $1.id) }
        for entry in byNewest {
            guard overBounds() else { break }
            let count = shows[entry.id]?.count ?? 0
            size -= LedgerBounds.entryBytes(entry.id) + count * LedgerBounds.showBytes
            total -= count
            shows[entry.id] = nil
        }
    }

    /// An id as Swift would quote it, control characters escaped, so that a reason stays one line.
    static func quoted(_ id: String) -> String {
        String(reflecting: id.count > 64 ? String(id.prefix(64)) + "…" : id)
    }

    /// The top-level `version` of a JSON text, if it is one object with a whole number there.
    private static func version(in bytes: [UInt8]) -> Int? {
        guard case .object(let members)? = try? JSONValue.parse(bytes, maxDepth: 64, maxValues: 1 << 21) else { return nil }
        guard case .int(let version)? = members.first(where: { $0.0 == "version" })?.1 else { return nil }
        return version
    }
}

extension Comparable {
    /// The value, or the nearest bound of `range` when it lies outside.
    func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
