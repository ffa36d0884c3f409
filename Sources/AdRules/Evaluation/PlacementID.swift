/// A placement's id as the app names it: the build plugin generates one constant per placement
/// (`Placements.appOpen`), so a misspelt id is a compile error; a string literal works too.
public struct PlacementID: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The id as written in the rule files.
    public var rawValue: String
    /// Where the id sat in the policy it was generated from or resolved against, or -1: a hint that spares the
    /// engine a hash look-up. It is checked against the id on every use, so an id from an older policy (one
    /// updated from a server since) still finds its placement. It takes no part in equality, hashing or coding.
    public let slot: Int32

    /// Creates an id from its text.
    public init(rawValue: String) {
        self.rawValue = rawValue
        slot = -1
    }

    /// Creates an id with the index it has in a policy's placements, as the build plugin generates it; a wrong
    /// slot costs only the hash look-up it was meant to save.
    public init(rawValue: String, slot: Int) {
        self.rawValue = rawValue
        self.slot = Int32(clamping: slot)
    }

    /// Creates an id from its text, for ids held in a `String`.
    public init(_ rawValue: String) { self.init(rawValue: rawValue) }

    /// Creates an id from a string literal, as in `let id: PlacementID = "app_open"`.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    public init(from decoder: any Decoder) throws { self.init(rawValue: try decoder.singleValueContainer().decode(String.self)) }

    public static func == (lhs: PlacementID, rhs: PlacementID) -> Bool { lhs.rawValue == rhs.rawValue }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}
