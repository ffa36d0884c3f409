/// The one rule for ids and texts in a policy, shared by the rule-file decoder and the compiled-policy loader.
package enum PolicyIDs {
    /// The longest text (a message, an ad unit, a `when`), in characters (Unicode scalars).
    package static let maxTextLength = 4096

    /// The characters allowed, for messages: placement and group ids, or (lowercase only) rule ids.
    package static func allowed(lowercaseOnly: Bool) -> String { lowercaseOnly ? "a-z 0-9 - _" : "a-z A-Z 0-9 _ - ." }

    /// Whether a name can be an attribute's: a letter or `_`, then letters, digits, `_` and `.` (not last), at most
    /// 64 characters, and no keyword or built-in name (a condition could not read it).
    package static func isValidAttributeName(_ name: String) -> Bool {
        name.count <= 64 && isWellFormedAttributeName(name)
    }

    /// The keywords of conditions, which no attribute may be named.
    package static let keywords = ["and", "or", "not", "in", "true", "false"]

    /// ``isValidAttributeName(_:)`` but for its length.
    static func isWellFormedAttributeName(_ name: String) -> Bool {
        !name.isEmpty && !keywords.contains(name) && Builtin(rawValue: name) == nil
            && name.unicodeScalars.first.map { $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) } == true
            && name.unicodeScalars.allSatisfy { $0 == "_" || $0 == "." || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
            && !name.hasSuffix(".")
    }

    /// ``isValidAttributeName(_:)`` as a regular expression but for the keywords and built-in names (for the JSON Schema
    /// of rule files): kept beside the check, to change with it.
    package static let attributeNamePattern = "^[A-Za-z_]([A-Za-z0-9_.]{0,62}[A-Za-z0-9_])?$"

    /// What an attribute name must be, for messages (``isValidAttributeName(_:)``).
    package static let attributeNameRule = "an ASCII letter or _, then ASCII letters, digits, _ or . (not last), at most 64 characters, and not a built-in name or a keyword"

    /// Why a name cannot be an attribute's, in a few words, with what it must be.
    package static func attributeNameProblem(_ name: String) -> String {
        if keywords.contains(name) { return "\(name) is a keyword of conditions; write another name, such as is_\(name)" }
        if Builtin(rawValue: name) != nil { return "\(name) is a built-in name, which a condition reads as the built-in; write another name" }
        let count = name.count
        if count > 64 && isWellFormedAttributeName(name) { return "it is \(count) characters long, more than the 64 an attribute name may have" }
        // The first character it cannot hold, named: `café` and `lеvel` (a Cyrillic е) are made of letters to a reader.
        let scalars = Array(name.unicodeScalars.prefix(65))
        func allowed(_ scalar: Unicode.Scalar, first: Bool) -> Bool {
            switch scalar {
            case "a"..."z", "A"..."Z", "_": return true
            case "0"..."9", ".": return !first
            default: return false
            }
        }
        if let i = scalars.indices.first(where: { !allowed(scalars[$0], first: $0 == 0) }) {
            let odd = scalars[i]
            let named = odd.isASCII && odd.value >= 0x20 && odd.value < 0x7F ? "\"\(odd)\"" : CodePoints.named(odd)
            return "it \(i == 0 ? "starts with" : "holds") \(named), which a name cannot \(i == 0 ? "start with" : "hold"): write \(attributeNameRule)"
        }
        return "write \(attributeNameRule)"
    }

    /// Whether an id is 1-64 allowed characters.
    package static func isValid(_ id: String, lowercaseOnly: Bool) -> Bool {
        // Every character allowed is one ASCII byte: the bytes are checked, and then their number is the length (`count`
        // reads grapheme clusters, about a tenth of loading a large policy's ids).
        id.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"): return true
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "."): return !lowercaseOnly
            default: return false
            }
        } && (1...64).contains(id.utf8.count)
    }
}
