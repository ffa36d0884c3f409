// A child process for the kill -9 test of FileLedgerStore (Tests/AdRulesTests/LedgerKillTests.swift).
// Usage: adrules-ledger-writer LEDGER START_MS
// Starts a session, then shows an interstitial every simulated second, each persisted through AdEngine and
// FileLedgerStore, and prints `show <ms>` only after the write returned. Runs until it is killed.
import AdRules
import AdRulesCompiler
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3, let start = Int64(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: adrules-ledger-writer LEDGER START_MS\n".utf8))
    exit(2)
}
let policy: Policy
do {
    policy = try Policy(yaml: "version: 1\nplacements:\n  inter: {format: interstitial}\n")
} catch {
    FileHandle.standardError.write(Data("cannot load the policy: \(error)\n".utf8))
    exit(3)
}
let clock = ManualClock(Milliseconds.date(start))
let engine = AdEngine(policy: policy, clock: clock, store: FileLedgerStore(path: arguments[1])) { problem in
    FileHandle.standardError.write(Data("ledger problem: \(problem)\n".utf8))
}
engine.record(.appLaunched)
while true {
    clock.advance(by: 1)
    engine.record(.loadCompleted("inter"))
    guard engine.beginShow("inter", trigger: .action).isAllowed else {
        FileHandle.standardError.write(Data("a show was denied\n".utf8))
        exit(1)
    }
    // FileHandle writes unbuffered: once this returns, the parent can read the line even if we are killed next.
    FileHandle.standardOutput.write(Data("show \(Milliseconds.from(clock.now()))\n".utf8))
    engine.record(.adClosed("inter"))
}
