/// What a file's name says it holds. Extensions match whatever their case (`Extra.YAML`, `ads.Test.yml`): the file
/// systems of the Macs rule files are written on do not tell `policy.yaml` from `policy.YAML`, so neither does this tool.
package enum FileNames {
    /// Whether `path` ends with one of `suffixes` (written in lower case), ignoring case.
    package static func hasSuffix(_ path: String, _ suffixes: String...) -> Bool {
        // Only the end of the name is compared: a 4 KB path is not lowercased whole for each check.
        let tail = String(path.unicodeScalars.suffix(16)).lowercased()
        return suffixes.contains { tail.hasSuffix($0) }
    }

    /// A scenario file: `*.test.yaml` or `*.test.yml`.
    package static func isScenario(_ path: String) -> Bool { hasSuffix(path, ".test.yaml", ".test.yml") }

    /// A usage model of `adrules impact`: `*.model.yaml` or `*.model.yml`.
    package static func isUsageModel(_ path: String) -> Bool { hasSuffix(path, ".model.yaml", ".model.yml") }

    /// A YAML file: `*.yaml` or `*.yml`.
    package static func isYAML(_ path: String) -> Bool { hasSuffix(path, ".yaml", ".yml") }
}
