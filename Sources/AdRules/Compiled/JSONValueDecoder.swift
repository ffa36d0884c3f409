/// Decodes `Decodable` records from a parsed ``JSONValue``: the compiled-policy loader's decoder.
///
/// It throws the same `DecodingError`s, with coding paths, as Foundation's `JSONDecoder`, so that a bad
/// document is described by its path (`placements[2].daily_cap`). Integers are read only from JSON integers
/// that fit; a fraction or an out-of-range number is a type mismatch.
struct JSONValueDecoder: Decoder {
    let value: JSONValue
    let link: PathLink?
    var codingPath: [any CodingKey] { PathLink.path(link) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: JSONValue, link: PathLink? = nil) {
        self.value = value
        self.link = link
    }

    /// Decodes a value of a type from a document.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try T(from: JSONValueDecoder(value))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let pairs) = value else { throw mismatch([String: Any].self, value, codingPath) }
        return KeyedDecodingContainer(KeyedContainer<Key>(pairs: pairs, link: link))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch([Any].self, value, codingPath) }
        return UnkeyedContainer(items: items, link: link)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValue(value: value, link: link) }
}

/// One step of the path to a value: built as decoding descends, turned into a coding path only for an error.
final class PathLink {
    let parent: PathLink?
    let key: any CodingKey

    init(_ parent: PathLink?, _ key: any CodingKey) {
        self.parent = parent
        self.key = key
    }

    static func path(_ link: PathLink?) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var link = link
        while let step = link {
            keys.append(step.key)
            link = step.parent
        }
        return keys.reversed()
    }
}

/// A key of an array element, for coding paths.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private func describe(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool: return "a boolean"
    case .int, .double: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
}

private func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
    if case .null = value {
        return .valueNotFound(type, .init(codingPath: path, debugDescription: "found null instead"))
    }
    return .typeMismatch(type, .init(codingPath: path, debugDescription: "found \(describe(value)) instead"))
}

/// Reads scalars from one value; shared by the three kinds of container.
private func scalar<T>(_ type: T.Type, _ value: JSONValue, _ path: @autoclosure () -> [any CodingKey]) throws -> T {
    switch value {
    case .bool(let b) where T.self == Bool.self: return b as! T
    case .string(let s) where T.self == String.self: return s as! T
    case .int(let i) where T.self == Int.self: return i as! T
    case .int(let i) where T.self == Int64.self: return Int64(i) as! T
    case .int(let i) where T.self == Int32.self: if let v = Int32(exactly: i) { return v as! T }
    case .int(let i) where T.self == UInt32.self: if let v = UInt32(exactly: i) { return v as! T }
    case .int(let i) where T.self == Double.self: return Double(i) as! T
    case .double(let d) where T.self == Double.self: return d as! T
    default: break
    }
    throw mismatch(type, value, path())
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let pairs: [(String, JSONValue)]
    let link: PathLink?
    var codingPath: [any CodingKey] { PathLink.path(link) }

    var allKeys: [Key] { pairs.compactMap { Key(stringValue: $0.0) } }

    func find(_ key: Key) -> JSONValue? {
        let name = key.stringValue
        for pair in pairs where pair.0 == name { return pair.1 }
        return nil
    }

    func value(_ key: Key) throws -> JSONValue {
        guard let value = find(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for \"\(key.stringValue)\""))
        }
        return value
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try value(key) { return true }
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(type, value(key), PathLink.path(PathLink(link, key))) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(type, value(key), PathLink.path(PathLink(link, key))) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try scalar(type, value(key), PathLink.path(PathLink(link, key))) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try scalar(type, value(key), PathLink.path(PathLink(link, key))) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(type, value(key), PathLink.path(PathLink(link, key))) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try T(from: JSONValueDecoder(value(key), link: PathLink(link, key)))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try JSONValueDecoder(value(key), link: PathLink(link, key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try JSONValueDecoder(value(key), link: PathLink(link, key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { JSONValueDecoder(.object(pairs), link: link) }
    func superDecoder(forKey key: Key) throws -> any Decoder { JSONValueDecoder(try value(key), link: PathLink(link, key)) }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let link: PathLink?
    var codingPath: [any CodingKey] { PathLink.path(link) }
    var currentIndex = 0

    init(items: [JSONValue], link: PathLink?) {
        self.items = items
        self.link = link
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    /// The next element and the link to it.
    mutating func next() throws -> (JSONValue, PathLink) {
        let step = PathLink(link, IndexKey(currentIndex))
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self, .init(codingPath: PathLink.path(step), debugDescription: "the array has only \(items.count) elements"))
        }
        defer { currentIndex += 1 }
        return (items[currentIndex], step)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .null = items[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { let (v, p) = try next(); return try scalar(type, v, PathLink.path(p)) }
    mutating func decode(_ type: String.Type) throws -> String { let (v, p) = try next(); return try scalar(type, v, PathLink.path(p)) }
    mutating func decode(_ type: Int.Type) throws -> Int { let (v, p) = try next(); return try scalar(type, v, PathLink.path(p)) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { let (v, p) = try next(); return try scalar(type, v, PathLink.path(p)) }
    mutating func decode(_ type: Double.Type) throws -> Double { let (v, p) = try next(); return try scalar(type, v, PathLink.path(p)) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, step) = try next()
        return try T(from: JSONValueDecoder(value, link: step))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, step) = try next()
        return try JSONValueDecoder(value, link: step).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, step) = try next()
        return try JSONValueDecoder(value, link: step).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, step) = try next()
        return JSONValueDecoder(value, link: step)
    }
}

private struct SingleValue: SingleValueDecodingContainer {
    let value: JSONValue
    let link: PathLink?
    var codingPath: [any CodingKey] { PathLink.path(link) }

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool { try scalar(type, value, codingPath) }
    func decode(_ type: String.Type) throws -> String { try scalar(type, value, codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try scalar(type, value, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try scalar(type, value, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try scalar(type, value, codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: JSONValueDecoder(value, link: link)) }
}
