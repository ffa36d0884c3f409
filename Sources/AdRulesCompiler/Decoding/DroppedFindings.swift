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

    package init() {}

    /// Whether a file that keeps `kept` findings keeps one more; when not, it is counted. The same finding again (a
    /// value copied by an alias, read once for each copy) is neither kept nor counted: a thousand copies of one
    /// mistake hid the next one.
    package mutating func keeps(_ diagnostic: Diagnostic, kept count: Int) -> Bool {
        guard !kept.contains(diagnostic) else { return false }
        guard count >= YAMLEventCursor.maxFindings else {
            kept.insert(diagnostic)
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
