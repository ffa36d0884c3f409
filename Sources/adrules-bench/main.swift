import AdRules
import AdRulesCompiler
import Foundation

// adrules-bench: decisions, loading and the ledger, measured side by side in one run.
// Usage: adrules-bench [--rules DIR] [--placements N] [--rounds N] [--only decisions|allow|deny|deny-reusing|engine|core|loading|startup|cursor|ledger|impact] | adrules-bench generate N FILE
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "generate" {
    guard arguments.count == 3, let count = Int(arguments[1]) else {
        FileHandle.standardError.write(Data("usage: adrules-bench generate N FILE\n".utf8))
        exit(2)
    }
    do {
        try PolicyGenerator.text(placements: count).write(toFile: arguments[2], atomically: true, encoding: .utf8)
    } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        exit(3)
    }
    exit(0)
}
let parts = ["decisions", "allow", "deny", "deny-reusing", "engine", "core", "loading", "startup", "cursor", "ledger", "impact"]
let usage = "usage: adrules-bench [--rules DIR] [--placements N] [--rounds N] [--only \(parts.joined(separator: "|"))] | adrules-bench generate N FILE\n"
var rulesPath = "rules"
var placements = 50_000
var rounds = 15
var only: String?
var index = 0
while index < arguments.count {
    switch arguments[index] {
    case "--rules" where index + 1 < arguments.count: rulesPath = arguments[index + 1]; index += 1
    case "--placements" where index + 1 < arguments.count && (Int(arguments[index + 1]) ?? 0) > 0: placements = Int(arguments[index + 1]) ?? placements; index += 1
    // A part it does not have measured nothing and exited 0.
    case "--only" where index + 1 < arguments.count && parts.contains(arguments[index + 1]): only = arguments[index + 1]; index += 1
    case "--rounds" where index + 1 < arguments.count && (Int(arguments[index + 1]) ?? 0) > 0: rounds = Int(arguments[index + 1]) ?? rounds; index += 1
    default:
        FileHandle.standardError.write(Data(usage.utf8))
        exit(2)
    }
    index += 1
}
do {
    let report = try BenchmarkSuite(rulesPath: rulesPath, placements: placements, rounds: rounds, only: only).run()
    FileHandle.standardOutput.write(Data((report + "\n").utf8))
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(3)
}
