import Foundation

/// Why bytes are not a compiled policy this runtime can use; the policy in force stays in force.
public struct CompiledPolicyError: Error, LocalizedError, Sendable, Hashable, CustomStringConvertible {
    /// Where in the document the problem is (`placements[2].daily_cap`), empty for the whole document.
    public var path: String
    /// What is wrong and what to do.
    public var reason: String

    /// Creates an error.
    public init(path: String = "", _ reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        path.isEmpty ? "invalid compiled policy: \(reason)" : "invalid compiled policy: \(path): \(reason)"
    }

    public var errorDescription: String? { description }
}
