import AdRules
import AdRulesCompiler
import Foundation

/// libFuzzer entry: any bytes as a rule file, then as a scenario file against the shipped-style policy.
/// Nothing may crash or hang; every input yields a policy or diagnostics.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let load = PolicyLoader.load(sources: [("fuzz.yaml", bytes)])
    if let policy = load.validPolicy {
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
    return 0
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
