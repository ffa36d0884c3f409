import Foundation

extension Policy {
    /// The largest compiled policy accepted, in bytes.
    public static let maxCompiledBytes = 64 * 1024 * 1024
    /// The `format` a compiled policy names itself by: what the tools tell a compiled policy given in another file's
    /// place by.
    package static let compiledFormatName = CompiledPolicyRecord.formatName
    /// The deepest nesting of arrays and objects a compiled policy is read to.
    package static var maxCompiledDepth: Int { RecordReader.maxDepth }

    /// Loads a compiled policy (the JSON `adrules compile` writes), checking everything: the bytes may come
    /// from a server.
    /// - Parameter compiled: the document's bytes.
    /// - Throws: ``CompiledPolicyError`` saying what is wrong; nothing is loaded then.
    public init(compiled: Data) throws {
        guard compiled.count <= Policy.maxCompiledBytes else {
            // The tooling reads one byte past the limit: a document of exactly one byte more may be larger still.
            let size = compiled.count == Policy.maxCompiledBytes + 1 ? "more than \(Policy.maxCompiledBytes)" : "\(compiled.count)"
            throw CompiledPolicyError("the document is \(size) bytes; at most \(Policy.maxCompiledBytes) (64 MiB) are accepted")
        }
        let bytes = [UInt8](compiled)
        // A document saved again by an editor that adds a byte-order mark is no longer the one adrules wrote.
        if ByteOrderMark.starts(bytes) {
            throw CompiledPolicyError(
                "the document starts with a byte-order mark (UTF-16 or UTF-32, or UTF-8 with a BOM), which adrules compile never writes: compile it again, or save it as UTF-8 without a BOM",
                offset: 0)
        }
        let record: CompiledPolicyRecord
        do {
            record = try CompiledPolicyRecord(reading: bytes)
        } catch {
            // Bytes that are not JSON, or a document of another kind or version, get that plain answer rather
            // than the error inside that the records met first: the whole text is checked then.
            let header = try CompiledPolicyHeader(bytes)
            try header.check()
            throw error
        }
        try CompiledPolicyHeader(format: record.format, version: record.version).check()
        self = try CompiledPolicyReader(record).policy()
    }

    /// Loads a compiled policy from a file: a regular file of at most ``maxCompiledBytes``, read without blocking (a
    /// FIFO or a device at the path is an error at once, not a hang).
    /// - Throws: ``CompiledPolicyError`` for a bad document or one too large, ``PolicyFileError`` when the file is
    ///   missing, cannot be read or is not a regular file.
    public init(compiledContentsOf url: URL) throws {
        guard url.isFileURL else { throw PolicyFileError(path: url.absoluteString, reason: "\(url.absoluteString) is not a file URL: download it, then load its bytes with Policy(compiled:)") }
        let data: Data
        do {
            data = try BoundedFile.read(url.path, limit: Policy.maxCompiledBytes)
        } catch {
            switch error {
            case .missing, .notRegular, .system, .nulInPath: throw PolicyFileError(path: url.path, reason: BoundedFile.reason(error, path: url.path))
            case .tooLarge(let size):
                throw CompiledPolicyError("the document is \(size.map(String.init) ?? "more than \(Policy.maxCompiledBytes)") bytes; at most \(Policy.maxCompiledBytes) (64 MiB) are accepted")
            }
        }
        try self.init(compiled: data)
    }

    /// The compiled document of this policy.
    /// - Parameters:
    ///   - relativePath: maps each rule file's path to the one recorded (relative to the policy root).
    ///   - sourceDigest: the digest of the source files, `sha256:<hex>`.
    ///   - generator: what wrote the document.
    /// - Parameter maxBytes: a document that grows past this stops growing: it is refused for its size, and writing
    ///   the rest of a 340 MB one took 4 s and 900 MB.
    package func compiledDocument(relativePath: (String) -> String, sourceDigest: String, generator: String, maxBytes: Int = .max) throws -> Data {
        var writer = CompiledPolicyWriter(policy: self, relativePath: relativePath)
        var bytes = try writer.document(sourceDigest: sourceDigest, generator: generator, maxBytes: maxBytes)
        bytes.append(0x0A)
        return Data(bytes)
    }
}

/// Why the file of a compiled policy could not be read (the document itself was not looked at); the policy in force
/// stays in force.
public struct PolicyFileError: Error, LocalizedError, Sendable, Hashable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What is wrong, naming the file.
    public var reason: String

    /// Creates the error for the file at `path`, saying why it cannot be loaded.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot load the compiled policy: \(reason)" }
    public var errorDescription: String? { description }
}

/// What a document says it is: read from its records, or, when they cannot be read, in a pass over the
/// whole text that also checks that it is one JSON object nested at most ``RecordReader/maxDepth`` levels.
struct CompiledPolicyHeader {
    /// The format named, nil when it is missing or not a string.
    var format: String?
    /// The version, nil when it is missing or not a whole number.
    var version: Int?

    init(format: String?, version: Int?) {
        self.format = format
        self.version = version
    }

    /// Reads the two fields in a pass over the whole text.
    /// - Throws: ``CompiledPolicyError`` when the bytes are not JSON, or not an object.
    init(_ bytes: [UInt8]) throws(CompiledPolicyError) {
        var json = JSONReader(bytes, maxDepth: RecordReader.maxDepth)
        var isObject = false
        do {
            if try json.peek() == .object {
                isObject = true
                try json.beginObject()
                while let key = try json.nextKey() {
                    switch (key, try json.peek()) {
                    case ("format", .string): format = try json.readString()
                    case ("version", .number):
                        if case .int(let number) = try json.readNumber() { version = number } else { version = nil }
                    default: try json.skipValue()
                    }
                }
            } else {
                try json.skipValue()
            }
            try json.readEnd()
        } catch {
            throw CompiledPolicyError.notJSON(error)
        }
        guard isObject else {
            throw CompiledPolicyError("not valid JSON, or not a JSON object; the file may be truncated: download or compile it again")
        }
    }

    /// Checks that the document is a compiled policy of the version this runtime reads.
    func check() throws(CompiledPolicyError) {
        guard format == CompiledPolicyRecord.formatName else {
            throw CompiledPolicyError(
                path: "format",
                "this is not a compiled policy (\"format\" is not \"\(CompiledPolicyRecord.formatName)\"): compile rule files with `adrules compile`")
        }
        guard let version else {
            throw CompiledPolicyError(
                path: "version",
                "the version is missing or not a whole number (this runtime reads version \(CompiledPolicyRecord.currentVersion)): compile with a matching adrules")
        }
        guard version == CompiledPolicyRecord.currentVersion else {
            throw CompiledPolicyError(
                path: "version",
                "version \(version) is not supported by this runtime (it reads version \(CompiledPolicyRecord.currentVersion)): compile with a matching adrules",
                kind: .unsupported)
        }
    }
}
