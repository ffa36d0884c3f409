import AdRules
@testable import AdRulesCompiler
import Testing

/// Parts of lint that take short cuts on a large policy, held to what the long way gives.
@Suite("lint parts")
struct LintPartsTests {
    /// What `Suppressions.holdsDirective` must answer: a `#`, any spaces, then the directive, anywhere in the bytes.
    static func holdsDirectiveByteByByte(_ bytes: [UInt8]) -> Bool {
        let directive = Array("adrules:disable-next-line".utf8)
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "#") {
            var j = i + 1
            while j < bytes.count, bytes[j] == UInt8(ascii: " ") { j += 1 }
            if j + directive.count <= bytes.count, Array(bytes[j..<(j + directive.count)]) == directive { return true }
        }
        return false
    }

    static func holdsDirective(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBufferPointer { Suppressions.holdsDirective($0) }
    }

    @Test func theDirectiveIsFoundAfterAnyHash() {
        #expect(!Self.holdsDirective(""))
        #expect(!Self.holdsDirective("#"))
        #expect(!Self.holdsDirective("adrules:disable-next-line cap/zero"))
        #expect(!Self.holdsDirective("# adrules:disable-next-lin"))
        #expect(!Self.holdsDirective("#x adrules:disable-next-line"))
        #expect(Self.holdsDirective("# adrules:disable-next-line"))
        #expect(Self.holdsDirective("#adrules:disable-next-line cap/zero"))
        #expect(Self.holdsDirective("a: 1\n### adrules:disable-next-line\n"))
        #expect(Self.holdsDirective("# not this one\n  # adrules:disable-next-line cap/zero\n"))
    }

    /// Random texts of hashes, spaces, line breaks and pieces of the directive: `memchr`'s walk from `#` to `#` must
    /// agree with a byte-by-byte scan on each.
    @Test func theDirectiveScanAgreesWithAByteLoop() {
        var generator = SplitMix64(seed: 15)
        let pieces = ["#", "#", " ", "  ", "\n", "x", "adrules:disable-next-line", "adrules:disable-next-lin", "adrules:", "disable-next-line", "é"]
        var found = 0
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            let expected = Self.holdsDirectiveByteByByte(Array(text.utf8))
            #expect(Self.holdsDirective(text) == expected, "\(text.debugDescription)")
            if expected { found += 1 }
        }
        // Both answers come up often enough for the comparison to mean something.
        #expect(found > 300 && found < 2_700, "\(found)")
    }

    /// A placement's caps are compared with other placements' only when all of them come from `defaults:`: one value
    /// of its own (a cap, or the interval beside a daily cap) sets it apart; no cap at all leaves nothing to check.
    @Test func capsAreComparedOnlyWhenAllComeFromDefaults() throws {
        let text = """
            version: 1
            defaults:
              hourly_cap: 0
              daily_cap: 2
              min_interval: 1m
            placements:
              a: {format: interstitial}
              b: {format: interstitial, daily_cap: 5}
              c: {format: interstitial, caps: [{max: 1, window: 10m}]}
              d: {format: interstitial, min_interval: 2m}

            """
        let policy = PolicyLoader.load(texts: [("p.yaml", text)]).policy
        func placement(_ id: String) throws -> Placement { try #require(policy.placements.first { $0.id == id }) }
        let a = try placement("a")
        let defaultsWritten: Set<AdRules.SourceLocation> = [
            try #require(a.hourlyCap?.location), try #require(a.dailyCap?.location), a.minInterval.location,
        ]
        #expect(SemanticLint.CapsWritten.source(of: a, defaultsWritten: defaultsWritten) == .defaults)
        #expect(SemanticLint.CapsWritten.source(of: try placement("b"), defaultsWritten: defaultsWritten) == .own)
        #expect(SemanticLint.CapsWritten.source(of: try placement("c"), defaultsWritten: defaultsWritten) == .own)
        // Its caps from `defaults:`, its interval its own: its daily cap is compared with its own interval.
        #expect(SemanticLint.CapsWritten.source(of: try placement("d"), defaultsWritten: defaultsWritten) == .own)
        // With no `defaults:`, every cap is the placement's own.
        #expect(SemanticLint.CapsWritten.source(of: a, defaultsWritten: []) == .own)

        let plain = PolicyLoader.load(texts: [("q.yaml", "version: 1\nplacements:\n  n: {format: banner}\n  m: {format: banner, session_cap: 2}\n")]).policy
        let n = try #require(plain.placements.first { $0.id == "n" })
        let m = try #require(plain.placements.first { $0.id == "m" })
        #expect(SemanticLint.CapsWritten.source(of: n, defaultsWritten: defaultsWritten) == .none)
        #expect(SemanticLint.CapsWritten.source(of: m, defaultsWritten: defaultsWritten) == .own)
    }

    /// Placements that take every cap from `defaults:` get each cap finding once, however many there are.
    @Test func capFindingsFromDefaultsAreSaidOnce() throws {
        var text = "version: 1\ndefaults:\n  hourly_cap: 9\n  daily_cap: 3\n  min_interval: 1m\nplacements:\n"
        for i in 0..<50 { text += "  p\(i): {format: interstitial}\n" }
        let findings = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics.filter { $0.rule == "cap/unreachable" }
        #expect(findings.count == 1, "\(findings.map(\.message))")
        #expect(findings.first?.range.start.line == 3)
    }

    /// Below a stricter cap of 0 a cap never binds (cli.md's `hourly_cap >= daily_cap`), and its advice is not to lower
    /// it below 0: the cap is not needed, or the 0 is the mistake.
    @Test func aCapBelowAZeroCapIsToldNotToLowerIt() {
        let text = "version: 1\nplacements:\n  a:\n    format: interstitial\n    daily_cap: 0\n    hourly_cap: 3\n    caps: [{max: 2, window: 10m}]\n"
        let found = PolicyLoader.load(texts: [("p.yaml", text)]).diagnostics
        #expect(found.map(\.rule).sorted() == ["cap/unreachable", "cap/unreachable", "cap/zero"], "\(found)")
        let hourly = found.first { $0.rule == "cap/unreachable" && $0.range.start.line == 6 }
        #expect(
            hourly?.message
                == "hourly_cap 3 can never bind: daily_cap is 0, so an hour never holds more shows than that; remove hourly_cap, or raise the cap of 0 if ads should show here (a cap of 0 allows none)")
        let window = found.first { $0.rule == "cap/unreachable" && $0.range.start.line == 7 }
        #expect(window?.message.hasPrefix("the cap of 2 in 10m can never bind: daily_cap 0 is stricter") == true, "\(String(describing: window))")
    }
}
