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
        let dir = NSTemporaryDirectory() + "adrules-words-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8) }
        return dir
    }

    @Test func aTabSaysTabAndIndentWithSpaces() {
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n\tformat: banner\n")]).diagnostics
        #expect(diagnostics.count == 1, "no follow-on finding such as policy/empty: \(diagnostics)")
        #expect(diagnostics.first?.message.contains("tab") == true)
        #expect(diagnostics.first?.message.contains("indent with spaces") == true)
        #expect(diagnostics.first?.range.start == SourcePosition(line: 4, column: 1))
    }

    /// No-break spaces (U+00A0) pasted from a document as indentation are named where they are: at the line libyaml
    /// trips over after them, or in a key they became part of.
    @Test func noBreakSpacesAsIndentationAreNamed() {
        let mixed = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: interstitial\n  \u{00A0} min_interval: 1m\n    daily_cap: 3\n")]).diagnostics
        #expect(mixed.map(\.rule) == ["yaml/syntax"], "\(mixed)")
        #expect(mixed.first?.range.start == SourcePosition(line: 5, column: 3))
        #expect(mixed.first?.message.contains("indented with a no-break space (U+00A0") == true, "\(mixed)")
        let only = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: interstitial\n\u{00A0}\u{00A0}\u{00A0}\u{00A0}min_interval: 1m\n")]).diagnostics
        #expect(only.contains { $0.rule == "schema/unknown-key" && $0.message.hasPrefix("key \"min_interval\" in the top level is indented with no-break spaces (U+00A0") }, "\(only)")
        // A key so indented is an error of its own: its block is not also told it lacks the key.
        let format = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    \u{00A0}format: interstitial\n    min_interval: 1m\n")]).diagnostics
        #expect(format.map(\.rule) == ["schema/unknown-key"], "\(format)")
        // At the level of the placement ids, a setting or a placement so indented is one finding, not an invalid id; the
        // placement is read under the id meant, so that nothing naming it (or the policy's only placement) is a finding.
        let groupAndRule = "groups:\n  g: {placements: [a, b]}\nrules:\n  - {id: r, deny: [b], when: premium}\n"
        for (entry, name) in [("1️⃣\u{00A0}\u{00A0}min_interval: 3m\n", "min_interval"), ("1️⃣\u{00A0}\u{00A0}b:\n    format: interstitial\n    daily_cap: 3\n" + groupAndRule, "b")] {
            let marked = MarkedText("version: 1\nplacements:\n  a:\n    format: interstitial\n    daily_cap: 3\n  " + entry)
            let found = PolicyLoader.load(texts: [("p.yaml", marked.text)]).diagnostics
            #expect(found.map(\.message) == ["key \"\(name)\" in placements is indented with no-break spaces (U+00A0, as text pasted from a document holds), which YAML reads as part of the key, not as indentation: indent it with ordinary spaces, lined up with the keys beside it"], "\(found)")
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
        // One that starts a line of a block value is text, not indentation: the error after it is libyaml's own.
        let block = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: interstitial\n    ad_unit: |\n      \u{00A0} text\n    daily_cap: 3: 4\n")]).diagnostics
        #expect(block.first?.message.hasSuffix("a value that holds \": \" must be quoted: write daily_cap: \"3: 4\"") == true, "\(block)")
    }

    /// Syntax errors whose cause lies before where libyaml trips are named at the cause (1️⃣), in plain words: the markers
    /// of a git merge conflict, a quote left open that a later `"*"` closed, a key glued to its value on the line above
    /// (or above blank lines and comments), no-break spaces above a blank line, and an indented first key. Each was
    /// told at a line that was right, with advice that did not apply.
    @Test(arguments: [
        ("version: 1\nplacements:\n  a:\n    format: banner\n1️⃣<<<<<<< HEAD\n    daily_cap: 3\n=======\n    daily_cap: 4\n>>>>>>> feature\n",
         "<<<<<<< HEAD is a git merge-conflict marker: the file holds both sides of a merge. Keep the lines you want, then remove the <<<<<<<, ======= and >>>>>>> lines"),
        ("1️⃣<<<<<<< HEAD\r\nversion: 1\r\n=======\r\nversion: 1\r\n>>>>>>> other\r\nplacements:\r\n  a: {format: banner}\r\n",
         "<<<<<<< HEAD is a git merge-conflict marker"),
        // A byte-order mark opening the file is no column: the key is at 1:1.
        ("1️⃣\u{FEFF}version:1\nplacements:\n  a: {format: banner}\n", "a key needs a space after its colon: write version: 1"),
        ("version: 1\nplacements:\n  a:\n    format: banner\nrules:\n  - 1️⃣id:a\n    deny: \"*\"\n    when: premium\n",
         "a key needs a space after its colon: write id: a"),
        ("version: 1️⃣\"1\nplacements:\n  a: {format: banner}\nrules:\n  - id: r\n    deny: \"*\"\n    when: premium\n",
         "this quoted value is not closed on its line, so it runs on to the quote at line 6, column 11, and what follows that quote is read as YAML: close the value with its quote on this line"),
        ("1️⃣version:1\nplacements:\n  a: {format: banner}\n", "a key needs a space after its colon: write version: 1"),
        ("version: 1\nplacements:\n  a:\n    format: banner\n    1️⃣ad_unit:abc\n\n    # the unit\n    daily_cap: 3\n",
         "a key needs a space after its colon: write ad_unit: abc"),
        ("version: 1\nplacements:\n  a:\n    format: banner\n1️⃣\u{00A0}\u{00A0}\u{00A0}\u{00A0}daily_cap: 3\n\n    hourly_cap: 1\n",
         "this line is indented with a no-break space (U+00A0"),
        ("  1️⃣version: 1\nplacements:\n  a: {format: banner}\n",
         "the first key of the file is indented, and a key at the top of a file starts in the first column: remove the spaces before version"),
        ("  1️⃣\"version\": 1\nplacements:\t\n  a: {format: banner}\n", "remove the spaces before version"),
        ("1️⃣\u{FEFF}<<<<<<< HEAD\nversion: 1\n=======\nversion: 1\n>>>>>>> other\nplacements:\n  a: {format: banner}\n",
         "<<<<<<< HEAD is a git merge-conflict marker"),
    ])
    func aSyntaxErrorIsNamedAtItsCause(_ text: String, _ message: String) {
        expectOneSyntaxError(text, message)
    }

    /// What those causes are not: a `=======` line inside a quoted value with another error below, a colon glued in a
    /// list value or a block scalar above a value holding ": ", a no-break space lines above another mistake, and an
    /// indented first key followed by a `...` line, keep the advice of their own error, at it.
    @Test(arguments: [
        ("version: 1\nplacements:\n  home:\n    format: banner\nrules:\n  - id: a\n    deny: [home]\n    when: premium\n    message: \"Title\n=======\nbody\"\n  - id: b\n    deny: [home]\n    when: premium\n    message: [unclosed\n1️⃣",
         "close the [ ] list with ]"),
        ("version: 1\nplacements:\n  home:\n    format: banner\nrules:\n  - id: a\n    deny:\n      - home\n      - mailto:x\n    when: premium1️⃣: true\n",
         "a key's value cannot hold another key on the same line"),
        ("version: 1\nplacements:\n  home:\n    format: banner\nrules:\n  - id: a\n    deny: [home]\n    message: |\n      Contact:support@x.com\n    when: a b1️⃣: c\n",
         "a value that holds \": \" must be quoted"),
        ("\u{00A0}a: 1\n\n\nb: 21️⃣: 3\n", "a value that holds \": \" must be quoted"),
        ("  version: 1\n...\n1️⃣placements: {}\n", "this file is one document"),
        ("version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - id: r1\n    when: premium\n    message: |\n      Ads are off.\n      \u{00A0}\u{00A0}Tip: upgrade\n\n    1️⃣- deny: \"*\"\n",
         "a list item (-) sits among keys"),
        // A colon ending a value, and `=` for a key's colon (on its line, or on the line before libyaml's position).
        ("version: 1\nplacements:\n  a:\n    format: banner\n    daily_cap: 61️⃣:\n",
         "the colon after 6 makes it a key: remove it (daily_cap: 6), or, if the colon is part of a text, quote the value (daily_cap: \"6:\")"),
        ("version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - id: r\n    deny: [a]\n    when: premium\n    1️⃣message = No ads between 22:00 and 07:00\n",
         "a key takes a colon and a space, not =: write message: No ads between 22:00 and 07:00"),
        ("version: 1\nplacements:\n  a:\n    format = banner\n    daily_cap1️⃣: 3\n", "on line 4, a key takes a colon and a space, not =: write format: banner"),
        // A key lined up with no key above it is told the indentations it may take, each with a key that has it.
        ("version: 1\nplacements:\n  a:\n    format: banner\n    min_interval: 1m\n   1️⃣daily_cap: 6\n",
         "daily_cap is indented 3 spaces, which lines it up with no key above it: indent it 4 spaces, as min_interval on line 5, or 2 spaces, as a on line 3"),
        // A comment that lost its #: on its line, or before the key libyaml then refuses.
        ("version: 1\nplacements:\n  a:\n    format: banner\n    1️⃣At least 4 minutes between ads\n",
         "this line is words with no key: if it is a comment, start it with # (# At least 4 minutes between ads)"),
        ("version: 1\nplacements:\n  a:\n    At least 4 minutes between ads\n    format1️⃣: banner\n",
         "line 4 is words with no key: if it is a comment, start it with # (# At least 4 minutes between ads)"),
        // A quote left open, closed by an apostrophe in a comment lines below.
        ("version: 1\nenvironment: 1️⃣'production\n\n# Caps reset at the user's midnight.\nplacements:\n  a: {format: banner}\n",
         "this quoted value is not closed on its line, so it runs on to the quote at line 4"),
        // An apostrophe after a value quoted and closed on its line is no run-on quote.
        ("version: 1\nplacements:\n  a:\n    format: banner\n    ad_unit: 'abc'\n    the user's thing: more1️⃣: x\n",
         "a key's value cannot hold another key on the same line"),
    ])
    func aSyntaxErrorElsewhereKeepsItsOwnAdvice(_ text: String, _ message: String) {
        expectOneSyntaxError(text, message)
    }

    /// Expects one `yaml/syntax` finding of a rule file, holding `message`, at the file's 1️⃣ marker.
    func expectOneSyntaxError(_ text: String, _ message: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let marked = MarkedText(text)
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", marked.text)]).diagnostics
        #expect(diagnostics.map(\.rule) == ["yaml/syntax"], "\(diagnostics)", sourceLocation: sourceLocation)
        #expect(diagnostics.first?.message.contains(message) == true, "\(diagnostics)", sourceLocation: sourceLocation)
        #expect(diagnostics.first?.range.start == marked.markers["1️⃣"], "\(diagnostics)", sourceLocation: sourceLocation)
    }

    /// A placement's (or group's) id line deleted: its settings stand where the ids do. One finding says the id line is
    /// missing; the settings after it, a block of settings included, and what a group naming the lost placement would
    /// say, are not findings too (there were six, with "placement grace has no format").
    @Test func aMissingIDLineIsOneFinding() throws {
        let placements = PolicyLoader.load(texts: [
            ("p.yaml", "version: 1\nplacements:\n    format: interstitial\n    min_interval: 90s\n    grace:\n      after_install: 10m\n"),
            ("groups.yaml", "version: 1\ngroups:\n  fullscreen:\n    placements: [level_end]\n"),
        ]).diagnostics
        #expect(placements.map(\.message) == [
            "format is a placement setting, not a placement id: the placement's id line above it is missing: write the id on a line of its own, as in `level_end:`, with the settings indented under it",
        ], "\(placements)")
        #expect(placements.first?.range.start == SourcePosition(line: 3, column: 5))
        let groups = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner, daily_cap: 3}\ngroups:\n  placements: [a]\n  daily_cap: 5\n")]).diagnostics
        #expect(groups.map(\.rule) == ["schema/unknown-key"] && groups.first?.message.contains("the group's id line above it is missing") == true, "\(groups)")
        // A top-level key inside such a run of settings is told so, and the settings after it stay quiet.
        let run = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  format: banner\n  timezone: UTC\n  daily_cap: 3\n")]).diagnostics
        #expect(run.count == 2 && run.last?.message.hasPrefix("timezone is a top-level setting") == true, "\(run)")
        // A top-level key indented as the first entry is its own mistake: no id line is missing, and the placements after
        // it are read, so that names no placement has are still findings.
        let topLevel = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  timezone: UTC\n  home: {format: banner}\ngroups:\n  g: {placements: [hom]}\n")]).diagnostics
        #expect(topLevel.map(\.rule).sorted() == ["policy/unknown-placement", "schema/unknown-key"], "\(topLevel)")
        // A setting after a placement still names the placement above it, each one.
        let after = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: banner\n  daily_cap: 3\n  hourly_cap: 2\n")]).diagnostics
        #expect(after.map(\.message) == ["daily_cap is a placement setting, not a placement id: indent it under `a:`", "hourly_cap is a placement setting, not a placement id: indent it under `a:`"], "\(after)")
        // A placement id indented as far as its settings has no value, and they stand beside it: the first says to
        // indent them under it, the rest are passed over (there was one finding a setting), and a group naming it is
        // not told to define it.
        let shifted = PolicyLoader.load(texts: [(
            "p.yaml", "version: 1\nplacements:\n    app_open:\n    format: app_open\n    min_interval: 4m\n    daily_cap: 6\ngroups:\n  g: {placements: [app_open]}\n"
        )]).diagnostics
        #expect(shifted.map(\.rule) == ["schema/type", "schema/unknown-key"], "\(shifted)")
        #expect(shifted.last?.message == "format is a placement setting, not a placement id: indent it under `app_open:`", "\(shifted)")
    }

    /// A placement's block of settings (`launch:`, `resume:`, `grace:`) indented one level too little stands where the
    /// placement ids do. It is one finding at the block, naming the placement it belongs under, not "placement launch has
    /// no format" and one "indent it under `launch:`" a key (under the `launch:` it already is under).
    @Test func aBlockOfSettingsIndentedAsAnIDIsOneFinding() {
        let text = "version: 1\nplacements:\n  app_open:\n    format: app_open\n    min_interval: 4m\n  launch:\n    max_wait: 5s\n  resume: {max_delay: 2s, show_if_ready: false}\n"
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        #expect(diagnostics.map(\.message) == [
            "launch is a placement setting, not a placement id: indent it under `app_open:`",
            "resume is a placement setting, not a placement id: indent it under `app_open:`",
        ], "\(diagnostics)")
        #expect(diagnostics.map(\.range.start) == [SourcePosition(line: 6, column: 3), SourcePosition(line: 8, column: 3)])
        // A placement named like a block keeps its findings: it has a format, or a key the block does not take.
        for placement in ["launch:\n    format: interstitial\n    max_wait: 5s\n", "grace:\n    first_sessions: 2\n    bogus: 1\n"] {
            let named = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  \(placement)")]).diagnostics
            #expect(named.contains { $0.message.contains("belongs in the `") }, "\(named)")
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

    /// A number where a zone or the placements a rule denies belong is told what the key takes, not "quote it", which
    /// would give an unknown zone or placement next.
    @Test func aNumberForAZoneOrADenyListSaysWhatTheKeyTakes() {
        let text = "version: 1\ntimezone: -6\nplacements:\n  a: {format: banner}\nrules:\n  - {id: r, deny: 30, when: premium}\n"
        let found = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics.map(\.message)
        #expect(found == [
            "timezone must be an IANA time zone name or device, not \"-6\": write the zone's name, as in America/Chicago or Asia/Tokyo (an offset changes with daylight saving), or device",
            "deny must be placement ids or \"*\", not \"30\": list the placement ids the rule denies, as in deny: [interstitial_level_end] (an id of digits in quotes: deny: [\"30\"]), or write deny: \"*\" for every placement",
        ], "\(found)")
    }

    /// `placments:` misspelt is one finding: the groups and rules of other files that name its placements are not told
    /// to define them (there were four such findings, each advising to remove a name that was right).
    @Test func aMisspeltPlacementsBlockIsOneFinding() {
        let found = PolicyLoader.load(texts: [
            ("a.yaml", "version: 1\nplacments:\n  level_end: {format: interstitial, min_interval: 1m}\n"),
            ("b.yaml", "version: 1\ngroups:\n  g: {placements: [level_end], daily_cap: 3}\nrules:\n  - {id: r, deny: [level_end], when: premium}\n"),
        ]).diagnostics
        #expect(found.map(\.message) == ["unknown key \"placments\" in the top level: did you mean \"placements\"?"], "\(found)")
    }

    /// A block key written twice, the first with nothing under it (a line duplicated): one finding, the repeat's, not
    /// also "must be a mapping, not nothing" at the first.
    @Test func aRepeatedBlockLineIsOneFinding() {
        for text in [
            "version: 1\nplacements:\nplacements:\n  a: {format: banner}\n",
            "version: 1\nplacements:\n  a:\n    format: app_open\n    launch:\n    launch:\n      max_wait: 5s\n    min_interval: 1m\n",
        ] {
            let found = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
            #expect(found.map(\.rule) == ["yaml/duplicate-key"], "\(found)")
        }
        // A key with nothing after it that is not repeated keeps its finding.
        let empty = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: app_open\n    launch:\n    min_interval: 1m\n")]).diagnostics
        #expect(empty.map(\.rule) == ["schema/type"], "\(empty)")
    }

    /// "Did you mean" never suggests a key the mapping already has: `if:` beside `id:`, `timeout:` beside `timezone:`
    /// get the keys that are allowed, as one close to no key would. Such a key is still no key of the team's own (a
    /// named comment does not hide it).
    @Test func didYouMeanSkipsKeysAlreadyThere() {
        let text = "version: 1\ntimezone: UTC\ntimeout: 30m\nplacements:\n  x: {format: banner, daily_cap: 3}\nrules:\n  - {id: r, deny: [x], when: premium, if: premium}\n"
        let found = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        #expect(found.map(\.rule) == ["schema/unknown-key", "schema/unknown-key"], "\(found)")
        #expect(found.allSatisfy { !$0.message.contains("did you mean") && $0.message.contains("the keys here are") }, "\(found)")
        #expect(found.allSatisfy { $0.isPlainUnknownKey == false }, "\(found)")
        // Alone, each is still told the key it is close to.
        let alone = PolicyLoader.load(texts: [("p.yaml", "version: 1\ntimeout: UTC\nplacements:\n  x: {format: banner, daily_cap: 3}\n")]).diagnostics
        #expect(alone.map(\.message) == ["unknown key \"timeout\" in the top level: did you mean \"timezone\"?"], "\(alone)")
    }

    /// A misspelt key that must be there is one finding, "did you mean", at the misspelling: the block is not also
    /// told it lacks the key (its advice to add `format:` beside `formta:` would leave two).
    @Test(arguments: [
        ("version: 1\nplacements:\n  a:\n    1️⃣formta: banner\n", "unknown key \"formta\" in placement \"a\": did you mean \"format\"?"),
        ("1️⃣verszion: 1\nplacements:\n  a: {format: banner}\n", "unknown key \"verszion\" in the top level: did you mean \"version\"?"),
        ("version: 1\nplacements:\n  a: {format: banner}\ngroups:\n  g:\n    1️⃣placeemnts: [a]\n", "unknown key \"placeemnts\" in group \"g\": did you mean \"placements\"?"),
        ("version: 1\nplacements:\n  a: {format: banner}\nattributes:\n  screen: {1️⃣typ: string}\n", "unknown key \"typ\" in attribute \"screen\": did you mean \"type\"?"),
    ])
    func aMisspeltRequiredKeyIsOneFinding(_ text: String, _ message: String) {
        let marked = MarkedText(text)
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", marked.text)]).diagnostics
        #expect(diagnostics.map(\.message) == [message], "\(diagnostics)")
        #expect(diagnostics.first?.range.start == marked.markers["1️⃣"])
    }

    /// A word that only looks like the key (another first letter: `normal` for format, `session` for version) is no
    /// typo of it: the key is still missing, and said to be.
    @Test func aWordThatOnlyLooksLikeARequiredKeyLeavesItMissing() {
        let format = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    normal: true\n")]).diagnostics
        #expect(format.map(\.rule).sorted() == ["schema/missing-key", "schema/unknown-key"], "\(format)")
        let version = PolicyLoader.load(texts: [("p.yaml", "session: 30m\nplacements:\n  a: {format: banner}\n")]).diagnostics
        #expect(version.contains { $0.rule == "schema/missing-key" && $0.message.contains("version") }, "\(version)")
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

    /// pacing/missing says what is written: a min_interval of 0s is there, and says nothing.
    @Test func pacingMissingNamesAMinIntervalOfZero() {
        let text = "version: 1\nplacements:\n  p: {format: interstitial, min_interval: 0s}\n  q: {format: interstitial}\n"
        let messages = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics.filter { $0.rule == "pacing/missing" }.map(\.message)
        #expect(messages == [
            "interstitial placement p has min_interval 0s and no cap, so it may show back to back: raise min_interval (for example to 4m) or add daily_cap",
            "interstitial placement q has no min_interval and no cap, so it may show back to back: add min_interval (for example 4m) or daily_cap",
        ])
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

    /// An attribute declared with a bad type or default is reported once, at the declaration: the rules that use
    /// it are not told it is undeclared, while a name declared nowhere still is.
    @Test func anAttributeDeclaredWithAnErrorIsNotCalledUnknown() {
        let text = """
            version: 1
            placements:
              a: {format: banner}
            attributes:
              level: {type: int, default: "x"}
              kind: {type: strng}
            rules:
              - id: r
                deny: [a]
                when: level < 5 or kind == "x" or levle > 2
            """
        let rules = PolicyLoader.load(texts: [("p.yaml", text + "\n")]).diagnostics.map(\.rule)
        #expect(rules == ["schema/type", "schema/enum", "rule/unknown-name"], "\(rules)")
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

    @Test(arguments: [
        ("    max_wait: 5s\n", "indent it under `launch:`"),
        // The spec's tables name nested settings with a dot.
        ("    launch.max_wait: 5s\n", "launch.max_wait is written as a block: write max_wait: indented under `launch:`, as in launch: {max_wait: …}"),
        ("    resume.allow_deferred: false\n", "as in resume: {allow_deferred: …}"),
        ("    launch:\n      daily_cap: 3\n", "indent it one level less, beside `launch:`"),
        ("    resume:\n      min_interval: 1m\n", "beside `resume:`"),
        ("    window: 1h\n", "belongs in an entry of `caps:`"),
        ("    caps:\n      - {max: 3, window: 1h, daily_cap: 4}\n", "write it beside `caps:`, outside the entry"),
    ])
    func aKeyAtTheWrongDepthNamesItsBlock(_ tail: String, _ advice: String) {
        // A key only a placement takes is not sent beside a caps entry, which a group may hold too.
        let format = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner}\ngroups:\n  g: {placements: [a], caps: [{max: 3, window: 1h, format: banner}]}\n")]).diagnostics
        #expect(format.contains { $0.rule == "schema/unknown-key" && !$0.message.contains("beside `caps:`") }, "\(format)")
        let text = "version: 1\nplacements:\n  a:\n    format: app_open\n    min_interval: 1m\n" + tail
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        #expect(diagnostics.contains { $0.rule == "schema/unknown-key" && $0.message.contains(advice) }, "\(diagnostics)")
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

    /// The classic slip: a placement's settings at the placement id's own indentation. The first setting names the
    /// placement above it, rather than reading as a placement called "format" that must be a mapping; the settings
    /// after it are the same slip, and are passed over (one finding a setting was noise).
    @Test func aSettingBesideThePlacementIdsNamesThePlacementAbove() {
        let text = "version: 1\nplacements:\n  app_open:\n  format: app_open\n  daily_cap: 6\ngroups:\n  g:\n    placements: [app_open]\n  min_interval: 1m\n"
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        let misplaced = diagnostics.filter { $0.rule == "schema/unknown-key" }
        #expect(misplaced.map(\.message) == [
            "format is a placement setting, not a placement id: indent it under `app_open:`",
            "min_interval is a group setting, not a group id: indent it under `g:`",
        ], "\(diagnostics)")
        #expect(misplaced.map(\.range.start.line) == [4, 9])
        // A placement that happens to be named like a setting, written as a placement, is a placement.
        let named = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  format: {format: banner}\n")])
        #expect(named.diagnostics.isEmpty, "\(named.diagnostics)")
    }

    /// A top-level key indented under `placements:` or `groups:` says it is top-level (cli.md r2: "which block it
    /// belongs to"), rather than "placement timezone must be a mapping" or "add `format: interstitial`".
    @Test func aTopLevelKeyAmongTheIdsSaysToIndentItLess() {
        let text = """
            version: 1
            placements:
              inter: {format: interstitial, daily_cap: 3}
              timezone: UTC
              rules: [{id: r, deny: "*", when: premium}]
              groups:
                g: {placements: [inter]}
            groups:
              g2: {placements: [inter]}
              session_timeout: 30m

            """
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        let messages = diagnostics.map(\.message)
        let less = "indent it less, at the start of a line, outside"
        #expect(messages.contains("timezone is a top-level setting, not a placement id: \(less) `placements:` (or remove it, if the file sets timezone there already)"), "\(messages)")
        #expect(messages.contains("rules is a top-level block, not a placement id: \(less) `placements:` (or move its entries into the `rules:` the file has there already)"), "\(messages)")
        #expect(messages.contains("session_timeout is a top-level setting, not a group id: \(less) `groups:` (or remove it, if the file sets session_timeout there already)"), "\(messages)")
        #expect(messages.contains(
            "placement \"groups\" has no format: if this is the top-level `groups:` block, indent it less, at the start of a line; else add `format:` with one of app_open, interstitial, rewarded, rewarded_interstitial, banner, native"),
            "\(messages)")
        #expect(!messages.contains { $0.contains("must be a mapping") }, "\(messages)")
        // A key of a block one level too shallow names the block, and whose block it is when only app_open has it.
        let blocks = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  i: {format: interstitial, min_interval: 1m, max_delay: 3s, after_install: 1h}\n")])
        #expect(blocks.diagnostics.map(\.message) == [
            "unknown key \"max_delay\" in placement \"i\": max_delay belongs in the `resume:` block of an app_open placement: indent it under `resume:`",
            "unknown key \"after_install\" in placement \"i\": after_install belongs in the `grace:` block: indent it under `grace:`",
        ], "\(blocks.diagnostics)")
        // A key of a sibling block names the block that takes it.
        let siblings = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: app_open\n    min_interval: 1m\n    resume: {max_wait: 5s}\n    launch: {max_delay: 3s}\n    grace: {show_if_ready: true}\n")])
        #expect(siblings.diagnostics.map(\.message) == [
            "unknown key \"max_wait\" in resume: max_wait belongs in the `launch:` block of an app_open placement, not in `resume:`: move it under `launch:`, beside `resume:` (the wait of `resume:` is max_delay)",
            "unknown key \"max_delay\" in launch: max_delay belongs in the `resume:` block of an app_open placement, not in `launch:`: move it under `resume:`, beside `launch:` (the wait of `launch:` is max_wait)",
            "unknown key \"show_if_ready\" in grace: show_if_ready belongs in the `resume:` block of an app_open placement, not in `grace:`: move it under `resume:`, beside `grace:`",
        ], "\(siblings.diagnostics)")
        // A grace key under launch: grace is every format's block, so no owner is named.
        let graceKey = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  b:\n    format: app_open\n    min_interval: 1m\n    launch: {after_install: 1h}\n")])
        #expect(graceKey.diagnostics.map(\.message) == [
            "unknown key \"after_install\" in launch: after_install belongs in the `grace:` block, not in `launch:`: move it under `grace:`, beside `launch:`",
        ], "\(graceKey.diagnostics)")
        // A placement named like a top-level block, written as a placement, is a placement.
        let named = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  groups: {format: banner}\n")])
        #expect(named.diagnostics.isEmpty, "\(named.diagnostics)")
        // The block's own name is no advice to indent less (it is there already), nor is a key whose value is an alias
        // (reported as such), nor a single setting's name before a block (it is no block).
        func found(_ tail: String) -> [String] {
            PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: &x {format: banner}\n" + tail)]).diagnostics.map(\.message)
        }
        #expect(!found("  placements: [a]\n").contains { $0.contains("indent it less") }, "\(found("  placements: [a]\n"))")
        #expect(found("  rules: *x\n").allSatisfy { $0.contains("anchor &x") || $0.contains("alias *x") }, "\(found("  rules: *x\n"))")
        #expect(found("  timezone: {daily_cap: 3}\n").contains("placement \"timezone\" has no format: add `format:` with one of app_open, interstitial, rewarded, rewarded_interstitial, banner, native"), "\(found("  timezone: {daily_cap: 3}\n"))")
    }

    @Test func aPlacementKeyAtTheTopLevelSaysWhereItGoes() {
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", "version: 1\ndaily_cap: 3\nplacements:\n  a: {format: banner}\n")]).diagnostics
        #expect(diagnostics.contains { $0.message.contains("indent it under a placement") && $0.message.contains("defaults:") })
        // `defaults:` may not set a format: the advice must not send the key there.
        let format = PolicyLoader.load(texts: [("p.yaml", "version: 1\nformat: banner\nplacements:\n  a: {format: banner}\n")]).diagnostics
        #expect(format.contains { $0.message.contains("indent it under a placement") && !$0.message.contains("defaults:") }, "\(format)")
    }

    /// A setting of a placement's block, written at the top level, is two levels off: the advice names the block, so
    /// that following it gives a key the block takes (not "indent it under a placement", which is a second error).
    @Test func aBlockSettingAtTheTopLevelNamesItsBlock() {
        let text = "version: 1\nmax_delay: 3s\nafter_install: 5m\nplacements:\n  a: {format: banner}\n"
        let messages = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics.map(\.message)
        #expect(messages == [
            "unknown key \"max_delay\" in the top level: max_delay belongs in the `resume:` block of an app_open placement: indent it under the placement in `placements:` (or under `defaults:`), as in resume: {max_delay: …}",
            "unknown key \"after_install\" in the top level: after_install belongs in the `grace:` block of a placement: indent it under the placement in `placements:` (or under `defaults:`), as in grace: {after_install: …}",
        ])
    }

    /// A block of entries written twice in one file: its entries are to be moved into the first, not dropped.
    @Test func aSecondBlockOfEntriesIsToBeMerged() {
        let load = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner}\nplacements:\n  b: {format: banner}\n")])
        #expect(load.diagnostics.map(\.message) == [
            "key \"placements\" is repeated in this mapping: move its entries into the first placements: block and remove this line (keeping one would drop the other's entries)",
        ], "\(load.diagnostics)")
        let setting = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: banner\n    enabled: true\n    enabled: false\n")])
        #expect(setting.diagnostics.map(\.message) == ["key \"enabled\" is repeated in this mapping: keep one of them"], "\(setting.diagnostics)")
        // In an item of a block list, a repeated key most likely starts an item whose `- ` was lost (a rule's `- id:` line
        // deleted): keeping one of them would drop a rule.
        let rules = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - id: r1\n    deny: \"*\"\n    when: premium\n    deny: [a]\n    when: premium\n")])
        let runTogether = "is repeated in this mapping: two items of the list may have run together (a `- ` lost): begin the second item with `- `; else keep one of them"
        #expect(rules.diagnostics.map(\.message) == ["key \"deny\" \(runTogether)", "key \"when\" \(runTogether)"], "\(rules.diagnostics)")
        let flow = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - {id: r1, deny: \"*\", when: premium, when: premium}\n")])
        #expect(flow.diagnostics.map(\.message) == ["key \"when\" is repeated in this mapping: keep one of them"], "\(flow.diagnostics)")
        // An item of one key written again (`- id: a` then `id: b`) is two items all the same.
        let one = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - id: r1\n    id: r2\n")])
        #expect(one.diagnostics.contains { $0.message == "key \"id\" \(runTogether)" }, "\(one.diagnostics)")
        // A key written again right after itself is one item edited twice.
        let again = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - id: r1\n    deny: \"*\"\n    when: premium\n    when: level > 3\n")])
        #expect(again.diagnostics.map(\.message) == ["key \"when\" is repeated in this mapping: keep one of them"], "\(again.diagnostics)")
    }

    /// A placement written at the top level, outside `placements:`, is said to be one (it has a format).
    @Test func aPlacementOutsidePlacementsIsSaidToBeOne() {
        let load = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner}\nshop_banner:\n  format: banner\n  enabled: true\nextra:\n  note: x\n")])
        #expect(load.diagnostics.map(\.message) == [
            "unknown key \"shop_banner\" in the top level: shop_banner has a format, so it is a placement: indent it under `placements:`",
            "unknown key \"extra\" in the top level: the keys here are version, environment, timezone, session_timeout, fullscreen_timeout, load_timeout, defaults, placements, groups, attributes, rules",
        ], "\(load.diagnostics)")
    }

    /// One cap written as the `caps:` mapping itself is shown as the list item to write, with its own values.
    @Test func aCapWrittenAsAMappingIsShownAsAnItem() {
        func messages(_ caps: String) -> [String] {
            PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  r:\n    format: rewarded\n    daily_cap: 5\n    caps:\n" + caps)]).diagnostics.map(\.message)
        }
        #expect(messages("      max: 3\n      window: 30m\n") == [
            "caps must be a list, not a mapping: a cap is an item of the list: write caps: [{max: 3, window: 30m}], or - {max: 3, window: 30m} on the next line, indented",
        ])
        #expect(messages("      max: 3\n").first?.contains("write caps: [{max: 3, window: …}]") == true)
        // Other keys: the general advice.
        #expect(messages("      max: 3\n      every: 30m\n").first?.contains("write each item on its own line after - ") == true)
    }

    /// A group, a word for every placement, or a stray `---` where a rule or group names placements: the finding says
    /// what to write, not to define a placement that is a group or is defined after the `---`.
    @Test func namesThatAreNoPlacementSayWhatToWrite() throws {
        let head = "version: 1\nplacements:\n  level_end: {format: interstitial, min_interval: 1m}\n  app_open: {format: app_open, min_interval: 1m}\ngroups:\n  fullscreen: {placements: [level_end, app_open], daily_cap: 5}\n"
        func messages(_ tail: String) -> [String] { PolicyLoader.load(texts: [("p.yaml", head + tail)]).diagnostics.map(\.message) }
        #expect(messages("rules:\n  - {id: r, deny: [all], when: premium}\n") == [
            "rule \"r\" names placement \"all\", which is not defined: to deny every placement, write \"*\" in straight quotes, as in deny: \"*\"",
        ])
        #expect(messages("rules:\n  - {id: r, deny: [“*”], when: premium}\n").first?.hasSuffix("write \"*\" in straight quotes, as in deny: \"*\"") == true)
        #expect(messages("rules:\n  - {id: r, deny: [fullscreen], when: premium}\n") == [
            "rule \"r\" names placement \"fullscreen\", which is not defined: \"fullscreen\" is a group, and only placements may be named here: list the group's placements instead",
        ])
        #expect(messages("  other: {placements: [fullscreen, all]}\n") == [
            "group \"other\" names placement \"fullscreen\", which is not defined: \"fullscreen\" is a group, and only placements may be named here: list the group's placements instead",
            "group \"other\" names placement \"all\", which is not defined: define it under `placements`, or remove it here",
        ])
        // A placement whose id is not valid (a space for the _) is the finding, not every correct name of it.
        let spaced = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  level end: {format: interstitial, min_interval: 1m}\nrules:\n  - {id: r, deny: [level_end], when: premium}\n")])
        #expect(spaced.diagnostics.map(\.rule) == ["schema/range"], "\(spaced.diagnostics)")
        // After a stray `---`, the placement defined below it is not said to be undefined: the `---` is the finding.
        let stray = PolicyLoader.load(texts: [("p.yaml", "version: 1\nrules:\n  - {id: r, deny: [hint], when: premium}\n---\nplacements:\n  hint: {format: rewarded}\n")])
        #expect(stray.diagnostics.map(\.rule) == ["yaml/multiple-documents"], "\(stray.diagnostics)")
    }

    /// Two files' `defaults` that differ: a finding at each setting that differs, with a note at the other.
    @Test func conflictingDefaultsPointAtTheSettingThatDiffers() throws {
        let base = "version: 1\ndefaults:\n  daily_cap: 5\n  min_interval: 1m\nplacements:\n  x: {format: interstitial}\n"
        let differ = PolicyLoader.load(texts: [("a.yaml", base), ("b.yaml", "version: 1\ndefaults:\n  min_interval: 2m\n  daily_cap: 5\n")])
        let d = try #require(differ.diagnostics.first)
        #expect(d.rule == "policy/conflicting-setting")
        #expect(d.message == "defaults.min_interval is 2m here but 1m at a.yaml:4:17: one policy has one defaults.min_interval; make the values equal or keep it in one file")
        #expect((d.file, d.range.start) == ("b.yaml", SourcePosition(line: 3, column: 17)))
        #expect(d.notes.map { "\($0.file):\($0.position.line):\($0.position.column)" } == ["a.yaml:4:17"])
        // Set in one file only: at the other file's `defaults:`, with the note at the value.
        let missing = PolicyLoader.load(texts: [("a.yaml", base), ("b.yaml", "version: 1\ndefaults:\n  min_interval: 1m\n")])
        let m = try #require(missing.diagnostics.first)
        #expect(m.message.hasPrefix("defaults.daily_cap is not set here but 5 at a.yaml:3:14"), "\(m.message)")
        #expect((m.file, m.range.start.line) == ("b.yaml", 2))
        // Set in the later file only: the note says the earlier defaults leave it out; a caps list reads as written.
        let added = PolicyLoader.load(texts: [("a.yaml", base), ("b.yaml", "version: 1\ndefaults:\n  daily_cap: 5\n  min_interval: 1m\n  caps: [{max: 2, window: 1h}]\n")])
        let a = try #require(added.diagnostics.first)
        #expect(a.message.hasPrefix("defaults.caps is [{max: 2, window: 1h}] here but not set at a.yaml:2:1"), "\(a.message)")
        #expect(a.notes.map(\.message) == ["the defaults here do not set caps"])
        // A defaults block with an error is reported for the error alone: the value it lost is no conflict.
        let broken = PolicyLoader.load(texts: [("a.yaml", base), ("b.yaml", "version: 1\ndefaults:\n  daily_cap: six\n  min_interval: 1m\n")])
        #expect(broken.diagnostics.map(\.rule) == ["schema/type"], "\(broken.diagnostics)")
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

    /// A list attribute's bad item is named as an item: "tags must be a string" read as if the list were wrong.
    @Test func aListItemOfTheWrongTypeIsNamedAsAnItem() {
        let messages = PolicyLoader.load(texts: [("p.yaml", """
            version: 1
            attributes:
              tags: {type: "[string]", default: [a, 1]}
              levels: {type: "[int]", default: [1, x]}
            placements:
              a: {format: banner}

            """)]).diagnostics.map(\.message)
        #expect(messages.contains("each item of default must be a string, not the number 1: quote it (\"1\")"), "\(messages)")
        #expect(messages.contains { $0.hasPrefix("each item of default must be a whole number") }, "\(messages)")
    }

    /// A policy written into a scenario file, a retry time of "none", and a lone surrogate in an escape are told what to write.
    @Test func scenarioMistakesAreToldWhatToWrite() throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")
        func messages(_ text: String) -> [String] {
            ScenarioDecoder.decode(Array(text.utf8), file: "s.test.yaml", policy: policy).1.map(\.message)
        }
        let test = "tests:\n  - name: x\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {ask: show, placement: a, expect: deny, retry_in: RETRY}\n"
        #expect(messages("placements: {}\n" + test.replacingOccurrences(of: "RETRY", with: "null")).contains {
            $0.contains("placements belongs in a rule file, not a scenario file")
        })
        for retry in ["none", "\"null\""] {
            #expect(messages(test.replacingOccurrences(of: "RETRY", with: retry)).contains { $0.hasSuffix(": write retry_in: null") }, "\(retry)")
        }
        #expect(messages(test.replacingOccurrences(of: "name: x", with: #"name: "x\ud800""#).replacingOccurrences(of: "RETRY", with: "null")).contains {
            $0.contains("a lone surrogate such as")
        })
        // A test named `on` keeps its name, with the warning any string field gets for a plain on.
        let named = ScenarioDecoder.decode(Array(test.replacingOccurrences(of: "name: x", with: "name: on").replacingOccurrences(of: "RETRY", with: "null").utf8), file: "s.test.yaml", policy: policy)
        #expect(named.1.map(\.rule) == ["yaml/ambiguous-bool"] && named.1.first?.severity == .warning, "\(named.1)")
        #expect(named.0.tests.first?.name == "on")
    }

    /// Tests (and a usage model's segments) keyed by name, as a rule file keys its placements, are told to make each a
    /// list item with `name:`; the advice, followed as written, reads clean.
    @Test func testsKeyedByNameAreToldToBeListItems() throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")
        let keyed = "tests:\n  cold start:\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {ask: load, placement: a, expect: allow}\n"
        let found = ScenarioDecoder.decode(Array(keyed.utf8), file: "s.test.yaml", policy: policy).1
        #expect(found.map(\.message) == [
            "tests must be a list, not a mapping: write each test as a list item with its name, `- name: cold start` in place of `cold start:`, its settings indented under it as they are",
        ])
        let followed = keyed.replacingOccurrences(of: "  cold start:\n", with: "  - name: cold start\n")
        #expect(ScenarioDecoder.decode(Array(followed.utf8), file: "s.test.yaml", policy: policy).1.isEmpty)
    }

    /// Slips of scenario files that libyaml reads as something else: tests without their `tests:` line, and JSON's habit
    /// of no space after a colon (in rule files too).
    @Test func scenarioShapeSlipsSayWhatToWrite() throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")
        func messages(_ text: String) -> [String] {
            ScenarioDecoder.decode(Array(text.utf8), file: "s.test.yaml", policy: policy).1.map(\.message)
        }
        #expect(messages("- name: x\n  start: 2026-11-29T09:00:00Z\n  steps:\n    - event: app_launched\n") == [
            "a scenario file must be a mapping of keys to values, not a list: the tests need a `tests:` line above them, with the list indented under it",
        ])
        // An ask written as an event, and an event as an ask, are told which they are.
        let swapped = messages("tests:\n  - name: x\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - {event: show, placement: a}\n      - {ask: show_started, placement: a}\n")
        #expect(swapped.map { $0.components(separatedBy: "; not ").last ?? "" } == [
            "\"show\": show is an ask, not an event: write ask: show, with expect: allow or deny",
            "\"show_started\": show_started is an event, not an ask: write event: show_started",
        ], "\(swapped)")
        // A misspelt `test:` is one finding, where it stands.
        let misspelt = messages("test:\n  - name: x\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n")
        #expect(misspelt.count == 1 && misspelt[0].contains("did you mean \"tests\"?"), "\(misspelt)")
        let head = "tests:\n  - name: x\n    start: 2026-11-29T09:00:00Z\n    steps:\n"
        // One finding a glued key, and no "this step has no event or ask" or "has no placement" after them.
        #expect(messages(head + "      - {ask:load, placement:a}\n") == [
            "unknown key \"ask:load\" in a step: YAML reads a key only with a space after its colon: write ask: load",
            "unknown key \"placement:a\" in a step: YAML reads a key only with a space after its colon: write placement: a",
        ])
        let rules = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format:interstitial, min_interval: 1m}\n")]).diagnostics
        #expect(rules.map(\.message) == [
            "unknown key \"format:interstitial\" in placement \"a\": YAML reads a key only with a space after its colon: write format: interstitial",
        ])
        // A value that would not read back as written (an alias, a comment) is not shown as what to write.
        let star = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - {id: r, deny:*, when: premium}\n")]).diagnostics
        #expect(star.map(\.message) == ["unknown key \"deny:*\" in rule \"r\": YAML reads a key only with a space after its colon: put one after deny:"], "\(star)")
        #expect(messages("tests:\n  - name: x\n    start: 2026-11-29T09:00:00Z\n    history: [{placement:a, at: 2026-11-29T08:00:00Z}]\n    steps: [{event: app_launched}]\n") == [
            "unknown key \"placement:a\" in a history entry: YAML reads a key only with a space after its colon: write placement: a",
        ])
        // Tests without their `- ` whose first key is a test's own are not told that key is a name.
        let unnamed = messages("tests:\n  context: {premium: true}\n  name: x\n")
        #expect(!unnamed.contains { $0.contains("- name: context") }, "\(unnamed)")
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

    /// `premium` written as an attribute would run the test as a user who is not premium: it is an error that says
    /// where the flag goes. A negative `after:` says how a clock set back is written.
    @Test func scenarioContextAndClockSlipsSayWhatToWrite() throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: rewarded}\nattributes:\n  screen: string\n")
        func found(_ step: String, context: String = "") -> [Diagnostic] {
            let text = "tests:\n  - name: x\n    start: 2026-11-29T09:00:00Z\n\(context)    steps:\n      - \(step)\n"
            return ScenarioDecoder.decode(Array(text.utf8), file: "s.test.yaml", policy: policy).1
        }
        let premium = found("{ask: offer, placement: a, expect: deny}", context: "    context: {attributes: {premium: true, screen: home}}\n")
        #expect(premium.count == 1, "\(premium)")
        #expect(premium.first?.severity == .error && premium.first?.rule == "schema/unknown-key", "\(premium)")
        #expect(premium.first?.message.contains("write it beside `attributes:`, as in context: {premium: true}") == true, "\(premium)")
        #expect(premium.first?.range.start == SourcePosition(line: 4, column: 28), "\(premium)")
        let inStep = found("{ask: offer, placement: a, expect: deny, context: {attributes: {premium: false}}}")
        #expect(inStep.contains { $0.rule == "schema/unknown-key" && $0.message.contains("as in context: {premium: false}") }, "\(inStep)")
        let back = found("{after: -5m, event: app_launched}")
        #expect(back.count == 1 && back[0].rule == "schema/duration" && back[0].message.contains("to set the clock back, write at:"), "\(back)")
        // A negative number with no unit is still told it is no duration, as any duration key is.
        let bare = found("{after: -5, event: app_launched}")
        #expect(bare.count == 1 && bare[0].message == "after is a duration, which is never negative: write 0s, or a duration such as 90s or 4m", "\(bare)")
        // A false written as YAML 1.2 spells it, quoted, or as a YAML 1.1 no keeps its value in the advice.
        for written in ["False", "\"false\"", "no"] {
            let notPremium = found("{ask: offer, placement: a, expect: allow}", context: "    context: {attributes: {premium: \(written)}}\n")
            #expect(notPremium.first?.message.hasSuffix("as in context: {premium: false}") == true, "\(written): \(notPremium)")
        }
    }

    /// A finding placed in `defaults:` says which placements it is about: a setting all of them take is said once,
    /// naming them; a default cap compared with a placement's own names that placement, with a note at its value.
    @Test func findingsInDefaultsNameTheirPlacements() {
        let text = """
            version: 1
            defaults:
              min_interval: 2h
              hourly_cap: 9
              daily_cap: 13
              require_user_choice: false
            placements:
              a: {format: interstitial}
              b: {format: interstitial, daily_cap: 8}
              r1: {format: rewarded}
              r2: {format: rewarded}
              r3: {format: rewarded, require_user_choice: false}

            """
        let found = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        let choice = found.filter { $0.rule == "rewarded/no-user-choice" }
        #expect(choice.count == 2, "\(choice)")
        let fromDefaults = choice.first { $0.range.start.line == 6 }
        #expect(fromDefaults?.message.hasSuffix("(placements r1 and r2 take require_user_choice: false from defaults; to change one alone, set it on that placement)") == true, "\(choice)")
        #expect(fromDefaults?.notes.map(\.position.line) == [10, 11], "\(choice)")
        // The placement's own value is reported at it, as before, naming nothing.
        #expect(choice.contains { $0.range.start.line == 12 && !$0.message.contains("from defaults") }, "\(choice)")
        let hourly = found.filter { $0.rule == "cap/unreachable" && $0.message.hasPrefix("hourly_cap 9") }
        #expect(hourly.count == 1, "\(found)")
        #expect(hourly.first?.message.hasPrefix("hourly_cap 9 can never bind for placement b: daily_cap is 8") == true, "\(hourly)")
        #expect(hourly.first?.range.start.line == 4 && hourly.first?.notes.map(\.message) == ["placement b sets daily_cap 8 here"], "\(hourly)")
        #expect(hourly.first?.notes.first?.position == SourcePosition(line: 9, column: 40), "\(hourly)")
        // One default too long for three formats is a finding for each (their limits and words differ), each naming its
        // placement.
        let age = PolicyLoader.load(texts: [("p.yaml", """
            version: 1
            defaults: {max_ad_age: 5h, min_interval: 5m}
            placements:
              o: {format: app_open}
              i: {format: interstitial}
              r: {format: rewarded}

            """)]).diagnostics.filter { $0.rule == "expiry/too-long" }.map(\.message)
        #expect(age.count == 3, "\(age)")
        #expect(age.contains { $0.contains("cached app_open ad valid") && $0.contains("write max_ad_age: 4h or less (placement o takes") }, "\(age)")
        #expect(age.contains { $0.contains("cached interstitial ad valid") && $0.contains("write max_ad_age: 1h or less (placement i takes") }, "\(age)")
        #expect(age.contains { $0.contains("cached rewarded ad valid") && $0.contains("write max_ad_age: 1h or less (placement r takes") }, "\(age)")
        // Both values in defaults: said once, naming no placement.
        let daily = found.filter { $0.rule == "cap/unreachable" && $0.message.hasPrefix("daily_cap 13") }
        #expect(daily.count == 1 && daily[0].notes.isEmpty && !daily[0].message.contains("placement"), "\(daily)")
    }

    /// A placement with no format whose `launch:` or `resume:` shows it is app_open is told to add that format, not
    /// one that would then make those blocks an error.
    @Test func aMissingFormatBesideAnAppOpenBlockSaysAppOpen() {
        let found = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    min_interval: 1m\n    resume: {max_delay: 2s}\n")]).diagnostics
        #expect(found.map(\.message) == ["placement \"a\" has no format: add `format: app_open`"], "\(found)")
    }

    /// A value that shortens, lengthens or renames one allowed value is told which: `prod`, `integer`, `float`.
    @Test(arguments: [
        ("environment: prod", #"not "prod": did you mean "production"?"#), ("attributes: {a: integer}", #"not "integer": did you mean "int"?"#),
        ("attributes: {a: float}", #"not "float": did you mean "number"?"#), ("attributes: {a: {type: text}}", #"not "text": did you mean "string"?"#),
        ("defaults: {min_interval: 1m}\nplacements:\n  x: {format: inter}", #"not "inter": did you mean "interstitial"?"#),
    ])
    func anEnumValueShortenedOrRenamedIsToldWhich(_ line: String, _ message: String) {
        let text = "version: 1\n" + line + (line.contains("placements") ? "\n" : "\nplacements:\n  p: {format: banner}\n")
        let found = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        #expect(found.map(\.rule) == ["schema/enum"] && found.first?.message.hasSuffix(message) == true, "\(found)")
    }

    /// A yes or no where a word of a list belongs is no misspelt word: `environment: yes` lists the values, with no
    /// "did you mean test".
    @Test func aYesWhereAWordBelongsGetsNoSuggestion() {
        let found = PolicyLoader.load(texts: [("p.yaml", "version: 1\nenvironment: yes\nplacements:\n  p: {format: banner}\n")]).diagnostics
        #expect(found.map(\.message) == ["environment must be one of production, test; not \"yes\""], "\(found)")
    }

    /// A missing value that no one value fits is described, never made up: a placement with no format is told the
    /// formats (and the one its id names), a rule with no condition what `when:` holds, and a misspelt key of a rule
    /// or a cap is told once, as "did you mean", not also that the key is missing.
    @Test func aMissingValueIsDescribedNotMadeUp() {
        let text = """
            version: 1
            placements:
              rewarded_hint: {daily_cap: 3}
              level_end: {min_interval: 1m}
              x: {format: banner, caps: [{max: 3, windw: 1h}]}
            rules:
              - {id: r, deny: [x], whn: premium}
              - {id: s, deny: [x]}

            """
        let found = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics.map(\.message)
        let formats = "app_open, interstitial, rewarded, rewarded_interstitial, banner, native"
        #expect(found == [
            "placement \"rewarded_hint\" has no format: add `format:` with one of \(formats) (the id says `format: rewarded`)",
            "placement \"level_end\" has no format: add `format:` with one of \(formats)",
            "unknown key \"windw\" in a cap: did you mean \"window\"?",
            "unknown key \"whn\" in rule \"r\": did you mean \"when\"?",
            "rule \"s\" has no when: add `when:` with the condition under which the rule denies, as in `when: screen == \"checkout\"`",
        ], "\(found)")
    }

    /// An attribute with a default and no type is told the type its default reads as, not `type: string` for a bool.
    @Test(arguments: [
        ("{default: false}", "bool"), ("{default: 3}", "int"), ("{default: 2.5}", "number"), ("{default: 30s}", "duration"),
        ("{default: [1, 2]}", "[int]"), ("{default: [a, b]}", "[string]"), ("{default: \"3\"}", "string"), ("{}", "string"),
    ])
    func anAttributeWithNoTypeIsToldItsDefaultsType(_ attribute: String, _ type: String) {
        let found = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  p: {format: banner}\nattributes:\n  level: \(attribute)\n")]).diagnostics
        #expect(found.map(\.message) == ["attribute \"level\" has no type: add `type: \(type)`"], "\(found)")
    }

    /// Scenario files kept apart from their policy say to name it with --rules.
    @Test func scenarioFilesWithNoPolicyBesideThemSayToGiveRules() throws {
        let tests = try scratch(["a.test.yaml": "tests:\n  - name: t\n    start: 2026-12-01T09:00:00Z\n    steps:\n      - {ask: load, placement: a, expect: allow}\n"])
        for command in [["test", tests], ["simulate", tests + "/a.test.yaml"]] {
            let run = runCLI(command)
            #expect(run.stderr.contains("no rule files in \(tests)") && run.stderr.contains("add --rules with the policy"), "\(command): \(run.stderr)")
        }
        // Named with --rules, an empty policy directory is only said to be empty.
        let empty = try scratch(["notes.txt": "none\n"])
        let named = runCLI(["test", tests, "--rules", empty])
        #expect(named.stderr.contains("no rule files in \(empty)") && !named.stderr.contains("add --rules"), "\(named.stderr)")
    }

    @Test func testingNothingFails() throws {
        let dir = try scratch(["p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n"])
        let result = runCLI(["test", dir])
        #expect(result.exitCode == ExitCode.findings)
        #expect(result.stderr.contains("no scenario tests"))
        #expect(result.stderr.contains(dir))
        #expect(!result.stdout.contains("FAIL"), "\(result.stdout)")
        // A broken policy with no test under it is still reported, as it would stop every test, beside the error.
        let broken = try scratch(["p.yaml": "version: 1\nplacements:\n  a: {format: banner, daily_cap: -1}\n"])
        for format in ["text", "json"] {
            let run = runCLI(["test", broken, "--format", format])
            #expect(run.exitCode == ExitCode.findings, "\(format)")
            #expect(run.stderr.contains("no scenario tests"), "\(format): \(run.stderr)")
            #expect(run.stdout.contains("daily_cap must be >= 0, not -1"), "\(format): \(run.stdout)")
            #expect(run.stdout.contains("the policy in \(broken) has errors: no test ran"), "\(format): \(run.stdout)")
        }
        // Once, however its path is written.
        let spelled = runCLI(["test", broken, broken + "/", broken + "/."])
        #expect(spelled.stdout.components(separatedBy: "has errors: no test ran").count == 2, "\(spelled.stdout)")
        #expect(spelled.stdout.hasSuffix("0 passed, 1 failed\n"), "\(spelled.stdout)")
        // Beside a path that has tests: `test good bad` does not pass on good's tests alone, and a path with a sound
        // policy and no test is warned about.
        let good = try scratch([
            "p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n",
            "a.test.yaml": "tests:\n  - name: t\n    start: 2026-12-01T09:00:00Z\n    steps:\n      - {ask: load, placement: a, expect: allow}\n",
        ])
        let mixed = runCLI(["test", good, broken])
        #expect(mixed.exitCode == ExitCode.findings, "\(mixed.stdout)")
        #expect(mixed.stdout.contains("PASS t") && mixed.stdout.contains("the policy in \(broken) has errors: no test ran"), "\(mixed.stdout)")
        #expect(mixed.stdout.hasSuffix("1 passed, 1 failed\n"), "\(mixed.stdout)")
        let sound = runCLI(["test", good, dir])
        #expect(sound.exitCode == ExitCode.success, "\(sound.stdout)")
        #expect(sound.stderr.contains("warning: no scenario test (*.test.yaml) under \(dir): nothing there was tested"), "\(sound.stderr)")
        // Two paths with no test under one policy (`--rules`) are each warned about.
        let other = try scratch(["notes.txt": "no scenario here\n"])
        let two = runCLI(["test", "--rules", good, good, dir, other])
        #expect(two.stderr.contains("under \(dir): nothing there was tested") && two.stderr.contains("under \(other): nothing there was tested"), "\(two.stderr)")
        // Beside tests that ran, a path whose policy cannot be read fails the run as one with tests would (exit 3); alone,
        // it is a run that tested nothing (exit 1).
        let unreadable = try scratch(["notes.txt": "no rule file here\n"])
        let withTests = runCLI(["test", good, unreadable])
        #expect(withTests.exitCode == ExitCode.failure, "\(withTests.stderr)")
        #expect(withTests.stderr.contains("error: ") && withTests.stderr.contains(unreadable), "\(withTests.stderr)")
        // Alone, the read error is still said: it is why nothing there could have run.
        let alone = runCLI(["test", unreadable])
        #expect(alone.exitCode == ExitCode.findings)
        #expect(alone.stderr.contains("error: ") && alone.stderr.contains(unreadable) && alone.stderr.contains("nothing was tested"), "\(alone.stderr)")
        #expect(alone.stderr.components(separatedBy: "error: ").count == 3, "the read error and nothing tested, once each: \(alone.stderr)")
        // Named twice, it is said once.
        let twice = runCLI(["test", unreadable, unreadable + "/."])
        #expect(twice.stderr.components(separatedBy: "error: ").count == 3, "\(twice.stderr)")
        // An empty list of tests is told where it is, by test and simulate alike (simulate replayed nothing and passed).
        let empty = try scratch(["p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n", "e.test.yaml": "tests: []\n"])
        for command in ["test", "simulate"] {
            let run = runCLI([command, empty + "/e.test.yaml"])
            #expect(run.exitCode == ExitCode.findings, "\(command)")
            #expect((run.stdout + run.stderr).contains("e.test.yaml:1:8: error: tests lists no test: add one, with its name, start and steps (schema/missing-key)"), "\(command): \(run.stdout) \(run.stderr)")
        }
    }

    /// A rule file named to `test` holds no test: it is not decoded as a scenario (every key of it unknown), and with
    /// nothing else to run the run fails as one that tests nothing.
    @Test func aRuleFileNamedToTestHoldsNoTest() throws {
        let dir = try scratch(["p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n"])
        let result = runCLI(["test", dir + "/p.yaml"])
        #expect(result.exitCode == ExitCode.findings)
        #expect(result.stderr.contains("is not a scenario file (*.test.yaml)"), "\(result.stderr)")
        #expect(result.stderr.contains("no scenario tests"))
        #expect(!result.stdout.contains("unknown key"), "\(result.stdout)")
        // simulate replays one scenario file: a rule file named to it is a usage error, not a scenario of unknown keys.
        let replay = runCLI(["simulate", dir + "/p.yaml"])
        #expect(replay.exitCode == ExitCode.usage)
        #expect(replay.stderr.contains("is not a scenario file (*.test.yaml)"), "\(replay.stderr)")
    }

    @Test func aBrokenPolicyIsReportedOnceAndNoTestRuns() throws {
        let test = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n"
        let dir = try scratch(["p.yaml": "version: 1\nplacements:\n  a: {format: banner, daily_cap: six}\n", "a.test.yaml": test, "b.test.yaml": test])
        let result = runCLI(["test", dir])
        #expect(result.exitCode == ExitCode.findings)
        #expect(result.stdout.components(separatedBy: "(schema/type)").count == 2, "one report: \(result.stdout)")
        #expect(!result.stdout.contains("PASS"))
        let simulate = runCLI(["simulate", dir + "/a.test.yaml"])
        #expect(simulate.exitCode == ExitCode.findings)
        #expect(simulate.stdout.contains("(schema/type)"))
    }

    /// What a message tells the user to write must itself be valid.
    @Test(arguments: [
        ("max_ad_age: 90", "write 90s or 90m"),
        ("max_ad_age: 1.5", "such as 90s or 1m30s, not 1.5"),
        ("max_ad_age: -5", "never negative: write 0s"),
        ("min_interval: 2d, daily_cap: 1", "remove daily_cap"),
    ])
    func adviceIsItselfValid(_ settings: String, _ advice: String) {
        let text = "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m, \(settings)}\n".replacingOccurrences(of: "min_interval: 1m, min_interval", with: "min_interval")
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        #expect(diagnostics.contains { $0.message.contains(advice) }, "\(diagnostics)")
        #expect(!diagnostics.contains { $0.message.contains("-5s") || $0.message.contains("1.5s") || $0.message.contains("daily_cap to 0") })
    }

    /// A merge key is reported as such; the format it would have brought is not reported missing too.
    @Test func aMergeKeyIsOneFinding() {
        let text = "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n  b:\n    <<: {format: interstitial}\n    daily_cap: 3\n  c: {min_interval: 1m}\n"
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        #expect(diagnostics.map(\.rule) == ["yaml/alias", "schema/missing-key"], "\(diagnostics)")
        #expect(diagnostics.last?.message.contains("\"c\"") == true)
    }

    /// A whole number too long to read safely says so wherever a whole number is read: an attribute's default and a
    /// scenario's context as well as a cap (before, "must be a whole number, not \"1234567890123456789\"").
    @Test func aTooLongWholeNumberSaysSoInDefaultsAndContexts() {
        let text = "version: 1\nattributes:\n  i: {type: int, default: 1234567890123456789}\n  l: {type: \"[int]\", default: [1, 12345678901234567890]}\nplacements:\n  a: {format: banner}\n"
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        #expect(diagnostics.count == 2, "\(diagnostics)")
        #expect(diagnostics.allSatisfy { $0.rule == "schema/range" && $0.message.contains("more digits than this tool reads safely") }, "\(diagnostics)")
        let policy = PolicyLoader.load(texts: [("p.yaml", "version: 1\nattributes:\n  i: int\nplacements:\n  a: {format: banner}\n")]).policy
        let scenario = "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    context: {attributes: {i: 1234567890123456789}}\n    steps:\n      - event: app_launched\n"
        let (_, found) = ScenarioDecoder.decode(Array(scenario.utf8), file: "t.test.yaml", policy: policy)
        #expect(found.map(\.rule) == ["schema/range"], "\(found)")
    }

    /// cli.md r2: in a scenario file too, a key valid one level deeper or shallower says which block it belongs to, and
    /// the advice, followed, gives a file with no such finding (a step's `start` is not sent beside the test's own).
    @Test func aScenarioKeyAtTheWrongDepthNamesItsBlock() throws {
        let policy = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  p: {format: banner}\n")]).policy
        let marked = MarkedText("""
            1️⃣name: top
            tests:
              - name: t
                start: 2026-11-29T12:00:00Z
                2️⃣premium: true
                history:
                  - {placement: p, at: 2026-11-29T11:00:00Z, 3️⃣event: show_started}
                context: {premium: false, 4️⃣expect: allow}
                steps:
                  - {event: app_launched, 5️⃣premium: true}
                  - {ask: show, placement: p, 6️⃣attributes: {screen: a}}
                  - {ask: show, placement: p, 7️⃣start: 2026-11-29T12:00:00Z, context: {8️⃣name: x}}
                9️⃣expect: allow

            """)
        // Each finding at its marker, with its message in full, and nothing else.
        func expectAdvice(_ text: MarkedText, _ expected: [(String, String)]) {
            let (_, found) = ScenarioDecoder.decode(Array(text.text.utf8), file: "t.test.yaml", policy: policy)
            #expect(found.count == expected.count, "\(found)")
            for (marker, message) in expected {
                #expect(found.contains { $0.range.start == text[marker] && $0.message == message && $0.rule == "schema/unknown-key" }, "\(marker): \(found)")
            }
        }
        expectAdvice(marked, [
            ("1️⃣", "unknown key \"name\" in a scenario file: name is a setting of a test: indent it under an entry of `tests:` (each entry starts with - name:)"),
            ("2️⃣", "unknown key \"premium\" in a test: premium belongs in the test's `context:`, which holds the premium flag and attributes of every ask: write context: {premium: true}"),
            ("3️⃣", "unknown key \"event\" in a history entry: a history entry is a past show, with placement and at only: event belongs to a step in `steps:`"),
            ("4️⃣", "unknown key \"expect\" in context: expect is not part of `context:`, which takes premium and attributes: write it in a step"),
            ("5️⃣", "unknown key \"premium\" in a step: premium is part of a context, which an event does not take: put it in the test's `context:` (every ask) or in an ask step's"),
            ("6️⃣", "unknown key \"attributes\" in a step: attributes belongs in the ask's own `context:`: write context: {attributes: {screen: home}}"),
            ("7️⃣", "unknown key \"start\" in a step: a step sets its time with at: (a time) or after: (a duration since the step before), not start:"),
            ("8️⃣", "unknown key \"name\" in context: a step has no name: say what it does in a comment (# …) above it"),
            ("9️⃣", "unknown key \"expect\" in a test: expect belongs to a step: indent it under an entry of `steps:`"),
        ])
        // A key that the block it belongs to has already is not sent there again.
        let again = MarkedText("""
            tests:
              - name: t
                start: 2026-11-29T12:00:00Z
                context: {1️⃣name: u, 2️⃣steps: []}
                steps:
                  - {ask: show, placement: p, context: {3️⃣placement: p, 4️⃣event: app_launched}}

            """)
        expectAdvice(again, [
            ("1️⃣", "unknown key \"name\" in context: name is a setting of the test, written once beside its `steps:`; it is not part of a context, which takes premium and attributes"),
            ("2️⃣", "unknown key \"steps\" in context: steps is the test's one list of steps: write each step as an entry of it, not inside another block"),
            ("3️⃣", "unknown key \"placement\" in context: placement is not part of `context:`, which takes premium and attributes: the ask has its own placement, beside `context:`"),
            ("4️⃣", "unknown key \"event\" in context: event belongs to an event step, not to an ask's `context:`: write the event as a step of its own"),
        ])
        // Written where the advice says, the keys are read.
        let mended = """
            tests:
              - name: t
                start: 2026-11-29T12:00:00Z
                context: {premium: true}
                history:
                  - {placement: p, at: 2026-11-29T11:00:00Z}
                steps:
                  - event: app_launched
                  - {ask: show, placement: p, context: {attributes: {screen: a}}, expect: deny}
                  - {at: 2026-11-29T12:00:00Z, ask: show, placement: p}

            """
        let (_, none) = ScenarioDecoder.decode(Array(mended.utf8), file: "t.test.yaml", policy: policy)
        #expect(none.filter { $0.rule == "schema/unknown-key" }.isEmpty, "\(none)")
    }

    /// A time that misses a part RFC 3339 requires is told what to add, written out; one no such fix mends is not.
    @Test(arguments: [
        ("2026-11-29T09:00:00+0900", "add the colon of its offset: write 2026-11-29T09:00:00+09:00"),
        ("2026-11-29T09:00Z", "add its seconds: write 2026-11-29T09:00:00Z"),
        ("2026-11-29T09:00:00", "add its offset from UTC, as in 2026-11-29T09:00:00Z or 2026-11-29T09:00:00+09:00"),
        ("2026-11-29T09:00-0530", "add its seconds and the colon of its offset: write 2026-11-29T09:00:00-05:30"),
        ("2026-13-29T09:00:00", nil), ("2026-11-29", nil),
        // Only what a scenario takes: no fraction past milliseconds, and no year before 0001 in UTC.
        ("2026-11-29T09:00:00.1234", nil), ("2026-11-29T09:00:00.1234+0900", nil),
        ("0001-01-01T00:00", "add its seconds and its offset from UTC, as in 0001-01-01T00:00:00Z"),
    ] as [(String, String?)])
    func aTimeMissingAPartIsToldWhatToAdd(_ written: String, _ advice: String?) throws {
        let policy = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  p: {format: banner}\n")]).policy
        let text = "tests:\n  - name: t\n    start: \(written)\n    steps:\n      - event: app_launched\n"
        let (_, found) = ScenarioDecoder.decode(Array(text.utf8), file: "t.test.yaml", policy: policy)
        let message = try #require(found.first { $0.rule == "schema/type" }).message
        let head = "start must be an RFC 3339 time such as 2026-11-29T09:00:00+09:00, not \"\(written)\""
        #expect(message == head + (advice.map { ": " + $0 } ?? ""))
    }

    /// rules.md §8 (r2): recorded times later than now, "from a scenario's `history` and `installed` alike", are pinned
    /// to the time of the first step that comes before them: how a clock set back before a test is tested. Unpinned,
    /// the future show would count in its own day (no daily_cap today) and the install's grace would always be an hour
    /// away; pinned to start, the grace would end 10 minutes early.
    @Test func historyAndInstallAfterStartArePinnedToTheFirstStepBeforeThem() throws {
        let policy = PolicyLoader.load(texts: [("p.yaml", """
            version: 1
            timezone: UTC
            placements:
              p: {format: interstitial, min_interval: 4m, daily_cap: 1, grace: {after_install: 1h}}

            """)]).policy
        let text = """
            tests:
              - name: a show recorded tomorrow counts today, where it was pinned
                start: 2026-11-29T09:00:00Z
                installed: 2026-11-01T00:00:00Z
                history:
                  - {placement: p, at: 2026-11-30T10:00:00Z}
                steps:
                  - event: app_launched
                  - {event: load_completed, placement: p}
                  - {after: 1m, ask: show, placement: p, trigger: action, expect: deny, reasons: [min_interval, daily_cap], retry_in: 14h59m}
                  - {at: 2026-11-30T00:00:00Z, event: load_completed, placement: p}
                  - {ask: show, placement: p, trigger: action, expect: allow}
              - name: an install after start starts its grace at the first step
                start: 2026-11-29T09:00:00Z
                installed: 2026-12-05T00:00:00Z
                steps:
                  - event: app_launched
                  - {event: load_completed, placement: p}
                  - {after: 10m, ask: show, placement: p, trigger: action, expect: deny, reasons: [grace_install], retry_in: 50m}
                  - {after: 50m, ask: show, placement: p, trigger: action, expect: allow}
              - name: a time after start is pinned to the first step before it, not to start
                start: 2026-11-29T09:00:00Z
                installed: 2026-11-29T12:00:00Z
                steps:
                  - {after: 10m, event: app_launched}
                  - {event: load_completed, placement: p}
                  - {after: 10m, ask: show, placement: p, trigger: action, expect: deny, reasons: [grace_install], retry_in: 50m}
              - name: a time after start that no step comes before is kept as written
                start: 2026-11-29T09:00:00Z
                installed: 2026-11-29T09:30:00Z
                steps:
                  - {after: 1h, event: app_launched}
                  - {event: load_completed, placement: p}
                  - {ask: show, placement: p, trigger: action, expect: deny, reasons: [grace_install], retry_in: 30m}

            """
        let (scenario, found) = ScenarioDecoder.decode(Array(text.utf8), file: "t.test.yaml", policy: policy)
        #expect(found.isEmpty, "\(found)")
        try #require(scenario.tests.count == 4)
        for test in scenario.tests {
            let outcome = ScenarioRunner.run(test, policy: policy)
            #expect(outcome.passed, "\(test.name): \(outcome.failures.map(\.mismatches))")
        }
    }

    /// cli.md r2: an attribute written beside `premium` in a context belongs one level deeper, under `attributes:`; a
    /// misspelt one gets "did you mean" too. Followed, the advice gives a context the decoder reads.
    @Test func anAttributeBesidePremiumSaysToWriteItUnderAttributes() throws {
        let policy = PolicyLoader.load(texts: [("p.yaml", "version: 1\nattributes:\n  screen: {type: string, default: home}\nplacements:\n  p: {format: banner}\n")]).policy
        let text = MarkedText("""
            tests:
              - name: t
                start: 2026-11-29T12:00:00Z
                context: {1️⃣screen: shop}
                steps:
                  - {ask: show, placement: p, context: {premium: true, 2️⃣scren: a, 3️⃣lvl: 3}}

            """)
        let (_, found) = ScenarioDecoder.decode(Array(text.text.utf8), file: "t.test.yaml", policy: policy)
        func at(_ marker: String) -> String { "\(text[marker]?.line ?? 0):\(text[marker]?.column ?? 0)" }
        #expect(found.map { "\($0.range.start.line):\($0.range.start.column) \($0.message)" } == [
            "\(at("1️⃣")) unknown key \"screen\" in context: screen is an attribute of the policy: write it under `attributes:`, as in context: {attributes: {screen: …}}",
            "\(at("2️⃣")) unknown key \"scren\" in context: did you mean the attribute \"screen\"? Attributes go under `attributes:`, as in context: {attributes: {screen: …}}",
            "\(at("3️⃣")) unknown key \"lvl\" in context: the keys here are premium, attributes",
        ])
        let mended = "tests:\n  - name: t\n    start: 2026-11-29T12:00:00Z\n    context: {attributes: {screen: shop}}\n    steps:\n      - event: app_launched\n"
        let (_, none) = ScenarioDecoder.decode(Array(mended.utf8), file: "t.test.yaml", policy: policy)
        #expect(none.isEmpty, "\(none)")
    }

    /// A policy's conditions get "did you mean" for their first 1,000 unknown names, and the others the plain advice:
    /// each suggestion looks at every attribute (a 16 MB file of unknown names against 1,000 attributes ran over a
    /// minute; now 6 s).
    @Test func unknownNamesGetAThousandSuggestionsAPolicy() {
        // Two files of 600, as a file prints 1,000 diagnostics.
        func rules(_ range: Range<Int>) -> String { range.map { "  - {id: r\($0), deny: \"*\", when: \"levle > \($0)\"}\n" }.joined() }
        let p = "version: 1\nattributes:\n  level: int\nplacements:\n  a: {format: banner}\nrules:\n" + rules(0..<600)
        let q = "version: 1\nrules:\n" + rules(600..<1_200)
        let messages = PolicyLoader.load(texts: [("p.yaml", p), ("q.yaml", q)]).diagnostics.map(\.message).filter { $0.hasPrefix("unknown name") }
        #expect(messages.count == 1_200)
        #expect(messages.filter { $0.contains("did you mean \"level\"?") }.count == 1_000)
        #expect(messages.filter { $0.contains("declare it under `attributes`") }.count == 200)
    }

    /// cli.md: lint prints every diagnostic, and only a syntax error holds back what follows it (r2): a policy with
    /// no placements is reported beside any other error.
    @Test func anEmptyPolicyIsReportedBesideOtherErrors() {
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", "version: 1\nenvironment: bad\nplacements: {}\n")]).diagnostics
        #expect(diagnostics.map(\.rule).sorted() == ["policy/empty", "schema/enum"], "\(diagnostics)")
    }

    /// A `placements:` that is not a mapping was not read: "the policy has no placements" (add them) would tell the
    /// author to write what is there, and a group naming one of them would be told to define it.
    @Test(arguments: ["placements: [inter]", "placements: inter", "placements:"])
    func placementsThatAreNotAMappingBringNoFollowOnFindings(_ line: String) {
        let text = "version: 1\n\(line)\ngroups:\n  g: {placements: [inter], daily_cap: 3}\n"
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        #expect(diagnostics.map(\.rule) == ["schema/type"], "\(diagnostics)")
        #expect(diagnostics.first?.range.start.line == 2)
        // Only those: what the rest of the policy says about itself stands (a rule's unknown attribute).
        let other = PolicyLoader.load(texts: [
            ("a.yaml", text + "rules:\n  - {id: r, deny: \"*\", when: scren == \"x\"}\n"), ("b.yaml", "version: 1\nplacements:\n  inter: {format: interstitial}\n"),
        ]).diagnostics
        #expect(other.map(\.rule).sorted() == ["rule/unknown-name", "schema/type"], "\(other)")
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

    /// A trigger on an ask that takes none is reported at the `trigger` key, as every other misplaced step key is
    /// (before, at the step's first key: another line in a block step), and an offer's says what an offer is.
    @Test func aTriggerOnAnAskThatTakesNoneIsReportedAtTheKey() {
        let policy = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  rw: {format: rewarded}\n")]).policy
        let scenario = """
            tests:
              - name: t
                start: 2026-03-01T10:00:00Z
                steps:
                  - ask: load
                    placement: rw
                    trigger: action
                  - ask: offer
                    placement: rw
                    trigger: resume
                  - {ask: offer, placement: rw, trigger: action}

            """
        let (_, found) = ScenarioDecoder.decode(Array(scenario.utf8), file: "t.test.yaml", policy: policy)
        #expect(found.map { "\($0.range.start.line):\($0.range.start.column)-\($0.range.end.column)" } == ["7:9-16", "10:9-16"], "\(found)")
        #expect(found.map(\.rule) == ["schema/unknown-key", "schema/enum"])
        #expect(found.map(\.message) == [
            "trigger applies to show asks only: remove it",
            "an offer is always asked on a user action: remove the trigger (or write trigger: action)",
        ])
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

    /// Advice written back into the file as given lints clean, or at least past the finding (the lint audit's round):
    /// quoting a value with a backslash, a bare * outside deny, a ! before a condition, a cap of 0 on a placement
    /// already off, the strictest of several longer windows, and `!` between operands.
    @Test func adviceWrittenBackIsAccepted() {
        func messages(_ text: String) -> [String] { PolicyLoader.load(texts: [("p.yaml", "version: 1\n" + text)]).diagnostics.map(\.message) }
        #expect(messages("placements:\n  a:\n    format: banner\n    ad_unit: see C:\\pay: no ads # note\n").first?.hasSuffix(#"must be quoted: write ad_unit: 'see C:\pay: no ads'"#) == true)
        #expect(messages("placements:\n  a:\n    format: banner\n    ad_unit: 'see C:\\pay: no ads' # note\n").isEmpty)
        #expect(messages("placements:\n  a: {format: banner}\ngroups:\n  g:\n    placements: *\n").first?.contains("list the placement ids, as in placements: [level_end, app_open]") == true)
        #expect(messages("placements:\n  a: {format: banner}\nrules:\n  - id: r\n    when: premium\n    deny:\n      *\n").first?.hasSuffix(#"to mean every placement write "*" in quotes, as in deny: "*""#) == true)
        #expect(messages("placements: *\n").first?.hasSuffix(#"write the value in quotes if it is text; only a rule's deny takes "*" for every placement, as in deny: "*""#) == true)
        #expect(messages("placements:\n  a: {format: banner}\nrules:\n  - {id: r, when: premium, \"deny\": *}\n").first?.hasSuffix(#"to mean every placement write "*" in quotes, as in deny: "*""#) == true)
        #expect(messages("placements:\n  a: {format: banner}\nrules:\n  - {id: r, when: premium, deny: *}\n").first?.hasSuffix(#"to mean every placement write "*" in quotes, as in deny: "*""#) == true)
        #expect(messages("placements:\n  a: {format: banner}\nrules:\n  - id: r\n    deny: [a]\n    when: !premium\n") == ["explicit tag !premium is not allowed: in YAML a ! starts a tag; a condition negates with not: write not premium instead of !premium"])
        #expect(messages("placements:\n  a: {format: interstitial, min_interval: 1m, daily_cap: 0, enabled: false}\n").isEmpty)
        // A defaults cap of 0 reaching an enabled and a disabled placement: one warning, for the enabled one.
        #expect(messages("defaults:\n  daily_cap: 0\nplacements:\n  a: {format: banner}\n  b: {format: banner, enabled: false}\n") == ["daily_cap is 0, so this can never show: to turn a placement off, write enabled: false instead of daily_cap: 0"])
        let windows = messages("placements:\n  a:\n    format: interstitial\n    min_interval: 1m\n    daily_cap: 5\n    caps:\n      - {max: 3, window: 2d}\n      - {max: 6, window: 1h}\n")
        #expect(windows.last == "the cap of 6 in 1h can never bind: the cap of 3 in 2d is stricter over a window at least as long; lower it below 3 or remove it", "\(windows)")
        // Below 1 is only a cap of 0, which allows no show (cap/zero): the advice is to remove the cap.
        #expect(messages("placements:\n  b: {format: interstitial, min_interval: 1m, daily_cap: 2, caps: [{max: 1, window: 2d}]}\n") == [
            "daily_cap 2 can never bind: the cap of 1 in 2d is stricter over a window at least as long; remove it: the only lower cap, 0, allows no show"])
        #expect(messages("placements:\n  b: {format: interstitial, min_interval: 1m, daily_cap: 1, hourly_cap: 1}\n") == [
            "hourly_cap 1 can never bind: daily_cap is 1, so an hour never holds more shows than that; remove hourly_cap: the only lower cap, 0, allows no show"])
        // A calendar day is not a rolling 1d window: 5 shows late in one day and 3 early the next are 8 in 24 hours.
        #expect(messages("placements:\n  a: {format: interstitial, min_interval: 1m, daily_cap: 5, caps: [{max: 8, window: 1d}]}\n").isEmpty)
        #expect(messages("placements:\n  a: {format: interstitial, min_interval: 1m, daily_cap: 9, caps: [{max: 8, window: 1d}]}\n").isEmpty)
        #expect(messages("placements:\n  a: {format: interstitial, min_interval: 1m, daily_cap: 5, caps: [{max: 8, window: 20h}]}\n").count == 1)
        #expect(messages("placements:\n  a: {format: interstitial, min_interval: 1m, caps: [{max: 5, window: 1d}, {max: 8, window: 1d}]}\n").count == 1)
        #expect(messages("placements:\n  a: {format: banner}\nattributes:\n  level: int\nrules:\n  - {id: r, deny: [a], when: level ! 3}\n") == [#"unexpected "!": write != to compare"#])
        // A value written as an alias is unread, not missing: no pacing/missing beside its yaml/alias error.
        let alias = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: interstitial\n    min_interval: &p 90s\n  b:\n    format: interstitial\n    min_interval: *p\n")]).diagnostics
        #expect(alias.map(\.rule) == ["yaml/alias", "yaml/alias"], "\(alias)")
    }

    /// A well-formed duration with more digits than a duration reads is too long (schema/range), not malformed.
    @Test func aDurationWithTooManyDigitsIsTooLong() {
        let found = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 10000000000000s}\n")]).diagnostics
        #expect(found.map(\.rule) == ["schema/range"])
        #expect(found.first?.message == "min_interval is 10000000000000s, longer than the largest duration 366d: write at most 366d")
        let malformed = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 10000000000000x}\n")]).diagnostics
        #expect(malformed.map(\.rule) == ["schema/duration"])
        // Leading zeros do not make a number long.
        let zeros = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 0000000000090s}\n")])
        #expect(zeros.diagnostics.isEmpty, "\(zeros.diagnostics)")
        #expect(zeros.policy.placements.first?.minInterval.value == .seconds(90))
    }

    @Test func anEmptyDenyListSaysWhatToWrite() {
        let text = "version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - {id: r, deny: [], when: premium}\n"
        let diagnostics = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        #expect(diagnostics.map(\.message) == [#"deny is an empty list, so the rule would deny nothing: list placement ids, as in deny: [interstitial_level_end], or write deny: "*" for all"#])
    }

    @Test func aMistypedCommandGetsASuggestion() {
        let result = runCLI(["lnit"])
        #expect(result.exitCode == ExitCode.usage)
        #expect(result.stderr.hasPrefix(#"error: unknown command "lnit"; did you mean "lint"?"#))
        #expect(runCLI(["impct"]).stderr.hasPrefix(#"error: unknown command "impct"; did you mean "impact"?"#))
    }

    @Test func anUnknownOptionPrintsTheCommandsUsage() {
        let result = runCLI(["lint", "--frobnicate"])
        #expect(result.exitCode == ExitCode.usage)
        #expect(result.stderr.contains("USAGE: adrules lint"))
        #expect(!result.stderr.contains("COMMANDS:"))
    }

    @Test func helpSimulateDescribesTheScenarioFormat() {
        let result = runCLI(["help", "simulate"])
        #expect(result.stdout.contains("SCENARIO FILES"))
        #expect(result.stdout.contains("at:"))
    }

    @Test func aDailyCapReasonNamesTheDayAndZone() throws {
        let policy = try Policy(yaml: "version: 1\ntimezone: Asia/Tokyo\nplacements:\n  a: {format: interstitial, daily_cap: 1}\n")
        var facts = Facts(policy: policy, installedAt: 0)
        let now: Int64 = 1_795_000_000_000
        facts.apply(.appLaunched, at: now, policy: policy)
        facts.apply(.showStarted("a"), at: now, policy: policy)
        facts.apply(.adClosed("a"), at: now, policy: policy)
        facts.apply(.loadCompleted("a"), at: now, policy: policy)
        let decision = Evaluator.decide(.show("a", trigger: .action), policy: policy, facts: facts, now: now + 1000)
        let reason = try #require(decision.reasons.first { $0.code == .dailyCap })
        #expect(reason.message.contains("in Asia/Tokyo"))
        #expect(decision.description.contains("next at 20"), "a full date and zone: \(decision.description)")
    }
}
