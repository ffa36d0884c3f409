import AdRules
import AdRulesYAML
import Testing

@Suite("YAML event cursor")
struct YAMLEventCursorTests {
    /// Every event as a short word: a scalar's text, `{`, `[` or `}`.
    func words(_ text: String) -> (words: [String], diagnostics: [Diagnostic]) {
        YAMLEventCursor.read(Array(text.utf8), file: "t.yaml") { cursor in
            var words: [String] = []
            while let event = cursor.next() {
                switch event {
                case .scalar(let node): words.append(node.scalar?.value ?? "?")
                case .mappingStart: words.append("{")
                case .sequenceStart: words.append("[")
                case .end: words.append("}")
                }
            }
            return (words, cursor.diagnostics)
        }
    }

    /// A rule file saved as UTF-16 or UTF-32 is named so, with or without its byte-order mark (without one, libyaml
    /// stopped at the first zero byte with "control characters are not allowed").
    @Test(arguments: ["UTF-16LE", "UTF-16BE", "UTF-16", "UTF-32LE", "UTF-32BE"])
    func wideTextIsToldToBeSavedAsUTF8(_ encoding: String) throws {
        let text = "version: 1\nplacements:\n  a: {format: banner}\n"
        let bytes: [UInt8] = switch encoding {
        case "UTF-16LE": text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        case "UTF-16BE": text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        case "UTF-16": [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        case "UTF-32LE": text.unicodeScalars.flatMap { [UInt8($0.value & 0xFF), 0, 0, 0] }
        default: text.unicodeScalars.flatMap { [0, 0, 0, UInt8($0.value & 0xFF)] }
        }
        let diagnostics = YAMLEventCursor.read(bytes, file: "t.yaml") { cursor in
            while cursor.next() != nil {}
            return cursor.diagnostics
        }
        #expect(diagnostics.map(\.message) == ["the file is UTF-16 or UTF-32 text, not UTF-8: save it as UTF-8"], "\(diagnostics)")
        // UTF-8, even starting with a character outside ASCII, is read.
        #expect(words("é: 1\n").diagnostics.isEmpty)
    }

    /// UTF-16 text starting with a character outside ASCII is told apart too; a UTF-8 file with a stray zero byte, or
    /// of zero bytes only, is not called UTF-16 (its NUL is a control character, as libyaml says).
    @Test func wideTextIsToldApartFromAStrayZeroByte() {
        func messages(_ bytes: [UInt8]) -> [String] {
            YAMLEventCursor.read(bytes, file: "t.yaml") { cursor in
                while cursor.next() != nil {}
                return cursor.diagnostics.map(\.message)
            }
        }
        let cjk = "名前: x\nb: 1\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(messages(cjk) == ["the file is UTF-16 or UTF-32 text, not UTF-8: save it as UTF-8"])
        for bytes: [UInt8] in [Array("a\u{0}: 1\n".utf8), [UInt8](repeating: 0, count: 64), [0]] {
            let found = messages(bytes)
            #expect(found.count == 1 && found.allSatisfy { $0.contains("control characters") }, "\(found)")
        }
    }

    /// A binary file is named by its signature, not called UTF-16 for its zero bytes; a stray NUL in text is still a
    /// control character to delete, and wide text without a byte-order mark is still told to be saved as UTF-8.
    @Test func aBinaryFileIsNamedNotCalledWideText() {
        func messages(_ bytes: [UInt8]) -> [String] {
            YAMLEventCursor.read(bytes, file: "t.yaml") { cursor in
                while cursor.next() != nil {}
                return cursor.diagnostics.map(\.message)
            }
        }
        // The start of an ELF executable: as many zero bytes as UTF-16 text would have.
        let elf: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0x3E, 0, 1, 0, 0, 0, 0x50, 0x6D, 0, 0, 0, 0, 0, 0]
        #expect(messages(elf + [0xC8, 0xFF]) == ["the file is an ELF executable, not text: adrules reads YAML text in UTF-8"])
        #expect(messages([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]) == ["the file is a PNG image, not text: adrules reads YAML text in UTF-8"])
        let stray = messages(Array("version: 1\u{0}\n".utf8))
        #expect(stray.count == 1 && stray[0].contains("delete the control character"), "\(stray)")
        // UTF-32 without a mark, most of its characters past Latin-1, is still wide text.
        let japanese = "# 日本語のコメントです日本語のコメントです\nversion: 1\n".unicodeScalars.flatMap { s -> [UInt8] in
            let v = s.value
            return [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), 0]
        }
        #expect(messages(japanese) == ["the file is UTF-16 or UTF-32 text, not UTF-8: save it as UTF-8"])
        // Big-endian too.
        #expect(messages(stride(from: 0, to: japanese.count, by: 4).flatMap { japanese[$0..<$0 + 4].reversed() }) == ["the file is UTF-16 or UTF-32 text, not UTF-8: save it as UTF-8"])
        // A binary of a kind with no known signature (a Windows executable's start): zero bytes out of step with
        // any text encoding.
        let pe: [UInt8] = [0x4D, 0x5A, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0]
            + Array("This program cannot be run in DOS mode.".utf8)
        // A text file padded with zero bytes is text with a control character where the padding starts.
        let padded = messages(Array("version: 1\n".utf8) + [UInt8](repeating: 0, count: 300))
        #expect(padded.count == 1 && padded[0].contains("control characters are not allowed"), "\(padded)")
        #expect(messages(pe) == ["the file is binary (many of its first bytes are zero, out of step with any text encoding), not text: adrules reads YAML text in UTF-8"])
    }

    /// More than 30 combining marks in a row (Unicode's stream-safe limit) are refused where the 31st stands: putting
    /// such a text in composed form, or comparing it, takes time that grows with the square of the run.
    @Test func moreThanThirtyCombiningMarksInARowAreRefused() {
        let long = words("a: e" + String(repeating: "\u{0316}\u{0301}", count: 16) + "\n")
        #expect(long.diagnostics.map(\.message) == [StreamSafeText.message + ": remove the marks"])
        #expect(long.diagnostics.first?.range.start == SourcePosition(line: 1, column: 35))
        #expect(words("a: e" + String(repeating: "\u{0301}", count: 30) + "\nb: ǘ\n").diagnostics.isEmpty)
        // Marks written as escapes in a double-quoted scalar count once decoded.
        let escaped = words("a: \"e" + String(repeating: "\\u0301", count: 31) + "\"\n")
        #expect(escaped.diagnostics.map(\.message) == [StreamSafeText.message + " once its escapes are read: remove the marks"])
        #expect(escaped.diagnostics.first.map { $0.range.end.column > $0.range.start.column } == true)
        #expect(words("a: \"e" + String(repeating: "\\u0301", count: 30) + "\"\n").diagnostics.isEmpty)
        // A tag's `%` escapes decode to marks past the file's check: such a tag is named, not quoted.
        let tagged = words("a: !<tag:x,2000:a" + String(repeating: "%CC%81", count: 31) + "> hi\n")
        #expect(tagged.diagnostics.contains { $0.rule == "yaml/tag" && $0.message.contains("(one holding more than 30 combining marks in a row)") }, "\(tagged.diagnostics)")
        // A character whose decomposition is two marks (U+0F73, class 0 itself) counts as two.
        #expect(words("a: a" + String(repeating: "\u{0F73}", count: 16) + "\n").diagnostics.count == 1)
        #expect(words("a: a" + String(repeating: "\u{0F73}", count: 15) + "\n").diagnostics.isEmpty)
    }

    @Test func eventsInFileOrder() {
        #expect(words("a: 1\nb: [x, y]\n").words == ["{", "a", "1", "b", "[", "x", "y", "}", "}"])
    }

    @Test func aRepeatedKeyAndItsValueAreNeverHandedOut() {
        let read = words("a: 1\nb: {c: 1}\nb: {c: *x, d: 2}\ne: 3\n")
        #expect(read.words == ["{", "a", "1", "b", "{", "c", "1", "}", "e", "3", "}"])
        // The YAML rules still see inside the repeated value.
        #expect(read.diagnostics.map(\.rule).sorted() == ["yaml/alias", "yaml/duplicate-key"])
    }

    @Test func skippingACollectionGivesItsEnd() throws {
        let end = YAMLEventCursor.read(Array("a: {b: [1, 2],\n  c: 3}\nd: 4\n".utf8), file: "t.yaml") { cursor -> SourcePosition? in
            _ = cursor.next()  // {
            _ = cursor.next()  // a
            _ = cursor.next()  // { of a's value
            let end = cursor.skipCollection()
            #expect(cursor.openCollections == 1)
            return end
        }
        #expect(end == SourcePosition(line: 2, column: 8))
    }

    @Test func nestingPastTheLimitStopsTheRead() {
        let read = words(String(repeating: "[", count: 150) + String(repeating: "]", count: 150))
        #expect(read.words.count == YAMLReader.maxDepth)
        #expect(read.diagnostics.map(\.rule) == ["yaml/syntax"])
    }

    @Test func aCursorUsedAfterItsReadHasNothing() {
        let escaped = YAMLEventCursor.read(Array("a: 1\n".utf8), file: "t.yaml") { $0 }
        #expect(escaped.next() == nil)
    }
}
