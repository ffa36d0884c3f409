extension DurationDistribution {
    /// The largest value a draw can take (the tail cap for exponential).
    var upperBound: Int64 {
        switch self {
        case .constant(let ms): return ms
        case .uniform(_, let high): return high
        case .exponential(let mean): return mean * 100
        }
    }
}
