/// The quotes a word processor or a chat app types (“checkout”, ‘home’, «x»): no quote to YAML or to a condition, which
/// keep them as part of the text. Findings name them and say to type straight ones.
enum TypographicQuotes {
    /// The double ones, whose straight counterpart is `"`.
    static let double = Set("“”„‟«»".unicodeScalars)
    /// Every one, single (`'`) and double.
    static let all = double.union("‘’‚‛‹›".unicodeScalars)
}
