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
