// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "AdRules",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "AdRules", targets: ["AdRules"]),
        .executable(name: "adrules", targets: ["adrules"]),
    ],
    targets: [
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .target(name: "AdRulesYAML", dependencies: ["CYAML"]),
        .target(name: "AdRules", dependencies: ["AdRulesYAML"]),
        .target(name: "AdRulesCLI", dependencies: ["AdRules", "AdRulesYAML"]),
        .executableTarget(name: "adrules", dependencies: ["AdRulesCLI"]),
        .executableTarget(
            name: "adrules-bench",
            dependencies: ["AdRules", "AdRulesYAML", "CYAML"]
        ),
        .executableTarget(name: "adrules-fuzz", dependencies: ["AdRules"]),
        // The child process of the kill -9 test of the file ledger.
        .executableTarget(name: "adrules-ledger-writer", dependencies: ["AdRules"]),
        .testTarget(name: "AdRulesYAMLTests", dependencies: ["AdRulesYAML"]),
        .testTarget(name: "AdRulesTests", dependencies: ["AdRules", "AdRulesYAML", "adrules-ledger-writer"]),
        .testTarget(
            name: "AdRulesCLITests", dependencies: ["AdRulesCLI", "AdRules", "adrules"],
            exclude: ["Fixtures", "Golden"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
