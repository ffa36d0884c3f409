/// A position in a named file: what a reason or a diagnostic points at.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file path, as it was given.
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column, in characters.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}
