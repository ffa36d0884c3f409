import AdRules

extension YAMLEventCursor {
    /// The mappings and sequences open where the cursor stands, innermost last, with the frames of closed ones kept for
    /// reuse.
    ///
    /// One value, changed by one call an event (a scalar read, a collection opened or closed): the cursor is a class,
    /// and every read or write of its properties that Swift cannot prove alone is an exclusivity check at run time.
    /// Read and written several times an event, the frames paid about 53 million instructions of such checks in a lint
    /// of 10,000 placements, 19 million fewer this way.
    struct OpenCollections {
        /// An open mapping or sequence: where it started and, for a mapping, which keys it has had.
        struct Frame {
            /// A key, and where it was first written.
            struct Key {
                var name: String
                var at: SourcePosition
            }

            var isMapping = false
            /// Written as an indented block, not in brackets: its end is where its last node ends.
            var isBlock = false
            var start = SourcePosition(line: 1, column: 1)
            /// In a mapping: whether the next node is a key.
            var expectsKey = true
            /// The keys so far, with where each was first written: scanned while few, then indexed. (A struct, not a
            /// tuple, per key: an array of tuples is emptied through the runtime's generic tuple code.)
            var keys: [Key] = []
            var keyIndex: [String: Key] = [:]
            /// The key written last, and the one written before it (a repeat right after its first is told apart).
            var lastKey: String?
            var keyBefore: String?

            mutating func reset(isMapping: Bool, isBlock: Bool, start: SourcePosition) {
                self.isMapping = isMapping
                self.isBlock = isBlock
                self.start = start
                expectsKey = true
                lastKey = nil
                keyBefore = nil
                keys.emptyFromTheEnd()
                if !keyIndex.isEmpty { keyIndex.removeAll() }
            }

            /// Records a key; returns the first of its name, as written and where, when it is a repeat. (The first as written
            /// is kept with its position: looking it up among the keys by position made a mapping of many keys, each
            /// repeated, quadratic.)
            mutating func firstKey(ofRepeated name: String, at position: SourcePosition) -> Key? {
                keyBefore = lastKey
                lastKey = name
                if keys.count < 16 {
                    if let first = keys.first(where: { $0.name == name }) { return first }
                    keys.append(Key(name: name, at: position))
                    return nil
                }
                if keyIndex.isEmpty {
                    for key in keys where keyIndex[key.name] == nil { keyIndex[key.name] = key }
                }
                if let first = keyIndex[name] { return first }
                let key = Key(name: name, at: position)
                keyIndex[name] = key
                keys.append(key)
                return nil
            }
        }

        /// The frames, of which the first `depth` are open.
        private(set) var frames: [Frame] = []
        private(set) var depth = 0

        /// The innermost open collection's frame, `outward` levels out (0: the innermost); nil past the outermost.
        func frame(outward: Int = 0) -> Frame? { depth > outward ? frames[depth - 1 - outward] : nil }

        /// What a scalar read where the cursor stands is.
        enum ScalarRead {
            /// A node: a value, an item, or the root (`endsRoot`).
            case node(endsRoot: Bool)
            /// A key of the innermost mapping, its first.
            case key
            /// A key the innermost mapping has had, first written at `first`: its value is to be read through, and the
            /// mapping expects the value (whose end makes it expect a key again).
            case repeatedKey(first: SourcePosition, written: String)
        }

        /// Records a scalar read where the cursor stands. `key` is its text when it may be a key (nil for an alias, whose
        /// node is checked for repeats where it is put in place).
        mutating func read(scalar key: String?, at position: SourcePosition) -> ScalarRead {
            guard depth > 0 else { return .node(endsRoot: true) }
            let top = depth - 1
            guard frames[top].isMapping else { return .node(endsRoot: false) }
            guard frames[top].expectsKey, let key else {
                frames[top].expectsKey.toggle()
                return .node(endsRoot: false)
            }
            if let first = frames[top].firstKey(ofRepeated: key, at: position) {
                frames[top].expectsKey = false
                // The first key as written: equal as text, it may hold other bytes (`é` as one character or two).
                return .repeatedKey(first: first.at, written: first.name)
            }
            frames[top].expectsKey = false
            return .key
        }

        /// Opens a collection. The parent is not told yet: a collection used as a key leaves its mapping expecting a key
        /// until it ends.
        mutating func open(isMapping: Bool, isBlock: Bool, at start: SourcePosition) {
            if depth == frames.count { frames.append(Frame()) }
            frames[depth].reset(isMapping: isMapping, isBlock: isBlock, start: start)
            depth += 1
        }

        /// Closes the innermost collection, which is then a node that ended in its parent; nil when none is open.
        mutating func close() -> (isBlock: Bool, start: SourcePosition, endsRoot: Bool)? {
            guard depth > 0 else { return nil }
            depth -= 1
            let closed = (frames[depth].isBlock, frames[depth].start)
            guard depth > 0 else { return (closed.0, closed.1, true) }
            if frames[depth - 1].isMapping { frames[depth - 1].expectsKey.toggle() }
            return (closed.0, closed.1, false)
        }
    }
}
