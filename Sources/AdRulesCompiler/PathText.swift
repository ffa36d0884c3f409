/// Path arithmetic on strings, for the few places that need a path's directory.
///
/// `NSString.deletingLastPathComponent` crashes (SIGILL) on a one-character name such as `z` in the Foundation of
/// Swift 6.3 on Linux (`String._startOfLastPathComponent`): `adrules lint rules --output z` crashed.
package enum PathText {
    /// The name `path` ends in: `a/b` → `b`, `a/b/` → `b`, `/` → `/`.
    package static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The directory part of `path`, as `NSString.deletingLastPathComponent` gives it: `a/b` → `a`, `/z` → `/`,
    /// `z` → `` (empty), `a/b/` → `a`.
    package static func parent(_ path: String) -> String {
        let rest = withoutTrailingSlashes(Substring(path))
        guard let slash = rest.lastIndex(of: "/") else { return "" }
        let parent = withoutTrailingSlashes(rest[..<slash])
        return parent.isEmpty ? "/" : String(parent)
    }

    /// `path` less its trailing slashes, `/` itself kept: `rules/` → `rules`.
    package static func withoutTrailingSlashes(_ path: Substring) -> Substring {
        var rest = path
        while rest.count > 1, rest.hasSuffix("/") { rest = rest.dropLast() }
        return rest
    }
}
