import AdRules

/// "Did you mean" suggestions by edit distance.
///
/// The work is bounded whatever the input: long words get no suggestion, candidates whose length alone
/// rules them out are skipped, and the distance stops as soon as it cannot be within the limit.
package enum Suggestion {
    /// Words longer than this get no suggestion (an id is at most 64 characters).
    static let maxWordLength = 80
    /// Candidate lists longer than this get no suggestion: a typo among 20,000 ids is not worth 20,000 comparisons.
    static let maxCandidates = 2000

    /// The candidate closest to `word`, when it is close enough to be a likely typo.
    package static func closest(to word: String, in candidates: [String]) -> String? {
        let a = Array(word.lowercased().utf8)
        guard a.count <= maxWordLength, candidates.count <= maxCandidates else { return nil }
        let limit = max(1, min(3, a.count / 3 + 1))
        var best: (String, Int)?
        for candidate in candidates {
            let b = Array(candidate.lowercased().utf8)
            guard abs(a.count - b.count) <= limit, b.count <= maxWordLength else { continue }
            let bound = min(limit, (best?.1 ?? Int.max) - 1)
            guard bound >= 0, let d = distance(a, b, atMost: bound) else { continue }
            best = (candidate, d)
        }
        return best?.0
    }

    /// The edit distance of two byte strings, or nil when it is more than `limit`.
    static func distance(_ a: [UInt8], _ b: [UInt8], atMost limit: Int) -> Int? {
        if a.isEmpty { return b.count <= limit ? b.count : nil }
        if b.isEmpty { return a.count <= limit ? a.count : nil }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                rowMinimum = Swift.min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return nil }
            swap(&previous, &current)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
