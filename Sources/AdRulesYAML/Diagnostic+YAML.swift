import AdRules

/// Messages of the `yaml/*` rules, in one place.
extension Diagnostic {
    static func syntax(_ text: String, file: String, at position: SourcePosition) -> Diagnostic {
        Diagnostic(.error, rule: "yaml/syntax", message: text, file: file, range: SourceRange(at: position))
    }

    /// - Parameter advice: what to write instead, for a common mistake libyaml's words do not name.
    static func libyamlProblem(
        problem: String, context: String?, advice: String? = nil, file: String, at position: SourcePosition
    ) -> Diagnostic {
        var text = problem
        if let context, !context.isEmpty { text = "\(context): \(problem)" }
        text += "; \(advice ?? plainAdvice(problem: problem, context: context))"
        return syntax("YAML syntax error: \(text)", file: file, at: position)
    }

    /// What libyaml's "found character that cannot start any token" means in a value.
    static let reservedCharacter = "a value cannot start with this character (YAML reserves @, ` and %, and | and > inside [ ] or { })"

    /// What to write instead, for libyaml's problems that no closer reading of the line explains: every message says
    /// what to write (cli.md, Diagnostics).
    static func plainAdvice(problem: String, context: String?) -> String {
        switch problem {
        case "found unknown escape character":
            return #"in double quotes a backslash starts an escape (\n, \", \\): write \\ for a backslash, or use single quotes"#
        case "did not find expected key":
            return "a key is not lined up with the keys before it, a list item (-) sits among keys, or a } or ] closes nothing: line the keys up, one `key: value` a line"
        case "did not find expected ',' or '}'":
            return "close the { } mapping with }, and separate its entries with commas, as in {max: 3, window: 30m}"
        case "did not find expected ',' or ']'":
            return "close the [ ] list with ], and separate its items with commas, as in [a, b]"
        case "did not find expected '-' indicator":
            return "a line is not lined up with the lines above it: the keys of a list item line up under its first key, and each item starts with - at the same indentation"
        case "found character that cannot start any token":
            return reservedCharacter + #": quote the value, as in ad_unit: "@home""#
        case "found unexpected end of stream":
            return "a quoted value or a [ ] list or { } mapping is not closed: add its closing quote or bracket"
        case "block sequence entries are not allowed in this context":
            return "a list item (-) cannot follow a value on its line: write the list on the lines below its key, indented"
        case "did not find expected node content":
            return "a value is missing, starts with a stray character, or a [ ] list or { } mapping is not closed: write the value, or close the bracket"
        case "could not find expected ':'":
            return "a key needs a colon and a space before its value, as in daily_cap: 6"
        case "control characters are not allowed":
            return "delete the control character (a comment may not hold one either): texts hold none"
        case "found incompatible YAML document":
            return "rule files are YAML 1.2: remove the %YAML line"
        case "did not find expected hexdecimal number":
            return #"in double quotes \x takes two hex digits (\x41), \u four (\u00e9) and \U eight: complete the escape, or write \\ for a backslash"#
        case "found invalid Unicode character escape code":
            return #"a \u or \U escape names a character that is not one (a lone surrogate such as \ud800, or past \U0010FFFF): write the character itself, or its code point as one escape"#
        case "found an indentation indicator equal to 0":
            return "the digit after | or > is the indentation, 1 to 9: remove the 0"
        case "did not find expected <document start>":
            return "this file is one document, with no %YAML or %TAG line, no ... end marker, and nothing after a value in { } or [ ] at its top: remove such a line, or write the file as `key: value` lines"
        default:
            if context == "while scanning a block scalar" {
                return "after | or > only an indentation digit and + or - may follow on its line (as in message: >-), then a comment after a space: the text goes on the lines below, indented"
            }
            if context == "while parsing a quoted scalar" || context == "while scanning a quoted scalar" {
                return "close the quoted value with the quote it starts with"
            }
            // libyaml names a directive or a tag in its problem or in what it was reading (`while scanning a %YAML
            // directive`, `while parsing a tag`).
            if problem.contains("directive") || problem.contains("tag") || (context ?? "").contains("directive") || (context ?? "").contains("tag") {
                return "remove it: rule files hold plain keys and values, with no directives or tags"
            }
            return "write each setting as `key: value` on its own line, indented with spaces under the key it belongs to"
        }
    }

    /// The marker lines of a git merge conflict: both sides of it are in the file.
    /// - Parameter place: where the marker stands, said from libyaml's position ("here", "on line 5").
    static func mergeConflictAdvice(_ line: String, place: String) -> String {
        "\(YAMLEventCursor.shortened(Substring(line))) \(place) is a git merge-conflict marker: the file holds both sides of a merge. "
            + "Keep the lines you want, then remove the <<<<<<<, ======= and >>>>>>> lines"
    }

    /// A file that is not text at all: an executable, an image, an archive.
    static func binaryFile(_ kind: String, file: String) -> Diagnostic {
        syntax("the file is \(kind), not text: adrules reads YAML text in UTF-8", file: file, at: SourceRange.fileStart.start)
    }

    /// The line that stands for the findings a file does not show, past its bound.
    /// - Parameter errors: how many of the `count` findings not shown are errors (the line is an error when one is).
    /// - Parameter readToTheEnd: false when the file's settings were no longer read past so many findings. The rest of
    ///   the file unchecked is an error of its own, whatever the findings hidden are: a policy cannot pass, or be compiled,
    ///   with settings no one read (the line stands for one error more than those it hides).
    package static func tooManyFindings(_ count: Int, errors: Int, file: String, readToTheEnd: Bool = true) -> Diagnostic {
        let rest = readToTheEnd ? "" : ", and the rest of the file was not checked after so many"
        let unread = readToTheEnd ? 0 : 1
        var diagnostic = Diagnostic(
            errors + unread > 0 ? .error : .warning, rule: "lint/too-many-findings",
            message: "\(count) more findings in this file are not shown\(rest): fix the ones listed and lint again",
            file: file, range: .fileStart)
        diagnostic.standsFor = HiddenFindings(count: count + unread, errors: errors + unread)
        return diagnostic
    }

    /// - Parameter line: the line the space indents, said from libyaml's position ("this line", "line 5").
    static func pastedSpaceIndentationAdvice(_ scalar: Unicode.Scalar, line: String) -> String {
        "\(line) is indented with \(PastedSpace.indentation(scalar, plural: false)), which YAML reads as text, "
            + "not indentation: indent with ordinary spaces, lined up with the keys beside it"
    }

    /// - Parameter place: where the mark stands, said from libyaml's position ("here", "on line 5").
    static func strayByteOrderMarkAdvice(place: String) -> String {
        "an invisible byte-order mark (U+FEFF) stands \(place), which YAML reads as text (a file may start with one, nowhere else): remove it"
    }

    /// At libyaml's position, with its problem text (cli.md's `yaml/syntax`), and what the problem is in plain words.
    static func tabIndentation(problem: String, context: String?, file: String, at position: SourcePosition) -> Diagnostic {
        libyamlProblem(
            problem: problem, context: context, advice: "a tab is used for indentation here, which YAML does not allow: indent with spaces",
            file: file, at: position)
    }

    /// A plain `*` or `&` with no name: libyaml stops there, and the finding is the alias rule's (cli.md: "for
    /// `deny: *`, say to write `deny: \"*\"`").
    /// - Parameter key: the key the value belongs to, when it is read on its line: only a rule's `deny` takes `"*"`
    ///   for every placement.
    /// - Parameter isAnchor: whether it is a plain `&`, which starts an anchor (`*` starts an alias).
    /// - Parameter inList: whether it is an item of a list in brackets (`deny: [*]`, `deny: [a, *]`): `key` is then the
    ///   list's.
    static func bareAsterisk(key: String?, indented: Bool = false, inList: Bool = false, isAnchor: Bool = false, file: String, at position: SourcePosition) -> Diagnostic {
        let advice = switch key {
        case _ where isAnchor: "write the value in quotes if it is text"
        case "deny"? where inList: "to mean every placement write \"*\" in quotes, as in deny: [\"*\"] or deny: \"*\""
        case "deny"?: "to mean every placement write \"*\" in quotes, as in deny: \"*\""
        case "placements"? where indented: "list the placement ids, as in placements: [level_end, app_open] (only a rule's deny takes \"*\" for every placement)"
        default: "write the value in quotes if it is text; only a rule's deny takes \"*\" for every placement, as in deny: \"*\""
        }
        return Diagnostic(
            .error, rule: "yaml/alias", message: "\(isAnchor ? "a plain & starts a YAML anchor" : "a plain * starts a YAML alias"): \(advice)",
            file: file, range: SourceRange(at: position))
    }

    static func fileTooLarge(bytes: Int, limit: Int, file: String) -> Diagnostic {
        let advice: String
        if FileNames.isUsageModel(file) {
            advice = "the most a usage model may hold: describe fewer segments, each with the share of users it stands for"
        } else if FileNames.isScenario(file) {
            advice = "the most a scenario file may hold: split its tests into several scenario files"
        } else {
            advice = "the most a rule file may hold: split it into several files in one directory"
        }
        return syntax("the file is larger than \(limit) bytes (16 MiB), \(advice)", file: file, at: SourceRange.fileStart.start)
    }

    static func invalidUTF8(_ problem: String, file: String, at position: SourcePosition) -> Diagnostic {
        syntax("\(problem): the file is not UTF-8 text here, save it as UTF-8", file: file, at: position)
    }

    static func hiddenLineBreak(_ scalar: Unicode.Scalar, file: String, at position: SourcePosition) -> Diagnostic {
        let name = switch scalar.value {
        case 0x85: "NEXT LINE (U+0085)"
        case 0x2028: "LINE SEPARATOR (U+2028)"
        default: "PARAGRAPH SEPARATOR (U+2029)"
        }
        return syntax(
            "a \(name) character, which YAML reads as a line break but editors and diffs do not show: write a newline, or remove it",
            file: file, at: position)
    }

    /// More `%TAG` directives than ``TagDirectives/limit`` (a rule file, scenario or usage model holds none).
    static func tooManyTagDirectives(limit: Int, file: String, at position: SourcePosition) -> Diagnostic {
        syntax(
            "the file holds more than \(limit) %TAG directives: rule files, scenarios and usage models hold plain keys and values, with no directives or tags: remove them",
            file: file, at: position)
    }

    static func tooManyNodes(limit: Int, file: String, at position: SourcePosition) -> Diagnostic {
        syntax(
            "the file holds more than \(limit) values (mappings, lists and texts), more than this tool reads from one file: write fewer (a scenario file's tests may be spread over several files)",
            file: file, at: position)
    }

    static func tooDeep(limit: Int, file: String, at position: SourcePosition) -> Diagnostic {
        syntax(
            "nesting is deeper than \(limit) levels: rule files are shallow; flatten this structure",
            file: file, at: position)
    }

    /// The keys of the blocks of entries in rule files, scenario files and usage models.
    private static let blocksOfEntries: Set<String> = ["placements", "groups", "attributes", "rules", "defaults", "segments", "tests", "steps"]

    /// Whether the keys of a mapping under `key` are ids of entries (`placements:`, `groups:`, `attributes:`).
    static func holdsIDs(_ key: String) -> Bool { ["placements", "groups", "attributes"].contains(key) }

    /// - Parameter kind: what the repeated key is, for what to do with the two.
    /// - Parameter firstWritten: the first key as written, when known: equal to `written` as text, it may hold other
    ///   bytes (an accented letter as one character in one, a letter and a combining accent in the other), which the
    ///   message then says, as the two look the same.
    static func duplicateKey(
        _ written: String, file: String, range: SourceRange, first: SourcePosition, kind: DuplicateKeyKind = .value, firstWritten: String? = nil
    ) -> Diagnostic {
        let key = YAMLScalar.shortened(written)
        // Each character past ASCII spelled as its code point (`e\u{301}`), what tells the two apart.
        func spelled(_ text: String) -> String { YAMLScalar.shortened(CodePoints.spelled(text)) }
        let encodings = firstWritten.map { !$0.utf8.elementsEqual(written.utf8) } == true
            ? " (the two differ only in how their accented letters are encoded, Unicode normalization: \(spelled(firstWritten ?? "")) and \(spelled(written)), which adrules cannot tell apart)"
            : ""
        // A second block of a file's entries (`placements:` written twice), or of a placement's settings (`grace:`),
        // holds entries to keep: they are moved, not dropped.
        let merge = "move its entries into the first \(key):"
        let advice = switch kind {
        // In an item of a list (a test, a segment), the `- ` line of a next item lost is the likelier slip.
        case .inListItem(let repeatsBlock):
            "two items of the list may have run together (a `- ` lost): begin the second item with `- `; else "
                + (repeatsBlock || blocksOfEntries.contains(key) ? "\(merge) (keeping one would drop the other's entries)" : "keep one of them")
        case _ where blocksOfEntries.contains(key): "\(merge) block and remove this line (keeping one would drop the other's entries)"
        case .entryID: "an id names one entry: rename one of the two, or keep one of them"
        case .blockOnItsLines: "\(merge) and remove this line (keeping one would drop the other's entries)"
        case .blockInBraces: "\(merge) and remove this second one (keeping one would drop the other's entries)"
        case .value: "keep one of them"
        }
        return Diagnostic(
            .error, rule: "yaml/duplicate-key",
            message: "key \"\(key)\" is repeated in this mapping\(encodings): \(advice)",
            file: file, range: range,
            // The note quotes the first key as it is written there (the two may differ in their bytes).
            notes: [DiagnosticNote(message: "\"\(YAMLScalar.shortened(firstWritten ?? written))\" is first defined here", file: file, position: first)])
    }

    /// A second document; `isEmpty` when nothing but comments follows its `---` (a trailing `---`).
    static func multipleDocuments(file: String, at position: SourcePosition, isEmpty: Bool = false) -> Diagnostic {
        Diagnostic(
            .error, rule: "yaml/multiple-documents",
            message: isEmpty
                ? "a file holds one YAML document: this `---` starts an empty second one, with nothing after it; remove it"
                : "a file holds one YAML document: remove this `---` and move the rest into its own file",
            file: file, range: SourceRange(at: position))
    }

    /// An anchor in a rule file (scenario files and usage models may have them).
    static func anchor(_ name: String, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "yaml/alias",
            message: "anchor &\(name) is not allowed: these files must be explicit; write the values out\(sharing(true))",
            file: file, range: range)
    }

    /// An alias in a rule file; a bare `*` is one with no name.
    static func alias(_ name: String, file: String, range: SourceRange) -> Diagnostic {
        let hint =
            name.isEmpty
            ? "to deny every placement, write deny: \"*\" (quoted)"
            : "write the values out where *\(name) stands\(sharing(true))"
        return Diagnostic(
            .error, rule: "yaml/alias",
            message: "alias *\(name) is not allowed: these files must be explicit; \(hint)",
            file: file, range: range)
    }

    /// An alias in a file that may use them (not a rule file) that names no anchor written before it, or that stands
    /// inside the value its anchor is on (`&a [*a]`).
    static func unresolvedAlias(_ name: String, inside: Bool, file: String, range: SourceRange) -> Diagnostic {
        let message = inside
            ? "alias *\(name) stands inside the value &\(name) names, which cannot hold itself: write the values out here"
            : "alias *\(name) names no anchor written before it: write &\(name) on the value above, or write the value out here"
        return Diagnostic(.error, rule: "yaml/alias", message: message, file: file, range: range)
    }

    /// The first alias that would bring what aliases repeat in a file past `limit` nodes (``YAMLReader/maxAliasedNodes``).
    static func tooManyAliasedNodes(_ name: String, limit: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "yaml/alias",
            message: "alias *\(name) would bring what aliases repeat in this file past \(limit) nodes (a text counting one more for each 64 bytes): write the values out, or repeat fewer",
            file: file, range: range)
    }

    /// - Parameter inRuleFile: the file is a rule file, where `defaults` shares settings; a scenario file or a usage
    ///   model has no such block.
    static func mergeKey(inRuleFile: Bool, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "yaml/alias",
            message: inRuleFile
                ? "merge key << is not allowed: rule files must be explicit; write the keys out\(sharing(inRuleFile))"
                // Scenario files and usage models take anchors and aliases, which libyaml resolves; a merge is YAML 1.1's, and
                // is not done.
                : "merge key << is not allowed (a YAML 1.1 merge, which YAML 1.2 does not do): write the keys out; an alias (*name) may stand for a whole value",
            file: file, range: range)
    }

    /// Where a rule file shares settings instead.
    private static func sharing(_ inRuleFile: Bool) -> String {
        inRuleFile ? " (shared placement settings go in `defaults`)" : ""
    }

    /// - Parameter inCondition: the tag stands before a `when` value, where `!premium` meant "not premium".
    static func tag(_ tag: String, inCondition: Bool = false, file: String, range: SourceRange) -> Diagnostic {
        let advice = inCondition
            ? (tag == "!" ? "in YAML a ! starts a tag; a condition negates with not: write not in place of the !"
                : "in YAML a ! starts a tag; a condition negates with not: write not \(tag.dropFirst()) instead of \(tag)")
            // A `!!str` says the value is text, which quotes say; any other tag is only removed (`!!int 5` is 5).
            : tag == "!!str" ? "remove it, and quote the value instead" : "remove it"
        return Diagnostic(.error, rule: "yaml/tag", message: "explicit tag \(tag) is not allowed: \(advice)", file: file, range: range)
    }
}

/// What a key repeated in a mapping is, for what to do with the two.
enum DuplicateKeyKind {
    /// An entry's id (`placements:` holding `level_end:` twice).
    case entryID
    /// A block or list repeated in a mapping written on its own lines (`grace:` twice under a placement's key): the
    /// mapping that holds the two is a block, whichever way each value is written.
    case blockOnItsLines
    /// A block or list repeated in a mapping written in braces (`{grace: {…}, grace: {…}}`).
    case blockInBraces
    /// A key of an item of a block list (a rule, a test), where the `- ` of a next item may have been lost; its value
    /// a block or list of settings, or not.
    case inListItem(repeatsBlock: Bool)
    /// Any other value.
    case value
}
