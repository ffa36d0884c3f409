import Foundation
import AdRulesTestSupport
import AdRules
import AdRulesCompiler
import AdRulesYAML
import Testing

@Suite("Policies over several files")
struct MultiFileTests {
    @Test func placementsGroupsAndRulesMerge() throws {
        let load = PolicyLoader.load(texts: [
            ("a.yaml", "version: 1\ntimezone: Asia/Tokyo\nplacements:\n  x: {format: interstitial, min_interval: 1m}\n"),
            ("b.yaml", "version: 1\ntimezone: Asia/Tokyo\nplacements:\n  yy: {format: rewarded}\ngroups:\n  g: {placements: [x, yy], daily_cap: 5}\n"),
        ])
        #expect(load.diagnostics.isEmpty, "\(load.diagnostics)")
        let policy = try #require(load.validPolicy)
        #expect(policy.placements.map(\.id) == ["x", "yy"])
        #expect(policy.groups.first?.placements.map(\.value) == ["x", "yy"])
        #expect(policy.placement("yy")?.requireUserChoice.value == true)
    }

    @Test func duplicateIDNamesBothLocations() throws {
        let load = PolicyLoader.load(texts: [
            ("a.yaml", "version: 1\nplacements:\n  x: {format: banner}\n"),
            ("b.yaml", "version: 1\nplacements:\n\n  x: {format: banner}\n"),
        ])
        let d = try #require(load.diagnostics.first { $0.rule == "policy/duplicate-id" })
        #expect(d.file == "b.yaml")
        #expect(d.range.start == SourcePosition(line: 4, column: 3))
        #expect(d.notes.first?.file == "a.yaml")
        #expect(d.notes.first?.position == SourcePosition(line: 3, column: 3))
    }

    /// A rule left out of the policy (no id, an id that is not a text, an id defined before) still has its placements
    /// and its condition checked: lint prints every finding at once, not one more after each fix.
    @Test func aRuleLeftOutStillHasItsConditionChecked() throws {
        let load = PolicyLoader.load(texts: [
            ("a.yaml", "version: 1\nplacements:\n  lv3: {format: native}\nrules:\n  - {id: r, deny: [lv3], when: premium}\n"),
            ("b.yaml", """
                version: 1
                rules:
                  - {deny: [lv3], when: premium = true}
                  - {id: 5, deny: [lv3], when: 5}
                  - {id: r, deny: [lv4], when: scren == 1}

                """),
        ])
        let found = load.diagnostics.map { "\($0.file):\($0.range.start.line):\($0.range.start.column) \($0.rule)" }
        #expect(found == [
            "b.yaml:3:5 schema/missing-key", "b.yaml:3:33 rule/syntax", "b.yaml:4:10 schema/type", "b.yaml:4:32 rule/type",
            "b.yaml:5:10 policy/duplicate-id", "b.yaml:5:20 policy/unknown-placement", "b.yaml:5:32 rule/unknown-name",
        ], "\(load.diagnostics)")
        #expect(load.policy.rules.map(\.id) == ["r"], "only the first rule r is in the policy")
        let unknown = try #require(load.diagnostics.first { $0.rule == "policy/unknown-placement" })
        #expect(unknown.message.hasPrefix("rule \"r\" names placement \"lv4\""), "\(unknown.message)")
    }

    /// A placement defined twice is left out of the policy; its settings are still checked (a cap of 0, a long
    /// `max_ad_age`, an app_open block on another format), without a shared ad unit or missing pacing, which the
    /// placement it repeats decides.
    @Test func aPlacementDefinedTwiceStillHasItsSettingsChecked() {
        let load = PolicyLoader.load(texts: [
            ("a.yaml", "version: 1\nplacements:\n  x: {format: native, ad_unit: u1}\n"),
            ("b.yaml", "version: 1\nplacements:\n  x: {format: native, ad_unit: u1, daily_cap: 0, max_ad_age: 3h, launch: {max_wait: 5s}}\n"),
        ])
        #expect(load.diagnostics.map { "\($0.file):\($0.range.start.line):\($0.range.start.column) \($0.rule)" }.sorted() == [
            "b.yaml:3:3 policy/duplicate-id", "b.yaml:3:47 cap/zero", "b.yaml:3:62 expiry/too-long", "b.yaml:3:66 policy/format-key",
        ], "\(load.diagnostics)")
        #expect(load.policy.placements.map(\.id) == ["x"])
        #expect(load.policy.placements.first?.dailyCap == nil, "the first definition is the one kept")
        // What it takes from `defaults:` is told once, at the placement kept; its ad unit is not compared (another
        // placement later in the files may share it: told once the id is fixed).
        let defaults = PolicyLoader.load(texts: [
            ("a.yaml", "version: 1\ndefaults: {max_ad_age: 3h}\nplacements:\n  x: {format: native, ad_unit: u1}\n  z: {format: native, ad_unit: u2}\n"),
            ("b.yaml", "version: 1\nplacements:\n  x: {format: native, ad_unit: u2}\n"),
        ])
        let expiry = defaults.diagnostics.filter { $0.rule == "expiry/too-long" }
        #expect(expiry.count == 1 && expiry.first?.message.contains("placements x and z") == true, "\(expiry)")
        #expect(defaults.diagnostics.map(\.rule).sorted() == ["expiry/too-long", "policy/duplicate-id"], "\(defaults.diagnostics)")
        // A group defined twice has its caps checked too.
        let groups = PolicyLoader.load(texts: [
            ("a.yaml", "version: 1\nplacements:\n  x: {format: native}\ngroups:\n  g: {placements: [x]}\n"),
            ("b.yaml", "version: 1\ngroups:\n  g: {placements: [x, x], daily_cap: 0}\n"),
        ])
        #expect(groups.diagnostics.map(\.rule).sorted() == ["cap/zero", "policy/duplicate-id", "policy/repeated-placement"], "\(groups.diagnostics)")
    }

    @Test func aGroupDefinedTwiceStillHasItsPlacementsChecked() {
        let load = PolicyLoader.load(texts: [
            ("a.yaml", "version: 1\nplacements:\n  lv: {format: native}\ngroups:\n  g: {placements: [lv]}\n"),
            ("b.yaml", "version: 1\ngroups:\n  g: {placements: [lvv, lv]}\n"),
        ])
        #expect(load.diagnostics.map { "\($0.file):\($0.range.start.line):\($0.range.start.column) \($0.rule)" } == [
            "b.yaml:3:3 policy/duplicate-id", "b.yaml:3:20 policy/unknown-placement",
        ], "\(load.diagnostics)")
        #expect(load.policy.groups.map { $0.placements.map(\.value) } == [["lv"]])
    }

    @Test func settingsMayRepeatOnlyWithEqualValues() throws {
        let same = PolicyLoader.load(texts: [
            ("a.yaml", "version: 1\nsession_timeout: 30m\nplacements:\n  x: {format: banner}\n"),
            ("b.yaml", "version: 1\nsession_timeout: 1800s\n"),
        ])
        #expect(same.diagnostics.isEmpty, "30m and 1800s are the same duration")
        let conflict = PolicyLoader.load(texts: [
            ("a.yaml", "version: 1\ntimezone: UTC\nplacements:\n  x: {format: banner}\n"),
            ("b.yaml", "version: 1\ntimezone: Asia/Tokyo\n"),
        ])
        let d = try #require(conflict.diagnostics.first)
        #expect(d.rule == "policy/conflicting-setting")
        #expect(d.file == "b.yaml")
        #expect(d.range.start == SourcePosition(line: 2, column: 11))
        #expect(d.notes.first?.file == "a.yaml")
    }

    /// Values equal in meaning, as a report of changes compares them, are no conflict: two of UTC's names, and the
    /// same windows written in another order. A conflict still names each value as its file writes it.
    @Test func settingsEqualInMeaningAreNoConflict() throws {
        func conflicts(_ a: String, _ b: String) -> [String] {
            PolicyLoader.load(texts: [
                ("a.yaml", "version: 1\n\(a)\nplacements:\n  x: {format: interstitial}\n"), ("b.yaml", "version: 1\n\(b)\n"),
            ]).diagnostics.filter { $0.rule == "policy/conflicting-setting" }.map(\.message)
        }
        #expect(conflicts("timezone: UTC", "timezone: Etc/UTC") == [])
        #expect(conflicts("timezone: Etc/UTC", "timezone: Asia/Tokyo").first?.contains("\"Etc/UTC\"") == true)
        let caps = "[{max: 3, window: 1h}, {max: 10, window: 1d}]", reversed = "[{max: 10, window: 1d}, {max: 3, window: 1h}]"
        #expect(conflicts("defaults: {caps: \(caps)}", "defaults: {caps: \(reversed)}") == [])
        #expect(conflicts("defaults: {caps: \(caps), min_interval: 1m}", "defaults: {caps: \(reversed), min_interval: 2m}").count == 1)
        let differing = conflicts("defaults: {caps: \(caps)}", "defaults: {caps: [{max: 10, window: 1d}, {max: 4, window: 1h}]}")
        #expect(differing.count == 1 && differing[0].contains("[{max: 10, window: 1d}, {max: 4, window: 1h}]"), "\(differing)")
    }

    /// An unknown zone is said in whichever file it is, also where it conflicts with another file's zone (a typo in
    /// the second file was reported as a conflict alone), and in each file that has it.
    @Test func everyFilesUnknownTimeZoneIsAFinding() {
        func rules(_ zones: [String]) -> [String] {
            PolicyLoader.load(texts: zones.enumerated().map { i, zone in
                ("\(i).yaml", "version: 1\ntimezone: \(zone)\n" + (i == 0 ? "placements:\n  x: {format: banner}\n" : ""))
            }).diagnostics.map { "\($0.file) \($0.rule)" }.sorted()
        }
        #expect(rules(["UTC", "Asia/Tokio"]) == ["1.yaml policy/conflicting-setting", "1.yaml policy/timezone"])
        #expect(rules(["Asia/Tokio", "UTC"]) == ["0.yaml policy/timezone", "1.yaml policy/conflicting-setting"])
        #expect(rules(["Asia/Tokio", "Asia/Tokio"]) == ["0.yaml policy/timezone", "1.yaml policy/timezone"])
        #expect(rules(["device", "Mars/Base"]) == ["1.yaml policy/conflicting-setting", "1.yaml policy/timezone"])
        #expect(rules(["Asia/Tokyo", "Asia/Tokyo"]).isEmpty)
    }

    /// Two `defaults` blocks that differ in several settings: a finding for each, in one run.
    @Test func everySettingTwoDefaultsBlocksDisagreeOnIsAFinding() throws {
        let load = PolicyLoader.load(texts: [
            ("a.yaml", "version: 1\ndefaults:\n  max_ad_age: 1h\n  min_interval: 1m\n  daily_cap: 5\nplacements:\n  a: {format: interstitial}\n"),
            ("b.yaml", "version: 1\ndefaults:\n  max_ad_age: 30m\n  min_interval: 2m\n  daily_cap: 5\n"),
        ])
        let conflicts = load.diagnostics.filter { $0.rule == "policy/conflicting-setting" }
        #expect(conflicts.count == 2, "\(load.diagnostics)")
        #expect(conflicts.contains { $0.message.contains("defaults.max_ad_age") && $0.range.start == SourcePosition(line: 3, column: 15) })
        #expect(conflicts.contains { $0.message.contains("defaults.min_interval") && $0.range.start == SourcePosition(line: 4, column: 17) })
        #expect(!conflicts.contains { $0.message.contains("daily_cap") })
    }

    /// Equal `caps` lists in two `defaults` blocks that differ elsewhere are no conflict: their windows are written in
    /// different files, and only the values count. Caps that differ still are one.
    @Test func equalCapsInTwoDefaultsBlocksAreNoConflict() throws {
        func conflicts(_ caps: String) -> [Diagnostic] {
            PolicyLoader.load(texts: [
                ("a.yaml", "version: 1\ndefaults: {caps: [{max: 3, window: 1h}], min_interval: 1m}\nplacements:\n  x: {format: interstitial}\n"),
                ("b.yaml", "version: 1\ndefaults: {caps: \(caps), min_interval: 2m}\nplacements:\n  w: {format: interstitial}\n"),
            ]).diagnostics.filter { $0.rule == "policy/conflicting-setting" }
        }
        let equal = conflicts("[{max: 3, window: 60m}]")
        #expect(equal.map(\.message).allSatisfy { $0.contains("defaults.min_interval") } && equal.count == 1, "\(equal)")
        let differing = conflicts("[{max: 4, window: 1h}]")
        #expect(differing.count == 2 && differing.contains { $0.message.contains("defaults.caps") }, "\(differing)")
    }

    /// A `defaults` block with an error still conflicts on a setting both blocks read (one run lists both findings),
    /// and a setting the error cost is no conflict.
    @Test func defaultsWithAnErrorStillConflictOnWhatBothRead() throws {
        let load = PolicyLoader.load(texts: [
            ("a.yaml", "version: 1\ndefaults:\n  format: interstitial\n  min_interval: 1m\n  daily_cap: x\nplacements:\n  a: {format: interstitial}\n"),
            ("b.yaml", "version: 1\ndefaults:\n  min_interval: 2m\n  daily_cap: 4\nplacements:\n  c: {format: interstitial}\n"),
        ])
        #expect(load.diagnostics.map(\.rule) == ["schema/unknown-key", "schema/type", "policy/conflicting-setting"], "\(load.diagnostics)")
        let conflict = try #require(load.diagnostics.last)
        #expect(conflict.message.contains("defaults.min_interval"), "\(conflict.message)")
        #expect(conflict.file == "b.yaml")
        #expect(conflict.range.start == SourcePosition(line: 3, column: 17))
        #expect(conflict.notes.first?.file == "a.yaml")
        // Equal where both read: the error alone.
        let equal = PolicyLoader.load(texts: [
            ("a.yaml", "version: 1\ndefaults:\n  min_interval: 1m\n  daily_cap: x\nplacements:\n  a: {format: interstitial}\n"),
            ("b.yaml", "version: 1\ndefaults:\n  min_interval: 60s\n  daily_cap: 4\n"),
        ])
        #expect(equal.diagnostics.map(\.rule) == ["schema/type"], "\(equal.diagnostics)")
        // A `caps` list with a bad entry is read without it: no conflict with the list as meant.
        let caps = PolicyLoader.load(texts: [
            ("a.yaml", "version: 1\ndefaults:\n  caps: [{max: 5, window: 1d}, {max: 3, windw: 1h}]\nplacements:\n  a: {format: interstitial}\n"),
            ("b.yaml", "version: 1\ndefaults:\n  caps: [{max: 5, window: 1d}, {max: 3, window: 1h}]\n"),
        ])
        #expect(!caps.diagnostics.contains { $0.rule == "policy/conflicting-setting" }, "\(caps.diagnostics)")
        #expect(caps.diagnostics.contains { $0.rule == "schema/unknown-key" })
    }

    @Test func defaultsApplyUnlessThePlacementSetsTheKey() throws {
        let p = try policy("""
            version: 1
            defaults:
              min_interval: 2m
              max_ad_age: 30m
            placements:
              a: {format: interstitial}
              b: {format: interstitial, min_interval: 5m}
            """)
        #expect(p.placement("a")?.minInterval.value == .minutes(2))
        #expect(p.placement("a")?.minInterval.location.line == 3)
        #expect(p.placement("b")?.minInterval.value == .minutes(5))
        #expect(p.placement("b")?.maxAdAge.value == .minutes(30))
    }

    @Test func formatAndAdUnitAreNotAllowedInDefaults() {
        let rules = lint("version: 1\ndefaults:\n  format: banner\nplacements:\n  a: {format: banner}\n").map(\.rule)
        #expect(rules == ["schema/unknown-key"])
    }

    @Test func scenarioFilesAreNotPartOfThePolicy() throws {
        let root = packageRoot() + "/rules"
        let files = try PolicyLoader.ruleFiles(at: root)
        #expect(files.allSatisfy { !$0.hasSuffix(".test.yaml") })
        #expect(files == files.sorted())
    }

    /// Extensions match whatever their case, as the file systems of Macs do: `Extra.YAML` is a rule file (it was
    /// skipped, so its error went unseen), `ads.Test.yml` a scenario file and `usage.MODEL.yaml` a usage model.
    @Test func extensionsMatchWhateverTheirCase() throws {
        let root = scratchPath("adrules-case")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        for name in ["a.yaml", "Extra.YAML", "b.Yml", "ads.Test.yml", "x.TEST.YAML", "usage.MODEL.yaml", "notes.txt", "c.yamlx"] {
            try Data("version: 1\n".utf8).write(to: URL(fileURLWithPath: root + "/" + name))
        }
        let files = try PolicyLoader.ruleFiles(at: root).map { ($0 as NSString).lastPathComponent }
        #expect(files == ["Extra.YAML", "a.yaml", "b.Yml"])
        #expect(PolicyLoader.isScenarioFile("ads.Test.yml") && PolicyLoader.isUsageModel("usage.MODEL.yaml"))
        // A compiled policy is a `.json` file, whatever the case of its extension.
        try Data("{}".utf8).write(to: URL(fileURLWithPath: root + "/p.JSON"))
        #expect(PolicyLoader.isCompiledPolicyFile(root + "/p.JSON"))
        #expect(!PolicyLoader.isCompiledPolicyFile(root + "/a.yaml"))
    }

    @Test func emptyFileIsAPolicyWithoutVersion() throws {
        let d = try #require(lint("").first { $0.rule == "schema/missing-key" })
        #expect(d.message.contains("version"))
        #expect(d.range.start == SourcePosition(line: 1, column: 1))
    }

    /// A document with nothing in it (`---` alone, or every line after it commented out) is an empty file, with the
    /// same findings; a root written `~` or `null` is a value of the wrong type.
    @Test(arguments: ["---\n", "---\n# version: 1\n# placements: {}\n", "# all off for now\n---\n"])
    func anEmptyDocumentIsAnEmptyFile(_ text: String) {
        #expect(lint(text).map(\.rule).sorted() == lint("").map(\.rule).sorted(), "\(lint(text))")
        #expect(lint(text).map(\.range.start.line).min() == 1, "\(lint(text))")
        #expect(lint("---\n~\n").map(\.rule) == ["schema/type"])
    }
}
