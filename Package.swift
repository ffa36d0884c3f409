// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "AdRules",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        // The runtime apps link: Foundation only, no C and no YAML, so it builds for iOS.
        .library(name: "AdRules", targets: ["AdRules"]),
        // The tooling: libyaml reading, decoding with diagnostics, lint, scenarios, compiling.
        .library(name: "AdRulesCompiler", targets: ["AdRulesCompiler", "AdRulesYAML"]),
        .executable(name: "adrules", targets: ["adrules"]),
        // Applied to an app target: lints and compiles its rules/ at build time into Swift (policy and placement ids).
        .plugin(name: "AdRulesPlugin", targets: ["AdRulesPlugin"]),
    ],
    targets: [
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .target(name: "AdRules"),
        .target(name: "AdRulesYAML", dependencies: ["AdRules", "CYAML"]),
        .target(name: "AdRulesCompiler", dependencies: ["AdRules", "AdRulesYAML"]),
        .target(name: "AdRulesImpact", dependencies: ["AdRules", "AdRulesCompiler", "AdRulesYAML"]),
        .target(name: "AdRulesCLI", dependencies: ["AdRules", "AdRulesCompiler", "AdRulesYAML", "AdRulesImpact"]),
        .executableTarget(name: "adrules", dependencies: ["AdRulesCLI"]),
        .plugin(name: "AdRulesPlugin", capability: .buildTool(), dependencies: ["adrules"]),
        .executableTarget(
            name: "adrules-bench",
            dependencies: ["AdRules", "AdRulesCompiler", "AdRulesYAML", "AdRulesImpact", "CYAML"]
        ),
        .executableTarget(name: "adrules-fuzz", dependencies: ["AdRules", "AdRulesCompiler", "AdRulesImpact"]),
        // The child process of the kill -9 test of the file ledger.
        .executableTarget(name: "adrules-ledger-writer", dependencies: ["AdRules", "AdRulesCompiler"]),
        // Helpers the test targets share; nothing else depends on it.
        .target(name: "AdRulesTestSupport", dependencies: ["AdRulesYAML"]),
        .testTarget(name: "AdRulesYAMLTests", dependencies: ["AdRulesYAML", "AdRules"]),
        .testTarget(name: "AdRulesImpactTests", dependencies: ["AdRulesImpact", "AdRules", "AdRulesCompiler", "AdRulesYAML", "AdRulesTestSupport"]),
        .testTarget(
            name: "AdRulesTests", dependencies: ["AdRules", "AdRulesCompiler", "AdRulesYAML", "AdRulesTestSupport", "adrules-ledger-writer"]),
        .testTarget(
            name: "AdRulesCLITests", dependencies: ["AdRulesCLI", "AdRules", "AdRulesCompiler", "AdRulesYAML", "AdRulesImpact", "AdRulesTestSupport", "adrules"],
            exclude: ["Fixtures", "Golden"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
