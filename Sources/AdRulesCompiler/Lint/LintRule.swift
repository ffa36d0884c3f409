import AdRules
import AdRulesYAML

/// A lint rule's documentation: what it finds and why it exists (for SARIF, `help`, and the docs).
public struct LintRule: Sendable, Hashable {
    /// The stable id, such as `cap/zero`.
    public var id: String
    /// The severity it reports with (`yaml/ambiguous-bool` reports both; its error form is listed).
    public var severity: Severity
    /// One sentence: what the rule finds.
    public var summary: String
    /// Why the rule exists and what to write instead.
    public var help: String

    /// Every rule, in the order of the CLI reference.
    public static let all: [LintRule] = [
        LintRule(id: "yaml/syntax", severity: .error, summary: "The file is not valid YAML (or is too large, too deep, or not UTF-8).", help: "Fix the YAML at the position libyaml reports; the message carries libyaml's problem text."),
        LintRule(id: "yaml/duplicate-key", severity: .error, summary: "A key is repeated in one mapping.", help: "YAML tools disagree on which value wins; keep exactly one. The note points at the first occurrence."),
        LintRule(id: "yaml/multiple-documents", severity: .error, summary: "A file holds a second YAML document.", help: "A rule file is one document; move the second document into its own file in the same directory."),
        LintRule(id: "yaml/alias", severity: .error, summary: "Anchors, aliases or merge keys are used.", help: "Rule files must be explicit so product managers can read every value where it applies; use `defaults` for shared values. To deny every placement, write deny: \"*\" (quoted)."),
        LintRule(id: "yaml/tag", severity: .error, summary: "An explicit tag such as !!str is used.", help: "Tags change how values are read; remove them and quote strings instead."),
        LintRule(id: "yaml/ambiguous-bool", severity: .error, summary: "Plain yes/no/on/off/y/n is used.", help: "These are booleans in YAML 1.1 but strings in YAML 1.2. Where a bool is expected write true or false (error); in a string field quote the word (warning)."),
        LintRule(id: "schema/unknown-key", severity: .error, summary: "A key that the rule format does not have.", help: "Usually a typo: the message suggests the closest key."),
        LintRule(id: "schema/missing-key", severity: .error, summary: "A required key is missing.", help: "version, a placement's format, a group's placements, and a rule's id, deny and when are required."),
        LintRule(id: "schema/type", severity: .error, summary: "A value has the wrong type.", help: "Caps are whole numbers, switches are true or false, ids and messages are strings."),
        LintRule(id: "schema/duration", severity: .error, summary: "A duration is malformed or a bare number.", help: "Durations are <integer><unit> parts, largest first: 90s, 4m, 1h30m, 1d. A bare number has no unit: write 30s or 30m."),
        LintRule(id: "schema/enum", severity: .error, summary: "An unknown format, environment or attribute type.", help: "The message lists the allowed values and suggests the closest."),
        LintRule(id: "schema/range", severity: .error, summary: "A value outside its range, or a malformed id.", help: "Caps are >= 0, every_n_actions >= 1, durations at most 366d; ids are 1-64 characters of the allowed set."),
        LintRule(id: "schema/version", severity: .error, summary: "A version other than 1.", help: "This tool reads version 1 rule files: write version: 1."),
        LintRule(id: "policy/duplicate-id", severity: .error, summary: "A placement, group, rule or attribute is defined twice across the policy's files.", help: "Ids are global to a policy; rename or remove one. The note points at the first definition."),
        LintRule(id: "policy/conflicting-setting", severity: .error, summary: "A top-level setting has different values in two files.", help: "A policy has one time zone, one set of timeouts and one defaults block; make the values equal or keep the setting in one file."),
        LintRule(id: "policy/unknown-placement", severity: .error, summary: "A group or rule names a placement that does not exist.", help: "Usually a typo or a removed placement: the message suggests the closest id."),
        LintRule(id: "policy/repeated-placement", severity: .warning, summary: "A group or rule lists the same placement twice.", help: "A placement counts once in a group and is denied once by a rule, so the repeat does nothing: usually another placement was meant. Remove the repeat or name that placement."),
        LintRule(id: "policy/timezone", severity: .error, summary: "An unknown IANA time zone.", help: "Write an IANA name such as Asia/Tokyo, or device for the device's own zone."),
        LintRule(id: "policy/format-key", severity: .error, summary: "launch or resume on a placement that is not app_open.", help: "Launch and resume behaviour applies to app-open ads only; remove the block."),
        LintRule(id: "policy/empty", severity: .warning, summary: "The policy has no placements.", help: "Every ask would be denied unknown_placement; add placements or check the path."),
        LintRule(id: "rule/syntax", severity: .error, summary: "A when expression does not parse.", help: "The column points at the offending character; the message says what was expected."),
        LintRule(id: "rule/unknown-name", severity: .error, summary: "An expression names an attribute or built-in that does not exist.", help: "Declare the attribute under `attributes`, or fix the typo the message suggests."),
        LintRule(id: "rule/type", severity: .error, summary: "Operands of different types, or a condition that is not a bool.", help: "Both sides of a comparison must have the same type (int and number mix); a condition must be a bool."),
        LintRule(id: "rule/built-in-value", severity: .warning, summary: "A built-in compared with a value it never takes, or days ordered.", help: "now.hour reads 0 to 23 and now.weekday reads mon to sun: now.hour == 24 or now.weekday == \"Sun\" never holds, and now.weekday < \"wed\" orders days alphabetically. The condition runs as written; write a value the built-in takes, or list the days (now.weekday in [\"sat\", \"sun\"])."),
        LintRule(id: "cap/zero", severity: .warning, summary: "A cap of 0: the placement can never show.", help: "If the placement is meant to be off, say enabled: false, which is explicit and gives a clearer reason."),
        LintRule(id: "cap/unreachable", severity: .warning, summary: "A cap that can never bind.", help: "An hourly or session cap at or above the daily cap, a window cap larger than a longer window's cap, or a daily cap above what min_interval allows in a day: remove it or lower it."),
        LintRule(id: "pacing/missing", severity: .warning, summary: "An app_open or interstitial placement with no min_interval and no cap.", help: "Unpaced fullscreen ads are the first cause of user complaints and store reviews; set min_interval or a cap."),
        LintRule(id: "rewarded/no-user-choice", severity: .error, summary: "A rewarded placement with require_user_choice: false.", help: "Ad network policy: rewarded ads are shown only after the user explicitly chooses to watch. Accounts are suspended for this."),
        LintRule(id: "app-open/deferred-show", severity: .warning, summary: "resume.allow_deferred: true.", help: "A show when a load completes after a resume interrupts a user who has already started working; show on resume only when an ad is ready."),
        LintRule(id: "expiry/too-long", severity: .warning, summary: "max_ad_age above what the network honours.", help: "Cached ads expire: 4h for app-open (AdMob), 1h for other formats. An expired ad earns nothing."),
        LintRule(id: "ids/test-ad-unit", severity: .error, summary: "A known test ad unit id in a production policy.", help: "Test ids never earn revenue; use your real ad unit id, or set environment: test."),
        LintRule(id: "ids/duplicate-ad-unit", severity: .warning, summary: "One ad_unit used by two placements.", help: "Placements that share an ad unit share its reporting and its caching; give each placement its own unit."),
        LintRule(id: "swift/name-clash", severity: .warning, summary: "Two placement ids that get the same name in the generated Swift (compile --format swift and the build plugin only).", help: "level-end and level_end are both levelEnd in Swift: each gets a number in the order they are declared (levelEnd_1, levelEnd_2) and neither is levelEnd, so a placement added later in an earlier file would shift the numbers the app's code uses. Rename one of the two."),
        LintRule(id: "lint/too-many-findings", severity: .error, summary: "A file with more than 1000 findings, or a report with more than 10,000: the rest are counted, not listed.", help: "The first findings are the ones to fix; a file generated wrongly (or a hostile one) would otherwise flood the CI log and take minutes to report."),
        LintRule(id: "lint/unknown-rule", severity: .warning, summary: "An adrules:disable-next-line comment names a rule that does not exist.", help: "Such a comment hides nothing: usually a typo or a renamed rule, and the message suggests the closest rule id."),
        LintRule(id: "compiled/invalid", severity: .error, summary: "A compiled policy (*.json) that this runtime would refuse.", help: "Apps load compiled policies with Policy(compiled:), which checks every value; lint reports the same error, with the path of the bad value, so a bad download or a hand-edited file is caught in CI."),
    ]

    /// The rule with this id.
    public static func named(_ id: String) -> LintRule? { all.first { $0.id == id } }
}
