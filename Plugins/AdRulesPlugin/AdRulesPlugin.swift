import Foundation
import PackagePlugin

/// Lints and compiles a target's rule files as part of its build.
///
/// The rule files are every `*.yaml`/`*.yml` file below the `rules/` folder of the target's directory;
/// scenario files (`*.test.yaml`) are not compiled. The `adrules` tool writes one Swift file with the
/// compiled policy embedded (`Policy.bundled()`) and a typed constant per placement id
/// (`Placements.appOpen`). A lint error is printed as `/abs/path/rules/x.yaml:line:col: error: …` and fails
/// the build, so `swift build` and Xcode show it at the YAML line.
@main
struct AdRulesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget else {
            throw RulesPluginError("apply AdRulesPlugin to a Swift target (an app or a library), not to \(target.name)")
        }
        return try RulesCommand.commands(
            root: target.directoryURL, targetName: target.name, tool: try context.tool(named: "adrules").url,
            workDirectory: context.pluginWorkDirectoryURL)
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension AdRulesPlugin: XcodeBuildToolPlugin {
    /// In an Xcode project the rules are the `rules/` folder of the folder named after the target
    /// (`MyApp/rules/` next to `MyApp/AppDelegate.swift`), found by path, without target membership.
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        try RulesCommand.commands(
            root: context.xcodeProject.directoryURL.appending(path: target.displayName), targetName: target.displayName,
            tool: try context.tool(named: "adrules").url, workDirectory: context.pluginWorkDirectoryURL)
    }
}
#endif

/// The one build command: `adrules compile ROOT/rules --root ROOT --format swift -o WORK/AdRulesGenerated.swift`.
enum RulesCommand {
    static func commands(root: URL, targetName: String, tool: URL, workDirectory: URL) throws -> [Command] {
        let rules = root.appending(path: "rules")
        let (ruleFiles, scenarioFiles) = yamlFiles(in: rules)
        guard !ruleFiles.isEmpty else {
            throw RulesPluginError(
                "target \(targetName) has no rule files: put them in \(rules.path) (*.yaml; scenario files *.test.yaml are not compiled)")
        }
        let output = workDirectory.appending(path: "AdRulesGenerated.swift")
        return [
            .buildCommand(
                displayName: "Compiling ad rules of \(targetName)",
                executable: tool,
                // Absolute paths: diagnostics name the files as given, and Xcode needs them absolute.
                arguments: ["compile", rules.path, "--root", root.path, "--format", "swift", "--output", output.path, "--quiet"],
                // Scenario files are never compiled into the app. They are inputs only so that SwiftPM counts
                // them as handled: no "unhandled file" warning, and no resource rule copies them anywhere.
                inputFiles: ruleFiles + scenarioFiles,
                outputFiles: [output]
            )
        ]
    }

    /// The YAML files below `rules`, as `adrules` sorts them: rule files (`*.yaml`/`*.yml`, not hidden), and the
    /// others: scenario files (`*.test.yaml`/`*.test.yml`) and usage models (`*.model.yaml`/`*.model.yml`).
    ///
    /// Folders are walked through symbolic links, as `adrules` walks them: a `rules` that is a link to a folder
    /// elsewhere (shared by two targets), and a link inside it to a folder of shared rules. Foundation's enumerator
    /// lists nothing below a link on Linux, and a file left out of the inputs is one whose edit rebuilds nothing. Each
    /// folder is walked once, however many links lead to it.
    static func yamlFiles(in rules: URL) -> (rules: [URL], scenarios: [URL]) {
        let files = FileManager.default
        var yaml: [URL] = []
        var walked = Set<String>()
        // `rules` itself is walked where it leads; `adrules` reads it under the target's name for it.
        var pending = [rules.resolvingSymlinksInPath()]
        while let folder = pending.popLast() {
            guard walked.insert(folder.resolvingSymlinksInPath().path).inserted,
                let names = try? files.contentsOfDirectory(atPath: folder.path)
            else { continue }
            // Folders go on the stack in reverse order, so they are walked in name order: which of two links to one
            // folder names its files does not depend on the order the file system lists them in.
            for name in names.sorted().reversed() where !name.hasPrefix(".") {
                let url = folder.appending(path: name)
                var isFolder: ObjCBool = false
                // A link that leads nowhere is no input; `adrules` names it in its error.
                guard files.fileExists(atPath: url.path, isDirectory: &isFolder) else { continue }
                // A folder named `x.yaml` is walked, not taken for a file.
                if isFolder.boolValue {
                    pending.append(url)
                } else if named(url, ".yaml", ".yml") {
                    yaml.append(url)
                }
            }
        }
        yaml.sort { $0.path < $1.path }
        func isScenario(_ url: URL) -> Bool { named(url, ".test.yaml", ".test.yml", ".model.yaml", ".model.yml") }
        return (yaml.filter { !isScenario($0) }, yaml.filter(isScenario))
    }

    /// Whether a file's name ends in one of `suffixes`, whatever their case, as `adrules` matches them (`Extra.YAML`
    /// is a rule file).
    private static func named(_ url: URL, _ suffixes: String...) -> Bool {
        let name = url.lastPathComponent.lowercased()
        return suffixes.contains { name.hasSuffix($0) }
    }
}

/// Why the plugin cannot set up the build; SwiftPM and Xcode print the description and fail the build.
struct RulesPluginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
