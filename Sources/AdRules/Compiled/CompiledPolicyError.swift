import Foundation

/// Why bytes are not a compiled policy this runtime can use; the policy in force stays in force.
public struct CompiledPolicyError: Error, LocalizedError, Sendable, Hashable, CustomStringConvertible {
    /// Where in the document the problem is (`placements[2].daily_cap`), empty for the whole document.
    public var path: String
    /// What is wrong and what to do.
    public var reason: String
    /// What kind of problem it is, for an app that acts on it (download again, or wait for an update).
    public var kind: Kind = .invalid
    /// The byte the problem was found at, when it was found reading the document (not JSON, or a key's value read that
    /// is not what the key takes): what a tool places the error at. nil otherwise: a tool places the error by ``path``.
    package var offset: Int?
    /// Where the innermost value read around the problem starts, and the problem's path within it, when the problem is
    /// about a part of that value (an element of `[value, file, line, column]`): a tool finds the part from there, in
    /// the copy read of a key written twice, rather than by the whole path from the top.
    package var anchor: Int?
    package var pathInAnchor = ""
    /// The part of the value at ``path`` the problem is in, when a tool should point inside it: `[0]` for the value of a
    /// `[value, file, line, column]` (a cap of -5 is at the -5, not at the `[`). Not part of the message.
    package var part = ""

    /// What kind of problem a compiled policy has, for an app that acts on it. Whatever the kind, the policy in force
    /// stays in force.
    public enum Kind: Sendable, Hashable {
        /// Not a compiled policy this runtime reads as written: truncated, corrupted, edited on the way, or not a
        /// compiled policy at all. Download it again; a server that keeps sending it sends a bad file.
        case invalid
        /// A compiled policy of another format version, or holding a key, built-in or operator this runtime does not
        /// know: compiled by another version of `adrules` than this runtime's. Downloading it again changes nothing: the
        /// app needs the AdRules it was compiled for, or the server a policy compiled for this app's version.
        case unsupported
        /// A time zone this device's time zone database does not know (or a name that is none): the policy cannot
        /// count its days here. An older device may know it after a system update.
        case unknownTimeZone
    }

    /// Creates an error.
    public init(path: String = "", _ reason: String, kind: Kind = .invalid) {
        self.path = path
        self.reason = reason
        self.kind = kind
    }

    init(path: String = "", _ reason: String, offset: Int?) {
        self.init(path: path, reason)
        self.offset = offset
    }

    public var description: String {
        path.isEmpty ? "invalid compiled policy: \(reason)" : "invalid compiled policy: \(path): \(reason)"
    }

    public var errorDescription: String? { description }

    /// Errors are equal when they say the same: where in the text the problem was found is a tool's detail.
    public static func == (lhs: CompiledPolicyError, rhs: CompiledPolicyError) -> Bool {
        lhs.path == rhs.path && lhs.reason == rhs.reason
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(reason)
    }
}

extension CompiledPolicyError {
    /// The same error seen from the object that holds the bad value under `key`: `daily_cap: …` inside
    /// `placements[3]` is `placements[3].daily_cap: …`. Paths are built this way, as an error travels out, so
    /// that reading a good document formats none.
    /// - Parameter start: where the value read under `key` starts, when it was being read. An error about that value
    ///   itself (its path empty so far) is placed there: of a key written twice, at the occurrence read. One about a part
    ///   of it is anchored there, with its path within it, which finds the part in that occurrence.
    func inside(_ key: String, valueAt start: Int? = nil) -> CompiledPolicyError {
        placed(CompiledPolicyError(path: path.isEmpty ? key : path.hasPrefix("[") ? key + path : key + "." + path, reason, offset: offset), valueAt: start)
    }

    /// A key this runtime does not know. Refused, not skipped: it may hold a setting a newer `adrules` compiled in (a
    /// cap, a rule), and the policy applied without it would be looser than written.
    static func unknownKey(_ key: String) -> CompiledPolicyError {
        CompiledPolicyError(
            "unknown key \(ControlCharacters.quoted(key)): this runtime does not know it, and applied without it the policy could allow more than"
                + " written (a policy compiled by a newer adrules): compile it with the adrules of the AdRules version that loads it", kind: .unsupported)
    }

    /// The error placed at the value of the `[value, file, line, column]` its path names (``part``).
    var inValue: CompiledPolicyError {
        var error = self
        error.part = "[0]"
        return error
    }

    /// The same error seen from the array that holds the bad value at `index`.
    func inside(_ index: Int, valueAt start: Int? = nil) -> CompiledPolicyError {
        placed(CompiledPolicyError(path: path.isEmpty || path.hasPrefix("[") ? "[\(index)]" + path : "[\(index)]." + path, reason, offset: offset), valueAt: start)
    }

    /// `outer` placed by this error's place, or by `start`, where the value this error was found in starts: at `start`
    /// itself for an error about the value (its path empty so far), else anchored there with the path within it.
    private func placed(_ outer: CompiledPolicyError, valueAt start: Int?) -> CompiledPolicyError {
        var outer = outer
        outer.kind = kind
        outer.anchor = anchor
        outer.pathInAnchor = pathInAnchor
        outer.part = part
        guard outer.offset == nil, outer.anchor == nil, let start else { return outer }
        if path.isEmpty {
            outer.offset = start
        } else {
            outer.anchor = start
            outer.pathInAnchor = path
        }
        return outer
    }
}

/// Runs `body`, which checks the value of a `[value, file, line, column]`: an error it throws about that value is placed
/// at the value (``CompiledPolicyError/part``).
func checkingValue<T>(_ body: () throws(CompiledPolicyError) -> T) throws(CompiledPolicyError) -> T {
    do {
        return try body()
    } catch {
        throw error.path.isEmpty ? error.inValue : error
    }
}

/// Runs `body`, naming `key` in front of the path of any error it throws.
func inside<T>(_ key: String, _ body: () throws(CompiledPolicyError) -> T) throws(CompiledPolicyError) -> T {
    do {
        return try body()
    } catch {
        throw error.inside(key)
    }
}

/// Runs `body`, naming `index` in front of the path of any error it throws.
func inside<T>(_ index: Int, _ body: () throws(CompiledPolicyError) -> T) throws(CompiledPolicyError) -> T {
    do {
        return try body()
    } catch {
        throw error.inside(index)
    }
}

/// Runs `body`, naming `key[index]` in front of the path of any error it throws.
func inside<T>(_ key: String, _ index: Int, _ body: () throws(CompiledPolicyError) -> T) throws(CompiledPolicyError) -> T {
    do {
        return try body()
    } catch {
        throw error.inside(index).inside(key)
    }
}
