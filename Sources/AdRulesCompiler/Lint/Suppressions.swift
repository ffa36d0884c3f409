import AdRules
import Foundation
import AdRulesYAML

/// `# adrules:disable-next-line RULE [RULE...]` comments, found by scanning each file's bytes.
///
/// libyaml does not report comments, so the directive is looked for in the raw bytes: a `#`
/// followed by the directive, on any line.
package struct Suppressions {
    private static let directive = Array("adrules:disable-next-line".utf8)
    /// file → line → rules suppressed on that line.
    private var rules: [String: [Int: Set<String>]] = [:]
    /// file → line → where the comment for that line is.
    private var comments: [String: [Int: SourcePosition]] = [:]
    /// Whether a comment that names `schema/unknown-key` hides it: in rule files, where a team may keep keys of its own.
    private var hidesNamedUnknownKeys = true

    /// The comments of one file read as a tree (a scenario file, a usage model): an unknown key there is a misspelt
    /// step or setting (a hidden `expcet:` leaves a test that cannot fail), so it is never hidden.
    package init(file: String, bytes: [UInt8], document: YAMLDocument) {
        self.init(sources: [(file, bytes)], scalars: [file: document.textScalars])
        hidesNamedUnknownKeys = false
    }

    /// - Parameters:
    ///   - sources: the files' bytes.
    ///   - scalars: per file, the scalars (libyaml's ranges) that hold a `#` or span several lines: a `#` inside one
    ///     is text, not a comment, so no value (`ad_unit: "x # adrules:…"`, a block message) can hide a finding.
    package init(sources: [(file: String, bytes: [UInt8])], scalars: [String: [SourceRange]]) {
        for source in sources {
            let spans = scalars[source.file] ?? []
            source.bytes.withUnsafeBufferPointer { bytes in
                // Most files hold no directive: one quick pass finds that, with no line counting.
                guard Suppressions.holdsDirective(bytes) else { return }
                var line = 1
                // Columns count characters: the bytes that start one.
                var column = 1
                // A byte-order mark is no character: libyaml's columns start after it.
                var i = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
                // Scalars come in file order and do not overlap: one pass along them as the comments are met.
                var span = 0
                while i < bytes.count {
                    // Lines are counted as libyaml counts them, so that a comment names the line a finding is on.
                    let lineBreak = LineBreak.length(at: i, in: bytes)
                    if lineBreak > 0 {
                        line += 1
                        column = 1
                        i += lineBreak
                        continue
                    }
                    if bytes[i] == UInt8(ascii: "#") {
                        let position = SourcePosition(line: line, column: column)
                        while span < spans.count, spans[span].end <= position { span += 1 }
                        if !(span < spans.count && spans[span].start < position) {
                            // Outside every scalar a `#` starts a comment, which runs to the end of the line: the
                            // rest of the line is read once, whatever it holds (so a line of 10,000 `#`s is linear).
                            if let names = Suppressions.names(after: i, in: bytes) {
                                rules[source.file, default: [:]][line + 1, default: []].formUnion(names.isEmpty ? ["*"] : names)
                                comments[source.file, default: [:]][line + 1] = position
                            }
                            while i < bytes.count, LineBreak.length(at: i, in: bytes) == 0 { i += 1 }
                            continue
                        }
                    }
                    if bytes[i] & 0xC0 != 0x80 { column += 1 }
                    i += 1
                }
            }
        }
    }

    /// Whether a `#` followed by the directive occurs anywhere (in a comment or not).
    static func holdsDirective(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var i = 0
        // `memchr` finds each `#` (a byte-by-byte loop here was 2% of loading a large policy, every byte read).
        while i < bytes.count, let found = memchr(base + i, Int32(UInt8(ascii: "#")), bytes.count - i) {
            let hash = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if directiveFollows(hash, in: bytes) != nil { return true }
            i = hash + 1
        }
        return false
    }

    /// Where the rule names start when the directive follows the `#` at `hash` (after spaces), else nil.
    private static func directiveFollows(_ hash: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = hash + 1
        while i < bytes.count, bytes[i] == UInt8(ascii: " ") { i += 1 }
        guard i + directive.count <= bytes.count else { return nil }
        for (k, expected) in directive.enumerated() where bytes[i + k] != expected { return nil }
        return i + directive.count
    }

    /// The rule names after `# adrules:disable-next-line` at `hash`, or nil when the comment is something else. A word
    /// starting with `--` ends the names: what follows is the reason, as ESLint reads `-- why` in its comments
    /// (`# adrules:disable-next-line cap/zero -- off until launch`).
    private static func names(after hash: Int, in bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        guard let i = directiveFollows(hash, in: bytes) else { return nil }
        var end = i
        while end < bytes.count, LineBreak.length(at: end, in: bytes) == 0 { end += 1 }
        let rest = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<end]), as: UTF8.self)
        let words = rest.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\r" })
        return words.prefix { !$0.hasPrefix("--") }.map(String.init)
    }

    /// The errors a comment may hide: they judge a value that is read and kept as written. Every other error means
    /// a value, a placement, a rule or a whole file was not read (or was read in a way the author did not mean);
    /// hiding it would let `lint` pass while the policy silently loses that content: a rule that stops denying, a
    /// group or a whole file that drops out, a check of the same placement that no longer runs. So it stays,
    /// whatever the comment says, with a note at the comment.
    static let suppressibleErrors: Set<String> = ["ids/test-ad-unit", "policy/format-key", "rewarded/no-user-choice"]

    /// An unknown key of a rule file is hidden only by a comment that names `schema/unknown-key` (cli.md: "suppresses
    /// that rule"), and only a key of the team's own, such as `x_owner:`, which nothing reads: one close to no key of
    /// its block and at home in no other (``Diagnostic/isPlainUnknownKey``). A misspelt or misplaced setting, and any
    /// unknown key under a bare comment meant for a warning on the line, stay errors.
    static let unknownKey = "schema/unknown-key"

    /// Whether a comment on the line before names the diagnostic's rule (or names none).
    private func isNamed(_ diagnostic: Diagnostic) -> Bool {
        names(diagnostic.rule, file: diagnostic.file, line: diagnostic.range.start.line)
    }

    /// Whether a comment on the line before `line` of `file` names `rule` (or names none).
    func names(_ rule: String, file: String, line: Int) -> Bool {
        guard let names = rules[file]?[line] else { return false }
        return names.contains(rule) || names.contains("*")
    }

    package func suppresses(_ diagnostic: Diagnostic) -> Bool {
        if diagnostic.rule == Self.unknownKey {
            return hidesNamedUnknownKeys && diagnostic.isPlainUnknownKey == true
                && rules[diagnostic.file]?[diagnostic.range.start.line]?.contains(Self.unknownKey) == true
        }
        return (diagnostic.severity == .warning || Suppressions.suppressibleErrors.contains(diagnostic.rule)) && isNamed(diagnostic)
    }

    /// A warning for each comment that names a rule that is no rule (a typo, a renamed rule): such a name hides
    /// nothing, and without a word the comment could not be told from one that works. One warning a comment, for
    /// the first of its unknown names in sorted order (a line of a million words is one warning, not a million), and
    /// at most `limit` a file, in line order: the others are counted in `dropped` (a 16 MiB file of such comments
    /// built 507 MB of warnings).
    package func unknownRuleNames(limit: Int) -> (shown: [Diagnostic], dropped: [String: Int]) {
        let known = Set(LintRule.all.map(\.id))
        let ids = known.sorted()
        var shown: [Diagnostic] = []
        var dropped: [String: Int] = [:]
        for (file, lines) in rules {
            var count = 0
            for (line, names) in lines.sorted(by: { $0.key < $1.key }) where names.contains(where: { $0 != "*" && !known.contains($0) }) {
                count += 1
                guard count <= limit else {
                    dropped[file, default: 0] += 1
                    continue
                }
                let unknown = names.filter { $0 != "*" && !known.contains($0) }
                guard let first = unknown.min() else { continue }
                let position = comments[file]?[line] ?? SourcePosition(line: max(1, line - 1), column: 1)
                shown.append(.unknownRuleInComment(
                    first, others: unknown.count - 1, closest: Suggestion.closest(to: first, in: ids), file: file, at: position))
            }
        }
        return (shown, dropped)
    }

    /// The diagnostics that stay, an error that a comment tried to hide with a note saying why it stays: a comment
    /// that seems to work and does not would leave the reader guessing.
    package func applied(to diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.compactMap { diagnostic in
            if suppresses(diagnostic) { return nil }
            guard isNamed(diagnostic) else { return diagnostic }
            var kept = diagnostic
            let ownKey = diagnostic.rule == Self.unknownKey && diagnostic.isPlainUnknownKey == true && hidesNamedUnknownKeys
            kept.notes.append(DiagnosticNote(
                message: ownKey
                    ? "a bare adrules:disable-next-line does not hide an unknown key: to keep a key of your own, name the rule (# adrules:disable-next-line schema/unknown-key)"
                    : "adrules:disable-next-line cannot hide \(diagnostic.rule): the policy would not be used as this line is written (a value, a rule or a placement left out), so fix it instead",
                file: diagnostic.file,
                position: comments[diagnostic.file]?[diagnostic.range.start.line] ?? SourcePosition(line: diagnostic.range.start.line - 1, column: 1)))
            return kept
        }
    }
}
