extension FixedWidthInteger where Self: SignedInteger {
    /// The sum, or the nearest representable value when it would overflow: numbers from ledgers and scenarios are not
    /// trusted to stay small, and a trap would crash the app at every launch.
    package func addingSaturated(_ other: Self) -> Self {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// The difference, or the nearest representable value when it would overflow.
    package func subtractingSaturated(_ other: Self) -> Self {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other > 0 ? .min : .max) : difference
    }
}
