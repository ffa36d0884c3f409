/// The ledger file's JSON, read and written with the compiled policy's reader and writer (``JSONReader``,
/// ``JSONWriter``): a key given twice is refused, as a compiled policy refuses it (which value counts would be a
/// guess, and a reviewer could be shown one while the engine used the other), and so is a whole number written with a
/// fraction or an exponent. One pass over the bytes, with no tree of values: a ledger of 99,000 shows took Foundation's
/// `JSONEncoder` about 180 ms a write.
extension LedgerSnapshot {
    /// The bytes ``FileLedgerStore`` writes: one line, keys sorted, no white space.
    package func encodedJSON() -> [UInt8] {
        var writer = JSONWriter()
        writer.object { writer in
            writer.key("installedAt")
            writer.int(installedAt)
            writer.key("sessionCount")
            writer.int(sessionCount)
            writer.key("shows")
            writer.object { writer in
                for id in shows.keys.sorted() {
                    writer.key(escaping: id)
                    writer.array { writer in
                        for show in shows[id] ?? [] {
                            writer.object { writer in
                                writer.key("at")
                                writer.int(show.at)
                                writer.key("session")
                                writer.int(show.session)
                            }
                        }
                    }
                }
            }
            writer.key("version")
            writer.int(version)
        }
        return writer.bytes
    }

    /// Reads a ledger file's JSON, its values not yet checked against their bounds (``validate()`` does).
    /// - Throws: ``LedgerError/corrupt(_:)`` (`not a ledger: …`) at the first byte that is not JSON, a key given
    ///   twice, a value of the wrong type, or a key missing.
    init(json bytes: [UInt8]) throws(LedgerError) {
        var reader = LedgerReader(bytes)
        self = try reader.snapshot()
    }
}

/// Reads a ledger's JSON straight into its values. Keys the format does not have are skipped, as they always were.
private struct LedgerReader {
    private var json: JSONReader

    /// The document, `shows`, a placement's list of shows, a show.
    private static let maxDepth = 4

    init(_ bytes: [UInt8]) {
        json = JSONReader(bytes, maxDepth: Self.maxDepth)
    }

    mutating func snapshot() throws(LedgerError) -> LedgerSnapshot {
        try expect(.object, "an object", at: "")
        try beginObject()
        var version: Int?, installedAt: Int?, sessionCount: Int?, shows: [String: [ShowRecord]]?
        while let key = try nextKey() {
            switch key {
            case "version": version = try whole(key, in: "", unlike: version)
            case "installedAt": installedAt = try whole(key, in: "", unlike: installedAt)
            case "sessionCount": sessionCount = try whole(key, in: "", unlike: sessionCount)
            case "shows":
                guard shows == nil else { throw Self.givenTwice(key, at: "") }
                shows = try showsByPlacement()
            default: try skipValue()
            }
        }
        try readEnd()
        guard let version else { throw Self.missing("version", at: "") }
        guard let installedAt else { throw Self.missing("installedAt", at: "") }
        guard let sessionCount else { throw Self.missing("sessionCount", at: "") }
        guard let shows else { throw Self.missing("shows", at: "") }
        var snapshot = LedgerSnapshot(installedAt: Int64(installedAt), sessionCount: sessionCount, shows: shows)
        snapshot.version = version
        return snapshot
    }

    private mutating func showsByPlacement() throws(LedgerError) -> [String: [ShowRecord]] {
        try expect(.object, "an object", at: "shows")
        try beginObject()
        var shows: [String: [ShowRecord]] = [:]
        while let id = try nextKey() {
            guard shows[id] == nil else { throw Self.givenTwice(id, at: "shows") }
            // Bounded here too, before `validate()`: a file of 4 MiB of empty lists would otherwise make a table of
            // hundreds of thousands of entries first.
            guard shows.count < LedgerBounds.maxPlacements else {
                throw LedgerError.corrupt("shows has more than \(LedgerBounds.maxPlacements) placements")
            }
            try expect(.array, "an array", at: "shows.\(id)")
            try beginArray()
            var list: [ShowRecord] = []
            while try nextElement() {
                list.append(try show(at: "shows.\(id).\(list.count)"))
            }
            shows[id] = list
        }
        return shows
    }

    private mutating func show(at path: @autoclosure () -> String) throws(LedgerError) -> ShowRecord {
        try expect(.object, "an object", at: path())
        try beginObject()
        var at: Int?, session: Int?
        while let key = try nextKey() {
            switch key {
            case "at": at = try whole(key, in: path(), unlike: at)
            case "session": session = try whole(key, in: path(), unlike: session)
            default: try skipValue()
            }
        }
        guard let at else { throw Self.missing("at", at: path()) }
        guard let session else { throw Self.missing("session", at: path()) }
        return ShowRecord(at: Int64(at), session: session)
    }

    /// The value of `key` of the object at `parent` (its path, built only for an error): a whole number that fits 64
    /// bits, written in digits only, of a key the object has not had yet (`earlier` is what was read for it before).
    private mutating func whole(_ key: String, in parent: @autoclosure () -> String, unlike earlier: Int?) throws(LedgerError) -> Int {
        guard earlier == nil else { throw Self.givenTwice(key, at: parent()) }
        func path() -> String { parent().isEmpty ? key : parent() + "." + key }
        try expect(.number, "a whole number", at: path())
        switch try readNumber() {
        case .int(let value): return value
        case .double: throw Self.corrupt("wrong type at \(LedgerSnapshot.quoted(path())): expected a whole number that fits 64 bits, written in digits only")
        }
    }

    private mutating func expect(_ kind: JSONReader.Kind, _ expected: String, at path: @autoclosure () -> String) throws(LedgerError) {
        guard try peek() == kind else {
            let place = path().isEmpty ? "" : " at \(LedgerSnapshot.quoted(path()))"
            throw Self.corrupt("wrong type\(place): expected \(expected)")
        }
    }

    // The steps of the JSON reader, a syntax error in words.

    private mutating func peek() throws(LedgerError) -> JSONReader.Kind {
        do { return try json.peek() } catch { throw Self.corrupt(error.description) }
    }

    private mutating func beginObject() throws(LedgerError) {
        do { try json.beginObject() } catch { throw Self.corrupt(error.description) }
    }

    private mutating func nextKey() throws(LedgerError) -> String? {
        do { return try json.nextKey() } catch { throw Self.corrupt(error.description) }
    }

    private mutating func beginArray() throws(LedgerError) {
        do { try json.beginArray() } catch { throw Self.corrupt(error.description) }
    }

    private mutating func nextElement() throws(LedgerError) -> Bool {
        do { return try json.nextElement() } catch { throw Self.corrupt(error.description) }
    }

    private mutating func readNumber() throws(LedgerError) -> JSONReader.Number {
        do { return try json.readNumber() } catch { throw Self.corrupt(error.description) }
    }

    private mutating func skipValue() throws(LedgerError) {
        do { try json.skipValue() } catch { throw Self.corrupt(error.description) }
    }

    private mutating func readEnd() throws(LedgerError) {
        do { try json.readEnd() } catch { throw Self.corrupt(error.description) }
    }

    private static func corrupt(_ what: String) -> LedgerError { .corrupt("not a ledger: \(what)") }

    private static func missing(_ key: String, at path: String) -> LedgerError {
        corrupt("missing key \(LedgerSnapshot.quoted(key))" + (path.isEmpty ? "" : " at \(LedgerSnapshot.quoted(path))"))
    }

    private static func givenTwice(_ key: String, at path: String) -> LedgerError {
        let place = path.isEmpty ? "" : " in \(LedgerSnapshot.quoted(path))"
        return corrupt("the key \(LedgerSnapshot.quoted(key)) is given twice\(place) (which value counts would be a guess)")
    }
}
