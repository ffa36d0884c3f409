/// How large a policy may be: what the loader of compiled policies accepts, and what the rule-file loader checks too,
/// so that a policy lint passes always loads in an app.
package enum PolicyLimits {
    package static let maxFiles = 1000
    package static let maxPlacements = 100_000
    package static let maxGroups = 10_000
    package static let maxRules = 10_000
    package static let maxAttributes = 1000
    /// The most items a list value holds (an attribute's default, a scenario's context): `in` reads a list on
    /// every ask that needs it.
    package static let maxListItems = 1000
}
