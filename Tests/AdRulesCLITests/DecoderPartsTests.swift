import AdRules
@testable import AdRulesCompiler
import AdRulesYAML
import Testing

/// Small parts of the decoders that have a fast path beside a general one.
@Suite("decoder parts")
struct DecoderPartsTests {
    /// Whole numbers read as the YAML 1.2 core schema reads them, at most 18 decimal digits: plain digits alone take a
    /// short path, everything else the general one.
    @Test(arguments: [
        ("0", 0), ("7", 7), ("007", 7), ("30", 30), ("999999999999999999", 999_999_999_999_999_999),
        ("+5", 5), ("-5", -5), ("0x1F", 31), ("0o17", 15), ("08", 8),
    ])
    func wholeNumbersAreRead(_ text: String, _ value: Int) {
        #expect(FieldReader.intValue(YAMLScalar(value: text, style: .plain)) == value)
    }

    @Test(arguments: ["", "1000000000000000000", "5a", "1_000", "٣", "1.5", " 5", "0x", "+"])
    func otherTextIsNoWholeNumber(_ text: String) {
        #expect(FieldReader.intValue(YAMLScalar(value: text, style: .plain)) == nil)
    }

    /// The short path gives what the core schema's path gives (its digits, at most 18 characters, `Int(_:radix:)`), on
    /// strings of 1 to 20 digits with and without leading zeros and signs.
    @Test func theShortPathAgreesWithTheCoreSchema() {
        var generator = SystemRandomNumberGenerator()
        var texts = ["0", "00", "000000000000000000", "0000000000000000001"]
        for length in 1...20 {
            for _ in 0..<50 {
                var text = String((0..<length).map { _ in "0123456789".randomElement(using: &generator)! })
                if Bool.random(using: &generator) { text = "0" + text }
                texts.append(text)
                texts.append("+" + text)
                texts.append("-" + text)
            }
        }
        for text in texts {
            let scalar = YAMLScalar(value: text, style: .plain)
            let general: Int? = scalar.coreSchemaIntDigits.flatMap { digits, radix in
                let length = digits.utf8.first == UInt8(ascii: "+") ? digits.utf8.count - 1 : digits.utf8.count
                return length <= (radix == 16 ? 15 : radix == 8 ? 20 : 18) ? Int(digits, radix: radix) : nil
            }
            #expect(FieldReader.intValue(scalar) == general, "\(text)")
        }
    }

    @Test func aQuotedNumberIsText() {
        #expect(FieldReader.intValue(YAMLScalar(value: "5", style: .doubleQuoted)) == nil)
        #expect(FieldReader.intValue(YAMLScalar(value: "5", style: .singleQuoted)) == nil)
    }

    /// `keyIndex(of:)` compares lengths before texts, which is right only for names no other text equals in Unicode's
    /// sense: every name is lowercase ASCII letters, digits and `_` (the Kelvin sign equals `K`, a Greek question mark
    /// `;`: no such name holds either), and the look-up agrees with `firstIndex(of:)` on each name and on keys that are
    /// not names.
    @Test func keyLookUpAgreesWithFirstIndex() {
        let lists = [
            RuleFileKeys.top, RuleFileKeys.placement, RuleFileKeys.defaults, RuleFileKeys.launch, RuleFileKeys.resume,
            RuleFileKeys.grace, RuleFileKeys.cap, RuleFileKeys.group, RuleFileKeys.attribute, RuleFileKeys.rule,
        ]
        for names in lists {
            #expect(names.allSatisfy { $0.utf8.allSatisfy { ("a"..."z").contains(Character(UnicodeScalar($0))) || ("0"..."9").contains(Character(UnicodeScalar($0))) || $0 == UInt8(ascii: "_") } }, "\(names)")
            let others = names.flatMap { [$0 + "s", String($0.dropLast()), $0.uppercased(), $0.replacingOccurrences(of: "k", with: "\u{212A}")] }
                + ["", "formatx", "\u{212A}", "max_ad_age ", "placements\u{301}"]
            for key in names + others {
                #expect(names.keyIndex(of: key) == names.firstIndex(of: key), "\(key.debugDescription) in \(names)")
            }
        }
        #expect(RuleFileKeys.placement.keyIndex(of: "format") == RuleFileKeys.placement.firstIndex(of: "format"))
        #expect(RuleFileKeys.placement.keyIndex(of: "format") != nil)
    }

    /// The loader's short cut for printable ASCII must say yes only for texts with no byte outside 0x20-0x7E, so that
    /// every text with a control character still goes to `ControlCharacters.contains(in:)`.
    @Test func printableASCIIIsWhatItSays() {
        var generator = SplitMix64(seed: 7)
        let pieces = ["a", "Z", " ", "~", "\u{7F}", "\t", "\n", "\u{1B}", "é", "\u{85}", "\u{2028}", "ca-app-pub-1/2", ""]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            let expected = text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
            #expect(FieldReader.isPrintableASCII(text) == expected, "\(text.debugDescription)")
            if FieldReader.isPrintableASCII(text) { #expect(!ControlCharacters.contains(in: text), "\(text.debugDescription)") }
        }
        #expect(FieldReader.isPrintableASCII("ca-app-pub-3940256099942544/1033173712"))
        #expect(!FieldReader.isPrintableASCII("tab\there"))
    }

    /// The short cuts of the checks every id and key goes through, held to the long way on random texts: ids checked on
    /// their bytes (not their grapheme count), keys told indented with no-break spaces by their first byte, and only
    /// texts of three letters at most looked up as YAML 1.1 booleans.
    @Test func idAndKeyChecksAgreeWithTheLongWay() {
        func validTheLongWay(_ id: String, _ lowercaseOnly: Bool) -> Bool {
            (1...64).contains(id.count) && id.unicodeScalars.allSatisfy { c in
                switch c {
                case "a"..."z", "0"..."9", "_", "-": return true
                case "A"..."Z", ".": return !lowercaseOnly
                default: return false
                }
            }
        }
        var generator = SplitMix64(seed: 64)
        // Pasted spaces (U+00A0, U+3000, U+200B, U+2007), and text whose UTF-8 starts as theirs does (€, U+2028).
        let pieces = [
            "a", "Z", "9", "_", "-", ".", " ", "\u{00A0}", "\u{3000}", "\u{200B}", "\u{2007}", "€", "\u{2028}", "é", "e\u{301}", "\r\n", "ß", "NO", "y",
            "On", "off", "YES", "\t", "0123456789",
        ]
        for _ in 0..<4_000 {
            var text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            if Int.random(in: 0..<10, using: &generator) == 0 { text = String(repeating: "a", count: Int.random(in: 60...70, using: &generator)) }
            for lowercaseOnly in [false, true] {
                #expect(PolicyIDs.isValid(text, lowercaseOnly: lowercaseOnly) == validTheLongWay(text, lowercaseOnly), "\(text.debugDescription)")
            }
            let pasted = text.unicodeScalars.prefix { $0 == " " || PastedSpace.name(of: $0) != nil }.contains { $0 != " " }
            #expect(GluedKey.isIndentedWithPastedSpaces(text) == pasted, "\(text.debugDescription)")
            for style in [ScalarStyle.plain, .doubleQuoted] {
                let scalar = YAMLScalar(value: text, style: style)
                #expect(scalar.isAmbiguousBool == (style == .plain && YAMLScalar.ambiguousBools.contains(text.lowercased())), "\(text.debugDescription)")
            }
        }
    }

    @Test func indexBitsHoldAnyIndexInOrder() {
        var bits = IndexBits()
        for index in [200, 5, 63, 0, 64, 5] { bits.insert(index) }
        #expect(bits.indices == [0, 5, 63, 64, 200])
        #expect(IndexBits().indices.isEmpty)
    }
}
