import AdRules

/// A 1-based line and column in a text file; columns count characters, not bytes.
public struct SourcePosition: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The 1-based line.
    public var line: Int
    /// The 1-based column, in characters.
    public var column: Int

    /// Creates a position from 1-based line and column numbers.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "\(line):\(column)" }
}

/// The span of a node or token in a file, from its first character to just past its last.
public struct SourceRange: Sendable, Hashable, Codable {
    /// Where the span starts.
    public var start: SourcePosition
    /// Where the span ends (exclusive).
    public var end: SourcePosition

    /// Creates a range from its two ends.
    public init(start: SourcePosition, end: SourcePosition) {
        self.start = start
        self.end = end
    }

    /// A range that covers a single position.
    public init(at position: SourcePosition) {
        self.start = position
        self.end = position
    }

    /// The start of a file.
    public static let fileStart = SourceRange(at: SourcePosition(line: 1, column: 1))
}

extension SourceLocation {
    /// Creates a location from a file and a position in it.
    public init(file: String, position: SourcePosition) {
        self.init(file: file, line: position.line, column: position.column)
    }

    /// The line and column as a position.
    public var position: SourcePosition { SourcePosition(line: line, column: column) }
}
