import AdRules
import AdRulesImpact
import AdRulesTestSupport
import Foundation
import Testing

@testable import AdRulesCLI

/// `adrules impact` and `adrules impact merge`: reports, comparisons, shards, diagnostics and exit codes.
@Suite("adrules impact")
struct ImpactCommandTests {
    static let flat = "FIXTURES/impact/flat.model.yaml"
    static let new = "FIXTURES/impact/new"
    static let old = "FIXTURES/impact/old"
    /// The fixtures' policies less `level_end`, the placement the flat model plays.
    static let appOpenOnlyPolicy = "version: 1\ntimezone: device\nplacements:\n  app_open: {format: app_open, daily_cap: 3, max_ad_age: 4h}\n"

    /// In the policy changes, a long cell runs past its column instead of widening every row: a change listing
    /// thousands of members made the text report quadratic in the policy (341 MB for a 382 KB policy). The figure
    /// tables keep full alignment (ids are at most 64 characters).
    @Test func longCellsDoNotWidenEveryRow() {
        let long = String(repeating: "p, ", count: 1_000)
        let rows = (0..<1_000).map { i in ["placement p\(i)", i == 0 ? long : "added", "x"] }
        let text = ImpactText.table(rows, rightAligned: [], indent: "  ", maxWidth: ImpactText.maxColumnWidth)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 1_000)
        #expect(lines.dropFirst().allSatisfy { $0.count <= 2 + 60 + 2 + 60 + 2 + 1 }, "\(lines[1].count)")
        #expect(text.utf8.count < 200_000)
        // The figure tables too: a 4,000-character policy path in the heading does not pad every row of figures.
        let path = String(repeating: "d/", count: 2_000)
        let figures = [["level_end (interstitial)", path]] + (0..<100).map { ["  p\($0)", "\($0)"] }
        let rendered = ImpactText.table(figures, rightAligned: [1], indent: "", maxWidth: ImpactText.maxFigureColumnWidth)
        let renderedLines: [Substring] = rendered.split(separator: "\n")
        #expect(renderedLines.dropFirst().allSatisfy { $0.count <= 100 + 2 + 100 }, "\(rendered.prefix(300))")
    }

    /// Columns are aligned in terminal columns: a segment named in Japanese or with an emoji takes two a character, and
    /// the figures after it stay under their heading (they were padded by characters and ran two columns off).
    @Test func wideCharactersKeepTheColumnsAligned() {
        let rows = [["segment", "users", "mean"], ["日本の常連", "1,200", "3.10"], ["casual 🎮", "800", "12.00"], ["e\u{301}te\u{301}", "7", "0.50"]]
        let text = ImpactText.table(rows, rightAligned: [1, 2], indent: "  ", maxWidth: ImpactText.maxFigureColumnWidth)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 4)
        // Every line ends its last (right-aligned) column at the same terminal column, and so does each column before it.
        #expect(Set(lines.map(TerminalWidth.of)) == [2 + 10 + 2 + 5 + 2 + 5], "\(text)")
        #expect(lines[1] == "  日本の常連  1,200   3.10", "\(text)")
        #expect(lines[2] == "  casual 🎮     800  12.00", "\(text)")
        #expect(lines[3] == "  e\u{301}te\u{301}" + String(repeating: " ", count: 13) + "7   0.50", "\(text)")
    }

    /// The change column is the difference of the figures beside it, as they are shown: means of 3.736 and 3.734 read
    /// 3.74 and 3.73, and their change -0.01 (the values' own difference, -0.002, read 0.00 beside two figures that
    /// differ); shares in percentage points likewise.
    @Test func aChangeIsTheDifferenceOfTheFiguresShown() {
        #expect(ImpactFormat.fixed(3.736, 2) == "3.74" && ImpactFormat.fixed(3.734, 2) == "3.73")
        #expect(ImpactFormat.change(from: 3.736, to: 3.734, 2) == "-0.01")
        #expect(ImpactFormat.change(from: 3.734, to: 3.736, 2) == "+0.01")
        #expect(ImpactFormat.change(from: 3.744, to: 3.736, 2) == "0.00")
        #expect(ImpactFormat.change(from: -0.004, to: 0.006, 2) == "+0.01")
        #expect(ImpactFormat.change(from: 2, to: 5, 0) == "+3")
        // 12.34% and 12.36% show as 12.3% and 12.4%: 0.1 points apart, not 0.0.
        #expect(ImpactFormat.percent(1234, of: 10_000) == "12.3%" && ImpactFormat.percent(1236, of: 10_000) == "12.4%")
        #expect(ImpactFormat.points(from: (1234, of: 10_000), to: (1236, of: 10_000)) == "+0.1 pt")
        #expect(ImpactFormat.points(from: (1236, of: 10_000), to: (1234, of: 10_000)) == "-0.1 pt")
        #expect(ImpactFormat.points(from: (1, of: 3), to: (2, of: 6)) == "0.0 pt")
    }

    /// A share shown as a percentage with one decimal is rounded once from the counts, half up: 1,429 of 20,000
    /// user-days is exactly 7.145%, which shows as 7.1% (rounding the json's 4-decimal share, 0.0715, again gave 7.2%),
    /// and 57 of 800 (exactly 7.125%) as 7.1%, 3 of 8 (37.5%) as 37.5%, 1 of 2,000 (0.05%) as 0.1%.
    @Test func aPercentageIsRoundedOnceFromTheCounts() {
        #expect(ImpactFormat.percent(1429, of: 20_000) == "7.1%")
        #expect(ImpactFormat.percent(57, of: 800) == "7.1%")
        #expect(ImpactFormat.percent(3, of: 8) == "37.5%")
        #expect(ImpactFormat.percent(1, of: 2000) == "0.1%")
        #expect(ImpactFormat.percent(1, of: 2001) == "0.0%")
        #expect(ImpactFormat.percent(5, of: 5) == "100.0%")
        #expect(ImpactFormat.percent(0, of: 0) == "0.0%")
        // Of 400 user-days, each day is 2.5 tenths of a percent: every odd count lands halfway and is rounded up.
        for count in 0...400 {
            let tenths = (count * 5 + 1) / 2
            #expect(ImpactFormat.percent(count, of: 400) == "\(tenths / 10).\(tenths % 10)%", "\(count) of 400")
        }
    }

    /// A placement whose format changed between the policies: the model's actions fit the new policy, so the old one's
    /// app-open placement is a warning that names the old policy (it blocked the comparison, naming neither).
    @Test func aFormatChangeIsComparedWithAWarningAboutTheOldPolicy() throws {
        let dir = try temporaryDirectory("adrules-format-change", [
            "old.yaml": "version: 1\nplacements:\n  level_end: {format: app_open}\n",
            "new.yaml": "version: 1\nplacements:\n  level_end: {format: interstitial, min_interval: 1m}\n",
            "c.model.yaml": "version: 1\nusers: 3\ndays: 1\nsegments:\n  - name: a\n    share: 1\n    actions: [{placement: level_end, every: 10m}]\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = runCLI(["impact", dir + "/c.model.yaml", "--rules", dir + "/new.yaml", "--compare", dir + "/old.yaml", "--format", "json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: placement level_end is app_open, which the app never shows from actions"), "\(result.stderr)")
        #expect(result.stderr.contains("(in the --compare policy \(dir)/old.yaml) (model/placement-format)"), "\(result.stderr)")
    }

    /// A segment no user drew shows a dash and why, not figures of 0 (which read as users who see no ad), in text
    /// and html; its figures do not widen the table's columns.
    @Test func aSegmentWithNoUserHasNoFigures() throws {
        let dir = try temporaryDirectory("adrules-no-user", [
            "p.yaml": "version: 1\nplacements:\n  level_end: {format: interstitial, min_interval: 1m}\n",
            "m.model.yaml": "version: 1\nusers: 1\ndays: 1\nsegments:\n  - {name: big, share: 0.9, actions: [{placement: level_end, every: 10m}]}\n"
                + "  - {name: small, share: 0.1, actions: [{placement: level_end, every: 10m}]}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/p.yaml"])
        #expect(text.exitCode == 0, "\(text.stderr)")
        #expect(text.stdout.contains("\n  small (0 users)  -\n"), "\(text.stdout)")
        #expect(text.stdout.contains("\n  small: no user drew this segment, so it has no figures: raise --users\n"), "\(text.stdout)")
        #expect(text.stdout.contains("\nSegment small (0 users):\n  no user drew this segment"), "\(text.stdout)")
        #expect(text.stdout.contains("\n  big (1 user)     level_end"), "\(text.stdout)")
        let html = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/p.yaml", "--format", "html"])
        #expect(html.stdout.contains("<p>no user drew this segment, so it has no figures: raise --users</p>"), "\(html.stdout)")
    }

    /// The html's deny-reason chart shows the eight most frequent; every reason is still on the page, in a table that
    /// opens on a click (a ninth reason was in the text and json reports only).
    @Test func theHTMLListsEveryDenyReason() throws {
        let rules = (0..<10).map { "  - {id: r\($0), deny: [level_end], when: not premium, message: Rule \($0) says no}\n" }.joined()
        let html = try Self.impact(
            policy: "version: 1\nplacements:\n  level_end: {format: interstitial, min_interval: 1m}\nrules:\n" + rules,
            model: "version: 1\nusers: 1\ndays: 1\nsegments:\n  - {name: one, share: 1, foreground: 30m, actions: [{placement: level_end, every: 1m}]}\n",
            arguments: ["--format", "html"])
        #expect(html.exitCode == 0, "\(html.stderr)")
        #expect(html.stdout.contains("<summary>All 10 deny reasons</summary>"), "\(html.stdout)")
        for rule in 0..<10 { #expect(html.stdout.contains("Rule \(rule) says no"), "rule \(rule)") }
        // The chart's bars of custom rules are labelled with their messages, not with the code alone (a screenshot has no
        // tooltips), cut to the label's width.
        for rule in 0..<8 { #expect(html.stdout.contains("</title>custom_rule Rule \(rule) says no…</text>"), "rule \(rule)") }
        // Equal counts come in line order, as numbers: the rule on line 5 before the one on line 14.
        let first = html.stdout.range(of: "Rule 0 says no"), last = html.stdout.range(of: "Rule 9 says no")
        #expect(first != nil && last != nil && first!.lowerBound < last!.lowerBound)
    }

    /// `adrules impact` of a model against a policy, both written to a fresh directory that is removed afterwards, with
    /// any further `arguments`.
    static func impact(policy: String, model: String, arguments: [String] = []) throws -> CommandResult {
        let dir = try temporaryDirectory("adrules-impact", ["p.yaml": policy, "m.model.yaml": model])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        return runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/p.yaml"] + arguments)
    }

    /// The binary runs in the package directory, so the reports hold relative paths that do not depend on the checkout.
    @Test func textJSONAndHTMLMatchTheirGoldenFiles() throws {
        let fixtures = "Tests/AdRulesCLITests/Fixtures/impact"
        let flat = ["impact", "\(fixtures)/flat.model.yaml", "--rules", "\(fixtures)/new"]
        let text = try runBinary(flat)
        #expect(text.code == 0, "\(text.stderr)")
        #expect(text.stderr.isEmpty)
        expectGolden(text.stdout, "impact.txt")
        expectGolden(try runBinary(flat + ["--format", "json"]).stdout, "impact.json")
        expectGolden(try runBinary(flat + ["--compare", "\(fixtures)/old"]).stdout, "impact.compare.txt")
        expectGolden(try runBinary(flat + ["--compare", "\(fixtures)/old", "--format", "html"]).stdout, "impact.compare.html")
    }

    @Test func aFlatModelGivesFiguresYouCanCheckByHand() throws {
        let result = runCLI(["impact", Self.flat, "--rules", Self.old, "--format", "json"])
        let document = try JSON.parse(result.stdout)
        let players = try #require(document["results"]?.arrayValue?.first?["segments"]?["players"])
        // One cold start and ten resumes a day with daily_cap: 3: exactly 3 app-open ads every day.
        let appOpen = try #require(players["placements"]?["app_open"]?["impressions_per_user_day"])
        #expect(appOpen == .object([("mean", .double(3.0)), ("p50", .int(3)), ("p90", .int(3)), ("p99", .int(3)), ("max", .int(3))]))
        // Subscribers (premium: 1) see nothing.
        let subscribers = try #require(document["results"]?.arrayValue?.first?["segments"]?["subscribers"]?["placements"])
        #expect(subscribers["app_open"]?["impressions"] == .int(0))
        #expect(subscribers["level_end"]?["impressions"] == .int(0))
    }

    /// A placement the change adds is shown for the new policy alone, in every format (text and html indexed
    /// the old policy's placements by position and trapped).
    @Test func aPlacementOnlyOnePolicyHasIsShownForThatPolicy() throws {
        let dir = scratchPath("adrules-impact-added")
        let folder = URL(fileURLWithPath: dir).lastPathComponent
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fixture = packageRoot() + "/Tests/AdRulesCLITests/Fixtures/impact/new/policy.yaml"
        let added = try String(contentsOfFile: fixture, encoding: .utf8) + "  banner_home:\n    format: banner\n"
        try added.write(toFile: dir + "/policy.yaml", atomically: true, encoding: .utf8)
        // Added (the new policy has it) and removed (only the old one has it).
        for (new, old) in [(dir, Self.new), (Self.new, dir)] {
            for format in ["text", "html", "json"] {
                let result = runCLI(["impact", Self.flat, "--rules", new, "--compare", old, "--format", format])
                #expect(result.exitCode == 0, "\(format): \(result.stderr)")
                #expect(result.stdout.contains("banner_home"), "\(format)")
                // A long path is shortened in its middle (a long TMPDIR): its end names the policy.
                if format != "json" { #expect(result.stdout.contains("only in ") && result.stdout.contains(folder), "\(format)") }
            }
        }
        let text = runCLI(["impact", Self.flat, "--rules", dir, "--compare", Self.new]).stdout
        #expect(text.contains("banner_home (banner) only in /"), "\(text)")
        #expect(text.contains("only in \(dir)") || text.contains("…") && text.contains(folder), "\(text)")
    }

    /// A directory with an old and a new policy (`old/p.yaml`, `new/p.yaml`) and a model of two users for one day
    /// whose one segment has `segment` (its actions or offers): what a `--compare` test runs.
    func comparison(old: String, new: String, segment: String) throws -> String {
        let dir = scratchPath("adrules-impact-compare")
        for sub in ["old", "new"] { try FileManager.default.createDirectory(atPath: dir + "/" + sub, withIntermediateDirectories: true) }
        try old.write(toFile: dir + "/old/p.yaml", atomically: true, encoding: .utf8)
        try new.write(toFile: dir + "/new/p.yaml", atomically: true, encoding: .utf8)
        try """
            version: 1
            users: 2
            days: 1
            segments:
              - {name: all, share: 1, timezone: UTC, first_open: 9h, cold_starts: 1, resumes: 0, foreground: 30m,
                 \(segment)}
            network: {load_time: 1s, fill_rate: 1, ad_duration: 10s, show_failure: 0}
            """.write(toFile: dir + "/m.model.yaml", atomically: true, encoding: .utf8)
        return dir
    }

    /// The change of a mean is the difference of the two means as shown: 83 of 2,000 users see 3 app-open ads a day
    /// under the old policy and 2 under the new (0.1245 and 0.083 a user-day), shown as 0.12 and 0.08, which change by
    /// -0.04. The change was taken from the json's 3-decimal means (0.125 and 0.083) and read -0.05.
    @Test func aMeansChangeIsTheDifferenceOfTheMeansShown() throws {
        let old = "version: 1\nplacements:\n  app_open: {format: app_open, daily_cap: 3, max_ad_age: 4h}\n"
        let model = """
            version: 1
            users: 2000
            days: 1
            seed: 7
            segments:
              - {name: players, share: 0.0415, timezone: UTC, installed_days_ago: 30, first_open: 8h, cold_starts: 1, resumes: 10, foreground: 1m}
              - {name: subscribers, share: 0.9585, timezone: UTC, premium: 1, first_open: 9h, resumes: 10, foreground: 1m}
            network: {load_time: 1s, fill_rate: 1, ad_duration: 5s, show_failure: 0}
            """
        let dir = try temporaryDirectory("adrules-impact-mean-change", [
            "old/p.yaml": old, "new/p.yaml": old.replacingOccurrences(of: "daily_cap: 3", with: "daily_cap: 2"), "m.model.yaml": model,
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let arguments = ["impact", dir + "/m.model.yaml", "--rules", dir + "/new", "--compare", dir + "/old"]
        let text = runCLI(arguments)
        #expect(text.exitCode == 0, "\(text.stderr)")
        // The columns are as wide as the policies' paths: the row's last three cells.
        let row = text.stdout.split(separator: "\n").first { $0.contains("impressions per user per day: mean") }
        #expect(row.map { Array($0.split(separator: " ").suffix(3)) } == ["0.12", "0.08", "-0.04"], "\(text.stdout)")
        let html = runCLI(arguments + ["--format", "html"])
        #expect(html.stdout.contains("mean</td><td class=\"n\">0.12</td><td class=\"n\">0.08</td><td class=\"n\">-0.04</td>"), "\(html.stdout)")
    }

    /// A placement the model uses and only the new policy defines is described by the new policy (its format, its
    /// rewarded figures), not by the old policy's stand-in for it.
    @Test func aPlacementTheOldPolicyLacksIsDescribedByTheNewOne() throws {
        let head = "version: 1\nplacements:\n  level_end: {format: interstitial, min_interval: 1m}\n"
        let dir = try comparison(old: head, new: head + "  hint: {format: rewarded, daily_cap: 5}\n", segment: "rewarded: [{placement: hint, every: 5m, accept: 1}]")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for format in ["text", "html"] {
            let result = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/new", "--compare", dir + "/old", "--format", format])
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(result.stdout.contains(format == "text" ? "hint (rewarded)" : "hint<small>rewarded"), "\(format)")
            #expect(!result.stdout.contains("unknown<") && !result.stdout.contains("(unknown)"), "\(format)")
            #expect(result.stdout.contains("accepted"), "\(format)")
        }
    }

    /// Two policies that differ only in the order their app-open placements are written in play alike: the simulated
    /// app asks them in the order of their ids (in file order, the first one shown blocked the other, and the figures
    /// moved by a third while the change list said the policies meant the same).
    @Test func theOrderOfAppOpenPlacementsInTheFileChangesNoFigure() throws {
        let cold = "  cold: {format: app_open, daily_cap: 1}\n", warm = "  warm: {format: app_open}\n"
        let dir = scratchPath("adrules-impact-order")
        for sub in ["old", "new"] { try FileManager.default.createDirectory(atPath: dir + "/" + sub, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ("version: 1\nplacements:\n" + cold + warm).write(toFile: dir + "/old/p.yaml", atomically: true, encoding: .utf8)
        try ("version: 1\nplacements:\n" + warm + cold).write(toFile: dir + "/new/p.yaml", atomically: true, encoding: .utf8)
        try "version: 1\nusers: 40\ndays: 2\nsegments:\n  - {name: a, share: 1, resumes: 4}\nnetwork: {load_time: 2s}\n"
            .write(toFile: dir + "/m.model.yaml", atomically: true, encoding: .utf8)
        let result = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/new", "--compare", dir + "/old", "--format", "json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let document = try JSON.parse(result.stdout)
        #expect(document["changes"]?.arrayValue?.isEmpty == true)
        let results = try #require(document["results"]?.arrayValue)
        try #require(results.count == 2)
        for id in ["cold", "warm"] {
            let old = try #require(results[0]["placements"]?[id]?["impressions"]?.intValue)
            let new = try #require(results[1]["placements"]?[id]?["impressions"]?.intValue)
            #expect(old == new && old > 0, "\(id): \(old) against \(new)")
        }
        let difference = try #require(document["difference"]?["placements"])
        for id in ["cold", "warm"] {
            #expect(difference[id]?["impressions"] == .int(0), "\(id)")
            #expect(difference[id]?["deny_reasons"]?.arrayValue?.allSatisfy { $0["count"] == .int(0) } == true, "\(id)")
        }
    }

    /// Two custom rules swapped in their file are each their own row, matched by the rule's id: each keeps its count,
    /// with no change (matched by line, each rule's old count was set beside the other rule).
    @Test func customRulesSwappedInTheirFileKeepTheirOwnRows() throws {
        let low = "  - {id: low, deny: [level_end], when: lvl < 3, message: low level}\n"
        let high = "  - {id: high, deny: [level_end], when: lvl > 8, message: high level}\n"
        let head = "version: 1\nattributes:\n  lvl: int\nplacements:\n  level_end: {format: interstitial, min_interval: 1m}\nrules:\n"
        let dir = try comparison(
            old: head + low + high, new: head + high + low,
            segment: "attributes: {lvl: {uniform: [0, 10]}}, actions: [{placement: level_end, every: 2m}]")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Enough users that each rule meets some (the level is drawn per user).
        let model = try String(contentsOfFile: dir + "/m.model.yaml", encoding: .utf8)
        try model.replacingOccurrences(of: "users: 2\n", with: "users: 40\n").write(toFile: dir + "/m.model.yaml", atomically: true, encoding: .utf8)
        let text = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/new", "--compare", dir + "/old"])
        #expect(text.exitCode == 0, "\(text.stderr)")
        let rows = text.stdout.split(separator: "\n").filter { $0.contains("custom_rule") }
        #expect(rows.count == 2, "\(text.stdout)")
        for row in rows {
            let cells = row.split(separator: " ", omittingEmptySubsequences: true)
            #expect(cells.count > 3 && cells[1] == cells[2] && cells[3] == "0", "\(row)")
        }
        let json = try JSON.parse(runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/new", "--compare", dir + "/old", "--format", "json"]).stdout)
        let reasons = try #require(json["difference"]?["placements"]?["level_end"]?["deny_reasons"]?.arrayValue)
        #expect(reasons.filter { $0["code"] == .string("custom_rule") }.count == 2)
        #expect(reasons.allSatisfy { $0["count"] == .int(0) }, "\(reasons)")
    }

    /// A placement moved to another file keeps its deny-reason rows: the same setting is one row, with no change (they
    /// were two, one policy's count beside the other's 0).
    @Test func aSettingMovedToAnotherFileIsOneRow() throws {
        let policy = "version: 1\nplacements:\n  inter: {format: interstitial, min_interval: 1m, daily_cap: 1}\n"
        let dir = try comparison(old: policy, new: "version: 1\n", segment: "actions: [{placement: inter, every: 2m}]")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "version: 1\n\nplacements:\n  inter:\n    daily_cap: 1\n    format: interstitial\n    min_interval: 1m\n"
            .write(toFile: dir + "/new/other.yaml", atomically: true, encoding: .utf8)
        let json = try JSON.parse(runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/new", "--compare", dir + "/old", "--format", "json"]).stdout)
        let reasons = try #require(json["difference"]?["placements"]?["inter"]?["deny_reasons"]?.arrayValue)
        let daily = reasons.filter { $0["code"] == .string("daily_cap") }
        #expect(daily.count == 1 && daily.first?["count"] == .int(0) && daily.first?["file"]?.stringValue?.hasSuffix("new/other.yaml") == true, "\(reasons)")
        let text = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/new", "--compare", dir + "/old"]).stdout
        let rows = text.split(separator: "\n").filter { $0.contains("daily_cap") && $0.contains("other.yaml") || $0.contains("p.yaml:") }
        #expect(rows.count == 1, "\(text)")
    }

    /// A placement whose format the change sets anew is headed with both formats, old first, in text and html.
    @Test func aChangedFormatIsHeadedWithBoth() throws {
        let dir = try comparison(
            old: "version: 1\nplacements:\n  b: {format: interstitial, min_interval: 1m}\n",
            new: "version: 1\nplacements:\n  b: {format: rewarded_interstitial, min_interval: 1m}\n", segment: "actions: [{placement: b, every: 2m}]")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/new", "--compare", dir + "/old"])
        #expect(text.stdout.contains("\nb (interstitial → rewarded_interstitial) "), "\(text.stdout)\(text.stderr)")
        let html = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/new", "--compare", dir + "/old", "--format", "html"]).stdout
        #expect(html.contains("<small>interstitial → rewarded_interstitial</small>"))
    }

    /// A placement of another format that offers were made for (the model offers a reward for an interstitial) shows its
    /// rewarded rows in text and html, as the json has them (impact.md: rewarded figures per placement).
    @Test func offersMadeForAnyPlacementAreShown() throws {
        let policy = "version: 1\nplacements:\n  inter: {format: interstitial, min_interval: 1m}\n"
        let dir = try comparison(old: policy, new: policy, segment: "rewarded: [{placement: inter, every: 2m, accept: 1}]")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let json = try JSON.parse(runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/new", "--format", "json"]).stdout)
        let offers = try #require(json["results"]?.arrayValue?.first?["placements"]?["inter"]?["rewarded"]?["offers"]?.intValue)
        #expect(offers > 0)
        let text = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/new"]).stdout
        let row = try #require(text.split(separator: "\n").first { $0.contains("rewarded offers shown") }, "\(text)")
        #expect(row.split(separator: " ").last.map(String.init) == String(offers), "\(row)")
        let html = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/new", "--format", "html"]).stdout
        #expect(html.contains("rewarded offers shown") && html.contains("offers accepted"))
        // A placement no offer was made for keeps its table short.
        let none = try comparison(old: policy, new: policy, segment: "actions: [{placement: inter, every: 2m}]")
        defer { try? FileManager.default.removeItem(atPath: none) }
        #expect(!runCLI(["impact", none + "/m.model.yaml", "--rules", none + "/new"]).stdout.contains("rewarded offers shown"))
    }

    /// What a deny reason names, read from its message: the rule, the group, the window.
    @Test func aDenyReasonsSubjectIsReadFromItsMessage() {
        func subject(_ code: ReasonCode, _ message: String) -> String? {
            DenialRow.subject(of: DenialCount(code: code, location: nil, message: message, count: 1))
        }
        #expect(subject(.customRule, "low level (rule low)") == "low")
        #expect(subject(.customRule, "see (rule x) first (rule r_2)") == "r_2")
        #expect(subject(.customRule, "denied by rule vip_only") == "vip_only")
        #expect(subject(.ruleError, "rule tier cannot be evaluated: no value for level; denied to be safe") == "tier")
        #expect(subject(.groupDailyCap, "group fullscreen: daily_cap 5 reached today") == "group fullscreen")
        #expect(subject(.groupWindowCap, "group g: 3 shows in 1h reached (caps)") == "group g, in 1h")
        #expect(subject(.windowCap, "1 show in 30m reached (caps)") == "in 30m")
        #expect(subject(.windowCap, "a caps window of 0 shows in 2h, so it never shows (caps)") == "in 2h")
        #expect(subject(.minInterval, "min_interval 1m not elapsed since its last show") == nil)
        #expect(subject(.customRule, "a message of another shape") == nil)
    }

    /// A cap only one policy's placement has reads "–" under the other policy (0.0% would say the cap was there and
    /// never reached), and its change counts it as reached on no day there, in text and html as in the json's
    /// `difference` (impact.md: every figure side by side with the difference).
    @Test func aCapOnlyOnePolicyHasIsADashUnderTheOtherWithItsChange() throws {
        let head = "version: 1\nplacements:\n  level_end: {format: interstitial, min_interval: 1m"
        let dir = try comparison(old: head + "}\n", new: head + ", hourly_cap: 2}\n", segment: "actions: [{placement: level_end, every: 2m}]")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/new", "--compare", dir + "/old"])
        #expect(text.exitCode == 0, "\(text.stderr)")
        let row = try #require(text.stdout.split(separator: "\n").first { $0.contains("user-days that reached hourly_cap") })
        let cells = row.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        // `… hourly_cap  –  37.5%  +37.5 pt`: the new share, and the same figure as the change.
        try #require(cells.count >= 4, "\(row)")
        let share = cells[cells.count - 3]
        #expect(cells[cells.count - 4] == "–" && share.hasSuffix("%") && share != "0.0%", "\(row)")
        #expect(cells.suffix(2) == ["+" + share.dropLast(), "pt"], "\(row)")
        let html = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/new", "--compare", dir + "/old", "--format", "html"])
        #expect(html.stdout.contains("<td class=\"n\">–</td><td class=\"n\">\(share)</td><td class=\"n\">+\(share.dropLast()) pt</td>"), "\(html.stdout.prefix(200))")
        let json = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/new", "--compare", dir + "/old", "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let difference = try #require(document["difference"] as? [String: Any])
        let placement = (difference["placements"] as? [String: Any])?["level_end"] as? [String: Any]
        let hourly = try #require((placement?["cap_reached_share"] as? [String: Any])?["hourly_cap"] as? Double)
        #expect(String(format: "%.1f%%", hourly * 100) == share)
    }

    /// Policy-wide settings are named as written and located in both policies; an added attribute shows its type.
    @Test func policyWideChangesNameTheirValuesAndLocations() throws {
        let dir = scratchPath("adrules-impact-diff")
        for sub in ["old", "new"] { try FileManager.default.createDirectory(atPath: dir + "/" + sub, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let tail = "placements:\n  level_end: {format: interstitial, min_interval: 1m}\n"
        try ("version: 1\ntimezone: UTC\nsession_timeout: 10m\n" + tail).write(toFile: dir + "/old/p.yaml", atomically: true, encoding: .utf8)
        try ("version: 1\ntimezone: Europe/Berlin\n" + tail + "attributes:\n  mode: {type: string}\n").write(toFile: dir + "/new/p.yaml", atomically: true, encoding: .utf8)
        let result = runCLI(["impact", Self.flat, "--rules", dir + "/new", "--compare", dir + "/old", "--users", "2", "--days", "1"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let zone = try #require(lines.first { $0.contains("policy: timezone") })
        #expect(zone.contains("UTC → Europe/Berlin") && zone.contains("\(dir)/old/p.yaml:2:11 → \(dir)/new/p.yaml:2:11"), "\(zone)")
        let session = try #require(lines.first { $0.contains("policy: session_timeout") })
        // Left at its default in the new policy: located at that policy's first file's `version:` key.
        #expect(session.contains("\(dir)/old/p.yaml:3:18 → \(dir)/new/p.yaml:1:1"), "\(session)")
        #expect(lines.contains { $0.contains("attribute mode") && $0.contains("added (type: string)") }, "\(result.stdout)")

        // A policy and its compiled form mean the same: no change, although the compiled one keeps Foundation's name.
        #expect(runCLI(["compile", dir + "/old", "--output", dir + "/old.json"]).exitCode == 0)
        let same = runCLI(["impact", Self.flat, "--rules", dir + "/old.json", "--compare", dir + "/old", "--users", "2", "--days", "1"])
        #expect(same.exitCode == 0, "\(same.stderr)")
        #expect(!same.stdout.contains("policy: timezone"), "\(same.stdout.prefix(500))")
        // Compared with another zone, the compiled one is named as it is written there (UTC), not as Foundation names it.
        let changed = runCLI(["impact", Self.flat, "--rules", dir + "/new", "--compare", dir + "/old.json", "--users", "2", "--days", "1"])
        let compiledZone = try #require(changed.stdout.split(separator: "\n").first { $0.contains("policy: timezone") })
        #expect(compiledZone.contains("UTC → Europe/Berlin"), "\(compiledZone)")
    }

    @Test func compareListsTheOldPolicyFirstAfterTheChanges() throws {
        let result = runCLI(["impact", Self.flat, "--rules", Self.new, "--compare", Self.old, "--format", "json"])
        #expect(result.exitCode == 0)
        let document = try JSON.parse(result.stdout)
        #expect(document["results"]?.arrayValue?.map { $0["policy"] } == [.string(Self.old), .string(Self.new)])
        let change = try #require(document["changes"]?.arrayValue?.first)
        #expect(change["setting"] == .string("daily_cap"))
        #expect(change["old"] == .string("3") && change["new"] == .string("5"))
        #expect(change["old_location"]?["file"] == .string(Self.old + "/policy.yaml"))
        #expect(change["new_location"]?["line"] == .int(6))
        // The difference, new minus old: daily_cap 3 -> 5 gives the players two more app-open shows a day, each day.
        let players = try #require(document["difference"]?["segments"]?["players"]?["placements"]?["app_open"])
        #expect(players["impressions_per_user_day"]?["mean"] == .double(2.0))
        #expect(players["impressions_per_user_day"]?["max"] == .int(2))
        #expect(players["cap_reached_share"]?["daily_cap"] == .double(0.0), "the cap is reached every day under both")
        let results = try #require(document["results"]?.arrayValue)
        let impressions = results.map { $0["placements"]?["app_open"]?["impressions"]?.intValue ?? -1 }
        #expect(document["difference"]?["placements"]?["app_open"]?["impressions"] == .int(impressions[1] - impressions[0]))
        #expect(document["difference"]?["segments"]?["subscribers"]?["placements"]?["app_open"]?["impressions"] == .int(0))
        // Deny reasons and loads too: each reason row's count is the new count minus the old, matched by code and file.
        func denials(_ result: JSON?) -> [String: Int] {
            var counts: [String: Int] = [:]
            for row in result?["placements"]?["app_open"]?["deny_reasons"]?.arrayValue ?? [] {
                if case .string(let code)? = row["code"] { counts[code, default: 0] += row["count"]?.intValue ?? 0 }
            }
            return counts
        }
        let (was, now) = (denials(results[0]), denials(results[1]))
        let changed = denials(document["difference"])
        #expect(!changed.isEmpty && changed["daily_cap"] != 0, "\(changed)")
        for code in Set(was.keys).union(now.keys) { #expect(changed[code] == (now[code] ?? 0) - (was[code] ?? 0), "\(code)") }
        let loads = results.map { $0["placements"]?["app_open"]?["loads"]?["started"]?.intValue ?? -1 }
        #expect(document["difference"]?["placements"]?["app_open"]?["loads"]?["started"] == .int(loads[1] - loads[0]))
        let single = try JSON.parse(runCLI(["impact", Self.flat, "--rules", Self.new, "--format", "json"]).stdout)
        #expect(single["difference"] == nil, "one policy has no difference")
        let text = runCLI(["impact", Self.flat, "--rules", Self.new, "--compare", Self.old]).stdout
        let changes = try #require(text.range(of: "Policy changes from \(Self.old) to \(Self.new):"))
        let firstTable = try #require(text.range(of: "app_open (app_open)"))
        #expect(changes.lowerBound < firstTable.lowerBound)
        let header = try #require(text.split(separator: "\n").first { $0.hasPrefix("app_open (app_open)") })
        let oldColumn = try #require(header.range(of: Self.old)), newColumn = try #require(header.range(of: Self.new))
        #expect(oldColumn.upperBound < newColumn.lowerBound)
        #expect(header.hasSuffix("change"))
    }

    /// A path with a line break or an escape code is shown escaped in the text report: no line of its own.
    @Test func namesInTheTextReportAreEscaped() throws {
        let directory = scratchPath("adrules-names")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let model = directory + "/a\nfake.yaml:1:1: error: forged\u{1B}[31m.model.yaml"
        try FileManager.default.copyItem(atPath: Self.inPackage(Self.flat.replacingOccurrences(of: "FIXTURES", with: fixtures)), toPath: model)
        let result = runCLI(["impact", model, "--rules", Self.new])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(!result.stdout.split(separator: "\n").contains { $0.hasPrefix("fake.yaml") })
        #expect(!result.stdout.contains("\u{1B}"))
        #expect(result.stdout.contains("a\\nfake.yaml:1:1: error: forged\\u{1B}[31m.model.yaml"), "\(result.stdout.prefix(300))")
    }

    /// A path relative to the package root, for runs outside the package directory.
    static func inPackage(_ argument: String) -> String {
        argument.hasPrefix("rules") ? packageRoot() + "/" + argument : argument
    }
}

/// Progress of a long `impact` run: a bar on a terminal; elsewhere a line every 30 seconds, and none in a shorter run.
@Suite("impact progress")
struct ImpactProgressTests {
    /// A clock and an output a test sets and reads; the bar reads and writes them under its own lock.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var seconds: TimeInterval = 0
        private var written: [String] = []

        func set(_ value: TimeInterval) { lock.withLock { seconds = value } }
        var now: Date { lock.withLock { Date(timeIntervalSince1970: 1_800_000_000 + seconds) } }
        func write(_ text: String) { lock.withLock { written.append(text) } }
        var lines: [String] { lock.withLock { written } }
    }

    func bar(isTerminal: Bool, _ recorder: Recorder) -> ProgressBar {
        ProgressBar(isTerminal: isTerminal, clock: { recorder.now }, write: { recorder.write($0) })
    }

    @Test func offATerminalALineIsWrittenEveryThirtySeconds() {
        let recorder = Recorder()
        let bar = bar(isTerminal: false, recorder)
        for (second, done) in [(0.0, 1), (10, 10), (29.9, 20)] {
            recorder.set(second)
            bar.draw(done, of: 100)
        }
        #expect(recorder.lines.isEmpty, "a run shorter than 30 s prints nothing")
        for (second, done) in [(31.0, 30), (45, 40), (59, 50), (95, 70), (100, 80)] {
            recorder.set(second)
            bar.draw(done, of: 100)
        }
        // Due at 30 s, then at 60 s (the draw at 95 s is the first after it), then at 120 s.
        #expect(recorder.lines == ["adrules impact: 30% (30/100 users) after 31 s\n", "adrules impact: 70% (70/100 users) after 95 s\n"])
        bar.finish()
        #expect(recorder.lines.count == 2, "finishing clears no line")
    }

    @Test func onATerminalTheBarIsRedrawnAndCleared() {
        let recorder = Recorder()
        let bar = bar(isTerminal: true, recorder)
        recorder.set(2)
        bar.draw(50, of: 100)
        // A thread that counted fewer draws late: the bar never goes back.
        bar.draw(40, of: 100)
        bar.finish()
        #expect(recorder.lines == ["\r[###############               ] 50% 50/100 users, 2 s\u{1B}[K", "\r\u{1B}[K"])
    }

    /// A dumb terminal (`TERM=dumb`) shows `ESC [K` rather than clearing with it: the bar is cleared with spaces over
    /// what was drawn.
    @Test func onADumbTerminalSpacesClearTheLine() {
        let recorder = Recorder()
        let bar = ProgressBar(isTerminal: true, columns: 30, clearsLines: false, clock: { recorder.now }, write: { recorder.write($0) })
        recorder.set(2)
        bar.draw(10_000, of: 100_000)
        bar.finish()
        #expect(recorder.lines == ["\r10% 10000/100000 users, 2 s", "\r" + String(repeating: " ", count: 27) + "\r"], "\(recorder.lines)")
    }

    /// Each redraw fits the terminal, one column short of its edge: a line as wide wraps, and the next redraw would
    /// start a new line.
    @Test func theBarFitsTheTerminal() {
        let wide = ProgressBar.line(done: 500, of: 1000, percent: 50, seconds: 7, columns: 80)
        #expect(wide == "[###############               ] 50% 500/1000 users, 7 s")
        // 40 columns: 39 to use, 3 for the brackets and the space, 25 for the figures at their widest (100% 1000/1000
        // users, 7 s), a bar of 11; the same bar at the end.
        let narrow = ProgressBar.line(done: 500, of: 1000, percent: 50, seconds: 7, columns: 40)
        #expect(narrow == "[#####      ] 50% 500/1000 users, 7 s")
        let last = ProgressBar.line(done: 1000, of: 1000, percent: 100, seconds: 7, columns: 40)
        #expect(last == "[###########] 100% 1000/1000 users, 7 s")
        #expect(last.count == 39)
        // A bar of 10 needs 39 columns; on 38, the figures alone.
        #expect(ProgressBar.line(done: 500, of: 1000, percent: 50, seconds: 7, columns: 39) == "[#####     ] 50% 500/1000 users, 7 s")
        #expect(ProgressBar.line(done: 500, of: 1000, percent: 50, seconds: 7, columns: 38) == "50% 500/1000 users, 7 s")
        // Narrower, whole figures only: a figure cut short reads as another ("1" for 10% and 100%).
        #expect(ProgressBar.line(done: 500, of: 1000, percent: 50, seconds: 7, columns: 20) == "50% 500/1000 users")
        #expect(ProgressBar.line(done: 500, of: 1000, percent: 50, seconds: 7, columns: 18) == "50%")
        #expect(ProgressBar.line(done: 100, of: 1000, percent: 10, seconds: 7, columns: 4) == "10%")
        #expect(ProgressBar.line(done: 1000, of: 1000, percent: 100, seconds: 7, columns: 4) == "")
        #expect(ProgressBar.line(done: 500, of: 1000, percent: 50, seconds: 7, columns: 1) == "")
        for columns in 1...100 {
            let line = ProgressBar.line(done: 999_999, of: 1_000_000, percent: 99, seconds: 86_400, columns: columns)
            #expect(line.count <= max(columns - 1, 1), "\(columns) columns: \(line)")
        }
    }

    @Test func theTerminalWidthComesFromTheBarsEnvironment() {
        let recorder = Recorder()
        let bar = ProgressBar(isTerminal: true, columns: 30, clock: { recorder.now }, write: { recorder.write($0) })
        bar.draw(1, of: 4)
        #expect(recorder.lines == ["\r25% 1/4 users, 0 s\u{1B}[K"])
        #expect(CommandEnvironment.columns(in: ["COLUMNS": "132"]) == 132)
        #expect(CommandEnvironment.columns(in: ["COLUMNS": "0"]) == nil)
        #expect(CommandEnvironment.columns(in: ["COLUMNS": "wide"]) == nil)
        #expect(CommandEnvironment.columns(in: [:]) == nil)
    }
}
