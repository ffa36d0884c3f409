import AdRules
import Foundation

/// A digest of what a run read: the bytes of a usage model and what each policy says (its compiled document, source
/// locations included). `impact merge` compares the digests of its parts, so shards played after a file changed are
/// refused rather than added up.
package enum InputDigest {
    /// `sha256:` of the model's bytes and of each policy's compiled document, each preceded by its length.
    package static func of(model: [UInt8], policies: [Policy]) -> String {
        var hash = SHA256()
        hash.update(Array("\(model.count)".utf8) + [0])
        hash.update(model)
        for policy in policies {
            // Paths stay as the command line gave them: the same command on another machine gives the same digest.
            let document = (try? policy.compiledDocument(relativePath: { $0 }, sourceDigest: "", generator: "")) ?? Data()
            hash.update(Array("\(document.count)".utf8) + [0])
            hash.update(document)
        }
        return "sha256:" + hash.hexDigest()
    }

    /// Whether a text is shaped as ``of(model:policies:)`` writes a digest: `sha256:` and 64 lowercase hexadecimal digits.
    package static func isDigest(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let prefix = Array("sha256:".utf8)
        guard bytes.count == prefix.count + 64, bytes.starts(with: prefix) else { return false }
        return bytes.dropFirst(prefix.count).allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }
}
