/// Reads the JSON of a compiled document into its records: every value is checked for the type its record
/// expects, and an error names the path of the bad value (`placements[3].daily_cap[0]`).
///
/// The path is put together as an error travels out through the objects and arrays around the value
/// (`CompiledPolicyError.inside(_:)`), so reading a good document formats no path at all.
struct RecordReader {
    /// The deepest nesting of arrays and objects a compiled document may have.
    static let maxDepth = 160

    private var json: JSONReader
    /// The keys read so far in each object open around the reader, the innermost last: one list for the whole
    /// document, so that checking for a key given twice allocates nothing per object. Every object of a compiled
    /// document refuses keys it does not know, so each holds a few keys and a search of its own is short.
    private var openKeys: [SeenKey] = []

    /// A key as the check for repeats keeps it: plain numbers (a list of texts, retained and released key by key and
    /// compared text by text, made loading the shipped policy a tenth slower), the text read again only when two
    /// fingerprints agree.
    private struct SeenKey {
        /// ``JSONReader/fingerprintOfLastKey(_:)``.
        var fingerprint: UInt64
        /// Where the key starts in the document.
        var start: Int
    }

    /// A reader at the start of a document's bytes.
    init(_ bytes: [UInt8]) {
        json = JSONReader(bytes, maxDepth: Self.maxDepth)
    }

    // The steps of the JSON reader, a syntax error in words. (`Policy(compiled:)` then reads the whole text
    // again to report the first one, before any error of a value.)

    private mutating func peek() throws(CompiledPolicyError) -> JSONReader.Kind {
        do { return try json.peek() } catch { throw .notJSON(error) }
    }

    private mutating func readString() throws(CompiledPolicyError) -> String {
        do { return try json.readString() } catch { throw .notJSON(error) }
    }

    private mutating func readBool() throws(CompiledPolicyError) -> Bool {
        do { return try json.readBool() } catch { throw .notJSON(error) }
    }

    private mutating func readNumber() throws(CompiledPolicyError) -> JSONReader.Number {
        do { return try json.readNumber() } catch { throw .notJSON(error) }
    }

    private mutating func readNull() throws(CompiledPolicyError) {
        do { try json.readNull() } catch { throw .notJSON(error) }
    }

    private mutating func beginObject() throws(CompiledPolicyError) {
        do { try json.beginObject() } catch { throw .notJSON(error) }
    }

    private mutating func nextKey() throws(CompiledPolicyError) -> String? {
        do { return try json.nextKey() } catch { throw .notJSON(error) }
    }

    private mutating func beginArray() throws(CompiledPolicyError) {
        do { try json.beginArray() } catch { throw .notJSON(error) }
    }

    private mutating func nextElement() throws(CompiledPolicyError) -> Bool {
        do { return try json.nextElement() } catch { throw .notJSON(error) }
    }

    /// Checks that the next value is of `kind`.
    private mutating func expect(_ kind: JSONReader.Kind, _ expected: String) throws(CompiledPolicyError) {
        let found = try peek()
        guard found == kind else { throw Self.mismatch(expected, found) }
    }

    // MARK: scalars

    /// What a whole number must be, for messages.
    static let wholeNumber = "Int (a whole number that fits 64 bits)"

    mutating func string() throws(CompiledPolicyError) -> String {
        try expect(.string, "a string")
        return try readString()
    }

    mutating func bool() throws(CompiledPolicyError) -> Bool {
        try expect(.bool, "a boolean (true or false)")
        return try readBool()
    }

    /// A whole number; a fraction, an exponent or a number too large for an `Int` is refused.
    mutating func int() throws(CompiledPolicyError) -> Int {
        try expect(.number, Self.wholeNumber)
        let before = json.index
        switch try readNumber() {
        case .int(let value): return value
        case .double(let value):
            // A whole number too large for an `Int` reads as a double (infinite past about 309 digits).
            let tooLarge = value.isInfinite || (value == value.rounded() && abs(value) >= 0x1p63)
            if tooLarge { throw CompiledPolicyError("expected \(Self.wholeNumber), found a whole number too large to hold") }
            // The number as written (digits, a sign, a point, an exponent: JSON's grammar), at most 80 characters.
            let written = String(decoding: json.bytes[before..<json.index].drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }, as: UTF8.self)
            let shown = written.count > 80 ? written.prefix(80) + "…" : written
            // A whole value written with a point or an exponent (`6.0`, `18e5`): what to write instead. Not for a
            // number too small to hold, which reads as 0 (`6e-400`): 0, a cap that allows no show, is not what it says.
            let underflows = value == 0 && written.prefix { $0 != "e" && $0 != "E" }.contains { ("1"..."9").contains($0) }
            let advice = value == value.rounded() && !underflows ? ": write it in digits only, with no decimal point or exponent (\(Int(value)))" : ""
            throw CompiledPolicyError("expected \(Self.wholeNumber), found \(shown)\(advice)")
        }
    }

    /// A whole number, as the 64 bits durations are kept in.
    mutating func int64() throws(CompiledPolicyError) -> Int64 { Int64(try int()) }

    /// A number, whole or not.
    mutating func number() throws(CompiledPolicyError) -> Double {
        try expect(.number, "a number")
        switch try readNumber() {
        case .int(let value): return Double(value)
        case .double(let value):
            // 1e400 reads as infinity: no rule file can write it.
            guard value.isFinite else { throw CompiledPolicyError("a number too large to hold (\(value))") }
            return value
        }
    }

    /// Reads the next value and drops it: a key this runtime does not read.
    mutating func skip() throws(CompiledPolicyError) {
        do { try json.skipValue() } catch { throw .notJSON(error) }
    }

    /// A string naming one case of `T`.
    /// - Parameter expected: what the value is, for the message (`"an ad format"`).
    mutating func oneOf<T: RawRepresentable & CaseIterable>(_ expected: String) throws(CompiledPolicyError) -> T where T.RawValue == String {
        let text = try string()
        guard let value = T(rawValue: text) else {
            // A value this runtime does not know (a format, a value type, an environment), as an unknown key or
            // built-in is: what a newer `adrules` would write, which downloading again does not change.
            let cases = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw CompiledPolicyError("\(ControlCharacters.quoted(text)) is not \(expected) (one of \(cases))", kind: .unsupported)
        }
        return value
    }

    /// nil for `null`, otherwise the value `read` reads: an optional key written as `null` is absent.
    mutating func optional<T>(_ read: (inout RecordReader) throws(CompiledPolicyError) -> T) throws(CompiledPolicyError) -> T? {
        if try peek() == .null {
            try readNull()
            return nil
        }
        return try read(&self)
    }

    /// Checks that nothing but white space follows the document.
    mutating func end() throws(CompiledPolicyError) {
        do { try json.readEnd() } catch { throw .notJSON(error) }
    }

    // MARK: arrays and objects

    /// Reads an object: `member` reads the value of each key, in the document's order, and must read or skip
    /// it. An error inside is named by its key.
    mutating func object(_ member: (String, inout RecordReader) throws(CompiledPolicyError) -> Void) throws(CompiledPolicyError) {
        try expect(.object, "an object")
        try beginObject()
        let first = openKeys.count
        while let key = try nextKey() {
            // A key given twice: which value counts would be a guess (the last, here; the first, to another reader), and a
            // value no reviewer sees could hide behind the one they read. A document adrules wrote has each key once.
            let seen = SeenKey(fingerprint: json.fingerprintOfLastKey(key), start: json.lastKeyStart)
            var i = first
            while i < openKeys.count {
                if openKeys[i].fingerprint == seen.fingerprint && keyText(at: openKeys[i].start) == key {
                    throw CompiledPolicyError(
                        "the key \(ControlCharacters.quoted(key)) appears twice in one object, which adrules compile never writes: compile it again",
                        offset: seen.start)
                }
                i += 1
            }
            openKeys.append(seen)
            json.skipSpace()
            let start = json.index
            do {
                try member(key, &self)
            } catch {
                throw error.inside(key, valueAt: start)
            }
        }
        openKeys.removeSubrange(first...)
    }

    /// The key that starts at `start`, read again (it was read once without error).
    private func keyText(at start: Int) -> String? {
        var reader = json
        reader.index = start
        return try? reader.readString()
    }

    /// Reads an array whose length must be in `entries`: `element` reads each element; an error inside is named
    /// by its index. Elements past the upper bound are skipped, only counted, so a huge array is refused
    /// without being held.
    mutating func array<T>(
        entries: ClosedRange<Int> = 0...Int.max, _ element: (inout RecordReader) throws(CompiledPolicyError) -> T
    ) throws(CompiledPolicyError) -> [T] {
        try expect(.array, "an array")
        try beginArray()
        var items: [T] = []
        var count = 0
        while try nextElement() {
            if count < entries.upperBound {
                json.skipSpace()
                let start = json.index
                do {
                    items.append(try element(&self))
                } catch {
                    throw error.inside(count, valueAt: start)
                }
            } else {
                try skip()
            }
            count += 1
        }
        guard entries.contains(count) else {
            throw CompiledPolicyError("\(count) entries; expected \(entries.lowerBound)-\(entries.upperBound)")
        }
        return items
    }

    /// `[file, line, column]`.
    mutating func at() throws(CompiledPolicyError) -> AtRecord {
        let shape = "[file, line, column]"
        try expect(.array, shape)
        try beginArray()
        let at = AtRecord(file: try int(0, of: shape), line: try int(1, of: shape), column: try int(2, of: shape))
        try end(of: shape, after: 3)
        return at
    }

    /// `[value, file, line, column]`, the value read by `read`.
    mutating func located<T>(_ read: (inout RecordReader) throws(CompiledPolicyError) -> T) throws(CompiledPolicyError) -> LocatedRecord<T> {
        let shape = "[value, file, line, column]"
        try expect(.array, shape)
        try beginArray()
        let value = try element(0, of: shape, read)
        let at = AtRecord(file: try int(1, of: shape), line: try int(2, of: shape), column: try int(3, of: shape))
        try end(of: shape, after: 4)
        return LocatedRecord(value: value, at: at)
    }

    /// The whole number at `index` of an array of a fixed `shape`, which must have it.
    private mutating func int(_ index: Int, of shape: String) throws(CompiledPolicyError) -> Int {
        guard try nextElement() else { throw Self.tooShort(shape, index) }
        do {
            return try int()
        } catch {
            throw error.inside(index)
        }
    }

    // The errors are made out of line: the reading functions stay small enough to be inlined.

    @inline(never)
    private static func mismatch(_ expected: String, _ found: JSONReader.Kind) -> CompiledPolicyError {
        CompiledPolicyError("expected \(expected), found \(describe(found))")
    }

    @inline(never)
    private static func tooShort(_ shape: String, _ count: Int) -> CompiledPolicyError {
        CompiledPolicyError("expected \(shape), found \(count == 1 ? "1 element" : "\(count) elements")")
    }

    /// The element at `index` of an array of a fixed `shape`, which must have it.
    private mutating func element<T>(
        _ index: Int, of shape: String, _ read: (inout RecordReader) throws(CompiledPolicyError) -> T
    ) throws(CompiledPolicyError) -> T {
        guard try nextElement() else { throw Self.tooShort(shape, index) }
        do {
            return try read(&self)
        } catch {
            throw error.inside(index)
        }
    }

    /// The end of an array of a fixed `shape` of `count` elements.
    private mutating func end(of shape: String, after count: Int) throws(CompiledPolicyError) {
        guard try !nextElement() else {
            throw CompiledPolicyError("expected \(shape), found more than \(count) elements")
        }
    }

    // MARK: messages

    static func describe(_ kind: JSONReader.Kind) -> String {
        switch kind {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

extension CompiledPolicyError {
    /// Bytes that are not JSON.
    @inline(never)
    static func notJSON(_ error: JSONValue.ParseError) -> CompiledPolicyError {
        CompiledPolicyError(
            "not valid JSON (\(error)); "
                + (error.nearEnd ? "the file may be truncated: download or compile it again" : "it was not written by adrules compile, or was changed since: compile it again"),
            offset: error.offset)
    }

    /// A key a record needs that its object lacks.
    static func missing(_ key: String) -> CompiledPolicyError { CompiledPolicyError("\"\(key)\" is missing") }
}

/// The value of a key a record needs.
func required<T>(_ value: T?, _ key: String) throws(CompiledPolicyError) -> T {
    guard let value else { throw CompiledPolicyError.missing(key) }
    return value
}
