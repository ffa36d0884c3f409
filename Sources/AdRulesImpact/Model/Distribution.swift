/// A count drawn afresh each time: cold starts or resumes a day, sessions before the simulation.
public enum CountDistribution: Sendable, Hashable {
    /// Always this many.
    case constant(Int)
    /// A whole number in `low...high`, each equally likely.
    case uniform(Int, Int)
    /// Poisson with this mean.
    case poisson(Double)

    /// The mean of the distribution.
    public var mean: Double {
        switch self {
        case .constant(let n): return Double(n)
        case .uniform(let low, let high): return Double(low + high) / 2
        case .poisson(let mean): return mean
        }
    }

    func draw(_ random: inout RandomSource) -> Int {
        switch self {
        case .constant(let n): return n
        case .uniform(let low, let high): return Int(random.integer(Int64(low), Int64(high)))
        case .poisson(let mean): return random.poisson(mean: mean)
        }
    }
}

/// A length of time drawn afresh each time, in milliseconds.
public enum DurationDistribution: Sendable, Hashable {
    /// Always this long.
    case constant(Int64)
    /// Any length in `low...high`, each millisecond equally likely.
    case uniform(Int64, Int64)
    /// Exponential with this mean (memoryless: the gaps of a Poisson process).
    case exponential(Int64)

    /// The mean, in milliseconds.
    public var mean: Double {
        switch self {
        case .constant(let ms): return Double(ms)
        case .uniform(let low, let high): return Double(low + high) / 2
        case .exponential(let mean): return Double(mean)
        }
    }

    func draw(_ random: inout RandomSource) -> Int64 {
        switch self {
        case .constant(let ms): return ms
        case .uniform(let low, let high): return random.integer(low, high)
        case .exponential(let mean):
            let value = random.exponential(mean: Double(mean))
            // A draw far in the tail is capped at 100 means: it changes no figure and keeps times in range.
            return Int64(min(value, Double(mean) * 100).rounded())
        }
    }
}

/// A real number drawn afresh each time (days since install).
public enum NumberDistribution: Sendable, Hashable {
    /// Always this value.
    case constant(Double)
    /// Any value in `low...high`.
    case uniform(Double, Double)
    /// Exponential with this mean.
    case exponential(Double)
    /// Poisson with this mean (whole numbers).
    case poisson(Double)

    /// The mean of the distribution.
    public var mean: Double {
        switch self {
        case .constant(let x): return x
        case .uniform(let low, let high): return (low + high) / 2
        case .exponential(let mean), .poisson(let mean): return mean
        }
    }

    func draw(_ random: inout RandomSource) -> Double {
        switch self {
        case .constant(let x): return x
        case .uniform(let low, let high): return low + (high - low) * random.unit()
        case .exponential(let mean): return min(random.exponential(mean: mean), mean * 100)
        case .poisson(let mean): return Double(random.poisson(mean: mean))
        }
    }
}
