import AdRulesTestSupport
import AdRules
import AdRulesCompiler
import AdRulesYAML
import Testing

/// What a mutation audit of rule-file decoding found unchecked: each test holds one behaviour rules.md, cli.md or
/// docs/rule-files.md states, with a YAML text in and diagnostics or values out.
@Suite("Decoding: what mutation testing found unchecked")
struct DecodingMutationGapTests {
    static let header = "version: 1\nplacements:\n"

    /// cli.md: `schema/version` is "a version other than 1"; rules.md: `version` "must be `1`". 0 is one.
    @Test func aVersionOfZeroIsAVersionError() throws {
        let input = MarkedText("version: 1️⃣0\nplacements:\n  a: {format: banner}\n")
        let found = lint(input.text).filter { $0.rule == "schema/version" }
        #expect(found.map(\.range.start) == [try #require(input["1️⃣"])], "\(lint(input.text))")
        #expect(found.allSatisfy { $0.severity == .error })
    }

    /// cli.md: `schema/range` finds "a duration over 366d"; rules.md: "Largest accepted duration: `366d`".
    @Test func aDurationOver366DaysIsARangeError() throws {
        for value in ["367d", "366d1ms"] {
            let input = MarkedText(Self.header + "  a:\n    format: interstitial\n    min_interval: 1️⃣\(value)\n")
            let diagnostics = lint(input.text)
            let at = try #require(input["1️⃣"])
            #expect(diagnostics.contains { $0.rule == "schema/range" && $0.range.start == at && $0.severity == .error }, "\(value): \(diagnostics)")
            #expect(!diagnostics.contains { $0.rule == "schema/duration" }, "\(value) is well formed: \(diagnostics)")
        }
        // 366d itself is the largest accepted.
        let largest = lint(Self.header + "  a:\n    format: interstitial\n    min_interval: 366d\n")
        #expect(!largest.contains { $0.rule.hasPrefix("schema/") }, "\(largest)")
    }

    /// rules.md: a bare number is an error with the hint "write 30s or 30m"; a hint offers what is itself accepted, and
    /// 527040m is exactly 366d, the largest accepted duration.
    @Test func aBareNumberOfMinutesUpTo366DaysIsOfferedAsMinutes() throws {
        let diagnostics = lint(Self.header + "  a:\n    format: interstitial\n    min_interval: 527040\n")
        let finding = try #require(diagnostics.first { $0.rule == "schema/duration" }, "\(diagnostics)")
        #expect(finding.message.contains("527040s or 527040m"), "\(finding.message)")
    }

    /// rules.md §4: a group's `placements` is a "list of placement ids, at least one"; cli.md's `schema/missing-key`
    /// covers "a group's `placements`". An empty list names none.
    @Test func aGroupWithAnEmptyListOfPlacementsIsAnError() {
        let load = PolicyLoader.load(texts: [("t.yaml", Self.header + "  a: {format: banner}\ngroups:\n  g:\n    placements: []\n    daily_cap: 3\n")])
        #expect(load.diagnostics.contains { $0.severity == .error && $0.message.contains("placements") }, "\(load.diagnostics)")
        #expect(load.validPolicy == nil)
    }

    /// rules.md: `defaults` is a placement block with "`format` and `ad_unit` not allowed here".
    @Test func anAdUnitInDefaultsIsAnError() throws {
        let input = MarkedText("version: 1\ndefaults:\n  1️⃣ad_unit: ca-app-pub-1234567890123456/1\nplacements:\n  a: {format: banner}\n")
        let load = PolicyLoader.load(texts: [("t.yaml", input.text)])
        let at = try #require(input["1️⃣"])
        #expect(load.diagnostics.contains { $0.severity == .error && $0.range.start == at }, "\(load.diagnostics)")
        #expect(load.policy.placement("a")?.adUnit == nil)
    }

    /// rules.md: "`launch`, `resume` are only valid on `app_open` placements"; cli.md: `policy/format-key` is
    /// "`launch`/`resume` on a placement that is not app_open". Every other format.
    @Test(arguments: ["interstitial", "rewarded", "rewarded_interstitial", "banner", "native"])
    func appOpenBlocksOnEveryOtherFormatAreAFormatKeyError(_ format: String) throws {
        for block in ["launch: {max_wait: 5s}", "resume: {show_if_ready: false}"] {
            let input = MarkedText(Self.header + "  a:\n    format: \(format)\n    min_interval: 1m\n    1️⃣\(block)\n")
            let diagnostics = lint(input.text)
            let at = try #require(input["1️⃣"])
            #expect(diagnostics.contains { $0.rule == "policy/format-key" && $0.range.start == at && $0.severity == .error }, "\(format) \(block): \(diagnostics)")
        }
    }

    /// docs/rule-files.md: "`launch` and `resume` defaults apply to the app_open placements only (the other formats
    /// have no launch or resume)": another format keeps the built-in values (rules.md's table).
    @Test func launchAndResumeDefaultsApplyToAppOpenPlacementsOnly() throws {
        let policy = try policy("""
            version: 1
            defaults:
              launch: {show_on_first_load: false, max_wait: 5s}
              resume: {show_if_ready: false, allow_deferred: true, max_delay: 10s}
            placements:
              open: {format: app_open, min_interval: 4m}
              level_end: {format: interstitial, min_interval: 1m}

            """)
        let open = try #require(policy.placement("open"))
        #expect(open.showOnFirstLoad.value == false)
        #expect(open.launchMaxWait?.value == .seconds(5))
        #expect(open.showIfReady.value == false)
        #expect(open.allowDeferred.value == true)
        #expect(open.resumeMaxDelay.value == .seconds(10))
        let other = try #require(policy.placement("level_end"))
        #expect(other.showOnFirstLoad.value == true)
        #expect(other.launchMaxWait == nil)
        #expect(other.showIfReady.value == true)
        #expect(other.allowDeferred.value == false)
        #expect(other.resumeMaxDelay.value == .seconds(3))
    }

    /// docs/lint-rules.md: a conflicting setting reads "`… is 2m here but 1m at a.yaml:4:17`": the finding stands at the
    /// value in the later file, with a note at the earlier one.
    @Test func aConflictingSettingIsReportedAtTheLaterFilesValue() throws {
        let first = MarkedText("version: 1\ntimezone: 1️⃣UTC\nplacements:\n  a: {format: banner}\n")
        let later = MarkedText("version: 1\nplacements:\n  b: {format: banner}\ntimezone: 1️⃣Asia/Tokyo\n")
        let load = PolicyLoader.load(texts: [("a.yaml", first.text), ("b.yaml", later.text)])
        let laterValue = try #require(later["1️⃣"])
        let firstValue = try #require(first["1️⃣"])
        let finding = try #require(load.diagnostics.first { $0.rule == "policy/conflicting-setting" }, "\(load.diagnostics)")
        #expect(finding.file == "b.yaml")
        #expect(finding.range.start == laterValue)
        #expect(finding.notes.first?.file == "a.yaml")
        #expect(finding.notes.first?.position == firstValue)
    }

    /// rules.md §2: `session_timeout` defaults to `30m`, `fullscreen_timeout` to `30m`, `load_timeout` to `60s`,
    /// `environment` to `production`.
    @Test func topLevelSettingsLeftOutTakeTheirDefaults() throws {
        let policy = try policy(Self.header + "  a: {format: banner}\n")
        #expect(policy.sessionTimeout == .minutes(30))
        #expect(policy.fullscreenTimeout.value == .minutes(30))
        #expect(policy.loadTimeout == .seconds(60))
        #expect(policy.environment == .production)
    }

    /// docs/limits.md: a policy has "at most ... 1000 attributes", `schema/range` "at the first entry past the limit":
    /// exactly 1000 is within it.
    @Test func exactlyAsManyAttributesAsAPolicyMayHaveIsNoFinding() {
        let attributes = (0..<PolicyLimits.maxAttributes).map { "  a\($0): int\n" }.joined()
        let diagnostics = lint(Self.header + "  p: {format: banner}\nattributes:\n" + attributes)
        #expect(!diagnostics.contains { $0.rule == "schema/range" }, "\(diagnostics.prefix(3))")
    }

    /// docs/limits.md: "100,000 entries in a group's `placements` or a rule's `deny`", `schema/range` "at the first entry
    /// past the limit": a list of exactly that many is within it.
    @Test func aDenyListOfExactlyTheLargestLengthIsNoRangeError() {
        let ids = Array(repeating: "p", count: PolicyLimits.maxPlacements).joined(separator: ", ")
        let diagnostics = lint(Self.header + "  p: {format: banner}\nrules:\n  - id: r\n    deny: [\(ids)]\n    when: premium\n")
        #expect(!diagnostics.contains { $0.rule == "schema/range" }, "\(diagnostics.filter { $0.rule == "schema/range" }.prefix(3))")
    }

    /// docs/lint-rules.md: `schema/missing-key` finds "a cap's `max`/`window`"; rules.md: `caps` is a list of
    /// `{max: int ≥ 0, window: duration}`.
    @Test func aCapWithoutItsWindowIsAMissingKey() throws {
        let input = MarkedText(Self.header + "  a:\n    format: interstitial\n    min_interval: 1m\n    caps: [1️⃣{max: 3}]\n")
        let diagnostics = lint(input.text)
        let at = try #require(input["1️⃣"])
        let missing = diagnostics.filter { $0.rule == "schema/missing-key" }
        #expect(missing.map(\.range.start) == [at], "\(diagnostics)")
        #expect(missing.first?.message.contains("window") == true)
    }
}
