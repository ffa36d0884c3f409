import AdRules

/// How a simulated user's denials are counted: by reason site, in the counters of the segment and placement.
extension UserPlayer {
    /// The counters of every segment, for the users this player has played: a copy of ``counting`` with the denials kept
    /// aside in ``siteCells`` (``SiteCell/pending``) added, built each time it is read (the runner reads it once a chunk).
    var counters: [SegmentCounters] {
        var counters = counting
        for cell in siteCells.indices where siteCells[cell].pending > 0 {
            let row = pendingRow(cell)
            counters[row.segment].placements[row.slot].denials[row.entry].count += siteCells[cell].pending
        }
        return counters
    }

    /// Counts the reasons the last ask was denied for (``found``, or the placement the policy lacks), and loads an ad
    /// that is missing or expired.
    mutating func denied(slot: Int) {
        if let ask = unknownAsk.take() {
            // A placement the model plays and the policy lacks (with --compare): its one reason, given in full.
            let reason = Evaluator.decide(ask, policy: plan.policy, facts: engine.facts, now: now, deviceTimeZone: engine.deviceTimeZone).reasons(first: 1)
            if let first = reason.first { countDenial(first.code, site: nil, slot: slot, reason: .given(first)) }
            return
        }
        var reload = false
        // Each reason is read from ``found`` by its position, in place: no list is built, and no copy of the findings
        // is made (the next ask reuses their storage).
        for i in 0..<found.reasonCount {
            let code = found.code(at: i)
            let site = found.siteKey(at: i).map { self.site($0, slot: slot, summaryIsFixed: found.summaryIsFixed(at: i), reason: .found(i)) }
            countDenial(code, site: site, slot: slot, reason: .found(i))
            // A show or offer denied lists every cap it meets (its pacing and caps are its last step), as
            // ``markCapsReached(_:)`` would find them: a group's cap (a cap of 0 reaches it with no impression) is
            // reached for every member, marked for the group.
            if let cap = CapKind(code: code) {
                capsToday[slot] |= cap.bit
                if cap.isGroup, let group = found.group(at: i) { groupCapsToday[group] |= cap.bit }
            }
            switch code {
            case .adExpired:
                if held[slot] {
                    counting[segment].placements[slot].wastedLoads += 1
                    held[slot] = false
                }
                reload = true
            case .adNotReady: reload = true
            default: break
            }
        }
        if reload { askLoad(slot, showOnCompletion: false) }
    }

    /// Where a reason being counted comes from: the last ask's findings, by position, or given in full (rare: boxed, so
    /// that the usual position is passed as a word, not copied as a whole reason).
    enum CountedReason {
        case found(Int)
        indirect case given(Reason)
    }

    /// The reason in full, built when a count needs its location or message.
    func built(_ reason: CountedReason) -> Reason {
        switch reason {
        case .found(let i): return found.reason(at: i, policy: plan.policy, deviceTimeZone: engine.deviceTimeZone)
        case .given(let reason): return reason
        }
    }

    /// Counts a deny reason. A report counts a reason over many days: it shows the message without the day of a
    /// daily cap (``Reason/summary``).
    /// - Parameter site: the index of the reason's site (``siteKeys``, ``siteIndex``), nil for a reason given in full.
    mutating func countDenial(_ code: ReasonCode, site: Int?, slot: Int, reason: CountedReason) {
        // A site met for another slot than its own cannot be (a site's key holds the placement asked about); it
        // would be counted by location, as a reason given in full is.
        guard let site, siteSlots[site] == slot else {
            let built = built(reason)
            countRow(code, at: built.location.map(ImpactLocation.init), slot: slot, messageIsFixed: false, message: built.summary)
            return
        }
        // The counter's entry for this site and segment was found the first time: no search by location. (Its code and
        // whether the site's summary is fixed are kept as plain values: reading them from the counters and the site's
        // location copied their texts.)
        let cell = site * plan.segments.count + segment
        let fixed = siteSummaryIsFixed[site]
        let entry = siteCells[cell].entry
        if entry >= 0, siteCells[cell].code == code {
            // A fixed message adds nothing but the count, kept aside until the counters are read (``counters``).
            if fixed {
                siteCells[cell].pending += 1
                return
            }
            let message = built(reason).summary
            chunkSize.denyText += counting[segment].placements[slot].countDenial(entry: entry, messageIsFixed: false, message: message)
            return
        }
        addPendingDenials(cell)
        // (A site's summary is kept when it is fixed: the reason is built only for a message that is not.)
        let (location, message) = (siteLocations[site].location, siteLocations[site].summary ?? built(reason).summary)
        let row = countRow(code, at: location, slot: slot, messageIsFixed: fixed, message: message)
        siteCells[cell].entry = row
        siteCells[cell].code = code
    }

    /// Adds the denials kept aside for a site and segment (``SiteCell/pending``) to their row, before the cell's entry
    /// changes.
    mutating func addPendingDenials(_ cell: Int) {
        guard siteCells[cell].pending > 0 else { return }
        let row = pendingRow(cell)
        counting[row.segment].placements[row.slot].denials[row.entry].count += siteCells[cell].pending
        siteCells[cell].pending = 0
    }

    /// The row that a site and segment's denials kept aside (``SiteCell/pending``) belong to.
    func pendingRow(_ cell: Int) -> (segment: Int, slot: Int, entry: Int) {
        let (site, segment) = cell.quotientAndRemainder(dividingBy: plan.segments.count)
        return (segment, siteSlots[site], siteCells[cell].entry)
    }

    /// Counts a denial in its row of the current segment's block for `slot`, found in ``rowIndex`` or appended.
    /// - Returns: the row's index in the block's denials.
    @discardableResult
    mutating func countRow(_ code: ReasonCode, at location: ImpactLocation?, slot: Int, messageIsFixed: Bool, message: @autoclosure () -> String) -> Int {
        let key = DenialRowKey(segment: segment, slot: slot, code: code, location: location)
        if let row = rowIndex[key] {
            chunkSize.denyText += counting[segment].placements[slot].countDenial(entry: row, messageIsFixed: messageIsFixed, message: message())
            return row
        }
        let row = counting[segment].placements[slot].appendDenial(code, at: location, message: message())
        rowIndex[key] = row
        chunkSize.denyRows += 1
        chunkSize.denyText += counting[segment].placements[slot].denials[row].boundedTextBytes
        return row
    }

    /// The index of a reason site (``siteKeys``, ``siteIndex``), its location and summary (when that depends on the site alone)
    /// built the first time it is met: building them reads the placement's settings, and a run gives the same few
    /// sites millions of times.
    mutating func site(_ key: Int64, slot: Int, summaryIsFixed: Bool, reason: CountedReason) -> Int {
        let cached = SiteCacheEntry.position(of: key)
        if siteCache[cached].site >= 0, siteCache[cached].key == key { return siteCache[cached].site }
        let site = findSite(key, slot: slot, summaryIsFixed: summaryIsFixed, reason: reason)
        siteCache[cached] = SiteCacheEntry(key: key, site: site)
        return site
    }

    /// ``site(_:slot:summaryIsFixed:reason:)`` for a key not in the cache.
    private mutating func findSite(_ key: Int64, slot: Int, summaryIsFixed: Bool, reason: CountedReason) -> Int {
        if let i = siteKeys.firstIndex(of: key) { return i }
        if siteLocations.count > siteKeys.count, let i = siteIndex[key] { return i }
        let built = built(reason)
        if siteKeys.count < Self.scannedSites { siteKeys.append(key) } else { siteIndex[key] = siteLocations.count }
        siteLocations.append(SiteLocation(location: built.location.map(ImpactLocation.init), summary: summaryIsFixed ? built.summary : nil))
        siteSummaryIsFixed.append(summaryIsFixed)
        siteCells += Array(repeating: SiteCell(), count: plan.segments.count)
        siteSlots.append(slot)
        return siteLocations.count - 1
    }
}

/// A deny-reason row of a block: its segment and placement slot, its code and location.
struct DenialRowKey: Hashable {
    let segment: Int
    let slot: Int
    let code: ReasonCode
    let location: ImpactLocation?
}

/// Where one site's denials of one segment are counted, as plain values (reading them from the counters copied texts).
struct SiteCell {
    /// The index of the site's entry in its placement's denial counters; -1 before its first denial since the counters
    /// were reset.
    var entry = -1
    /// The code of the denials counted in the entry (a site gives one code).
    var code = ReasonCode.unknownPlacement
    /// Denials of a fixed message counted for the entry and not yet added to its row: a plain increment per reason (a
    /// row is three tables deep), added when the counters are read (``UserPlayer/counters``) or before the entry changes.
    var pending = 0
}

/// A site met recently: the entry of ``UserPlayer/siteCache`` its key hashes to (a site of -1 for none).
struct SiteCacheEntry {
    var key: Int64 = 0
    var site = -1

    /// The cache's size, 64 entries: a policy's reasons come from a few dozen sites.
    static let bits = 6
    static let entries = 1 << bits

    /// The entry a key hashes to: the top ``bits`` bits of a multiplicative hash (Fibonacci hashing), which spreads keys
    /// that differ in any of their fields.
    static func position(of key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
    }
}

/// Where a reason site points in the rule files, and what its reasons say when that is the same for all.
struct SiteLocation {
    var location: ImpactLocation?
    /// The summary of the site's reasons, nil when it differs from reason to reason.
    var summary: String?
}
