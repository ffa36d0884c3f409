/// Unicode's stream-safe text (UAX #15): at most 30 combining marks (non-starters) in a row. No writing system needs
/// more, and putting a text with a longer run into composed form (or comparing it with another) takes time that grows
/// with the square of the run when the marks are out of canonical order: 4,096 of them took 27 ms a text, so a list of
/// a thousand such texts ran for half a minute. Every text a reader takes (YAML files, compiled policies, impact
/// parts) is checked for it as its bytes are checked for UTF-8.
package enum StreamSafeText {
    /// The most non-starters a run may have.
    package static let maxCombiningMarks = 30

    /// Counts a scalar into the current run of combining marks: the run it continues, or 0 for a starter.
    @inline(__always)
    package static func run(after run: Int, adding scalar: Unicode.Scalar) -> Int {
        // Every non-starter is at or above U+0300: ASCII and Latin-1 letters cost one comparison.
        guard scalar.value >= 0x300 else { return 0 }
        switch scalar.value {
        // The only characters whose decomposition is non-starters alone, though their own class is 0 (UAX #15):
        // each is two marks once decomposed, as composing or comparing reads it.
        case 0x0344, 0x0F73, 0x0F75, 0x0F81: return run + 2
        default: return scalar.properties.canonicalCombiningClass != .notReordered ? run + 1 : 0
        }
    }

    /// What is wrong with text bytes, if anything: not UTF-8, or a run of more than ``maxCombiningMarks`` marks.
    package enum Problem: Equatable {
        case notUTF8
        case tooManyCombiningMarks
    }

    /// Checks UTF-8 bytes in one pass.
    package static func problem(in bytes: some Sequence<UInt8>) -> Problem? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var marks = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                marks = run(after: marks, adding: scalar)
                if marks > maxCombiningMarks { return .tooManyCombiningMarks }
            case .emptyInput: return nil
            case .error: return .notUTF8
            }
        }
    }

    /// The message for a text with too long a run of marks.
    package static let message = "a text with more than \(maxCombiningMarks) combining marks in a row (Unicode's stream-safe limit; no language needs more)"
}
