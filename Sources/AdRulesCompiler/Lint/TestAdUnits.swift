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

    /// The prefixes by their first byte: a unit of the app's own is compared with the few that start as it does (a
    /// policy of 50,000 placements compared each with all fourteen, 2% of its load).
    private static let prefixesByFirstByte: [UInt8: [(prefix: String, network: String)]] = Dictionary(
        grouping: prefixes, by: { lower($0.prefix.utf8.first ?? 0) })

    /// An ASCII letter in lower case; any other byte as it is. Test ids are matched in any case (`CA-APP-PUB-…` is
    /// AdMob's test id typed with caps lock).
    private static func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }

    private static func hasPrefix(_ unit: String, _ prefix: String) -> Bool {
        var bytes = unit.utf8.makeIterator()
        for expected in prefix.utf8 {
            guard let byte = bytes.next(), lower(byte) == lower(expected) else { return false }
        }
        return true
    }

    /// An ad unit as the network reads it: without the spaces, invisible characters (U+200B, U+00AD, U+FEFF) and
    /// quotes (typographic ones too, kept in the value) that a paste may bring and no network's id holds. Both rules
    /// read a unit in this form: a test unit pasted with any of them is the test unit all the same, and one unit
    /// written with and without them is one unit. A unit of plain ASCII with none of them is returned as it is.
    static func asTheNetworkReadsIt(_ unit: String) -> String {
        guard unit.utf8.contains(where: { $0 >= 0x80 || $0 == 0x20 || $0 == 0x09 || $0 == 0x22 || $0 == 0x27 }) else { return unit }
        return String(String.UnicodeScalarView(unit.unicodeScalars.filter {
            !($0.properties.isWhitespace || $0.properties.generalCategory == .format || "\"'\u{2018}\u{2019}\u{201C}\u{201D}".unicodeScalars.contains($0))
        }))
    }

    /// The network whose test unit `unit` (as ``asTheNetworkReadsIt(_:)`` gives it) is, if any.
    static func network(of unit: String) -> String? {
        guard let first = unit.utf8.first, let candidates = prefixesByFirstByte[lower(first)] else { return nil }
        return candidates.first { hasPrefix(unit, $0.prefix) }?.network
    }
}
