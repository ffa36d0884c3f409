import AdRules
import AdRulesYAML
import Foundation

/// Failures of reading rule files from disk.
public enum PolicyLoadError: Error, LocalizedError, Sendable, Equatable, CustomStringConvertible {
    /// The path does not exist.
    case notFound(String)
    /// The file or directory could not be read.
    case unreadable(String, reason: String)
    /// A directory holds no rule file (`*.yaml`, `*.yml`, scenario files and usage models aside).
    case noRuleFiles(String)
    /// The policy is larger than the loader accepts.
    case tooLarge(String, reason: String)
    /// A directory (of rule files or of scenario files) holds more entries below it than a walk reads.
    case tooManyEntries(String, limit: Int)
    /// A scenario file or a usage model was named where rule files were expected.
    case notRuleFile(String)
    /// The policy has errors.
    case invalid([Diagnostic])

    public var errorDescription: String? { description }

    /// What a path that names no file is told, after "no such file": a word that starts with `-` is a path only after
    /// `--`, which ends the options (`adrules test -- a.test.yaml --rules r`); `-` alone, which is a path without `--`
    /// too, is standard input to many tools, and to adrules only as `--output -`: it is told that inputs are files; a
    /// pattern the shell did not expand (`'rules/*.yaml'`, quoted in a CI script) is told that adrules takes files and
    /// directories (or, where one file is read, to name it). Empty for any other path.
    /// - Parameter oneFile: whether the command reads one file there (a scenario to simulate, a usage model), not files
    ///   and directories.
    package static func missingPathAdvice(_ path: String, oneFile: Bool = false) -> String {
        if path == "-" { return " (adrules reads no input from standard input: give the path of a file or directory)" }
        if path.hasPrefix("-") { return " (every word after -- is a path: write the options before --)" }
        guard let wildcard = path.firstIndex(where: { $0 == "*" || $0 == "?" || $0 == "[" }) else { return "" }
        let pattern = " (a pattern the shell did not expand, as in quotes: "
        if oneFile { return pattern + "adrules reads the one file named, not a pattern: name it)" }
        // The directory the pattern is in, when there is one to give instead (`rules/*.yaml`: rules).
        let folder = path[..<wildcard].lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        var isDirectory: ObjCBool = false
        let instead = !folder.isEmpty && FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue
            ? "give the directory, \(folder), or " : ""
        return pattern + "adrules reads files and directories, not patterns: \(instead)leave the pattern unquoted for the shell to expand)"
    }

    /// The names of the compiled policies at the top of a directory (`*.json` files whose document says it is one, a
    /// `package.json` not), sorted: they are read only when named.
    private static func compiledPolicies(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let folder = directory.hasSuffix("/") ? directory : directory + "/"
        return names.filter { name in
            guard !name.hasPrefix("."), FileNames.hasSuffix(name, ".json"),
                let bytes = try? PolicyLoader.readBytes(folder + name, limit: 1 << 20) else { return false }
            return PolicyLoader.looksCompiled(bytes)
        }.sorted()
    }

    public var description: String {
        switch self {
        case .notFound(let path):
            if path.isEmpty { return "an empty path names no file: give a rule file or a directory, such as rules" }
            return "no such file or directory: \(path)" + Self.missingPathAdvice(path)
        case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
        case .noRuleFiles(let path):
            let message = "no rule files in \(path): a policy directory holds *.yaml or *.yml files (scenario files *.test.yaml do not count)"
            guard let compiled = Self.compiledPolicies(in: path).first else { return message }
            // A directory of a compiled policy alone: the file is what to name.
            let named = path.hasSuffix("/") ? path + compiled : path + "/" + compiled
            return message + "; it holds \(compiled), a compiled policy, which is read when named: give \(named)"
        case .tooLarge(let path, let reason): return "the policy \(path) is too large: \(reason); split it into several policies"
        case .tooManyEntries(let path, let limit):
            return "\(path) holds more than \(limit) entries below it, more than adrules reads from one directory: split it into several"
        case .notRuleFile(let path):
            if PolicyLoader.isUsageModel(path) {
                return "\(path) is a usage model, not a rule file: a policy is rule files or their directory (adrules impact reads a model)"
            }
            return "\(path) is a scenario file, not a rule file: a policy is rule files or their directory (adrules test runs scenarios)"
        case .invalid(let diagnostics):
            let errors = diagnostics.filter { $0.severity == .error }
            let first = errors.first.map { ": \($0.location): \($0.message)" } ?? ""
            return "the policy has \(errors.count) error\(errors.count == 1 ? "" : "s")\(first)"
        }
    }
}
