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

    /// A model whose only error is its own (shares that do not add up) gets the policy's warnings in the same run: no
    /// segment was left out, so they are what the fixed model would get. With a segment left out they are not shown.
    @Test func aModelErrorOfItsOwnDoesNotHideThePolicysWarnings() throws {
        let model = "version: 1\nusers: 3\ndays: 1\nsegments:\n  - {name: a, share: 0.9, attributes: {levle: 3}, actions: [{placement: level_end, every: 10m}]}\n"
        let dir = try temporaryDirectory("adrules-shares", [
            "p.yaml": "version: 1\nplacements:\n  level_end: {format: interstitial, min_interval: 1m}\nattributes:\n  level: {type: int, default: 1}\n",
            "m.model.yaml": model, "left.model.yaml": model + "  - {name: b, share: 0.1, premium: maybe}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let shares = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/p.yaml"])
        #expect(shares.exitCode == 1)
        #expect(shares.stderr.contains("(model/shares)"), "\(shares.stderr)")
        #expect(shares.stderr.contains("did you mean \"level\"? (model/unknown-attribute)"), "\(shares.stderr)")
        let left = runCLI(["impact", dir + "/left.model.yaml", "--rules", dir + "/p.yaml"])
        #expect(left.exitCode == 1)
        #expect(!left.stderr.contains("(model/unknown-attribute)"), "\(left.stderr)")
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

    /// Independent mistakes of a model are reported in one run: a duplicate segment name, shares that do not add up
    /// (the duplicate's share counted as written), and the placements of its readable segments; no warning about
    /// placements that a broken segment may use.
    @Test func aModelsMistakesAreReportedInOneRun() throws {
        let result = try Self.impact(
            policy: "version: 1\nplacements:\n  lvl: {format: interstitial, min_interval: 1m}\n  ao: {format: app_open}\n  other: {format: interstitial, min_interval: 1m}\n",
            model: "version: 1\nusers: 3\ndays: 1\nsegments:\n  - name: a\n    share: 0.5\n    actions: [{placement: lvx, every: 1m}, {placement: ao, every: 1m}]\n  - name: a\n    share: 0.4\n")
        #expect(result.exitCode == 1)
        let errors = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        let rules = errors.compactMap { line in line.split(separator: "(").last.map { String($0.dropLast()) } }
        #expect(rules == ["model/shares", "policy/unknown-placement", "model/placement-format", "model/duplicate-segment"], "\(result.stderr)")
        #expect(result.stderr.contains("shares add up to 0.9, not 1"), "\(result.stderr)")
        #expect(!result.stderr.contains(": warning: "), "\(result.stderr)")
    }

    /// A usage model kept in the policy's folder under a rule file's name is read as one of the policy's files: said
    /// once (exit 2), not as a cascade of unknown keys in a rule file. The same model outside the folder plays.
    @Test func aModelInsideThePolicysFolderUnderARuleFilesNameIsSaidOnce() throws {
        let model = try String(contentsOfFile: Self.inPackage("rules/usage.model.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "\nusers: 10000", with: "\nusers: 20")
        let policy = try String(contentsOfFile: Self.inPackage("rules/policy.yaml"), encoding: .utf8)
        var files = ["rules/inside.yaml": model, "outside.yaml": model]
        for name in ["policy", "app_open", "interstitial", "rewarded", "groups", "custom"] {
            files["rules/\(name).yaml"] = name == "policy" ? policy : try String(contentsOfFile: Self.inPackage("rules/\(name).yaml"), encoding: .utf8)
        }
        let dir = try temporaryDirectory("adrules-impact-inside", files)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let inside = runCLI(["impact", dir + "/rules/inside.yaml", "--rules", dir + "/rules"])
        #expect(inside.exitCode == 2, "\(inside.stderr)")
        #expect(inside.stderr == "error: \(dir)/rules/inside.yaml is read as a rule file of the policy \(dir)/rules: name a usage model *.model.yaml (loading a policy skips those files), or keep it outside the policy's folder\n")
        // Named through `..`, a link, or a link and `..`, it is still the same file; so is a hard link.
        try FileManager.default.createDirectory(atPath: dir + "/x/y", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir + "/x/y/z", withDestinationPath: "../../rules")
        try FileManager.default.linkItem(atPath: dir + "/rules/inside.yaml", toPath: dir + "/hard.yaml")
        for spelling in ["/rules/../rules/inside.yaml", "/x/y/z/inside.yaml", "/x/y/z/../rules/inside.yaml", "/hard.yaml"] {
            let other = runCLI(["impact", dir + spelling, "--rules", dir + "/rules"])
            #expect(other.exitCode == 2 && other.stderr.contains("is read as a rule file of the policy"), "\(spelling): \(other.stderr)")
        }
        // The model given as the policy too is said to be both.
        let both = runCLI(["impact", dir + "/rules/inside.yaml", "--rules", dir + "/rules/inside.yaml"])
        #expect(both.stderr == "error: \(dir)/rules/inside.yaml is given both as the model and as the policy: give the policy's rule files (a folder, or a rule file) as --rules\n", "\(both.stderr)")
        let compared = runCLI(["impact", dir + "/rules/inside.yaml", "--rules", dir + "/rules/policy.yaml", "--compare", dir + "/rules/inside.yaml"])
        #expect(compared.stderr.hasSuffix("is given both as the model and as the policy: give the policy's rule files (a folder, or a rule file) as --compare\n"), "\(compared.stderr)")
        try FileManager.default.removeItem(atPath: dir + "/hard.yaml")
        try FileManager.default.removeItem(atPath: dir + "/rules/inside.yaml")
        let outside = runCLI(["impact", dir + "/outside.yaml", "--rules", dir + "/rules/", "--format", "json"])
        #expect(outside.exitCode == 0, "\(outside.stderr)")
    }

    /// A scenario file or a compiled policy named as the model is said to be one, once (exit 2), not reported as a
    /// cascade of unknown keys in a usage model.
    @Test func aFileOfAnotherKindAsTheModelIsAUsageError() {
        for file in ["app_open.yaml", "groups.yaml", "custom.yaml"] {
            let rule = runCLI(["impact", Self.inPackage("rules/" + file), "--rules", Self.inPackage("rules")])
            #expect(rule.exitCode == 2, "\(file)")
            #expect(rule.stderr.hasSuffix("\(file) is a rule file, not a usage model: give the policy as --rules; impact takes a usage model, such as rules/usage.model.yaml\n"), "\(rule.stderr)")
        }
        let scenario = runCLI(["impact", Self.inPackage("rules/app_open.test.yaml"), "--rules", Self.inPackage("rules")])
        #expect(scenario.exitCode == 2)
        #expect(scenario.stderr.hasSuffix("app_open.test.yaml is a scenario file, not a usage model (adrules test runs scenarios); impact takes a usage model, such as rules/usage.model.yaml\n"), "\(scenario.stderr)")
        let path = NSTemporaryDirectory() + "adrules-model-\(UUID().uuidString).json"
        #expect(runCLI(["compile", Self.inPackage("rules"), "-o", path]).exitCode == 0)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let compiled = runCLI(["impact", path, "--rules", Self.inPackage("rules")])
        #expect(compiled.exitCode == 2)
        // Saved again with spaces, it is still named a compiled policy.
        let pretty = NSTemporaryDirectory() + "adrules-pretty-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: pretty) }
        try? (try? String(contentsOfFile: path, encoding: .utf8))?.replacingOccurrences(of: "\"format\":\"adrules", with: "\"format\": \"adrules").write(toFile: pretty, atomically: true, encoding: .utf8)
        #expect(runCLI(["impact", pretty, "--rules", Self.inPackage("rules")]).stderr.contains("is a compiled policy, not a usage model"))
        // A part of a --shard run given without `merge`, and a .json file that is neither, read as a model (JSON is YAML).
        let part = NSTemporaryDirectory() + "adrules-part-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: part) }
        #expect(runCLI(["impact", Self.inPackage("rules/usage.model.yaml"), "--rules", Self.inPackage("rules"), "--users", "4", "--days", "1", "--shard", "1/2", "--output", part]).exitCode == 0)
        #expect(runCLI(["impact", part, "--rules", Self.inPackage("rules")]).stderr.contains("is an impact report, not a usage model: combine the parts of a --shard run with adrules impact merge"))
        let other = NSTemporaryDirectory() + "adrules-other-\(UUID().uuidString).json"
        _ = FileManager.default.createFile(atPath: other, contents: Data("{}".utf8))
        defer { try? FileManager.default.removeItem(atPath: other) }
        #expect(runCLI(["impact", other, "--rules", Self.inPackage("rules")]).stderr.contains("the usage model has no"))
        #expect(compiled.stderr == "error: \(path) is a compiled policy, not a usage model: give a policy as --rules; impact takes a usage model, such as rules/usage.model.yaml\n", "\(compiled.stderr)")
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
        let dir = NSTemporaryDirectory() + "adrules-impact-added-" + UUID().uuidString
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
                if format != "json" { #expect(result.stdout.contains("only in \(dir)"), "\(format)") }
            }
        }
        let text = runCLI(["impact", Self.flat, "--rules", dir, "--compare", Self.new]).stdout
        #expect(text.contains("banner_home (banner) only in \(dir)"))
    }

    /// A directory with an old and a new policy (`old/p.yaml`, `new/p.yaml`) and a model of two users for one day
    /// whose one segment has `segment` (its actions or offers): what a `--compare` test runs.
    func comparison(old: String, new: String, segment: String) throws -> String {
        let dir = NSTemporaryDirectory() + "adrules-impact-compare-" + UUID().uuidString
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
        let dir = NSTemporaryDirectory() + "adrules-impact-diff-" + UUID().uuidString
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
        #expect(session.contains("\(dir)/old/p.yaml:3:18 → —"), "\(session)")
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

    @Test func shardsMergeIntoExactlyTheUnshardedOutput() throws {
        let arguments = ["impact", "rules/usage.model.yaml", "--rules", "rules", "--users", "120", "--days", "2"].map(Self.inPackage)
        let whole = runCLI(arguments + ["--format", "json"])
        #expect(whole.exitCode == 0, "\(whole.stderr)")
        let directory = NSTemporaryDirectory() + "adrules-shards-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var parts: [String] = []
        for k in 1...3 {
            let path = "\(directory)/part-\(k).json"
            let part = runCLI(arguments + ["--shard", "\(k)/3", "--output", path, "--threads", "\(k)"])
            #expect(part.exitCode == 0, "\(part.stderr)")
            parts.append(path)
        }
        let merged = runCLI(["impact", "merge"] + parts.reversed())
        #expect(merged.exitCode == 0, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout)
        let text = runCLI(arguments)
        #expect(runCLI(["impact", "merge", "--format", "text"] + parts).stdout == text.stdout)
        let missing = runCLI(["impact", "merge", parts[0], parts[2]])
        #expect(missing.exitCode == 1)
        #expect(missing.stderr == "error: cannot merge: shard 2 is missing\n")
        let unsharded = "\(directory)/whole.json"
        try whole.stdout.write(toFile: unsharded, atomically: true, encoding: .utf8)
        #expect(runCLI(["impact", "merge", unsharded]).stderr.contains("is a complete result"))
    }

    /// A model or policy path may hold any character a file name may: the parts a run writes for it merge into what one
    /// run gives (they were refused as "not an impact report"), and text output escapes them.
    @Test func partsOfPathsWithControlCharactersMerge() throws {
        let directory = NSTemporaryDirectory() + "adrules-odd-\(UUID().uuidString)"
        let policy = directory + "/P\u{202E}Q"
        try FileManager.default.createDirectory(atPath: policy, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for file in ["app_open.yaml", "interstitial.yaml", "rewarded.yaml", "custom.yaml", "groups.yaml", "policy.yaml"] {
            try FileManager.default.copyItem(atPath: Self.inPackage("rules/\(file)"), toPath: policy + "/" + file)
        }
        let model = directory + "/m\tx.model.yaml"
        try FileManager.default.copyItem(atPath: Self.inPackage("rules/usage.model.yaml"), toPath: model)
        let arguments = ["impact", model, "--rules", policy, "--users", "12", "--days", "2"]
        let whole = runCLI(arguments + ["--format", "json"])
        #expect(whole.exitCode == 0, "\(whole.stderr)")
        var parts: [String] = []
        for k in 1...2 {
            parts.append("\(directory)/part-\(k).json")
            #expect(runCLI(arguments + ["--shard", "\(k)/2", "--output", parts[k - 1]]).exitCode == 0)
        }
        let merged = runCLI(["impact", "merge"] + parts)
        #expect(merged.exitCode == 0, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout)
        let text = runCLI(["impact", "merge", "--format", "text"] + parts)
        #expect(text.stdout == runCLI(arguments).stdout)
        #expect(!text.stdout.contains("\u{202E}") && !text.stdout.contains("\t"), "escaped in text")
    }

    /// The shards of a --compare run merge into its output too, difference included (recomputed from the merged results).
    @Test func compareShardsMergeIntoExactlyTheUnshardedOutput() throws {
        let arguments = ["impact", Self.flat, "--rules", Self.new, "--compare", Self.old, "--users", "9", "--days", "3"]
        let whole = runCLI(arguments + ["--format", "json"])
        #expect(whole.exitCode == 0, "\(whole.stderr)")
        #expect(whole.stdout.contains("\"difference\""))
        let directory = try temporaryDirectory("adrules-compare-shards", [:])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let parts = (1...2).map { "\(directory)/part-\($0).json" }
        for (k, path) in parts.enumerated() {
            let part = runCLI(arguments + ["--shard", "\(k + 1)/2", "--output", path])
            #expect(part.exitCode == 0, "\(part.stderr)")
            // A part leaves the difference to the merge: it holds no rows its size guards do not count.
            #expect(!(try String(contentsOfFile: path, encoding: .utf8)).contains("\"difference\""))
        }
        let merged = runCLI(["impact", "merge"] + parts)
        #expect(merged.exitCode == 0, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout)
    }

    /// Shards played after a rule file changed are refused, naming the parts' files, though the paths are the same.
    @Test func partsPlayedWithDifferentFileContentsAreRefused() throws {
        let directory = NSTemporaryDirectory() + "adrules-drift-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/rules", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let rules = directory + "/rules/p.yaml"
        try "version: 1\nplacements:\n  level_end: {format: interstitial, min_interval: 1m, daily_cap: 6}\n".write(toFile: rules, atomically: true, encoding: .utf8)
        try "version: 1\nusers: 10\ndays: 1\nsegments:\n  - {name: all, share: 1, actions: [{placement: level_end, every: 1m}]}\n"
            .write(toFile: directory + "/m.model.yaml", atomically: true, encoding: .utf8)
        let arguments = ["impact", directory + "/m.model.yaml", "--rules", directory + "/rules", "--quiet"]
        #expect(runCLI(arguments + ["--shard", "1/2", "--output", directory + "/a.json"]).exitCode == 0)
        try "version: 1\nplacements:\n  level_end: {format: interstitial, min_interval: 1m, daily_cap: 2}\n".write(toFile: rules, atomically: true, encoding: .utf8)
        #expect(runCLI(arguments + ["--shard", "2/2", "--output", directory + "/b.json"]).exitCode == 0)
        let merged = runCLI(["impact", "merge", directory + "/a.json", directory + "/b.json"])
        #expect(merged.exitCode == 1)
        #expect(merged.stderr == "error: cannot merge: \(directory)/b.json was played with a different model file or policy contents (inputs digest) than \(directory)/a.json\n")
    }

    /// A part may come from anywhere: counts that do not fit its population, counts that would overflow the sum,
    /// texts with control characters and a shard count of millions are refused at once, naming the file.
    @Test(arguments: [
        ("\"histogram\": [", "\"histogram\": [9223372036854775807, ", "a histogram entry of app_open in segment casual is 9223372036854775807"),
        ("\"wasted_loads\": ", "\"wasted_loads\": -5", "wasted_loads of app_open in segment casual is -5"),
        ("\"results\": [", "\"difference\": {}, \"results\": [", "a difference block that is not an object of a --compare run's two results"),
        ("\"model\": \"", "\"model\": \"x\\u0000fake.yaml", "model holds a NUL, which no path holds"),
        ("\"message\": \"daily_cap 6", "\"message\": \"x\\nfake.yaml:1:1: error: forged\\u001b[31m", "holds a control character"),
        ("\"format\": \"interstitial\"", "\"format\": \"banana\"", "the format of level_end in segment casual is \"banana\", which no run writes"),
        ("\"count\": 2\n", "\"count\": 100000000\n", "played 6 users, where shard 1 of the run holds 1: it is not that shard's result"),
        ("\"granted\": ", "\"granted\": 9999", "the loads or rewarded counts of app_open in segment casual contradict each other"),
        ("\"new\": {", "\"casual\": {", "the key \"casual\" appears twice in one object"),
        ("\"show_failures\": ", "\"show_failures\": 99999", "the loads or rewarded counts of app_open in segment casual contradict each other"),
        // A key given twice is refused: which value counts would be a guess.
        ("\"code\": \"daily_cap\",", "\"code\": \"daily_cap\", \"file\": null,", "the key \"file\" appears twice in one object"),
        ("\"level_end\": {", "\"app_open\": {", "the key \"app_open\" appears twice in one object"),
        ("\"app_open\": {", "\"app<img src=x>\": {", "is not a placement id"),
        ("\"start\": \"", "\"start\": \"<script>", "start is <script>"),
        ("\"version\": 1,", "\"version\": 1, \"junk\": [1, 2, 3],", "unknown key \"junk\""),
        ("\"wasted_loads\": ", "\"zz\": [0], \"wasted_loads\": ", "unknown key \"zz\" in the figures of app_open in segment casual"),
        // Nowhere else either: a result, a deny reason, the loads.
        ("\"policy\": ", "\"junk\": 1, \"policy\": ", "unknown key \"junk\" in a result"),
        ("\"code\": \"daily_cap\",", "\"code\": \"daily_cap\", \"zz\": 1,", "unknown key \"zz\" in a deny reason of app_open in segment casual"),
        ("\"started\": ", "\"zz\": 1, \"started\": ", "unknown key \"zz\" in the loads of app_open in segment casual"),
        // A report is 9 deep: deeper is refused as it is read (56 deep, 8 million values took 1.3 GB first).
        ("\"version\": 1,", "\"version\": 1, \"junk\": " + String(repeating: "[", count: 20) + String(repeating: "]", count: 20) + ",",
         "JSON nests deeper than 16 levels"),
        // Every key a run writes is there: a deny reason with no message made the merged message empty.
        (",\n                  \"message\": \"daily_cap 6 reached today\"", "", "the message of a deny reason of app_open in segment casual is missing"),
        // A syntax error is placed at its line and column.
        ("\"version\": 1,\n", "\"version\": 1,\n,", ":3:1: invalid JSON: "),
        ("\"version\": 1,\n", "\"version\": 1,\n,", "; a part is the json that adrules impact --shard K/N writes, unchanged\n"),
    ])
    func tamperedPartsAreRefused(_ original: String, _ replacement: String, _ message: String) throws {
        let arguments = ["impact", "rules/usage.model.yaml", "--rules", "rules", "--users", "12", "--days", "2"].map(Self.inPackage)
        let directory = NSTemporaryDirectory() + "adrules-tampered-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var parts: [String] = []
        for k in 1...2 {
            let path = "\(directory)/part-\(k).json"
            #expect(runCLI(arguments + ["--shard", "\(k)/2", "--output", path]).exitCode == 0)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains(original), "\(original)")
            try text.replacingOccurrences(of: original, with: replacement).write(toFile: path, atomically: true, encoding: .utf8)
            parts.append(path)
        }
        let merged = runCLI(["impact", "merge", "--format", "text"] + parts)
        #expect(merged.exitCode == 1)
        #expect(merged.stderr.contains(message), "\(merged.stderr)")
        #expect(merged.stdout.isEmpty)
        #expect(!merged.stderr.contains("\u{1B}") && merged.stderr.split(separator: "\n").count == 1, "one line, no escape code")
    }

    /// A change of a `--compare` part holds every key a run writes, each of the kind it writes: a change with no `old`,
    /// or with `"old": 7`, was read as one with no old value, and the merge wrote that.
    @Test func aChangeMissingAKeyIsRefused() throws {
        let (directory, parts) = try Self.shardParts("adrules-change-keys", ["impact", Self.flat, "--rules", Self.new, "--compare", Self.old, "--users", "4"], count: 2)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(runCLI(["impact", "merge"] + parts).exitCode == 0)
        for (replacement, message) in [("", "a change's old is missing"), ("\"old\": 7,", "a change's old value is 7, where a run writes a text")] {
            var tampered: [String] = []
            for (k, path) in parts.enumerated() {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                let changed = text.replacingOccurrences(of: "\"old\": \"3\",", with: replacement)
                #expect(changed != text)
                let copy = "\(directory)/tampered-\(k).json"
                try changed.write(toFile: copy, atomically: true, encoding: .utf8)
                tampered.append(copy)
            }
            let merged = runCLI(["impact", "merge"] + tampered)
            #expect(merged.exitCode == 1)
            #expect(merged.stderr.contains(message), "\(merged.stderr)")
        }
    }

    /// The two parts of a `--shard 1/2` and `2/2` run of the shipped model (12 users, 2 days), in a fresh directory
    /// named from `prefix`, which the caller removes.
    static func twoParts(_ prefix: String) throws -> (directory: String, path: String, other: String) {
        let arguments = ["impact", "rules/usage.model.yaml", "--rules", "rules", "--users", "12", "--days", "2"].map(inPackage)
        let (directory, parts) = try shardParts(prefix, arguments, count: 2)
        return (directory, parts[0], parts[1])
    }

    /// The parts of `arguments` run as `--shard 1/N` to `N/N` (`part-K.json`), in a fresh directory named from
    /// `prefix`, which the caller removes.
    static func shardParts(_ prefix: String, _ arguments: [String], count: Int) throws -> (directory: String, parts: [String]) {
        let directory = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let parts = (1...count).map { k in "\(directory)/part-\(k).json" }
        for (k, path) in parts.enumerated() {
            #expect(runCLI(arguments + ["--shard", "\(k + 1)/\(count)", "--output", path]).exitCode == 0)
        }
        return (directory, parts)
    }

    /// A value of the wrong kind says what it is and what a run writes, a count in a segment names the segment, and a
    /// shard's index names its range ("is missing or malformed" said none of it).
    @Test(arguments: [
        (#""segments": \{\s*"casual": \{\s*"users": \d+"#, #""segments": {"casual": {"users": 1.5"#, "the users of segment casual is 1.5, where a run writes a whole number (digits only)"),
        (#""users": \d+"#, #""users": "12""#, "users is the text \"12\", where a run writes a whole number (digits only)"),
        (#""index": \d+"#, #""index": 7"#, "the shard's index is 7, outside 1...2"),
        (#""policy": "[^"]*""#, #""policy": 5"#, "policy is 5, where a run writes a text"),
        (#""count": \d+\n"#, "\"count\": 1e2\n", "the number of shards is 100.0, where a run writes a whole number (digits only)"),
        // An object written as another kind says so ("the number of shards is missing" said the shard had no count).
        (#""shard": \{[^}]*\}"#, #""shard": 3"#, "shard is 3, where a run writes an object"),
        (#""users": \d+"#, #""users": 1000000000000000000000000000000"#, "users is a whole number too large to hold, where a run writes a whole number (digits only)"),
        // What merge computes again is checked all the same: a part holds what a run writes.
        (#"("segments": \{[\s\S]*?"impressions": )\d+"#, "$1999999", "the impressions of app_open in segment casual are not those its histogram counts"),
        (#""placements": \{\s*"app_open": \{"#, #""placements": {"app_open": {"bogus": 1, "#, "unknown key \"bogus\" in the totals of app_open"),
    ])
    func valuesOfTheWrongKindSayWhatTheyAre(_ pattern: String, _ template: String, _ message: String) throws {
        let (directory, path, other) = try Self.twoParts("adrules-kinds")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let expression = try NSRegularExpression(pattern: pattern)
        let match = try #require(expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)))
        let tampered = (text as NSString).replacingCharacters(
            in: match.range, with: expression.replacementString(for: match, in: text, offset: 0, template: template))
        try tampered.write(toFile: path, atomically: true, encoding: .utf8)
        let merged = runCLI(["impact", "merge", path, other])
        #expect(merged.exitCode == 1)
        #expect(merged.stderr.contains(message), "\(merged.stderr)")
    }

    /// A part's problem is placed at its line and column, as a syntax error is: at the value that is wrong, at a key no
    /// run writes, or at the object that lacks a key (1️⃣ marks the place). It was named by its path in words alone.
    @Test(arguments: [
        (#""started": "#, #"1️⃣"zz": 1, "started": "#, "unknown key \"zz\" in the loads of app_open in segment casual"),
        (#""code": ""#, #""code": 1️⃣"nope_"#, "unknown reason code in app_open in segment casual"),
        (#""line": \d+"#, #""line": 1️⃣0"#, "the location of the ad_expired reason of app_open in segment casual has no valid line"),
        (#""app_open": \{"#, #"1️⃣"app open": {"#, "app open is not a placement id"),
        (#""histogram": \[\s*\d+"#, #""histogram": [1️⃣99999"#, "a histogram entry of app_open in segment casual is 99999, outside"),
        (#""wasted_loads": \d+,"#, "", "wasted_loads of app_open in segment casual is missing"),
        // A number where an object was written: the number is the place.
        (#""rewarded": \{[^}]*\}"#, #""rewarded": 1️⃣5"#, "the rewarded figures of app_open in segment casual is 5, where a run writes an object"),
        (#""histogram": \[[^\]]*\]"#, #""histogram": 1️⃣{}"#, "the figures of app_open in segment casual are incomplete"),
    ])
    func partProblemsArePlaced(_ pattern: String, _ template: String, _ message: String) throws {
        let (directory, path, other) = try Self.twoParts("adrules-placed")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        // In the first segment's figures, which merge reads (it sums the segments, not the totals).
        let segments = try #require(text.range(of: "\"segments\": {"))
        let expression = try NSRegularExpression(pattern: pattern)
        let match = try #require(expression.firstMatch(in: text, range: NSRange(segments.upperBound..., in: text)))
        var marked = (text as NSString).replacingCharacters(in: match.range, with: template)
        if !template.contains("1️⃣") {
            // A key taken out: the problem is the object that lacks it, the placement's figures that hold the match.
            let figures = try #require(marked.range(of: "\"app_open\": {", range: marked.index(marked.startIndex, offsetBy: segments.upperBound.utf16Offset(in: text))..<marked.endIndex))
            marked.insert(contentsOf: "1️⃣", at: marked.index(before: figures.upperBound))
        }
        let part = MarkedText(marked)
        let at = try #require(part.markers["1️⃣"])
        try part.text.write(toFile: path, atomically: true, encoding: .utf8)
        let merged = runCLI(["impact", "merge", path, other])
        #expect(merged.exitCode == 1)
        #expect(merged.stderr.hasPrefix("error: \(path):\(at.line):\(at.column): not an impact report: "), "\(merged.stderr)")
        #expect(merged.stderr.contains(message), "\(merged.stderr)")
        #expect(merged.stderr.hasSuffix("; a part is the json that adrules impact --shard K/N writes, unchanged\n"))
    }

    /// What no run writes, even where every count adds up: a histogram that ends with zeros (the merged output would
    /// differ from the unsharded run's), and a segment whose placement lacks a cap the other segments have.
    @Test(arguments: [
        (#"(\s*)\](,\s*"cap_reached_share")"#, ",0$1]$2", "ends with zeros, which no run writes"),
        (#""cap_reached_user_days": \{\s*"daily_cap": \d+,"#, #""cap_reached_user_days": {"#, "list different placements, formats or caps, where a run lists the same in every segment"),
    ])
    func partsNoRunWritesAreRefused(_ pattern: String, _ template: String, _ message: String) throws {
        let (directory, path, other) = try Self.twoParts("adrules-no-run")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(runCLI(["impact", "merge", path, other]).exitCode == 0, "the parts merge before they are edited")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let expression = try NSRegularExpression(pattern: pattern)
        // In a segment's figures: the per-placement totals of a part are not read (a merge sums the segments).
        let segments = try #require(text.range(of: "\"segments\": {"))
        let range = try #require(expression.firstMatch(in: text, range: NSRange(segments.upperBound..., in: text))?.range)
        // Only the first match: one histogram, or one segment's placement.
        let tampered = (text as NSString).replacingCharacters(in: range, with: expression.replacementString(for: try #require(expression.firstMatch(in: text, range: range)), in: text, offset: 0, template: template))
        #expect(tampered != text)
        try tampered.write(toFile: path, atomically: true, encoding: .utf8)
        let merged = runCLI(["impact", "merge", path, other])
        #expect(merged.exitCode == 1)
        #expect(merged.stderr.contains(message), "\(merged.stderr)")
    }

    /// A part whose first segment lists no placements is refused like any other mismatch: it was taken for the first
    /// of the list, and the merge dropped that segment's figures with exit 0.
    @Test func aFirstSegmentWithNoPlacementsIsRefused() throws {
        let arguments = ["impact", "rules/usage.model.yaml", "--rules", "rules", "--users", "12", "--days", "2"].map(Self.inPackage)
        let directory = NSTemporaryDirectory() + "adrules-empty-segment-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/part-1.json", other = directory + "/part-2.json"
        #expect(runCLI(arguments + ["--shard", "1/2", "--output", path]).exitCode == 0)
        #expect(runCLI(arguments + ["--shard", "2/2", "--output", other]).exitCode == 0)
        // The first segment's placements object, found by counting braces, emptied.
        var bytes = Array(try String(contentsOfFile: path, encoding: .utf8).utf8)
        let text = String(decoding: bytes, as: UTF8.self)
        let segments = try #require(text.range(of: "\"segments\": {"))
        let open = try #require(text.range(of: "\"placements\": {", range: segments.upperBound..<text.endIndex))
        var index = text.utf8.distance(from: text.startIndex, to: open.upperBound)
        let first = index
        var depth = 1
        while depth > 0 {
            if bytes[index] == UInt8(ascii: "{") { depth += 1 }
            if bytes[index] == UInt8(ascii: "}") { depth -= 1 }
            index += 1
        }
        bytes.replaceSubrange(first..<(index - 1), with: [])
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let merged = runCLI(["impact", "merge", path, other])
        #expect(merged.exitCode == 1)
        #expect(merged.stderr.contains("list different placements, formats or caps, where a run lists the same in every segment"), "\(merged.stderr)")
    }

    /// Two files of one name in two folders are two rows of deny reasons, in text as in json.
    @Test func reasonsFromTwoFilesOfOneNameAreTwoRows() throws {
        let directory = NSTemporaryDirectory() + "adrules-same-name-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for folder in ["p/x", "p/y"] { try FileManager.default.createDirectory(atPath: "\(directory)/\(folder)", withIntermediateDirectories: true) }
        try "version: 1\nplacements:\n  level_end: {format: interstitial}\n".write(toFile: "\(directory)/p/a.yaml", atomically: true, encoding: .utf8)
        for group in ["x", "y"] {
            try "version: 1\ngroups:\n  g\(group):\n    placements: [level_end]\n    daily_cap: 3\n"
                .write(toFile: "\(directory)/p/\(group)/g.yaml", atomically: true, encoding: .utf8)
        }
        try """
            version: 1
            users: 4
            days: 1
            segments:
              - {name: s, share: 1, first_open: 8h, foreground: 1h, actions: [{placement: level_end, every: 5m}]}
            network: {load_time: 1s, ad_duration: 10s}

            """.write(toFile: "\(directory)/m.model.yaml", atomically: true, encoding: .utf8)
        let text = runCLI(["impact", "\(directory)/m.model.yaml", "--rules", "\(directory)/p"])
        #expect(text.exitCode == 0, "\(text.stderr)")
        let rows = text.stdout.split(separator: "\n").filter { $0.contains("group_daily_cap ") && $0.contains("g.yaml") }
        #expect(rows.count == 2, "\(text.stdout)")
        #expect(rows.contains { $0.contains("p/x/g.yaml:5:16") } && rows.contains { $0.contains("p/y/g.yaml:5:16") })
        // Against its own compiled policy, each file is still one row, the same in both columns.
        #expect(runCLI(["compile", "\(directory)/p", "--output", "\(directory)/p.json"]).exitCode == 0)
        let compared = runCLI(["impact", "\(directory)/m.model.yaml", "--rules", "\(directory)/p", "--compare", "\(directory)/p.json"])
        #expect(compared.exitCode == 0, "\(compared.stderr)")
        let pairs = compared.stdout.split(separator: "\n").filter { $0.contains("group_daily_cap ") && $0.contains("g.yaml") }
        #expect(pairs.count == 2, "\(compared.stdout)")
        #expect(pairs.allSatisfy { $0.split(separator: " ").filter { !$0.isEmpty }.dropFirst().prefix(3) == ["32", "32", "0"] }, "\(pairs)")
    }

    /// A part that is not UTF-8, or starts with a byte-order mark, is refused with a word on the encoding.
    @Test func partsInAnotherEncodingAreRefused() throws {
        let part = runCLI(["impact", Self.flat, "--rules", Self.old, "--users", "4", "--days", "1", "--shard", "1/1", "--format", "json"])
        #expect(part.exitCode == 0, "\(part.stderr)")
        let path = NSTemporaryDirectory() + "adrules-encoding-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = Array(part.stdout.utf8)
        let model = try #require(part.stdout.range(of: "\"model\": \"")).upperBound.utf16Offset(in: part.stdout)
        for (forged, message) in [
            (Array(bytes[..<model]) + [0xFF] + Array(bytes[model...]), "not UTF-8 text, so not a part adrules wrote"),
            ([0xEF, 0xBB, 0xBF] + bytes, "starts with a byte-order mark"),
        ] {
            try Data(forged).write(to: URL(fileURLWithPath: path))
            let merged = runCLI(["impact", "merge", path])
            #expect(merged.exitCode == 1)
            #expect(merged.stderr.contains(message), "\(merged.stderr)")
        }
    }

    /// A run writes one result, or two with --compare: a part with more is not one.
    @Test func aPartWithThreeResultsIsRefused() throws {
        let part = runCLI(["impact", Self.flat, "--rules", Self.old, "--users", "4", "--days", "1", "--shard", "1/1", "--format", "json"])
        #expect(part.exitCode == 0, "\(part.stderr)")
        var report = try ImpactJSON.read(part.stdout)
        report.results += [report.results[0], report.results[0]]
        let path = NSTemporaryDirectory() + "adrules-three-\(UUID().uuidString).json"
        try ImpactJSON.render(report).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let merged = runCLI(["impact", "merge", path])
        #expect(merged.exitCode == 1)
        #expect(merged.stderr.contains("it has 3 results, where a run writes one, or two with --compare"), "\(merged.stderr)")
    }

    /// A part that lists more deny reasons than any report holds is refused when it is read, and parts that do
    /// so together when they are merged: the time a merge takes stays bounded.
    @Test func partsWithTooManyDenyReasonsAreRefused() throws {
        let arguments = ["impact", "rules/usage.model.yaml", "--rules", "rules", "--users", "12", "--days", "2", "--format", "json"].map(Self.inPackage)
        let directory = NSTemporaryDirectory() + "adrules-rows-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func part(_ k: Int, rows: Int, message: String = "m") throws -> String {
            let result = runCLI(arguments + ["--shard", "\(k)/2"])
            #expect(result.exitCode == 0, "\(result.stderr)")
            // Rows of one reason at distinct lines: each a (code, location) pair of its own.
            let forged = (0..<rows).map { i in
                "{\"code\": \"min_interval\", \"file\": \"f.yaml\", \"line\": \(k * 1_000_000 + i + 1), \"column\": 1, \"count\": 1, \"message\": \"\(message)\"},"
            }.joined()
            let path = "\(directory)/part-\(k)-\(rows)-\(message.count).json"
            // Into the first non-empty list of a segment's figures (merge reads the segments; the totals are their sum).
            var text = result.stdout
            let segments = try #require(text.range(of: "\"segments\": {"))
            let list = try #require(text.range(of: "\"deny_reasons\": [\n", range: segments.upperBound..<text.endIndex))
            text.insert(contentsOf: forged, at: list.upperBound)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let tooMany = runCLI(["impact", "merge", try part(1, rows: ImpactReport.maxDenyRows + 1), try part(2, rows: 0)])
        #expect(tooMany.exitCode == 1)
        #expect(tooMany.stderr.contains("lists more than \(ImpactReport.maxDenyRows) deny reasons"), "\(tooMany.stderr)")
        let half = ImpactReport.maxDenyRows / 2 + 1
        let together = runCLI(["impact", "merge", try part(1, rows: half), try part(2, rows: half)])
        #expect(together.exitCode == 1)
        #expect(together.stderr.contains("more than the \(ImpactReport.maxDenyRows) a report holds"), "\(together.stderr)")
        // And so are parts whose rows' messages together pass the text a report holds (two of 1,600 rows of 4 KB).
        let long = String(repeating: "m", count: 4_000)
        let wordy = runCLI(["impact", "merge", try part(1, rows: 1_600, message: long), try part(2, rows: 1_600, message: long)])
        #expect(wordy.exitCode == 1)
        #expect(wordy.stderr.contains("bytes, more than the \(ImpactReport.maxDenyText) a report holds: that is no run's result"), "\(wordy.stderr)")
        // A part alone too (a merge of one shard was not checked).
        let alone = runCLI(["impact", "merge", try part(1, rows: 3_100, message: long)])
        #expect(alone.exitCode == 1)
        #expect(alone.stderr.contains("bytes, more than the \(ImpactReport.maxDenyText) a report holds: that is no run's result"), "\(alone.stderr)")
    }

    /// A long policy name heads the columns of every placement cut to about 120 bytes, in whole characters: counted in
    /// characters, a letter with a hundred combining marks a folder let a 3.8 KB path through whole.
    @Test func longPolicyNamesAreCutByBytes() {
        let combining = (0..<15).map { _ in "a" + String(repeating: "\u{301}", count: 126) }.joined(separator: "/")
        #expect(combining.count < 120 && combining.utf8.count > 3_000)
        for name in [combining, String(repeating: "d", count: 3_000), "rules", String(repeating: "é", count: 61)] {
            let cut = ImpactFormat.columnName(name)
            #expect(cut.utf8.count <= 122, "\(cut.utf8.count)")
            #expect(name.utf8.count > 120 ? cut.contains("…") : cut == name)
            #expect(name.hasPrefix(cut.prefix { $0 != "…" }))
        }
    }

    /// A report lists the first 10,000 policy changes and counts the rest (a default changed under every placement is a
    /// change of each: two 321 KB policies made 139,986 changes, and the run crashed), in every format and through a
    /// merge of shards.
    @Test func aReportListsTheFirstChangesAndCountsTheRest() throws {
        func policy(_ cap: Int) -> String {
            "version: 1\ndefaults: {daily_cap: \(cap), hourly_cap: \(cap), session_cap: \(cap), min_interval: \(cap)m}\nplacements:\n"
                + (0..<2_600).map { "  p\($0): {format: interstitial}\n" }.joined()
        }
        let dir = try temporaryDirectory("adrules-changes", [
            "old.yaml": policy(3), "new.yaml": policy(4),
            "m.model.yaml": "version: 1\nusers: 4\ndays: 1\nsegments:\n  - {name: all, share: 1, foreground: 10m, actions: [{placement: p0, every: 1m}]}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let arguments = ["impact", dir + "/m.model.yaml", "--rules", dir + "/new.yaml", "--compare", dir + "/old.yaml"]
        // 2,600 placements x 4 settings.
        let json = runCLI(arguments + ["--format", "json"])
        #expect(json.exitCode == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["changes"] as? [Any])?.count == 10_000)
        #expect(object["more_changes"] as? Int == 400)
        let text = runCLI(arguments)
        #expect(text.stdout.contains("\n  400 more changes are not listed: the policies differ in more settings than a report lists\n"))
        let html = runCLI(arguments + ["--format", "html"])
        #expect(html.stdout.contains("<p>400 more changes are not listed: the policies differ in more settings than a report lists</p>"))
        var parts: [String] = []
        for k in 1...2 {
            let path = dir + "/part\(k).json"
            #expect(runCLI(arguments + ["--shard", "\(k)/2", "--output", path]).exitCode == 0)
            parts.append(path)
        }
        #expect(runCLI(["impact", "merge"] + parts + ["--format", "json"]).stdout == json.stdout)
    }

    /// Each deny-reason row repeats its reason's message and file, so a report holds at most 12 MB of them: 100 rules
    /// with 4,096-character messages denying in 1,000 segments made 442 MB of json (and crashed with emoji messages),
    /// and `impact merge` refused the parts such a run wrote. The run is refused, before anything is written.
    @Test func aReportWithTooMuchDenyTextIsRefused() throws {
        let message = String(repeating: "M", count: 4_000)
        let rules = (0..<10).map { "  - {id: r\($0), deny: \"*\", when: true, message: \"\(message)\"}\n" }.joined()
        let segments = (0..<320).map { "  - {name: s\($0), share: \(1.0 / 320), foreground: 10m, actions: [{placement: p0, every: 1m}]}\n" }.joined()
        let dir = try temporaryDirectory("adrules-deny-text", [
            "p.yaml": "version: 1\nplacements:\n  p0: {format: interstitial, min_interval: 1s}\nrules:\n" + rules,
            "m.model.yaml": "version: 1\nusers: 640\ndays: 1\nseed: 1\nsegments:\n" + segments,
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 320 segments x 10 rules x 4 KB: 12.8 MB of messages.
        let refused = runCLI(["impact", dir + "/m.model.yaml", "--rules", dir + "/p.yaml", "--format", "json"])
        #expect(refused.exitCode == 1 && refused.stdout.isEmpty)
        #expect(refused.stderr.contains("bytes of messages and file names (each row repeats its reason's), more than the 12000000 a report holds"), "\(refused.stderr)")
        // With 280 segments (11.2 MB) the report is written, and its json within what a merge reads.
        let fewer = (0..<280).map { "  - {name: s\($0), share: \(1.0 / 280), foreground: 10m, actions: [{placement: p0, every: 1m}]}\n" }.joined()
        try ("version: 1\nusers: 560\ndays: 1\nseed: 1\nsegments:\n" + fewer).write(toFile: dir + "/f.model.yaml", atomically: true, encoding: .utf8)
        let written = runCLI(["impact", dir + "/f.model.yaml", "--rules", dir + "/p.yaml", "--format", "json"])
        #expect(written.exitCode == 0, "\(written.stderr)")
        #expect((11_200_000..<(64 << 20)).contains(written.stdout.utf8.count), "\(written.stdout.utf8.count)")
    }

    /// The advice for a duration names a value the same key takes: at least 1s for a visit's length and a stream's
    /// gap, a local time before 24h for the first open (`write 0s` and `at most 366d` were refused next).
    @Test(arguments: [
        ("foreground: 0", "foreground must be a duration from 1s to 366d, such as 90s or 4m, not 0 (schema/duration)"),
        ("foreground: {exponential: -1}", "foreground.exponential must be a duration from 1s to 366d, such as 90s or 4m, not -1"),
        ("foreground: 5", "foreground is a duration, and a bare number has no unit: write 5s or 5m"),
        ("first_open: 367d", "first_open must be a local time before 24h, such as 8h or 18h30m, not 367d (schema/range)"),
        ("first_open: {uniform: [7h, 24h]}", "first_open.uniform must be a local time before 24h, such as 8h or 18h30m, not 24h"),
        ("first_open: 99999999999999d", "first_open is 99999999999999d, longer than the largest duration 366d: write a local time before 24h"),
        ("first_open: 2000", "first_open is a duration, and a bare number has no unit: write 2000s (schema/duration)"),
        ("first_open: 8", "first_open is a duration, and a bare number has no unit: write 8h or 8m (schema/duration)"),
        ("foreground: 5.0", "foreground must be a duration from 1s to 366d, such as 90s or 4m, not 5.0 (schema/duration)"),
        ("foreground: 1e3", "foreground must be a duration from 1s to 366d, such as 90s or 4m, not 1e3 (schema/duration)"),
        ("foreground: 99999999999", "foreground must be a duration from 1s to 366d, such as 90s or 4m, not 99999999999 (schema/duration)"),
        ("first_open: \"8\"", "first_open must be a local time before 24h, such as 8h or 18h30m, not \"8\" (schema/duration)"),
        ("foreground: 007", "foreground is a duration, and a bare number has no unit: write 7s or 7m (schema/duration)"),
    ])
    func durationAdviceNamesWhatTheKeyTakes(_ line: String, _ message: String) throws {
        let result = try Self.impact(
            policy: "version: 1\nplacements:\n  lvl: {format: interstitial, min_interval: 1m}\n",
            model: "version: 1\nusers: 3\ndays: 1\nsegments:\n  - name: a\n    share: 1\n    actions: [{placement: lvl, every: 1m}]\n    \(line)\n")
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// Whole numbers as the core schema writes them, each range said when a value is outside it.
    @Test(arguments: [
        ("seed: 9223372036854775807", "seed must be from 0 to 4611686018427387903, not 9223372036854775807"),
        ("users: 1e3", "users must be a whole number from 1 to 100000000, not \"1e3\""),
        ("start: 0001-01-01", "start must be a day from 1971-01-01 to 2199-12-31, not 0001-01-01"),
        ("days: 0x200", "days must be from 1 to 366, not 0x200"),
    ])
    func modelNumbersSayTheirRange(_ line: String, _ message: String) throws {
        let path = NSTemporaryDirectory() + "adrules-model-\(UUID().uuidString).model.yaml"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let key = line.prefix { $0 != ":" }
        let model = try String(contentsOfFile: Self.inPackage("rules/usage.model.yaml"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(key + ":") ? Substring(line) : $0 }.joined(separator: "\n")
        try model.write(toFile: path, atomically: true, encoding: .utf8)
        let result = runCLI(["impact", path, "--rules", Self.inPackage("rules")])
        #expect(result.exitCode == 1)
        #expect((result.stdout + result.stderr).contains(message), "\(result.stdout)\(result.stderr)")
    }

    /// Names and attribute values from a model end up in every report: one with a line break or an escape code is
    /// an error at its line and column, so no report prints it raw.
    @Test func modelTextsHoldNoControlCharacters() throws {
        let path = NSTemporaryDirectory() + "adrules-model-\(UUID().uuidString).model.yaml"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let model = try String(contentsOfFile: Self.inPackage("rules/usage.model.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "- name: casual", with: #"- name: "cas\e[31mual\nx""#)
            .replacingOccurrences(of: "attributes: {screen: game, level: {uniform: [1, 40]}}", with: #"attributes: {screen: "a\nb", level: {uniform: [1, 40]}}"#)
        try model.write(toFile: path, atomically: true, encoding: .utf8)
        let result = runCLI(["impact", path, "--rules", Self.inPackage("rules")])
        #expect(result.exitCode == 1)
        let output = result.stdout + result.stderr
        #expect(output.contains("name holds the control character U+001B"), "\(output)")
        #expect(output.contains("attribute screen holds the control character U+000A"), "\(output)")
        #expect(!output.contains("has no name"))
    }

    /// A reason with no location (an ask for a placement the old policy lacks: `unknown_placement`) is written
    /// with a null location, and parts holding one merge into the unsharded output.
    @Test func partsWithReasonsOfNoLocationMerge() throws {
        let directory = NSTemporaryDirectory() + "adrules-nolocation-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/older", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "version: 1\ntimezone: device\nplacements:\n  app_open: {format: app_open, daily_cap: 3, max_ad_age: 4h}\n"
            .write(toFile: directory + "/older/policy.yaml", atomically: true, encoding: .utf8)
        let arguments = ["impact", Self.flat, "--rules", Self.new, "--compare", directory + "/older", "--format", "json"]
        let whole = runCLI(arguments)
        #expect(whole.exitCode == 0, "\(whole.stderr)")
        #expect(whole.stdout.contains("\"code\": \"unknown_placement\""))
        var parts: [String] = []
        for k in 1...2 {
            let path = "\(directory)/part-\(k).json"
            #expect(runCLI(arguments + ["--shard", "\(k)/2", "--output", path]).exitCode == 0)
            parts.append(path)
        }
        let merged = runCLI(["impact", "merge"] + parts)
        #expect(merged.exitCode == 0, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout)
    }

    /// A path with a line break or an escape code is shown escaped in the text report: no line of its own.
    @Test func namesInTheTextReportAreEscaped() throws {
        let directory = NSTemporaryDirectory() + "adrules-names-\(UUID().uuidString)"
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

    /// The summary counts the files read, as lint's does: the model and the policy's rule file. The segment's own
    /// errors do not hide that its share, the only one, is not 1.
    @Test func modelProblemsAreReportedLikeLintAndExitOne() {
        let result = runCLI(["impact", "FIXTURES/impact/bad.model.yaml", "--rules", Self.new])
        #expect(result.exitCode == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == """
            FIXTURES/impact/bad.model.yaml:2:1: error: unknown key "sead" in the usage model: did you mean "seed"? (schema/unknown-key)
            FIXTURES/impact/bad.model.yaml:4:3: error: the segments' shares add up to 0.5, not 1: make them add up to 1 (model/shares)
            FIXTURES/impact/bad.model.yaml:6:15: error: unknown time zone "Europe/Pari": did you mean "Europe/Paris"? (policy/timezone)
            FIXTURES/impact/bad.model.yaml:7:15: error: unknown key "poison" in resumes: did you mean "poisson"? (schema/unknown-key)
            Found 4 errors and 0 warnings in 2 files.

            """)
    }

    /// impact prints a broken policy's errors alone: past a file's thousand, the line counting the rest counts its
    /// errors, and the summary agrees with it (it said "100 more findings" and counted 50).
    @Test func aPolicysHiddenFindingsAreCountedAsErrorsAlone() throws {
        let directory = NSTemporaryDirectory() + "adrules-model-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/rules", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var rules = "version: 1\nplacements:\n"
        for i in 0..<1_050 { rules += "  x\(i): {format: x}\n" }
        for i in 0..<50 { rules += "  i\(i): {format: interstitial}\n" }
        try rules.write(toFile: directory + "/rules/p.yaml", atomically: true, encoding: .utf8)
        try "version: 1\nsegments:\n  - name: all\n    share: 1\n".write(toFile: directory + "/m.model.yaml", atomically: true, encoding: .utf8)
        let result = runCLI(["impact", directory + "/m.model.yaml", "--rules", directory + "/rules"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("error: 50 more findings in this file are not shown"), "\(result.stderr.prefix(400))")
        #expect(result.stderr.contains("Found 1050 errors and 0 warnings in 2 files."), "\(result.stderr.suffix(300))")
    }

    @Test func unknownAndUnusedPlacementsAreNamed() throws {
        let directory = NSTemporaryDirectory() + "adrules-model-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let model = directory + "/typo.model.yaml"
        try "version: 1\nsegments:\n  - name: all\n    share: 1\n    actions: [{placement: level_edn, every: 1m}]\n".write(toFile: model, atomically: true, encoding: .utf8)
        let result = runCLI(["impact", model, "--rules", Self.new])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("typo.model.yaml:5:27: error: segment all names placement \"level_edn\", which the policy \(Self.new) does not define: did you mean \"level_end\"? (policy/unknown-placement)"))
        // A policy with no placements says so, rather than "the placements are " and nothing.
        try FileManager.default.createDirectory(atPath: directory + "/empty", withIntermediateDirectories: true)
        try "version: 1\nplacements: {}\n".write(toFile: directory + "/empty/p.yaml", atomically: true, encoding: .utf8)
        let none = runCLI(["impact", model, "--rules", directory + "/empty"])
        #expect(none.exitCode == 1)
        #expect(none.stderr.contains("does not define: the policy has no placements (check --rules) (policy/unknown-placement)"), "\(none.stderr)")
        try "version: 1\nsegments:\n  - name: all\n    share: 1\n".write(toFile: model, atomically: true, encoding: .utf8)
        let unused = runCLI(["impact", model, "--rules", Self.new, "--users", "2", "--days", "1"])
        #expect(unused.exitCode == 0)
        #expect(unused.stderr.contains("typo.model.yaml:2:1: warning: no segment of \(model) uses placement level_end"))
        #expect(unused.stderr.contains("\(Self.new)/policy.yaml:8:3: note: placement level_end is defined here"))
        // `# adrules:disable-next-line RULE` works in a model as in rule files (cli.md), for what the check against
        // the policy finds as well as for what reading the file finds.
        let text = "version: 1\n# adrules:disable-next-line model/unused-placement\nsegments:\n  # adrules:disable-next-line yaml/ambiguous-bool\n  - name: no\n    share: 1\n"
        try text.write(toFile: model, atomically: true, encoding: .utf8)
        let quiet = runCLI(["impact", model, "--rules", Self.new, "--users", "2", "--days", "1"])
        #expect(quiet.exitCode == 0)
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
        // Without the comments, both are reported.
        try text.replacingOccurrences(of: "adrules:disable-next-line", with: "note").write(toFile: model, atomically: true, encoding: .utf8)
        let loud = runCLI(["impact", model, "--rules", Self.new, "--users", "2", "--days", "1"])
        #expect(loud.stderr.contains("model/unused-placement") && loud.stderr.contains("yaml/ambiguous-bool"), "\(loud.stderr)")
    }

    @Test(arguments: [
        (["impact"], "Missing expected argument \"MODEL\"."),
        (["impact", flat, "--shard", "4/3"], "Invalid value \"4/3\" for option \"--shard\""),
        (["impact", flat, "--users", "0"], "Invalid value \"0\" for option \"--users\""),
        (["impact", flat, "--shard", "1/2", "--format", "text"], "Invalid value \"text\" for option \"--format\""),
        (["impact", flat, "--format", "pdf"], "Invalid value \"pdf\" for option \"--format\""),
        (["impact", "merge"], "Missing expected argument \"PART.json\"."),
        (["impact", "merge", "x.json", "--rules", "rules"], "Unexpected argument \"--rules\"."),
    ])
    func usageErrorsExitTwo(arguments: [String], message: String) {
        let result = runCLI(arguments)
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("error: \(message)"), "\(result.stderr)")
    }

    @Test func missingFilesExitThree() {
        #expect(runCLI(["impact", "FIXTURES/impact/none.model.yaml", "--rules", Self.new]).exitCode == 3)
        #expect(runCLI(["impact", Self.flat, "--rules", "FIXTURES/impact/none"]).exitCode == 3)
        #expect(runCLI(["impact", "merge", "FIXTURES/impact/none.json"]).exitCode == 3)
    }

    /// A directory where a file belongs is a mistake in the command (exit 2), for the parts of a merge as for the model.
    @Test func aDirectoryWhereAFileBelongsIsAUsageError() {
        let model = runCLI(["impact", "FIXTURES/impact", "--rules", Self.new])
        #expect(model.exitCode == ExitCode.usage)
        let merge = runCLI(["impact", "merge", "FIXTURES/impact"])
        #expect(merge.exitCode == ExitCode.usage)
        // Whatever comes before it: no part is read first.
        #expect(runCLI(["impact", "merge", "FIXTURES/impact/none.json", "FIXTURES/impact"]).exitCode == ExitCode.usage)
        #expect(merge.stderr.contains("is a directory: impact merge takes the parts' json files"), "\(merge.stderr)")
    }

    @Test func theBinaryWritesJSONAndNoProgressBarWhenStderrIsNotATerminal() throws {
        let result = try runBinary(["impact", "rules/usage.model.yaml", "--users", "30", "--days", "1", "--format", "json"])
        #expect(result.code == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("{\n  \"version\": 1,\n  \"model\": \"rules/usage.model.yaml\","))
    }

    @Test func helpDescribesTheCommand() {
        let help = runCLI(["help", "impact"])
        #expect(help.stdout.contains("adrules impact merge PART.json..."))
        #expect(runCLI(["--help"]).stdout.contains("impact MODEL [--rules POLICY] [--compare OLD_POLICY]"))
    }

    /// A path relative to the package root, for runs outside the package directory.
    static func inPackage(_ argument: String) -> String {
        argument.hasPrefix("rules") ? packageRoot() + "/" + argument : argument
    }
}
