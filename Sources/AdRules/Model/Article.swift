/// English articles for messages that name a format or a type.
package enum Article {
    /// "an" before a word that starts with a vowel (`an interstitial`, `an int`), else "a".
    package static func indefinite(_ word: String) -> String {
        word.first.map { "aeiouAEIOU".contains($0) } == true ? "an" : "a"
    }
}
