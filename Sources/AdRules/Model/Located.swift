/// A setting's value together with where in the rule files it was set.
public struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The value.
    public var value: Value
    /// Where the value itself was written, relative to `location`, when the tooling read it from YAML: the column
    /// in the low 20 bits and the lines below the key in the high 12; 0 when not known (a compiled policy keeps only
    /// the key's location, which is all a decision needs). One 32-bit number, which fits in the padding after most
    /// values: a policy of 50,000 placements holds a million of these.
    private var valueOffset: UInt32 = 0
    /// Where the setting's key was written (or, for a built-in default, the placement that inherits it): what a
    /// deny reason points at (rules.md §7, "the source location of the YAML key that caused it").
    public var location: SourceLocation

    /// Creates a located value.
    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }

    /// Where the value itself was written: what a lint finding about the value points at (`daily_cap: 0` at the
    /// `0`). The key's location when that is all that is known, or the value is 4,096 lines or more below the key
    /// or past column 1,048,575.
    package var valueLocation: SourceLocation {
        guard valueOffset != 0 else { return location }
        return location.moved(line: location.line + Int(valueOffset >> 20), column: Int(valueOffset & 0xF_FFFF))
    }

    /// The same value located at its key, written at `key`; where the value was written is kept for lint.
    package func keyed(at key: SourceLocation) -> Located {
        let value = valueLocation
        var keyed = self
        keyed.location = key
        let lines = value.line - key.line
        keyed.valueOffset = (0..<4096).contains(lines) && (1...0xF_FFFF).contains(value.column)
            ? UInt32(lines) << 20 | UInt32(value.column) : 0
        return keyed
    }

    /// The same locations with a transformed value.
    package func map<T: Sendable & Hashable>(_ transform: (Value) -> T) -> Located<T> {
        var mapped = Located<T>(transform(value), at: location)
        mapped.valueOffset = valueOffset
        return mapped
    }

    // Two values written alike are equal wherever the tooling read their values: a compiled policy, which keeps
    // only the keys' locations, equals the YAML policy it was compiled from.
    public static func == (lhs: Located, rhs: Located) -> Bool { lhs.value == rhs.value && lhs.location == rhs.location }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
        hasher.combine(location)
    }
}
