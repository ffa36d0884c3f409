import AdRules
import Foundation
import Testing

/// The runtime's JSON reader and writer, which the compiled policy is read and written with.
@Suite("JSON reader and writer")
struct JSONTests {
    func parse(_ text: String, maxDepth: Int = 64) throws(JSONValue.ParseError) -> JSONValue {
        try JSONValue.parse(Array(text.utf8), maxDepth: maxDepth)
    }

    @Test(arguments: [
        "", "{", "[1,]", "[,1]", "{\"a\":1,}", "{,}", "{\"a\" 1}", "{\"a\":}", "[1 2]", "01", "1.", ".5", "-", "1e", "1e+", "+1",
        "tru", "nul", "\"abc", "\"a\\x\"", "\"\\u12\"", "\"a\u{01}b\"", "[1]]", "{} {}", "{\"a\":1}x",
    ])
    func refusesWhatIsNotJSON(_ text: String) {
        #expect(throws: JSONValue.ParseError.self, "\(text)") { try parse(text) }
    }

    /// A key given twice in one object is refused at the second key's first byte; the same key in two objects is not.
    @Test func aKeyGivenTwiceIsRefusedWhereItStands() throws {
        let text = "{\"a\": 1,\n  \"a\": 2}"
        #expect(throws: JSONValue.ParseError.self) { try parse(text) }
        do {
            _ = try parse(text)
        } catch {
            #expect(error.offset == 11)
            #expect(error.problem == "the key \"a\" appears twice in one object")
        }
        #expect(throws: Never.self) { try parse("[{\"a\": 1}, {\"a\": 2}]") }
    }

    /// A budget of values refuses a text of few bytes a value before it takes tens of times its size in memory
    /// (`impact merge` reads parts with one); objects, arrays, scalars and an object's keys all count (an object of 8
    /// million keys took 2 GB).
    @Test func aBudgetOfValuesIsKept() throws {
        #expect(throws: Never.self) { try JSONValue.parse(Array("[0,0,{\"a\":0}]".utf8), maxValues: 6) }
        do {
            _ = try JSONValue.parse(Array("[0,0,{\"a\":0}]".utf8), maxValues: 5)
            Issue.record("a sixth value, counting the key, was read")
        } catch {
            #expect(error.problem == "more values than a document of this kind holds")
        }
    }

    @Test func readsNumbersAsIntegersWhenTheyAreWholeAndFit() throws {
        let text = "[0, -0, 7, -12, 9223372036854775807, -9223372036854775808, 9223372036854775808, 1.5, 1e-07, 2E+3, 100000000000000000000]"
        guard case .array(let items) = try parse(text) else {
            Issue.record("not an array")
            return
        }
        let described = items.map { item -> String in
            switch item {
            case .int(let n): return "int \(n)"
            case .double(let d): return "double \(d)"
            default: return "other"
            }
        }
        #expect(described == [
            "int 0", "int 0", "int 7", "int -12", "int 9223372036854775807", "int -9223372036854775808", "double 9.223372036854776e+18",
            "double 1.5", "double 1e-07", "double 2000.0", "double 1e+20",
        ])
    }

    /// A high surrogate followed by an escape that is not a low one trapped on an arithmetic overflow before; an
    /// unpaired surrogate is no character (RFC 8259 text is UTF-8), so it is refused, and a pair is one character.
    @Test(arguments: [#"["\uD800\u0041"]"#, #"["\uDC00"]"#, #"["\uD800"]"#, #"["\uD800\uD800"]"#, #"["a\uDFFF"]"#])
    func unpairedSurrogatesAreRefused(_ text: String) {
        #expect(throws: JSONValue.ParseError.self) { try parse(text) }
    }

    /// Unicode's stream-safe limit: at most 30 combining marks in a row, written as UTF-8 or as escapes, in a value
    /// or a key (composing or comparing a text of 4,096 marks out of order took 27 ms; a compiled policy of such texts
    /// made each ask take 10 ms). Thirty are read, and so are ordinary accents.
    @Test func textsOfMoreThanThirtyCombiningMarksInARowAreRefused() throws {
        let marks = { (n: Int) in "e" + String(repeating: "\u{0316}\u{0301}", count: n / 2) + String(repeating: "\u{0301}", count: n % 2) }
        for text in ["[\"\(marks(31))\"]", "{\"\(marks(40))\": 1}", "[\"" + "e" + String(repeating: "\\u0301", count: 31) + "\"]"] {
            #expect(throws: JSONValue.ParseError.self, "\(text.unicodeScalars.count) scalars") { try parse(text) }
        }
        guard case .array(let items) = try parse("[\"\(marks(30))\", \"Ελληνικά ǘ\"]") else {
            Issue.record("not an array")
            return
        }
        #expect(items.count == 2)
    }

    @Test func surrogatePairsAreOneCharacter() throws {
        guard case .array(let items) = try parse(#"["\uD83D\uDE00", "\u00e9\u0041"]"#) else {
            Issue.record("not an array")
            return
        }
        let strings = items.map { item -> String in if case .string(let s) = item { s } else { "?" } }
        #expect(strings == ["😀", "éA"])
    }

    @Test func nestingIsLimitedWithoutRecursingFurther() throws {
        #expect(throws: JSONValue.ParseError.self) { try parse(String(repeating: "[", count: 100_000), maxDepth: 160) }
        _ = try parse(String(repeating: "[", count: 160) + String(repeating: "]", count: 160), maxDepth: 160)
        #expect(throws: JSONValue.ParseError.self) { try parse(String(repeating: "[", count: 161) + String(repeating: "]", count: 161), maxDepth: 160) }
    }

    @Test func readsEscapesAndKeepsKeysInOrder() throws {
        guard case .object(let pairs) = try parse(#" { "b" : "a\"b\\c\/d\n\t\u00e9" , "a" : [ true , false , null , { } , [ ] ] } "#) else {
            Issue.record("not an object")
            return
        }
        #expect(pairs.map(\.0) == ["b", "a"])
        if case .string(let s) = pairs[0].1 { #expect(s == "a\"b\\c/d\n\té") } else { Issue.record("not a string") }
    }

    /// The compiled policy's bytes stay what Foundation's `JSONEncoder` wrote before the writer was our own
    /// (for text without the characters `ControlCharacters` names beyond C0, which the next test covers).
    @Test func writesStringsAndNumbersAsJSONEncoderDoes() throws {
        var control = ""
        for code in 0..<0x20 { control.unicodeScalars.append(Unicode.Scalar(UInt8(code))) }
        let strings = [control, "\"quoted\" \\ back/slash", "é😀 ü", "", "plain"]
        let numbers: [Double] = [0, -0.0, 1, 1.5, 0.1, 100, 1e20, 1e21, 1e-7, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -2.5e-5, 3e15, 1e16, 12345.678]
        let integers: [Int64] = [0, -1, 42, Int64.min, Int64.max]
        var writer = JSONWriter()
        try writer.array { json throws(JSONWriter.NonFiniteNumber) in
            for s in strings { json.string(s) }
            for n in numbers { try json.number(n) }
            for n in integers { json.int(n) }
            json.bool(true)
            json.bool(false)
            json.object { json in
                json.key("k")
                json.array { _ in }
                json.key("l")
                json.object { _ in }
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var expected = try encoder.encode(strings)
        expected.removeLast()
        let tail = try encoder.encode(numbers).dropFirst().dropLast()
        let ints = try encoder.encode(integers).dropFirst().dropLast()
        let text = String(decoding: expected, as: UTF8.self) + "," + String(decoding: tail, as: UTF8.self) + ","
            + String(decoding: ints, as: UTF8.self) + #",true,false,{"k":[],"l":{}}]"#
        #expect(String(decoding: writer.bytes, as: UTF8.self) == text)
    }

    /// DEL, C1 controls, line separators, bidirectional overrides and the byte-order mark are escaped, so a
    /// compiled document shows no reordered or hidden text; it reads back to the same string.
    @Test func escapesInvisibleAndReorderingCharacters() throws {
        let text = "a\u{7F}b\u{85}c\u{2028}d\u{2029}e\u{202E}admin\u{202C}f\u{2066}g\u{FEFF}h é😀"
        var writer = JSONWriter()
        writer.string(text)
        let written = String(decoding: writer.bytes, as: UTF8.self)
        #expect(written == #""a\u007fb\u0085c\u2028d\u2029e\u202eadmin\u202cf\u2066g\ufeffh é😀""#)
        #expect(!written.unicodeScalars.contains(where: ControlCharacters.isControl))
        guard case .string(let back) = try JSONValue.parse(writer.bytes) else {
            Issue.record("not a string")
            return
        }
        #expect(back == text)
    }

    /// `##[` is a command to a CI log anywhere in a line: its `[` is escaped (a compiled policy printed by `adrules
    /// compile` holds rule messages), and the document reads back to the same string.
    @Test(arguments: ["##[error]x", "a ###[b ##[ é ##[", "#[a] #\\[b] \"##[\""])
    func escapesTheBracketOfALogCommand(_ text: String) throws {
        var writer = JSONWriter()
        writer.string(text)
        let written = String(decoding: writer.bytes, as: UTF8.self)
        #expect(!ControlCharacters.holdsLogCommand(written), "\(written)")
        #expect(written.contains("[") == text.replacingOccurrences(of: "##[", with: "").contains("["), "only the [ of ##[ is escaped: \(written)")
        guard case .string(let back) = try JSONValue.parse(writer.bytes) else {
            Issue.record("not a string")
            return
        }
        #expect(back == text)
    }

    /// Output streams write `##[` as `##\[` in one pass over their bytes (a `[` under a combining mark too), except on a
    /// line that starts with `::`, a command already (the `github` format's, whose file names must stay as written).
    @Test func outputStreamsWriteNoLogCommand() {
        func defused(_ text: String) -> String { String(decoding: ControlCharacters.defusingLogCommands(Array(text.utf8)), as: UTF8.self) }
        #expect(defused("a ##[error]x\n###[b\n") == "a ##\\[error]x\n###\\[b\n")
        #expect(defused("##[\u{301}x") == "##\\[\u{301}x")
        #expect(defused("::error file=a##[b.yaml::m\n  ##[x\r\n::warning::##[y") == "::error file=a##[b.yaml::m\n  ##\\[x\r\n::warning::##[y")
        #expect(defused("no command # [ #") == "no command # [ #")
        // Several on a line, on lines of both kinds, in any order.
        #expect(defused("x ##[a ##[b\n::c ##[d ##[e\n##[f\r::g##[h") == "x ##\\[a ##\\[b\n::c ##[d ##[e\n##\\[f\r::g##[h")
        #expect(defused("[##[[") == "[##\\[[")
        #expect(ControlCharacters.escaped("x ##[y") == "x ##\\[y")
    }

    /// Invisible characters are shown escaped, as controls are (a message quoting `5` and a zero width space shows it);
    /// the joiner and variation selectors of emoji, and letters and marks, are left as written.
    @Test func invisibleCharactersAreShownEscaped() {
        #expect(ControlCharacters.escaped("5\u{200B}") == "5\\u{200B}")
        #expect(ControlCharacters.escaped("a\u{2060}b\u{00AD}c\u{2064}") == "a\\u{2060}b\\u{AD}c\\u{2064}")
        #expect(ControlCharacters.escaped("x\u{E0049}\u{E0047}\u{FFF9}y") == "x\\u{E0049}\\u{E0047}\\u{FFF9}y")
        for kept in ["👨\u{200D}👩\u{200D}👧", "❤\u{FE0F}", "café", "e\u{301}", "日本", "\u{0600}12", "\u{00A0}"] {
            #expect(ControlCharacters.escaped(kept) == kept, "\(kept.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func refusesNumbersJSONCannotHold() {
        for value in [Double.nan, .infinity, -.infinity] {
            var writer = JSONWriter()
            #expect(throws: JSONWriter.NonFiniteNumber.self) { try writer.number(value) }
        }
    }
}
