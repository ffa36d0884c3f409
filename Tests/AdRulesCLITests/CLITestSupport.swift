import AdRulesTestSupport
import AdRulesCLI
import Foundation
import Testing

let fixtures = packageRoot() + "/Tests/AdRulesCLITests/Fixtures"

/// Runs the CLI in-process with fixture paths written as `FIXTURES/...`, and writes them back that way.
func runCLI(_ arguments: [String], variables: [String: String] = [:]) -> CommandResult {
    let args = arguments.map { $0.replacingOccurrences(of: "FIXTURES", with: fixtures) }
    var result = AdRulesCommandLine.run(args, environment: CommandEnvironment(variables: variables, stdoutIsTerminal: false))
    result.stdout = result.stdout.replacingOccurrences(of: fixtures, with: "FIXTURES")
    result.stderr = result.stderr.replacingOccurrences(of: fixtures, with: "FIXTURES")
    return result
}

/// A fresh directory under the temporary directory holding `files` (name to text); the caller removes it.
func temporaryDirectory(_ prefix: String, _ files: [String: String]) throws -> String {
    let path = scratchPath(prefix)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    for (name, text) in files {
        // A name with folders (`rules/a.yaml`) gets them.
        let file = URL(fileURLWithPath: path + "/" + name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
    }
    return path
}

/// Compares text with a golden file; `UPDATE_GOLDEN=1 swift test` rewrites the goldens.
func expectGolden(_ text: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let path = packageRoot() + "/Tests/AdRulesCLITests/Golden/" + name
    if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
        try? text.write(toFile: path, atomically: true, encoding: .utf8)
        return
    }
    guard let golden = try? String(contentsOfFile: path, encoding: .utf8) else {
        Issue.record("missing golden file \(name); run UPDATE_GOLDEN=1 swift test", sourceLocation: sourceLocation)
        return
    }
    #expect(text == golden, "output differs from Golden/\(name)", sourceLocation: sourceLocation)
}

/// Runs the built `adrules` binary (in the package root, or in `directory`) and returns stdout, stderr and the exit code.
/// - Parameters:
///   - standardInput: a file standard input reads from, or nil for the test runner's own.
///   - inputPipe: standard input is a pipe that nothing writes (as in `… | adrules`), when no file is given.
func runBinary(
    _ arguments: [String], environment: [String: String] = [:], directory: String = packageRoot(), standardInput: String? = nil,
    inputPipe: Bool = false
) throws -> (stdout: String, stderr: String, code: Int32) {
    let binary = try #require(adrulesBinary(), "the adrules binary was not built")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments.map { $0.replacingOccurrences(of: "FIXTURES", with: fixtures) }
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    var env = ProcessInfo.processInfo.environment
    env["GITHUB_ACTIONS"] = nil
    for (k, v) in environment { env[k] = v }
    process.environment = env
    if let standardInput {
        process.standardInput = FileHandle(forReadingAtPath: standardInput)
    } else if inputPipe {
        // Held until the run ends: its write end stays open, so the pipe never reaches its end.
        process.standardInput = Pipe()
    }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
        String(decoding: outData, as: UTF8.self).replacingOccurrences(of: fixtures, with: "FIXTURES"),
        String(decoding: errData, as: UTF8.self).replacingOccurrences(of: fixtures, with: "FIXTURES"),
        process.terminationStatus
    )
}

func adrulesBinary() -> String? {
    var candidates: [String] = []
    let runner = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
    candidates.append(runner.appendingPathComponent("adrules").path)
    candidates.append(runner.deletingLastPathComponent().appendingPathComponent("adrules").path)
    candidates.append(Bundle.main.bundleURL.appendingPathComponent("adrules").path)
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("adrules").path)
    candidates.append(packageRoot() + "/.build/debug/adrules")
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// A Unix socket bound at `name` in `directory`, listening to nothing: what a path that a file cannot be opened on
/// looks like. Its path must fit a socket address (108 bytes): under a long directory the socket gets a short folder of
/// its own in /tmp. Close the returned descriptor and remove `folder` when it is not `directory`.
/// - Returns: the socket's descriptor, its path and its folder, or nil when no socket could be bound.
func boundUnixSocket(in directory: String, named name: String) throws -> (fd: Int32, path: String, folder: String)? {
    let folder = directory.utf8.count + name.utf8.count < 100 ? directory : "/tmp/adrules-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/" + name
    // Glibc imports SOCK_STREAM as an enum case, Darwin as an Int32.
    #if canImport(Glibc)
    let stream = Int32(SOCK_STREAM.rawValue)
    #else
    let stream = SOCK_STREAM
    #endif
    let fd = socket(AF_UNIX, stream, 0)
    guard fd >= 0 else { return nil }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
    }
    let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
    guard bound == 0 else {
        close(fd)
        return nil
    }
    return (fd, path, folder)
}
