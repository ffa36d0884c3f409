import AdRules
import AdRulesYAML
import Foundation

/// Everything loading a policy produced: the policy, its diagnostics, and the files read.
public struct PolicyLoad: Sendable {
    /// The policy as far as it could be read (never use it for decisions when ``diagnostics`` has errors).
    public var policy: Policy
    /// Every diagnostic, sorted, suppressions applied.
    public var diagnostics: [Diagnostic]
    /// The rule files read, in sorted path order.
    public var files: [String]
    /// The policy-wide settings as written, with where (empty for a compiled policy): what a report of changes names.
    public var written: [String: Located<String>] = [:]
    /// Where the values the policy model keeps no location for are written, keyed `attribute NAME.type`,
    /// `attribute NAME.default` and `rule ID.message` (empty for a compiled policy): what a report of changes names.
    public var valueLocations: [String: SourceLocation] = [:]

    /// The key of ``valueLocations`` for a value of an item: `valueKey("attribute", "level", "default")`.
    public static func valueKey(_ kind: String, _ id: String, _ setting: String) -> String { "\(kind) \(id).\(setting)" }
    /// The first file's `version:` key (nil for a compiled policy): what a report of changes names for a policy-wide
    /// setting left at its default, as it names a placement for a default the placement inherits.
    public var policyStart: SourceLocation?

    /// The policy, when it has no errors.
    public var validPolicy: Policy? { diagnostics.hasErrors ? nil : policy }
}
