import AdRules
import Foundation

// A compiled policy as a server would send it (written by `adrules compile`): the runtime checks it and decides.
let document = CommandLine.arguments.dropFirst().first.map { URL(fileURLWithPath: $0) }
do {
    guard let document else {
        FileHandle.standardError.write(Data("usage: RuntimeOnly COMPILED_POLICY.json\n".utf8))
        exit(2)
    }
    let policy = try Policy(compiledContentsOf: document)
    let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    let engine = AdEngine(policy: policy, clock: clock)
    engine.record(.appLaunched)
    print(engine.ask(.load("app_open")))
    print(engine.ask(.show("app_open", trigger: .resume)))
} catch {
    FileHandle.standardError.write(Data("error: \(error.localizedDescription)\n".utf8))
    exit(1)
}
