import AdRules
import AdRulesCompiler
import Foundation

extension BenchmarkSuite {
    /// One pre-generated ask: what the evaluator gets, and the same situation as a hand-written app sees it.
    struct DecisionInput {
        var asked: Asked
        var flags: AppOpenFlags
    }

    /// What the evaluator (or an engine) gets for one ask: the facts, the ask, the time and the context. The timed
    /// loops read a flat array of these, as the if-chain's loop reads a flat array of its flags: each reads only its
    /// own inputs, and copies nothing else out of the array (reading the ask out of a `DecisionInput`, flags and all,
    /// cost the evaluator's loop about 120 instructions an ask that the chain's loop did not pay).
    struct Asked {
        var facts: Int
        var ask: Ask
        var now: Int64
        /// An index into the contexts: plain, premium, onboarding, premium and onboarding.
        var context: Int
    }

    /// The runs of asks on one fact set and context, found once before timing. The timed loops take a run's facts and
    /// context into local constants, as an app holds what it decides on while it asks, and read them in place (a
    /// `var` holding the current ones was copied out, 192 bytes, on every ask).
    struct Runs {
        /// For each ask, where its run ends.
        private let ends: [Int]

        init(_ asks: [Asked]) {
            var ends = Array(repeating: asks.count, count: asks.count)
            for i in asks.indices.dropLast().reversed() {
                let same = asks[i + 1].facts == asks[i].facts && asks[i + 1].context == asks[i].context
                ends[i] = same ? ends[i + 1] : i + 1
            }
            self.ends = ends
        }

        /// The runs within a batch, in order (a run a batch boundary cuts is two).
        func within(_ batch: Range<Int>) -> Within { Within(ends: ends, start: batch.lowerBound, end: batch.upperBound) }

        /// A sequence and its own iterator: no closure, so the loops read their arrays in place.
        struct Within: Sequence, IteratorProtocol {
            let ends: [Int]
            var start: Int
            let end: Int

            mutating func next() -> Range<Int>? {
                guard start < end else { return nil }
                let run = start..<Swift.min(ends[start], end)
                start = run.upperBound
                return run
            }
        }
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
            // Interstitials shown before, some less than a minute before the ask: they count for the group only.
            var groupShows = shows
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                let show = start - Int64.random(in: 1_000...(20 * 3_600_000), using: &generator)
                facts.addHistoricalShow(placement: "level_end", at: show, session: 0, policy: policy)
                groupShows.append(show)
            }
            groupShows.sort()
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
                flags.otherFullscreenSince = now
            }
            facts.apply(.appBackgrounded, at: now, policy: policy)
            now += Int64.random(in: 1000...600_000, using: &generator)
            facts.apply(.appResumed, at: now, policy: policy)
            flags.returnedAt = now
            // Asked up to 5s after the return: some asks come after the 3s resume window.
            now += Int64.random(in: 0...5_000, using: &generator)
            flags.shows = shows
            flags.groupShows = groupShows
            flags.dayStart = now - now % 86_400_000
            flags.now = now
            facts.prepareDay(at: now, policy: policy, deviceTimeZone: utc)
            builtFacts.append(facts)
            builtFlags.append(flags)
        }
        // Immutable from here: a decision reads its facts in place, as an app reading its own stored facts does.
        let factSets = builtFacts, flagSets = builtFlags
        var inputs: [DecisionInput] = []
        var mixed: [Asked] = []
        for i in 0..<65_536 {
            let f = Int.random(in: 0..<factSets.count, using: &generator)
            var flags = flagSets[f]
            flags.premium = Int.random(in: 0..<20, using: &generator) == 0
            flags.onboarding = Int.random(in: 0..<10, using: &generator) == 0
            let context = (flags.premium ? 1 : 0) + (flags.onboarding ? 2 : 0)
            inputs.append(DecisionInput(asked: Asked(facts: f, ask: .show(appOpen, trigger: .resume), now: flags.now, context: context), flags: flags))
            let asks: [Ask] = [.show(levelEnd, trigger: .action), .offer(rewardedHint), .load(appOpen), .reward(rewardedHint), .show(appOpen, trigger: .resume)]
            mixed.append(Asked(facts: f, ask: asks[i % asks.count], now: flags.now, context: flags.premium ? 1 : 4))
        }
        // Contexts prepared for the policy, as an app prepares its context when its attributes change.
        let contexts = [
            AskContext.standard, AskContext(premium: true), AskContext(attributes: ["onboarding": .bool(true)]),
            AskContext(premium: true, attributes: ["onboarding": .bool(true)]),
            AskContext(attributes: ["screen": .string("level_complete"), "level": .int(12)]),
        ].map(policy.prepared)
        // Asks are grouped by fact set and context: an app decides on the facts and the context it holds, so the
        // timed runs take each run's into local constants (`Runs`) rather than copy them out of arrays on every
        // ask (the if-chain reads its flags in place too). The allowed and denied asks keep this order.
        inputs.sort { ($0.asked.facts, $0.asked.context) < ($1.asked.facts, $1.asked.context) }
        var allow: [DecisionInput] = []
        var deny: [DecisionInput] = []
        var agree = 0
        for input in inputs {
            let asked = input.asked
            let decision = Evaluator.decide(asked.ask, context: contexts[asked.context], policy: policy, facts: factSets[asked.facts], now: asked.now, deviceTimeZone: utc)
            if decision.isAllowed { allow.append(input) } else { deny.append(input) }
            if decision.isAllowed == input.flags.handWrittenAllows() { agree += 1 }
        }
        // A baseline that decides differently would measure something else.
        guard agree == inputs.count else {
            throw BenchError.missing("the hand-written chain agrees with the evaluator on \(agree) of \(inputs.count) asks, not all")
        }
        func evaluator(_ inputs: [DecisionInput]) -> Timing.Subject {
            let set = inputs.map(\.asked), runs = Runs(set)
            return Timing.Subject(batch: 256, items: set.count) { range in
                var count = 0
                for run in runs.within(range) {
                    let facts = factSets[set[run.lowerBound].facts], context = contexts[set[run.lowerBound].context]
                    for i in run {
                        if Evaluator.decide(set[i].ask, context: context, policy: policy, facts: facts, now: set[i].now, deviceTimeZone: utc).isAllowed { count += 1 }
                    }
                }
                blackHole(count)
            }
        }
        func baseline(_ inputs: [DecisionInput]) -> Timing.Subject {
            let set = inputs.map(\.flags)
            return Timing.Subject(batch: 256, items: set.count) { range in
                var count = 0
                for i in range where set[i].handWrittenAllows() { count += 1 }
                blackHole(count)
            }
        }
        // What the engine asks with: the reasons found into one `Findings` kept from ask to ask, so that a decision
        // dropped before the next ask leaves its list of reasons to be emptied and filled again, not freed.
        func reusing(_ inputs: [DecisionInput]) -> Timing.Subject {
            let set = inputs.map(\.asked), runs = Runs(set)
            return Timing.Subject(batch: 256, items: set.count) { range in
                var count = 0
                var found = Findings()
                for run in runs.within(range) {
                    let facts = factSets[set[run.lowerBound].facts], context = contexts[set[run.lowerBound].context]
                    for i in run {
                        if Evaluator.decide(set[i].ask, context: context, policy: policy, facts: facts, now: set[i].now, deviceTimeZone: utc, reusing: &found).isAllowed { count += 1 }
                    }
                }
                blackHole(count)
            }
        }
        if only == "deny-reusing" {
            let t = Timing.measure(rounds: rounds, reusing(deny))
            return ["Evaluator.decide(reusing:), deny path only: \(format(t.median)) median"]
        }
        if only == "allow" || only == "deny" {
            // Profiling aid: one path alone.
            let t = Timing.measure(rounds: rounds, evaluator(only == "allow" ? allow : deny))
            return ["Evaluator.decide, \(only ?? "") path only: \(format(t.median)) median"]
        }
        // The engine runs, like the evaluator runs, ask one engine (or core) and one context at a time. Each engine's
        // clock reads the time its fact set was generated for, as in the evaluator runs.
        let engines = factSets.indices.map { f in
            AdEngine(policy: policy, facts: factSets[f], clock: ManualClock(Milliseconds.date(flagSets[f].now)), deviceTimeZone: utc)
        }
        let asked = inputs.map(\.asked), runs = Runs(asked)
        let engineTiming = Timing.measure(rounds: rounds, batch: 256, items: asked.count) { range in
            var count = 0
            for run in runs.within(range) {
                let engine = engines[asked[run.lowerBound].facts], context = contexts[asked[run.lowerBound].context]
                for i in run {
                    if engine.ask(asked[i].ask, context: context).isAllowed { count += 1 }
                }
            }
            blackHole(count)
        }
        if only == "engine" {
            return ["AdEngine.ask: \(format(engineTiming.median)) median"]
        }
        // The engine's rules without its lock and clock: what AdEngine runs under the lock, and what the impact
        // preview runs per simulated user. It decides on the facts it holds, in place.
        var cores = factSets.map { EngineCore(policy: policy, facts: $0, deviceTimeZone: utc) }
        let coreTiming = Timing.measure(rounds: rounds, batch: 256, items: asked.count) { range in
            var count = 0
            for run in runs.within(range) {
                let f = asked[run.lowerBound].facts, context = contexts[asked[run.lowerBound].context]
                for i in run {
                    if cores[f].ask(asked[i].ask, context: context, at: asked[i].now).isAllowed { count += 1 }
                }
            }
            blackHole(count)
        }
        if only == "core" {
            return ["EngineCore.ask: \(format(coreTiming.median)) median"]
        }
        let mixedTiming = Timing.measure(rounds: rounds, batch: 256, items: mixed.count) { range in
            for i in range {
                blackHole(Evaluator.decide(mixed[i].ask, context: contexts[mixed[i].context], policy: policy, facts: factSets[mixed[i].facts], now: mixed[i].now, deviceTimeZone: utc))
            }
        }
        // Each measured on its own, every round in a row, as the goals were set: run in turn with the evaluator, the
        // chain takes two to three times as long (its inputs and branches are no longer warm), which would halve
        // the ratios without the evaluator being any faster.
        let allowEval = Timing.measure(rounds: rounds, evaluator(allow)), denyEval = Timing.measure(rounds: rounds, evaluator(deny))
        let allowBase = Timing.measure(rounds: rounds, baseline(allow)), denyBase = Timing.measure(rounds: rounds, baseline(deny))
        let denyReuse = Timing.measure(rounds: rounds, reusing(deny))
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
            row("Evaluator.decide, deny, storage reused", denyReuse, String(format: "%.1fx baseline", denyReuse.median / denyBase.median)),
            row("AdEngine.ask (lock, clock, prepare, decide)", engineTiming, "target <= 150 ns"),
            row("EngineCore.ask (no lock, no clock)", coreTiming),
            row("Evaluator.decide, mixed asks and placements", mixedTiming),
            "hand-written and engine agree on allow/deny in \(agree) of \(inputs.count) asks",
        ]
    }
}
