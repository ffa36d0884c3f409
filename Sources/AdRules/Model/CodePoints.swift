/// Texts that read the same but hold other bytes (`é` as one character, or `e` and a combining accent: one text to
/// Swift, two names to a file system): what a message shows to tell them apart.
package enum CodePoints {
    /// `text` with each character past ASCII spelled as its code point (`e\u{301}.yaml`).
    package static func spelled(_ text: String) -> String {
        text.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }.joined()
    }
}
