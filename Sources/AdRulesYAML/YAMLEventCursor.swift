import AdRules
internal import CYAML

/// Reads YAML through libyaml's event API one event at a time, so a decoder can build its values as the
/// events arrive and nothing of the document stays behind.
///
/// The cursor applies every rule of the YAML layer itself, whatever the decoder reads or skips: merge keys and tags
/// are reported as they are met, and so are anchors and aliases in a rule file (``isRuleFile``); a key repeated in
/// a mapping is reported (at the second, with a note at the first) and the repeated key and its value are read
/// through and never handed out, so decoders see the first one only; a second document, nesting past ``YAMLReader/maxDepth``
/// and syntax errors stop the read, after which ``next()`` returns nil.
public final class YAMLEventCursor {
    /// The path used in diagnostics.
    public let file: String
    /// Whether the file is a rule file, which must be explicit (cli.md, `yaml/alias`): its anchors and aliases are
    /// findings. Scenario files and usage models, read whole through ``YAMLReader``, may use them: an anchor names a
    /// node and an alias stands for a copy of it (``YAMLReader/maxAliasedNodes`` at most, over a file).
    public var isRuleFile = true
    /// The anchor the event just handed out carries (files that are not rule files).
    var anchorOfLastEvent: String?
    /// The anchor the event just handed out is an alias of (files that are not rule files); the event itself is
    /// an empty plain scalar standing in its place.
    var aliasOfLastEvent: String?
    /// The nodes anchored so far, by anchor, with what each counts for in ``YAMLReader/maxAliasedNodes`` (its aliases
    /// expanded; ``YAMLReader/size(of:)``).
    var anchored: [String: (node: YAMLNode, size: Int, order: Int)] = [:]
    /// How many anchors have been met so far: an anchor's order, to tell which of two of one name came last.
    var anchorsMet = 0
    /// What aliases have brought in so far, counted as ``YAMLReader/maxAliasedNodes`` counts it.
    var aliasedNodes = 0
    /// Whether an alias has been refused for bringing in too many nodes: said once a file.
    var refusedAnAlias = false
    /// Every `yaml/*` finding so far, in the order met.
    public private(set) var diagnostics: [Diagnostic] = []
    /// Whether a whole root node has been read.
    public internal(set) var hasReadRoot = false
    /// The finding that cut the read short inside the document (a syntax error, a file too large, too deep, not
    /// UTF-8, a bare `*`); nil when the document was read to its end. Every other finding about the file only
    /// repeats it (cli.md r2).
    public private(set) var brokenBy: Diagnostic?
    /// The scalars that hold a `#` or span more than one line (block scalars, long quoted strings): a `#` inside
    /// one is text, not a comment.
    public internal(set) var textScalars: [SourceRange] = []

    let input: UnsafeBufferPointer<UInt8>
    let parser: UnsafeMutablePointer<yaml_parser_t>
    private var parserReady = false
    /// True once the stream ended or reading stopped: ``next()`` returns nil from then on.
    var isDone = false
    /// The item of a list whose keys ran into the item above (a `- ` lost), by where its mapping starts, and the finding
    /// of its first repeated key: the item's other repeats are notes of it, not findings of their own.
    var runTogether: (mapping: SourcePosition, finding: Int, notes: Int)?
    /// The most repeated keys of one such item noted; past it, one note says more follow.
    static let maxRunTogetherNotes = 10
    var documents = 0
    /// The open collections.
    var open = OpenCollections()
    /// Where the last node read ended: the end of a block collection. (libyaml ends one where the next token starts,
    /// lines below its last value when blank lines or comments follow.)
    var lastNodeEnd = SourcePosition(line: 1, column: 1)
    /// The line and byte offset of the line start ``byteOffset(of:)`` found last.
    var lastLineStart = (line: 0, offset: 0)
    /// The line, column and byte offset of the mark ``byteOffset(of:)`` found last, where a later mark on its line
    /// goes on from.
    var lastMark = (line: -1, column: 0, offset: 0)

    /// Reads one file's bytes with a cursor that is valid only inside `body`.
    /// - Parameters:
    ///   - bytes: the file's contents; a file over ``YAMLReader/maxBytes`` or with invalid UTF-8 gets its
    ///     diagnostic and a cursor that has nothing to read.
    ///   - file: the path used in diagnostics.
    ///   - body: reads the document through the cursor.
    /// - Returns: what `body` returns.
    public static func read<Result>(_ bytes: [UInt8], file: String, _ body: (YAMLEventCursor) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { buffer in
            let cursor = YAMLEventCursor(buffer, file: file)
            defer { cursor.close() }
            return body(cursor)
        }
    }

    private init(_ input: UnsafeBufferPointer<UInt8>, file: String) {
        self.input = input
        self.file = file
        parser = .allocate(capacity: 1)
        if input.count > YAMLReader.maxBytes {
            stop(.fileTooLarge(bytes: input.count, limit: YAMLReader.maxBytes, file: file))
        } else if let kind = UTF8Check.binaryKind(input) {
            stop(.binaryFile(kind, file: file))
        } else if UTF8Check.isWideEncoding(input) {
            stop(.syntax("the file is UTF-16 or UTF-32 text, not UTF-8: save it as UTF-8", file: file, at: SourceRange.fileStart.start))
        } else if UTF8Check.hasManyZeroBytes(input) {
            // Zero bytes out of step with UTF-16 and UTF-32: a binary file of a kind with no known signature.
            stop(.binaryFile("binary (many of its first bytes are zero, out of step with any text encoding)", file: file))
        } else if let bad = UTF8Check.firstProblem(in: input) {
            switch bad.problem {
            case .invalid(let problem): stop(.invalidUTF8(problem, file: file, at: bad.at))
            case .hiddenLineBreak(let scalar): stop(.hiddenLineBreak(scalar, file: file, at: bad.at))
            case .tooManyCombiningMarks:
                stop(.syntax("\(StreamSafeText.message): remove the marks", file: file, at: bad.at))
            }
        } else if let at = TagDirectives.firstPastLimit(in: input) {
            stop(.tooManyTagDirectives(limit: TagDirectives.limit, file: file, at: at))
        } else if yaml_parser_initialize(parser) != 1 {
            stop(.syntax("libyaml could not start (out of memory)", file: file, at: SourceRange.fileStart.start))
        } else {
            parserReady = true
            if let base = input.baseAddress, input.count > 0 {
                yaml_parser_set_input_string(parser, base, input.count)
            } else {
                isDone = true
            }
        }
    }

    deinit {
        close()
        parser.deallocate()
    }

    /// Releases libyaml's state; the cursor reads nothing more.
    private func close() {
        isDone = true
        if parserReady {
            yaml_parser_delete(parser)
            parserReady = false
        }
    }

    /// The most findings a file's YAML layer keeps: past it they are counted, not built, so that a file of millions of
    /// aliases or repeated keys costs no message each.
    public static let maxFindings = 1000
    /// Findings past ``maxFindings``, counted (every one an error).
    public private(set) var droppedFindings = 0
    /// Where every alias and every tagged node starts, kept or counted: a schema finding there only repeats it.
    public internal(set) var aliasOrTagPositions = Set<SourcePosition>()

    /// Keeps a finding, or counts it past ``maxFindings``.
    func report(_ diagnostic: @autoclosure () -> Diagnostic) {
        guard diagnostics.count < Self.maxFindings else {
            droppedFindings += 1
            return
        }
        diagnostics.append(diagnostic())
    }

    /// Adds a note to the finding at `index` of ``diagnostics`` (a later repeat of what that finding is about).
    func addNote(_ note: DiagnosticNote, toFindingAt index: Int) {
        guard diagnostics.indices.contains(index) else { return }
        diagnostics[index].notes.append(note)
    }

    /// Stops reading; `breaks` says that the document was cut short (a second document leaves the first whole).
    func stop(_ diagnostic: Diagnostic, breaks: Bool = true) {
        diagnostics.append(diagnostic)
        if breaks, brokenBy == nil { brokenBy = diagnostic }
        isDone = true
    }

    /// The next event of the document, or nil when it is over or reading stopped.
    public func next() -> YAMLEvent? {
        while !isDone {
            var event = yaml_event_t()
            guard yaml_parser_parse(parser, &event) == 1 else {
                stop(parserError())
                return nil
            }
            defer { yaml_event_delete(&event) }
            if let handed = handle(&event) { return handed }
        }
        return nil
    }

    /// Reads to the end of the stream, reporting what is wrong there (a second document, a syntax error).
    /// - Parameter checkingLaterDocuments: after a second document stopped the read, run the parser on to the end of
    ///   the stream (its events dropped) so that a syntax error there is reported too (cli.md: `yaml/syntax` is
    ///   anything libyaml rejects). Rule files do; their loader keeps only that error then (cli.md r2). Nesting past
    ///   ``YAMLReader/maxDepth`` ends the check, as it ends a read: libyaml's time grows with the square of the depth
    ///   (100,000 `[` took 42 s).
    public func finish(checkingLaterDocuments: Bool = false) {
        while next() != nil {}
        guard checkingLaterDocuments, brokenBy == nil, documents > 1 else { return }
        var nesting = 0
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(parser, &event) == 1 else {
                let error = parserError()
                diagnostics.append(error)
                brokenBy = error
                return
            }
            defer { yaml_event_delete(&event) }
            switch event.type {
            case YAML_STREAM_END_EVENT: return
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                nesting += 1
                if nesting > YAMLReader.maxDepth { return }
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT: nesting -= 1
            default: break
            }
        }
    }

    /// How many mappings and sequences are open where the cursor stands.
    public var openCollections: Int { open.depth }

    /// Reads through what is left of the collections open deeper than `level`, so that `level` are open.
    public func skip(toOpenCollections level: Int) {
        while open.depth > level, next() != nil {}
    }

    /// Reads through the value `event` begins: nothing more for a scalar, the rest of it for a collection.
    public func skip(_ event: YAMLEvent) {
        switch event {
        case .mappingStart, .sequenceStart: _ = skipCollection()
        case .scalar, .end: break
        }
    }

    /// Reads through the rest of the collection that `next()` just opened.
    /// - Returns: the position of its end, or nil when reading stopped first.
    public func skipCollection() -> SourcePosition? {
        let target = open.depth - 1
        while let event = next() {
            if case .end(let at) = event, open.depth == target { return at }
        }
        return nil
    }
}
