import AdRules
import AdRulesYAML

/// Messages about values past what a key or a policy allows (`schema/range`): too long, too large, too many, or
/// holding characters they may not.
extension Diagnostic {
    static func tooLong(_ key: String, length: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range", message: "\(key) is \(length) characters long, and at most \(PolicyIDs.maxTextLength) fit: shorten it",
            file: file, range: range)
    }

    static func capTooLarge(_ key: String, _ value: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "\(key) \(value) is more than \(Facts.maxShowsPerHistory), the largest cap a policy may set (the shows a history keeps are bounded by it): write at most \(Facts.maxShowsPerHistory)",
            file: file, range: range)
    }

    /// - Parameter optional: the key may be left out (no cap, no count of actions), which the advice then offers.
    static func outOfRange(_ key: String, value: Int, minimum: Int, optional: Bool, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "\(key) must be >= \(minimum), not \(value): write \(minimum) or more\(optional ? ", or leave \(key) out" : "")",
            file: file, range: range)
    }

    /// A whole number written correctly but with more digits than any value of `key` can have.
    /// - Parameter capMayBeLeftOut: for a cap, whether it may be left out (no cap), which the advice then offers.
    /// - Parameter minimum: the least value `key` takes, when it has one: a negative number is told it, not to lose its zeros.
    static func wholeNumberTooLong(
        _ key: String, text: String, minimum: Int? = nil, isCap: Bool = false, capMayBeLeftOut: Bool = false, file: String, range: SourceRange
    ) -> Diagnostic {
        // The limits of other bases only for a number written in one.
        let lower = text.lowercased().drop { $0 == "-" || $0 == "+" }
        let (limit, prefix, digitLimit) = lower.hasPrefix("0x") ? ("15 digits in hex", "0x", 15) : lower.hasPrefix("0o") ? ("20 digits in octal", "0o", 20) : ("18 digits", "", 18)
        let significant = lower.dropFirst(prefix.count).drop { $0 == "0" }
        // A negative number, or zero where the least value is above it (`every_n_actions: 000…0`), is told the least value.
        let advice = if let minimum, minimum >= 0, (text.hasPrefix("-") && !significant.isEmpty) || (significant.isEmpty && minimum > 0) {
            "\(key) must be >= \(minimum): write \(minimum) or more"
        } else if (text.hasPrefix("-") && !significant.isEmpty ? 1 : 0) + max(significant.count, 1) <= digitLimit {
            // Leading zeros, not the number, are too many (`0000000000000000000005`): without them it is read.
            // Zero takes no sign (`-000…0` is told `0`); a `-` counts towards the limit, so `-` and 18 nines are
            // not told to lose zeros they do not have.
            "remove the leading zeros: write \(text.hasPrefix("-") && !significant.isEmpty ? "-" : "")\(prefix)\(significant.isEmpty ? "0" : significant)"
        } else if isCap, !text.hasPrefix("-") {
            "no cap needs that many shows: write at most \(Facts.maxShowsPerHistory)" + (capMayBeLeftOut ? ", or leave \(key) out for no cap" : "")
        } else {
            "write it with fewer digits"
        }
        return Diagnostic(
            .error, rule: "schema/range",
            message: "\(key) is \(ControlCharacters.escaped(String(text.prefix(40))))\(text.count > 40 ? "..." : ""), written with more digits than this tool reads safely "
                + "(\(limit) at most, a sign or leading zeros included): \(advice)",
            file: file, range: range)
    }

    static func controlCharacter(_ key: String, scalar: Unicode.Scalar, file: String, range: SourceRange) -> Diagnostic {
        let code = CodePoints.codePoint(scalar)
        // Direction marks and overrides, and the byte-order mark, are no line break or escape code: they are invisible.
        let message = if let invisible = InvisibleCharacters.invisibleControl(scalar) {
            "\(key) holds \(invisible): remove it"
        } else if scalar == "\n", key == "message" {
            // Only free text: a folded id or ad unit would hold a space, which no id may.
            // A text ends up in logs and reports, one line each: a line break would start a line that is not its own.
            "\(key) holds the control character \(code), a line break, and a text is one line in the logs and reports it ends up in: write it on one line, or as a folded block (>-), which joins its lines with spaces"
        } else {
            "\(key) holds the control character \(code): write it on one line, with no line breaks, tabs or escape codes"
        }
        return Diagnostic(.error, rule: "schema/range", message: message, file: file, range: range)
    }

    /// - Parameter lowercaseOnly: whether the id takes lowercase letters only (a rule's), as `allowed` says.
    static func badID(_ kind: String, id: String, allowed: String, lowercaseOnly: Bool = false, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "\(kind) id \"\(id)\" is not valid: " + (typographicQuotes(around: id) ?? badIDReason(id, lowercaseOnly: lowercaseOnly) + "use 1-64 characters of \(allowed)"),
            file: file, range: range)
    }

    /// What makes an id invalid, before what it may hold: its first character it may not hold, named (a Cyrillic а, a
    /// zero width joiner and a no-break space print as `a`, nothing and a space, so that `"аpp"`, `"a‍b"` and `"a b"`
    /// were told only which characters an id takes, which they seemed to be), or its length. Empty for an empty id.
    private static func badIDReason(_ id: String, lowercaseOnly: Bool) -> String {
        func allowed(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar {
            case "a"..."z", "0"..."9", "_", "-": return true
            case "A"..."Z", ".": return !lowercaseOnly
            default: return false
            }
        }
        if let odd = id.unicodeScalars.first(where: { !allowed($0) }) {
            let named = switch odd {
            case " ": "a space"
            case "A"..."Z": "the capital \(odd)"
            case _ where odd.isASCII && !ControlCharacters.isControl(odd): "\"\(odd)\""
            default: Suggestion.described(odd)
            }
            return "it holds \(named), which an id cannot hold: "
        }
        let length = id.unicodeScalars.count
        return length > 64 ? "it is \(length) characters long: " : ""
    }

    static func tooManyCaps(_ count: Int, limit: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "caps lists \(count) windows; at most \(limit) are allowed: keep the windows that bind (see cap/unreachable)",
            file: file, range: range)
    }

    /// A list of placement ids (a group's members, a rule's `deny`) longer than a policy may have placements.
    static func tooManyListedPlacements(_ what: String, count: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "\(what) lists \(count) placements; a list holds at most \(PolicyLimits.maxPlacements), as a policy has at most that many placements: name each placement once",
            file: file, range: range)
    }

    /// Groups' `placements` and rules' `deny` lists that name more placements in all than a policy's lists may.
    static func tooManyListedPlacementsInAll(_ count: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "the groups' placements and the rules' deny lists name \(count) placements in all; a policy's lists hold at most "
                + "\(PolicyLimits.maxListedPlacements): use fewer, larger groups, and write deny: \"*\" for a rule that denies every placement",
            file: file, range: range)
    }

    /// Rules whose conditions hold more nodes in all than a policy's may (``PolicyLimits/maxConditionNodes``).
    static func tooManyConditionNodes(file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "the rules' conditions hold more than \(PolicyLimits.maxConditionNodes) names, literals and operators in all from this one on; "
                + "a policy's conditions hold at most that many: write fewer rules, or shorter conditions (a list with in: screen in [\"a\", \"b\"])",
            file: file, range: range)
    }

    static func tooManyListItems(_ key: String, count: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "\(key) lists \(count) items; a list value holds at most \(PolicyLimits.maxListItems): shorten it",
            file: file, range: range)
    }

    /// A table of the policy (`kind`: placements, groups, rules, ...) with more entries than a policy may have.
    static func tooManyEntries(_ count: Int, _ kind: String, limit: Int, file: String, range: SourceRange) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "the policy has \(count) \(kind); a policy may have at most \(limit): split it into several policies",
            file: file, range: range)
    }
}
