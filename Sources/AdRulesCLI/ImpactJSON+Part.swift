import AdRules
import AdRulesYAML

/// A value of a part `impact merge` reads, with the way to it from the top of the document: an error about the value
/// is placed at its line and column. A key the part lacks is a value too (``value`` nil): an error about it is placed
/// at the object that lacks it.
struct PartValue {
    /// The value, nil when the part lacks it.
    let value: JSONValue?
    /// The keys and indices from the top of the document to the value.
    let path: PartPath?
    /// Whether this stands for the key of the value at `path` (``key(_:)``): an error about it is placed at the key.
    let isKey: Bool

    init(_ value: JSONValue?, path: PartPath?, isKey: Bool = false) {
        self.value = value
        self.path = path
        self.isKey = isKey
    }

    /// The key of this member of an object, as a value to read.
    func key(_ name: String) -> PartValue {
        PartValue(.string(name), path: path, isKey: true)
    }

    /// The value of a key of an object (a value that is not an object has none).
    subscript(_ key: String) -> PartValue {
        guard case .object(let pairs) = value else { return PartValue(nil, path: PartPath(.key(key), in: path)) }
        return PartValue(pairs.first { $0.0 == key }?.1, path: PartPath(.key(key), in: path))
    }

    var exists: Bool { value != nil }
    var isNull: Bool { if case .null = value { return true } else { return false } }
    var intValue: Int? { if case .int(let i) = value { return i } else { return nil } }
    var stringValue: String? { if case .string(let s) = value { return s } else { return nil } }

    var arrayValue: [PartValue]? {
        guard case .array(let items) = value else { return nil }
        return items.enumerated().map { PartValue($1, path: PartPath(.index($0), in: path)) }
    }

    var objectValue: [(String, PartValue)]? {
        guard case .object(let pairs) = value else { return nil }
        return pairs.map { ($0.0, PartValue($0.1, path: PartPath(.key($0.0), in: path))) }
    }

    /// The value as a message names it: its kind, and a number or a short text as written.
    var kindDescription: String {
        switch value {
        case nil, .null?: return "null"
        case .bool(let b)?: return "\(b)"
        case .int(let i)?: return "\(i)"
        // A whole number too large for an `Int` is read as a double: shown as what it is, not as 1e+30.
        case .double(let d)?:
            if d.isInfinite { return "a number too large to hold" }
            return d == d.rounded() && abs(d) >= 0x1p63 ? "a whole number too large to hold" : "\(d)"
        case .string(let text)?: return "the text \"\(ControlCharacters.escaped(String(text.prefix(40))))\(text.count > 40 ? "..." : "")\""
        case .array?: return "a list"
        case .object?: return "an object"
        }
    }
}

/// The keys and indices from the top of a document to a value, innermost last (each step holds the one before it,
/// so that a value read in a loop of a million shares the way to its list).
final class PartPath: Sendable {
    enum Step: Sendable {
        case key(String)
        case index(Int)
    }

    let step: Step
    let parent: PartPath?

    init(_ step: Step, in parent: PartPath?) {
        self.step = step
        self.parent = parent
    }

    /// The steps, outermost first.
    var steps: [Step] {
        var steps: [Step] = []
        var link: PartPath? = self
        while let current = link {
            steps.append(current.step)
            link = current.parent
        }
        return steps.reversed()
    }

    /// Where the value a path leads to starts in `bytes` (its key, with `atKey`; nil path: the document), or, for a key
    /// or index the document lacks, where the object or list that lacks it starts, and for a value of another kind where
    /// an object or a list was read (`"shard": 3`), where that value starts. Read again from the text, once, for a
    /// message: the parser's values hold no positions.
    /// - Returns: nil when the bytes are not the document the path was taken in.
    static func offset(of path: PartPath?, in bytes: [UInt8], atKey: Bool) -> Int? {
        var reader = JSONReader(bytes, maxDepth: ImpactJSON.maxPartDepth)
        let steps = path?.steps ?? []
        reader.skipSpace()
        do {
            for (n, step) in steps.enumerated() {
                let container = reader.index
                var found = false
                switch step {
                case .key(let wanted):
                    guard try reader.peek() == .object else { return container }
                    try reader.beginObject()
                    while let key = try reader.nextKey() {
                        if key == wanted {
                            found = true
                            if n == steps.count - 1 && atKey { return reader.lastKeyStart }
                            break
                        }
                        try reader.skipValue()
                    }
                case .index(let wanted):
                    guard try reader.peek() == .array else { return container }
                    try reader.beginArray()
                    var k = 0
                    while try reader.nextElement() {
                        if k == wanted {
                            found = true
                            break
                        }
                        try reader.skipValue()
                        k += 1
                    }
                }
                guard found else { return container }
                reader.skipSpace()
            }
            return reader.index
        } catch {
            return nil
        }
    }
}
