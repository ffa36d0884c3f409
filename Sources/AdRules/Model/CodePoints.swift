/// Texts that read the same but hold other bytes (`é` as one character, or `e` and a combining accent: one text to
/// Swift, two names to a file system): what a message shows to tell them apart.
package enum CodePoints {
    /// `text` with each character past ASCII spelled as its code point (`e\u{301}.yaml`).
    package static func spelled(_ text: String) -> String {
        text.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }.joined()
    }

    /// "U+200B": a scalar's code point as messages write it, four hex digits at least.
    package static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// "U+00E9 LATIN SMALL LETTER E WITH ACUTE": a scalar's code point and its Unicode name (the code point alone when it
    /// has none), for a character a message must name because it looks like another or like nothing.
    package static func named(_ scalar: Unicode.Scalar) -> String {
        scalar.properties.name.map { "\(codePoint(scalar)) \($0)" } ?? codePoint(scalar)
    }
}
