import AdRules
import AdRulesYAML
import Foundation

/// Characters a reader cannot see, or cannot tell from a plain space, that a copy from a web page or a chat brings into
/// a rule file: a name holding one looks right and is unknown. Findings name them by code point.
enum InvisibleCharacters {
    /// The name of an invisible or space-like scalar (not a control character: those are escaped), or nil.
    static func name(of scalar: Unicode.Scalar) -> String? {
        if let space = PastedSpace.name(of: scalar) { return space }
        switch scalar.value {
        case 0x00AD: return "soft hyphen"
        case 0x180E: return "Mongolian vowel separator"
        case 0x200C: return "zero width non-joiner"
        case 0x200D: return "zero width joiner"
        case 0xFEFF: return "zero width no-break space"
        default: return nil
        }
    }

    /// "U+200B (zero width space)" for a scalar ``name(of:)`` knows.
    static func described(_ scalar: Unicode.Scalar) -> String? {
        name(of: scalar).map { "\(CodePoints.codePoint(scalar)) (\($0))" }
    }

    /// "U+202E, an invisible direction control that reorders what a reader sees", "U+FEFF, an invisible byte-order
    /// mark": how messages name the control characters that are no line break or escape code but invisible; nil for
    /// any other.
    static func invisibleControl(_ scalar: Unicode.Scalar) -> String? {
        if ControlCharacters.isDirectionControl(scalar) { return "\(CodePoints.codePoint(scalar)), an invisible direction control that reorders what a reader sees" }
        if scalar == "\u{FEFF}" { return "\(CodePoints.codePoint(scalar)), an invisible byte-order mark" }
        return nil
    }

    /// What to do about one: "write a plain space" for a space-like one, "delete it" for one that does not show.
    static func remedy(_ scalar: Unicode.Scalar) -> String {
        scalar.properties.isWhitespace ? "looks like a space: write a plain space, or none" : "does not show: delete it"
    }

    /// The first such scalar of a text, described ("U+200B (zero width space)"), or nil.
    static func first(in text: String) -> String? {
        // Printable ASCII, the usual text, holds none.
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        return text.unicodeScalars.lazy.compactMap(described).first
    }

    /// The text without them: what its writer meant, most likely.
    static func removed(from text: String) -> String {
        var out = String.UnicodeScalarView()
        out.append(contentsOf: text.unicodeScalars.filter { name(of: $0) == nil })
        return String(out)
    }
}
