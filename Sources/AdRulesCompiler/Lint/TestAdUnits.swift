/// Known test ad unit ids of the ad networks, which never earn revenue.
enum TestAdUnits {
    static let prefixes: [(prefix: String, network: String)] = [
        ("ca-app-pub-3940256099942544", "AdMob"),
        ("/6499/example/", "Google Ad Manager"),
        ("/21775744923/example/", "Google Ad Manager"),
        ("IMG_16_9_APP_INSTALL#", "Meta Audience Network"),
        ("IMG_16_9_LINK#", "Meta Audience Network"),
        ("VID_HD_16_9_46S_APP_INSTALL#", "Meta Audience Network"),
        ("VID_HD_16_9_46S_LINK#", "Meta Audience Network"),
        ("VID_HD_16_9_15S_APP_INSTALL#", "Meta Audience Network"),
        ("VID_HD_16_9_15S_LINK#", "Meta Audience Network"),
        ("VID_HD_9_16_39S_APP_INSTALL#", "Meta Audience Network"),
        ("VID_HD_9_16_39S_LINK#", "Meta Audience Network"),
        ("CAROUSEL_IMG_SQUARE_APP_INSTALL#", "Meta Audience Network"),
        ("CAROUSEL_IMG_SQUARE_LINK#", "Meta Audience Network"),
        ("PLAYABLE#", "Meta Audience Network"),
    ]

    /// Each prefix's bytes in lower case.
    private static let lowercasedPrefixes: [[UInt8]] = prefixes.map { $0.prefix.utf8.map(lower) }

    /// An ASCII letter in lower case; any other byte as it is. Test ids are matched in any case (`CA-APP-PUB-…` is
    /// AdMob's test id typed with caps lock).
    private static func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }

    /// Reads a unit's bytes in place: every placement's unit is read, and its UTF-8 view, read byte by byte, took about
    /// 30 instructions a byte (3% of the lint of a policy of 10,000 placements).
    private static func withBytes<Result>(_ unit: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        unit.utf8.withContiguousStorageIfAvailable(body) ?? Array(unit.utf8).withUnsafeBufferPointer(body)
    }

    /// An ad unit as the network reads it: without the spaces, invisible characters (U+200B, U+00AD, U+FEFF) and
    /// quotes (typographic ones too, kept in the value) that a paste may bring and no network's id holds. Both rules
    /// read a unit in this form: a test unit pasted with any of them is the test unit all the same, and one unit
    /// written with and without them is one unit. A unit of plain ASCII with none of them is returned as it is.
    static func asTheNetworkReadsIt(_ unit: String) -> String {
        let plain = withBytes(unit) { bytes in
            !bytes.contains { $0 >= 0x80 || $0 == 0x20 || $0 == 0x09 || $0 == 0x22 || $0 == 0x27 }
        }
        guard !plain else { return unit }
        return String(String.UnicodeScalarView(unit.unicodeScalars.filter {
            !($0.properties.isWhitespace || $0.properties.generalCategory == .format || "\"'\u{2018}\u{2019}\u{201C}\u{201D}".unicodeScalars.contains($0))
        }))
    }

    /// The network whose test unit `unit` (as ``asTheNetworkReadsIt(_:)`` gives it) is, if any.
    static func network(of unit: String) -> String? {
        withBytes(unit) { bytes in
            lowercasedPrefixes.indices.first { i in
                let prefix = lowercasedPrefixes[i]
                return bytes.count >= prefix.count && prefix.indices.allSatisfy { lower(bytes[$0]) == prefix[$0] }
            }.map { prefixes[$0].network }
        }
    }
}
