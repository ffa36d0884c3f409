import AdRules
import AdRulesCompiler
import AdRulesImpact

/// The values of a report read back, each checked to be what a run writes: counts in their ranges, texts without
/// control characters, paths, locations, ids, and objects with only the keys a run writes.
extension ImpactJSON {
    /// A value a run always writes: `value`, or the error that `what` is missing or malformed.
    static func required<T>(_ value: T?, _ what: String, at part: PartValue) throws -> T {
        guard let value else { throw ReadError("not an impact report: \(what) is missing or malformed", at: part) }
        return value
    }

    /// A whole number a run writes, within `range`.
    static func readCount(_ value: PartValue, _ what: String, in range: ClosedRange<Int>) throws -> Int {
        guard value.exists else { throw ReadError("not an impact report: \(what) is missing", at: value) }
        guard let n = value.intValue else {
            throw ReadError("not an impact report: \(what) is \(value.kindDescription), where a run writes a whole number (digits only)", at: value)
        }
        guard range.contains(n) else {
            throw ReadError("not an impact report: \(what) is \(n), outside \(range.lowerBound)...\(range.upperBound)", at: value)
        }
        return n
    }

    /// A text a run writes, with no control character.
    static func readString(_ value: PartValue, _ what: String) throws -> String { try checkedString(value, what, allowing: []) }

    /// The first simulated day, as a run writes it: `YYYY-MM-DD`, a real day from 1971 to 2199.
    static func readDay(_ value: PartValue) throws -> String {
        let text = try readString(value, "start")
        guard let date = CalendarDate(parsing: text), CalendarDate.supportedYears.contains(date.year) else {
            throw ReadError("not an impact report: start is \(ControlCharacters.cut(text)), not a day such as 2026-12-07", at: value)
        }
        return text
    }

    /// A setting's value in a change: a rule's `when` may span lines and hold tabs.
    static func readSettingText(_ value: PartValue, _ what: String) throws -> String { try checkedString(value, what, allowing: ["\t", "\n", "\r"]) }

    /// A text a run writes, with no control character but those `allowed`.
    private static func checkedString(_ value: PartValue, _ what: String, allowing allowed: Set<Unicode.Scalar>) throws -> String {
        let text = try readText(value, what)
        if ControlCharacters.contains(in: text, except: allowed) {
            throw ReadError("not an impact report: \(what) holds a control character (\(ControlCharacters.cut(text)))", at: value)
        }
        return text
    }

    /// A placement id as a policy holds it: 1-64 of a-z A-Z 0-9 _ - .
    /// - Parameter figures: the placement's figures, whose key the id is.
    static func placementID(_ id: String, at figures: PartValue) throws -> String {
        let id = try readString(figures.key(id), "a placement id")
        guard PolicyIDs.isValid(id, lowercaseOnly: false) else {
            throw ReadError(
                "not an impact report: \(ControlCharacters.cut(id)) is not a placement id (1-64 of \(PolicyIDs.allowed(lowercaseOnly: false)))", at: figures,
                atKey: true)
        }
        return id
    }

    /// - Parameter what: whose location it is, for messages.
    static func readLocation(_ value: PartValue, of what: String) throws -> ImpactLocation? {
        // No location is written as `"file": null` (an unknown placement's reason) or left out.
        guard value.exists, !value.isNull, value["file"].exists, !value["file"].isNull else { return nil }
        guard let line = value["line"].intValue, let column = value["column"].intValue, (1...100_000_000).contains(line),
            (1...100_000_000).contains(column)
        else {
            let wrong = (1...100_000_000).contains(value["line"].intValue ?? 0) ? value["column"] : value["line"]
            throw ReadError("not an impact report: the location of \(what) has no valid line and column (whole numbers from 1)", at: wrong)
        }
        let path = try readPath(value["file"], "a location's file")
        guard !path.isEmpty else { throw ReadError("not an impact report: the location of \(what) names no file", at: value["file"]) }
        return ImpactLocation(file: path, line: line, column: column)
    }

    /// A text a run writes: present, a string, at most 1,000,000 characters (what else it may hold is the caller's to check).
    static func readText(_ value: PartValue, _ what: String) throws -> String {
        guard value.exists else { throw ReadError("not an impact report: \(what) is missing", at: value) }
        guard let text = value.stringValue else {
            throw ReadError("not an impact report: \(what) is \(value.kindDescription), where a run writes a text", at: value)
        }
        guard text.unicodeScalars.count <= 1_000_000 else { throw ReadError("not an impact report: \(what) is longer than 1,000,000 characters", at: value) }
        return text
    }

    /// A path as a run writes it (the model, a policy, a location's file): any character a file name may hold, a
    /// control character too (the run's own reports escape them), but NUL.
    static func readPath(_ value: PartValue, _ what: String) throws -> String {
        let text = try readText(value, what)
        guard !text.unicodeScalars.contains("\0") else { throw ReadError("not an impact report: \(what) holds a NUL, which no path holds", at: value) }
        return text
    }

    /// Refuses a key a run does not write in an object of `what` (nil: the document), and a value of another kind where
    /// the object is (null is no object and passes: a run writes no location as null): a part holds what a run writes
    /// and nothing else.
    static func onlyKeys(_ value: PartValue, _ keys: Set<String>, in what: String?) throws {
        // A value of another kind where a run writes an object (`"shard": 3`) says so, rather than that its keys are missing.
        if value.exists, !value.isNull, value.objectValue == nil {
            throw ReadError("not an impact report: \(what ?? "the document") is \(value.kindDescription), where a run writes an object", at: value)
        }
        guard let unknown = value.objectValue?.first(where: { !keys.contains($0.0) }) else { return }
        throw ReadError("not an impact report: unknown key \(ControlCharacters.quoted(unknown.0))\(what.map { " in \($0)" } ?? "")", at: unknown.1, atKey: true)
    }
}
