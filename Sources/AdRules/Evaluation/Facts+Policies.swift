/// Facts across policies: fitted to another policy's tables by position, remapped to a new policy by placement id, and
/// the shows of placements a policy lacks set aside rather than dropped.
extension Facts {
    /// Whether these facts are indexed like the policy's placements and groups.
    func fits(_ policy: Policy) -> Bool {
        placements.count == policy.storage.placements.count && placementShows.count == placements.count
            && groups.count == policy.storage.groups.count
    }

    /// These facts padded or cut to the policy's tables, for facts built for another policy:
    /// never an index out of range, whatever the caller passes.
    func fitted(to policy: Policy) -> Facts {
        var facts = self
        let placementCount = policy.storage.placements.count
        let groupCount = policy.groups.count
        if facts.placements.count > placementCount { facts.placements.removeLast(facts.placements.count - placementCount) }
        if facts.placements.count < placementCount {
            facts.placements += Array(repeating: PlacementFacts(), count: placementCount - facts.placements.count)
        }
        if facts.placementShows.count > placementCount { facts.placementShows.removeLast(facts.placementShows.count - placementCount) }
        if facts.placementShows.count < placementCount {
            facts.placementShows += Array(repeating: [], count: placementCount - facts.placementShows.count)
        }
        if facts.groups.count > groupCount { facts.groups.removeLast(facts.groups.count - groupCount) }
        if facts.groups.count < groupCount { facts.groups += Array(repeating: [], count: groupCount - facts.groups.count) }
        facts.countShowing()
        return facts
    }

    /// The most placements whose shows are set aside: those shown most recently are kept.
    package static let maxSetAside = 256

    /// Sets a placement's shows aside (``setAside``): only a history with shows and an id a policy can have (a tampered
    /// ledger's ids, written back, would no longer fit its bounds), cut to what any history keeps, within
    /// ``maxSetAside`` placements.
    mutating func keepAside(_ id: String, _ shows: [ShowRecord]) {
        guard !shows.isEmpty, PolicyIDs.isValid(id, lowercaseOnly: false) else { return }
        setAside[id] = shows.count > Facts.maxShowsPerHistory ? Array(shows.suffix(Facts.maxShowsPerHistory)) : shows
        guard setAside.count > Facts.maxSetAside,
            let oldest = setAside.min(by: { ($0.value.last?.at ?? .min, $0.key) < ($1.value.last?.at ?? .min, $1.key) })
        else { return }
        setAside[oldest.key] = nil
    }

    /// How many shows of one placement the facts hold, as its caps read them; nil for an id the policy does not have or
    /// facts not built for it.
    package func showCount(of placement: String, policy: Policy) -> Int? {
        guard fits(policy), let i = policy.storage.index(of: placement), i < placementShows.count else { return nil }
        return placementShows[i].count
    }

    /// The show history by placement id, for persisting: the placements' of `policy`, and the shows set aside for
    /// placements it does not have (kept for a policy that has them again). Facts built for another policy (read from an engine while
    /// another thread updated its policy) are read by position, as the evaluator fits them: never an index out of range.
    public func showHistory(policy: Policy) -> [String: [ShowRecord]] {
        var result: [String: [ShowRecord]] = [:]
        // By id alone: a placement's whole description is not copied for each one written.
        for (id, shows) in zip(policy.storage.placementIDs, placementShows) where !shows.isEmpty { result[id] = shows }
        // Within what a ledger may hold, the policy's own placements first.
        for (id, shows) in setAside where result[id] == nil && result.count < LedgerBounds.maxPlacements { result[id] = shows }
        return result
    }

    /// The same facts indexed for another policy (placements matched by id), after `update(policy:)`. Facts that
    /// were not built for `old` are fitted to it first: never an index out of range, whatever the caller passes.
    public func remapped(from old: Policy, to new: Policy) -> Facts {
        guard fits(old) else { return fitted(to: old).remapped(from: old, to: new) }
        var facts = Facts(policy: new, installedAt: installedAt, sessionsBefore: sessionCount)
        facts.sessionActive = sessionActive
        facts.sessionStart = sessionStart
        facts.launchedAt = launchedAt
        facts.backgroundSince = backgroundSince
        facts.returnedAt = returnedAt
        facts.newestTime = newestTime
        // What had run out by the latest time handled stays run out when the clock is then set back (a policy update
        // between the two reopened an expired ad or a resume window).
        facts.observedTime = observedTime
        // The new policy may time loads out differently: the next event or ask settles them again.
        facts.nextLoadDeadline = .min
        facts.external = external
        for (id, shows) in setAside where old.storage.index(of: id) == nil {
            guard let j = new.storage.index(of: id) else {
                facts.keepAside(id, shows)
                continue
            }
            // A placement back in the policy: its shows count again, as they would have had it never left.
            facts.placementShows[j] = Facts.newest(shows, keep: new.storage.showsKept)
            for g in new.groupsOfPlacement[j] { facts.groups[g] += facts.placementShows[j].suffix(new.storage.groupShowsKept[g]) }
        }
        for (i, p) in old.placements.enumerated() {
            guard let j = new.storage.index(of: p.id) else {
                facts.keepAside(p.id, placementShows[i])
                continue
            }
            facts.placements[j] = placements[i]
            facts.placementShows[j] = placementShows[i]
            for g in new.groupsOfPlacement[j] { facts.groups[g] += placementShows[i].suffix(new.storage.groupShowsKept[g]) }
        }
        for g in facts.groups.indices where !facts.groups[g].isEmpty {
            facts.groups[g] = Facts.newest(facts.groups[g], keep: new.storage.groupShowsKept[g])
        }
        facts.countShowing()
        return facts
    }
}
