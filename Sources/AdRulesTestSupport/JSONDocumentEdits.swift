import AdRules
import Foundation

/// Edits of a JSON document (a compiled policy), for tests of what its reader refuses: one change to its parsed form,
/// or to its text where JSONSerialization would not write the change.
public enum JSONDocumentEdits {
    /// The document is not a JSON object.
    public struct NotAnObject: Error {}

    /// `document` with one change made to its parsed form.
    public static func changed(_ document: Data, _ change: (inout [String: Any]) -> Void) throws -> Data {
        guard var object = try JSONSerialization.jsonObject(with: document) as? [String: Any] else { throw NotAnObject() }
        change(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    /// `document` with `value` at a key of one entry of a top-level list (`nil` removes the key).
    public static func changing(_ document: Data, _ list: String, _ index: Int, _ key: String, to value: Any?) throws -> Data {
        try changed(document) { object in
            var entries = object[list] as? [[String: Any]] ?? []
            entries[index][key] = value
            object[list] = entries
        }
    }

    /// `document`'s text with `text` replaced; nil when it does not hold `text`.
    public static func replacing(_ text: String, with replacement: String, in document: Data) -> Data? {
        let original = String(decoding: document, as: UTF8.self)
        guard original.contains(text) else { return nil }
        return Data(original.replacingOccurrences(of: text, with: replacement).utf8)
    }
}

/// What `Policy(compiled:)` says of a document: its `CompiledPolicyError`'s text, nil when it loads.
public func compiledRefusal(_ document: Data) -> String? {
    do {
        _ = try Policy(compiled: document)
        return nil
    } catch let error as CompiledPolicyError {
        return error.description
    } catch {
        return "unexpected error \(error)"
    }
}
