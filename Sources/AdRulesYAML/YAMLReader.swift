
/// The result of reading one YAML file: its root node (nil for an empty file) and what was wrong.
public struct YAMLDocument: Sendable {
    /// The document's root node, or nil when the file has no document.
    public var root: YAMLNode?
    /// Every `yaml/*` finding, in file order.
    public var diagnostics: [Diagnostic]
    /// Where every alias and tagged node starts (``YAMLEventCursor/aliasOrTagPositions``).
    public var aliasOrTagPositions: Set<SourcePosition> = []
    /// The scalars that hold a `#` or span lines (``YAMLEventCursor/textScalars``): where a `#` is text, not a comment.
    public var textScalars: [SourceRange] = []
}

/// Reads YAML through libyaml's event API into nodes with source ranges (scenario files and usage
/// models; rule files are decoded from the events as they arrive, see ``YAMLEventCursor``).
///
/// Anchors and aliases are read: an alias stands for a copy of the node its anchor names, at the alias's position
/// (a step written `- *launch` fails at its own line), and at most ``maxAliasedNodes`` nodes come in through aliases
/// over a file, so that nested aliases ("a billion laughs") or many copies of a long text cannot make the decoder's
/// work grow without bound. A key written as an alias is checked for repeats like any other. Merge keys and tags are
/// rejected as they are met; a second document, nesting past ``maxDepth`` and syntax errors stop the read.
public enum YAMLReader {
    /// The deepest nesting of mappings and sequences that is read.
    public static let maxDepth = 100
    /// The most nodes that aliases may bring into one file, counted with the nodes inside each and a text counting one
    /// more for each 64 bytes (``size(of:)``): far above what a scenario file repeats (a step is a handful of nodes),
    /// and far below what would take the decoder seconds.
    public static let maxAliasedNodes = 100_000
    /// The most nodes a file read whole may hold (a scenario file or a usage model; a rule file is decoded as it is read):
    /// about 100 bytes of memory each, so at most some 300 MB (a 15 MB file of five million `{}` took 525 MB). Written
    /// as people write them, values take 6 bytes or more (`- event: app_backgrounded` and `after: 1s`, step after step):
    /// a file of 16 MiB holds under 2.8 million; only `{}` or `[]` in a row, 3 bytes each, go past.
    public static let maxNodes = 3_000_000
    /// The largest file that is read, in bytes.
    public static let maxBytes = 16 * 1024 * 1024

    /// Reads the bytes of one file.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - file: the path used in diagnostics.
    /// - Returns: the root node and the diagnostics.
    public static func read(_ bytes: [UInt8], file: String) -> YAMLDocument {
        YAMLEventCursor.read(bytes, file: file) { cursor in
            cursor.isRuleFile = false
            let root = cursor.next().flatMap(cursor.node(from:))
            cursor.finish()
            // After a syntax error (or a file too large, too deep, not UTF-8), the file's other findings only repeat it
            // (cli.md r2), as in rule files: a key repeated above the error is not reported beside it. Nor is the root
            // read: a document that ended before the error (a first key indented, ` version: 1` then `users: 5`) lacks
            // the keys below it, and was told it had no segments or that its tests were no list.
            if let cause = cursor.brokenBy {
                return YAMLDocument(root: nil, diagnostics: [cause], aliasOrTagPositions: cursor.aliasOrTagPositions, textScalars: cursor.textScalars)
            }
            var diagnostics = cursor.diagnostics
            if cursor.droppedFindings > 0 {
                // Every finding of the YAML layer is an error.
                diagnostics.append(.tooManyFindings(cursor.droppedFindings, errors: cursor.droppedFindings, file: file))
            }
            return YAMLDocument(
                root: root, diagnostics: diagnostics, aliasOrTagPositions: cursor.aliasOrTagPositions, textScalars: cursor.textScalars)
        }
    }

    /// Reads a string (tests and in-memory policies).
    public static func read(_ text: String, file: String) -> YAMLDocument {
        read(Array(text.utf8), file: file)
    }
}

extension YAMLEventCursor {
    /// An open mapping or sequence of a node being built.
    private struct OpenNode {
        let isMapping: Bool
        let start: SourcePosition
        /// The anchor written on it, if any.
        let anchor: String?
        /// How many anchors had been met when it opened: an anchor of its name that ended after that is nested in it,
        /// and an alias inside it stands for that one.
        let anchorsBefore: Int
        var items: [YAMLNode] = []
        var pairs: [YAMLPair] = []
        var pendingKey: YAMLNode?
        /// The pending key repeats an earlier one, or is an alias that stands for nothing: its pair is dropped, as the
        /// cursor drops a repeated key.
        var pendingKeyRepeats = false
        /// The keys so far with where each stands, once a key written as an alias has come: the cursor checks the
        /// keys it reads for repeats, but not an alias, whose text is the node its anchor names.
        var keys: [String: SourcePosition]?
        /// How much it holds so far, aliases expanded (``YAMLReader/size(of:)``).
        var size = 0
    }

    /// The node an alias stands for, at the alias's range, with its size; nil, after a finding, when no anchor before
    /// it has that name or when it would bring in more than ``YAMLReader/maxAliasedNodes`` over the file.
    /// - Parameter inside: the alias stands inside a node that the anchor of its name is on (`&a [*a]`).
    private func resolve(alias name: String, at range: SourceRange, inside: Bool) -> (node: YAMLNode, size: Int)? {
        // Inside the value its anchor is on, an alias would be that value itself (as YAML reads it), even when an
        // earlier anchor of the name has ended (an anchor of the name nested in the value and ended is not inside).
        guard !inside, let target = anchored[name] else {
            aliasOrTagPositions.insert(range.start)
            report(.unresolvedAlias(name, inside: inside, file: file, range: range))
            return nil
        }
        guard target.size <= YAMLReader.maxAliasedNodes - aliasedNodes else {
            aliasOrTagPositions.insert(range.start)
            // Said at the first alias past the bound; the file is malformed already, and the rest would only repeat it.
            if !refusedAnAlias {
                refusedAnAlias = true
                report(.tooManyAliasedNodes(name, limit: YAMLReader.maxAliasedNodes, file: file, range: range))
            }
            return nil
        }
        aliasedNodes += target.size
        // The copy stands at the alias: a test's step, or a value of the wrong type, is found where the alias is.
        // (A position inside a scalar is looked for in the source at that range, finds the alias's text there rather
        // than the value's, and falls back to the alias.) What a copied collection holds keeps the anchor's ranges.
        var copy = target.node
        copy.range = range
        return (copy, target.size)
    }

    /// The whole node that `event` begins, built from the events that follow it.
    ///
    /// Decoders use it for small entries they need to look at out of order (a rule's `id` before its other keys).
    /// - Returns: the node, or nil when reading stopped before it ended.
    public func node(from event: YAMLEvent) -> YAMLNode? {
        // An explicit stack, not recursion: depth is bounded by the cursor, and appending never copies a frame.
        var stack: [OpenNode] = []
        var current: YAMLEvent? = event
        // Counted here, not on the cursor (a class, whose every property access is checked): a file that is not a rule
        // file is one node, read in one call.
        var built = 0
        while let event = current {
            var finished: YAMLNode?
            var size = 1
            let anchor = anchorOfLastEvent
            let alias = aliasOfLastEvent
            /// An alias that stands for nothing: an empty scalar in its place, and as a key its pair is dropped (a key
            /// of no text would be a finding of its own, a repeat or an unknown name).
            var unresolved = false
            switch event {
            case .scalar(let node):
                if let alias {
                    // Inside the value an anchor of its name is on, unless an anchor of the name nested in it has ended.
                    let laterOrder = anchored[alias]?.order ?? -1
                    let inside = stack.contains { $0.anchor == alias && laterOrder < $0.anchorsBefore }
                    if let resolved = resolve(alias: alias, at: node.range, inside: inside) {
                        (finished, size) = resolved
                    } else {
                        finished = node
                        unresolved = true
                    }
                } else {
                    size = YAMLReader.size(of: node)
                    finished = node
                    if let anchor { anchored[anchor] = (node, size, anchorsMet) }
                    if anchor != nil { anchorsMet += 1 }
                }
            case .mappingStart(let start):
                stack.append(OpenNode(isMapping: true, start: start, anchor: anchor, anchorsBefore: anchorsMet))
                if anchor != nil { anchorsMet += 1 }
            case .sequenceStart(let start):
                stack.append(OpenNode(isMapping: false, start: start, anchor: anchor, anchorsBefore: anchorsMet))
                if anchor != nil { anchorsMet += 1 }
            case .end(let end):
                guard let open = stack.popLast() else { return nil }
                let range = SourceRange(start: open.start, end: end)
                let node = YAMLNode(open.isMapping ? .mapping(open.pairs) : .sequence(open.items), range: range)
                size = open.size + 1
                if let name = open.anchor { anchored[name] = (node, size, anchorsMet) }
                finished = node
            }
            if let finished {
                built += 1
                if built > YAMLReader.maxNodes, !isRuleFile {
                    stop(.tooManyNodes(limit: YAMLReader.maxNodes, file: file, at: finished.range.start))
                    return nil
                }
                let top = stack.count - 1
                guard top >= 0 else { return finished }
                stack[top].size += size
                if !stack[top].isMapping {
                    stack[top].items.append(finished)
                } else if let key = stack[top].pendingKey {
                    if stack[top].pendingKeyRepeats {
                        stack[top].pendingKeyRepeats = false
                    } else {
                        stack[top].pairs.append(YAMLPair(key: key, value: finished))
                    }
                    stack[top].pendingKey = nil
                } else {
                    if unresolved {
                        stack[top].pendingKeyRepeats = true
                    } else if alias != nil || stack[top].keys != nil, let text = finished.scalar?.value {
                        stack[top].pendingKeyRepeats = isRepeat(key: text, at: finished.range, in: &stack[top])
                    }
                    stack[top].pendingKey = finished
                }
            }
            current = next()
        }
        return nil
    }

    /// Whether a key repeats one of the mapping's (with a `yaml/duplicate-key` finding at it), once a key written as
    /// an alias has come to the mapping.
    private func isRepeat(key text: String, at range: SourceRange, in open: inout OpenNode) -> Bool {
        if open.keys == nil {
            var keys: [String: SourcePosition] = [:]
            for pair in open.pairs { if let name = pair.key.scalar?.value, keys[name] == nil { keys[name] = pair.key.range.start } }
            open.keys = keys
        }
        if let first = open.keys?[text] {
            report(.duplicateKey(text, file: file, range: range, first: first))
            return true
        }
        open.keys?[text] = range.start
        return false
    }
}

extension YAMLReader {
    /// What a node counts for in ``maxAliasedNodes``: one, and a scalar one more for each 64 bytes of its text (a
    /// decoder reads the text of each copy: 3,000 aliases of a text of 8 MB ran for over 30 s).
    static func size(of node: YAMLNode) -> Int {
        1 + (node.scalar?.value.utf8.count ?? 0) / 64
    }
}
