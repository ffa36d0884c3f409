/// English articles and counts for messages.
package enum Article {
    /// A count with its noun, singular for one: "1 session", "3 sessions".
    package static func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// `1234567` as `1,234,567`.
    package static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// "an" before a word that starts with a vowel (`an interstitial`, `an int`), else "a".
    package static func indefinite(_ word: String) -> String {
        word.first.map { "aeiouAEIOU".contains($0) } == true ? "an" : "a"
    }
}
