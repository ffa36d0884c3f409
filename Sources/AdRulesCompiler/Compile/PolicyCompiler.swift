import AdRules
import AdRulesYAML
import Foundation

/// What compiling a policy produced: the document when the policy is valid, and every diagnostic.
public struct PolicyCompilation: Sendable {
    /// The compiled document (JSON), nil when the policy has errors.
    public var document: Data?
    /// Every diagnostic of the policy, as lint reports them.
    public var diagnostics: [Diagnostic]
    /// The rule files read.
    public var files: [String]
}

/// Compiles rule files into the document apps load with `Policy(compiled:)`.
public enum PolicyCompiler {
    /// Lints and compiles the policy at a path.
    /// - Parameters:
    ///   - path: a rule file or a directory of them.
    ///   - root: the directory that recorded file paths are relative to (default: the current directory;
    ///     files outside it are recorded relative to the policy's parent directory).
    /// - Throws: ``PolicyLoadError`` for I/O failures.
    /// - Parameter maxBytes: the largest document written, the most the runtime loads (a test passes less).
    /// - Parameter checkingSwiftNames: also report ids that share a name in the generated Swift (`swift/name-clash`), for
    ///   `compile --format swift` and the build plugin.
    public static func compile(
        path: String, root: String? = nil, maxBytes: Int = Policy.maxCompiledBytes, checkingSwiftNames: Bool = false
    ) throws -> PolicyCompilation {
        // A compiled policy takes the place of rule files here too (cli.md): it is validated and written as it is.
        let sources: [(file: String, bytes: [UInt8])]
        switch try PolicyLoader.readPolicy(path: path) {
        case .compiled(let bytes): return compiled(bytes, path: path, checkingSwiftNames: checkingSwiftNames)
        case .ruleFiles(let files): sources = files
        }
        let load = PolicyLoader.load(sources: sources, checkingSwiftNames: checkingSwiftNames)
        guard !load.diagnostics.hasErrors else {
            return PolicyCompilation(document: nil, diagnostics: load.diagnostics, files: load.files)
        }
        // With no current directory (removed while the shell stood in it), names would be made relative to `/`:
        // a compiled policy whose files and digest differ from the same policy compiled anywhere else.
        if FileManager.default.currentDirectoryPath.isEmpty, !(root?.hasPrefix("/") ?? false) || !path.hasPrefix("/") {
            throw PolicyLoadError.unreadable(
                ".", reason: "the current directory no longer exists (removed or moved while in use): change to the project's directory, or give the policy and --root as absolute paths")
        }
        let rootPath = absolute(root ?? FileManager.default.currentDirectoryPath)
        let parent = PathText.parent(absolute(path))
        let relativePath = { (file: String) in name(of: file, root: rootPath, parent: parent) }
        // A compiled policy names its files in reasons an app logs: a name that could forge a log line is refused
        // by the runtime's loader, so it is refused here, at the file.
        let badNames = load.files.compactMap { file -> Diagnostic? in
            let name = relativePath(file)
            let problem: Diagnostic.FileNameProblem
            if ControlCharacters.contains(in: name) {
                problem = .controlCharacter
            } else if StreamSafeText.problem(in: name.utf8) == .tooManyCombiningMarks {
                // The runtime's loader refuses such a text anywhere in a compiled policy (``StreamSafeText``).
                problem = .tooManyCombiningMarks
            } else if name.unicodeScalars.count > PolicyIDs.maxTextLength {
                // The runtime's loader reads texts of at most this many characters, file names too.
                problem = .tooLong
            } else {
                return nil
            }
            return .uncompilableFileName(name, problem, file: file)
        }
        guard badNames.isEmpty else {
            return PolicyCompilation(document: nil, diagnostics: load.diagnostics + badNames, files: load.files)
        }
        let document = try load.policy.compiledDocument(
            relativePath: relativePath,
            sourceDigest: digest(sources, relativeTo: rootPath, parent: parent), generator: "adrules \(AdRulesVersion.current)",
            maxBytes: maxBytes)
        // A document the runtime would refuse for its size is a finding about the policy, not a failure of the tool.
        guard document.count <= maxBytes else {
            let tooLarge = Diagnostic.compiledPolicyTooLarge(limit: maxBytes, file: load.files.first ?? path)
            return PolicyCompilation(document: nil, diagnostics: load.diagnostics + [tooLarge], files: load.files)
        }
        return PolicyCompilation(document: document, diagnostics: load.diagnostics, files: load.files)
    }

    /// A compiled policy given to compile: validated, and written as it is when valid.
    private static func compiled(_ bytes: [UInt8], path: String, checkingSwiftNames: Bool) -> PolicyCompilation {
        let load = PolicyLoader.loadCompiled(bytes: bytes, path: path)
        guard !load.diagnostics.hasErrors else { return PolicyCompilation(document: nil, diagnostics: load.diagnostics, files: load.files) }
        // A compiled policy keeps no comments: a clash hidden in the rule files is shown again. The per-file limit applies.
        let clashes = checkingSwiftNames ? GeneratedSwift.nameClashes(in: load.policy) : []
        let diagnostics = clashes.isEmpty ? load.diagnostics : PolicyLoader.capped(load.diagnostics + clashes, dropped: [:])
        return PolicyCompilation(document: Data(bytes), diagnostics: diagnostics, files: load.files)
    }

    /// `sha256:` of every source file's relative path and bytes, in path order.
    static func digest(_ sources: [(file: String, bytes: [UInt8])], relativeTo root: String, parent: String) -> String {
        var hash = SHA256()
        for source in sources {
            let name = name(of: source.file, root: root, parent: parent)
            hash.update(Array(name.utf8) + [0])
            hash.update(Array(String(source.bytes.count).utf8) + [0])
            hash.update(source.bytes)
        }
        return "sha256:" + hash.hexDigest()
    }

    /// The name a compiled policy gives a rule file: its path relative to `root` as written (a `rules` link keeps its
    /// name), else once links are resolved (a `--root` typed through a linked folder, where the current directory is
    /// the resolved path; `/tmp` and `/private/tmp` on macOS), else relative to the policy's `parent`, else as given.
    static func name(of file: String, root: String, parent: String) -> String {
        let full = absolute(file)
        if let name = relative(full, to: root) { return name }
        if let realRoot = PolicyLoader.realPath(root), let realFile = PolicyLoader.realPath(file), let name = relative(realFile, to: realRoot) {
            return name
        }
        return relative(full, to: parent) ?? file
    }

    /// The absolute path, `.` and `..` and repeated `/` taken out by its text alone: a symbolic link keeps the name
    /// the policy is read by (`rules -> ../shared` names `rules/p.yaml`, as lint names it), where Foundation's
    /// `standardizingPath` resolved it (`shared/p.yaml`, outside the root it was given under).
    package static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var parts: [Substring] = []
        for part in full.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }

    static func relative(_ path: String, to root: String) -> String? {
        let base = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : nil
    }
}

/// The version of the tools: `adrules --version`, and the generator written into compiled policies.
public enum AdRulesVersion {
    /// The current release.
    public static let current = "0.2.0"
}
