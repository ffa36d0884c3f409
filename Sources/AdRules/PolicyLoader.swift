import AdRulesYAML
import Foundation

/// Everything loading a policy produced: the policy, its diagnostics, and the files read.
public struct PolicyLoad: Sendable {
    /// The policy as far as it could be read (never use it for decisions when ``diagnostics`` has errors).
    public var policy: Policy
    /// Every diagnostic, sorted, suppressions applied.
    public var diagnostics: [Diagnostic]
    /// The rule files read, in sorted path order.
    public var files: [String]

    /// The policy, when it has no errors.
    public var validPolicy: Policy? { diagnostics.hasErrors ? nil : policy }
}

/// Failures of reading rule files from disk.
public enum PolicyLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path does not exist.
    case notFound(String)
    /// The file or directory could not be read.
    case unreadable(String, reason: String)
    /// The policy has errors.
    case invalid([Diagnostic])

    public var description: String {
        switch self {
        case .notFound(let path): return "no such file or directory: \(path)"
        case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
        case .invalid(let diagnostics):
            let errors = diagnostics.filter { $0.severity == .error }
            let first = errors.first.map { ": \($0.location): \($0.message)" } ?? ""
            return "the policy has \(errors.count) error\(errors.count == 1 ? "" : "s")\(first)"
        }
    }
}

/// Loads policies from files, directories or in-memory texts.
public enum PolicyLoader {
    /// Whether a file name is a scenario file (`*.test.yaml` / `*.test.yml`), which policies skip.
    public static func isScenarioFile(_ path: String) -> Bool {
        path.hasSuffix(".test.yaml") || path.hasSuffix(".test.yml")
    }

    /// Whether a file name is a YAML file.
    public static func isYAMLFile(_ path: String) -> Bool {
        path.hasSuffix(".yaml") || path.hasSuffix(".yml")
    }

    /// The rule files of a path: the file itself, or every `*.yaml`/`*.yml` below a directory (recursively,
    /// sorted), scenario files excluded.
    /// - Throws: ``PolicyLoadError`` when the path does not exist or cannot be listed.
    public static func ruleFiles(at path: String) throws -> [String] {
        try files(at: path) { isYAMLFile($0) && !isScenarioFile($0) }
    }

    /// Files below a path that satisfy a filter, sorted by path; a plain file is returned as it is.
    public static func files(at path: String, where include: (String) -> Bool) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw PolicyLoadError.notFound(path)
        }
        guard isDirectory.boolValue else { return [path] }
        let base = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        guard let enumerator = FileManager.default.enumerator(atPath: base) else {
            throw PolicyLoadError.unreadable(path, reason: "the directory cannot be listed")
        }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") {
                enumerator.skipDescendants()
                continue
            }
            let full = base + "/" + relative
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDir), !isDir.boolValue, include(full) {
                found.append(full)
            }
        }
        return found.sorted()
    }

    /// Reads a file's bytes.
    /// - Throws: ``PolicyLoadError/unreadable(_:reason:)``.
    public static func readBytes(_ path: String) throws -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw PolicyLoadError.unreadable(path, reason: "permission denied or not a regular file")
        }
        defer { try? handle.close() }
        do {
            let data = try handle.readToEnd() ?? Data()
            return [UInt8](data)
        } catch {
            throw PolicyLoadError.unreadable(path, reason: error.localizedDescription)
        }
    }

    /// Loads the policy at a path (a rule file or a directory of them) and lints it.
    /// - Throws: ``PolicyLoadError`` for I/O failures; problems in the files are diagnostics.
    public static func load(path: String) throws -> PolicyLoad {
        let files = try ruleFiles(at: path)
        var sources: [(file: String, bytes: [UInt8])] = []
        for file in files { sources.append((file, try readBytes(file))) }
        return load(sources: sources, emptyPolicyFile: files.isEmpty ? path : nil)
    }

    /// Loads a policy from in-memory texts (tests, apps that ship rules in code).
    public static func load(texts: [(file: String, text: String)]) -> PolicyLoad {
        load(sources: texts.map { ($0.file, Array($0.text.utf8)) }, emptyPolicyFile: nil)
    }

    /// Loads a policy from file contents.
    public static func load(sources: [(file: String, bytes: [UInt8])], emptyPolicyFile: String? = nil) -> PolicyLoad {
        var diagnostics: [Diagnostic] = []
        var fragments: [PolicyFragment] = []
        for source in sources {
            let document = YAMLReader.read(source.bytes, file: source.file)
            diagnostics += document.diagnostics
            var reader = FieldReader(file: source.file)
            if document.root != nil || document.diagnostics.isEmpty {
                fragments.append(PolicyFragment.decode(document.root, file: source.file, reader: &reader))
            }
            diagnostics += reader.diagnostics
        }
        let files = sources.map(\.file)
        var assembler = PolicyAssembler()
        let policy = assembler.assemble(fragments, files: files.isEmpty ? [emptyPolicyFile ?? ""] : files)
        diagnostics += assembler.diagnostics
        diagnostics += SemanticLint.run(policy, skipping: assembler.placementsWithErrors)
        let suppressions = Suppressions(sources: sources)
        // An alias stands for nothing here, so a type error at the same place only repeats the alias error.
        let aliasPositions = Set(diagnostics.filter { $0.rule == "yaml/alias" }.map(\.location))
        diagnostics = diagnostics.filter {
            !suppressions.suppresses($0) && !($0.rule.hasPrefix("schema/") && aliasPositions.contains($0.location))
        }
        return PolicyLoad(policy: policy, diagnostics: diagnostics.sortedForDisplay(), files: files)
    }
}

extension Policy {
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
