import AdRules

/// How serious a finding is.
public enum Severity: String, Sendable, Hashable, Codable, Comparable {
    case error
    case warning

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs == .warning && rhs == .error
    }
}

/// A secondary location that explains a diagnostic (for example, the first definition of a duplicate).
public struct DiagnosticNote: Sendable, Hashable, Codable {
    /// What the note says.
    public var message: String
    /// The file the note points into.
    public var file: String
    /// The position the note points at.
    public var position: SourcePosition

    /// Creates a note.
    public init(message: String, file: String, position: SourcePosition) {
        self.message = message
        self.file = file
        self.position = position
    }
}

/// A finding about an input file: a value, never a thrown error.
public struct Diagnostic: Sendable, Hashable, Codable {
    /// Error or warning.
    public var severity: Severity
    /// The stable rule id, such as `schema/type`.
    public var rule: String
    /// What is wrong and what to write instead.
    public var message: String
    /// The file, as its path was given.
    public var file: String
    /// The span the finding is about.
    public var range: SourceRange
    /// Related locations.
    public var notes: [DiagnosticNote]
    /// For `schema/unknown-key`: true when the key is close to no key of its block and belongs in no other block, so
    /// it may be a key of the team's own (`x_owner:`), which a comment naming the rule hides. Nil otherwise.
    package var isPlainUnknownKey: Bool?
    /// For a `lint/too-many-findings` line: the findings it stands for, which a summary counts in its place.
    package var standsFor: HiddenFindings?

    /// Creates a diagnostic.
    public init(
        _ severity: Severity, rule: String, message: String, file: String, range: SourceRange,
        notes: [DiagnosticNote] = []
    ) {
        self.severity = severity
        self.rule = rule
        self.message = message
        self.file = file
        self.range = range
        self.notes = notes
    }

    /// The start of the range as a location.
    public var location: SourceLocation { SourceLocation(file: file, position: range.start) }

    /// Hashes the rule, the file and the span only: two equal findings share them, and findings are told apart by
    /// them but for a few. The message (which may list 33 values) is compared only when they match: hashing it made
    /// telling a repeated finding from a new one the larger part of reading a file of a million mistakes.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rule)
        hasher.combine(file)
        hasher.combine(range)
    }
}

/// Findings counted but not listed (past a file's or a report's bound), and how many of them are errors.
package struct HiddenFindings: Sendable, Hashable, Codable {
    package var count: Int
    package var errors: Int

    package init(count: Int, errors: Int) {
        self.count = count
        self.errors = errors
    }
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { contains { $0.severity == .error } }

    /// The errors and warnings the diagnostics report, as a summary counts them: a `lint/too-many-findings` line
    /// counts as the findings it stands for (3,000 warnings, of which 1,000 are listed, are 3,000).
    package var findingCounts: (errors: Int, warnings: Int) {
        var (errors, warnings) = (0, 0)
        for diagnostic in self {
            if let hidden = diagnostic.standsFor {
                errors += hidden.errors
                warnings += hidden.count - hidden.errors
            } else if diagnostic.severity == .error {
                errors += 1
            } else {
                warnings += 1
            }
        }
        return (errors, warnings)
    }

    /// Sorted by file, position, then rule (findings that tie keep their order), with exact repeats removed.
    ///
    /// Repeats are found among the findings that tie, after sorting: a set of findings, which hashes their rule, file
    /// and span only, met thousands of different findings at one place (a usage model's warnings about each unused
    /// placement of 9,999 stand at its `segments:`) as one bucket, and took time growing with the square of their
    /// number (37 s). Within a run of ties, their messages tell them apart.
    public func sortedForDisplay() -> [Diagnostic] {
        let sorted = self.sorted {
            ($0.file, $0.range.start.line, $0.range.start.column, $0.rule)
                < ($1.file, $1.range.start.line, $1.range.start.column, $1.rule)
        }
        var kept: [Diagnostic] = []
        kept.reserveCapacity(sorted.count)
        var start = 0
        while start < sorted.count {
            let first = sorted[start]
            var end = start + 1
            while end < sorted.count, sorted[end].file == first.file, sorted[end].range.start == first.range.start, sorted[end].rule == first.rule {
                end += 1
            }
            if end - start <= 16 {
                let runStart = kept.count
                for d in sorted[start..<end] where !kept[runStart...].contains(d) { kept.append(d) }
            } else {
                var byMessage: [String: [Int]] = [:]
                for d in sorted[start..<end] where !(byMessage[d.message] ?? []).contains(where: { kept[$0] == d }) {
                    byMessage[d.message, default: []].append(kept.count)
                    kept.append(d)
                }
            }
            start = end
        }
        return kept
    }
}
