/// What a file's name says it holds. Extensions match whatever their case (`Extra.YAML`, `ads.Test.yml`): the file
/// systems of the Macs rule files are written on do not tell `policy.yaml` from `policy.YAML`, so neither does this tool.
package enum FileNames {
    /// Whether `path` ends with one of `suffixes` (written in lower case), ignoring case.
    package static func hasSuffix(_ path: String, _ suffixes: String...) -> Bool { matchingSuffix(of: path, suffixes) != nil }

    /// The one of `suffixes` (written in lower case) that `path` ends with, ignoring case, if any.
    private static func matchingSuffix(of path: String, _ suffixes: [String]) -> String? {
        // Only the end of the name is compared: a 4 KB path is not lowercased whole for each check.
        let tail = String(path.unicodeScalars.suffix(16)).lowercased()
        return suffixes.first { tail.hasSuffix($0) }
    }

    /// The extensions of scenario files, usage models and YAML files.
    package static let scenarioExtensions = [".test.yaml", ".test.yml"]
    package static let usageModelExtensions = [".model.yaml", ".model.yml"]
    package static let yamlExtensions = [".yaml", ".yml"]

    /// A scenario file: `*.test.yaml` or `*.test.yml`.
    package static func isScenario(_ path: String) -> Bool { matchingSuffix(of: path, scenarioExtensions) != nil }

    /// A usage model of `adrules impact`: `*.model.yaml` or `*.model.yml`.
    package static func isUsageModel(_ path: String) -> Bool { matchingSuffix(of: path, usageModelExtensions) != nil }

    /// A YAML file: `*.yaml` or `*.yml`.
    package static func isYAML(_ path: String) -> Bool { matchingSuffix(of: path, yamlExtensions) != nil }

    /// A file name without the first of `extensions` it ends in (any case), or as it is.
    package static func withoutExtension(_ name: String, _ extensions: [String]) -> Substring {
        guard let ext = matchingSuffix(of: name, extensions) else { return Substring(name) }
        return Substring(name.unicodeScalars.dropLast(ext.unicodeScalars.count))
    }
}
