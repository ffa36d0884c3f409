
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
/// Anchors and aliases are read: an alias stands for a copy of the node its anchor names, with the alias's position
/// when it is a mapping or a sequence (a step written `- *launch` fails at its own line), and at most
/// ``maxAliasedNodes`` nodes come in through aliases over a file, so that nested aliases ("a billion laughs") cannot
/// make the decoder's work grow without bound. Merge keys and tags are rejected as they are met; a second document,
/// nesting past ``maxDepth`` and syntax errors stop the read.
public enum YAMLReader {
    /// The deepest nesting of mappings and sequences that is read.
    public static let maxDepth = 100
    /// The most nodes that aliases may bring into one file, counted with the nodes inside each: far above what a
    /// scenario file repeats (a step is a handful of nodes), and far below what would take the decoder seconds.
    public static let maxAliasedNodes = 100_000
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
            var diagnostics = cursor.diagnostics
            if cursor.droppedFindings > 0 {
                diagnostics.append(Diagnostic(
                    .error, rule: "lint/too-many-findings",
                    message: "\(cursor.droppedFindings) more findings in this file are not shown: fix the ones listed and lint again",
                    file: file, range: .fileStart))
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
        var items: [YAMLNode] = []
        var pairs: [YAMLPair] = []
        var pendingKey: YAMLNode?
        /// How many nodes it holds so far, aliases expanded.
        var size = 0
    }

    /// The node an alias stands for, with its size; an empty scalar, after a finding, when no anchor before it has
    /// that name or when it would bring in more than ``YAMLReader/maxAliasedNodes`` nodes over the file.
    private func resolve(alias name: String, at range: SourceRange) -> (node: YAMLNode, size: Int) {
        let placeholder = (node: YAMLNode(.scalar(YAMLScalar(value: "", style: .plain)), range: range), size: 1)
        guard let target = anchored[name] else {
            aliasOrTagPositions.insert(range.start)
            report(Diagnostic(
                .error, rule: "yaml/alias",
                message: "alias *\(name) names no anchor written before it: write &\(name) on the value above, or write the value out here",
                file: file, range: range))
            return placeholder
        }
        guard target.size <= YAMLReader.maxAliasedNodes - aliasedNodes else {
            aliasOrTagPositions.insert(range.start)
            // Said at the first alias past the bound; the file is malformed already, and the rest would only repeat it.
            if !refusedAnAlias {
                refusedAnAlias = true
                report(Diagnostic(
                    .error, rule: "yaml/alias",
                    message: "alias *\(name) would bring the nodes that aliases repeat in this file past \(YAMLReader.maxAliasedNodes): write the values out, or repeat fewer",
                    file: file, range: range))
            }
            return placeholder
        }
        aliasedNodes += target.size
        var copy = target.node
        // A mapping or a sequence stands at the alias (a test's step is found there); a scalar keeps the anchor's
        // range, where its text is, so that a position inside it is found in the source.
        if copy.scalar == nil { copy.range = range }
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
        while let event = current {
            var finished: YAMLNode?
            var size = 1
            let anchor = anchorOfLastEvent
            switch event {
            case .scalar(let node):
                if let alias = aliasOfLastEvent {
                    (finished, size) = resolve(alias: alias, at: node.range)
                } else {
                    finished = node
                    if let anchor { anchored[anchor] = (node, 1) }
                }
            case .mappingStart(let start):
                stack.append(OpenNode(isMapping: true, start: start, anchor: anchor))
            case .sequenceStart(let start):
                stack.append(OpenNode(isMapping: false, start: start, anchor: anchor))
            case .end(let end):
                guard let open = stack.popLast() else { return nil }
                let range = SourceRange(start: open.start, end: end)
                let node = YAMLNode(open.isMapping ? .mapping(open.pairs) : .sequence(open.items), range: range)
                size = open.size + 1
                if let name = open.anchor { anchored[name] = (node, size) }
                finished = node
            }
            if let finished {
                let top = stack.count - 1
                guard top >= 0 else { return finished }
                stack[top].size += size
                if !stack[top].isMapping {
                    stack[top].items.append(finished)
                } else if let key = stack[top].pendingKey {
                    stack[top].pairs.append(YAMLPair(key: key, value: finished))
                    stack[top].pendingKey = nil
                } else {
                    stack[top].pendingKey = finished
                }
            }
            current = next()
        }
        return nil
    }
}
