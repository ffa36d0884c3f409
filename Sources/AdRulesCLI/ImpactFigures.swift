import AdRules
import AdRulesImpact

/// The figures of one placement under one policy, as the text and html reports show them.
struct PlacementFigures {
    let placement: ImpactPlacement
    let counters: PlacementCounters
    let userDays: Int
    let summary: ImpressionSummary

    init(_ placement: ImpactPlacement, _ counters: PlacementCounters, userDays: Int) {
        self.placement = placement
        self.counters = counters
        self.userDays = userDays
        summary = ImpressionSummary(histogram: counters.histogram)
    }

    /// The share of user-days on which a cap denied at least once.
    func capShare(_ cap: CapKind) -> Double { ImpactReport.share(counters.capDays[cap.rawValue], of: userDays) }

    /// Denials summed per reason code, most frequent first, each with its most frequent location.
    var denialsByCode: [(code: ReasonCode, count: Int, location: ImpactLocation?)] {
        var result: [(code: ReasonCode, count: Int, location: ImpactLocation?)] = []
        for denial in counters.sortedDenials {
            if let i = result.firstIndex(where: { $0.code == denial.code }) {
                result[i].count += denial.count
            } else {
                result.append((denial.code, denial.count, denial.location))
            }
        }
        return result.sorted { $0.count != $1.count ? $0.count > $1.count : (ReasonCode.allCases.firstIndex(of: $0.code) ?? 0) < (ReasonCode.allCases.firstIndex(of: $1.code) ?? 0) }
    }

    var isRewarded: Bool { placement.format == AdFormat.rewarded.rawValue || placement.format == AdFormat.rewardedInterstitial.rawValue }

    /// The figures of every placement of a policy result, in total or for one segment.
    static func all(_ result: ImpactPolicyResult, segment: Int? = nil) -> [PlacementFigures] {
        let counters = segment.map { result.segments[$0] } ?? result.total
        return zip(result.placements, counters.placements).map { PlacementFigures($0, $1, userDays: counters.userDays) }
    }
}

/// Number formats shared by the text and html reports (fixed, locale-free, so reports are byte-stable).
enum ImpactFormat {
    /// `1234567` as `1,234,567`.
    static func count(_ n: Int) -> String {
        let digits = String(abs(n))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// A value with a fixed number of decimals.
    static func fixed(_ value: Double, _ places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let whole = scaled / Int(scale)
        let fraction = scaled % Int(scale)
        var text = count(whole)
        if places > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: places - digits.count) + digits
        }
        return (value < 0 && scaled != 0 ? "-" : "") + text
    }

    /// A share as a percentage with one decimal.
    static func percent(_ share: Double) -> String { fixed(share * 100, 1) + "%" }

    /// A signed difference: `+3`, `-0.40`, `0`.
    static func signed(_ value: Double, _ places: Int) -> String {
        let text = fixed(value, places)
        return value > 0 && text.contains(where: { $0 != "0" && $0 != "." && $0 != "," }) ? "+" + text : text
    }

    /// A signed difference of percentages, in percentage points.
    static func points(_ old: Double, _ new: Double) -> String { signed((new - old) * 100, 1) + " pt" }

    /// `10,000 users × 7 days from 2026-12-07, seed 1`.
    static func population(_ report: ImpactReport) -> String {
        "\(count(report.users)) users × \(report.days) day\(report.days == 1 ? "" : "s") from \(report.start), seed \(report.seed)"
    }

    /// A change of the semantic diff as one line of text.
    static func change(_ change: PolicyChange) -> (what: String, values: String, locations: String) {
        let what = change.setting.isEmpty ? change.subject : "\(change.subject): \(change.setting)"
        let values: String
        switch change.kind {
        case .changed: values = "\(change.old ?? "") → \(change.new ?? "")"
        case .added: values = "added" + (change.new.map { $0.isEmpty ? "" : " (\($0))" } ?? "")
        case .removed: values = "removed" + (change.old.map { $0.isEmpty ? "" : " (was \($0))" } ?? "")
        }
        let locations = [change.oldLocation?.description, change.newLocation?.description].map { $0 ?? "—" }.joined(separator: " → ")
        return (what, values, locations)
    }
}
