import Foundation

/// What a replay of many steps costs, for the tooling's bounds on scenario files and on the impact preview's user-days
/// (not read when deciding).
extension Policy {
    /// About how many rule steps an event that goes over every placement takes (`app_launched`, `app_backgrounded`,
    /// `app_resumed`, a clock set back, a load's deadline passed): two a placement (20,000 `app_launched` against
    /// 50,000 placements took 40 s, about 40 ns a placement).
    package var visitWork: Int { storage.placements.count * 2 }

    /// About how many rule steps a `show`, `offer` or `load` spends looking for a fullscreen ad on screen: one for each
    /// fullscreen placement (10,000 app-open placements and 130 resumes a day made one impact user-day take 32 s).
    package var screenWork: Int { storage.fullscreenPlacements.count }

    /// The work of each list attribute's default (``listWork(of:)``): what a rule's `in` reads when an ask gives no
    /// list of its own.
    package var defaultListLengths: [String: Int] {
        var lengths: [String: Int] = [:]
        for attribute in storage.attributes {
            switch attribute.defaultValue {
            case .stringList(let list)?: lengths[attribute.name] = Policy.listWork(of: list)
            case .intList(let list)?: lengths[attribute.name] = list.count
            default: break
            }
        }
        return lengths
    }

    /// The work of reading each string attribute's default to its end (``stringWork(_:)``): what a comparison reads
    /// when an ask gives no value of its own.
    package var defaultStringWork: [String: Int] {
        var work: [String: Int] = [:]
        for attribute in storage.attributes {
            if case .string(let text)? = attribute.defaultValue { work[attribute.name] = Policy.stringWork(text) }
        }
        return work
    }

    /// About how many rule steps, beyond the one it is counted as, comparing a string may take when it reads the
    /// string to its end: one for each 256 bytes of an ASCII string, each 32 bytes of any other (a rule step is
    /// 10-20 ns). Strings of 4,096 characters with a common start took about 190 ns a comparison in ASCII, and 1.4 µs
    /// (4 KB) to 3 µs (6 KB) otherwise; 10,000 rules reading a list of 1,000 such strings made one ask take 27 s when
    /// each item counted as one step. The texts compared are composed (``Swift/String/composed``): a composed text
    /// against the same text decomposed took 530 µs.
    package static func stringWork(_ text: String) -> Int {
        text.utf8.count / (text.utf8.allSatisfy { $0 < 0x80 } ? 256 : 32)
    }

    /// About how many rule steps an `in` takes to go through a list of strings: one an item, and ``stringWork(_:)``
    /// of each.
    package static func listWork<Strings: Sequence<String>>(of strings: Strings) -> Int {
        strings.reduce(0) { $0 + 1 + stringWork($1) }
    }

    /// The most shows a placement's history keeps: one more than the policy's largest cap (at least ``Facts/minShowsPerHistory``).
    /// ``showWork(ofPlacement:)`` counts each show as moving histories this full.
    package var showsKeptPerHistory: Int { storage.showsKept }

    /// How many show records a history of `counts` shows (by placement slot) puts into the facts: each placement keeps
    /// its newest ``showsKeptPerHistory``, and each of its groups the newest the group keeps of its members'
    /// (``Facts/addHistoricalShows(_:session:policy:)``).
    package func historyRecords(_ counts: [Int: Int]) -> Int {
        var total = 0
        var byGroup: [Int: Int] = [:]
        for (slot, count) in counts {
            let kept = min(count, storage.showsKept)
            total += kept
            for g in storage.groupsOfPlacement[slot] { byGroup[g, default: 0] += kept }
        }
        return byGroup.reduce(total) { $0 + min($1.value, storage.groupShowsKept[$1.key]) }
    }

    /// The show records a show of the placement adds: one to its history and one to each of its groups'.
    package func recordsPerShow(ofPlacement slot: Int) -> Int { 1 + storage.groupsOfPlacement[slot].count }

    /// The most show records a policy's groups may keep in all (32 MB of them). Each show of a placement goes into the
    /// history of each of its groups, up to what each keeps: 10,000 groups of one placement with a cap of 100,000 made
    /// 20,000 shows of history take 3.9 GB and crash an app at start-up. A policy past this is refused, by lint and by
    /// the loader of compiled policies.
    package static let maxGroupRecords = 2_000_000

    /// The show records the groups keep at most, in all, and the first group at which they pass ``maxGroupRecords``
    /// (nil when they do not).
    package var groupRecords: (total: Int, firstPastBound: Int?) {
        var total = 0
        var first: Int?
        for (g, keep) in storage.groupShowsKept.enumerated() {
            total += keep
            if first == nil, total > Policy.maxGroupRecords { first = g }
        }
        return (total, first)
    }

    /// What is wrong with a policy whose groups keep more than ``maxGroupRecords`` records, and what to write instead.
    package func groupRecordsMessage(total: Int) -> String {
        "the groups keep up to \(total) show records in all (a group with a cap keeps its largest cap, one more for each member "
            + "up to 512 and one besides; a group without one, one more than its members up to 512; each show of a member goes into each), "
            + "more than the \(Policy.maxGroupRecords) a policy may keep: lower the groups' caps, or use fewer groups (put placements that share caps in one group)"
    }

    /// The most show records the facts can hold: every placement's history and every group's full.
    package var recordsKeptAtMost: Int { storage.showsKept * storage.placements.count + storage.groupShowsKept.reduce(0, +) }

    /// About how many rule steps recording a show of a placement takes at most: the show goes into the placement's
    /// history and each of its groups', and a full list moves every show it keeps (about a nanosecond each, a
    /// sixteenth of a rule step): 10,000 groups keeping 600 shows made each show take 5.6 ms.
    package func showWork(ofPlacement slot: Int) -> Int {
        let groups = storage.groupsOfPlacement[slot]
        return 1 + groups.count + groups.reduce(storage.showsKept) { $0 + storage.groupShowsKept[$1] } / 16
    }

    /// About how many steps a `show` or `offer` spends in the custom rules that apply to its placement and in its
    /// groups' pacing: a function of the placement slot. Each rule counts the nodes of its condition, the strings of
    /// its constant lists, for each `in` of a list the app gives that list's work, and for strings compared the
    /// length read (``stringWork(_:)``). A replay of many asks is bounded by it. The rules are read once; each slot
    /// then sums the costs of its own rules and those for every placement, summed once.
    /// - Parameters:
    ///   - listLength: the work of the longest list an attribute may hold in the asks (``listWork(of:)``; the caller
    ///     knows its contexts).
    ///   - stringLength: the work of the longest string an attribute may hold in the asks (``stringWork(_:)``).
    ///   - contextsPrepared: the asks' contexts are prepared for the policy (``Policy/prepared(_:)``, as the impact
    ///     preview prepares each user-day's), so a node that reads attributes and constants only is read from the
    ///     context in one step; preparing a context costs ``preparedContextWork(listLength:stringLength:)``.
    package func ruleWork(listLength: (String) -> Int, stringLength: (String) -> Int = { _ in 0 }, contextsPrepared: Bool = false) -> (Int) -> Int {
        let costs = conditionCosts(listLength: listLength, stringLength: stringLength, contextsPrepared: contextsPrepared)
        let lists = storage.rulesOfPlacement
        let common = lists.commonItems.reduce(0) { $0 + costs[$1] }
        let storage = storage
        // Pacing too: each group of the placement, with its windows (10,000 groups of 64 windows give an ask 640,000
        // reasons to find), and the placement's own windows. A window that denies builds a reason: about 16 times a
        // rule node's time (100 such asks took 18 s, where 2.56 million nodes an ask took 46 ms).
        let perWindow = 16
        return { slot in
            let own = storage.placementLimits[slot].pacing.windows.count * perWindow
            let pacing = storage.groupsOfPlacement[slot].reduce(own) { sum, g in sum + (1 + storage.groupLimits[g].windows.count) * perWindow }
            return lists[slot].reduce(common + pacing) { $0 + costs[$1] }
        }
    }

    /// About how many rule steps preparing a context for the policy takes: every condition read in full.
    package func preparedContextWork(listLength: (String) -> Int, stringLength: (String) -> Int) -> Int {
        conditionCosts(listLength: listLength, stringLength: stringLength, contextsPrepared: false).reduce(0, +)
    }

    /// The steps of each rule's condition (``ruleWork(listLength:stringLength:contextsPrepared:)``).
    private func conditionCosts(listLength: (String) -> Int, stringLength: (String) -> Int, contextsPrepared: Bool) -> [Int] {
        let program = storage.ruleProgram
        // What reading a string operand to its end takes: a constant's text, or the longest value the asks give an
        // attribute; other operands read nothing long.
        func textWork(_ n: Int) -> Int? {
            let node = program.nodes[n]
            guard node.type == .string else { return nil }
            switch node.kind {
            case .constant:
                if case .string(let text) = program.constants[node.a] { return Policy.stringWork(text) }
                return nil
            case .attribute: return stringLength(program.names[node.a])
            default: return nil
            }
        }
        // What reading a list operand takes (the right of `in`, either side of `==`): the list the asks give an
        // attribute, or a constant's.
        func listOperandWork(_ n: Int) -> Int {
            let node = program.nodes[n]
            guard node.type == .stringList || node.type == .intList else { return 0 }
            switch node.kind {
            case .attribute: return listLength(program.names[node.a])
            case .constant:
                switch program.constants[node.a] {
                case .stringList(let list): return Policy.listWork(of: list)
                case .intList(let list): return list.count
                default: return 0
                }
            default: return 0
            }
        }
        // A condition's nodes are added children first, one rule after another: rule r's are the ones after the
        // previous rule's root, up to its own.
        var costs: [Int] = []
        var first = 0
        for root in program.roots {
            var cost = 1
            if root >= 0 {
                for n in first...root {
                    let node = program.nodes[n]
                    cost += 1
                    // Read from a prepared context in one step.
                    if contextsPrepared && program.attributesOnly[n] { continue }
                    switch node.kind {
                    case .compare:
                        // Two strings compared read as far as the shorter one goes; two lists, each item.
                        if let left = textWork(node.a), let right = textWork(node.b) { cost += min(left, right) }
                        cost += listOperandWork(node.a) + listOperandWork(node.b)
                    case .member:
                        if node.shortcut == .stringInList {
                            // Each listed string against the value: as far as the shorter of the two.
                            let value = textWork(node.a) ?? 0
                            cost += program.memberStrings[node.lo..<node.hi].reduce(0) { $0 + 1 + min(value, Policy.stringWork($1)) }
                        } else {
                            cost += listOperandWork(node.b)
                        }
                    default:
                        break
                    }
                }
                first = root + 1
            }
            costs.append(cost)
        }
        return costs
    }
}

extension String {
    /// The text in Unicode normalization form C. Strings compare by canonical equivalence, and comparing a composed
    /// text with a decomposed one normalizes as it goes: 2,040 accented letters written `é` against the same written
    /// `e` and a combining accent took 530 µs a comparison, two composed ones 1.4 µs. A rule's constants and the
    /// values scenario files and usage models give are kept composed, so no comparison of the two pays for that (an
    /// equal text stays equal: composing keeps canonical equivalence).
    package var composed: String {
        utf8.allSatisfy { $0 < 0x80 } ? self : precomposedStringWithCanonicalMapping
    }
}
