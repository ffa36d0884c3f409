/// A file's path, held once and shared by every location in that file.
///
/// Loading interns one of these per file, so a policy of 50,000 placements keeps each path once
/// instead of once per setting; a location is this reference and two 32-bit numbers.
package final class SourceFile: Sendable {
    /// The path, as it was given.
    package let path: String
    /// The path's hash, worked out once: a location hashes this rather than the path's bytes (lint hashes the locations
    /// of a large policy's settings by the hundred thousand).
    let pathHash: Int

    /// Creates the shared name of one file.
    package init(_ path: String) {
        self.path = path
        pathHash = path.hashValue
    }
}

/// A position in a named file: what a reason or a diagnostic points at.
///
/// Lines and columns are kept in 32 bits: a value outside `0...UInt32.max` is clamped to that range.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    private var source: SourceFile
    private var storedLine: UInt32
    private var storedColumn: UInt32

    /// The file path, as it was given.
    public var file: String {
        get { source.path }
        set { source = SourceFile(newValue) }
    }

    /// The shared name of the file: locations a loader made in one file hold the same one.
    package var sourceFile: SourceFile { source }

    /// The 1-based line.
    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = UInt32(clamping: newValue) }
    }

    /// The 1-based column, in characters.
    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = UInt32(clamping: newValue) }
    }

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.init(file: SourceFile(file), line: line, column: column)
    }

    /// Creates a location in a file whose name is shared with other locations.
    package init(file: SourceFile, line: Int, column: Int) {
        source = file
        storedLine = UInt32(clamping: line)
        storedColumn = UInt32(clamping: column)
    }

    public var description: String { "\(file):\(line):\(column)" }

    public static func == (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        lhs.storedLine == rhs.storedLine && lhs.storedColumn == rhs.storedColumn
            && (lhs.source === rhs.source || lhs.source.path == rhs.source.path)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(source.pathHash)
        hasher.combine(storedLine)
        hasher.combine(storedColumn)
    }

    private enum CodingKeys: String, CodingKey {
        case file, line, column
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            file: try c.decode(String.self, forKey: .file), line: try c.decode(Int.self, forKey: .line),
            column: try c.decode(Int.self, forKey: .column))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        try c.encode(line, forKey: .line)
        try c.encode(column, forKey: .column)
    }
}
