import AdRulesYAML
import Foundation
import Testing

@Suite("YAML reader")
struct YAMLReaderTests {
    func read(_ text: String) -> YAMLDocument { YAMLReader.read(text, file: "t.yaml") }

    @Test func nodesCarryRangesAndStyles() throws {
        let doc = read("a: 1\nb: 'x'\nc: [d, \"e\"]\n")
        #expect(doc.diagnostics.isEmpty)
        let pairs = try #require(doc.root?.pairs)
        #expect(pairs.map { $0.key.scalar?.value } == ["a", "b", "c"])
        #expect(pairs[1].value.scalar?.style == .singleQuoted)
        #expect(pairs[1].value.range.start == SourcePosition(line: 2, column: 4))
        let items = try #require(pairs[2].value.items)
        #expect(items[1].scalar?.style == .doubleQuoted)
        #expect(items[1].range.start == SourcePosition(line: 3, column: 8))
    }

    @Test func syntaxErrorAtLibyamlPosition() throws {
        let doc = read("a: [1, 2\nb: 3\n")
        let d = try #require(doc.diagnostics.first)
        #expect(d.rule == "yaml/syntax")
        #expect(d.message.contains("did not find expected"))
        #expect(d.range.start.line == 2)
    }

    /// libyaml's problems that the generic advice does not fit get their own.
    @Test func libyamlProblemsGetAdviceThatFits() throws {
        let cases: [(String, String)] = [
            ("a: six # \u{1}\n", "delete the control character (a comment may not hold one either)"),
            ("%YAML 1.3\n---\na: 1\n", "rule files are YAML 1.2: remove the %YAML line"),
            ("a: 1\n%YAML 1.2\n", "this file is one document, with no %YAML or %TAG line, no ... end marker"),
            ("{a: 1}\nb: 2\n", "nothing after a value in { } or [ ] at its top"),
            ("a: \"\\x4\"\n", #"in double quotes \x takes two hex digits"#),
            ("a: |x\n  text\n", "after | or > only an indentation digit and + or - may follow on its line"),
            ("a: `x`\n", "(YAML reserves @, ` and %, and | and > inside [ ] or { }): quote the value"),
            ("a: six # \u{1}\n", "texts hold none"),
        ]
        for (text, advice) in cases {
            let d = try #require(read(text).diagnostics.first, "\(text)")
            #expect(d.message.contains(advice), "\(text): \(d.message)")
            #expect(!d.message.contains("write each setting as `key: value`"), "\(text): \(d.message)")
        }
    }

    /// libyaml places an error at the end of a file with no final line break on a line after the last: the error is
    /// placed where the file ends instead, on a line that exists. With the line break, the next line is the end.
    @Test func anErrorAtTheEndIsOnALineThatExists() throws {
        for text in ["version: 1\nplacements:\n  a: {format: interstitial", "a: [x"] {
            let d = try #require(read(text).diagnostics.first)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(d.range.start == SourcePosition(line: lines.count, column: (lines.last?.count ?? 0) + 1), "\(text): \(d.range.start)")
        }
        let ended = try #require(read("a: [x\n").diagnostics.first)
        #expect(ended.range.start == SourcePosition(line: 2, column: 1))
    }

    /// A byte-order mark anywhere but the file's start is named, and a note points at it, while the finding stays at
    /// libyaml's position (cli.md); the one a file may start with is no column, and a reader error (a control
    /// character) on a line ended by a lone CR is on that line. (One within a key is text to YAML: the rule file's
    /// checks name it there.)
    @Test func aStrayByteOrderMarkIsNamedAtItsPosition() throws {
        let bom = "\u{FEFF}"
        for (text, at, mark, place) in [
            (bom + bom + "version: 1\nplacements: {}\n", SourcePosition(line: 2, column: 1), SourcePosition(line: 1, column: 1), "on line 1"),
            ("a:\n  b: 1\n" + bom + "  c: six\n", SourcePosition(line: 3, column: 4), SourcePosition(line: 3, column: 1), "on this line"),
        ] {
            let d = try #require(read(text).diagnostics.first, "\(text)")
            #expect(d.rule == "yaml/syntax" && d.message.contains("; an invisible byte-order mark (U+FEFF) stands \(place), "), "\(d.message)")
            #expect(d.range.start == at, "\(text.debugDescription): \(d.range.start)")
            #expect(d.notes.map(\.position) == [mark], "\(d.notes)")
        }
        #expect(try #require(read(bom + "\u{1}a: 1\n").diagnostics.first).range.start == SourcePosition(line: 1, column: 1))
        // Only the first mark is no column: a second one is, whichever check finds what follows it.
        for bad in ["\u{85}", "\u{1}"] {
            #expect(try #require(read(bom + bom + "ab: " + bad + "\n").diagnostics.first).range.start == SourcePosition(line: 1, column: 6), "\(bad.debugDescription)")
        }
        #expect(try #require(read("a: 1\rb: \"x\u{1}\"\r").diagnostics.first).range.start == SourcePosition(line: 2, column: 6))
        // A file that only starts with one reads as usual; one in a comment or a quoted value is text, and an error
        // beside it is libyaml's own.
        #expect(read(bom + "a: 1\n").diagnostics.isEmpty)
        for text in ["placements: # note" + bom + "\n  p: {format: banner}}\n", "p: {ad_unit: \"x" + bom + "y\"\nq: 1\n"] {
            let d = try #require(read(text).diagnostics.first, "\(text)")
            #expect(d.message.hasPrefix("YAML syntax error"), "\(d.message)")
        }
    }

    @Test func duplicateKeyAtSecondWithNoteAtFirst() throws {
        let doc = read("a: 1\nb: 2\na: 3\n")
        let d = try #require(doc.diagnostics.first)
        #expect(d.rule == "yaml/duplicate-key")
        #expect(d.range.start == SourcePosition(line: 3, column: 1))
        #expect(d.notes.first?.position == SourcePosition(line: 1, column: 1))
        // The first value is kept.
        #expect(doc.root?.pairs?.first { $0.key.scalar?.value == "a" }?.value.scalar?.value == "1")
    }

    @Test func duplicateKeyInALargeMapping() throws {
        let keys = (0..<40).map { "k\($0): \($0)" }.joined(separator: "\n")
        let doc = read(keys + "\nk3: again\nk39: again\n")
        #expect(doc.diagnostics.map(\.range.start.line) == [41, 42])
        #expect(doc.diagnostics.map { $0.notes.first?.position.line } == [4, 40])
    }

    @Test func secondDocumentIsAnError() throws {
        let doc = read("a: 1\n---\nb: 2\n")
        #expect(doc.diagnostics.map(\.rule) == ["yaml/multiple-documents"])
        #expect(doc.diagnostics[0].range.start.line == 2)
    }

    /// Files read whole (scenario files, usage models) may use anchors and aliases; a merge key is still refused, and
    /// an alias of no anchor before it is a finding at the alias.
    @Test func anchorsAndAliasesAreReadAndMergeKeysRejected() throws {
        let doc = read("a: &x 1\nb: *x\nc:\n  <<: {d: 1}\ne: *y\n")
        #expect(doc.diagnostics.map(\.rule) == ["yaml/alias", "yaml/alias"])
        #expect(doc.diagnostics.map(\.range.start.line) == [4, 5])
        #expect(doc.diagnostics.last?.message == "alias *y names no anchor written before it: write &y on the value above, or write the value out here")
        let pairs = try #require(doc.root?.pairs)
        #expect(pairs[1].value.scalar?.value == "1")
        // The copy stands at the alias: a value of the wrong type there is reported where it is used.
        #expect(pairs[1].value.range.start == SourcePosition(line: 2, column: 4))
    }

    /// A key written as an alias is checked for repeats like any other, and the repeat is dropped (decoders see the
    /// first one only); an alias inside the value its anchor names says so.
    @Test func aliasedKeysAreCheckedForRepeats() throws {
        let doc = read("&k start: 1\n*k : 2\nend: 3\n")
        #expect(doc.diagnostics.map(\.rule) == ["yaml/duplicate-key"])
        #expect(doc.diagnostics.first?.range.start == SourcePosition(line: 2, column: 1))
        #expect(doc.diagnostics.first?.notes.first?.position == SourcePosition(line: 1, column: 1))
        #expect(doc.root?.pairs?.map { $0.key.scalar?.value } == ["start", "end"])
        #expect(doc.root?.pairs?.first?.value.scalar?.value == "1")
        let plainAfter = read("a: &k start\n*k : 1\nstart: 2\n")
        #expect(plainAfter.diagnostics.map(\.range.start.line) == [3], "a plain key that repeats an aliased one")
        let inside = read("a: &s [1, *s]\n")
        #expect(inside.diagnostics.map(\.message) == ["alias *s stands inside the value &s names, which cannot hold itself: write the values out here"])
        // Even with an earlier anchor of the name: inside its value, the alias would be the value itself.
        let redefined = read("a: &s 1\nb: &s [*s]\n")
        #expect(redefined.diagnostics.map(\.message) == ["alias *s stands inside the value &s names, which cannot hold itself: write the values out here"])
        // An anchor of the name nested in the value and ended is the one an alias after it stands for.
        let nested = read("steps: &a\n  - &a {ask: show}\n  - *a\n")
        #expect(nested.diagnostics.isEmpty, "\(nested.diagnostics)")
        #expect(nested.root?.pairs?.first?.value.items?.last?.pairs?.first?.value.scalar?.value == "show")
        // An alias of nothing as a key: its pair is dropped, with no finding beside its own (no repeat of "").
        let unknownKeys = read("a: {*x : 1, *y : 2, b: 3}\n")
        #expect(unknownKeys.diagnostics.map(\.rule) == ["yaml/alias", "yaml/alias"], "\(unknownKeys.diagnostics)")
        #expect(unknownKeys.root?.pairs?.first?.value.pairs?.map { $0.key.scalar?.value } == ["b"])
    }

    /// An aliased mapping or sequence stands at the alias (a scenario step written `- *launch` is found at its own
    /// line), with its content as the anchor wrote it; a later anchor of the same name replaces the earlier.
    @Test func anAliasedCollectionStandsAtTheAlias() throws {
        let doc = read("s: &s {event: app_launched}\nsteps:\n  - *s\n  - &s [1]\n  - *s\n")
        #expect(doc.diagnostics.isEmpty, "\(doc.diagnostics)")
        let steps = try #require(doc.root?.pairs?[1].value.items)
        #expect(steps[0].range.start == SourcePosition(line: 3, column: 5))
        #expect(steps[0].pairs?.first?.value.scalar?.value == "app_launched")
        #expect(steps[2].items?.first?.scalar?.value == "1")
        #expect(steps[2].range.start == SourcePosition(line: 5, column: 5))
    }

    @Test func rulesFilesRefuseAnchorsAndAliases() {
        let read = YAMLEventCursor.read(Array("a: &x 1\nb: *x\n".utf8), file: "r.yaml") { cursor -> [Diagnostic] in
            while cursor.next() != nil {}
            return cursor.diagnostics
        }
        #expect(read.map(\.rule) == ["yaml/alias", "yaml/alias"])
        #expect(read.first?.message.contains("defaults") == true)
    }

    @Test func explicitTagsAreRejected() {
        let doc = read("a: !!str 1\nb: !custom x\n")
        #expect(doc.diagnostics.map(\.rule) == ["yaml/tag", "yaml/tag"])
        #expect(doc.diagnostics[0].message.contains("!!str"))
    }

    /// Nested aliases ("a billion laughs": 10^10 nodes) bring in at most ``YAMLReader/maxAliasedNodes`` nodes, and the
    /// first alias past the bound is the one finding.
    @Test func aliasBombIsBounded() throws {
        var text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for i in 1...9 {
            let items = Array(repeating: "*\(i == 1 ? "a" : "a\(i - 1)")", count: 10).joined(separator: ", ")
            text += "a\(i): &a\(i) [\(items)]\n"
        }
        let doc = read(text)
        #expect(doc.diagnostics.map(\.rule) == ["yaml/alias"])
        #expect(doc.diagnostics.first?.range.start.line == 5, "a4 is the first level past 100,000 nodes")
        func count(_ node: YAMLNode) -> Int {
            1 + (node.items ?? []).reduce(0) { $0 + count($1) } + (node.pairs ?? []).reduce(0) { $0 + count($1.key) + count($1.value) }
        }
        let root = try #require(doc.root)
        #expect(count(root) <= YAMLReader.maxAliasedNodes + text.utf8.count)
    }

    /// A long text counts by its length: 3,000 aliases of a text of 8 MB ran for over 30 s, each copy read in full.
    @Test func aliasesOfALongTextAreBoundedByItsLength() {
        // 8,000 bytes count 126: the 794th alias is past 100,000.
        let text = "a: &p " + String(repeating: "x", count: 8000) + "\nb: [" + Array(repeating: "*p", count: 1000).joined(separator: ", ") + "]\n"
        let doc = read(text)
        #expect(doc.diagnostics.map(\.rule) == ["yaml/alias"])
        #expect(doc.root?.pairs?.last?.value.items?.filter { $0.scalar?.value.isEmpty == false }.count == 793)
    }

    @Test func deepNestingStopsAtTheLimit() throws {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let doc = read(text)
        let d = try #require(doc.diagnostics.first)
        #expect(d.rule == "yaml/syntax")
        #expect(d.message.contains("deeper than 100"))
        #expect(d.range.start == SourcePosition(line: 1, column: 101))
    }

    /// libyaml compares each `%TAG` directive with every earlier one (100,000 ran for minutes): past 100 the file is
    /// refused before libyaml reads it, at the first one past the bound; 100 are read as before. A `%TAG` inside a
    /// line is no directive, and does not count.
    @Test func manyTagDirectivesAreRefusedBeforeLibyaml() throws {
        func text(_ count: Int, lineBreak: String = "\n") -> String {
            (0..<count).map { "%TAG !t\($0)! tag:x,2000:" + lineBreak }.joined() + "---" + lineBreak + "a: 1" + lineBreak
        }
        let many = read(text(100_000))
        let d = try #require(many.diagnostics.first)
        #expect(many.diagnostics.count == 1 && d.rule == "yaml/syntax" && d.message.contains("more than 100 %TAG directives"), "\(many.diagnostics)")
        #expect(d.range.start == SourcePosition(line: 101, column: 1))
        #expect(read(text(101, lineBreak: "\r\n")).diagnostics.first?.range.start == SourcePosition(line: 101, column: 1))
        #expect(read(text(101, lineBreak: "\r")).diagnostics.first?.range.start == SourcePosition(line: 101, column: 1))
        // The first directive after a byte-order mark counts too.
        #expect(read("\u{FEFF}" + text(101)).diagnostics.first?.range.start == SourcePosition(line: 101, column: 1))
        let hundred = read(text(100))
        #expect(hundred.diagnostics.isEmpty, "\(hundred.diagnostics)")
        #expect(hundred.root?.pairs?.first?.value.scalar?.value == "1")
        #expect(read("a: \"" + String(repeating: " %TAG", count: 200) + "\"\n").diagnostics.isEmpty)
    }

    /// Findings sorted for display keep the order of those that tie and drop exact repeats, in a run of ties of any
    /// length (past 16 they are told apart by message, not each compared with all the others).
    @Test(arguments: [5, 40, 3_000])
    func sortingForDisplayDropsRepeatsAmongTies(count: Int) {
        let place = SourceRange(at: SourcePosition(line: 2, column: 1))
        func finding(_ i: Int, severity: Severity = .warning) -> Diagnostic {
            Diagnostic(severity, rule: "model/unused-placement", message: "placement p\(i)", file: "m.yaml", range: place)
        }
        let earlier = Diagnostic(.error, rule: "schema/type", message: "x", file: "m.yaml", range: SourceRange(at: SourcePosition(line: 1, column: 9)))
        let input = (0..<count).map { finding($0) } + [earlier] + (0..<count).reversed().map { finding($0) } + [finding(0, severity: .error)]
        let shown = input.sortedForDisplay()
        #expect(shown.count == count + 2)
        #expect(shown.first == earlier)
        #expect(Array(shown.dropFirst().prefix(count)) == (0..<count).map { finding($0) })
        #expect(shown.last == finding(0, severity: .error))
    }

    @Test func invalidUTF8IsReportedWithItsPosition() throws {
        var bytes = Array("a: 1\nb: é".utf8)
        bytes.append(0xFF)
        let doc = YAMLReader.read(bytes, file: "t.yaml")
        let d = try #require(doc.diagnostics.first)
        #expect(d.message.contains("UTF-8"))
        #expect(d.range.start == SourcePosition(line: 2, column: 5))
    }

    /// cli.md: a `yaml/syntax` error has libyaml's problem text. The file is checked for UTF-8 before libyaml reads it
    /// (for the character's position), and the message names the problem as libyaml's reader does.
    @Test(arguments: [
        ([0xFF], "invalid leading UTF-8 octet"),
        ([0xC3, 0x41], "invalid trailing UTF-8 octet"),
        ([0xC0, 0xAF], "invalid length of a UTF-8 sequence"),
        ([0xED, 0xA0, 0x80], "invalid Unicode character"),
        ([0xF5, 0x80, 0x80, 0x80], "invalid Unicode character"),
        ([0xE2, 0x82], "incomplete UTF-8 octet sequence"),
    ] as [([UInt8], String)])
    func invalidUTF8HasLibyamlsProblemText(_ sequence: [UInt8], _ problem: String) throws {
        let doc = YAMLReader.read(Array("a: é\nb: ".utf8) + sequence, file: "t.yaml")
        let d = try #require(doc.diagnostics.first)
        #expect(d.rule == "yaml/syntax")
        #expect(d.message.hasPrefix(problem + ":") && d.message.contains("save it as UTF-8"), "\(d.message)")
        #expect(d.range.start == SourcePosition(line: 2, column: 4))
    }

    /// NEL, LS and PS are line breaks to YAML and invisible in editors: text after one in a comment would be a
    /// setting no reviewer sees, at a line the editor does not have. The file is refused at the character.
    @Test(arguments: ["\u{85}", "\u{2028}", "\u{2029}"])
    func hiddenLineBreaksAreRefused(_ lineBreak: String) throws {
        let doc = YAMLReader.read(Array("a: 1\r\nb: 2  # six a day\(lineBreak)    c: 3\n".utf8), file: "t.yaml")
        let d = try #require(doc.diagnostics.first)
        #expect(d.rule == "yaml/syntax")
        #expect(d.message.contains("editors and diffs do not show") && d.message.contains("write a newline"), "\(d.message)")
        #expect(d.range.start == SourcePosition(line: 2, column: 18))
        #expect(doc.root == nil)
        #expect(YAMLReader.read(Array("a: \"\\u2028 escaped is fine\"\n".utf8), file: "t.yaml").diagnostics.isEmpty)
    }

    @Test func oversizedFilesAreRefused() {
        let bytes = [UInt8](repeating: 0x20, count: YAMLReader.maxBytes + 1)
        let doc = YAMLReader.read(bytes, file: "big.yaml")
        #expect(doc.diagnostics.first?.message.contains("16 MiB") == true)
        #expect(doc.root == nil)
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let doc = read("名前: 日本語のテキスト\nx: [1, 2\n")
        let d = try #require(doc.diagnostics.first)
        #expect(d.range.start.line == 3 || d.range.start.line == 2)
        let ok = read("名前: 日本語\nx: 'y'\n")
        let pairs = try #require(ok.root?.pairs)
        #expect(pairs[0].value.range.start == SourcePosition(line: 1, column: 5))
        #expect(pairs[0].value.range.end == SourcePosition(line: 1, column: 8))
    }

    @Test func emptyFileHasNoRoot() {
        let doc = read("")
        #expect(doc.root == nil)
        #expect(doc.diagnostics.isEmpty)
        let comments = read("# only a comment\n")
        #expect(comments.root == nil)
    }

    /// A file over the size limit is told what to do by its kind: a model is not split into files.
    @Test func aTooLargeFileIsToldWhatToDoByItsKind() {
        let bytes = [UInt8](repeating: 0x20, count: YAMLReader.maxBytes + 1)
        func message(_ file: String) -> String { YAMLReader.read(bytes, file: file).diagnostics.first?.message ?? "" }
        #expect(message("u.model.yaml").contains("the most a usage model may hold"))
        #expect(message("s.test.yaml").contains("split its tests into several scenario files"))
        #expect(message("p.yaml").contains("split it into several files in one directory"))
    }
}

/// Two keys that differ only in how an accented letter is encoded (`é` as one character, `e` and a combining accent)
/// are one key as text and look alike: the message said `key "café" is repeated`, naming one spelling for both. It now
/// spells each, as the policy walk does for two such file names.
@Suite("YAML reader: keys that differ only in normalization")
struct NormalizationKeyTests {
    @Test func keysThatDifferOnlyInNormalizationAreSpelledOut() throws {
        let document = YAMLReader.read("caf\u{E9}: 1\ncafe\u{301}: 2\nplain: 1\nplain: 2\n", file: "t.yaml")
        let messages = document.diagnostics.map(\.message)
        #expect(messages.count == 2, "\(messages)")
        #expect(messages.first?.contains("(the two differ only in how their accented letters are encoded, Unicode normalization: caf\\u{E9} and cafe\\u{301}, which adrules cannot tell apart)") == true, "\(messages)")
        #expect(messages.last == "key \"plain\" is repeated in this mapping: keep one of them", "\(messages)")
        // The note at the first key quotes it as written there, not the second's spelling.
        let notes = document.diagnostics.first?.notes.map(\.message) ?? []
        #expect(notes == ["\"caf\u{E9}\" is first defined here"] && notes.first?.utf8.elementsEqual("\"caf\u{E9}\" is first defined here".utf8) == true, "\(notes)")
    }

    /// Past 16 keys a mapping's keys are indexed: the first spelling is still the one named.
    @Test func theFirstSpellingIsNamedInALongMapping() {
        let others = (0..<20).map { "k\($0): 1\n" }.joined()
        let document = YAMLReader.read(others + "caf\u{E9}: 1\n" + "cafe\u{301}: 2\n", file: "t.yaml")
        let messages = document.diagnostics.map(\.message)
        #expect(messages.count == 1 && messages[0].contains("caf\\u{E9} and cafe\\u{301}"), "\(messages)")
    }

    /// A mapping of many keys, each then repeated, is read in linear time: looking the first spelling up among the keys
    /// took 100 seconds for a 1 MB file of 40,000 keys repeated at the end.
    @Test(.timeLimit(.minutes(1))) func manyRepeatedKeysAreNotQuadratic() {
        let count = 40_000
        var text = ""
        for i in 0..<count { text += "p\(i): 0\n" }
        for _ in 0..<count { text += "p\(count - 1): 0\n" }
        let document = YAMLReader.read(text, file: "t.yaml")
        #expect(document.diagnostics.first?.rule == "yaml/duplicate-key")
    }
}
