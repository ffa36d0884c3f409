import AdRules
import AdRulesCompiler
import Foundation
internal import CYAML

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
        if only == nil || only == "decisions" || only == "allow" || only == "deny" { lines += try decisions() + [""] }
        if only == nil || only == "loading" { lines += try loading() + [""] }
        if only == "startup" { lines += try compiledLoading() }
        if only == nil || only == "ledger" { lines += try ledger() + [""] }
        if only == nil || only == "impact" { lines += try impact() }
        return lines.joined(separator: "\n")
    }

    // MARK: decisions

    /// One pre-generated ask: the facts, the time, and the same situation as a hand-written app sees it.
    struct DecisionInput {
        var facts: Int
        var ask: Ask
        var now: Int64
        var premium: Bool
        var flags: AppOpenFlags
    }

    func decisions() throws -> [String] {
        let policy = try Policy(contentsOf: rulesPath)
        // Asks use typed ids resolved against the policy, as an app using the build plugin's generated ids does.
        guard let appOpen = policy.placementID("app_open"), let levelEnd = policy.placementID("level_end"),
            let rewardedHint = policy.placementID("rewarded_hint")
        else { throw BenchError.missing("the policy at \(rulesPath) lacks app_open, level_end or rewarded_hint") }
        let utc = TimeZone(identifier: "UTC") ?? .current
        var generator = SplitMix64(seed: 2026)
        let base: Int64 = 1_795_000_000_000
        var builtFacts: [Facts] = []
        var builtFlags: [AppOpenFlags] = []
        for _ in 0..<256 {
            let start = base + Int64.random(in: 0...(30 * 86_400_000), using: &generator)
            let sessions = Int.random(in: 0...5, using: &generator)
            var facts = Facts(policy: policy, installedAt: start - 30 * 86_400_000, sessionsBefore: sessions)
            var flags = AppOpenFlags()
            let historyCount = Int.random(in: 0...7, using: &generator)
            var shows: [Int64] = []
            for _ in 0..<historyCount { shows.append(start - Int64.random(in: 60_000...(20 * 3_600_000), using: &generator)) }
            shows.sort()
            for show in shows { facts.addHistoricalShow(placement: "app_open", at: show, session: 0, policy: policy) }
            facts.apply(.appLaunched, at: start, policy: policy)
            flags.sessionCount = sessions + 1
            var now = start + 1000
            if Int.random(in: 0..<10, using: &generator) < 8 {
                facts.apply(.loadCompleted("app_open"), at: now, policy: policy)
                flags.loadedAt = now
            }
            for placement: PlacementID in ["level_end", "rewarded_hint"] where Bool.random(using: &generator) {
                facts.apply(.loadCompleted(placement), at: now, policy: policy)
                for _ in 0..<3 { facts.apply(.action(placement), at: now, policy: policy) }
            }
            if Int.random(in: 0..<10, using: &generator) == 0 {
                facts.apply(.fullscreenOpened(source: "sdk"), at: now, policy: policy)
                flags.otherFullscreen = true
            }
            facts.apply(.appBackgrounded, at: now, policy: policy)
            now += Int64.random(in: 1000...600_000, using: &generator)
            facts.apply(.appResumed, at: now, policy: policy)
            flags.lastShow = shows.last
            let dayStart = now - now % 86_400_000
            flags.showsToday = shows.filter { $0 >= dayStart }.count
            flags.now = now
            facts.prepareDay(at: now, policy: policy, deviceTimeZone: utc)
            builtFacts.append(facts)
            builtFlags.append(flags)
        }
        // Immutable from here: a decision reads its facts in place, as an app reading its own stored facts does.
        let factSets = builtFacts, flagSets = builtFlags
        var inputs: [DecisionInput] = []
        var mixed: [DecisionInput] = []
        for i in 0..<65_536 {
            let f = Int.random(in: 0..<factSets.count, using: &generator)
            let premium = Int.random(in: 0..<20, using: &generator) == 0
            var flags = flagSets[f]
            flags.premium = premium
            inputs.append(DecisionInput(facts: f, ask: .show(appOpen, trigger: .resume), now: flags.now, premium: premium, flags: flags))
            let asks: [Ask] = [.show(levelEnd, trigger: .action), .offer(rewardedHint), .load(appOpen), .reward(rewardedHint), .show(appOpen, trigger: .resume)]
            mixed.append(DecisionInput(facts: f, ask: asks[i % asks.count], now: flags.now, premium: premium, flags: flags))
        }
        let plain = AskContext.standard
        let premiumContext = AskContext(premium: true)
        let attributes = AskContext(premium: false, attributes: ["screen": .string("level_complete"), "level": .int(12)])
        var allow: [DecisionInput] = []
        var deny: [DecisionInput] = []
        var agree = 0
        for input in inputs {
            let decision = Evaluator.decide(input.ask, context: input.premium ? premiumContext : plain, policy: policy, facts: factSets[input.facts], now: input.now, deviceTimeZone: utc)
            if decision.isAllowed { allow.append(input) } else { deny.append(input) }
            if decision.isAllowed == input.flags.handWrittenAllows() { agree += 1 }
        }
        // Asks are grouped by fact set: an app decides on the facts it holds, so the evaluator runs read one
        // local `Facts` in place rather than a copy out of an array on every ask (the if-chain reads its flags
        // in place too).
        allow.sort { $0.facts < $1.facts }
        deny.sort { $0.facts < $1.facts }
        func evaluator(_ set: [DecisionInput]) -> Timing {
            Timing.measure(rounds: rounds, batch: 256, items: set.count) { range in
                var held = set[range.lowerBound].facts
                var facts = factSets[held]
                for i in range {
                    let input = set[i]
                    if input.facts != held {
                        held = input.facts
                        facts = factSets[held]
                    }
                    blackHole(Evaluator.decide(input.ask, context: input.premium ? premiumContext : plain, policy: policy, facts: facts, now: input.now, deviceTimeZone: utc))
                }
            }
        }
        func baseline(_ set: [DecisionInput]) -> Timing {
            Timing.measure(rounds: rounds, batch: 256, items: set.count) { range in
                var count = 0
                for i in range where set[i].flags.handWrittenAllows() { count += 1 }
                blackHole(count)
            }
        }
        // Each engine's clock reads the time its fact set was generated for, as in the evaluator runs.
        if only == "allow" || only == "deny" {
            // Profiling aid: one path alone.
            let t = evaluator(only == "allow" ? allow : deny)
            return ["Evaluator.decide, \(only ?? "") path only: \(format(t.median)) median"]
        }
        let engines = factSets.indices.map { f in
            AdEngine(policy: policy, facts: factSets[f], clock: ManualClock(Milliseconds.date(flagSets[f].now)), deviceTimeZone: utc)
        }
        let engineTiming = Timing.measure(rounds: rounds, batch: 256, items: inputs.count) { range in
            for i in range {
                let input = inputs[i]
                blackHole(engines[input.facts].ask(input.ask, context: input.premium ? premiumContext : plain))
            }
        }
        // The engine's rules without its lock and clock: what AdEngine runs under the lock, and what the impact
        // preview runs per simulated user. It decides on the facts it holds, in place.
        var cores = factSets.map { EngineCore(policy: policy, facts: $0, deviceTimeZone: utc) }
        let coreTiming = Timing.measure(rounds: rounds, batch: 256, items: inputs.count) { range in
            for i in range {
                let input = inputs[i]
                blackHole(cores[input.facts].ask(input.ask, context: input.premium ? premiumContext : plain, at: input.now))
            }
        }
        let mixedTiming = Timing.measure(rounds: rounds, batch: 256, items: mixed.count) { range in
            for i in range {
                let input = mixed[i]
                blackHole(Evaluator.decide(input.ask, context: input.premium ? premiumContext : attributes, policy: policy, facts: factSets[input.facts], now: input.now, deviceTimeZone: utc))
            }
        }
        let allowEval = evaluator(allow), denyEval = evaluator(deny)
        let allowBase = baseline(allow), denyBase = baseline(deny)
        func row(_ name: String, _ t: Timing, _ ratio: String = "") -> String {
            name.padding(toLength: 46, withPad: " ", startingAt: 0) + format(t.median).leftPad(10) + format(t.p99).leftPad(10) + "  " + ratio
        }
        return [
            "Decisions (policy \(rulesPath), \(inputs.count) seeded app_open asks over \(factSets.count) fact sets; \(allow.count) allow, \(deny.count) deny)",
            "name".padding(toLength: 46, withPad: " ", startingAt: 0) + "median".leftPad(10) + "p99".leftPad(10) + "  ratio",
            row("hand-written if-chain, allow path", allowBase),
            row("hand-written if-chain, deny path", denyBase),
            row("Evaluator.decide, allow path", allowEval, String(format: "%.1fx baseline (target <= 10x, aim 3x)", allowEval.median / allowBase.median)),
            row("Evaluator.decide, deny (all reasons)", denyEval, String(format: "%.1fx baseline (target <= 20x)", denyEval.median / denyBase.median)),
            row("AdEngine.ask (lock, clock, prepare, decide)", engineTiming, "target <= 150 ns"),
            row("EngineCore.ask (no lock, no clock)", coreTiming),
            row("Evaluator.decide, mixed asks and placements", mixedTiming),
            "hand-written and engine agree on allow/deny in \(agree) of \(inputs.count) asks (the if-chain has no grace, launch or group rules)",
        ]
    }

    // MARK: loading

    func loading() throws -> [String] {
        let path = NSTemporaryDirectory() + "adrules-bench-\(placements).yaml"
        try PolicyGenerator.text(placements: placements).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = try PolicyLoader.readBytes(path)
        let rssBefore = currentRSS()
        var bare: [Double] = []
        var full: [Double] = []
        var events = 0
        var diagnostics = 0
        for _ in 0..<5 {
            let t0 = nanoseconds()
            events = bareEventLoop(bytes)
            let t1 = nanoseconds()
            let load = PolicyLoader.load(sources: [(path, bytes)])
            let t2 = nanoseconds()
            diagnostics = load.diagnostics.count
            blackHole(load)
            bare.append(Double(t1 - t0))
            full.append(Double(t2 - t1))
        }
        let peak = peakRSS()
        bare.sort()
        full.sort()
        let megabytes = Double(bytes.count) / 1_048_576
        return try compiledLoading() + [
            "Loading a generated \(placements)-placement policy (\(String(format: "%.1f", megabytes)) MiB, \(events) libyaml events; median of 5)",
            "bare libyaml event loop".padding(toLength: 46, withPad: " ", startingAt: 0) + format(bare[2]).leftPad(10) + String(format: "  %.0f MB/s", megabytes / (bare[2] / 1e9)),
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
        let yaml = Timing.measure(rounds: rounds, batch: 20, items: 200) { range in
            for _ in range { blackHole(PolicyLoader.load(sources: sources)) }
        }
        let compiled = Timing.measure(rounds: rounds, batch: 20, items: 200) { range in
            for _ in range { blackHole(try? Policy(compiled: document)) }
        }
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

    // MARK: ledger

    func ledger() throws -> [String] {
        let policy = try Policy(contentsOf: rulesPath)
        let directory = NSTemporaryDirectory() + "adrules-bench-ledger-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
        let engine = AdEngine(policy: policy, clock: clock, store: FileLedgerStore(path: directory + "/ledger.json"))
        engine.record(.appLaunched)
        let quiet = Timing.measure(rounds: rounds, batch: 1000, items: 10_000) { range in
            for _ in range { engine.record(.action("level_end")) }
        }
        var writes: [Double] = []
        for _ in 0..<50 {
            clock.advance(by: 120)
            engine.record(.loadCompleted("level_end"))
            let t0 = nanoseconds()
            engine.record(.showStarted("level_end"))
            writes.append(Double(nanoseconds() - t0))
            engine.record(.adClosed("level_end"))
        }
        writes.sort()
        let store = InMemoryLedgerStore()
        let counted = AdEngine(policy: policy, clock: clock, store: store)
        let before = store.writeCount
        counted.record(.action("level_end"))
        _ = counted.ask(.show("level_end", trigger: .action))
        let afterQuiet = store.writeCount
        counted.record(.appLaunched)
        counted.record(.loadCompleted("level_end"))
        let afterLaunch = store.writeCount
        counted.record(.showStarted("level_end"))
        return [
            "Ledger (FileLedgerStore: unique temporary file, fsync, rename under flock)",
            "record, an event that changes nothing on disk".padding(toLength: 46, withPad: " ", startingAt: 0) + format(quiet.median).leftPad(10) + format(quiet.p99).leftPad(10),
            "record(show_started), persisted".padding(toLength: 46, withPad: " ", startingAt: 0) + format(writes[writes.count / 2]).leftPad(10) + format(writes[writes.count * 99 / 100]).leftPad(10),
            "file writes: action + ask \(afterQuiet - before), app_launched + load \(afterLaunch - afterQuiet), show_started \(store.writeCount - afterLaunch)",
        ]
    }
}

/// The app-open rules as an app writes them by hand: flags and if statements.
struct AppOpenFlags {
    var premium = false
    var isShowingAd = false
    var otherFullscreen = false
    var loadedAt: Int64?
    var lastShow: Int64?
    var showsToday = 0
    var sessionCount = 0
    var now: Int64 = 0

    @inline(never)
    func handWrittenAllows() -> Bool {
        if premium { return false }
        if isShowingAd || otherFullscreen { return false }
        guard let loadedAt, now - loadedAt <= 4 * 3_600_000 else { return false }
        if let lastShow, now - lastShow < 4 * 60_000 { return false }
        if showsToday >= 6 { return false }
        if sessionCount <= 2 { return false }
        return true
    }
}

enum BenchError: Error, CustomStringConvertible {
    case missing(String)
    var description: String {
        switch self { case .missing(let text): return text }
    }
}

extension String {
    func leftPad(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
