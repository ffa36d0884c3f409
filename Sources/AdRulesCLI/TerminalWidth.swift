/// How many terminal columns a printed character takes: what lines a caret up under a YAML value on a line that holds
/// Chinese, Japanese or Korean text, full-width forms or emoji.
///
/// Terminals print the East Asian Wide and Fullwidth characters (Unicode UAX #11) and emoji shown as pictures in two
/// columns, combining marks and zero-width characters in none, everything else in one. The ranges are the blocks that
/// hold them, as `wcwidth` implementations list them; an unlisted rare character counts one column, so the caret is
/// at worst a column off, as it was for every wide character before.
enum TerminalWidth {
    /// The columns of a character as a terminal prints it: the widths of its scalars (a combining mark adds nothing, a
    /// flag's two regional indicators make two), at most two; a symbol with the emoji selector is a picture, two.
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        if scalars.count == 1, let only = scalars.first { return only.isASCII ? 1 : width(of: only) }
        if scalars.contains("\u{FE0F}") { return 2 }
        return min(scalars.reduce(0) { $0 + width(of: $1) }, 2)
    }

    /// The columns of one scalar: 0 for a combining mark or zero-width character, 2 for a wide one, else 1.
    private static func width(of scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        return isWide(scalar.value) ? 2 : 1
    }

    /// The columns of a text.
    static func of(_ text: Substring) -> Int { text.reduce(0) { $0 + of($1) } }

    private static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F,  // Hangul Jamo initial consonants
            0x231A...0x231B, 0x23E9...0x23EC, 0x23F0, 0x23F3, 0x25FD...0x25FE, 0x2614...0x2615,  // emoji in symbol blocks
            0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
            0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA, 0x26FD, 0x2705, 0x270A...0x270B,
            0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757, 0x2795...0x2797, 0x27B0, 0x27BF,
            0x2B1B...0x2B1C, 0x2B50, 0x2B55,
            0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
            0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK compatibility
            0x3400...0x4DBF,  // CJK unified ideographs extension A
            0x4E00...0x9FFF,  // CJK unified ideographs
            0xA000...0xA4CF,  // Yi
            0xA960...0xA97F,  // Hangul Jamo extended A
            0xAC00...0xD7A3,  // Hangul syllables
            0xF900...0xFAFF,  // CJK compatibility ideographs
            0xFE10...0xFE19, 0xFE30...0xFE6F,  // vertical forms, CJK compatibility forms, small form variants
            0xFF00...0xFF60, 0xFFE0...0xFFE6,  // full-width forms
            0x16FE0...0x18CFF, 0x1B000...0x1B2FF,  // Tangut, Khitan, kana supplements
            0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251,
            0x1F300...0x1F64F,  // pictographs, emoticons
            0x1F680...0x1F6FF,  // transport and map symbols
            0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF,  // supplemental symbols and pictographs
            0x20000...0x3FFFD:  // CJK unified ideographs extensions B and after
            return true
        default:
            return false
        }
    }
}
