import AdRules
import AdRulesCLI
import AdRulesCompiler
import AdRulesTestSupport
import AdRulesYAML
import Foundation
import Testing

/// Rule files: keys out of place, missing or misspelt, values of the wrong kind, and advice that fixes the file.
extension PlainWordsTests {
    /// A placement's (or group's) id line deleted: its settings stand where the ids do. One finding says the id line is
    /// missing; the settings after it, a block of settings included, and what a group naming the lost placement would
    /// say, are not findings too (there were six, with "placement grace has no format").
    /// Words other languages and tools use, told what a rule file writes: operators of SQL and C in a condition, a null,
    /// a list in parentheses, a list type named in words, and a list written without commas.
    @Test(arguments: [
        ("when: screen <> \"x\"", "unexpected \"<>\": write != for not equal"),
        ("when: screen == \"a\" | onboarding", "unexpected \"|\": write or"),
        ("when: screen == \"a\" & onboarding", "unexpected \"&\": write and"),
        ("when: screen IN [\"a\"]", "unexpected IN after a complete expression: the language's words are lowercase: write in"),
        ("when: onboarding == null", "unknown name \"null\": a condition has no null; an attribute the app does not pass takes its default"),
        ("when: screen in (\"a\", \"b\")", "found ,: a list is written in brackets, as in screen in [\"checkout\", \"paywall\"]"),
        ("deny: [a b]", "names placement \"a b\", which is not defined: the items of a list are separated by commas: write [a, b]"),
        // A list written as one quoted text, with an id the policy lacks beside one it has.
        ("deny: \"a, c\"", "names placement \"a, c\", which is not defined: a list is written in brackets, not as one text: write [a, c]"),
        // Parentheses not after in hold no list.
        ("when: (screen == \"a\", premium)", "found ,: close it there, or join the two with and / or"),
    ])
    func otherLanguagesWordsAreToldWhatToWrite(_ line: String, _ message: String) {
        let text = "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n  b: {format: banner}\nattributes:\n  screen: string\n"
            + "  onboarding: {type: bool, default: false}\nrules:\n  - id: r\n    deny: [a]\n    when: premium\n"
        let key = line.prefix { $0 != ":" }
        let edited = text.replacingOccurrences(of: "    \(key): " + (key == "deny" ? "[a]" : "premium"), with: "    " + line)
        #expect(edited != text)
        let messages = PolicyLoader.load(texts: [("p.yaml", edited)]).diagnostics.map(\.message)
        #expect(messages.count == 1 && messages.first?.contains(message) == true, "\(messages)")
    }

    /// A duration written as a clock, and a cap written as "no limit", are told what to write.
    @Test(arguments: [
        ("min_interval: 00:04:00", "not \"00:04:00\": a duration is written with units, not as a clock: write 4m"),
        ("min_interval: \"1:30\"", "write 1h30m (or 1m30s, if it counts minutes and seconds)"),
        ("daily_cap: unlimited", "not \"unlimited\": leave daily_cap out for no cap"),
        ("hourly_cap: none", "not \"none\": leave hourly_cap out for no cap"),
    ])
    func clocksAndNoLimitWordsAreToldWhatToWrite(_ line: String, _ message: String) {
        let messages = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: banner\n    \(line)\n")]).diagnostics.map(\.message)
        #expect(messages.count == 1 && messages.first?.contains(message) == true, "\(messages)")
    }

    @Test(arguments: [("list", "[string]"), ("array", "[string]"), ("ints", "[int]"), ("boolean", "bool"), ("float", "number")])
    func aTypeNamedInOtherWordsIsToldItsName(_ written: String, _ meant: String) {
        let messages = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner}\nattributes:\n  screen: \(written)\n")]).diagnostics.map(\.message)
        #expect(messages.count == 1 && messages.first?.hasSuffix("not \"\(written)\": did you mean \"\(meant)\"?") == true, "\(messages)")
    }

    /// A name several entries share, close to a placement no entry names, may be the placement's id renamed: the advice
    /// offers both fixes, with a note at the definition. One entry alone, or a placement other entries name, keeps "did
    /// you mean" alone.
    @Test func aRenamedPlacementIsToldItMayBeTheDefinition() throws {
        let renamed = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  level-end: {format: banner}\ngroups:\n  g: {placements: [level_end]}\nrules:\n  - {id: r, deny: [level_end], when: premium}\n")]).diagnostics
        #expect(renamed.count == 2 && renamed.allSatisfy { $0.message.hasSuffix("did you mean \"level-end\"? 2 entries name level_end and none level-end: if level_end is the id meant, rename the placement level-end instead") }, "\(renamed)")
        #expect(renamed.first?.notes.first?.message == "placement level-end is defined here" && renamed.first?.notes.first?.position.line == 3)
        let once = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  level-end: {format: banner}\ngroups:\n  g: {placements: [level_end]}\n")]).diagnostics
        #expect(once.map(\.message) == ["group \"g\" names placement \"level_end\", which is not defined: did you mean \"level-end\"?"], "\(once)")
        let named = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  level-end: {format: banner}\ngroups:\n  g: {placements: [level_end, level-end]}\nrules:\n  - {id: r, deny: [level_end], when: premium}\n")]).diagnostics
        #expect(named.allSatisfy { $0.message.hasSuffix("did you mean \"level-end\"?") && $0.notes.isEmpty }, "\(named)")
    }

    /// A block whose keys lost their indentation (`grace:`, then `first_sessions: 2` beside it) is told once, at each
    /// key (indent it under `grace:`), not also that the block holds nothing; a block left empty alone is told so.
    @Test func aBlockWhoseKeysLostTheirIndentationIsToldAtTheKeys() {
        let lost = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: app_open\n    min_interval: 1m\n    grace:\n    first_sessions: 2\n")]).diagnostics
        #expect(lost.map(\.rule) == ["schema/unknown-key"] && lost.first?.message.hasSuffix("indent it under `grace:`") == true, "\(lost)")
        let empty = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: app_open\n    min_interval: 1m\n    grace:\n")]).diagnostics
        #expect(empty.map(\.message) == ["grace must be a mapping of keys to values, not nothing (null): write key: value pairs, one a line, or {key: value}"], "\(empty)")
    }

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
        for (placement, advice) in [
            ("launch:\n    format: interstitial\n    max_wait: 5s\n", "which only app_open placements have: remove it from this interstitial placement"),
            ("grace:\n    first_sessions: 2\n    bogus: 1\n", "belongs in the `"),
        ] {
            let named = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  \(placement)")]).diagnostics
            #expect(named.contains { $0.message.contains(advice) }, "\(named)")
        }
    }

    /// An attribute's `default:` or `type:` indented as far as the attribute names, and a top-level key indented under
    /// `attributes:`, say which block they belong in (cli.md r2), rather than being read as attributes named `default`
    /// ("type must be one of …; not \"false\"") or `rules` (whose rules were lost under "type must be …, not a list").
    @Test func aKeyOfAnotherBlockAmongTheAttributesSaysWhereItBelongs() {
        let head = "version: 1\nplacements:\n  p: {format: banner}\nattributes:\n"
        let rule = "rules:\n  - {id: r, deny: [p], when: onboarding}\n"
        let shallowDefault = PolicyLoader.load(texts: [("p.yaml", head + "  onboarding:\n    type: bool\n  default: false\n" + rule)]).diagnostics
        #expect(shallowDefault.map(\.message) == ["default is an attribute setting, not an attribute name: indent it under `onboarding:`"], "\(shallowDefault)")
        #expect(shallowDefault.first?.range.start == SourcePosition(line: 7, column: 3))
        // `level:` with its settings one level too shallow: one finding at the first of them, none for `level:` itself
        // or for a rule that reads level, and no attribute named type.
        let emptyAbove = PolicyLoader.load(texts: [(
            "p.yaml", head + "  onboarding: bool\n  level:\n  type: int\n  default: 3\nrules:\n  - {id: r, deny: [p], when: level > 2 and onboarding}\n"
        )]).diagnostics
        #expect(emptyAbove.map(\.message) == [
            "type is an attribute setting, not an attribute name: indent it under `level:`",
            "default is an attribute setting, not an attribute name: indent it under `level:`",
        ], "\(emptyAbove)")
        // Top-level keys indented under attributes.
        let topLevel = PolicyLoader.load(texts: [(
            "p.yaml", head + "  onboarding: bool\n  timezone: UTC\n  rules:\n    - {id: r, deny: [p], when: onboarding}\n"
        )]).diagnostics
        #expect(topLevel.map(\.rule) == ["schema/unknown-key", "schema/unknown-key"], "\(topLevel)")
        #expect(topLevel.map { $0.message.components(separatedBy: ":").first ?? "" } == [
            "timezone is a top-level setting, not an attribute name", "rules is a top-level block, not an attribute name",
        ], "\(topLevel)")
        // Attributes named like a key, declared as attributes are, stay attributes.
        let named = PolicyLoader.load(texts: [(
            "p.yaml", head + "  type: string\n  default: {type: int, default: 3}\n  rules: [string]\n"
                + "rules:\n  - {id: r, deny: [p], when: type == \"a\" and default > 2 and \"x\" in rules}\n"
        )]).diagnostics
        #expect(named.isEmpty, "\(named)")
        // An attribute with no value and none of its settings after it is still told so.
        let empty = PolicyLoader.load(texts: [("p.yaml", head + "  level:\n  screen: string\n")]).diagnostics
        #expect(empty.map(\.rule) == ["schema/type"] && empty.first?.range.start.line == 5, "\(empty)")
    }

    /// `disabled: true` is told to write `enabled: false`: "did you mean enabled?" (the closest key by spelling) led to
    /// `enabled: true`, the opposite of what the file meant.
    @Test func aKeyForTheOppositeOfASwitchSaysToInvertIt() {
        for (key, opposite) in [("disabled", "enabled"), ("Disable", "enabled"), ("include-premium", "exclude_premium"), ("allow_during_fullscreen", "block_during_fullscreen")] {
            let found = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  p:\n    format: banner\n    \(key): true\n")]).diagnostics
            #expect(found.map(\.rule) == ["schema/unknown-key"], "\(found)")
            #expect(found.first?.message.contains("rule files write the opposite, \(opposite): write \(opposite): false where \(key) is true") == true, "\(found)")
        }
        // A near spelling of the switch itself is still a misspelling.
        let misspelt = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  p:\n    format: banner\n    enable: false\n")]).diagnostics
        #expect(misspelt.first?.message.hasSuffix("did you mean \"enabled\"?") == true, "\(misspelt)")
    }

    /// `"*"` or a word for every placement in a group's placements is told that a group lists its placements (`*` is a
    /// rule's deny only), not to define a placement named "*" or "did you mean" the one short id.
    @Test func everyPlacementInAGroupIsToldToListThem() {
        for member in ["\"*\"", "all", "ALL"] {
            let found = PolicyLoader.load(texts: [(
                "p.yaml", "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n  b: {format: banner}\ngroups:\n  g: {placements: [\(member)], daily_cap: 3}\n"
            )]).diagnostics
            #expect(found.map(\.rule) == ["policy/unknown-placement"], "\(found)")
            #expect(found.first?.message.hasSuffix("a group lists its placements by id (\"*\" for every placement stands only in a rule's deny): list them, as in placements: [a, b]") == true, "\(found)")
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
        #expect(found.map(\.message) == ["unknown key \"placments\" at the top level: did you mean \"placements\"?"], "\(found)")
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

    /// "Did you mean" never suggests a key the mapping already has: `timeout:` beside `timezone:` gets the keys that
    /// are allowed, as one close to no key would. A key that is one the mapping has, spelt another way or in other
    /// words (`if:` beside `when:`, `daily-cap:` beside `daily_cap:`), is told so. Such a key is still no key of the
    /// team's own (a named comment does not hide it).
    @Test func didYouMeanSkipsKeysAlreadyThere() {
        let text = "version: 1\ntimezone: UTC\ntimeout: 30m\nplacements:\n  x: {format: banner, daily_cap: 3, daily-cap: 4, DailyCap: 5}\n"
            + "rules:\n  - {id: r, deny: [x], when: premium, if: premium}\n"
        let found = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        #expect(found.map(\.rule) == Array(repeating: "schema/unknown-key", count: 4), "\(found)")
        #expect(found.map(\.message) == [
            "unknown key \"timeout\" at the top level: the keys here are " + RuleFileKeys.top.joined(separator: ", "),
            "unknown key \"daily-cap\" in placement \"x\": it reads as daily_cap, which is set here already: keep one of the two, written daily_cap",
            "unknown key \"DailyCap\" in placement \"x\": it reads as daily_cap, which is set here already: keep one of the two, written daily_cap",
            "unknown key \"if\" in rule \"r\": it reads as when, which is set here already: keep one of the two, written when",
        ], "\(found)")
        #expect(found.allSatisfy { $0.isPlainUnknownKey == false }, "\(found)")
        // Alone, each is still told the key it is close to.
        let alone = PolicyLoader.load(texts: [("p.yaml", "version: 1\ntimeout: UTC\nplacements:\n  x: {format: banner, daily_cap: 3}\n")]).diagnostics
        #expect(alone.map(\.message) == ["unknown key \"timeout\" at the top level: did you mean \"timezone\"?"], "\(alone)")
    }

    /// A near miss of a key the mapping already has (`timezon:` beside `timezone:`) is that setting written twice: it is
    /// told the key it is close to, and that one of the two goes. A key further from it (`timeout:`, above) or a short
    /// word (`if:` beside `id:`) is not.
    @Test func aNearMissOfAKeyAlreadyThereIsToldSo() {
        let text = "version: 1\ntimezone: UTC\ntimezon: UTC\nplacements:\n  x:\n    format: interstitial\n    min_interval: 1m\n"
            + "    min_intervall: 3m\n    launch: {max_wait: 5s, max_wiat: 6s}\nrules:\n  - {id: r, deny: [x], when: premium, if: premium}\n"
        let found = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics.filter { $0.rule == "schema/unknown-key" }
        #expect(found.map(\.message) == [
            "unknown key \"timezon\" at the top level: did you mean \"timezone\"? It is set here already: keep one of the two",
            "unknown key \"min_intervall\" in placement \"x\": did you mean \"min_interval\"? It is set here already: keep one of the two",
            "unknown key \"max_wiat\" in launch: did you mean \"max_wait\"? It is set here already: keep one of the two",
            "unknown key \"if\" in rule \"r\": it reads as when, which is set here already: keep one of the two, written when",
        ], "\(found)")
        #expect(found.allSatisfy { $0.isPlainUnknownKey == false }, "\(found)")
    }

    /// A misspelt key that must be there is one finding, "did you mean", at the misspelling: the block is not also
    /// told it lacks the key (its advice to add `format:` beside `formta:` would leave two).
    @Test(arguments: [
        ("version: 1\nplacements:\n  a:\n    1️⃣formta: banner\n", "unknown key \"formta\" in placement \"a\": did you mean \"format\"?"),
        ("1️⃣verszion: 1\nplacements:\n  a: {format: banner}\n", "unknown key \"verszion\" at the top level: did you mean \"version\"?"),
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

    /// pacing/missing says what is written: a min_interval of 0s is there, and says nothing.
    @Test func pacingMissingNamesAMinIntervalOfZero() {
        let text = "version: 1\nplacements:\n  p: {format: interstitial, min_interval: 0s}\n  q: {format: interstitial}\n"
        let messages = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics.filter { $0.rule == "pacing/missing" }.map(\.message)
        #expect(messages == [
            "interstitial placement p has min_interval 0s and no cap, so it may show back to back: raise min_interval (for example to 4m) or add daily_cap",
            "interstitial placement q has no min_interval and no cap, so it may show back to back: add min_interval (for example 4m) or daily_cap",
        ])
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
        // A key of a block one level too shallow names the block, and whose block it is when only app_open has it. On a
        // placement whose format was read before it and is not app_open, a key of app_open's own blocks is told to go:
        // moved into `resume:`, it would be told that an interstitial has no `resume:` (policy/format-key).
        let blocks = PolicyLoader.load(texts: [("p.yaml", """
            version: 1
            placements:
              i: {format: interstitial, min_interval: 1m, max_delay: 3s, after_install: 1h, grace: {show_if_ready: true}}
              b: {max_wait: 5s, format: banner}

            """)])
        #expect(blocks.diagnostics.map(\.message) == [
            "unknown key \"max_delay\" in placement \"i\": max_delay is a setting of the `resume:` block, which only app_open placements have: remove it from this interstitial placement",
            "unknown key \"after_install\" in placement \"i\": after_install belongs in the `grace:` block: indent it under `grace:`",
            "unknown key \"show_if_ready\" in grace: show_if_ready is a setting of the `resume:` block, which only app_open placements have: remove it from this interstitial placement",
            "unknown key \"max_wait\" in placement \"b\": max_wait belongs in the `launch:` block of an app_open placement: indent it under `launch:` (on another format, remove it)",
        ], "\(blocks.diagnostics)")
        // Misspelt or dotted, the same: told to go, not to move into a block the format refuses.
        let spelt = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  i: {format: interstitial, min_interval: 1m, show_if_redy: true, launch.max_wait: 5s}\n")])
        #expect(spelt.diagnostics.map(\.message) == [
            "unknown key \"show_if_redy\" in placement \"i\": did you mean \"show_if_ready\"? It is a setting of the `resume:` block, which only app_open placements have: remove it from this interstitial placement",
            "unknown key \"launch.max_wait\" in placement \"i\": max_wait is a setting of the `launch:` block, which only app_open placements have: remove it from this interstitial placement",
        ], "\(spelt.diagnostics)")
        // Before `format:`, every form is told where it goes on app_open, and to go on another format.
        let before = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  i: {max_wiat: 5s, grace: {max_delay: 3s}, format: interstitial, min_interval: 1m}\n")])
        #expect(before.diagnostics.map(\.message) == [
            "unknown key \"max_wiat\" in placement \"i\": did you mean \"max_wait\"? It belongs in the `launch:` block of an app_open placement: write max_wait: indented under `launch:` (on another format, remove it)",
            "unknown key \"max_delay\" in grace: max_delay belongs in the `resume:` block of an app_open placement, not in `grace:`: move it under `resume:`, beside `grace:` (on another format, remove it)",
        ], "\(before.diagnostics)")
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
            "unknown key \"max_delay\" at the top level: max_delay belongs in the `resume:` block of an app_open placement: indent it under the placement in `placements:` (or under `defaults:`), as in resume: {max_delay: …}",
            "unknown key \"after_install\" at the top level: after_install belongs in the `grace:` block of a placement: indent it under the placement in `placements:` (or under `defaults:`), as in grace: {after_install: …}",
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
        // A placement's block written twice holds settings too: keeping one of them dropped `after_session_start`.
        let block = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: interstitial\n    grace:\n      after_install: 10m\n    hourly_cap: 4\n    grace:\n      after_session_start: 30s\n")])
        #expect(block.diagnostics.map(\.message) == [
            "key \"grace\" is repeated in this mapping: move its entries into the first grace: and remove this line (keeping one would drop the other's entries)",
        ], "\(block.diagnostics)")
        #expect(block.diagnostics.first?.range.start == SourcePosition(line: 8, column: 5))
        // In braces on one line, "this line" would be the whole placement; a list (`caps:`) is merged as a block is; a
        // placement's id written twice names two placements, which are not merged.
        let braces = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m, grace: {after_install: 1m}, grace: {first_sessions: 1}}\n"
            + "  b:\n    format: interstitial\n    min_interval: 1m\n    caps: [{max: 1, window: 1h}]\n    caps: [{max: 3, window: 3h}]\n"
            + "  level_end: {format: interstitial, min_interval: 1m}\n  level_end: {format: rewarded}\n")])
        #expect(braces.diagnostics.map(\.message) == [
            "key \"grace\" is repeated in this mapping: move its entries into the first grace: and remove this second one (keeping one would drop the other's entries)",
            "key \"caps\" is repeated in this mapping: move its entries into the first caps: and remove this line (keeping one would drop the other's entries)",
            "key \"level_end\" is repeated in this mapping: an id names one entry: rename one of the two, or keep one of them",
        ], "\(braces.diagnostics)")
        // In an item of a block list, a repeated key most likely starts an item whose `- ` was lost (a rule's `- id:` line
        // deleted): keeping one of them would drop a rule. One finding for the item, its other repeats noted.
        let rules = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - id: r1\n    deny: \"*\"\n    when: premium\n    deny: [a]\n    when: premium\n")])
        let runTogether = "is repeated in this mapping: two items of the list may have run together (a `- ` lost): begin the second item with `- `; else keep one of them"
        #expect(rules.diagnostics.map(\.message) == ["key \"deny\" \(runTogether)"], "\(rules.diagnostics)")
        #expect(rules.diagnostics.first?.notes.map { "\($0.position): \($0.message)" } == ["6:5: \"deny\" is first defined here", "9:5: \"when\" is repeated here too"])
        // An item of thousands of repeated keys is one finding with a few notes, the last saying more follow.
        let keys = (0..<30).map { "    k\($0): 1\n" }.joined()
        let many = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - id: r1\n" + keys + keys)])
        let manyRepeats = many.diagnostics.filter { $0.rule == "yaml/duplicate-key" }
        #expect(manyRepeats.count == 1 && manyRepeats.first?.notes.count == 12, "\(manyRepeats.map(\.notes.count))")
        #expect(manyRepeats.first?.notes.last?.message == "more keys are repeated from here on")
        let flow = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - {id: r1, deny: \"*\", when: premium, when: premium}\n")])
        #expect(flow.diagnostics.map(\.message) == ["key \"when\" is repeated in this mapping: keep one of them"], "\(flow.diagnostics)")
        // An item of one key written again (`- id: a` then `id: b`) is two items all the same.
        let one = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - id: r1\n    id: r2\n")])
        #expect(one.diagnostics.contains { $0.message == "key \"id\" \(runTogether)" }, "\(one.diagnostics)")
        // A key written again right after itself is one item edited twice.
        let again = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner}\nrules:\n  - id: r1\n    deny: \"*\"\n    when: premium\n    when: level > 3\n")])
        #expect(again.diagnostics.map(\.message) == ["key \"when\" is repeated in this mapping: keep one of them"], "\(again.diagnostics)")
    }

    /// `placements:` with nothing under it, its placements below it unindented, is one slip: told at each placement,
    /// not also that the block is empty. Alone, the empty block is told so.
    @Test func placementsLeftUnindentedAreOneFinding() {
        let load = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\napp_open:\n  format: app_open\n  min_interval: 4m\n")])
        #expect(load.diagnostics.map(\.message) == [
            "unknown key \"app_open\" at the top level: app_open has a format, so it is a placement: indent it under `placements:`",
        ], "\(load.diagnostics)")
        let empty = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n")])
        #expect(empty.diagnostics.map(\.message) == [
            "placements must be a mapping of keys to values, not nothing (null): write key: value pairs, one a line, or {key: value}",
        ], "\(empty.diagnostics)")
    }

    /// A placement written at the top level, outside `placements:`, is said to be one (it has a format).
    @Test func aPlacementOutsidePlacementsIsSaidToBeOne() {
        let load = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a: {format: banner}\nshop_banner:\n  format: banner\n  enabled: true\nextra:\n  note: x\n")])
        #expect(load.diagnostics.map(\.message) == [
            "unknown key \"shop_banner\" at the top level: shop_banner has a format, so it is a placement: indent it under `placements:`",
            "unknown key \"extra\" at the top level: the keys here are version, environment, timezone, session_timeout, fullscreen_timeout, load_timeout, defaults, placements, groups, attributes, rules",
        ], "\(load.diagnostics)")
        // With no `placements:` at all, the policy is not also told it has none.
        let alone = PolicyLoader.load(texts: [("p.yaml", "version: 1\nshop_banner:\n  format: banner\n")])
        #expect(alone.diagnostics.map(\.rule) == ["schema/unknown-key"], "\(alone.diagnostics)")
        // One indented under the placement above it, too; a block of settings misplaced there is not one.
        let nested = PolicyLoader.load(texts: [("p.yaml", "version: 1\nplacements:\n  a:\n    format: banner\n    b:\n      format: interstitial\n      min_interval: 1m\n    c:\n      min_interval: 1m\n")])
        #expect(nested.diagnostics.map(\.message).first == "unknown key \"b\" in placement \"a\": b has a format, so it is a placement of its own: indent it as the placement above it is, under `placements:`", "\(nested.diagnostics)")
        #expect(nested.diagnostics.dropFirst().allSatisfy { !$0.message.contains("has a format") }, "\(nested.diagnostics)")
        // A group or a rule naming a placement so misplaced is not also told it names an unknown placement.
        for misplaced in ["placements:\n  a:\n    format: banner\n    b:\n      format: banner\n", "placements:\n  a: {format: banner}\nb:\n  format: banner\n"] {
            let named = PolicyLoader.load(texts: [("p.yaml", "version: 1\n" + misplaced + "groups:\n  g: {placements: [a, b]}\nrules:\n  - {id: r, deny: [b], when: premium}\n")])
            #expect(named.diagnostics.map(\.rule) == ["schema/unknown-key"], "\(named.diagnostics)")
        }
    }

    /// Settings written as items of a list, and caps written as a mapping of windows to maxima, are told what to write;
    /// a group's setting written among its members is told to stand beside them.
    @Test func settingsWrittenAsListItemsAreToldToLoseTheirDash() {
        func messages(_ text: String) -> [String] {
            PolicyLoader.load(texts: [("p.yaml", "version: 1\n" + text)]).diagnostics.map(\.message)
        }
        #expect(messages("placements:\n  a:\n    format: app_open\n    min_interval: 1m\n    launch:\n      - show_on_first_load: true\n      - max_wait: 5s\n") == [
            "launch must be a mapping of keys to values, not a list: its keys are written as items of a list, after `- `: remove the `- ` before show_on_first_load and max_wait",
        ])
        #expect(messages("placements:\n  - a:\n    format: banner\n  - b:\n    format: banner\n").first
            == "placements must be a mapping of keys to values, not a list: its keys are written as items of a list, after `- `: remove the `- ` before a and b")
        // Records (`- id: a`, `- id: b`), whose first keys repeat, and items that are no `key: value`, get the general advice.
        #expect(messages("placements:\n  - id: a\n    format: banner\n  - id: b\n    format: banner\n").first
            == "placements must be a mapping of keys to values, not a list: write key: value pairs, one a line, or {key: value}")
        #expect(messages("placements:\n  a:\n    format: app_open\n    min_interval: 1m\n    launch: [a, b]\n") == [
            "launch must be a mapping of keys to values, not a list: write key: value pairs, one a line, or {key: value}",
        ])
        #expect(messages("placements:\n  r:\n    format: rewarded\n    caps:\n      30m: 3\n      1d: 10\n") == [
            "caps must be a list, not a mapping: each cap is an item of the list, with its max and its window: write caps: [{max: 3, window: 30m}, {max: 10, window: 1d}]",
        ])
        // Only with whole numbers: a max of `.inf` or 2.5 is not shown as the one to write.
        #expect(messages("placements:\n  r:\n    format: rewarded\n    caps: {30m: .inf, 1h: 2.5}\n").allSatisfy { !$0.contains("max: .inf") && !$0.contains("max: 2.5") })
        #expect(messages("placements:\n  a: {format: interstitial, min_interval: 1m}\ngroups:\n  g:\n    placements:\n      - a\n      - daily_cap: 30\n") == [
            "a group member must be a placement id, not a mapping: daily_cap is a setting of the group, not a member: write it beside placements:, without the `- `",
        ])
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
        #expect(messages("      max: 3\n      every: 30m\n").first?.hasSuffix("write [a, b], or each item on its own line after `- `") == true)
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
            "group \"other\" names placement \"all\", which is not defined: a group lists its placements by id (\"*\" for every placement stands only in a rule's deny): list them, as in placements: [level_end, app_open]",
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
        // Both values in defaults: said once, naming the placements that take both (not b, which sets its own daily
        // cap), with a note at the first three.
        let daily = found.filter { $0.rule == "cap/unreachable" && $0.message.hasPrefix("daily_cap 13") }
        #expect(daily.count == 1 && daily[0].message.hasSuffix("(placements a, r1, r2 and r3 take these values from defaults; to change one alone, set it on that placement)"), "\(daily)")
        #expect(daily.first?.notes.map(\.position.line) == [8, 10, 11], "\(daily)")
        // A default cap another placement's own interval lets bind is said about the placement it never binds for.
        let paced = PolicyLoader.load(texts: [("p.yaml", """
            version: 1
            defaults: {min_interval: 1h, daily_cap: 30}
            placements:
              a: {format: interstitial}
              c: {format: interstitial, min_interval: 30m}

            """)]).diagnostics
        #expect(paced.map(\.message) == ["daily_cap 30 can never bind: min_interval 1h allows 24 shows a day (1d / 1h); lower daily_cap to 24 or remove it (placement a takes these values from defaults)"], "\(paced)")
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
        #expect(messages.filter { !$0.contains("did you mean") && $0.contains("declare it under `attributes` with the type it is compared with") }.count == 200)
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
        // In brackets it is still a rule's deny (it was told only a rule's deny takes "*").
        for list in ["[ *]", "[a, *]"] {
            #expect(messages("placements:\n  a: {format: banner}\nrules:\n  - {id: r, when: premium, deny: \(list)}\n").first?.hasSuffix(#"to mean every placement write "*" in quotes, as in deny: ["*"] or deny: "*""#) == true, "\(list)")
        }
        #expect(messages("placements:\n  a: {format: banner}\nrules:\n  - {id: r, when: premium, deny: [\"*\"]}\n").isEmpty)
        // Only a !!str is told to quote its value: a tagged number (`!!int 5`) is the number once the tag goes.
        #expect(messages("placements:\n  a: {format: interstitial, min_interval: 1m, daily_cap: !!int 5}\n") == ["explicit tag !!int is not allowed: remove it"])
        #expect(messages("placements:\n  a: {format: banner, ad_unit: !!str 123}\n") == ["explicit tag !!str is not allowed: remove it, and quote the value instead"])
        #expect(messages("placements:\n  a: {format: interstitial, min_interval: 1m, daily_cap: 5}\n").isEmpty)
        #expect(messages("placements:\n  a: {format: banner, ad_unit: \"123\"}\n").isEmpty)
        #expect(messages("placements:\n  a: {format: banner}\nrules:\n  - id: r\n    deny: [a]\n    when: !premium\n") == ["explicit tag !premium is not allowed: in YAML a ! starts a tag; a condition negates with not: write not premium instead of !premium"])
        #expect(messages("placements:\n  a: {format: interstitial, min_interval: 1m, daily_cap: 0, enabled: false}\n").isEmpty)
        // A defaults cap of 0 reaching an enabled and a disabled placement: one warning, for the enabled one.
        #expect(messages("defaults:\n  daily_cap: 0\nplacements:\n  a: {format: banner}\n  b: {format: banner, enabled: false}\n") == ["daily_cap is 0, so this can never show: to turn a placement off, write enabled: false instead of daily_cap: 0 (placement a takes this cap from defaults)"])
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
}
