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

    /// "did you mean "daily_cap"?" for a name the policy does not know, naming the first character of it that only
    /// looks like ASCII when the suggestion is ASCII: a Cyrillic а or a zero width space copied from a web page makes
    /// "dаily_cap" and "daily_cap" print alike.
    package static func didYouMean(_ suggestion: String, for name: String) -> String {
        let text = "did you mean \"\(suggestion)\"?"
        guard suggestion.utf8.allSatisfy({ $0 < 0x80 }), let odd = name.unicodeScalars.first(where: { !$0.isASCII }) else { return text }
        return text + " (it holds \(described(odd)), where the suggestion has ASCII only)"
    }

    /// "U+0430 CYRILLIC SMALL LETTER A", or "U+200B (zero width space)" for a character that does not show.
    package static func described(_ scalar: Unicode.Scalar) -> String {
        InvisibleCharacters.described(scalar) ?? CodePoints.named(scalar)
    }

    /// The candidate closest to `word`, when it is close enough to be a likely typo.
    /// - Parameter maxDistance: the most edits allowed, when the caller wants fewer than a typo of `word`'s length may
    ///   have.
    package static func closest(to word: String, in candidates: [String], maxDistance: Int? = nil) -> String? {
        let a = Array(word.lowercased().utf8)
        guard a.count <= maxWordLength, candidates.count <= maxCandidates else { return nil }
        let limit = min(maxDistance ?? .max, max(1, min(3, a.count / 3 + 1)))
        var best: (String, Int)?
        // One buffer for the candidates' bytes and one pair of table rows for the whole search: an allocation for each
        // candidate was most of the cost of a file of 100,000 unknown keys (each searched about ten times).
        var b: [UInt8] = []
        var rows = EditDistanceRows()
        for candidate in candidates {
            lowercasedBytes(of: candidate, into: &b)
            guard abs(a.count - b.count) <= limit, b.count <= maxWordLength else { continue }
            let bound = min(limit, (best?.1 ?? Int.max) - 1)
            guard bound >= 0, let d = rows.distance(a, b, atMost: bound) else { continue }
            best = (candidate, d)
        }
        return best?.0
    }

    /// The UTF-8 bytes of `text` lowercased, as `text.lowercased()` gives them, into `bytes`: ASCII in place, any other
    /// text through `lowercased()` (which may change its length).
    private static func lowercasedBytes(of text: String, into bytes: inout [UInt8]) {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: text.utf8)
        for i in bytes.indices {
            let byte = bytes[i]
            guard byte < 0x80 else {
                bytes = Array(text.lowercased().utf8)
                return
            }
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { bytes[i] = byte + 32 }
        }
    }

    /// For a short list of allowed values (a format, a type): the one value that `word` shortens or lengthens
    /// (`prod` for production, `integer` for int), or that it names in other words (`float` for number), when
    /// ``closest(to:in:)`` finds none.
    package static func meant(by word: String, in allowed: [String]) -> String? {
        let word = word.lowercased()
        guard word.utf8.count >= 3, word.utf8.count <= maxWordLength else { return nil }
        if let synonym = synonym(for: word, in: allowed) { return synonym }
        let matches = allowed.filter { $0.hasPrefix(word) || word.hasPrefix($0) }
        return matches.count == 1 ? matches[0] : nil
    }

    /// The allowed value `word` names in other words (`float` for number, `list` for [string]): what it means, before any
    /// spelling close to it (`list` is one letter from `int`).
    package static func synonym(for word: String, in allowed: [String]) -> String? {
        synonyms[word.lowercased()].flatMap { allowed.contains($0) ? $0 : nil }
    }

    /// The key meant by another word for it (`members:` in a group, `cooldown:` on a placement), when the mapping takes
    /// that key: edit distance finds a misspelling, not another tool's word.
    package static func keySynonym(for key: String, in allowed: [String]) -> String? {
        keySynonyms[key.lowercased()].flatMap { allowed.contains($0) ? $0 : nil }
    }

    /// The bool key of `allowed` that `key` names the opposite of (`disabled:` for `enabled:`), if any.
    package static func oppositeKey(of key: String, in allowed: [String]) -> String? {
        let written = String(key.lowercased().map { $0 == "-" || $0 == " " ? "_" : $0 })
        return oppositeKeys[written].flatMap { allowed.contains($0) ? $0 : nil }
    }

    /// Words for the opposite of a bool key of rule files.
    private static let oppositeKeys = [
        "disabled": "enabled", "disable": "enabled", "inactive": "enabled", "is_disabled": "enabled",
        "include_premium": "exclude_premium", "show_premium": "exclude_premium", "premium_allowed": "exclude_premium",
        "allow_during_fullscreen": "block_during_fullscreen",
    ]

    /// The one of `keys` that `key` is, spelt with another case or other separators between its words (`daily-cap`,
    /// `dailyCap` and `DAILY CAP` for `daily_cap`), if any.
    package static func sameKey(as key: String, in keys: some Collection<String>) -> String? {
        func words(_ key: String) -> [UInt8] {
            key.lowercased().utf8.filter { $0 != UInt8(ascii: "_") && $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: " ") }
        }
        guard key.utf8.count <= maxWordLength else { return nil }
        let written = words(key)
        return keys.first { $0 != key && $0.utf8.count <= maxWordLength && words($0) == written }
    }

    /// Words other tools and documents use for the keys of rule files.
    private static let keySynonyms = [
        "members": "placements", "items": "placements", "units": "placements", "placement_ids": "placements", "ads": "placements",
        "type": "format", "ad_format": "format", "ad_type": "format",
        "cooldown": "min_interval", "interval": "min_interval", "min_gap": "min_interval", "pacing": "min_interval",
        "max_per_day": "daily_cap", "per_day": "daily_cap", "daily_limit": "daily_cap", "cap_per_day": "daily_cap",
        "max_per_hour": "hourly_cap", "per_hour": "hourly_cap", "hourly_limit": "hourly_cap", "cap_per_hour": "hourly_cap",
        "max_per_session": "session_cap", "per_session": "session_cap", "session_limit": "session_cap", "cap_per_session": "session_cap",
        "expiry": "max_ad_age", "ttl": "max_ad_age", "ad_ttl": "max_ad_age", "max_age": "max_ad_age", "expires_after": "max_ad_age",
        "condition": "when", "if": "when", "where": "when",
        "enable": "enabled", "active": "enabled",
        "no_premium": "exclude_premium", "skip_premium": "exclude_premium", "premium_excluded": "exclude_premium",
        "tz": "timezone", "time_zone": "timezone",
        // A scenario step's: what the decision says (next_allowed_at), where a step checks the wait until it.
        "next_allowed_at": "retry_in", "next_allowed": "retry_in", "retry_after": "retry_in", "retry_at": "retry_in",
    ]

    /// Other words for the types a rule file names.
    private static let synonyms = [
        "float": "number", "double": "number", "decimal": "number", "text": "string", "str": "string", "boolean": "bool",
        "list": "[string]", "array": "[string]", "strings": "[string]", "string[]": "[string]", "[text]": "[string]",
        "ints": "[int]", "int[]": "[int]", "integers": "[int]", "[integer]": "[int]", "time": "duration", "seconds": "duration",
    ]

    /// The edit distance of two byte strings, or nil when it is more than `limit`.
    ///
    /// Only the band of cells within `limit` of the diagonal is computed (any path outside it costs more than the
    /// limit): a pair of 64-byte ids costs 64 x 7 cells, not 64 x 64.
    static func distance(_ a: [UInt8], _ b: [UInt8], atMost limit: Int) -> Int? {
        var rows = EditDistanceRows()
        return rows.distance(a, b, atMost: limit)
    }
}

/// The two rows of the banded edit-distance table (``Suggestion/distance(_:_:atMost:)``), kept from one comparison to
/// the next of a search.
struct EditDistanceRows {
    private var previous: [Int] = []
    private var current: [Int] = []

    /// The edit distance of two byte strings, or nil when it is more than `limit`.
    mutating func distance(_ a: [UInt8], _ b: [UInt8], atMost limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Cells outside the band hold `over`: more than the limit, whatever is added to them.
        let over = limit + 1
        // Rows of `b.count + 1` cells, grown for a longer `b` than any before; cells past it are not read.
        if previous.count < b.count + 1 {
            previous = Array(repeating: 0, count: b.count + 1)
            current = previous
        }
        for j in 0...b.count {
            previous[j] = Swift.min(j, over)
            current[j] = over
        }
        for i in 1...a.count {
            let low = Swift.max(1, i - limit), high = Swift.min(b.count, i + limit)
            current[0] = Swift.min(i, over)
            current[low - 1] = low == 1 ? current[0] : over
            var rowMinimum = current[low - 1]
            for j in low...high {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                let cell = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost, over)
                current[j] = cell
                rowMinimum = Swift.min(rowMinimum, cell)
            }
            if high < b.count { current[high + 1] = over }
            if rowMinimum > limit { return nil }
            swap(&previous, &current)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
