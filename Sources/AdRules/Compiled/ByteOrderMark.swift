/// The byte-order marks a file may start with: UTF-8's, which a YAML file may carry, and those of UTF-16 and UTF-32,
/// which say the text is not UTF-8 at all. Nothing adrules writes starts with one.
package enum ByteOrderMark {
    /// UTF-16 (either order) and UTF-32 big-endian. (UTF-32 little-endian starts as UTF-16 little-endian does.)
    package static let wide: [[UInt8]] = [[0xFE, 0xFF], [0xFF, 0xFE], [0x00, 0x00, 0xFE, 0xFF]]
    package static let utf8: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Whether the bytes start with a UTF-16 or UTF-32 mark.
    package static func startsWide(_ bytes: some Collection<UInt8>) -> Bool { wide.contains { bytes.starts(with: $0) } }

    /// Whether the bytes start with any mark, UTF-8's included.
    package static func starts(_ bytes: some Collection<UInt8>) -> Bool { bytes.starts(with: utf8) || startsWide(bytes) }
}
