import AdRules

/// Characters that look like a space, or like nothing, that text pasted from a document, a web page or a chat brings
/// into a rule file's indentation. YAML takes only U+0020 for a space: it reads these as text, part of the key or value
/// that follows them.
package enum PastedSpace {
    /// The name of a space-like scalar, or nil for any other.
    package static func name(of scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x00A0: return "no-break space"
        case 0x2000...0x200A: return "a typographic space"
        case 0x200B: return "zero width space"
        case 0x202F: return "narrow no-break space"
        case 0x205F: return "medium mathematical space"
        case 0x2060: return "word joiner"
        case 0x3000: return "ideographic space"
        default: return nil
        }
    }

    /// The pasted space whose UTF-8 starts at `i` of `bytes`, with its length in bytes, or nil.
    package static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (scalar: Unicode.Scalar, length: Int)? {
        guard i >= 0, i < bytes.count else { return nil }
        let lead = bytes[i]
        // Every one is two bytes (U+00A0) or three (U+2000 on); a byte past ASCII that starts neither is none.
        let length = lead == 0xC2 ? 2 : lead == 0xE2 || lead == 0xE3 ? 3 : 0
        guard length > 0, i + length <= bytes.count else { return nil }
        var value = UInt32(lead) & (length == 2 ? 0x1F : 0x0F)
        for k in 1..<length {
            let byte = bytes[i + k]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value), name(of: scalar) != nil else { return nil }
        return (scalar, length)
    }

    /// How a message names indentation made of `scalar`: "no-break spaces (U+00A0, as text pasted from a document
    /// holds)", or "a no-break space (…)" for one; "U+3000 (ideographic space)" for the others, whose names do not all
    /// take a plural.
    package static func indentation(_ scalar: Unicode.Scalar, plural: Bool) -> String {
        guard scalar != "\u{00A0}" else {
            return (plural ? "no-break spaces" : "a no-break space") + " (U+00A0, as text pasted from a document holds)"
        }
        return "\(CodePoints.codePoint(scalar)) (\(name(of: scalar) ?? "a space-like character"))"
    }

    /// What a note calls one: "no-break space", else its code point ("U+3000").
    package static func shortName(_ scalar: Unicode.Scalar) -> String {
        scalar == "\u{00A0}" ? "no-break space" : CodePoints.codePoint(scalar)
    }
}

/// The full-width colon (U+FF1A) that an input method for Chinese or Japanese types, which YAML does not take for a
/// colon: `format：banner` is one text to it.
package enum FullWidthColon {
    package static let character: Character = "\u{FF1A}"

    /// What to type for `key：value`. (`key` and `value` as the message shows them.)
    /// - Parameter readsAsOneText: whether to say what YAML made of the line (a block's one key, read as a text): a
    ///   syntax error's advice, where the line is not what the error names, leaves it out.
    package static func advice(key: String, value: String, readsAsOneText: Bool) -> String {
        "the colon after \(key) is U+FF1A (full-width colon, as an input method for Chinese or Japanese types it), which YAML does "
            + "not take for a colon\(readsAsOneText ? ", so it reads the key and its value as one text" : ""): type an ASCII colon and a "
            + "space, as in \(key): \(value)"
    }
}
