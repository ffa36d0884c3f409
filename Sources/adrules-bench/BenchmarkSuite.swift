import AdRules
import AdRulesCompiler
import Foundation

/// Runs every benchmark and formats the table.
struct BenchmarkSuite {
    let rulesPath: String
    let placements: Int
    let rounds: Int
    let only: String?

    func run() throws -> String {
        var lines: [String] = []
        lines.append("adrules-bench (release build, \(ProcessInfo.processInfo.activeProcessorCount) CPUs, medians of batch means)")
        lines.append("")
        if only == nil || only == "decisions" || only == "allow" || only == "deny" || only == "engine" || only == "core" || only == "deny-reusing" { lines += try decisions() + [""] }
        if only == nil || only == "loading" { lines += try loading() + [""] }
        if only == "startup" { lines += try compiledLoading() }
        if only == "cursor" { lines += cursorOnly() }
        if only == nil || only == "ledger" { lines += try ledger() + [""] }
        if only == nil || only == "impact" { lines += try impact() }
        return lines.joined(separator: "\n")
    }
}
