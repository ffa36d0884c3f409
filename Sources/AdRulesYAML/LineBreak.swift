/// The line breaks libyaml counts lines by, read from a file's bytes: LF, CR LF, CR, NEL (C2 85), LS (E2 80 A8) and
/// PS (E2 80 A9). Every byte-level walk that counts lines as libyaml does (suppression comments, finding spans,
/// syntax advice, the positions inside a `when` expression) reads them here.
package enum LineBreak {
    /// The length in bytes of the line break at `i`, 0 when none starts there.
    @inlinable
    package static func length<Bytes: RandomAccessCollection>(at i: Int, in bytes: Bytes) -> Int
    where Bytes.Element == UInt8, Bytes.Index == Int {
        let end = bytes.endIndex
        switch bytes[i] {
        case 0x0A: return 1
        case 0x0D: return i + 1 < end && bytes[i + 1] == 0x0A ? 2 : 1
        case 0xC2: return i + 1 < end && bytes[i + 1] == 0x85 ? 2 : 0
        case 0xE2: return i + 2 < end && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9) ? 3 : 0
        default: return 0
        }
    }
}
