import AdRulesImpact

/// The `html` format of `adrules impact`.
enum ImpactHTML {
    static func render(_ report: ImpactReport) -> String { "" }
}
