/// How large a policy may be: what the loader of compiled policies accepts, and what the rule-file loader checks too,
/// so that a policy lint passes always loads in an app.
package enum PolicyLimits {
    package static let maxFiles = 1000
    package static let maxPlacements = 100_000
    package static let maxGroups = 10_000
    package static let maxRules = 10_000
    package static let maxAttributes = 1000
    /// The most placement ids all groups' `placements` and all rules' `deny` lists hold together. Each list may name
    /// every placement (100,000), but 158 groups of 20,000 members, a lint-clean 61 MB compiled policy, took 514 MB to
    /// load (about 140 bytes a listed id); at this bound such lists take at most about 140 MB.
    package static let maxListedPlacements = 1_000_000
    /// The most nodes the rules' conditions hold together (each condition holds at most 2,048). 7,707 rules of 257
    /// nodes, a lint-clean 66 MB compiled policy, took 533 MB to load (about 225 bytes a node, the `when` texts read
    /// again included); at this bound the conditions take at most about 115 MB.
    package static let maxConditionNodes = 500_000
    /// The most items a list value holds (an attribute's default, a scenario's context): `in` reads a list on
    /// every ask that needs it.
    package static let maxListItems = 1000
}
