// swift-tools-version:6.0
// An app-like package that links only the AdRules runtime: it must build where libyaml is not installed
// (iOS, or a Linux machine without libyaml-dev). `.ci/run` builds it with libyaml hidden.
import PackageDescription

let package = Package(
    name: "RuntimeOnly",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "AdRules", path: "../..")],
    targets: [
        .executableTarget(name: "RuntimeOnly", dependencies: [.product(name: "AdRules", package: "AdRules")])
    ],
    swiftLanguageModes: [.v6]
)
