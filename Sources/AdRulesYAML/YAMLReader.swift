
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
/// Anchors, aliases, merge keys and tags are rejected as they are met, before anything is
/// expanded; a second document, nesting past ``maxDepth`` and syntax errors stop the read.
public enum YAMLReader {
    /// The deepest nesting of mappings and sequences that is read.
    public static let maxDepth = 100
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
        var items: [YAMLNode] = []
        var pairs: [YAMLPair] = []
        var pendingKey: YAMLNode?
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
            switch event {
            case .scalar(let node):
                finished = node
            case .mappingStart(let start):
                stack.append(OpenNode(isMapping: true, start: start))
            case .sequenceStart(let start):
                stack.append(OpenNode(isMapping: false, start: start))
            case .end(let end):
                guard let open = stack.popLast() else { return nil }
                let range = SourceRange(start: open.start, end: end)
                finished = YAMLNode(open.isMapping ? .mapping(open.pairs) : .sequence(open.items), range: range)
            }
            if let finished {
                let top = stack.count - 1
                guard top >= 0 else { return finished }
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
