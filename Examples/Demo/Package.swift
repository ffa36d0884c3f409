// swift-tools-version:6.0
// The demo app: its executable target applies AdRulesPlugin to its own Sources/Demo/rules/, so the rules are
// linted at build time (an error fails the build at the YAML line) and compiled into Swift: `Policy.bundled()`
// and `Placements.appOpen`. Run it with `swift run --package-path Examples/Demo`.
import PackageDescription

let package = Package(
    name: "Demo",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        // An app names the repository instead: .package(url: "https://…/AdRules.git", branch: "main")
        .package(name: "AdRules", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "Demo",
            dependencies: [.product(name: "AdRules", package: "AdRules")],
            plugins: [.plugin(name: "AdRulesPlugin", package: "AdRules")]
        )
    ],
    swiftLanguageModes: [.v6]
)
