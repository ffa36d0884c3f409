import Foundation

extension Policy {
    /// The largest compiled policy accepted, in bytes.
    public static let maxCompiledBytes = 64 * 1024 * 1024

    /// Loads a compiled policy (the JSON `adrules compile` writes), checking everything: the bytes may come
    /// from a server.
    /// - Parameter compiled: the document's bytes.
    /// - Throws: ``CompiledPolicyError`` saying what is wrong; nothing is loaded then.
    public init(compiled: Data) throws {
        guard compiled.count <= Policy.maxCompiledBytes else {
            throw CompiledPolicyError("the document is \(compiled.count) bytes; at most \(Policy.maxCompiledBytes) are accepted")
        }
        // One parse, with a depth limit: nothing recurses deeper than that into bytes from a server.
        let document: JSONValue
        do {
            document = try JSONValue.parse([UInt8](compiled), maxDepth: 160)
        } catch {
            throw CompiledPolicyError("not valid JSON (\(error)); the file may be truncated: download or compile it again")
        }
        // The format and version first, so that a document of another kind or version gets a plain answer.
        let header: CompiledPolicyHeader
        do {
            header = try JSONValueDecoder.decode(CompiledPolicyHeader.self, from: document)
        } catch {
            throw CompiledPolicyError("not valid JSON, or not a JSON object; the file may be truncated: download or compile it again")
        }
        guard header.format == CompiledPolicyRecord.formatName else {
            throw CompiledPolicyError(
                path: "format",
                "this is not a compiled policy (\"format\" is not \"\(CompiledPolicyRecord.formatName)\"): compile rule files with `adrules compile`")
        }
        guard header.version == CompiledPolicyRecord.currentVersion else {
            throw CompiledPolicyError(
                path: "version",
                "version \(header.version.map(String.init) ?? "null") is not supported by this runtime (it reads version \(CompiledPolicyRecord.currentVersion)): compile with a matching adrules")
        }
        let record: CompiledPolicyRecord
        do {
            record = try JSONValueDecoder.decode(CompiledPolicyRecord.self, from: document)
        } catch let error as DecodingError {
            throw CompiledPolicyError.describing(error)
        } catch let error as CompiledPolicyError {
            throw error
        } catch {
            throw CompiledPolicyError("\(error)")
        }
        self = try CompiledPolicyReader(record).policy()
    }

    /// Loads a compiled policy from a file.
    /// - Throws: ``CompiledPolicyError`` for a bad document, or the file system's error when it cannot be read.
    public init(compiledContentsOf url: URL) throws {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let data = try handle.read(upToCount: Policy.maxCompiledBytes + 1) ?? Data()
        try self.init(compiled: data)
    }

    /// The compiled document of this policy.
    /// - Parameters:
    ///   - relativePath: maps each rule file's path to the one recorded (relative to the policy root).
    ///   - sourceDigest: the digest of the source files, `sha256:<hex>`.
    ///   - generator: what wrote the document.
    package func compiledDocument(relativePath: (String) -> String, sourceDigest: String, generator: String) throws -> Data {
        let record = CompiledPolicyWriter(policy: self, relativePath: relativePath).record(sourceDigest: sourceDigest, generator: generator)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(record)
        data.append(0x0A)
        return data
    }
}

extension CompiledPolicyError {
    /// A decoding error in words, with the path of the bad value.
    static func describing(_ error: DecodingError) -> CompiledPolicyError {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
                .trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return CompiledPolicyError("not valid JSON; the file may be truncated: download or compile it again")
            }
            return CompiledPolicyError(path: path(context.codingPath), context.debugDescription)
        case .keyNotFound(let key, let context):
            return CompiledPolicyError(path: path(context.codingPath), "\"\(key.stringValue)\" is missing")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return CompiledPolicyError(path: path(context.codingPath), "expected \(type): \(context.debugDescription)")
        @unknown default:
            return CompiledPolicyError("\(error)")
        }
    }
}

/// The two fields read before the rest of a compiled document.
struct CompiledPolicyHeader: Decodable {
    var format: String?
    var version: Int?
}
