import AdRules

/// A 1-based line and column in a text file; columns count characters, not bytes.
///
/// Both are kept in 32 bits (a file is at most ``YAMLReader/maxBytes``, so no line or column of one comes near the
/// limit; a value outside `Int32`'s range is clamped to it): a node read whole keeps two of these, and a scenario file
/// of millions of values keeps millions of nodes.
public struct SourcePosition: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    private var storedLine: Int32
    private var storedColumn: Int32

    /// The 1-based line.
    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = Int32(clamping: newValue) }
    }

    /// The 1-based column, in characters.
    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = Int32(clamping: newValue) }
    }

    /// Creates a position from 1-based line and column numbers.
    public init(line: Int, column: Int) {
        storedLine = Int32(clamping: line)
        storedColumn = Int32(clamping: column)
    }

    /// Creates a position from numbers already in 32 bits (a libyaml mark's, in a file of at most ``YAMLReader/maxBytes``).
    init(line: Int32, column: Int32) {
        storedLine = line
        storedColumn = column
    }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.storedLine, lhs.storedColumn) < (rhs.storedLine, rhs.storedColumn)
    }

    public var description: String { "\(line):\(column)" }

    private enum CodingKeys: String, CodingKey {
        case line, column
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(line: try c.decode(Int.self, forKey: .line), column: try c.decode(Int.self, forKey: .column))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(line, forKey: .line)
        try c.encode(column, forKey: .column)
    }
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
