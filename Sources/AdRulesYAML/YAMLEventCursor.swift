import AdRules
internal import CYAML

/// One step through a YAML document, as ``YAMLEventCursor`` hands it out.
public enum YAMLEvent: Sendable {
    /// A scalar, as a node with its range. An alias stands here as an empty plain scalar: after its diagnostic in a
    /// rule file; elsewhere ``YAMLEventCursor/node(from:)`` puts the node its anchor names in its place.
    case scalar(YAMLNode)
    /// A mapping starts here.
    case mappingStart(SourcePosition)
    /// A sequence starts here.
    case sequenceStart(SourcePosition)
    /// The innermost open mapping or sequence ends just before this position.
    case end(SourcePosition)
}

/// Reads YAML through libyaml's event API one event at a time, so a decoder can build its values as the
/// events arrive and nothing of the document stays behind.
///
/// The cursor applies every rule of the YAML layer itself, whatever the decoder reads or skips: merge keys and tags
/// are reported as they are met, and so are anchors and aliases in a rule file (``isRuleFile``); a key repeated in
/// a mapping is reported (at the second, with a note at the first) and the repeated key and its value are read
/// through and never handed out, so decoders see the first one only; a second document, nesting past ``YAMLReader/maxDepth``
/// and syntax errors stop the read, after which ``next()`` returns nil.
public final class YAMLEventCursor {
    /// An open mapping or sequence: where it started and, for a mapping, which keys it has had.
    private struct Frame {
        var isMapping = false
        /// Written as an indented block, not in brackets: its end is where its last node ends.
        var isBlock = false
        var start = SourcePosition(line: 1, column: 1)
        /// In a mapping: whether the next node is a key.
        var expectsKey = true
        /// The keys so far, with where each was first written: scanned while few, then indexed.
        var keys: [(name: String, at: SourcePosition)] = []
        var keyIndex: [String: SourcePosition] = [:]
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
            keys.removeAll(keepingCapacity: true)
            if !keyIndex.isEmpty { keyIndex.removeAll() }
        }

        /// Records a key; returns where it was first written when it is a repeat.
        mutating func firstPosition(ofRepeated name: String, at position: SourcePosition) -> SourcePosition? {
            keyBefore = lastKey
            lastKey = name
            if keys.count < 16 {
                if let first = keys.first(where: { $0.name == name }) { return first.at }
                keys.append((name, position))
                return nil
            }
            if keyIndex.isEmpty {
                for key in keys where keyIndex[key.name] == nil { keyIndex[key.name] = key.at }
            }
            if let first = keyIndex[name] { return first }
            keyIndex[name] = position
            keys.append((name, position))
            return nil
        }
    }

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
    public private(set) var hasReadRoot = false
    /// The finding that cut the read short inside the document (a syntax error, a file too large, too deep, not
    /// UTF-8, a bare `*`); nil when the document was read to its end. Every other finding about the file only
    /// repeats it (cli.md r2).
    public private(set) var brokenBy: Diagnostic?
    /// The scalars that hold a `#` or span more than one line (block scalars, long quoted strings): a `#` inside
    /// one is text, not a comment.
    public private(set) var textScalars: [SourceRange] = []

    private let input: UnsafeBufferPointer<UInt8>
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private var parserReady = false
    /// True once the stream ended or reading stopped: ``next()`` returns nil from then on.
    private var isDone = false
    private var documents = 0
    /// Frames of the open collections, reused; `depth` of them are open.
    private var frames: [Frame] = []
    /// Where the last node read ended: the end of a block collection. (libyaml ends one where the next token starts,
    /// lines below its last value when blank lines or comments follow.)
    private var lastNodeEnd = SourcePosition(line: 1, column: 1)
    private var depth = 0

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
            case .invalid: stop(.invalidUTF8(file: file, at: bad.at))
            case .hiddenLineBreak(let scalar): stop(.hiddenLineBreak(scalar, file: file, at: bad.at))
            case .tooManyCombiningMarks:
                stop(.syntax("\(StreamSafeText.message): remove the marks", file: file, at: bad.at))
            }
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

    /// Stops reading; `breaks` says that the document was cut short (a second document leaves the first whole).
    private func stop(_ diagnostic: Diagnostic, breaks: Bool = true) {
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
    public var openCollections: Int { depth }

    /// Reads through what is left of the collections open deeper than `level`, so that `level` are open.
    public func skip(toOpenCollections level: Int) {
        while depth > level, next() != nil {}
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
        let target = depth - 1
        while let event = next() {
            if case .end(let at) = event, depth == target { return at }
        }
        return nil
    }

    /// Whether nothing but blanks, comments and `...` document ends follows `offset`: after a `---`, it starts an empty
    /// document (a trailing `---` some editors leave), with nothing to move to a file of its own.
    static func onlyCommentsFollow(_ input: UnsafeBufferPointer<UInt8>, from offset: Int) -> Bool {
        var i = max(0, offset)
        var lineStart = true
        while i < input.count {
            switch input[i] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"): i += 1
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                // A lone CR ends a line as LF does (libyaml counts both).
                i += 1
                lineStart = true
                continue
            case UInt8(ascii: "#"):
                while i < input.count, input[i] != UInt8(ascii: "\n"), input[i] != UInt8(ascii: "\r") { i += 1 }
            case UInt8(ascii: ".") where lineStart && i + 2 < input.count && input[i + 1] == UInt8(ascii: ".") && input[i + 2] == UInt8(ascii: "."):
                i += 3
            default: return false
            }
            lineStart = false
        }
        return true
    }

    /// Turns one event into what a decoder sees, applying the YAML rules; nil for events decoders do not see.
    private func handle(_ event: inout yaml_event_t) -> YAMLEvent? {
        let range = SourceRange(start: position(event.start_mark), end: position(event.end_mark))
        anchorOfLastEvent = nil
        aliasOfLastEvent = nil
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                // Past the `---` (a mark counts characters: found by the cursor's own line walk).
                let isEmpty = Self.onlyCommentsFollow(input, from: byteOffset(of: event.end_mark))
                stop(.multipleDocuments(file: file, at: range.start, isEmpty: isEmpty), breaks: false)
            }
            return nil
        case YAML_STREAM_END_EVENT:
            isDone = true
            return nil
        case YAML_ALIAS_EVENT:
            let name = string(event.data.alias.anchor) ?? ""
            if isRuleFile {
                aliasOrTagPositions.insert(range.start)
                report(.alias(name, file: file, range: range))
            } else {
                aliasOfLastEvent = name
            }
            lastNodeEnd = range.end
            return scalar(YAMLNode(.scalar(YAMLScalar(value: "", style: .plain)), range: range))
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let written = style(data.style)
            if data.anchor != nil || data.tag != nil { checkProperties(anchor: data.anchor, tag: data.tag, range: range, mark: event.start_mark) }
            let value = string(data.value, length: data.length)
            if range.end.line > range.start.line || holdsHash(data.value, length: data.length) { textScalars.append(range) }
            // The file's bytes were checked for stream-safe text before libyaml read them; a double-quoted scalar may
            // also write marks as escapes (`\u0301`), checked here once decoded.
            if written == .doubleQuoted, value.utf8.contains(where: { $0 >= 0x80 }), StreamSafeText.problem(in: value.utf8) != nil {
                // Escapes, or an escaped line break joining two runs, made the run: the finding spans the quoted text.
                var diagnostic = Diagnostic.syntax("\(StreamSafeText.message) once its escapes are read: remove the marks", file: file, at: range.start)
                diagnostic.range = range
                stop(diagnostic)
                return nil
            }
            switch written {
            // A block scalar's end mark runs over the blank lines after it (its own range keeps them: a line of spaces
            // deeper than its indentation is text of its value).
            case .literal, .folded: lastNodeEnd = contentEnd(before: event.end_mark)
            // An empty value stands right after its `-` or `:`; one with neither (`? key` and no value) stands where
            // the next token starts, lines below.
            case .plain where range.start == range.end && !followsIndicator(event.start_mark): break
            default: lastNodeEnd = range.end
            }
            let text = written == .literal || written == .folded ? YAMLScalar.blockValue(value) : value
            var scalar = YAMLScalar(value: text, style: written)
            if written == .plain, text.isEmpty { scalar.isCommentedOut = commentFollows(event.start_mark) }
            return self.scalar(YAMLNode(.scalar(scalar), range: range))
        case YAML_SEQUENCE_START_EVENT:
            checkProperties(anchor: event.data.sequence_start.anchor, tag: event.data.sequence_start.tag, range: range, mark: event.start_mark)
            return open(isMapping: false, isBlock: event.data.sequence_start.style == YAML_BLOCK_SEQUENCE_STYLE, at: range.start)
        case YAML_MAPPING_START_EVENT:
            checkProperties(anchor: event.data.mapping_start.anchor, tag: event.data.mapping_start.tag, range: range, mark: event.start_mark)
            return open(isMapping: true, isBlock: event.data.mapping_start.style == YAML_BLOCK_MAPPING_STYLE, at: range.start)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard depth > 0 else { return nil }
            depth -= 1
            // A block collection ends with its last node; one in brackets after its closing bracket.
            let end = frames[depth].isBlock && lastNodeEnd > frames[depth].start ? lastNodeEnd : range.end
            lastNodeEnd = end
            nodeEnded()
            return .end(end)
        default:
            return nil
        }
    }

    private func open(isMapping: Bool, isBlock: Bool, at start: SourcePosition) -> YAMLEvent? {
        guard depth < YAMLReader.maxDepth else {
            stop(.tooDeep(limit: YAMLReader.maxDepth, file: file, at: start))
            return nil
        }
        // The parent is not told yet: a collection used as a key leaves its mapping expecting a key until it ends.
        if depth == frames.count { frames.append(Frame()) }
        frames[depth].reset(isMapping: isMapping, isBlock: isBlock, start: start)
        depth += 1
        return isMapping ? .mappingStart(start) : .sequenceStart(start)
    }

    /// A scalar in its place: a key of a mapping is checked for `<<` and repeats; a repeated key and its
    /// value are read through here and never handed out.
    private func scalar(_ node: YAMLNode) -> YAMLEvent? {
        guard depth > 0, frames[depth - 1].isMapping, frames[depth - 1].expectsKey, let key = node.scalar else {
            nodeEnded()
            return .scalar(node)
        }
        // An alias used as a key has no text here: ``node(from:)``, which puts the anchored node in its place, checks
        // it for repeats.
        if aliasOfLastEvent != nil {
            nodeEnded()
            return .scalar(node)
        }
        if key.style == .plain, key.value == "<<" {
            report(.mergeKey(inRuleFile: isRuleFile, file: file, range: node.range))
        }
        if let first = frames[depth - 1].firstPosition(ofRepeated: key.value, at: node.range.start) {
            // Not for a key repeated right after its first (`message: x`, `message: y`): that is one item edited twice,
            // unless it is the item's only key (`- event: a` then `event: b`, a scenario's steps).
            let inListItem = depth >= 2 && frames[depth - 1].isBlock && !frames[depth - 2].isMapping && frames[depth - 2].isBlock
                && (frames[depth - 1].keyBefore != key.value || frames[depth - 1].keys.count == 1)
            report(.duplicateKey(key.value, file: file, range: node.range, first: first, inListItem: inListItem))
            frames[depth - 1].expectsKey = false
            skipValue()
            return nil
        }
        nodeEnded()
        return .scalar(node)
    }

    /// Reads through the value of a key that is not handed out.
    private func skipValue() {
        if let event = next() { skip(event) }
    }

    /// A node ended: in a mapping, a key is followed by a value and a value by a key.
    private func nodeEnded() {
        if depth == 0 {
            hasReadRoot = true
        } else if frames[depth - 1].isMapping {
            frames[depth - 1].expectsKey.toggle()
        }
    }

    private func checkProperties(
        anchor: UnsafeMutablePointer<yaml_char_t>?, tag: UnsafeMutablePointer<yaml_char_t>?, range: SourceRange, mark: yaml_mark_t
    ) {
        if let name = string(anchor) {
            if isRuleFile { report(.anchor(name, file: file, range: range)) } else { anchorOfLastEvent = name }
        }
        if var tag = string(tag) {
            aliasOrTagPositions.insert(range.start)
            // A tag's `%` escapes are decoded by libyaml, past the check of the file's bytes: a tag of out-of-order
            // combining marks would make every comparison of its finding slow (620 such tags took 26 s). It is
            // named, not quoted, then; a long one is cut short.
            if tag.utf8.contains(where: { $0 >= 0x80 }), StreamSafeText.problem(in: tag.utf8) != nil {
                tag = "(one holding more than \(StreamSafeText.maxCombiningMarks) combining marks in a row)"
            } else {
                tag = YAMLScalar.shortened(tag)
            }
            let core = "tag:yaml.org,2002:"
            // `when: !premium` is a negation typed as in other languages, which YAML reads as a tag.
            let inCondition = !tag.hasPrefix(core) && keyBefore(byteOffset(of: mark)) == "when"
            report(.tag(tag.hasPrefix(core) ? "!!" + tag.dropFirst(core.count) : tag, inCondition: inCondition, file: file, range: range))
        }
    }

    /// libyaml's error in plain words where a common mistake has better ones.
    private func parserError() -> Diagnostic {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? "unknown problem"
        let context = state.context.map { String(cString: $0) }
        // A reader error (a control character, a bad encoding) has no mark: libyaml gives its byte offset.
        var at = state.error == YAML_READER_ERROR
            ? UTF8Check.position(ofByte: state.problem_offset, in: input) : position(state.problem_mark)
        // libyaml's mark counts characters, not bytes: its line and column lead to the byte.
        let problemByte = byteOffset(of: state.problem_mark)
        // libyaml reads a file that does not end in a line break as if it did: its end-of-file mark is on a line after
        // the last, which no editor shows. The end of the last line is where the file ends.
        if state.error != YAML_READER_ERROR, problemByte >= input.count, let last = input.last, last != 0x0A, last != 0x0D {
            at = UTF8Check.position(ofByte: input.count, in: input)
        }
        let byte = problemByte < input.count ? input[problemByte] : 0
        // The lines of both sides of a git merge: whatever libyaml trips over, the markers are what to fix.
        if state.error != YAML_READER_ERROR, let marker = conflictMarker() {
            return .mergeConflictMarker(String(decoding: input[marker.range], as: UTF8.self), file: file, at: UTF8Check.position(ofByte: marker.range.lowerBound, in: input))
        }
        if byte == 0x09 || problem.contains("tab character") {
            return .tabIndentation(file: file, at: at)
        }
        if state.error != YAML_READER_ERROR, let mark = strayByteOrderMark(before: problemByte) {
            return .strayByteOrderMark(file: file, at: UTF8Check.position(ofByte: mark, in: input))
        }
        // A key libyaml refuses as not lined up (its colon the first of its line) may be the first key after a line indented
        // with no-break spaces and blank lines or comments; other problems are looked for on their line and the one before.
        let (problemLine, problemColumn) = line(at: problemByte)
        let refusesKeyColon = problem == "mapping values are not allowed in this context"
            && problemLine.utf8.firstIndex(of: UInt8(ascii: ":")).map { problemLine.utf8.distance(from: problemLine.utf8.startIndex, to: $0) == problemColumn } == true
        // A comment after the line ends its plain value: libyaml then finds no colon on the next line. ("did not find
        // expected key" is not looked for past blank lines: a no-break space in a block scalar or a quoted value lines
        // above would be blamed for a list item among keys below.)
        let pastBlankLines = refusesKeyColon || problem == "could not find expected ':'"
        if state.error != YAML_READER_ERROR, let space = noBreakSpaceIndentation(before: problemByte, pastBlankLines: pastBlankLines) {
            return .noBreakSpaceIndentation(file: file, at: UTF8Check.position(ofByte: space, in: input))
        }
        if context == "while scanning an alias" || context == "while scanning an anchor" {
            let offset = byteOffset(of: state.context_mark)
            // `"*"` read as `"` closing a quoted value opened lines above (`version: "1`), then a bare `*`: the quote
            // left open is what to fix, not this value.
            if let opened = unclosedQuote(closingAt: offset - 1) {
                return .unclosedQuote(
                    file: file, at: UTF8Check.position(ofByte: opened, in: input), closedAt: UTF8Check.position(ofByte: offset - 1, in: input))
            }
            // `placements:` indented is a group's list of members; at the top it is the map of placements.
            let indented = line(at: offset).text.first == " "
            return .bareAsterisk(key: keyBefore(offset), indented: indented, file: file, at: position(state.context_mark))
        }
        var advice: String?
        if context == "while scanning a simple key", problem == "could not find expected ':'" {
            // libyaml notices only on the next line (or past blank lines and comments); the key it was reading starts
            // at the context mark, and that is the line to fix.
            advice = Self.spaceAfterColonAdvice(line(at: byteOffset(of: state.context_mark)).text)
            at = position(state.context_mark)
        } else if problem == "mapping values are not allowed in this context" {
            // `version:1` then `placements:`: the first line is one plain value that runs on into the second, whose own
            // key colon (the first on its line) libyaml then refuses. The colon with no space after it is what to fix.
            let indentation = problemLine.utf8.prefix { $0 == 0x20 }.count
            if refusesKeyColon, let glued = previousContentLine(before: problemByte), Self.isKeyGluedToValue(glued.text),
                glued.text.utf8.prefix(while: { $0 == 0x20 }).count <= indentation
            {
                // A byte-order mark opening the file is no part of the key (libyaml skips it, and so do columns).
                advice = Self.spaceAfterColonAdvice(Substring(glued.text.replacingOccurrences(of: "\u{FEFF}", with: "")))
                at = UTF8Check.position(ofByte: glued.start + Self.keyStart(glued.text), in: input)
            } else {
                advice = Self.mappingValueAdvice(problemLine, colonAt: problemColumn)
            }
        } else if problem == "did not find expected <document start>", let first = indentedFirstKey() {
            // `  version: 1` then `placements:`: the file's first key is indented, so a key in the first column ends
            // the document it started.
            advice = "the first key of the file is indented, and a key at the top of a file starts in the first column: "
                + "remove the spaces before \(Self.shortened(first.key))"
            at = UTF8Check.position(ofByte: first.offset, in: input)
        } else if problem == "did not find expected key" || problem == "did not find expected '-' indicator", let closer = strayAfterClosingBracket(at: problemByte) {
            advice = closer
        } else if problem == "did not find expected key" || problem == "did not find expected ',' or '}'" || problem == "did not find expected ',' or ']'" {
            advice = Self.quotedValueAdvice(line(at: problemByte).text)
        } else if problem == "found character that cannot start any token" {
            let (text, column) = line(at: problemByte)
            let before = String(decoding: Array(text.utf8.prefix(column)), as: UTF8.self).trimmingCharacters(in: .whitespaces)
                .replacingOccurrences(of: "\u{FEFF}", with: "")
            // A byte-order mark at the file's start is no part of what is quoted.
            let rest = Substring(String(decoding: Array(text.utf8.dropFirst(column)), as: UTF8.self)).drop { $0 == "\u{FEFF}" }
            // What the character starts: a list item (`- @a`), a key (`@a: …` at the start of its line), or the value
            // of the key before it, on its line or ending the line above.
            let inBrackets = state.flow_level > 0
            let written: ReservedStart? = if before.isEmpty || before == "-", let key = Self.keyStarting(rest, inBrackets: inBrackets) {
                .key(key)
            } else if before == "-" {
                .listItem
            } else {
                keyBefore(problemByte).map { .value(of: $0) }
            }
            if let written { advice = Self.reservedCharacterAdvice(written, rest: rest, inBrackets: inBrackets) }
        }
        var diagnostic = Diagnostic.libyamlProblem(problem: problem, context: context, advice: advice, file: file, at: at)
        // libyaml's position is where it gave up, often the end of the file: a note points at where the unclosed
        // value or bracket opens, which is what to fix.
        let opened: String? = switch context {
        case "while scanning a quoted scalar": "the quoted value starts here"
        case "while parsing a flow mapping": "the { } mapping starts here"
        case "while parsing a flow sequence": "the [ ] list starts here"
        default: nil
        }
        let start = position(state.context_mark)
        if let opened, start != at {
            diagnostic.notes.append(DiagnosticNote(message: opened, file: file, position: start))
        }
        return diagnostic
    }

    /// What to write when the problem is a `,`, `}` or `]` just after a `{ }` or `[ ]` that closed on its line (`- {…},`
    /// or `{…}}`, JSON's habits in a block list or mapping), else nil.
    private func strayAfterClosingBracket(at offset: Int) -> String? {
        guard offset < input.count, let stray = [UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].first(where: { $0 == input[offset] }) else {
            return nil
        }
        var before = offset - 1
        while before >= 0, input[before] == 0x20 { before -= 1 }
        guard before >= 0, input[before] == UInt8(ascii: "}") || input[before] == UInt8(ascii: "]") else { return nil }
        let closed = input[before] == UInt8(ascii: "}") ? "{ } mapping" : "[ ] list"
        let character = String(UnicodeScalar(stray))
        guard stray == UInt8(ascii: ",") else { return "remove this \(character): the \(closed) before it is already closed" }
        // A comma that ends its line is JSON's habit; one with another item after it puts two items on a line.
        var after = offset + 1
        while after < input.count, input[after] == 0x20 { after += 1 }
        let endsLine = after >= input.count || input[after] == 0x0A || input[after] == 0x0D || input[after] == UInt8(ascii: "#")
        return endsLine
            ? "remove this , after the \(closed): items on lines of their own take no comma"
            : "in a block each item stands on its own line, with no comma: put what follows this , on a line of its own"
    }

    /// A byte-order mark (U+FEFF) that starts the line of a problem at `offset` or the line before it (after spaces, or
    /// after the one a file may start with): invisible, it is where libyaml went wrong (a key that seems lined up, a
    /// document that seems to start), and its offset is where to look. One in a comment or a quoted value is text.
    private func strayByteOrderMark(before offset: Int) -> Int? {
        lineStart(holding: isByteOrderMark, before: offset)
    }

    /// A no-break space (U+00A0, pasted from a document) in the indentation of the line of a problem at `offset` or the
    /// line before it: YAML reads it as text, not indentation, so the line's key is not where it looks.
    private func noBreakSpaceIndentation(before offset: Int, pastBlankLines: Bool) -> Int? {
        lineStart(holding: { self.isNoBreakSpaceIndentingAKey(at: $0) }, before: offset, pastBlankLines: pastBlankLines)
    }

    /// Whether no-break spaces (and spaces) at `i` lead to a key (`word:`) or a list item (`- `) on their line: text that
    /// only starts with one (a line of a block or quoted value) is not indentation.
    private func isNoBreakSpaceIndentingAKey(at i: Int) -> Bool {
        guard i + 1 < input.count, input[i] == 0xC2, input[i + 1] == 0xA0 else { return false }
        var j = i
        while j + 1 < input.count, input[j] == 0x20 || (input[j] == 0xC2 && input[j + 1] == 0xA0) { j += input[j] == 0x20 ? 1 : 2 }
        func isWordByte(_ b: UInt8) -> Bool { (0x61...0x7A).contains(b) || (0x41...0x5A).contains(b) || (0x30...0x39).contains(b) || b == 0x5F }
        if j + 1 < input.count, input[j] == UInt8(ascii: "-"), input[j + 1] == 0x20 { return true }
        var k = j
        while k < input.count, isWordByte(input[k]) { k += 1 }
        guard k > j, k < input.count, input[k] == UInt8(ascii: ":") else { return false }
        return k + 1 >= input.count || [0x20, 0x0A, 0x0D].contains(input[k + 1])
    }

    private func isByteOrderMark(_ i: Int) -> Bool {
        i + 2 < input.count && input[i] == 0xEF && input[i + 1] == 0xBB && input[i + 2] == 0xBF
    }

    /// Where `isMark` holds at the start of the line of `offset` or of the line before it, past the line's spaces; with
    /// `pastBlankLines`, the line before that holds something (blank lines and comments between them passed over: a key
    /// libyaml refuses as not lined up is the first that holds something after the line to blame).
    private func lineStart(holding isMark: (Int) -> Bool, before offset: Int, pastBlankLines: Bool = false) -> Int? {
        let end = min(max(offset, 0), input.count)
        var start = end
        while start > 0, input[start - 1] != 0x0A, input[start - 1] != 0x0D { start -= 1 }
        if pastBlankLines, let previous = previousContentLine(before: end) {
            start = previous.start
        } else if start > 0 {
            start = lineBefore(start).start
        }
        var lineEnd = end
        while lineEnd < input.count, input[lineEnd] != 0x0A, input[lineEnd] != 0x0D { lineEnd += 1 }
        var i = start
        while i < lineEnd {
            // The start of each line in the range, past its spaces (and past the mark the file may start with).
            if i == 0, isByteOrderMark(0) { i = 3 }
            while i < lineEnd, input[i] == 0x20 { i += 1 }
            if i < lineEnd, isMark(i) { return i }
            while i < lineEnd, input[i] != 0x0A, input[i] != 0x0D { i += 1 }
            while i < lineEnd, input[i] == 0x0A || input[i] == 0x0D { i += 1 }
        }
        return nil
    }

    /// The line before the line of `offset` that holds more than spaces and a comment, and where it starts; nil when
    /// none does.
    private func previousContentLine(before offset: Int) -> (text: Substring, start: Int)? {
        var lineStart = min(max(offset, 0), input.count)
        while lineStart > 0, input[lineStart - 1] != 0x0A, input[lineStart - 1] != 0x0D { lineStart -= 1 }
        while lineStart > 0 {
            let (start, end) = lineBefore(lineStart)
            var i = start
            while i < end, input[i] == 0x20 { i += 1 }
            if i < end, input[i] != UInt8(ascii: "#") { return (Substring(String(decoding: input[start..<end], as: UTF8.self)), start) }
            lineStart = start
        }
        return nil
    }

    /// The line before the one starting at `lineStart` (> 0): where it starts, and where it ends, at its line break (a
    /// CR LF pair is one).
    private func lineBefore(_ lineStart: Int) -> (start: Int, end: Int) {
        var end = lineStart - 1
        if input[end] == 0x0A, end > 0, input[end - 1] == 0x0D { end -= 1 }
        var start = end
        while start > 0, input[start - 1] != 0x0A, input[start - 1] != 0x0D { start -= 1 }
        return (start, end)
    }

    /// Where the key of a line starts, in bytes: past its indentation, a list item's `- ` and a byte-order mark.
    static func keyStart(_ line: Substring) -> Int {
        line.utf8.count - line.drop { $0 == " " || $0 == "-" || $0 == "\u{FEFF}" }.utf8.count
    }

    /// Whether a line is a key glued to its value (`version:1`, `- format:banner`), with no `: ` anywhere on it.
    static func isKeyGluedToValue(_ line: Substring) -> Bool {
        let text = line.drop { $0 == " " || $0 == "-" || $0 == "\u{FEFF}" }
        guard !text.contains(": "), let colon = text.firstIndex(of: ":"), colon > text.startIndex else { return false }
        let key = text[..<colon]
        let value = text[text.index(after: colon)...]
        guard let first = key.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        // A word before the colon and a value after it (not a URL's `//`, not a time's digits on both sides).
        return key.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
            && !value.isEmpty && !value.hasPrefix("/") && !value.hasPrefix(" ")
    }

    /// The file's first key when it is indented (the first line that holds more than spaces and a comment starts with a
    /// space) and a later line starts in the first column; its text and the offset of its first character.
    private func indentedFirstKey() -> (key: Substring, offset: Int)? {
        var i = isByteOrderMark(0) ? 3 : 0
        var first: (key: Substring, offset: Int)?
        while i < input.count {
            var lineEnd = i
            while lineEnd < input.count, input[lineEnd] != 0x0A, input[lineEnd] != 0x0D { lineEnd += 1 }
            var j = i
            while j < lineEnd, input[j] == 0x20 { j += 1 }
            // The first line that holds something is an indented key; the first line after it in the first column is a
            // key too (a `...`, a list item or a bracket there is another mistake, which this advice would not fix).
            if j < lineEnd, input[j] != UInt8(ascii: "#"), first == nil || j == i {
                let key = Self.plainKey(Substring(String(decoding: input[j..<lineEnd], as: UTF8.self)))
                if let first { return key == nil ? nil : first }
                guard let key, j > i else { return nil }
                first = (key, j)
            }
            i = lineEnd
            while i < input.count, input[i] == 0x0A || input[i] == 0x0D { i += 1 }
        }
        return nil
    }

    /// The key of a line that starts with a key (`word:`, `"word":` or `'word':`, then a space, a tab or the line's
    /// end), else nil.
    static func plainKey(_ line: Substring) -> Substring? {
        let quote = line.first == "\"" || line.first == "'" ? line.first : nil
        let body = quote == nil ? line : line.dropFirst()
        let key = body.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        guard let first = key.first, first.isLetter || first == "_" else { return nil }
        var rest = body.dropFirst(key.count)
        if let quote {
            guard rest.first == quote else { return nil }
            rest = rest.dropFirst()
        }
        guard rest.first == ":", rest.count == 1 || rest.dropFirst().first == " " || rest.dropFirst().first == "\t" else { return nil }
        return key
    }

    /// The opening line of a git merge conflict (`<<<<<<< HEAD`, then `=======` and `>>>>>>> branch`, each seven
    /// characters at the start of a line): its text, up to the line's end.
    /// A conflict is told only when the file holds both its opening `<<<<<<<` and its closing `>>>>>>>` line: a
    /// `=======` alone may be a line of text in a quoted value.
    private func conflictMarker() -> (range: Range<Int>, text: String)? {
        var opening: Range<Int>?
        var i = isByteOrderMark(0) ? 3 : 0
        while i < input.count {
            var lineEnd = i
            while lineEnd < input.count, input[lineEnd] != 0x0A, input[lineEnd] != 0x0D { lineEnd += 1 }
            if lineEnd - i >= 7, input[i] == UInt8(ascii: "<") || input[i] == UInt8(ascii: ">"), (i..<i + 7).allSatisfy({ input[$0] == input[i] }),
                i + 7 == lineEnd || input[i + 7] == 0x20
            {
                if input[i] == UInt8(ascii: "<"), opening == nil { opening = i..<lineEnd }
                if input[i] == UInt8(ascii: ">"), let opening { return (opening, String(decoding: input[opening], as: UTF8.self)) }
            }
            i = lineEnd
            while i < input.count, input[i] == 0x0A || input[i] == 0x0D { i += 1 }
        }
        return nil
    }

    /// Where the quoted value that a quote at `closing` ends was opened, when that is on an earlier line: a quote left
    /// open there ran on to this one. Read back from `closing` for the same quote (a `\"` in double quotes, and `''` in
    /// single ones, are escapes, not ends); nil when the quote at `closing` opened on its own line.
    private func unclosedQuote(closingAt closing: Int) -> Int? {
        guard closing >= 0, closing < input.count, input[closing] == UInt8(ascii: "\"") || input[closing] == UInt8(ascii: "'") else { return nil }
        let quote = input[closing]
        var i = closing - 1
        var lineBreaks = 0
        while i >= 0 {
            if input[i] == 0x0A || input[i] == 0x0D { lineBreaks += 1 }
            if input[i] == quote {
                if quote == UInt8(ascii: "'"), i > 0, input[i - 1] == quote {
                    i -= 2
                    continue
                }
                if quote == UInt8(ascii: "\""), i > 0, input[i - 1] == UInt8(ascii: "\\") {
                    i -= 2
                    continue
                }
                return lineBreaks > 0 ? i : nil
            }
            i -= 1
        }
        return nil
    }

    /// The line and byte offset of the line start ``byteOffset(of:)`` found last.
    private var lastLineStart = (line: 0, offset: 0)

    /// Whether the character before `mark` is a `-` or `:`, the indicator an empty value stands right after.
    private func followsIndicator(_ mark: yaml_mark_t) -> Bool {
        let i = byteOffset(of: mark)
        return i > 0 && i <= input.count && (input[i - 1] == UInt8(ascii: "-") || input[i - 1] == UInt8(ascii: ":"))
    }

    /// Where the text before `mark` ends: at the end of the last line before it that holds more than spaces and tabs
    /// (the blank lines a block scalar's end mark runs over are left out).
    private func contentEnd(before mark: yaml_mark_t) -> SourcePosition {
        let end = byteOffset(of: mark)
        var i = end
        var crossedLine = false
        while i > 0, [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(input[i - 1]) {
            if input[i - 1] == UInt8(ascii: "\n") || input[i - 1] == UInt8(ascii: "\r") { crossedLine = true }
            i -= 1
        }
        guard crossedLine else { return SourcePosition(line: Int(mark.line) + 1, column: Int(mark.column) + 1) }
        // The last line with text ends with its spaces and tabs, which a block scalar holds.
        while i < end, input[i] == UInt8(ascii: " ") || input[i] == UInt8(ascii: "\t") { i += 1 }
        // On an earlier line: its number from the breaks before `i`, its column from the characters since its start
        // (as libyaml counts them: a CR LF is one break, and a byte order mark is no column).
        var lineStart = i
        while lineStart > 0, input[lineStart - 1] != UInt8(ascii: "\n"), input[lineStart - 1] != UInt8(ascii: "\r") { lineStart -= 1 }
        var breaks = 0
        var k = end
        while k > lineStart {
            k -= 1
            if input[k] == UInt8(ascii: "\n") || (input[k] == UInt8(ascii: "\r") && (k + 1 >= input.count || input[k + 1] != UInt8(ascii: "\n"))) {
                breaks += 1
            }
        }
        if lineStart == 0, input.starts(with: [0xEF, 0xBB, 0xBF]) { lineStart = 3 }
        let column = input[lineStart..<max(lineStart, i)].count { $0 & 0xC0 != 0x80 } + 1
        return SourcePosition(line: Int(mark.line) + 1 - breaks, column: column)
    }

    /// The byte a libyaml mark points at: its line (counted as libyaml breaks lines) and its column (in characters).
    private func byteOffset(of mark: yaml_mark_t) -> Int {
        // Marks come in file order: the line start found last is where the next search begins, so a file of many
        // tags is read once, not once a tag (20,000 `when: !premium` in a 949 KB file ran for minutes).
        var (line, i) = Int(mark.line) >= lastLineStart.line ? lastLineStart : (0, 0)
        while line < Int(mark.line), i < input.count {
            let length = LineBreak.length(at: i, in: input)
            if length > 0 {
                line += 1
                i += length
            } else {
                i += 1
            }
        }
        if line == Int(mark.line) { lastLineStart = (line, i) }
        var column = 0
        while column < Int(mark.column), i < input.count, LineBreak.length(at: i, in: input) == 0 {
            i += 1
            while i < input.count, input[i] & 0xC0 == 0x80 { i += 1 }
            column += 1
        }
        return i
    }

    /// The text of the line holding the byte at `offset`, without its line break, and the offset's byte in it.
    private func line(at offset: Int) -> (text: Substring, byte: Int) {
        guard offset >= 0, offset <= input.count else { return ("", 0) }
        // The line starts after the last break before the offset, found going back from it (going forward from the
        // file's start made a file of 20,000 `when: !premium` take minutes). A file that reaches libyaml breaks lines
        // with LF and CR only: NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR are refused before it is read (UTF8Check).
        var start = offset
        while start > 0, input[start - 1] != 0x0A, input[start - 1] != 0x0D { start -= 1 }
        var end = offset
        while end < input.count, LineBreak.length(at: end, in: input) == 0 { end += 1 }
        return (Substring(String(decoding: input[start..<end], as: UTF8.self)), offset - start)
    }

    /// Whether the rest of the line from `mark` is a comment (`name: #1 test`: libyaml gives an empty value there).
    private func commentFollows(_ mark: yaml_mark_t) -> Bool {
        var i = byteOffset(of: mark)
        while i < input.count, input[i] == 0x20 || input[i] == 0x09 { i += 1 }
        return i < input.count && input[i] == UInt8(ascii: "#")
    }

    /// The key whose value starts at `offset`, read back on its line (`deny` in `{id: r, deny: *}`): what the value was
    /// meant to be; nil when the value is no key's.
    private func keyBefore(_ offset: Int) -> String? {
        let (text, column) = line(at: offset)
        var before = String(decoding: Array(text.utf8.prefix(column)), as: UTF8.self).trimmingCharacters(in: .whitespaces)
        // A value alone on its line (or a list item, `- *`) belongs to the key that ends the line above.
        if before.isEmpty || before == "-", offset - column > 0 {
            before = String(line(at: offset - column - 1).text).trimmingCharacters(in: .whitespaces)
        }
        guard before.hasSuffix(":") else { return nil }
        let key = String(before.dropLast().reversed().prefix { !" \t{,-".contains($0) }.reversed())
        // A quoted key (`"deny": *`) is the key it quotes.
        let unquoted = key.count >= 2 && (key.first == "\"" || key.first == "'") && key.last == key.first ? String(key.dropFirst().dropLast()) : key
        return unquoted.isEmpty ? nil : unquoted
    }

    /// A key of more than 1024 characters is not a key to libyaml (YAML's limit on an implicit key): its colon then
    /// reads as misplaced, whatever the indentation.
    static func longKeyAdvice(_ line: Substring) -> String? {
        let text = line.drop { $0 == " " || $0 == "-" || $0 == "{" }
        guard let colon = text.firstIndex(of: ":"), text.distance(from: text.startIndex, to: colon) > 1024 else { return nil }
        return "a key longer than 1024 characters is not read as a key in YAML: shorten it (an id holds 1-64 characters)"
    }

    /// `daily_cap:6` (no space after the colon) reads as one plain word, and libyaml stops at the next line.
    static func spaceAfterColonAdvice(_ line: Substring) -> String {
        if let advice = longKeyAdvice(line) { return advice }
        let text = line.drop { $0 == " " || $0 == "-" }
        if let colon = text.firstIndex(of: ":"), colon > text.startIndex, text.index(after: colon) < text.endIndex,
            text[text.index(after: colon)] != " "
        {
            let key = text[..<colon]
            let value = text[text.index(after: colon)...]
            // A space that is no space to YAML (a non-breaking space, as word processors and chat apps type it) is named:
            // the line looks right, and advice that copied it would look right and fail again.
            if let first = value.unicodeScalars.first, first.properties.isWhitespace, !first.isASCII {
                let hex = String(first.value, radix: 16, uppercase: true)
                let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                let rest = value.unicodeScalars.drop { $0.properties.isWhitespace }
                return "the space after the colon of \(Self.shortened(key)) is a \(code) space, which YAML does not take for one: "
                    + "retype it as an ordinary space, as in \(Self.shortened(key)): \(Self.shortened(Substring(String(String.UnicodeScalarView(rest)))))"
            }
            return "a key needs a space after its colon: write \(Self.shortened(key)): \(Self.shortened(value))"
        }
        return "a key needs a colon and a space before its value, as in daily_cap: 6"
    }

    /// `message: Note: no ads` holds ": " in a plain value, which YAML reads as a second key; a key's own colon
    /// there (`colonAt` is the line's first `:`) means the key is not lined up with those beside it.
    static func mappingValueAdvice(_ line: Substring, colonAt byte: Int) -> String {
        if let advice = longKeyAdvice(line) { return advice }
        if let first = line.utf8.firstIndex(of: UInt8(ascii: ":")), line.utf8.distance(from: line.utf8.startIndex, to: first) == byte {
            return "this key is not lined up with the keys beside it: indent it as they are, or under the key it belongs to"
        }
        let text = line.drop { $0 == " " || $0 == "-" }
        if let separator = text.range(of: ": ") {
            let key = text[..<separator.lowerBound]
            var value = Substring(text[separator.upperBound...])
            // A comment after the value stays a comment: only the value goes in quotes.
            value = Self.beforeComment(value)
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            // `grace: first_sessions: 2`: a setting written on its block's line, meant nested rather than as text.
            if !key.isEmpty, let inner = trimmed.range(of: ": "), case let (name, setting) = (trimmed[..<inner.lowerBound], trimmed[inner.upperBound...]),
                let first = name.unicodeScalars.first, ("a"..."z").contains(first),
                name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }),
                !setting.isEmpty, !setting.contains(" "), !setting.contains(":")
            {
                return "a key's value cannot hold another key on the same line: write \(Self.shortened(key)): {\(name): \(setting)}, "
                    + "or \(name): \(setting) on the next line, indented under \(Self.shortened(key)):"
            }
            if !key.isEmpty, !trimmed.isEmpty, !trimmed.contains("\""), !trimmed.hasPrefix("'") {
                // In double quotes a backslash starts an escape: a value holding one goes in single quotes (a single
                // quote in it written twice).
                let quoted = trimmed.contains("\\")
                    ? "'\(Self.shortened(Substring(trimmed.replacingOccurrences(of: "'", with: "''"))))'"
                    : "\"\(Self.shortened(Substring(trimmed)))\""
                return "a value that holds \": \" must be quoted: write \(Self.shortened(key)): \(quoted)"
            }
        }
        return "a value that holds \": \" must be quoted, or the key indented under the one it belongs to"
    }

    /// `when: "a" in tags`: a value that starts with a quote ends at the closing quote, and what follows it is not YAML.
    static func quotedValueAdvice(_ line: Substring) -> String? {
        let text = line.drop { $0 == " " || $0 == "-" || $0 == "{" }
        guard let separator = text.range(of: ": ") else { return nil }
        let key = text[..<separator.lowerBound]
        let value = text[separator.upperBound...].trimmingCharacters(in: .whitespaces)
        guard let quote = value.first, quote == "\"" || quote == "'",
            let close = value.dropFirst().firstIndex(of: quote), value.index(after: close) < value.endIndex
        else { return nil }
        let other: Character = quote == "\"" ? "'" : "\""
        guard !value.contains(other) else { return "a quoted value ends at its closing quote: quote the whole value" }
        return "a quoted value ends at its closing quote: quote the whole value, as in \(Self.shortened(key)): \(other)\(Self.shortened(Substring(value)))\(other)"
    }

    /// `name: @home screen`: a plain value cannot start with `@` or a backquote (YAML reserves them), nor with `%`, nor
    /// hold `|` or `>` first inside brackets. The advice quotes the value as written, under the key it was written for
    /// (`value` runs from the character libyaml refused to the end of the line).
    static func reservedCharacterAdvice(_ written: ReservedStart, rest: Substring, inBrackets: Bool) -> String {
        let start = Diagnostic.reservedCharacter
        // A comment after the value stays a comment; in brackets the value ends at the next , ] or }; a key ends at its
        // colon.
        var value = Self.beforeComment(rest)
        if inBrackets, let end = value.firstIndex(where: { $0 == "," || $0 == "]" || $0 == "}" }) { value = value[..<end] }
        if case .key(let key) = written { value = Substring(key) }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.contains("\\"), !trimmed.contains("\"") else { return start + ": quote it" }
        let quoted = "\"\(Self.shortened(Substring(trimmed)))\""
        switch written {
        case .listItem: return start + ": quote the item, as in - \(quoted)"
        case .key: return start + ": quote the key, as in \(quoted):"
        case .value(let key): return start + ": quote the value, as in \(Self.shortened(Substring(key))): \(quoted)"
        }
    }

    /// What a character YAML reserves starts, for the advice to quote it.
    enum ReservedStart {
        case listItem
        case key(String)
        case value(of: String)
    }

    /// The key a line's text starts with (`@a: {format: x}` → `@a`), when it is one: text up to a colon that ends the
    /// text or is followed by a space or a tab, before any comment (a `#` after a space or a tab); in brackets a key
    /// also ends at a comma.
    static func keyStarting(_ text: Substring, inBrackets: Bool) -> String? {
        let text = beforeComment(text)
        for i in text.indices {
            let c = text[i]
            if inBrackets, c == "," || c == "{" || c == "[" { return nil }
            if c == ":" {
                let next = text.index(after: i)
                if next == text.endIndex || text[next] == " " || text[next] == "\t" {
                    let key = String(text[..<i]).trimmingCharacters(in: .whitespaces)
                    return key.isEmpty ? nil : key
                }
            }
        }
        return nil
    }

    /// A line's text up to its comment: a `#` after a space or a tab (a `#` inside a word is text).
    static func beforeComment(_ text: Substring) -> Substring {
        var previous: Character = "x"
        for i in text.indices {
            if text[i] == "#", previous == " " || previous == "\t" { return text[..<i] }
            previous = text[i]
        }
        return text
    }

    /// A value cut to a readable length for a message.
    static func shortened(_ text: Substring) -> String {
        text.count > 60 ? String(text.prefix(60)) + "…" : String(text)
    }
}

private func position(_ mark: yaml_mark_t) -> SourcePosition {
    SourcePosition(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
}

private func style(_ style: yaml_scalar_style_t) -> ScalarStyle {
    switch style {
    case YAML_SINGLE_QUOTED_SCALAR_STYLE: return .singleQuoted
    case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return .doubleQuoted
    case YAML_LITERAL_SCALAR_STYLE: return .literal
    case YAML_FOLDED_SCALAR_STYLE: return .folded
    default: return .plain
    }
}

private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?, length: Int) -> String {
    guard let pointer else { return "" }
    return String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self)
}

/// Whether libyaml's bytes of a scalar hold a `#` (read in libyaml's buffer, not through the decoded string).
private func holdsHash(_ pointer: UnsafeMutablePointer<yaml_char_t>?, length: Int) -> Bool {
    guard let pointer else { return false }
    return UnsafeBufferPointer(start: pointer, count: length).contains(UInt8(ascii: "#"))
}

private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    guard let pointer else { return nil }
    return String(cString: pointer)
}
