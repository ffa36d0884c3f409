import AdRules
import AdRulesCompiler
import Foundation

/// Checks on the paths a command takes as its policy.
enum PolicyArgument {
    /// A usage error (exit 2, printed once) when a path given as the policy is a scenario file or a usage model, as
    /// `lint` reports one: the command was given the wrong file, which no rereading fixes.
    static func refusal(_ paths: [String]) -> CommandResult? {
        for path in Set(paths).sorted() where PolicyLoader.isScenarioFile(path) || PolicyLoader.isUsageModel(path) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            return CommandResult(
                stderr: "error: \(ControlCharacters.escaped(PolicyLoadError.notRuleFile(path).description))\n", exitCode: ExitCode.usage)
        }
        return nil
    }
}

/// The `rules` a command reads when no path is given.
enum DefaultRules {
    /// An I/O failure (exit 3, as for any missing path) that says the path was the default, when `rules` is missing.
    /// - Parameter naming: how the command names a policy, such as `adrules lint path/to/rules`.
    static func missing(_ naming: String) -> CommandResult? {
        var info = stat()
        guard lstat("rules", &info) != 0 else { return nil }
        return CommandResult(
            stderr: "error: no such file or directory: rules, the policy read when none is named: run this where rules/ is, or name the policy, such as \(naming)\n",
            exitCode: ExitCode.failure)
    }
}
