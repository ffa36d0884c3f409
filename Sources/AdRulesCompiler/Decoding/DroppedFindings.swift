import AdRules
import AdRulesYAML

/// The findings of one file past the limit (``YAMLEventCursor/maxFindings``): counted, not kept, so that a hostile file
/// cannot flood a CI log. Rule files, scenario files and usage models share it.
package struct DroppedFindings {
    package private(set) var count = 0
    /// How many of them were errors: the summary is an error only if one of them is.
    package private(set) var errors = 0
    /// The findings kept, to tell a repeat.
    private var kept = Set<Diagnostic>()
    /// Where each kept finding stands, and its rule: a finding elsewhere is no repeat, told without comparing it whole
    /// with the kept findings a look-up meets (the set compares every finding in its probe, message and all: a fifth of
    /// the time of a file of a million findings past the limit).
    private var keptPlaces = Set<Place>()

    private struct Place: Hashable {
        var rule: String
        var start: SourcePosition
    }

    package init() {}

    /// Whether a file that keeps `kept` findings keeps one more; when not, it is counted. The same finding again (a
    /// value copied by an alias, read once for each copy) is neither kept nor counted: a thousand copies of one
    /// mistake hid the next one.
    package mutating func keeps(_ diagnostic: Diagnostic, kept count: Int) -> Bool {
        let place = Place(rule: diagnostic.rule, start: diagnostic.range.start)
        guard !keptPlaces.contains(place) || !kept.contains(diagnostic) else { return false }
        guard count >= YAMLEventCursor.maxFindings else {
            kept.insert(diagnostic)
            keptPlaces.insert(place)
            return true
        }
        self.count += 1
        if diagnostic.severity == .error { errors += 1 }
        return false
    }

    /// How many findings were not kept, as a finding (an error when one of them is), or nil.
    package func summary(file: String) -> Diagnostic? {
        count > 0 ? .tooManyFindings(count, errors: errors, file: file) : nil
    }
}
