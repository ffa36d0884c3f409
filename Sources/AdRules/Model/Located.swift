/// A setting's value together with where in the rule files it was set.
public struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The value.
    public var value: Value
    /// Where the setting's key was written (or, for a built-in default, the placement that inherits it): what a
    /// deny reason points at (rules.md §7, "the source location of the YAML key that caused it").
    public var location: SourceLocation
    /// The line and column of the value itself, in the same file, when the tooling read it from YAML. A compiled
    /// policy keeps only the key's location, which is all a decision needs.
    private var valuePosition: (line: Int, column: Int)?

    /// Creates a located value.
    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }

    /// Where the value itself was written: what a lint finding about the value points at (`daily_cap: 0` at the
    /// `0`). The key's location when only that is known.
    package var valueLocation: SourceLocation {
        guard let valuePosition else { return location }
        return location.moved(line: valuePosition.line, column: valuePosition.column)
    }

    /// The same value located at its key, written at `key`; where the value was written is kept for lint.
    package func keyed(at key: SourceLocation) -> Located {
        var keyed = self
        keyed.location = key
        keyed.valuePosition = (valueLocation.line, valueLocation.column)
        return keyed
    }

    /// The same locations with a transformed value.
    package func map<T: Sendable & Hashable>(_ transform: (Value) -> T) -> Located<T> {
        var mapped = Located<T>(transform(value), at: location)
        mapped.valuePosition = valuePosition
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
