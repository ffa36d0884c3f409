import AdRules
internal import CYAML

/// libyaml's events turned into what a decoder sees, with the rules of the YAML layer applied as they pass.
extension YAMLEventCursor {
    /// Turns one event into what a decoder sees, applying the YAML rules; nil for events decoders do not see.
    func handle(_ event: inout yaml_event_t) -> YAMLEvent? {
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
            return scalar(YAMLScalar(value: "", style: .plain), range: range)
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let written = style(data.style)
            if data.anchor != nil || data.tag != nil { checkProperties(anchor: data.anchor, tag: data.tag, range: range, mark: event.start_mark) }
            let value = string(data.value, length: data.length)
            if range.end.line > range.start.line || bytes(data.value, length: data.length).contains(UInt8(ascii: "#")) { textScalars.append(range) }
            // The file's bytes were checked for stream-safe text before libyaml read them; a double-quoted scalar may
            // also write marks as escapes (`\u0301`), checked here once decoded.
            if written == .doubleQuoted, bytes(data.value, length: data.length).contains(where: { $0 >= 0x80 }), StreamSafeText.problem(in: value.utf8) != nil {
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
            return self.scalar(scalar, range: range)
        case YAML_SEQUENCE_START_EVENT:
            checkProperties(anchor: event.data.sequence_start.anchor, tag: event.data.sequence_start.tag, range: range, mark: event.start_mark)
            return open(isMapping: false, isBlock: event.data.sequence_start.style == YAML_BLOCK_SEQUENCE_STYLE, at: range.start)
        case YAML_MAPPING_START_EVENT:
            checkProperties(anchor: event.data.mapping_start.anchor, tag: event.data.mapping_start.tag, range: range, mark: event.start_mark)
            return open(isMapping: true, isBlock: event.data.mapping_start.style == YAML_BLOCK_MAPPING_STYLE, at: range.start)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let closed = open.close() else { return nil }
            // A block collection ends with its last node; one in brackets after its closing bracket.
            let end = closed.isBlock && lastNodeEnd > closed.start ? lastNodeEnd : range.end
            lastNodeEnd = end
            if closed.endsRoot { hasReadRoot = true }
            return .end(end)
        default:
            return nil
        }
    }

    private func open(isMapping: Bool, isBlock: Bool, at start: SourcePosition) -> YAMLEvent? {
        guard open.depth < YAMLReader.maxDepth else {
            stop(.tooDeep(limit: YAMLReader.maxDepth, file: file, at: start))
            return nil
        }
        open.open(isMapping: isMapping, isBlock: isBlock, at: start)
        return isMapping ? .mappingStart(start) : .sequenceStart(start)
    }

    /// A scalar in its place: a key of a mapping is checked for `<<` and repeats; a repeated key and its
    /// value are read through here and never handed out. (The scalar is taken as consumed, and made a node only for the
    /// event handed out: a node made first, then read for its scalar, was copied whole, about 75 instructions a scalar.)
    private func scalar(_ key: consuming YAMLScalar, range: SourceRange) -> YAMLEvent? {
        // An alias used as a key has no text here: ``node(from:)``, which puts the anchored node in its place, checks
        // it for repeats.
        let read = open.read(scalar: aliasOfLastEvent == nil ? key.value : nil, at: range.start)
        switch read {
        case .node(let endsRoot):
            if endsRoot { hasReadRoot = true }
            return .scalar(YAMLNode(.scalar(key), range: range))
        case .key, .repeatedKey:
            if key.style == .plain, key.value == "<<" {
                report(.mergeKey(inRuleFile: isRuleFile, file: file, range: range))
            }
        }
        if case .repeatedKey(let first, let firstWritten) = read, let frame = open.frame() {
            // Not for a key repeated right after its first (`message: x`, `message: y`): that is one item edited twice,
            // unless it is the item's only key (`- event: a` then `event: b`, a scenario's steps).
            let outer = open.frame(outward: 1)
            let inListItem = outer.map { frame.isBlock && !$0.isMapping && $0.isBlock } == true
                && (frame.keyBefore != key.value || frame.keys.count == 1)
            // A block or list repeated (`grace:`, `caps:` twice) holds settings to keep: its advice says to merge the
            // two, unless the key is an entry's id (a placement defined twice), which is one of two things.
            let value = next()
            var repeatsBlock = false
            switch value {
            case .mappingStart?, .sequenceStart?: repeatsBlock = true
            default: break
            }
            if let value { skip(value) }
            // Read after the value, as where the cursor stands then (a value cut short by an error leaves it deeper).
            let parent = open.frame(outward: 1).flatMap { $0.isMapping ? $0.lastKey : nil }
            let isBlock = open.frame()?.isBlock == true
            // In an item of a list, a repeated block (a test's `context:`) is merged, a repeated list (a rule's `deny:`) kept once.
            var repeatsMapping = false
            if case .mappingStart? = value { repeatsMapping = true }
            let repeated: DuplicateKeyKind = inListItem ? .inListItem(repeatsBlock: repeatsMapping)
                : parent.map(Diagnostic.holdsIDs) == true ? .entryID
                : repeatsBlock ? (isBlock ? .blockOnItsLines : .blockInBraces)
                : .value
            guard case .inListItem = repeated else {
                report(.duplicateKey(key.value, file: file, range: range, first: first, kind: repeated, firstWritten: firstWritten))
                return nil
            }
            // Two items run together repeat each key the two share: one finding, its other repeats noted.
            // (At most a few: an item of 200,000 repeated keys is one finding, not one of 200,000 notes.)
            if let earlier = runTogether, earlier.mapping == frame.start {
                if earlier.notes <= Self.maxRunTogetherNotes {
                    let message = earlier.notes < Self.maxRunTogetherNotes ? "\"\(YAMLScalar.shortened(key.value))\" is repeated here too" : "more keys are repeated from here on"
                    addNote(DiagnosticNote(message: message, file: file, position: range.start), toFindingAt: earlier.finding)
                    runTogether?.notes += 1
                }
                return nil
            }
            let kept = diagnostics.count
            report(.duplicateKey(key.value, file: file, range: range, first: first, kind: repeated, firstWritten: firstWritten))
            if diagnostics.count > kept { runTogether = (frame.start, kept, 0) }
            return nil
        }
        return .scalar(YAMLNode(.scalar(key), range: range))
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

/// libyaml's bytes of a scalar, valid while its event is: what a check for a byte reads (a `#`, a byte past ASCII, as
/// the decoded string's would hold), rather than the string's UTF-8 view (about 30 instructions a byte).
private func bytes(_ pointer: UnsafeMutablePointer<yaml_char_t>?, length: Int) -> UnsafeBufferPointer<UInt8> {
    guard let pointer else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(start: pointer, count: length)
}

private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    guard let pointer else { return nil }
    return String(cString: pointer)
}
