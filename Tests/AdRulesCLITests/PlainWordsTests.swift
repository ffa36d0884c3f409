import AdRules
import AdRulesCLI
import AdRulesCompiler
import AdRulesTestSupport
import AdRulesYAML
import Foundation
import Testing

/// Diagnostics and command-line answers a product manager can act on (cli.md, revision 2).
@Suite("Plain words")
struct PlainWordsTests {
    func scratch(_ files: [String: String]) throws -> String {
        let dir = scratchPath("adrules-words")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8) }
        return dir
    }

    /// At libyaml's position with its problem text (cli.md's yaml/syntax), and in plain words (r2).
    @Test func aTabSaysTabAndIndentWithSpaces() {
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n\tformat: banner\n")]).diagnostics
        #expect(diagnostics.count == 1, "no follow-on finding such as policy/empty: \(diagnostics)")
        #expect(diagnostics.first?.message == "YAML syntax error: while scanning for the next token: found character that cannot start any token; "
            + "a tab is used for indentation here, which YAML does not allow: indent with spaces")
        #expect(diagnostics.first?.range.start == SourcePosition(line: 4, column: 1))
    }

    /// No-break spaces (U+00A0) pasted from a document as indentation are named where they are: at the line libyaml
    /// trips over after them, or in a key they became part of.
    @Test func noBreakSpacesAsIndentationAreNamed() {
        let mixed = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: interstitial\n  \u{00A0} min_interval: 1m\n    daily_cap: 3\n")]).diagnostics
        #expect(mixed.map(\.rule) == ["yaml/syntax"], "\(mixed)")
        #expect(mixed.first?.range.start == SourcePosition(line: 6, column: 14), "at libyaml's position")
        #expect(mixed.first?.message.contains("; line 5 is indented with a no-break space (U+00A0") == true, "\(mixed)")
        #expect(mixed.first?.notes.map(\.position) == [SourcePosition(line: 5, column: 3)], "\(mixed)")
        let only = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: interstitial\n\u{00A0}\u{00A0}\u{00A0}\u{00A0}min_interval: 1m\n")]).diagnostics
        #expect(only.map(\.message) == [
            "key \"min_interval\" is indented with no-break spaces (U+00A0, as text pasted from a document holds), which YAML reads as part of the key, "
                + "not as indentation, so it stands at the top level as an unknown key: indent it with ordinary spaces, lined up with the keys beside it",
        ], "\(only)")
        // The placement it was meant for is not also told it has no pacing (`pacing/missing`), as after a merge key.
        #expect(!only.contains { $0.rule == "pacing/missing" }, "\(only)")
        // Every setting of a placement so indented: the placement, left with no value, is not also told it must be a
        // mapping, not nothing; it is when a key with spaces stands between them.
        let settings = "\u{00A0}\u{00A0}\u{00A0}\u{00A0}format: interstitial\n\u{00A0}\u{00A0}\u{00A0}\u{00A0}min_interval: 1m\n"
        let allOfThem = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n\n  # pasted\n" + settings)]).diagnostics
        #expect(allOfThem.map(\.rule) == ["schema/unknown-key", "schema/unknown-key"], "\(allOfThem)")
        let between = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\ntimezone: UTC\n" + settings)]).diagnostics
        #expect(between.map(\.rule) == ["schema/type", "schema/unknown-key", "schema/unknown-key"], "\(between)")
        // A key so indented is an error of its own: its block is not also told it lacks the key.
        let format = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    \u{00A0}format: interstitial\n    min_interval: 1m\n")]).diagnostics
        #expect(format.map(\.rule) == ["schema/unknown-key"], "\(format)")
        // At the level of the placement ids, a setting or a placement so indented is one finding, not an invalid id; the
        // placement is read under the id meant, so that nothing naming it (or the policy's only placement) is a finding.
        let groupAndRule = "groups:\n  g: {placements: [a, b]}\nrules:\n  - {id: r, deny: [b], when: premium}\n"
        for (entry, name) in [("1️⃣\u{00A0}\u{00A0}min_interval: 3m\n", "min_interval"), ("1️⃣\u{00A0}\u{00A0}b:\n    format: interstitial\n    daily_cap: 3\n" + groupAndRule, "b")] {
            let marked = MarkedText("version: 1\nplacements:\n  a:\n    format: interstitial\n    daily_cap: 3\n  " + entry)
            let found = PolicyLoader.load(texts: [("p.yaml", marked.text)]).diagnostics
            #expect(found.map(\.message) == ["key \"\(name)\" is indented with no-break spaces (U+00A0, as text pasted from a document holds), which YAML reads as part of the key, not as indentation, so it stands in placements as an unknown key: indent it with ordinary spaces, lined up with the keys beside it"], "\(found)")
            #expect(found.first?.range.start == marked.markers["1️⃣"])
        }
        let alone = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  \u{00A0}\u{00A0}b: {format: banner}\n")]).diagnostics
        #expect(alone.map(\.rule) == ["schema/unknown-key"], "\(alone)")
        // With no settings, it is the placement with no settings it would be with spaces, and named so.
        let empty = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner}\n  \u{00A0}\u{00A0}b:\ngroups:\n  g: {placements: [b]}\n")]).diagnostics
        #expect(empty.map(\.rule).sorted() == ["schema/type", "schema/unknown-key"], "\(empty)")
        // A no-break space typed inside quotes is part of the key the writer meant: an unknown key, or an invalid id.
        let quotedKey = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: banner\n    \"\u{00A0}daily_cap\": 3\n")]).diagnostics
        #expect(quotedKey.map(\.rule) == ["schema/unknown-key"] && quotedKey.first?.message.contains("indented") == false, "\(quotedKey)")
        let quoted = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  \"\u{00A0}b\": {format: banner}\n")]).diagnostics
        #expect(quoted.map(\.rule) == ["schema/range"], "\(quoted)")
        // A comment, a line of nothing but them, or an explicit key so indented: YAML reads them as the start of a value, and
        // libyaml finds no colon after it. They are named, not taken for a key with no colon.
        let nbsp = "\u{00A0}\u{00A0}\u{00A0}\u{00A0}"
        for line in [nbsp + "# pasted note\n", nbsp + "\n    daily_cap: 3\n", nbsp + "? daily_cap\n" + nbsp + ": 3\n"] {
            let found = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: interstitial\n    min_interval: 4m\n" + line)]).diagnostics
            #expect(found.map(\.rule) == ["yaml/syntax"], "\(found)")
            #expect(found.first?.message.contains("; line 6 is indented with a no-break space (U+00A0") == true, "\(found)")
            #expect(found.first?.notes.map(\.position) == [SourcePosition(line: 6, column: 1)], "\(found)")
        }
        // One that starts a line of a block value is text, not indentation: the error after it is libyaml's own.
        for line in ["      \u{00A0} text\n", "      \u{00A0}\n", "      \u{00A0} # text\n"] {
            let block = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: interstitial\n    ad_unit: |\n      line one\n" + line + "    daily_cap: 3: 4\n")]).diagnostics
            #expect(block.first?.message.hasSuffix("a value that holds \": \" must be quoted: write daily_cap: \"3: 4\"") == true, "\(block)")
        }
    }

    /// Other characters that look like a space, or like nothing (an ideographic space typed with a Japanese or Chinese
    /// input method, a figure space, a zero width space from a web page), are named where they indent a key or a comment,
    /// by code point, as no-break spaces are. Before, the key was "unknown key \"\u{3000}\u{3000}min_interval\"" with the
    /// top level's keys, and the comment "a key needs a colon".
    @Test(arguments: ["\u{3000}", "\u{2007}", "\u{200B}", "\u{202F}"]) func otherPastedSpacesAreNamed(_ space: String) throws {
        let code = CodePoints.codePoint(try #require(space.unicodeScalars.first))
        let head = "version: 1\nplacements:\n  a:\n    format: interstitial\n    min_interval: 4m\n"
        let key = PolicyLoader.load(texts: [("p.yaml", head + space + space + "daily_cap: 3\n")]).diagnostics
        #expect(key.map(\.rule) == ["schema/unknown-key"], "\(key)")
        #expect(key.first?.message.hasPrefix("key \"daily_cap\" is indented with \(code) (") == true, "\(key)")
        let comment = PolicyLoader.load(texts: [("p.yaml", head + space + space + "# pasted note\n")]).diagnostics
        #expect(comment.map(\.rule) == ["yaml/syntax"], "\(comment)")
        #expect(comment.first?.message.contains("; line 6 is indented with \(code) (") == true, "\(comment)")
        #expect(comment.first?.notes.map(\.message) == ["the \(code) is here"], "\(comment)")
    }

    /// Syntax errors whose cause lies before where libyaml trips stay at libyaml's position (1️⃣, cli.md), and name the
    /// cause in plain words, with a note at it (2️⃣): the markers of a git merge conflict, a quote left open that a later
    /// `"*"` closed, a key glued to its value on the line above (or above blank lines and comments), no-break spaces
    /// above a blank line, and an indented first key. Each was told with advice that did not apply.
    @Test(arguments: [
        ("version: 1\nplacements:\n  a:\n    format: banner\n2️⃣<<<<<<< HEAD\n    daily_cap1️⃣: 3\n=======\n    daily_cap: 4\n>>>>>>> feature\n",
         "<<<<<<< HEAD on line 5 is a git merge-conflict marker: the file holds both sides of a merge. Keep the lines you want, then remove the <<<<<<<, ======= and >>>>>>> lines"),
        ("2️⃣<<<<<<< HEAD\r\nversion1️⃣: 1\r\n=======\r\nversion: 1\r\n>>>>>>> other\r\nplacements:\r\n  a: {format: banner}\r\n",
         "<<<<<<< HEAD on line 1 is a git merge-conflict marker"),
        // A byte-order mark opening the file is no column: the key is at 1:1.
        ("2️⃣\u{FEFF}version:1\nplacements1️⃣:\n  a: {format: banner}\n", "on line 1, a key needs a space after its colon: write version: 1"),
        ("version: 1\nplacements:\n  a:\n    format: banner\nrules:\n  - 2️⃣id:a\n    deny1️⃣: \"*\"\n    when: premium\n",
         "on line 6, a key needs a space after its colon: write id: a"),
        ("version: 2️⃣\"1\nplacements:\n  a: {format: banner}\nrules:\n  - id: r\n    deny: \"*1️⃣\"\n    when: premium\n",
         "the quoted value opened at line 1, column 10 is not closed on its line, so it runs on to the quote at line 6, column 11, and what follows that quote is read as YAML: close the value with its quote on its line"),
        ("2️⃣version:1\nplacements1️⃣:\n  a: {format: banner}\n", "on line 1, a key needs a space after its colon: write version: 1"),
        ("version: 1\nplacements:\n  a:\n    format: banner\n    2️⃣ad_unit:abc\n\n    1️⃣# the unit\n    daily_cap: 3\n",
         "on line 5, a key needs a space after its colon: write ad_unit: abc"),
        ("version: 1\nplacements:\n  a:\n    format: banner\n2️⃣\u{00A0}\u{00A0}\u{00A0}\u{00A0}daily_cap: 3\n\n    hourly_cap1️⃣: 1\n",
         "line 5 is indented with a no-break space (U+00A0"),
        // No-break spaces and spaces in turn, then a comment above the next key: libyaml expected a key at the top.
        ("version: 1\nplacements:\n  a:\n    format: banner\n2️⃣\u{00A0} \u{00A0} \u{00A0} \u{00A0} daily_cap: 3\n\n    # expiry\n    1️⃣max_ad_age: 4h\n",
         "line 5 is indented with a no-break space (U+00A0"),
        ("  2️⃣version: 1\n1️⃣placements:\n  a: {format: banner}\n",
         "the first key of the file, version on line 1, is indented, and a key at the top of a file starts in the first column: remove the spaces before version"),
        ("  2️⃣\"version\": 1\n1️⃣placements:\t\n  a: {format: banner}\n", "remove the spaces before version"),
        ("2️⃣\u{FEFF}<<<<<<< HEAD\nversion1️⃣: 1\n=======\nversion: 1\n>>>>>>> other\nplacements:\n  a: {format: banner}\n",
         "<<<<<<< HEAD on line 1 is a git merge-conflict marker"),
        // A key with no colon, the first of its block: libyaml trips over the key below it.
        ("2️⃣version 1\nplacements1️⃣:\n  a: {format: banner}\n", "on line 1, a key needs a colon and a space before its value: write version: 1"),
        ("version: 1\nplacements:\n  a:\n    2️⃣format interstitial\n    min_interval1️⃣: 1m\n",
         "on line 4, a key needs a colon and a space before its value: write format: interstitial"),
        ("version: 1\nplacements:\n  a:\n    format: banner\n\n    2️⃣min_interval 1m\n1️⃣",
         "on line 6, a key needs a colon and a space before its value: write min_interval: 1m"),
        // A glued key, then a comment, which ends its value: libyaml trips over the next key, at the top or in a block.
        ("2️⃣version:1\n\n# the policy\n1️⃣placements:\n  a: {format: banner}\n", "on line 1, a key needs a space after its colon: write version: 1"),
        ("version: 1\nplacements:\n  a:\n    2️⃣format:banner\n    # pacing\n    1️⃣daily_cap: 3\n", "on line 4, a key needs a space after its colon: write format: banner"),
        // A byte-order mark opening the file is no part of the key.
        ("2️⃣\u{FEFF}version 1\nplacements1️⃣:\n  a: {format: banner}\n", "on line 1, a key needs a colon and a space before its value: write version: 1"),
        // A key that left its block, or did not enter it, above the line libyaml refused: that key is what to indent.
        ("version: 1\nplacements:\n  a:\n    format: banner\n    min_interval: 4m\n  2️⃣daily_cap: 6\n    max_ad_age1️⃣: 4h\n",
         "daily_cap on line 6 is indented 2 spaces, less than the keys beside it (min_interval above it and max_ad_age below, at 4): indent it 4 spaces"),
        ("version: 1\nplacements:\n  a:\n    format: banner\n    min_interval: 4m\n  2️⃣daily_cap: 6\n\n    # expiry\n    1️⃣max_ad_age: 4h\n",
         "daily_cap on line 6 is indented 2 spaces, less than the keys beside it (min_interval above it and max_ad_age below, at 4)"),
        ("version: 1\nplacements:\n  a:\n  2️⃣format: banner\n    daily_cap1️⃣: 6\n",
         "format on line 4 is indented 2 spaces, less than daily_cap below it (4), and a above it holds a block: indent it 4 spaces, under a"),
        // A list item written with a word processor's dash: the dash is text, and the item's first `: ` a key's.
        ("version: 1\nplacements:\n  a:\n    format: banner\n    caps:\n      \u{2013} {max: 3, window1️⃣: 30m}\n",
         "this line starts with an en dash (U+2013, as a word processor writes a list), which YAML reads as text: a list item starts with a plain hyphen: write - {max: 3, window: 30m}"),
        // Its block form: the dash's line is named, with a note at it; a dash that starts a line of a text is text.
        ("version: 1\nplacements:\n  a:\n    format: banner\n    caps:\n      2️⃣\u{2013} max: 3\n        window1️⃣: 1h\n",
         "line 6 starts with an en dash (U+2013, as a word processor writes a list), which YAML reads as text: a list item starts with a plain hyphen: write - max: 3"),
        // A dash that starts a value of its own (`– abc`, no key in it) is a value YAML reads: the line below is to blame.
        ("version: 1\nplacements:\n  a:\n    format: banner\n    ad_unit:\n      \u{2013} abc\n   1️⃣daily_cap: 3\n",
         "daily_cap is indented 3 spaces, which lines it up with no key above it: indent it 4 spaces, as ad_unit on line 5, or 2 spaces, as a on line 3"),
        // A key after a tab is a key too; a quoted text or a comment holding `: ` is none.
        ("version: 1\nplacements:\n  a:\n    format: banner\n    caps:\n      2️⃣\u{2013} max:\t3\n        window1️⃣: 1h\n",
         "line 6 starts with an en dash (U+2013, as a word processor writes a list), which YAML reads as text: a list item starts with a plain hyphen: write - max:\t3"),
        ("version: 1\nplacements:\n  a:\n    format: banner\n    ad_unit:\n      \u{2013} \"a: b\"\n   1️⃣daily_cap: 3\n",
         "daily_cap is indented 3 spaces, which lines it up with no key above it"),
        ("version: 1\nplacements:\n  a:\n    format: banner\n    ad_unit:\n      \u{2013} abc # note: x\n   1️⃣daily_cap: 3\n",
         "daily_cap is indented 3 spaces, which lines it up with no key above it"),
        // A key indented under its block's key is in the block: the key below, one space deeper, is what to move.
        ("version: 1\nplacements:\n  a:\n    format: app_open\n    resume:\n      show_if_ready: true\n       allow_deferred1️⃣: false\n      max_delay: 3s\n",
         "allow_deferred is indented 7 spaces, more than show_if_ready on line 6 (6), whose value is on its line, so it cannot hold keys: line the two up"),
        ("version: 1\nplacements:\n  a:\n     2️⃣format: banner\n    1️⃣daily_cap: 6\n",
         "format on line 4 is indented 5 spaces, more than daily_cap below it (4), and the keys of a's block share one indentation: indent it 4 spaces"),
        // A directive or a tag libyaml stops in names either in its problem or in what it was reading: both are removed.
        ("%YAML 1.11️⃣x\n---\nversion: 1\n", "remove it: rule files hold plain keys and values, with no directives or tags"),
        ("version: 1\nplacements:\n  a: !<1️⃣%FF> {format: banner}\n", "remove it: rule files hold plain keys and values, with no directives or tags"),
        // A condition's list inside { }: a value that is not quoted ends at its bracket; quoted whole, in the quotes it does not hold.
        ("version: 1\nattributes:\n  level: int\nplacements:\n  a: {format: banner}\nrules:\n  - {id: r, deny: [a], when: level in 1️⃣[1, 2]}\n",
         "inside { } a value that is not quoted ends at a bracket or a comma: quote the value, as in when: 'level in [1, 2]'"),
        ("version: 1\nattributes:\n  screen: string\nplacements:\n  a: {format: banner}\nrules:\n  - {id: r, when: screen in 1️⃣[\"a\", \"b\"], deny: [a]}\n",
         "quote the value, as in when: 'screen in [\"a\", \"b\"]'"),
        // The first key on the file's step (2: `a:` at 2 under `placements:`), the next one space less: the next is to move.
        ("version: 1\nplacements:\n  a:\n    format: banner\n   1️⃣daily_cap: 6\n",
         "daily_cap is indented 3 spaces, less than format above it on line 4 (4), and the keys of a's block share one indentation: indent it 4 spaces"),
        // Off the step both (5 and 3, in steps of 2): the first is named, as above.
        ("version: 1\nplacements:\n  a:\n     2️⃣format: banner\n   1️⃣daily_cap: 6\n",
         "format on line 4 is indented 5 spaces, more than daily_cap below it (3), and the keys of a's block share one indentation: indent it 3 spaces"),
        // The key of a block with no colon runs on into the block's first line.
        ("version: 1\nplacements:\n  2️⃣a\n    format1️⃣: banner\n", "on line 3, the key a holds the block below it and needs a colon: write a:"),
        // A comment above holds no value, whatever `: ` its text has.
        ("# The app-open ad: shown at a cold start\n2️⃣version 1\n\nplacements1️⃣:\n  a: {format: banner}\n",
         "on line 2, a key needs a colon and a space before its value: write version: 1"),
        ("version: 1\nplacements:\n  a:\n    format: banner\n    # Pacing: at most one\n    2️⃣min_interval 4m\n    1️⃣daily_cap: 6\n",
         "on line 6, a key needs a colon and a space before its value: write min_interval: 4m"),
        // Two words under a plain value, lined up with its key: a wrapped value, or a key with no colon.
        ("version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - id: r\n    deny: [a]\n    message: Never interrupt a\n    2️⃣purchase flow\n    1️⃣when: premium\n",
         "on line 8, purchase flow is read as a key with no colon: if it continues the value of message above, indent it more than message (or write the value on one line); if it is a setting, write purchase: flow"),
        // A key of a list item under its `-`, or between the `-` and the item's first key: indent it under that key.
        ("version: 1\nplacements:\n  a:\n    format: banner\n    caps:\n      - max: 3\n      1️⃣window: 30m\n",
         "window is indented 6 spaces, under the - of the list item on line 6, and a list item's keys line up under its first key, max: indent it 8 spaces, as max is (or write - window: … to start another item)"),
        ("version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - id: r\n    deny: [a]\n   1️⃣when: premium\n",
         "when is indented 3 spaces, between the - of the list item on line 5 and its first key, and a list item's keys line up under its first key, id: indent it 4 spaces, as id is"),
        // One space deeper than a list item's first key, whose value is on its line.
        ("version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - id: r\n     deny1️⃣: [a]\n    when: premium\n",
         "deny is indented 5 spaces, more than id on line 5 (4), whose value is on its line, so it cannot hold keys: line the two up"),
    ])
    func aSyntaxErrorIsNamedAtLibyamlsPositionWithANoteAtItsCause(_ text: String, _ message: String) {
        expectOneSyntaxError(text, message)
    }

    /// What those causes are not: a `=======` line inside a quoted value with another error below, a colon glued in a
    /// list value or a block scalar above a value holding ": ", a no-break space lines above another mistake, and an
    /// indented first key followed by a `...` line, keep the advice of their own error, at it.
    @Test(arguments: [
        ("version: 1\nplacements:\n  home:\n    format: banner\nrules:\n  - id: a\n    deny: [home]\n    when: premium\n    message: \"Title\n=======\nbody\"\n  - id: b\n    deny: [home]\n    when: premium\n    message: [unclosed\n1️⃣",
         "close the [ ] list with ]"),
        ("version: 1\nplacements:\n  home:\n    format: banner\nrules:\n  - id: a\n    deny:\n      - home\n      - mailto:x\n    when: premium1️⃣: true\n",
         "a condition compares with ==, not a colon: write when: premium == true"),
        ("version: 1\nplacements:\n  home:\n    format: banner\nrules:\n  - id: a\n    deny: [home]\n    message: |\n      Contact:support@x.com\n    when: a b1️⃣: c\n",
         "a value that holds \": \" must be quoted"),
        ("\u{00A0}a: 1\n\n\nb: 21️⃣: 3\n", "a value that holds \": \" must be quoted"),
        ("version: 1\nplacements:\n  a:\n    format: banner\nrules:\n  - id: r\n    deny: [a]\n    message: >\n      \u{2013} no ads\n    when: a b1️⃣: c\n",
         "a value that holds \": \" must be quoted"),
        // A key in the first column, or one whose value is a { } mapping, may be where it belongs: the line below is told.
        ("version: 1\nplacements:\n  a:\n    format: banner\n    min_interval: 2m\ntimezone: UTC\n    daily_cap1️⃣: 3\n",
         "daily_cap is indented 4 spaces, more than timezone on line 6 (0)"),
        ("version: 1\nplacements:\n  a:\n    format: banner\n    min_interval: 2m\n  b: {format: banner}\n    1️⃣daily_cap: 3\n",
         "daily_cap is indented 4 spaces, which lines it up with no key above it"),
        ("  version: 1\n...\n1️⃣placements: {}\n", "this file is one document"),
        ("version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - id: r1\n    when: premium\n    message: |\n      Ads are off.\n      \u{00A0}\u{00A0}Tip: upgrade\n\n    1️⃣- deny: \"*\"\n",
         "a list item (-) sits among keys"),
        // A colon ending a value, and `=` for a key's colon (on its line, or on the line before libyaml's position).
        ("version: 1\nplacements:\n  a:\n    format: banner\n    daily_cap: 61️⃣:\n",
         "the colon after 6 makes it a key: remove it (daily_cap: 6), or, if the colon is part of a text, quote the value (daily_cap: \"6:\")"),
        ("version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - id: r\n    deny: [a]\n    when: premium\n    2️⃣message = No ads between 22:00 and 07:00\n1️⃣",
         "on line 8, a key takes a colon and a space, not =: write message: No ads between 22:00 and 07:00"),
        ("version: 1\nplacements:\n  a:\n    format = banner\n    daily_cap1️⃣: 3\n", "on line 4, a key takes a colon and a space, not =: write format: banner"),
        // A key lined up with no key above it is told the indentations it may take, each with a key that has it.
        ("version: 1\nplacements:\n  a:\n    format: banner\n    min_interval: 1m\n   1️⃣daily_cap: 6\n",
         "daily_cap is indented 3 spaces, which lines it up with no key above it: indent it 4 spaces, as min_interval on line 5, or 2 spaces, as a on line 3"),
        // A comment that lost its #: on its line, or before the key libyaml then refuses.
        ("version: 1\nplacements:\n  a:\n    format: banner\n    2️⃣At least 4 minutes between ads\n1️⃣",
         "line 5 is words with no key: if it is a comment, start it with # (# At least 4 minutes between ads)"),
        ("version: 1\nplacements:\n  a:\n    At least 4 minutes between ads\n    format1️⃣: banner\n",
         "line 4 is words with no key: if it is a comment, start it with # (# At least 4 minutes between ads)"),
        // A quote left open, closed by an apostrophe in a comment lines below.
        ("version: 1\nenvironment: 2️⃣'production\n\n# Caps reset at the user'1️⃣s midnight.\nplacements:\n  a: {format: banner}\n",
         "the quoted value opened at line 2, column 14 is not closed on its line, so it runs on to the quote at line 4, column 25"),
        // An apostrophe after a value quoted and closed on its line is no run-on quote.
        ("version: 1\nplacements:\n  a:\n    format: banner\n    ad_unit: 'abc'\n    the user's thing: more1️⃣: x\n",
         "a key's value cannot hold another key on the same line"),
    ])
    func aSyntaxErrorElsewhereKeepsItsOwnAdvice(_ text: String, _ message: String) {
        expectOneSyntaxError(text, message)
    }

    /// Expects one `yaml/syntax` finding of a rule file, holding `message`, at the file's 1️⃣ marker, and, when the
    /// text has a 2️⃣ marker, its first note there.
    func expectOneSyntaxError(_ text: String, _ message: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let marked = MarkedText(text)
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", marked.text)]).diagnostics
        #expect(diagnostics.map(\.rule) == ["yaml/syntax"], "\(diagnostics)", sourceLocation: sourceLocation)
        #expect(diagnostics.first?.message.contains(message) == true, "\(diagnostics)", sourceLocation: sourceLocation)
        #expect(diagnostics.first?.range.start == marked.markers["1️⃣"], "\(diagnostics)", sourceLocation: sourceLocation)
        if let cause = marked.markers["2️⃣"] {
            #expect(diagnostics.first?.notes.first?.position == cause, "\(diagnostics)", sourceLocation: sourceLocation)
        }
    }

    /// An operator of another language in a condition is underlined whole (`&&` two characters, not one), so that an
    /// editor's fix of the span leaves no `&` behind.
    @Test func anOperatorOfAnotherLanguageIsUnderlinedWhole() {
        for (condition, column) in [("premium || onboarding", 19), ("premium && onboarding", 19), ("level => 3", 17)] {
            let text = "version: 1\nattributes:\n  onboarding: bool\n  level: int\nplacements:\n  x: {format: banner}\nrules:\n  - id: r\n    deny: [x]\n    when: \(condition)\n"
            let found = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
            #expect(found.map(\.rule) == ["rule/syntax"], "\(found)")
            #expect(found.first?.range == SourceRange(start: SourcePosition(line: 10, column: column), end: SourcePosition(line: 10, column: column + 2)), "\(condition): \(found)")
        }
    }

    /// A value in typographic quotes (a word processor's “6”) is told that YAML keeps them, and the value to write,
    /// whatever the key expects: a number, a bool, a duration, a format, an id.
    @Test func typographicQuotesAroundAValueAreNamed() {
        let text = "version: 1\nplacements:\n  a: {format: “banner”, daily_cap: “6”, enabled: ‘true’, min_interval: “4m”}\nrules:\n  - {id: “quiet-hours”, deny: [a], when: premium}\n"
        let found = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics.map(\.message)
        #expect(found.count == 5, "\(found)")
        for (value, written) in [("banner", "“ ”"), ("6", "“ ”"), ("true", "‘ ’"), ("4m", "“ ”"), ("quiet-hours", "“ ”")] {
            #expect(found.contains { $0.hasSuffix(": it is written in typographic quotes (\(written)), which YAML keeps as part of the value: write \(value) without them (where a text needs quotes, type straight ones: \"\")") }, "\(value): \(found)")
        }
    }

    /// JSON's habits after a closed `{ }` in a block (a trailing comma, one `}` too many) are told to remove that
    /// character, at it, in rule files and scenario files alike.
    @Test func aCommaOrBracketAfterAClosedMappingIsToldToGo() throws {
        let rules = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m},\n  b: {format: banner}\n")]).diagnostics
        #expect(rules.map(\.message) == ["YAML syntax error: while parsing a block mapping: did not find expected key; remove this , after the { } mapping: items on lines of their own take no comma"])
        #expect(rules.first?.range.start == SourcePosition(line: 3, column: 46))
        // A comma with another item after it on its line: the item goes on a line of its own.
        let shared = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner}, b: {format: banner}\n")]).diagnostics
        #expect(shared.first?.message.hasSuffix("in a block each item stands on its own line, with no comma: put what follows this , on a line of its own") == true, "\(shared)")
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")
        let scenario = "tests:\n  - name: x\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {event: app_launched}\n      - {ask: load, placement: a, expect: allow}}\n"
        let found = ScenarioDecoder.decode(Array(scenario.utf8), file: "s.test.yaml", policy: policy).1
        #expect(found.map(\.message) == ["YAML syntax error: while parsing a block collection: did not find expected '-' indicator; remove this }: the { } mapping before it is already closed"])
    }

    @Test func aPlainAsteriskSaysToQuoteIt() {
        let text = "version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - id: r\n    deny: *\n    when: premium\n"
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        #expect(diagnostics.count == 1, "\(diagnostics)")
        // cli.md's rule table gives `deny: *` to yaml/alias; the read stops there, so nothing follows it.
        #expect(diagnostics.first?.rule == "yaml/alias")
        #expect(diagnostics.first?.message.contains(#"write "*""#) == true)
        #expect(diagnostics.first?.range.start == SourcePosition(line: 6, column: 11))
        // A plain `&` starts an anchor, not an alias, and is told so.
        let anchor = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner, ad_unit: &}\n")]).diagnostics
        #expect(anchor.map(\.message) == ["a plain & starts a YAML anchor: write the value in quotes if it is text"], "\(anchor)")
    }

    @Test func aSyntaxErrorHidesOnlyThatFilesOtherFindings() {
        let load = PolicyLoader.load(texts: [
            ("a.yaml", "version: 1\nplacements:\n  a: {format: interstitial}\n  b: [\n"),
            ("b.yaml", "version: 1\nplacements:\n  c: {format: banner, dayly_cap: 1}\n"),
        ])
        #expect(load.diagnostics.filter { $0.file == "a.yaml" }.map(\.rule) == ["yaml/syntax"])
        #expect(load.diagnostics.contains { $0.file == "b.yaml" && $0.rule == "schema/unknown-key" })
        #expect(!load.diagnostics.contains { $0.rule.hasPrefix("policy/") || $0.rule.hasPrefix("pacing/") })
    }

    /// What another file says about itself still stands after a syntax error elsewhere; what the unread file may have
    /// settled (a placement a rule names, `defaults:` pacing) is not reported.
    @Test func aSyntaxErrorElsewhereKeepsAFilesOwnFindings() {
        let load = PolicyLoader.load(texts: [
            ("a.yaml", "version: 1\nplacements:\n  a: {format: interstitial}\n  b: [\n"),
            ("b.yaml", "version: 1\ntimezone: Asia/Tokio\nplacements:\n  c: {format: interstitial, daily_cap: 0, launch: {max_wait: 5s}}\nrules:\n  - {id: r, deny: [a], when: premium}\n"),
        ])
        let rules = Set(load.diagnostics.filter { $0.file == "b.yaml" }.map(\.rule))
        #expect(rules == ["policy/timezone", "policy/format-key", "cap/zero"], "\(load.diagnostics)")
    }

    /// Common YAML slips keep libyaml's words and position, and add what to write instead.
    @Test(arguments: [
        ("    daily_cap:6\n    min_interval: 4m\n", "a key needs a space after its colon: write daily_cap: 6"),
        ("    min_interval: 1m\n    ad_unit: Note: no ads\n", "a value that holds \": \" must be quoted: write ad_unit: \"Note: no ads\""),
        ("    min_interval: 1m\n     daily_cap: 6\n", "daily_cap is indented 5 spaces, more than min_interval on line 5 (4), whose value is on its line, so it cannot hold keys: line the two up"),
        // A non-breaking space after the colon is named, and the advice has an ordinary one.
        ("    daily_cap:\u{A0}20\n    min_interval: 4m\n", "the space after the colon of daily_cap is a U+00A0 space, which YAML does not take for one: retype it as an ordinary space, as in daily_cap: 20"),
        // A setting written on its block's line is meant nested, not as a text in quotes.
        ("    min_interval: 1m\n    grace: first_sessions: 2\n", "a key's value cannot hold another key on the same line: write grace: {first_sessions: 2}, or first_sessions: 2 on the next line, indented under grace:"),
        // libyaml counts characters, not bytes: text before the slip that is not ASCII must not shift the advice.
        ("    # café café café 注意: 日\n    min_interval: 1m\n    ad_unit: Note: no ads\n", "must be quoted: write ad_unit: \"Note: no ads\""),
        ("    # ééééééééééééé\n    daily_cap:6\n    min_interval: 4m\n", "write daily_cap: 6"),
        ("    min_interval: 1m\n    ad_unit: \"x\" y\n", "a quoted value ends at its closing quote: quote the whole value, as in ad_unit: '\"x\" y'"),
        // The same quote inside a quoted value ended it: the value goes in the other quotes, without the outer ones.
        ("    min_interval: 1m\n    ad_unit: \"a \"b\" c\"\n", "this one holds \" inside: write it in single quotes, as in ad_unit: 'a \"b\" c'"),
        ("    min_interval: 1m\n    ad_unit: 'Don't stop'\n", "this one holds ' inside: write it in double quotes, as in ad_unit: \"Don't stop\""),
        // A condition written as a key, keys on one line without braces, and a list item's dash with no space.
        ("    min_interval: 1m\nrules:\n  - id: r\n    deny: [a]\n    when: screen: checkout\n", "a condition compares with ==, not a colon: write when: screen == \"checkout\""),
        ("    caps:\n      - max: 3, window: 30m\n", "keys written on one line, separated by commas, go in braces: write - {max: 3, window: 30m}"),
        ("    caps:\n      -{max: 3, window: 30m}\n", "a list item starts with - and a space: write - {max: 3, window: 30m}"),
        // What those advices are not: quoted words in a condition, a sentence with a comma and a colon, a condition of
        // more than one word, a dash in the text of a block value.
        ("    min_interval: 1m\nrules:\n  - id: r\n    deny: [a]\n    when: \"vip\" in tags and screen != \"home\"\n",
         "quote the whole value, as in when: '\"vip\" in tags and screen != \"home\"'"),
        ("    message: Sorry, note: ads keep it free\n", "a value that holds \": \" must be quoted: write message: \"Sorry, note: ads keep it free\""),
        ("    min_interval: 1m\nrules:\n  - id: r\n    deny: [a]\n    when: screen: checkout or premium\n", "write screen == … in place of screen: …, with a text in quotes"),
        ("    min_interval: 1m\nrules:\n  - id: r\n    deny: [a]\n    message: |\n      -no ads\n    when: screen: checkout\n", "write when: screen == \"checkout\""),
        ("    min_interval: 1m\nrules:\n  -id: r\n    deny: [a]\n", "on line 7, a list item starts with - and a space: write - id: r"),
        ("    min_interval: 1m\nrules:\n  - id: r\n    deny: [a]\n    when: premium\n  -id: s\n    deny: [a]\n", "a list item starts with - and a space: write - id: s"),
        // A value starting with a character YAML reserves is quoted under the key it was written for, as written (in
        // brackets up to the next comma, and never with its comment).
        ("    min_interval: 1m\n    ad_unit: @home banner # main\n", "quote the value, as in ad_unit: \"@home banner\""),
        ("    min_interval: 1m\n    ad_unit: `x`\n", "quote the value, as in ad_unit: \"`x`\""),
        ("    min_interval: 1m\n  b: {format: interstitial, ad_unit: @x, daily_cap: 3}\n", "quote the value, as in ad_unit: \"@x\""),
        // In brackets over several lines, a tab before the comment, a list item and a key are each quoted as what they are.
        ("    min_interval: 1m\n  b: {format: interstitial,\n     ad_unit: @x, min_interval: 1m}\n", "quote the value, as in ad_unit: \"@x\""),
        ("    min_interval: 1m\n    ad_unit: @x\t# a comment\n", "quote the value, as in ad_unit: \"@x\""),
        ("    min_interval: 1m\n  @b: {format: interstitial, min_interval: 1m}\n", "quote the key, as in \"@b\":"),
        ("    min_interval: 1m\ngroups:\n  g:\n    placements:\n      - @a\n", "quote the item, as in - \"@a\""),
        // A key followed by a tab, or holding a # that starts no comment, is still a key.
        ("    min_interval: 1m\n  @b#1: {format: banner}\n", "quote the key, as in \"@b#1\":"),
        ("    min_interval: 1m\n  @b:\t{format: banner}\n", "quote the key, as in \"@b\":"),
    ])
    func aCommonYAMLSlipSaysWhatToWrite(_ tail: String, _ advice: String) {
        let text = "version: 1\nplacements:\n  a:\n    format: interstitial\n" + tail
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        #expect(diagnostics.count == 1 && diagnostics[0].rule == "yaml/syntax", "\(diagnostics)")
        #expect(diagnostics.first?.message.hasPrefix("YAML syntax error: ") == true)
        #expect(diagnostics.first?.message.contains(advice) == true, "\(diagnostics)")
    }

    /// A block's only key written with a space YAML does not take for one after its colon (a no-break space, pasted from
    /// a document or a chat), or with a full-width colon (typed with an input method for Chinese or Japanese), is one
    /// text to YAML. The message quoted it, `not "format: banner"`, which looked right, and said to write `key: value`
    /// pairs; a key in braces was told to put a space after its colon, which it seemed to have. Each now names the
    /// character to retype, with ids, files and scenario steps alike.
    @Test(arguments: [
        ("placements:\n  a:\n    format:\u{A0}banner\n", "4:5", "placement \"a\" must be a mapping of keys to values, not \"format:\u{A0}banner\": the space after the colon of format is U+00A0 (no-break space), which YAML does not take for a space, so it reads the key and its value as one text: retype it as an ordinary space, as in format: banner"),
        ("placements:\n  a:\n    format:\u{3000}banner\n", "4:5", "the space after the colon of format is U+3000 (ideographic space), which YAML does not take for a space"),
        ("placements:\n  a:\n    format:banner\n", "4:5", "YAML reads a key only with a space after its colon, so format:banner is one text, not a key and its value: write format: banner"),
        ("placements:\n  a:\n    format\u{FF1A} banner\n", "4:5", "the colon after format is U+FF1A (full-width colon, as an input method for Chinese or Japanese types it), which YAML does not take for a colon, so it reads the key and its value as one text: type an ASCII colon and a space, as in format: banner"),
        ("placements:\n  a: {format:\u{A0}banner}\n", "3:7", "unknown key \"format:\u{A0}banner\" in placement \"a\": the space after the colon of format is U+00A0 (no-break space)"),
        ("placements:\n  a: {format\u{FF1A}banner}\n", "3:7", "unknown key \"format\u{FF1A}banner\" in placement \"a\": the colon after format is U+FF1A"),
        ("placements:\n  a:\n    format\u{FF1A}banner\n    daily_cap: 3\n", "5:14", "on line 4, the colon after format is U+FF1A (full-width colon, as an input method for Chinese or Japanese types it), which YAML does not take for a colon: type an ASCII colon and a space, as in format: banner"),
    ])
    func aSpaceOrColonYAMLDoesNotTakeIsNamed(_ tail: String, _ position: String, _ message: String) {
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", "version: 1\n" + tail)]).diagnostics
        // The full-width colon's key is read as the key it was meant to be: the placement is not also told it has no format.
        #expect(diagnostics.count == 1, "\(diagnostics)")
        #expect(diagnostics.first.map { "\($0.range.start.line):\($0.range.start.column)" } == position, "\(diagnostics)")
        #expect(diagnostics.first?.message.contains(message) == true, "\(diagnostics)")
    }

    /// An id that is not valid is told the first character it may not hold: a Cyrillic а, a zero width joiner or a
    /// no-break space prints as `a`, nothing or a space, and the message said only which characters an id takes.
    @Test(arguments: [
        ("placements:\n  \u{430}pp: {format: banner}\n", "placement id \"\u{430}pp\" is not valid: it holds U+0430 CYRILLIC SMALL LETTER A, which an id cannot hold: use 1-64 characters of a-z A-Z 0-9 _ - ."),
        ("placements:\n  a\u{200D}b: {format: banner}\n", "placement id \"a\u{200D}b\" is not valid: it holds U+200D (zero width joiner), which an id cannot hold"),
        ("placements:\n  \"a\u{A0}b\": {format: banner}\n", "it holds U+00A0 (no-break space), which an id cannot hold"),
        ("placements:\n  \"level end\": {format: banner}\n", "placement id \"level end\" is not valid: it holds a space, which an id cannot hold"),
        ("placements:\n  \"a/b\": {format: banner}\n", "it holds \"/\", which an id cannot hold"),
        ("placements:\n  " + String(repeating: "a", count: 65) + ": {format: banner}\n", "is not valid: it is 65 characters long: use 1-64 characters"),
        ("placements:\n  a: {format: banner}\nrules:\n  - {id: No-Ads, deny: \"*\", when: premium}\n", "rule id \"No-Ads\" is not valid: it holds the capital N, which an id cannot hold: use 1-64 characters of a-z 0-9 - _"),
    ])
    func anInvalidIDNamesTheCharacterItCannotHold(_ tail: String, _ message: String) {
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", "version: 1\n" + tail)]).diagnostics.filter { $0.rule == "schema/range" }
        #expect(diagnostics.count == 1 && diagnostics.first?.message.contains(message) == true, "\(diagnostics)")
    }

    /// An attribute name holding a letter outside ASCII (`café`, a Cyrillic е) was told to be "a letter or _, then
    /// letters, digits…", which it seemed to be: the character is named, and the letters are said to be ASCII ones.
    @Test(arguments: [
        ("caf\u{E9}", "attribute name \"caf\u{E9}\" is not valid: it holds U+00E9 LATIN SMALL LETTER E WITH ACUTE, which a name cannot hold: write an ASCII letter or _, then ASCII letters, digits, _ or . (not last)"),
        ("l\u{435}vel", "it holds U+0435 CYRILLIC SMALL LETTER IE, which a name cannot hold"),
        ("9lives", "it starts with \"9\", which a name cannot start with: write an ASCII letter or _"),
        ("\"a b\"", "it holds \" \", which a name cannot hold"),
    ])
    func anInvalidAttributeNameNamesTheCharacter(_ name: String, _ message: String) {
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner}\nattributes:\n  \(name): int\n")]).diagnostics
        #expect(diagnostics.count == 1 && diagnostics.first?.message.contains(message) == true, "\(diagnostics)")
    }

    /// A line of Chinese or Japanese prose holds full-width colons of its own (`注意：…`, a comment without its #): it is
    /// told to be a comment, not to retype its colon.
    @Test func proseWithAFullWidthColonIsNoKey() {
        let text = "version: 1\nplacements:\n  a:\n    format: banner\n    注意：これは説明です\n  b: {format: banner}\n"
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        #expect(diagnostics.count == 1 && diagnostics.first?.rule == "yaml/syntax", "\(diagnostics)")
        #expect(diagnostics.first?.message.contains("U+FF1A") == false, "\(diagnostics)")
    }

    /// A number in a condition written as people write one: digits grouped with underscores or commas (outside a list's
    /// brackets), or a decimal with no digit before its point. They were told "unexpected _000 after a complete
    /// expression", that a list's items go in brackets, or that names are ASCII letters.
    @Test(arguments: [
        ("level > 1_000", "\"1_000\" groups its digits with underscores, which a rule does not read: write 1000"),
        ("level > 1,000,000 and premium", "\"1,000,000\" groups its digits with commas, which a rule does not read: write 1000000"),
        ("score > 1_000.5", "write 1000.5"),
        ("level > -1_000", "write -1000"),
        ("score > .5", "\".5\" needs a digit before its point: write 0.5"),
    ])
    func aNumberWrittenAsPeopleWriteOneIsToldHowToWriteIt(_ when: String, _ message: String) {
        let text = "version: 1\nplacements:\n  a: {format: banner}\nattributes:\n  level: int\n  score: number\nrules:\n  - {id: r, deny: \"*\", when: '\(when)'}\n"
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        #expect(diagnostics.count == 1 && diagnostics.first?.message.hasSuffix(message) == true, "\(diagnostics)")
        // At the number: the condition starts at column 31, inside its quote.
        let number = when.prefix { $0 != "." && $0 != "-" && !$0.isNumber }.count
        #expect(diagnostics.first.map { "\($0.range.start.line):\($0.range.start.column)" } == "8:\(31 + number)", "\(diagnostics)")
    }

    /// Commas in a list's brackets still separate its items, and a comma after a number outside one is what it was.
    @Test func commasInAListStillSeparateItsItems() {
        let text = "version: 1\nplacements:\n  a: {format: banner}\nattributes:\n  level: int\nrules:\n  - {id: r, deny: \"*\", when: \"level in [1,000, 2] or level in [1,2,3]\"}\n"
        #expect(PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics.isEmpty)
        let odd = "version: 1\nplacements:\n  a: {format: banner}\nattributes:\n  level: int\nrules:\n  - {id: r, deny: \"*\", when: \"level > 1,0000\"}\n"
        #expect(PolicyLoader.load(texts: [("p.yaml", odd)]).diagnostics.first?.message.contains("a list's items go in brackets") == true)
    }

    /// `{daily_cap: 1,000}`: the comma ends the entry in braces, and 000 is read as a key, which was told only the keys
    /// a placement has.
    @Test func aThousandsCommaInBracesIsNamed() {
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: interstitial, daily_cap: 1,000}\n")]).diagnostics
        #expect(diagnostics.map(\.message) == [
            "unknown key \"000\" in placement \"a\": in { } a comma separates entries, so a number written with a thousands comma (as 1,000) is read as a number and a key 000: write the number with no commas"
        ], "\(diagnostics)")
    }

    /// A scenario's step written so is told the same.
    @Test func aStepWithANoBreakSpaceAfterItsColonIsNamed() throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: banner}\n")
        let text = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event:\u{A0}app_launched\n"
        let (_, diagnostics) = ScenarioDecoder.decode(Array(text.utf8), file: "s.test.yaml", policy: policy)
        #expect(diagnostics.map(\.message) == [
            "a step must be a mapping of keys to values, not \"event:\u{A0}app_launched\": the space after the colon of event is U+00A0 (no-break space), which YAML does not take for a space, so it reads the key and its value as one text: retype it as an ordinary space, as in event: app_launched"
        ], "\(diagnostics)")
    }

    /// A name that differs from a known one by a character that only looks like ASCII (a Cyrillic а, a zero width space)
    /// prints like it: the message names the character.
    @Test func lookalikeCharactersAreNamed() {
        let load = PolicyLoader.load(texts: [("p.yaml", """
            version: 1
            placements:
              app_open: {format: app_open, d\u{0430}ily_cap: 3}
              b: {format: b\u{0430}nner}
            rules:
              - {id: r, when: premium, deny: [app_open\u{200B}]}

            """)])
        let messages = load.diagnostics.map(\.message)
        #expect(messages.contains { $0.hasSuffix("did you mean \"daily_cap\"? (it holds U+0430 CYRILLIC SMALL LETTER A, where the suggestion has ASCII only)") }, "\(messages)")
        #expect(messages.contains { $0.hasSuffix("did you mean \"app_open\"? (it holds U+200B (zero width space), where the suggestion has ASCII only)") }, "\(messages)")
        #expect(messages.contains { $0.hasSuffix("did you mean \"banner\"? (it holds U+0430 CYRILLIC SMALL LETTER A, where the suggestion has ASCII only)") }, "\(messages)")
    }

    /// A text that starts with `#` after a space is read as a comment: the empty value is told so where a text was
    /// expected, in rule files and scenario files, and not where a comment after an empty key is what was meant.
    @Test func aTextReadAsACommentSaysToQuoteIt() throws {
        let hint = "a # after a space starts a comment, so the value is empty: quote a text that starts with #"
        let rules = PolicyLoader.load(texts: [(
            "p.yaml", "version: 1\nplacements:\n  a:\n    format: interstitial\n    min_interval: 1m\n    ad_unit:   #abc\n"
        )]).diagnostics
        #expect(rules.count == 1 && rules[0].rule == "schema/type" && rules[0].message.contains(hint), "\(rules)")
        // A key left empty with a comment after it, where no text belongs, is not told to quote a text.
        let cap = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: interstitial\n    daily_cap: # six\n")]).diagnostics
        #expect(!cap.isEmpty && !cap.contains { $0.message.contains(hint) }, "\(cap)")
        // Without a comment, an empty text is only "nothing (null)".
        let empty = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: interstitial\n    min_interval: 1m\n    ad_unit:\n")]).diagnostics
        #expect(empty.count == 1 && empty[0].message.contains("nothing (null)") && !empty[0].message.contains(hint), "\(empty)")
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")
        let scenario = "tests:\n  - name: #1 test\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {ask: load, placement: a, expect: allow}\n"
        let found = ScenarioDecoder.decode(Array(scenario.utf8), file: "s.test.yaml", policy: policy).1
        #expect(found.contains { $0.rule == "schema/type" && $0.message.hasPrefix("name must be") && $0.message.contains(hint) }, "\(found)")
    }

    /// A condition that a `#` after a space cut short (YAML reads the rest as a comment) says so, with the condition
    /// quoted whole, rather than that an operand is missing; a quoted `#`, and a comment after a whole condition, are fine.
    @Test func aConditionCutByACommentSaysToQuoteIt() {
        func diagnostics(_ when: String) -> [Diagnostic] {
            PolicyLoader.load(texts: [("p.yaml", """
                version: 1
                placements:
                  a: {format: interstitial, min_interval: 1m}
                attributes:
                  screen: {type: string, default: home}
                rules:
                  - id: r
                    deny: [a]
                    when: \(when)

                """)]).diagnostics
        }
        let cut = diagnostics("screen == #checkout")
        #expect(cut.map(\.rule) == ["rule/syntax"], "\(cut)")
        #expect(cut.first?.message == """
            YAML reads "#checkout" as a comment (a # after a space starts one), so the condition ends after "screen ==": \
            if it is part of the condition, quote the whole condition, as in when: 'screen == "#checkout"'
            """)
        #expect(cut.first?.range.start == SourcePosition(line: 9, column: 20), "\(cut)")
        let list = diagnostics("screen in [\"a\", #b]")
        #expect(list.first?.message.hasPrefix("YAML reads \"#b]\" as a comment") == true, "\(list)")
        #expect(list.first?.message.hasSuffix("as in when: 'screen in [\"a\", \"#b\"]'") == true, "\(list)")
        #expect(diagnostics("'screen == \"#checkout\"'").isEmpty)
        #expect(diagnostics("screen == \"checkout\"   # the checkout screen only").isEmpty)
        #expect(diagnostics("screen ==").first?.message.hasPrefix("the expression ends too early") == true)
    }

    /// `timezone: no` is one finding, the unknown zone: the warning a string setting gets for a plain yes/no/on/off
    /// says to quote the word, which would leave the zone unknown. So in a scenario's `device_timezone`.
    @Test func aTimeZoneWrittenAsABoolWordIsOneFinding() throws {
        let found = PolicyLoader.load(texts: [("p.yaml", "version: 1\ntimezone: no\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")]).diagnostics
        #expect(found.map(\.rule) == ["policy/timezone"], "\(found)")
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")
        let scenario = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    device_timezone: on\n    steps:\n      - {ask: load, placement: a, expect: allow}\n"
        let inScenario = ScenarioDecoder.decode(Array(scenario.utf8), file: "s.test.yaml", policy: policy).1
        #expect(inScenario.count == 1 && inScenario[0].rule != "yaml/ambiguous-bool", "\(inScenario)")
    }

    /// A word YAML reads as no value (`null`, `~`) where a name belongs is told to be removed or quoted, as a number or
    /// a boolean there is told to be quoted; an empty value is told to be written or removed.
    @Test func aNullWordWhereANameBelongsIsToldToBeRemovedOrQuoted() {
        let text = "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n  b: {format: banner, ad_unit: }\n"
            + "groups:\n  g: {placements: [null, a]}\nrules:\n  - {id: r, when: premium, deny: [~]}\n"
        let messages = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics.map(\.message)
        #expect(messages == [
            "ad_unit must be a string, not nothing (null): write the text after the colon, or remove ad_unit",
            "a group member must be a string, not nothing (null): remove it, or quote it (\"null\") if it is a name",
            "a placement in deny must be a string, not nothing (null): remove it, or quote it (\"~\") if it is a name",
        ], "\(messages)")
    }

    /// A merge key is reported as such; the format it would have brought is not reported missing too.
    @Test func aMergeKeyIsOneFinding() {
        let text = "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n  b:\n    <<: {format: interstitial}\n    daily_cap: 3\n  c: {min_interval: 1m}\n"
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        #expect(diagnostics.map(\.rule) == ["yaml/alias", "schema/missing-key"], "\(diagnostics)")
        #expect(diagnostics.last?.message.contains("\"c\"") == true)
    }

    /// A quoted `"<<"` is no merge key but an ordinary key, unknown everywhere: before, it was passed over in silence,
    /// and a placement holding one lost its missing format without a word.
    @Test func aQuotedMergeKeyIsAnUnknownKey() {
        let text = "version: 1\nplacements:\n  a:\n    \"<<\": {format: interstitial}\n    min_interval: 1m\n  b: {format: banner}\ngroups:\n  g: {placements: [b], '<<': {daily_cap: 1}}\n"
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        #expect(diagnostics.map(\.rule) == ["schema/missing-key", "schema/unknown-key", "schema/unknown-key"], "\(diagnostics)")
        #expect(diagnostics.map(\.range.start.line) == [3, 4, 8])
        let scenario = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {ask: load, placement: b, \"<<\": {expect: deny}}\n"
        let policy = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  b: {format: banner}\n")]).policy
        let (_, scenarioDiagnostics) = ScenarioDecoder.decode(Array(scenario.utf8), file: "t.test.yaml", policy: policy)
        #expect(scenarioDiagnostics.map(\.rule) == ["schema/unknown-key"], "\(scenarioDiagnostics)")
    }

    /// An unclosed quote or bracket is reported where libyaml gave up (often the end of the file), with a note where
    /// it opens: the place to fix.
    @Test func anUnclosedValuePointsAtWhereItOpens() {
        let quoted = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: \"banner\n    min_interval: 1m\n")]).diagnostics
        #expect(quoted.map(\.rule) == ["yaml/syntax"])
        #expect(quoted.first?.notes.map { "\($0.position.line):\($0.position.column) \($0.message)" } == ["4:13 the quoted value starts here"], "\(quoted)")
        let flow = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner, min_interval: 1m\n\n")]).diagnostics
        #expect(flow.first?.notes.map { "\($0.position.line):\($0.position.column) \($0.message)" } == ["3:6 the { } mapping starts here"], "\(flow)")
    }
}

/// A text written as nothing, a list or a mapping (`ad_unit:`, `message: [a]`, `timezone: {}`): the message says what
/// to write, as every message does (it said only "must be a string, not a list").
@Suite("Plain words: a text of another shape")
struct TextOfAnotherShapeTests {
    @Test func anEmptyListOrMappingTextIsToldWhatToWrite() throws {
        let text = "version: 1\ntimezone: {a: b}\nplacements:\n  a: {format: interstitial, min_interval: 1m, ad_unit: }\n"
            + "rules:\n  - {id: [r], when: premium, deny: [a], message: m}\ngroups:\n  g:\n    placements:\n      -\n      - a\n"
        let messages = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics.map(\.message)
        #expect(messages.contains("ad_unit must be a string, not nothing (null): write the text after the colon, or remove ad_unit"), "\(messages)")
        #expect(messages.contains("id must be a string, not a list: write one text on the key's line, with no [ ] or `- `"), "\(messages)")
        #expect(
            messages.contains("timezone must be a string, not a mapping: write one text on the key's line (in quotes when it holds a colon and a space)"),
            "\(messages)")
        #expect(messages.contains("a group member must be a string, not nothing (null): write the text, or remove the empty item"), "\(messages)")
        let nested = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\nrules:\n  - {id: r, when: premium, deny: [[a]]}\n")])
        #expect(nested.diagnostics.map(\.message) == ["a placement in deny must be a string, not a list: write the item as one text, not a list inside the list"])
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")
        let scenario = "tests:\n  - name:\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {event: [app_launched]}\n"
        let found = ScenarioDecoder.decode(Array(scenario.utf8), file: "s.test.yaml", policy: policy).1.map(\.message)
        // A test's name is required: removing it would only trade this finding for a missing key.
        #expect(found.contains("name must be a string, not nothing (null): write the text after the colon"), "\(found)")
        #expect(found.contains("event must be a string, not a list: write one text on the key's line, with no [ ] or `- `"), "\(found)")
    }

    /// A count typed in full-width digits (`daily_cap: ３`, a Japanese input method's) is told to be written in ASCII
    /// digits: the message quoted "３" and named the range only. So in a usage model.
    @Test func fullWidthDigitsAreToldToBeASCII() {
        let text = "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m, daily_cap: ３, hourly_cap: １２}\n"
        let messages = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics.map(\.message)
        #expect(messages.contains("daily_cap must be a whole number >= 0, not \"３\": it is written in full-width or another script's digits: write 3"), "\(messages)")
        #expect(messages.contains("hourly_cap must be a whole number >= 0, not \"１２\": it is written in full-width or another script's digits: write 12"), "\(messages)")
    }

    /// Full-width digits in quotes (`daily_cap: "３"`) are told both, and a full-width number too long to read is still
    /// told to be written in ASCII digits: both had no advice.
    @Test func quotedOrLongFullWidthDigitsAreToldToBeASCII() {
        let long = String(repeating: "９", count: 21)
        let text = "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m, daily_cap: \"３\", hourly_cap: \(long), session_cap: '٣'}\n"
        let messages = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics.map(\.message)
        #expect(messages.contains("daily_cap must be a whole number >= 0, not \"３\": it is written in full-width or another script's digits: write 3 with no quotes"), "\(messages)")
        #expect(messages.contains("hourly_cap must be a whole number >= 0, not \"\(long)\": it is written in full-width or another script's digits: write it in ASCII digits"), "\(messages)")
        #expect(messages.contains("session_cap must be a whole number >= 0, not \"٣\": it is written in full-width or another script's digits: write 3 with no quotes"), "\(messages)")
    }

    /// A count written as a list or a mapping (`daily_cap: [3]`, `session_cap: {n: 1}`) is told how a count is
    /// written: the message named the range only ("must be a whole number >= 0, not a list").
    @Test func aCountOfAnotherShapeIsToldHowToWriteIt() {
        let text = "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m, daily_cap: [3], hourly_cap: yes, session_cap: {n: 1}}\n"
        let messages = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics.map(\.message)
        #expect(messages.contains("daily_cap must be a whole number >= 0, not a list: write one whole number on the key's line, in digits, with no [ ] or `- `"), "\(messages)")
        #expect(messages.contains("session_cap must be a whole number >= 0, not a mapping: write one whole number on the key's line, in digits, with no { } and no keys under it"), "\(messages)")
    }

    /// The advice fits where the value stands: a required key (a rule's id, a step's event) is not told it may be
    /// removed, a key of a block is named as it is written inside the block (`show_on_first_load:`, not
    /// `launch.show_on_first_load:`, an unknown key), an item of a list is on no key's line, and a model's count, which
    /// may be a mapping (`{poisson: 1}`), is not told to have no { }.
    @Test func theAdviceFitsWhereTheValueStands() throws {
        let text = "version: 1\nattributes:\n  ids: {type: [int], default: [[1]]}\nplacements:\n"
            + "  a: {format: app_open, launch: {show_on_first_load: [true]}}\nrules:\n  - {id: , when: premium, deny: [a]}\n"
        let messages = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics.map(\.message)
        #expect(messages.contains("launch.show_on_first_load must be true or false, not a list: write true or false on the key's line, as in show_on_first_load: false"), "\(messages)")
        #expect(messages.contains("each item of default must be a whole number, not a list: write the item as one whole number, not a list inside the list"), "\(messages)")
        #expect(messages.contains("id must be a string, not nothing (null): write the text after the colon"), "\(messages)")
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")
        let scenario = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event:\n"
        let found = ScenarioDecoder.decode(Array(scenario.utf8), file: "s.test.yaml", policy: policy).1.map(\.message)
        #expect(found.contains("event must be a string, not nothing (null): write the text after the colon"), "\(found)")
    }
}
