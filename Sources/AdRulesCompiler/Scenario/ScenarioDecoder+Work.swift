import AdRules
import AdRulesYAML

/// The bound on the work of a scenario file's steps: each `show` or `offer` evaluates the rules and caps of its
/// placement, each `show_started` fills the histories of the placement and its groups, each `app_launched`,
/// `app_backgrounded` and `app_resumed` visits every placement, an ask reads every external fullscreen source
/// reported open and looks at every fullscreen placement and every ad on screen, and a step that sets the clock back
/// or passes a load's deadline goes over every placement (a clock set back also pins every show kept and every external
/// source open). Each test starts with facts for every placement, and its `history` fills the histories of its
/// placements and their groups before the first step.
extension ScenarioDecoder {
    /// The most rule steps (``Policy/ruleWork(listLength:stringLength:contextsPrepared:)`` for each `show` and `offer`, ``Policy/showWork(ofPlacement:)``
    /// for each `show_started`) the tests of one file may take: a few seconds. A 35 KB file of asks against a 14 MB policy of 10,000 rules of 128 comparisons each ran
    /// for over 20 s.
    static let maxWork = 200_000_000

    /// The most rule steps the scenario files of one `test` run may take together: 25 files at ``maxWork``, about 20
    /// seconds, far above what a suite of tests takes. Each file stays under its own bound, but a directory may hold
    /// thousands of them: 100 files of 530 asks (1.9 MB) against a policy of 1,000 rules of 125 comparisons each
    /// (1.9 MB) ran for 85 s, and 10,000 would run for hours.
    package static let maxRunWork = 25 * maxWork

    /// The work of an ask for each external fullscreen source open when there are two or more: they are sorted by
    /// name, and one that timed out adds a note. 5,000 `load` asks with 50,000 sources open took 53 s (about 10 ms
    /// an ask, 12 rule steps a source).
    static let workPerOpenSource = 12

    /// The bytes of the names of the external sources open that count one rule step of an ask: an ask sorts them, and
    /// notes each that timed out by name. 3,500 sources of 4,000-character names and 4,700 asks, counted by the sources
    /// alone, took 77 s (about 16 ms an ask); 850 sources of 900 characters and 19,500 asks, 19 s (about one step for
    /// each 16 bytes of names, in both).
    static let sourceNameBytesPerStep = 16

    /// The most show records a test's `history` may put into the placements' and groups' histories (16 bytes each):
    /// 14,000 shows of a placement in 10,000 groups that each keep 100,000 shows took 3.8 GB and crashed.
    static let maxHistoryRecords = 4_000_000

    /// An error at the first step past ``maxWork`` (or at the test whose start passes it), or at a test whose history is
    /// longer than ``maxHistoryRecords``: the file's tests do not run. `show` and `offer` asks read the rules and caps of
    /// their placement, with the lists the file's contexts give (or the attributes' defaults); `show_started` fills the
    /// histories of the placement and its groups.
    /// - Returns: the work of the file's tests (up to the step past the bound, when one is).
    static func boundWork(of scenario: Scenario, policy: Policy, reader: inout FieldReader) -> Int {
        var longest = policy.defaultListLengths
        var longestText = policy.defaultStringWork
        /// Notes the lists and texts of `attributes`, but those it shares with `base`: an ask's context holds its test's
        /// too, already noted (going over a test context of 1,000 lists of 1,000 strings for each ask that set its own
        /// `premium` took 52 ms an ask). A value copied from the test's shares its storage, so telling it apart is quick.
        func note(_ attributes: [String: AttributeValue], over base: [String: AttributeValue] = [:]) {
            for (name, value) in attributes where base[name] != value {
                switch value {
                case .stringList(let list): longest[name] = max(longest[name] ?? 0, Policy.listWork(of: list))
                case .intList(let list): longest[name] = max(longest[name] ?? 0, list.count)
                case .string(let text): longestText[name] = max(longestText[name] ?? 0, Policy.stringWork(text))
                default: break
                }
            }
        }
        for test in scenario.tests {
            note(test.context.attributes)
            for step in test.steps {
                if case .ask(_, let context?, _) = step.action { note(context.attributes, over: test.context.attributes) }
            }
        }
        let cost = policy.ruleWork(listLength: { longest[$0] ?? 0 }, stringLength: { longestText[$0] ?? 0 })
        var count = WorkCount(policy: policy, ruleWork: cost)
        for test in scenario.tests {
            guard count.start(test, reader: &reader) else { return count.total }
            for step in test.steps {
                guard count.take(step, reader: &reader) else { return count.total }
            }
        }
        return count.total
    }

    /// The work counted so far, and what a test holds as it runs: the sources open, the ads on screen, the show records
    /// kept and the time.
    private struct WorkCount {
        let policy: Policy
        /// The rule work of a `show` or `offer` ask of a placement (by index), with the file's longest lists and texts.
        let ruleWork: (Int) -> Int
        private(set) var total = 0
        private var costs: [Int: Int] = [:]
        private var showCosts: [Int: Int] = [:]
        /// The external sources open (each test starts with none; `app_launched` closes them all), and the bytes of their
        /// names.
        private var sources = Set<String>()
        private var sourceBytes = 0
        /// The placements whose ad is on screen, shown and not closed: an ask looks at each (and notes one that timed out).
        private var showing = Set<String>()
        /// The show records the facts hold, at most: the history's, and each show's in its placement and groups.
        private var records = 0
        private var now: Int64 = 0
        private var loadDeadline = Int64.max

        init(policy: Policy, ruleWork: @escaping (Int) -> Int) {
            self.policy = policy
            self.ruleWork = ruleWork
        }

        private var placements: Int { policy.placements.count }

        /// Counts a test's start: its facts for every placement, and its `history`. False, with an error, past a bound.
        mutating func start(_ test: ScenarioTest, reader: inout FieldReader) -> Bool {
            sources.removeAll()
            sourceBytes = 0
            showing.removeAll()
            now = test.start
            loadDeadline = .max
            var counts: [Int: Int] = [:]
            for show in test.history {
                if let slot = policy.placementID(show.placement).map({ Int($0.slot) }) { counts[slot, default: 0] += 1 }
            }
            records = policy.historyRecords(counts)
            if records > maxHistoryRecords {
                reader.report(.tooLongHistory(records: records, limit: maxHistoryRecords, file: reader.file, range: SourceRange(at: SourcePosition(line: test.location.line, column: test.location.column))))
                return false
            }
            // A test starts with facts for every placement: 20,000 one-step tests against 100,000 placements ran over 30 s.
            let setUp = records + policy.visitWork
            total += setUp
            if total > maxWork {
                let history = records == 1 ? " and 1 show record of history" : records > 1 ? " and \(records) show records of history" : ""
                reader.report(.tooMuchRuleWork(
                    limit: maxWork, perStep: setUp, step: "its start, which sets up each of the \(placements) placements" + history, upTo: "tests", file: reader.file,
                    range: SourceRange(at: SourcePosition(line: test.location.line, column: test.location.column))))
                return false
            }
            return true
        }

        /// Counts a step. False, with an error at the step, once the file's work passes ``maxWork``.
        mutating func take(_ step: ScenarioStep, reader: inout FieldReader) -> Bool {
            // Time itself costs: a clock set back pins every placement's times, and passing a load's deadline
            // settles every placement's loads (30,000 steps moving the clock back and forth against 50,000
            // placements ran 29 s; 100,000 loads timing out, 18 s).
            let time = step.at ?? now.addingSaturated(step.after)
            var timeWork = 0
            // Each show kept and each external source open may be pinned again: 20,000 clocks set back a second
            // at a time against 20,000 shows in 32 groups ran 27 s (about 2 ns a show: an eighth of a rule step
            // here), and 40,000 against 40,000 sources open, over 30 s (about 50 ns a source, as an ask reads one).
            let setBack = time < now
            if setBack { timeWork += policy.visitWork + records / 8 + sources.count * workPerOpenSource }
            if time > loadDeadline {
                timeWork += policy.visitWork
                loadDeadline = .max
            }
            now = time
            var (what, perStep) = work(of: step.action, at: time)
            if timeWork > 0 {
                perStep += timeWork
                if setBack {
                    what += ", whose clock set back pins the times of each of the \(placements) placements"
                    if records > 0 { what += ", of up to \(records) show records kept (a show is kept once for its placement and once for each of its groups)" }
                    if !sources.isEmpty { what += ", of \(sources.count) external fullscreen sources open" }
                } else {
                    what += ", whose time settles the loads of each of the \(placements) placements"
                }
            }
            guard perStep > 0 else { return true }
            total += perStep
            guard total > maxWork else { return true }
            reader.report(.tooMuchRuleWork(
                limit: maxWork, perStep: perStep, step: what, file: reader.file,
                range: SourceRange(at: SourcePosition(line: step.location.line, column: step.location.column))))
            return false
        }

        /// What a step does and its work, but for its time's; notes the sources it opens or closes and the ads it puts on
        /// screen or takes off.
        private mutating func work(of action: ScenarioStep.Action, at time: Int64) -> (what: String, work: Int) {
            var what: String
            var perStep = 0
            switch action {
            case .ask(let ask, _, _):
                what = "an ask of \(ask.placement)"
                if ask.kind == .show || ask.kind == .offer, let slot = policy.placementID(ask.placement).map({ Int($0.slot) }) {
                    perStep = costs[slot] ?? ruleWork(slot)
                    costs[slot] = perStep
                }
                // Show, offer and load asks read the external sources open, and look at every fullscreen
                // placement for one on screen; a reward ask does not (5,000 shows never closed made each of 500
                // loads note 5,000 timed-out ads: 20 s).
                if ask.kind != .reward {
                    perStep += policy.screenWork + showing.count * workPerOpenSource + sourceBytes / sourceNameBytesPerStep
                    if sources.count > 1 {
                        perStep += sources.count * workPerOpenSource
                        what += " with \(sources.count) external fullscreen sources open (\(sourceBytes) bytes of names)"
                    }
                    if showing.count > 1 { what += " with \(showing.count) placements on screen" }
                }
            case .event(.showStarted(let id)):
                // Recording a show fills the histories of the placement and its groups.
                what = "show_started of \(id.rawValue)"
                if let slot = policy.placementID(id.rawValue).map({ Int($0.slot) }) {
                    showing.insert(id.rawValue)
                    perStep = showCosts[slot] ?? policy.showWork(ofPlacement: slot)
                    showCosts[slot] = perStep
                    records = min(records + policy.recordsPerShow(ofPlacement: slot), policy.recordsKeptAtMost)
                }
            case .event(let event) where event == .appLaunched || event == .appBackgrounded || event == .appResumed:
                if event == .appLaunched {
                    sources.removeAll()
                    sourceBytes = 0
                    showing.removeAll()
                    loadDeadline = .max
                }
                (what, perStep) = ("\(event.name), which visits each of the \(placements) placements", policy.visitWork)
            case .event(.fullscreenOpened(let source)):
                if sources.insert(source ?? "").inserted { sourceBytes += source?.utf8.count ?? 0 }
                what = "fullscreen_opened"
            case .event(.fullscreenClosed(let source)):
                if let source {
                    if sources.remove(source) != nil { sourceBytes -= source.utf8.count }
                } else {
                    sources.removeAll()
                    sourceBytes = 0
                }
                what = "fullscreen_closed"
            case .event(let event):
                switch event {
                case .adClosed(let id), .showFailed(let id): showing.remove(id.rawValue)
                case .loadStarted: loadDeadline = min(loadDeadline, time.addingSaturated(policy.loadTimeout.milliseconds))
                default: break
                }
                what = event.name
            }
            return (what, perStep)
        }
    }
}
