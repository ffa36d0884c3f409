internal import CYAML

/// The result of reading one YAML file: its root node (nil for an empty file) and what was wrong.
public struct YAMLDocument: Sendable {
    /// The document's root node, or nil when the file has no document.
    public var root: YAMLNode?
    /// Every `yaml/*` finding, in file order.
    public var diagnostics: [Diagnostic]
}

/// Reads YAML through libyaml's event API into nodes with source ranges.
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
        if bytes.count > maxBytes {
            return YAMLDocument(root: nil, diagnostics: [.fileTooLarge(bytes: bytes.count, limit: maxBytes, file: file)])
        }
        if let bad = UTF8Check.firstInvalidPosition(in: bytes) {
            return YAMLDocument(root: nil, diagnostics: [.invalidUTF8(file: file, at: bad)])
        }
        return bytes.withUnsafeBufferPointer { buffer in
            var builder = TreeBuilder(file: file)
            builder.run(buffer)
            return YAMLDocument(root: builder.root, diagnostics: builder.diagnostics)
        }
    }

    /// Reads a string (tests and in-memory policies).
    public static func read(_ text: String, file: String) -> YAMLDocument {
        read(Array(text.utf8), file: file)
    }
}

private func position(_ mark: yaml_mark_t) -> SourcePosition {
    SourcePosition(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
}

private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?, length: Int) -> String {
    guard let pointer else { return "" }
    return String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self)
}

private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    guard let pointer else { return nil }
    return String(cString: pointer)
}

/// Builds the node tree from libyaml events with an explicit stack (no recursion, so depth is bounded).
private struct TreeBuilder {
    /// An open mapping or sequence; a class so that appending to it never copies its children.
    private final class Frame {
        let isMapping: Bool
        let start: SourcePosition
        var items: [YAMLNode] = []
        var pairs: [YAMLPair] = []
        var pendingKey: YAMLNode?
        var seen: [String: SourcePosition] = [:]

        init(isMapping: Bool, start: SourcePosition) {
            self.isMapping = isMapping
            self.start = start
        }
    }

    let file: String
    var root: YAMLNode?
    var diagnostics: [Diagnostic] = []
    private var stack: [Frame] = []
    private var documents = 0

    init(file: String) { self.file = file }

    mutating func run(_ buffer: UnsafeBufferPointer<UInt8>) {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            diagnostics.append(.syntax("libyaml could not start (out of memory)", file: file, at: SourceRange.fileStart.start))
            return
        }
        defer { yaml_parser_delete(&parser) }
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        yaml_parser_set_input_string(&parser, base, buffer.count)
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) == 1 else {
                let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
                let context = parser.context.map { String(cString: $0) }
                // A reader error (a control character, a bad encoding) has no mark: libyaml gives its byte offset.
                let at = parser.error == YAML_READER_ERROR
                    ? UTF8Check.position(ofByte: parser.problem_offset, in: buffer) : position(parser.problem_mark)
                // libyaml's words for two common mistakes are replaced by plain ones.
                let byte = Int(parser.problem_mark.index) < buffer.count ? buffer[Int(parser.problem_mark.index)] : 0
                if byte == 0x09 || problem.contains("tab character") {
                    diagnostics.append(.tabIndentation(file: file, at: at))
                } else if context == "while scanning an alias" || context == "while scanning an anchor" {
                    diagnostics.append(.bareAsterisk(file: file, at: position(parser.context_mark)))
                } else {
                    diagnostics.append(.libyamlProblem(problem: problem, context: context, file: file, at: at))
                }
                return
            }
            let keepGoing = handle(&event)
            let done = event.type == YAML_STREAM_END_EVENT
            yaml_event_delete(&event)
            if !keepGoing || done { return }
        }
    }

    /// Handles one event; returns false to stop reading.
    private mutating func handle(_ event: inout yaml_event_t) -> Bool {
        let range = SourceRange(start: position(event.start_mark), end: position(event.end_mark))
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                diagnostics.append(.multipleDocuments(file: file, at: range.start))
                return false
            }
        case YAML_ALIAS_EVENT:
            let name = string(event.data.alias.anchor) ?? ""
            diagnostics.append(.alias(name, file: file, range: range))
            add(YAMLNode(.scalar(YAMLScalar(value: "", style: .plain)), range: range))
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            if data.anchor != nil || data.tag != nil { checkProperties(anchor: data.anchor, tag: data.tag, range: range) }
            let value = string(data.value, length: data.length)
            let style: ScalarStyle
            switch data.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: style = .literal
            case YAML_FOLDED_SCALAR_STYLE: style = .folded
            default: style = .plain
            }
            add(YAMLNode(.scalar(YAMLScalar(value: value, style: style)), range: range))
        case YAML_SEQUENCE_START_EVENT:
            checkProperties(anchor: event.data.sequence_start.anchor, tag: event.data.sequence_start.tag, range: range)
            guard push(Frame(isMapping: false, start: range.start)) else { return false }
        case YAML_MAPPING_START_EVENT:
            checkProperties(anchor: event.data.mapping_start.anchor, tag: event.data.mapping_start.tag, range: range)
            guard push(Frame(isMapping: true, start: range.start)) else { return false }
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let frame = stack.popLast() else { return true }
            let whole = SourceRange(start: frame.start, end: range.end)
            if frame.isMapping {
                add(YAMLNode(.mapping(frame.pairs), range: whole))
            } else {
                add(YAMLNode(.sequence(frame.items), range: whole))
            }
        default:
            break
        }
        return true
    }

    private mutating func push(_ frame: Frame) -> Bool {
        if stack.count >= YAMLReader.maxDepth {
            diagnostics.append(.tooDeep(limit: YAMLReader.maxDepth, file: file, at: frame.start))
            return false
        }
        stack.append(frame)
        return true
    }

    private mutating func checkProperties(
        anchor: UnsafeMutablePointer<yaml_char_t>?, tag: UnsafeMutablePointer<yaml_char_t>?, range: SourceRange
    ) {
        if let name = string(anchor) {
            diagnostics.append(.anchor(name, file: file, range: range))
        }
        if let tag = string(tag) {
            diagnostics.append(.tag(shortTag(tag), file: file, range: range))
        }
    }

    private func shortTag(_ tag: String) -> String {
        let core = "tag:yaml.org,2002:"
        return tag.hasPrefix(core) ? "!!" + tag.dropFirst(core.count) : tag
    }

    /// Adds a finished node to the frame on top of the stack, or makes it the root.
    private mutating func add(_ node: YAMLNode) {
        guard let top = stack.last else {
            if root == nil { root = node }
            return
        }
        guard top.isMapping else {
            top.items.append(node)
            return
        }
        guard let key = top.pendingKey else {
            if let text = node.scalar, text.style == .plain, text.value == "<<" {
                diagnostics.append(.mergeKey(file: file, range: node.range))
            }
            top.pendingKey = node
            return
        }
        top.pendingKey = nil
        if let name = key.scalar?.value {
            // Small mappings (almost all of a rule file) are scanned; large ones use a dictionary.
            var first: SourcePosition?
            if top.pairs.count < 16 {
                first = top.pairs.first { $0.key.scalar?.value == name }?.key.range.start
            } else {
                if top.seen.isEmpty {
                    for pair in top.pairs { if let k = pair.key.scalar?.value, top.seen[k] == nil { top.seen[k] = pair.key.range.start } }
                }
                first = top.seen[name]
                if first == nil { top.seen[name] = key.range.start }
            }
            if let first {
                diagnostics.append(.duplicateKey(name, file: file, range: key.range, first: first))
                return
            }
        }
        top.pairs.append(YAMLPair(key: key, value: node))
    }
}
