import AdRules
import Foundation

/// `%TAG` directives counted before libyaml reads a file: libyaml compares each with every earlier one, so that a
/// file of 100,000 of them (2.6 MB, well under the size bound) ran for minutes. Rule files, scenarios and models
/// have no use for them; a few are read as libyaml reads them, and past ``limit`` the file is refused. A line that
/// starts with `%TAG` inside a quoted or block text counts too: no file holds a hundred of them.
enum TagDirectives {
    /// The most `%TAG` directives a file may hold.
    static let limit = 100

    /// Where the first `%TAG` directive past ``limit`` starts (a line that starts with `%TAG`), or nil when there are
    /// not that many.
    static func firstPastLimit(in bytes: UnsafeBufferPointer<UInt8>) -> SourcePosition? {
        guard let base = bytes.baseAddress else { return nil }
        let tag = Array("%TAG".utf8)
        var count = 0
        var i = 0
        // `memchr` finds each `%`, which rule files rarely hold, so that the file is not read byte by byte.
        while i < bytes.count, let found = memchr(base + i, Int32(UInt8(ascii: "%")), bytes.count - i) {
            let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            i = at + 1
            // A line's start: the file's, past a byte-order mark (which libyaml skips), or after a line break.
            let startsLine = at == 0 || (at == ByteOrderMark.utf8.count && bytes.starts(with: ByteOrderMark.utf8))
                || bytes[at - 1] == UInt8(ascii: "\n") || bytes[at - 1] == UInt8(ascii: "\r")
            guard startsLine, at + tag.count <= bytes.count,
                bytes[at..<(at + tag.count)].elementsEqual(tag)
            else { continue }
            count += 1
            if count > limit { return SourcePosition(line: lineNumber(of: at, in: bytes), column: 1) }
        }
        return nil
    }

    /// The 1-based line of the byte at `offset` (a CR LF is one break, as libyaml counts).
    private static func lineNumber(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var line = 1
        var previous: UInt8 = 0
        for byte in bytes[..<offset] {
            if byte == UInt8(ascii: "\n") {
                if previous != UInt8(ascii: "\r") { line += 1 }
            } else if byte == UInt8(ascii: "\r") {
                line += 1
            }
            previous = byte
        }
        return line
    }
}
