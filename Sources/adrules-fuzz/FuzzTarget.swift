import AdRules
import AdRulesCompiler
import AdRulesImpact
import Foundation

/// What the first input byte selects: an ASCII digit its value modulo 6, any other byte itself modulo 6, so that
/// seeds in `fuzz/seeds/` can start with the digit of their target (`0`…`5`). The rest of the input goes to the target.
enum FuzzTarget: UInt8, CaseIterable {
    /// Any bytes as a rule file; a valid policy then also runs the bytes as its scenario file and every ask.
    case ruleFile
    /// Ledger JSON, then a NUL byte, then an engine script: the ledger decoder, and an engine started from the
    /// decoded ledger (whether or not it validates) driven by the script.
    case ledger
    /// Any bytes as a scenario file against the fixed policy, decoded and run.
    case scenario
    /// 16 bytes of install time and session count with no bounds, then an engine script on facts built from them.
    case facts
    /// A compiled policy (JSON), then a NUL byte, then an engine script run against the policy when it loads.
    case compiledPolicy
    /// Any bytes as a usage model: decoded and checked against the fixed policy and, when it has no error, two users
    /// played for up to two days through the impact preview's simulation.
    case usageModel

    init(selector byte: UInt8) {
        let value = (48...57).contains(byte) ? byte - 48 : byte
        self = FuzzTarget(rawValue: value % UInt8(FuzzTarget.allCases.count)) ?? .ruleFile
    }
}

/// libFuzzer entry: nothing may crash, trap or hang; every input yields a value or diagnostics.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let input = bytes[1...]
    switch FuzzTarget(selector: first) {
    case .ruleFile: fuzzRuleFile(Array(input))
    case .ledger: fuzzLedger(input)
    case .scenario: fuzzScenario(Array(input))
    case .facts: fuzzFacts(input)
    case .compiledPolicy: fuzzCompiledPolicy(input)
    case .usageModel: fuzzUsageModel(Array(input))
    }
    return 0
}

/// 2026-11-29T09:00:00Z: where the engine targets' clocks start.
let fuzzStart = Date(timeIntervalSince1970: 1_795_942_800)

func fuzzRuleFile(_ bytes: [UInt8]) {
    let load = PolicyLoader.load(sources: [("fuzz.yaml", bytes)])
    guard let policy = load.validPolicy else { return }
    let (scenario, _) = ScenarioDecoder.decode(bytes, file: "fuzz.test.yaml", policy: policy)
    for test in scenario.tests.prefix(4) { _ = ScenarioRunner.run(test, policy: policy) }
    for placement in policy.placements.prefix(4) {
        var facts = Facts(policy: policy, installedAt: 0)
        facts.apply(.appLaunched, at: 1000, policy: policy)
        for kind in AskKind.allCases {
            _ = Evaluator.decide(Ask(kind, placement: placement.id, trigger: .action), policy: policy, facts: facts, now: 2000)
        }
    }
}

/// JSON before the first NUL byte, and the engine script after it.
func splitAtNUL(_ input: ArraySlice<UInt8>) -> (json: Data, script: EngineScript) {
    let separator = input.firstIndex(of: 0) ?? input.endIndex
    return (Data(input[..<separator]), EngineScript(bytes: separator < input.endIndex ? input[(separator + 1)...] : []))
}

func fuzzLedger(_ input: ArraySlice<UInt8>) {
    let (json, script) = splitAtNUL(input)
    _ = try? LedgerSnapshot(validating: json)
    guard let policy = FixedPolicy.main else { return }
    // The engine validates what any store hands it, so it gets the snapshot as decoded, unchecked.
    let snapshot = try? JSONDecoder().decode(LedgerSnapshot.self, from: json)
    let clock = ManualClock(fuzzStart)
    let engine = AdEngine(policy: policy, clock: clock, store: InMemoryLedgerStore(snapshot), onLedgerProblem: { _ in })
    script.run(engine, clock: clock, policies: [FixedPolicy.other, policy].compactMap { $0 })
}

func fuzzScenario(_ bytes: [UInt8]) {
    guard let policy = FixedPolicy.main else { return }
    let (scenario, _) = ScenarioDecoder.decode(bytes, file: "fuzz.test.yaml", policy: policy)
    for test in scenario.tests.prefix(8) { _ = ScenarioRunner.run(test, policy: policy) }
}

func fuzzFacts(_ input: ArraySlice<UInt8>) {
    guard let policy = FixedPolicy.main, input.count >= 16 else { return }
    func integer(at offset: Int) -> Int64 {
        input[(input.startIndex + offset)..<(input.startIndex + offset + 8)].reduce(0) { $0 << 8 | Int64($1) }
    }
    let facts = Facts(policy: policy, installedAt: integer(at: 0), sessionsBefore: Int(truncatingIfNeeded: integer(at: 8)))
    let clock = ManualClock(fuzzStart)
    let engine = AdEngine(policy: policy, facts: facts, clock: clock, store: InMemoryLedgerStore())
    EngineScript(bytes: input.dropFirst(16)).run(engine, clock: clock, policies: [FixedPolicy.other, policy].compactMap { $0 })
}

func fuzzCompiledPolicy(_ input: ArraySlice<UInt8>) {
    let (json, script) = splitAtNUL(input)
    guard let policy = try? Policy(compiled: json) else { return }
    let clock = ManualClock(fuzzStart)
    let engine = AdEngine(policy: policy, clock: clock, store: InMemoryLedgerStore(), onLedgerProblem: { _ in })
    script.run(engine, clock: clock, policies: [FixedPolicy.main, policy].compactMap { $0 })
}

func fuzzUsageModel(_ bytes: [UInt8]) {
    guard let policy = FixedPolicy.main else { return }
    let (decoded, diagnostics) = ModelDecoder.decode(bytes, file: "fuzz.model.yaml")
    guard let model = decoded, !diagnostics.contains(where: { $0.severity == .error }) else { return }
    let found = ModelCheck.check(model, against: policy, name: "fixed", role: .current)
    guard !found.contains(where: { $0.severity == .error }) else { return }
    // Two users and two days at most (a day's end and the next day's start are played): a model's own population would
    // make one input take minutes.
    let options = ImpactOptions(users: min(model.users, 2), days: min(model.days, 2), threads: 1)
    _ = try? ImpactRunner.run(model: model, policies: [NamedPolicy(name: "fixed", policy: policy)], options: options)
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

/// SwiftPM links executables through `<target>_main`; under libFuzzer that entry hands over to its driver.
@_cdecl("adrules_fuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}
#else
/// Without libFuzzer: replays the files given as arguments (a corpus or crash reproducers).
@main
struct Replay {
    static func main() {
        if FixedPolicy.main == nil || FixedPolicy.other == nil {
            FileHandle.standardError.write(Data("the fixed fuzz policies do not load\n".utf8))
            exit(1)
        }
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            var bytes = [UInt8](data)
            let count = bytes.count
            bytes.append(0)  // never empty, so there is always a base address
            _ = bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.map { fuzzOneInput($0, count) }
            }
            FileHandle.standardOutput.write(Data("ok \(path)\n".utf8))
        }
    }
}
#endif
