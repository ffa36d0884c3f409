import AdRulesTestSupport
import AdRules
import Foundation
import Testing

/// docs/rule-files.md shows the keys of placements and groups as `PlacementSetting` defines them.
@Suite("Settings table in the docs")
struct SettingsTableDocTests {
    /// The placement table the docs must hold.
    static var placementTable: String {
        let rows = PlacementSetting.allCases.map { setting in
            let scope = setting.block?.isAppOpenOnly == true ? " app_open only." : ""
            return "| `\(setting.key)` | \(type(of: setting)) | \(defaultText(of: setting)) | \(setting.summary)\(scope) |"
        }
        return (["| key | type | default | meaning |", "|---|---|---|---|"] + rows).joined(separator: "\n")
    }

    /// The group table the docs must hold.
    static var groupTable: String {
        let rows = PlacementSetting.groupSettings.map { setting in
            "| `\(setting.key)` | \(type(of: setting)) | \(setting.kind == .windows ? "`[]`" : "none") | \(setting.groupSummary ?? "") |"
        }
        return (["| key | type | default | meaning |", "|---|---|---|---|", "| `placements` | list of placement ids | required | The member placement ids (at least one). |"]
            + rows).joined(separator: "\n")
    }

    static func type(of setting: PlacementSetting) -> String {
        switch setting.kind {
        case .flag: return "bool"
        case .count(let minimum): return "int ≥ \(minimum)"
        case .duration: return "duration"
        case .format: return AdFormat.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ")
        case .text: return "string"
        case .windows: return "list of `{max, window}`"
        }
    }

    static func defaultText(of setting: PlacementSetting) -> String {
        if setting == .format { return "required" }
        let byFormat = AdFormat.allCases.map { ($0, setting.builtInDefault(for: $0)) }
        func text(_ value: SettingValue?) -> String {
            switch value {
            case nil: return "none"
            case .windows?: return "`[]`"
            case let value?: return "`\(value)`"
            }
        }
        // A default that depends on the format: the formats that differ from the most common value.
        let usual = byFormat.map(\.1).max { a, b in byFormat.count { $0.1 == a } < byFormat.count { $0.1 == b } } ?? nil
        let others = byFormat.filter { $0.1 != usual }
        guard let first = others.first else { return text(usual) }
        return "\(text(first.1)) for \(others.map { "`\($0.0.rawValue)`" }.joined(separator: ", ")), else \(text(usual))"
    }

    @Test func theDocsShowEveryPlacementSetting() throws {
        let docs = try String(contentsOfFile: packageRoot() + "/docs/rule-files.md", encoding: .utf8)
        #expect(docs.contains(Self.placementTable + "\n"), "docs/rule-files.md, section Placement, should hold:\n\(Self.placementTable)")
    }

    @Test func theDocsShowEveryGroupSetting() throws {
        let docs = try String(contentsOfFile: packageRoot() + "/docs/rule-files.md", encoding: .utf8)
        #expect(docs.contains(Self.groupTable + "\n"), "docs/rule-files.md, section Groups, should hold:\n\(Self.groupTable)")
    }

    /// docs/rule-files.md's table of reason codes has a row for every code the engine gives.
    @Test func theDocsExplainEveryReasonCode() throws {
        let docs = try String(contentsOfFile: packageRoot() + "/docs/rule-files.md", encoding: .utf8)
        let start = try #require(docs.range(of: "### What each code means, and what clears it"))
        let table = docs[start.upperBound...].prefix { _ in true }.components(separatedBy: "\n\n").dropFirst(2).first ?? ""
        let rows = table.split(separator: "\n").filter { $0.hasPrefix("| `") }
        for code in ReasonCode.allCases {
            #expect(rows.contains { $0.split(separator: "|").first?.contains("`\(code.rawValue)`") == true }, "\(code.rawValue)")
        }
    }
}
