import Foundation

/// What the engine knows about the stored ledger, guarded by `AdEngine.persistLock`.
struct LedgerDiskState {
    /// The newest generation of the facts written.
    var writtenGeneration = 0
    /// The ledger exists but could not be read: nothing is written until it can be, so that it is never overwritten.
    var unread = false
    /// The sessions the facts started from while the ledger was unread (the app's `sessionsBefore:`, for a ledger
    /// started fresh): a ledger read later replaces them with its own count.
    var sessionsBeforeUnread = 0
    /// The read and write problems last reported, so that each is reported once until it changes or clears.
    var reportedRead: String?
    var reportedWrite: String?
}

/// Reading and writing the ledger: corrupt files are moved aside, unreadable ones left alone and read again later.
extension AdEngine {
    enum LedgerRead {
        case missing
        case loaded(LedgerSnapshot)
        /// An I/O error: the ledger may be fine and must not be touched.
        case unreadable(String)
        /// A decode or validation error: the ledger was moved aside when the store can keep it.
        case corrupt(LedgerProblem)
    }

    /// Loads and validates the stored ledger, whatever the store; moves a corrupt file aside.
    static func read(_ store: any LedgerStore, now: Date) -> LedgerRead {
        do {
            guard let snapshot = try store.load() else { return .missing }
            try snapshot.validate()
            return .loaded(snapshot)
        } catch LedgerError.corrupt(let reason) {
            guard let file = store as? FileLedgerStore else { return .corrupt(.corrupt(path: "\(type(of: store))", movedTo: nil, reason: reason)) }
            switch file.quarantine(now: now) {
            case .moved(let movedTo): return .corrupt(.corrupt(path: file.path, movedTo: movedTo, reason: reason))
            case .replaced(let snapshot): return .loaded(snapshot)
            case .gone: return .corrupt(.corrupt(path: file.path, movedTo: nil, reason: reason))
            case .stuck(let why):
                // A fresh ledger would be written over the only copy: it is left as it is, as an unreadable one is, and
                // moved aside once it can be.
                return .unreadable("\(file.path) is corrupt (\(reason)) and could not be moved aside to be kept (\(why))")
            }
        } catch LedgerError.io(let reason) {
            return .unreadable(reason)
        } catch {
            // Another store's own error says nothing about the bytes, so nothing is discarded.
            return .unreadable(error.localizedDescription)
        }
    }

    /// Writes a snapshot of `facts` unless a newer one was written; reports problems once no lock is held,
    /// so that a handler may call the engine.
    /// - Returns: false when nothing was written for want of a readable ledger or a working store (a newer snapshot
    ///   written instead counts as written).
    @discardableResult
    func persist(_ facts: Facts, policy: Policy, generation: Int) -> Bool {
        guard let store else { return true }
        persistLock.lock()
        let (problems, written) = writeLocked(facts, policy: policy, generation: generation, to: store)
        persistLock.unlock()
        for problem in problems { onLedgerProblem?(problem) }
        return written
    }

    private func writeLocked(_ facts: Facts, policy: Policy, generation: Int, to store: any LedgerStore) -> (problems: [LedgerProblem], written: Bool) {
        var problems: [LedgerProblem] = []
        var (facts, policy, generation) = (facts, policy, generation)
        if disk.unread {
            let read = AdEngine.read(store, now: clock.now())
            switch read {
            case .unreadable(let reason):
                if reason != disk.reportedRead { problems.append(.unreadable(reason: reason)) }
                disk.reportedRead = reason
                return (problems, false)
            case .corrupt(let problem):
                problems.append(problem)
            case .missing, .loaded:
                break
            }
            disk.unread = false
            disk.reportedRead = nil
            // Adopt what is on disk into the newest facts, and write those.
            (facts, policy, generation) = state.withLock { state in
                // The clock is read under the lock, as for events, so that adopted times never run ahead of recorded ones.
                if case .loaded(let snapshot) = read {
                    state.core.facts.adopt(
                        snapshot, startedFrom: disk.sessionsBeforeUnread, policy: state.core.policy, now: state.core.time(of: clock.now()))
                }
                state.generation += 1
                return (state.core.facts, state.core.policy, state.generation)
            }
        }
        // A newer snapshot written makes this one's write needless. The generation counts as written once the store
        // took it: after a failed write, an older snapshot still arriving is written (it holds less, but is on disk).
        if generation > 0, generation <= disk.writtenGeneration { return (problems, true) }
        let snapshot = LedgerSnapshot(installedAt: facts.installedAt, sessionCount: facts.sessionCount, shows: facts.showHistory(policy: policy))
        do {
            try store.save(snapshot.clampedToBounds())
            if generation > 0 { disk.writtenGeneration = generation }
            disk.reportedWrite = nil
            return (problems, true)
        } catch {
            let reason = (error as? LedgerError).map { "\($0)" } ?? error.localizedDescription
            if reason != disk.reportedWrite { problems.append(.unwritable(reason: reason)) }
            disk.reportedWrite = reason
            return (problems, false)
        }
    }
}
