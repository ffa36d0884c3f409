import AdRules
import AdRulesCompiler
import Foundation
import AdRulesYAML
internal import CYAML

extension BenchmarkSuite {
    func loading() throws -> [String] {
        let path = NSTemporaryDirectory() + "adrules-bench-\(placements).yaml"
        try PolicyGenerator.text(placements: placements).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = try PolicyLoader.readBytes(path)
        let rssBefore = currentRSS()
        var bare: [Double] = []
        var cursor: [Double] = []
        var full: [Double] = []
        var events = 0
        var diagnostics = 0
        for _ in 0..<5 {
            let t0 = nanoseconds()
            events = bareEventLoop(bytes)
            let t1 = nanoseconds()
            blackHole(cursorLoop(bytes, file: path))
            let t2 = nanoseconds()
            let load = PolicyLoader.load(sources: [(path, bytes)])
            let t3 = nanoseconds()
            diagnostics = load.diagnostics.count
            blackHole(load)
            bare.append(Double(t1 - t0))
            cursor.append(Double(t2 - t1))
            full.append(Double(t3 - t2))
        }
        let peak = peakRSS()
        bare.sort()
        cursor.sort()
        full.sort()
        let megabytes = Double(bytes.count) / 1_048_576
        return try compiledLoading() + [
            "Loading a generated \(placements)-placement policy (\(String(format: "%.1f", megabytes)) MiB, \(events) libyaml events; median of 5)",
            "bare libyaml event loop".padding(toLength: 46, withPad: " ", startingAt: 0) + format(bare[2]).leftPad(10) + String(format: "  %.0f MB/s", megabytes / (bare[2] / 1e9)),
            "YAMLEventCursor alone (events, no decoding)".padding(toLength: 46, withPad: " ", startingAt: 0) + format(cursor[2]).leftPad(10) + String(format: "  %.1fx the bare loop", cursor[2] / bare[2]),
            "PolicyLoader.load (read, decode, lint)".padding(toLength: 46, withPad: " ", startingAt: 0) + format(full[2]).leftPad(10) + String(format: "  %.1fx the bare loop (target <= 2x); %d diagnostics", full[2] / bare[2], diagnostics),
            String(format: "peak memory: %.0f MiB above the %.0f MiB before loading = %.1fx the file (target <= 10x)", Double(peak - rssBefore) / 1_048_576, Double(rssBefore) / 1_048_576, Double(peak - rssBefore) / Double(bytes.count)),
        ]
    }

    /// What an app pays at start-up: `Policy(compiled:)` of the shipped policy against the tooling's YAML load
    /// (decode and lint) of the same rule files, both from bytes already in memory.
    func compiledLoading() throws -> [String] {
        let sources = try PolicyLoader.readSources(path: rulesPath)
        guard let document = try PolicyCompiler.compile(path: rulesPath).document else {
            throw BenchError.missing("the policy at \(rulesPath) does not compile")
        }
        // In turn, round by round, as their ratio is the goal.
        let loads = Timing.interleaved(rounds: rounds, [
            Timing.Subject(batch: 20, items: 200) { range in
                for _ in range { blackHole(PolicyLoader.load(sources: sources)) }
            },
            Timing.Subject(batch: 20, items: 200) { range in
                for _ in range { blackHole(try? Policy(compiled: document)) }
            },
        ])
        let (yaml, compiled) = (loads[0], loads[1])
        func row(_ name: String, _ t: Timing, _ note: String = "") -> String {
            name.padding(toLength: 46, withPad: " ", startingAt: 0) + format(t.median).leftPad(10) + format(t.p99).leftPad(10) + note
        }
        return [
            "Start-up load of the shipped policy (\(sources.count) rule files, \(sources.reduce(0) { $0 + $1.bytes.count }) bytes of YAML; compiled: \(document.count) bytes of JSON)",
            row("YAML: PolicyLoader.load (decode, lint)", yaml),
            row("compiled: Policy(compiled:)", compiled, String(format: "  %.2fx the YAML load (target <= 0.3x)", compiled.median / yaml.median)),
            "",
        ]
    }

    /// Profiling aid (`--only cursor`): the YAML layer alone, once, over a generated policy of `placements`.
    func cursorOnly() -> [String] {
        let bytes = Array(PolicyGenerator.text(placements: placements).utf8)
        return ["YAMLEventCursor alone: \(cursorLoop(bytes, file: "generated.yaml")) events"]
    }

    /// The YAML layer alone: every event through ``YAMLEventCursor`` (positions, repeated keys, a `String` for each
    /// scalar), with no decoder reading them. What the loader adds to libyaml before any setting is read.
    func cursorLoop(_ bytes: [UInt8], file: String) -> Int {
        YAMLEventCursor.read(bytes, file: file) { cursor in
            var count = 0
            while cursor.next() != nil { count += 1 }
            return count
        }
    }

    /// libyaml's parser over the bytes, every event created and deleted: the floor for any loader.
    func bareEventLoop(_ bytes: [UInt8]) -> Int {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return 0 }
        defer { yaml_parser_delete(&parser) }
        var count = 0
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            yaml_parser_set_input_string(&parser, base, buffer.count)
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                count += 1
                let done = event.type == YAML_STREAM_END_EVENT
                yaml_event_delete(&event)
                if done { break }
            }
        }
        return count
    }
}
