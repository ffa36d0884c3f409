import AdRules
import AdRulesYAML
import Testing

/// What a mutation audit of the YAML layer found unchecked: positions counted over CR, CR LF and characters past
/// ASCII, the boundaries of the checks run before libyaml reads a file, and the advice chosen by conditions.
@Suite("YAML layer: what mutation testing found unchecked")
struct YAMLMutationGapTests {
    func read(_ text: String) -> YAMLDocument { YAMLReader.read(text, file: "t.yaml") }

    /// The findings of a rule file, read through the cursor to its end as the rule-file loader reads it.
    func ruleFileFindings(_ text: String) -> [Diagnostic] {
        YAMLEventCursor.read(Array(text.utf8), file: "t.yaml") { cursor in
            cursor.finish()
            return cursor.diagnostics
        }
    }

    /// A control character in a CR LF file is placed on its own line: the pair is one line break.
    @Test func aControlCharacterInACRLFFileIsOnItsLine() throws {
        let found = read("a: 1\r\nb: 2\r\nc: x\u{1}\r\n").diagnostics
        #expect(found.count == 1 && found[0].message.contains("control characters are not allowed"), "\(found)")
        #expect(found.first?.range.start == SourcePosition(line: 3, column: 5))
    }

    /// UTF-16 text with a zero byte in exactly a quarter of its first bytes (half its characters past Latin-1) is still
    /// told to be saved as UTF-8, not called invalid UTF-8 (the check takes "at least a quarter").
    @Test func utf16WithExactlyAQuarterZeroBytesIsWideText() {
        let bytes = "日本: 語\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(bytes.count == 12 && bytes.filter { $0 == 0 }.count == 3)
        let found = YAMLReader.read(bytes, file: "t.yaml").diagnostics.map(\.message)
        #expect(found == ["the file is UTF-16 or UTF-32 text, not UTF-8: save it as UTF-8"])
    }

    /// A block mapping whose last value is a block text ends where that text ends, not lines below past blank lines and
    /// comments, whatever breaks the lines (LF, CR LF, CR) and with columns counted in characters.
    @Test(arguments: ["\n", "\r\n", "\r"])
    func aBlockMappingEndingInABlockTextEndsWithItsText(_ lineBreak: String) throws {
        let text = ["a:", "  b: |", "    tëxt", "", "# c", "d: 1", ""].joined(separator: lineBreak)
        let root = try #require(read(text).root?.pairs)
        #expect(root[0].value.range.end == SourcePosition(line: 3, column: 9), "\(root[0].value.range)")
    }

    /// A file that starts with a byte-order mark and holds one block text with nothing in it ends after the `|`, the mark
    /// no column.
    @Test func aBlockTextOnTheFirstLineAfterAByteOrderMarkEndsAtItsColumn() throws {
        let root = try #require(read("\u{FEFF}a: |\n\n# c\n").root)
        #expect(root.range.end == SourcePosition(line: 1, column: 5), "\(root.range)")
    }

    /// `when: !premium` after text past ASCII on its line (a flow mapping) is still read as a negation meant: the tag's
    /// place on the line is found by characters, not bytes.
    @Test func aTagInAConditionIsFoundAfterTextPastASCII() {
        let messages = ruleFileFindings("rules:\n  - {id: 日本, deny: [a], when: !premium }\n").map(\.message)
        #expect(messages == ["explicit tag !premium is not allowed: in YAML a ! starts a tag; a condition negates with not: write not premium instead of !premium"])
    }

    /// A quoted `"when"` key is the key it quotes: its `!premium` gets the advice of a negation too.
    @Test func aTagUnderAQuotedWhenKeyIsANegation() {
        let messages = ruleFileFindings("rules:\n  - id: r\n    deny: [a]\n    \"when\": !premium\n").map(\.message)
        #expect(messages == ["explicit tag !premium is not allowed: in YAML a ! starts a tag; a condition negates with not: write not premium instead of !premium"])
    }

    /// An empty value with a comment after a tab (`name:\t# x`) is a value commented out, as after a space.
    @Test func aCommentAfterATabLeavesAValueCommentedOut() throws {
        let pairs = try #require(read("a:\t# x\nb: # y\n").root?.pairs)
        #expect(pairs.map { $0.value.scalar?.isCommentedOut } == [true, true])
    }

    /// A bare `*` as an item of a rule's `deny` list, on its own line or in brackets, gets the advice to quote it as
    /// every placement, in CR LF files too.
    @Test(arguments: ["\n", "\r\n"])
    func aBareAsteriskInADenyListIsTheEveryPlacementMistake(_ lineBreak: String) {
        let onItsLine = ruleFileFindings(["rules:", "  - id: r", "    deny:", "      - *", ""].joined(separator: lineBreak)).map(\.message)
        #expect(onItsLine == ["a plain * starts a YAML alias: to mean every placement write \"*\" in quotes, as in deny: \"*\""])
        let alone = ruleFileFindings(["rules:", "  - id: r", "    deny:", "      *", ""].joined(separator: lineBreak)).map(\.message)
        #expect(alone == ["a plain * starts a YAML alias: to mean every placement write \"*\" in quotes, as in deny: \"*\""])
        let inBrackets = ruleFileFindings(["rules:", "  - {id: r, deny: [a, *]}", ""].joined(separator: lineBreak)).map(\.message)
        #expect(inBrackets == ["a plain * starts a YAML alias: to mean every placement write \"*\" in quotes, as in deny: [\"*\"] or deny: \"*\""])
    }

    /// A file whose lines end in CR alone gets the advice for the line libyaml stopped on, as with LF.
    @Test func aCROnlyFileGetsTheAdviceOfItsOwnLine() throws {
        let lf = try #require(read("a: 1\nb: c: d\n").diagnostics.first)
        let cr = try #require(read("a: 1\rb: c: d\r").diagnostics.first)
        #expect(cr.message == lf.message)
        #expect(cr.range.start == lf.range.start)
        #expect(lf.message.contains("write b: {c: d}"), "\(lf.message)")
    }

    /// Two items of a list, each run together with the next (a `- ` lost twice), are two findings, each with its own
    /// notes: the second is no note of the first.
    @Test func twoItemsRunTogetherAreTwoFindings() {
        let found = ruleFileFindings("steps:\n  - event: a\n    after: 1s\n    event: b\n  - event: c\n    after: 2s\n    event: d\n")
        #expect(found.map(\.rule) == ["yaml/duplicate-key", "yaml/duplicate-key"], "\(found)")
        #expect(found.map(\.range.start.line) == [4, 7])
        #expect(found.map { $0.notes.map(\.position.line) } == [[2], [5]])
    }

    /// A core-schema tag on a condition (`when: !!str premium`) is no negation: it is removed, and the value quoted.
    @Test func aCoreTagOnAConditionIsNoNegation() {
        let messages = ruleFileFindings("rules:\n  - {id: r, deny: [a], when: !!str premium}\n").map(\.message)
        #expect(messages == ["explicit tag !!str is not allowed: remove it, and quote the value instead"])
    }

    /// A file of exactly ``YAMLReader/maxBytes`` is read; one byte more is refused as too large.
    @Test func aFileOfExactlyTheLargestSizeIsRead() {
        let body = "a: 1\n# " + String(repeating: "x", count: YAMLReader.maxBytes - 8) + "\n"
        #expect(body.utf8.count == YAMLReader.maxBytes)
        let exact = read(body)
        #expect(exact.diagnostics.isEmpty, "\(exact.diagnostics.map(\.message))")
        #expect(exact.root?.pairs?.first?.value.scalar?.value == "1")
        #expect(read(body + "\n").diagnostics.map(\.message).first?.hasPrefix("the file is larger than") == true)
    }

    /// A quoted value left open runs on past a line holding an escaped quote (`''` in single quotes, `\"` in double
    /// ones) to the quote that closes it: the advice still names the line it was opened on.
    @Test(arguments: ["environment: 'production\n  it''s\n# the user's notes\nb: 1\n", "environment: \"production\n  say \\\"hi\n# the user\"s notes\nb: 1\n"])
    func aQuoteLeftOpenIsFoundPastAnEscapedQuote(_ text: String) throws {
        let d = try #require(read(text).diagnostics.first)
        #expect(d.message.hasSuffix("the quoted value opened at line 1, column 14 is not closed on its line, so it runs on to the quote at line 3, column 11, and what follows that quote is read as YAML: close the value with its quote on its line"), "\(d.message)")
        #expect(d.notes.map(\.position) == [SourcePosition(line: 1, column: 14), SourcePosition(line: 3, column: 11)])
    }

    /// A quoted value closed on its own line (`"C:\\"`, its last quote after an escaped backslash) is not called left
    /// open when a later line holds a quote.
    @Test func aQuotedValueClosedOnItsLineIsNotCalledOpen() throws {
        let d = try #require(read("a: \"C:\\\\\"\nb: it is \"x\": y\n").diagnostics.first)
        #expect(d.range.start == SourcePosition(line: 2, column: 13))
        #expect(!d.message.contains("is not closed on its line"), "\(d.message)")
    }

    /// A quoted value left open on a line that also holds an escaped quote (`'it''s`, `"say \"hi`) is named as left open:
    /// the escape closes nothing (the check that its line has no closing quote took it for one; found by the audit).
    @Test(arguments: [
        "environment: 'it''s\n# the user's notes\nb: 1\n", "environment: \"say \\\"hi\n# the user\"s notes\nb: 1\n",
        "environment: \"C:\\\\ \\\"hi\n# the user\"s notes\nb: 1\n",
    ])
    func aQuoteLeftOpenOnALineWithAnEscapedQuoteIsNamed(_ text: String) throws {
        let d = try #require(read(text).diagnostics.first)
        #expect(d.message.contains("the quoted value opened at line 1, column 14 is not closed on its line"), "\(d.message)")
    }

    /// A line that continues a plain value above but is not indented under its key gets the advice that names that
    /// value, in a CR LF file as in an LF one.
    @Test(arguments: ["\n", "\r\n", "\r"])
    func aWrappedValueIsNamedWhateverTheLineBreaks(_ lineBreak: String) throws {
        let d = try #require(read(["message: Never interrupt a", "purchase flow", ""].joined(separator: lineBreak)).diagnostics.first)
        #expect(d.message.hasSuffix("on line 2, purchase flow is read as a key with no colon: if it continues the value of message above, indent it more than message (or write the value on one line); if it is a setting, write purchase: flow"), "\(d.message)")
    }

    /// A key of exactly 1024 characters is still a key to YAML (its limit is on longer ones): a second key on its line
    /// gets the advice for a value holding a key, not the advice to shorten the key.
    @Test func aKeyOfExactly1024CharactersIsAKey() throws {
        let key = String(repeating: "k", count: 1024)
        let d = try #require(read(key + ": c: d\n").diagnostics.first)
        #expect(d.message.contains("a key's value cannot hold another key on the same line"), "\(d.message.suffix(200))")
        let longer = try #require(read(key + "k: c: d\n").diagnostics.first)
        #expect(longer.message.hasSuffix("a key longer than 1024 characters is not read as a key in YAML: shorten it (an id holds 1-64 characters)"), "\(longer.message.suffix(200))")
    }

    /// A quoted value that an escaped backslash and its quote close on a later line (`"one` then `two\\"`) is closed:
    /// a quote further down is not said to end a value left open above (it took `\\"` for an escaped quote).
    @Test func aQuoteAfterAnEscapedBackslashClosesTheValue() throws {
        let closed = try #require(read("a: \"one\n  two\\\\\"\nc: x\": y\n").diagnostics.first)
        let plain = try #require(read("a: \"one\n  two\"\nc: x\": y\n").diagnostics.first)
        #expect(closed.range.start == SourcePosition(line: 3, column: 6))
        #expect(!closed.message.contains("is not closed on its line"), "\(closed.message)")
        #expect(closed.message == plain.message && closed.notes.isEmpty, "\(closed.message)")
    }

    /// A URL alone on a line (a link pasted without its `#`) is told to be a comment or a value, not to take a space
    /// after its scheme's colon (`https: //example.com`, which YAML would read as a key).
    @Test(arguments: ["a: 1\nhttps://example.com/ads\nb: 2\n", "a:\n  b: 1\n  http://example.com\n  c: 2\n"])
    func aURLAloneOnALineIsACommentOrAValue(_ text: String) throws {
        let d = try #require(read(text).diagnostics.first)
        let url = text.contains("https") ? "https://example.com/ads" : "http://example.com"
        #expect(d.message.hasSuffix("line 2 is a URL with no key: if it is a comment, start it with # (# \(url)); if it is a value, write it after its key, as in url: \(url)")
            || d.message.hasSuffix("line 3 is a URL with no key: if it is a comment, start it with # (# \(url)); if it is a value, write it after its key, as in url: \(url)"), "\(d.message)")
        #expect(!d.message.contains("write http: ") && !d.message.contains("write https: "), "\(d.message)")
    }

    /// A line of three words with no colon (`no ads here`) is a comment that lost its `#`, as a longer one is.
    @Test func threeWordsWithNoKeyAreACommentThatLostItsHash() throws {
        let d = try #require(read("a:\n  b: 1\n  no ads here\n  c: 2\n").diagnostics.first)
        #expect(d.message.hasSuffix("line 3 is words with no key: if it is a comment, start it with # (# no ads here); a setting is a key, a colon and a space, then its value, as in daily_cap: 6"), "\(d.message)")
    }

    /// A key of 60 characters is quoted whole in advice and in a repeated key's message: only a longer one is cut short.
    @Test func aKeyOfSixtyCharactersIsQuotedWhole() throws {
        let key = String(repeating: "k", count: 60)
        let advice = try #require(read(key + " = v\ndaily_cap: 3\n").diagnostics.first)
        #expect(advice.message.hasSuffix("on line 1, a key takes a colon and a space, not =: write \(key): v"), "\(advice.message)")
        let repeated = try #require(read(key + ": 1\n" + key + ": 2\n").diagnostics.first)
        #expect(repeated.message == "key \"\(key)\" is repeated in this mapping: keep one of them")
        let longer = try #require(read(key + "k: 1\n" + key + "k: 2\n").diagnostics.first)
        #expect(longer.message == "key \"\(String(repeating: "k", count: 57))...\" is repeated in this mapping: keep one of them")
    }

    /// Advice that writes a value in other quotes writes it as YAML reads it back: a `'` inside single quotes doubled, a
    /// value holding `'` in double quotes, and one holding `"` after a reserved character not requoted at all.
    @Test func adviceQuotesAValueSoThatItReadsBack() throws {
        let single = try #require(read("a: \"it's \"big\"deal\"\n").diagnostics.first)
        #expect(single.message.hasSuffix("write it in single quotes, as in a: 'it''s \"big\"deal'"), "\(single.message)")
        let inBraces = try #require(ruleFileFindings("rules:\n  - {id: r, deny: [a], when: name in ['a', 'b']}\n").first)
        #expect(inBraces.message.contains("quote the value, as in when: \"name in ['a', 'b']\""), "\(inBraces.message)")
        let reserved = try #require(read("a: @home \"x\"\n").diagnostics.first)
        #expect(reserved.message.hasSuffix("(YAML reserves @, ` and %, and | and > inside [ ] or { }): quote it"), "\(reserved.message)")
        // Each quoted form given reads back as the value meant.
        #expect(read("a: 'it''s \"big\"deal'\n").root?.pairs?.first?.value.scalar?.value == "it's \"big\"deal")
        #expect(read("when: \"name in ['a', 'b']\"\n").root?.pairs?.first?.value.scalar?.value == "name in ['a', 'b']")
    }

    /// Aliases may bring in exactly ``YAMLReader/maxAliasedNodes`` nodes over a file; the one past it is refused.
    @Test func aliasesMayBringInExactlyTheBound() {
        func text(_ aliases: Int) -> String { "a: &p x\nb: [" + Array(repeating: "*p", count: aliases).joined(separator: ", ") + "]\n" }
        let exact = read(text(YAMLReader.maxAliasedNodes))
        #expect(exact.diagnostics.isEmpty, "\(exact.diagnostics.map(\.message))")
        #expect(exact.root?.pairs?.last?.value.items?.count == YAMLReader.maxAliasedNodes)
        let past = read(text(YAMLReader.maxAliasedNodes + 1))
        #expect(past.diagnostics.map(\.rule) == ["yaml/alias"])
    }

    /// In an item of a list, a repeated key that holds a block of entries (a test's `steps`), even written as a list,
    /// is to be merged, not one of the two kept.
    @Test func aRepeatedBlockOfEntriesInAListItemIsToBeMerged() {
        let messages = ruleFileFindings("tests:\n  - name: a\n    steps: [x]\n    after: 1\n    steps: [y]\n").map(\.message)
        #expect(messages == ["key \"steps\" is repeated in this mapping: two items of the list may have run together (a `- ` lost): begin the second item with `- `; else move its entries into the first steps: (keeping one would drop the other's entries)"])
    }

    /// A comment indented with hair spaces (U+200A, the last of the typographic spaces) is named as pasted indentation.
    @Test func aHairSpaceIsAPastedSpace() throws {
        let head = "version: 1\nplacements:\n  a:\n    format: interstitial\n    min_interval: 4m\n"
        let d = try #require(read(head + "\u{200A}\u{200A}# pasted note\n").diagnostics.first)
        #expect(d.message.contains("; line 6 is indented with U+200A (a typographic space), "), "\(d.message)")
        #expect(d.notes.map(\.message) == ["the U+200A is here"])
    }

    /// After a second document, a syntax error past many collections that open and close (150 `{}` items) is still
    /// found: only nesting past ``YAMLReader/maxDepth`` ends the check.
    @Test func aSyntaxErrorPastManyClosedCollectionsInASecondDocumentIsFound() {
        let text = "a: 1\n---\n" + String(repeating: "- {}\n", count: 150) + "- [x\n"
        let rules = YAMLEventCursor.read(Array(text.utf8), file: "t.yaml") { cursor in
            cursor.finish(checkingLaterDocuments: true)
            return cursor.diagnostics.map(\.rule)
        }
        #expect(rules == ["yaml/multiple-documents", "yaml/syntax"])
    }

    /// A comma after a `{ }` item with only a comment after it ends its line: JSON's habit, to remove.
    @Test func aCommaBeforeACommentEndsItsLine() throws {
        let d = try #require(read("a:\n  - {b: 1}, # note\n  - {b: 2}\n").diagnostics.first)
        #expect(d.message.hasSuffix("; remove this , after the { } mapping: items on lines of their own take no comma"), "\(d.message)")
    }

    /// A block mapping whose last value is a block text ends after that text's last line, its trailing spaces included
    /// (they are text of the value).
    @Test func aBlockTextEndsAfterItsTrailingSpaces() throws {
        let root = try #require(read("a:\n  b: |\n    text  \n\nc: 1\n").root?.pairs)
        #expect(root[0].value.range.end == SourcePosition(line: 3, column: 11), "\(root[0].value.range)")
    }

    /// Where a tagged node starts is kept with the alias positions, so that a schema finding there is not said twice.
    @Test func aTaggedNodesPositionIsKept() {
        #expect(read("a: !!str x\nb: [!t y]\n").aliasOrTagPositions == [SourcePosition(line: 1, column: 4), SourcePosition(line: 2, column: 5)])
    }

    /// A `[ ]` list left open gets a note where it opens, as a `{ }` mapping does.
    @Test func aListLeftOpenHasANoteWhereItOpens() throws {
        let d = try #require(read("a: [x, y\nb: 1\n").diagnostics.first)
        #expect(d.range.start == SourcePosition(line: 2, column: 2))
        #expect(d.notes.map { "\($0.position): \($0.message)" } == ["1:4: the [ ] list starts here"])
    }

    /// A no-break space that is the last character of the file, indenting nothing, is still named as pasted indentation.
    @Test func aNoBreakSpaceEndingTheFileIsNamed() throws {
        let d = try #require(read("a:\n  b: 1\n\u{A0}").diagnostics.first)
        #expect(d.message.hasSuffix("; this line is indented with a no-break space (U+00A0, as text pasted from a document holds), which YAML reads as text, not indentation: indent with ordinary spaces, lined up with the keys beside it"), "\(d.message)")
        #expect(d.notes.map(\.message) == ["the no-break space is here"])
    }

    /// A `!` alone before a condition (`when: ! premium`) is told to be written `not`, in place of the `!`.
    @Test func aBangAloneInAConditionIsToBeWrittenNot() {
        let messages = ruleFileFindings("rules:\n  - id: r\n    deny: [a]\n    when: ! premium\n").map(\.message)
        #expect(messages == ["explicit tag ! is not allowed: in YAML a ! starts a tag; a condition negates with not: write not in place of the !"])
    }

    /// A comma or brace after a `{ }` that closed on its line is named as stray with spaces before it too.
    @Test func aStrayCommaOrBraceAfterSpacesIsNamed() throws {
        let comma = try #require(read("a:\n  - {b: 1} ,\n  - {b: 2}\n").diagnostics.first)
        #expect(comma.message.hasSuffix("; remove this , after the { } mapping: items on lines of their own take no comma"), "\(comma.message)")
        let brace = try #require(read("a: {b: 1} }\n").diagnostics.first)
        #expect(brace.message.hasSuffix("; remove this }: the { } mapping before it is already closed"), "\(brace.message)")
    }

    /// The smallest wide texts are told to be saved as UTF-8 too: a UTF-16 byte-order mark alone (an empty file saved as
    /// UTF-16), and two characters of UTF-16 with no mark (four bytes).
    @Test func theSmallestWideTextsAreToldToBeSavedAsUTF8() {
        for bytes: [UInt8] in [[0xFF, 0xFE], [0, 0x61, 0, 0x3A]] {
            let found = YAMLReader.read(bytes, file: "t.yaml").diagnostics.map(\.message)
            #expect(found == ["the file is UTF-16 or UTF-32 text, not UTF-8: save it as UTF-8"], "\(bytes)")
        }
    }

    /// `when: level: 3` is told to compare with ==, the number written as it is (a text would be quoted).
    @Test(arguments: ["3", "2.5"])
    func aConditionWrittenWithAColonKeepsItsNumberBare(_ number: String) throws {
        let d = try #require(read("rules:\n  - id: r\n    deny: [a]\n    when: level: \(number)\n").diagnostics.first)
        #expect(d.message.hasSuffix("; a condition compares with ==, not a colon: write when: level == \(number)"), "\(d.message)")
    }

    /// A URL on a line of its own (`http://example.com`) is not taken for a key glued to its value: no advice splits it.
    @Test func aURLIsNoKeyGluedToItsValue() throws {
        let d = try #require(read("http://example.com\n# x\nb: 2\n").diagnostics.first)
        #expect(!d.message.contains("write http: //example.com"), "\(d.message)")
    }

    /// A key lined up with the key above it is not told that it lines up with no key, when libyaml refused something
    /// after its value (`c: {x: 1} y`).
    @Test func aKeyLinedUpWithTheOneAboveIsNotCalledMisaligned() throws {
        let d = try #require(read("a:\n  b: 1\n  c: {x: 1} y\n").diagnostics.first)
        #expect(d.range.start == SourcePosition(line: 3, column: 13))
        #expect(!d.message.contains("lines it up with no key above it"), "\(d.message)")
    }

    /// A line of a quoted value that starts with `<<<<<<<`, in a file with no `>>>>>>>` line, is no merge conflict: a
    /// syntax error elsewhere keeps its own advice.
    @Test func anOpeningConflictMarkerAloneIsNoConflict() throws {
        let d = try #require(read("a: \"x\n<<<<<<< y\"\nb: [x\n").diagnostics.first)
        #expect(!d.message.contains("merge-conflict"), "\(d.message)")
        #expect(d.message.hasSuffix("; close the [ ] list with ], and separate its items with commas, as in [a, b]"), "\(d.message)")
    }
}
