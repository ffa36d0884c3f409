/// How many terminal columns a printed character takes: what lines a caret up under a YAML value on a line that holds
/// Chinese, Japanese or Korean text, full-width forms or emoji.
///
/// Terminals print the East Asian Wide and Fullwidth characters (Unicode UAX #11) and emoji shown as pictures (the
/// `Emoji_Presentation` property) in two columns, combining marks and zero-width characters in none, everything else
/// in one. The wide ranges are the blocks that hold them, as `wcwidth` implementations list them; an unlisted rare
/// character counts one column, so the caret is at worst a column off.
enum TerminalWidth {
    /// The columns of a character as a terminal prints it: the widths of its scalars (a combining mark adds nothing),
    /// at most two (a flag, an emoji sequence); a symbol with the emoji selector is a picture, two.
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        if scalars.count == 1, let only = scalars.first { return only.isASCII ? 1 : width(of: only) }
        if scalars.contains("\u{FE0F}") { return 2 }
        return min(scalars.reduce(0) { $0 + width(of: $1) }, 2)
    }

    /// The columns of one scalar: 0 for a combining mark or zero-width character, 2 for a wide one, else 1.
    private static func width(of scalar: Unicode.Scalar) -> Int {
        // A soft hyphen is a format character that terminals print.
        if scalar.value == 0xAD { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        return scalar.properties.isEmojiPresentation || isEastAsianWide(scalar.value) ? 2 : 1
    }

    /// The columns of a text.
    static func of(_ text: Substring) -> Int { text.reduce(0) { $0 + of($1) } }

    /// The columns of a text; an ASCII text (the usual one) is its length.
    static func of(_ text: String) -> Int {
        text.utf8.allSatisfy { $0 < 0x80 } ? text.utf8.count : text.reduce(0) { $0 + of($1) }
    }

    /// The East Asian Wide and Fullwidth blocks (emoji shown as pictures are told by their Unicode property).
    private static func isEastAsianWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F,  // Hangul Jamo initial consonants
            0x2329...0x232A,  // angle brackets
            0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
            // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, enclosed CJK letters, CJK compatibility; not
            // the circled numbers on black squares (U+3248-324F), which are ambiguous, one column outside CJK locales.
            0x3041...0x3247, 0x3250...0x33FF,
            0x3400...0x4DBF,  // CJK unified ideographs extension A
            0x4DC0...0x4DFF,  // Yijing hexagrams
            0x4E00...0x9FFF,  // CJK unified ideographs
            0xA000...0xA4CF,  // Yi
            0xA960...0xA97F,  // Hangul Jamo extended A
            0xAC00...0xD7A3,  // Hangul syllables
            0xF900...0xFAFF,  // CJK compatibility ideographs
            0xFE10...0xFE19, 0xFE30...0xFE6F,  // vertical forms, CJK compatibility forms, small form variants
            0xFF00...0xFF60, 0xFFE0...0xFFE6,  // full-width forms
            0x16FE0...0x18D7F, 0x1AFF0...0x1AFFF, 0x1B000...0x1B2FF,  // Tangut (and its supplement), Khitan, kana supplements
            0x1F200...0x1F2FF,  // enclosed ideographic supplement (the squared kanji, not all of them emoji)
            0x1D300...0x1D356,  // Tai Xuan Jing symbols
            0x20000...0x3FFFD:  // CJK unified ideographs extensions B and after
            return true
        default:
            return false
        }
    }
}
