/// A parsed JSON value, object keys in document order: what the CLI reads reports back from. It is read by
/// ``JSONReader``, the parser the compiled-policy loader reads its documents with.
package enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// Why a text is not JSON.
    package struct ParseError: Error, CustomStringConvertible {
        package var offset: Int
        package var problem: String
        /// Whether the problem is within the last bytes of the text: most likely a file cut short.
        package var nearEnd = false
        package var description: String { "invalid JSON at byte \(offset + 1): \(problem)" }
    }

    /// Parses a JSON text: integers without fraction or exponent become `.int`, other numbers `.double`.
    /// - Parameter maxDepth: the deepest nesting of arrays and objects read; deeper is an error, not a recursion.
    /// - Throws: ``ParseError`` at the first problem.
    /// - Parameter maxValues: the most values (objects, arrays, scalars, and the keys of objects) the document may hold.
    package static func parse(_ bytes: [UInt8], maxDepth: Int = 64, maxValues: Int = .max) throws(ParseError) -> JSONValue {
        var reader = JSONReader(bytes, maxDepth: maxDepth, maxValues: maxValues)
        let value = try reader.readValue()
        try reader.readEnd()
        return value
    }
}
