/// A placement's id as the app names it: the build plugin generates one constant per placement
/// (`Placements.appOpen`), so a misspelt id is a compile error; a string literal works too.
public struct PlacementID: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The id as written in the rule files.
    public var rawValue: String

    /// Creates an id from its text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates an id from its text, for ids held in a `String`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public init(stringLiteral value: String) { rawValue = value }

    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}
