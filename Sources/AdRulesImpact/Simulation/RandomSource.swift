import AdRulesCompiler

/// xoshiro256**: the generator each simulated user draws from.
///
/// A user's numbers depend only on (seed, user index, stream), never on the thread that plays the
/// user or on the other users of its shard, so every thread count and sharding gives the same figures.
/// Every draw uses integer and IEEE arithmetic only (no libm), so every machine draws the same numbers.
struct RandomSource {
    private var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    /// The streams of one user: behaviour (visits, times, attributes) and chance (network, ad lengths, choices).
    enum Stream: UInt64 {
        case behaviour = 1
        case chance = 2
    }

    init(seed: UInt64, user: Int, stream: Stream) {
        var mixer = SplitMix64(seed: seed)
        let base = mixer.next()
        var seeder = SplitMix64(seed: base ^ (UInt64(truncatingIfNeeded: user) &* 0xD1B5_4A32_D192_ED03) ^ (stream.rawValue &* 0x8CB9_2BA7_2F3D_8DD7))
        s0 = seeder.next()
        s1 = seeder.next()
        s2 = seeder.next()
        s3 = seeder.next()
        if s0 | s1 | s2 | s3 == 0 { s0 = 1 }
    }

    /// A generator seeded from one word of another generator (each visit draws its own).
    init(derivedFrom word: UInt64) {
        var seeder = SplitMix64(seed: word)
        s0 = seeder.next()
        s1 = seeder.next()
        s2 = seeder.next()
        s3 = seeder.next()
        if s0 | s1 | s2 | s3 == 0 { s0 = 1 }
    }

    @inline(__always)
    private static func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

    /// The next 64 random bits.
    @inline(__always)
    mutating func next() -> UInt64 {
        let result = RandomSource.rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = RandomSource.rotl(s3, 45)
        return result
    }

    /// A number in [0, 1) with 53 random bits.
    @inline(__always)
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Whether an event of probability `p` happens.
    @inline(__always)
    mutating func chance(_ p: Double) -> Bool {
        if p <= 0 { return false }
        if p >= 1 { return true }
        return unit() < p
    }

    /// A whole number in `low...high` (inclusive).
    mutating func integer(_ low: Int64, _ high: Int64) -> Int64 {
        guard high > low else { return low }
        let span = UInt64(high - low) &+ 1
        if span == 0 { return low &+ Int64(bitPattern: next()) }
        // Lemire's multiply-shift; the tiny bias is irrelevant for simulation and keeps draws branch-free.
        let product = next().multipliedFullWidth(by: span)
        return low + Int64(product.high)
    }

    /// A draw of the exponential distribution with this mean.
    mutating func exponential(mean: Double) -> Double {
        // 1 - unit() is in (0, 1], so the logarithm is finite.
        -mean * DeterministicMath.log(1 - unit())
    }

    /// A draw of the Poisson distribution with this mean (Knuth's product method, in pieces of at most 30).
    mutating func poisson(mean: Double) -> Int {
        guard mean > 0 else { return 0 }
        var remaining = mean
        var total = 0
        while remaining > 0 {
            let piece = min(remaining, 30)
            remaining -= piece
            let limit = DeterministicMath.exp(-piece)
            var product = unit()
            var count = 0
            while product > limit {
                count += 1
                product *= unit()
            }
            total += count
        }
        return total
    }
}

/// `log` and `exp` from IEEE additions, multiplications and divisions only, so every platform's
/// libm gives way to the same bits: the figures of a seed are the same on every machine.
enum DeterministicMath {
    static let ln2 = 0.693_147_180_559_945_3

    /// The natural logarithm of a positive finite number.
    static func log(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return x == 0 ? -.infinity : .nan }
        // x = m * 2^e with m in [1/sqrt2, sqrt2); ln(m) = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172.
        var (e, m) = exponentAndSignificand(x)
        if m > 1.414_213_562_373_095 {
            m *= 0.5
            e += 1
        }
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        // 2s (1 + s^2/3 + s^4/5 + ... + s^24/25): the next term is below 1e-18. Horner's rule, written out: the
        // constants are folded when compiling and the order of operations is fixed.
        var series = 1.0 / 25
        series = series * s2 + 1.0 / 23
        series = series * s2 + 1.0 / 21
        series = series * s2 + 1.0 / 19
        series = series * s2 + 1.0 / 17
        series = series * s2 + 1.0 / 15
        series = series * s2 + 1.0 / 13
        series = series * s2 + 1.0 / 11
        series = series * s2 + 1.0 / 9
        series = series * s2 + 1.0 / 7
        series = series * s2 + 1.0 / 5
        series = series * s2 + 1.0 / 3
        series = series * s2 + 1.0
        return e * ln2 + 2 * s * series
    }

    /// `x.exponent` and `x.significand` of a positive finite number, read from the bits of a normal one (the properties
    /// handle subnormals too, at several times the cost: this runs for every exponential draw).
    static func exponentAndSignificand(_ x: Double) -> (exponent: Double, significand: Double) {
        guard x.isNormal else { return (Double(x.exponent), x.significand) }
        let bits = x.bitPattern
        return (Double(Int((bits >> 52) & 0x7FF) - 1023), Double(bitPattern: bits & 0x000F_FFFF_FFFF_FFFF | 0x3FF0_0000_0000_0000))
    }

    /// e to the power x, for |x| up to a few hundred.
    static func exp(_ x: Double) -> Double {
        guard x.isFinite else { return x > 0 ? .infinity : 0 }
        if x < -700 { return 0 }
        if x > 700 { return .infinity }
        let k = (x / ln2).rounded()
        // ln 2 in two parts (Cody and Waite): k * ln2High is exact, so r keeps its precision for large k.
        let r = (x - k * 0.693_147_180_369_123_8) - k * 1.908_214_929_270_587_7e-10
        var term = 1.0
        var sum = 1.0
        var n = 1.0
        while n < 24 {
            term *= r / n
            sum += term
            n += 1
        }
        return sum * Double(sign: .plus, exponent: Int(k), significand: 1)
    }
}
