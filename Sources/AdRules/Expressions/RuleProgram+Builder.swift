extension RuleProgram {
    /// Flattens expression trees into the tables, children before parents.
    struct Builder {
        var nodes: [Node] = []
        var operands: [Int] = []
        var constants: [AttributeValue] = []
        var memberStrings: [String] = []
        var names: [String] = []

        /// A constant or default as a whole number, for ``Shortcut/wholeNumbers``.
        static func whole(_ value: AttributeValue?) -> Int64 {
            switch value {
            case .int(let i)?: return i
            case .duration(let d)?: return d.milliseconds
            default: return 0
            }
        }

        /// Whether a node is read as a whole number: an `int` or `duration` constant, builtin or attribute.
        func isWhole(_ n: Int, _ type: ValueType) -> Bool {
            let node = nodes[n]
            return node.type == type && (type == .int || type == .duration)
                && (node.kind == .constant || node.kind == .builtin || node.kind == .attribute)
        }

        mutating func add(_ e: CompiledExpression) -> Int {
            var node: Node
            switch e {
            case .constant(let value):
                node = Node(kind: .constant, type: value.type, a: constants.count)
                node.whole = Builder.whole(value)
                // Texts kept composed (``Swift/String/composed``): an app's composed value then compares fast.
                switch value {
                case .string(let text): constants.append(.string(text.composed))
                case .stringList(let list): constants.append(.stringList(list.map(\.composed)))
                default: constants.append(value)
                }
            case .builtin(let builtin):
                node = Node(kind: .builtin, builtin: builtin, type: builtin.type)
            case .attribute(let name, let type, let fallback):
                node = Node(kind: .attribute, type: type, a: names.count, b: fallback == nil ? -1 : constants.count)
                if case .bool(let truth)? = fallback { node.fallbackTruth = truth }
                node.whole = Builder.whole(fallback)
                names.append(name)
                if let fallback { constants.append(fallback) }
            case .not(let inner):
                node = Node(kind: .not, a: add(inner))
            case .and(let list), .or(let list):
                let children = list.map { add($0) }
                node = Node(kind: e.isAnd ? .and : .or, a: operands.count, b: operands.count + children.count)
                operands += children
            case .compare(let op, let l, let r):
                node = Node(kind: .compare, op: op, a: add(l), b: add(r))
                let type = nodes[node.a].type
                if isWhole(node.a, type) && isWhole(node.b, type) { node.shortcut = .wholeNumbers }
            case .member(let l, let r, let negated):
                node = Node(kind: .member, negated: negated, a: add(l), b: add(r))
                if nodes[node.a].type == .string, nodes[node.b].kind == .constant, case .stringList(let list) = constants[nodes[node.b].a] {
                    node.shortcut = .stringInList
                    node.lo = memberStrings.count
                    memberStrings += list
                    node.hi = memberStrings.count
                }
            }
            nodes.append(node)
            return nodes.count - 1
        }
    }
}
