import AdRules
import AdRulesYAML
import Foundation

extension Policy {
    /// Loads and lints rule files (a file or a directory of them), or a compiled policy (`*.json`).
    /// - Throws: ``PolicyLoadError/invalid(_:)`` when the files have errors, ``PolicyLoadError/unreadable(_:reason:)``
    ///   for a URL that is not a file URL (its path would be read as a local one), or an I/O error.
    public init(contentsOf url: URL) throws {
        // A URL with no scheme (`URL(string: "rules")`) is a path, as a file URL is.
        guard url.isFileURL || url.scheme == nil else {
            throw PolicyLoadError.unreadable(url.absoluteString, reason: "not a file URL: download the rule files, then load them from disk")
        }
        try self.init(contentsOf: url.path)
    }

    /// Loads a policy for deciding, from a rule file or a directory.
    /// - Throws: ``PolicyLoadError/invalid(_:)`` when the files have errors, or an I/O error.
    public init(contentsOf path: String) throws {
        let load = try PolicyLoader.load(path: path)
        guard let policy = load.validPolicy else { throw PolicyLoadError.invalid(load.diagnostics) }
        self = policy
    }

    /// Loads a policy from one YAML text.
    /// - Throws: ``PolicyLoadError/invalid(_:)`` when the text has errors.
    public init(yaml: String, file: String = "policy.yaml") throws {
        let load = PolicyLoader.load(texts: [(file, yaml)])
        guard let policy = load.validPolicy else { throw PolicyLoadError.invalid(load.diagnostics) }
        self = policy
    }
}
