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

    /// About how many rule steps an `in` takes to go through a list of strings: one an item, and one more for each
    /// 256 bytes of an ASCII string or each 16 bytes of any other, which a comparison may read to its end. Strings
    /// compare by canonical equivalence: 1,000 strings of 4,096 characters with a common start took about 190 ns a
    /// comparison in ASCII and 2.7 µs as `e` and a combining accent, and 10,000 rules reading such a list made one
    /// ask take 27 s when each item counted as one step.
    package static func listWork<Strings: Sequence<String>>(of strings: Strings) -> Int {
        strings.reduce(0) { sum, text in
            let bytes = text.utf8.count
            let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
            return sum + 1 + bytes / (isASCII ? 256 : 16)
        }
    }

    /// About how many rule steps recording a show of a placement takes at most: the show goes into the placement's
    /// history and each of its groups', and a full list moves every show it keeps (about a nanosecond each, a
    /// sixteenth of a rule step): 10,000 groups keeping 600 shows made each show take 5.6 ms.
    package func showWork(ofPlacement slot: Int) -> Int {
        let groups = storage.groupsOfPlacement[slot]
        return 1 + groups.count + groups.reduce(storage.showsKept) { $0 + storage.groupShowsKept[$1] } / 16
    }

    /// About how many steps a `show` or `offer` spends in the custom rules that apply to its placement and in its
    /// groups' pacing: a function of the placement slot. Each rule counts the nodes of its condition, the strings of
    /// its constant lists, and for each `in` of a list the app gives, that list's length. A replay of many asks is
    /// bounded by it. The rules are read once; each slot then sums the costs of its own rules and those for every
    /// placement, summed once.
    /// - Parameter listLength: the longest list an attribute may hold in the asks (the caller knows its contexts).
    package func ruleWork(listLength: (String) -> Int) -> (Int) -> Int {
        let program = storage.ruleProgram
        // A condition's nodes are added children first, one rule after another: rule r's are the ones after the
        // previous rule's root, up to its own.
        var costs: [Int] = []
        var first = 0
        for root in program.roots {
            var cost = 1
            if root >= 0 {
                for node in program.nodes[first...root] {
                    cost += 1
                    guard node.kind == .member else { continue }
                    if node.shortcut == .stringInList {
                        cost += node.hi - node.lo
                    } else if program.nodes[node.b].kind == .attribute {
                        cost += listLength(program.names[program.nodes[node.b].a])
                    } else if program.nodes[node.b].kind == .constant {
                        switch program.constants[program.nodes[node.b].a] {
                        case .stringList(let list): cost += Policy.listWork(of: list)
                        case .intList(let list): cost += list.count
                        default: break
                        }
                    }
                }
                first = root + 1
            }
            costs.append(cost)
        }
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
}
