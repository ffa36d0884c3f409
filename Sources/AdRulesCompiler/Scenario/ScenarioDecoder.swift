import AdRules
import AdRulesYAML
import Foundation

/// Reads scenario files through the same YAML reader and diagnostics as rule files.
public enum ScenarioDecoder {
    /// Decodes a scenario file's bytes.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - file: the path used in diagnostics.
    ///   - policy: the policy the scenario runs against (for attribute types).
    /// - Returns: the scenario and every diagnostic.
    public static func decode(_ bytes: [UInt8], file: String, policy: Policy) -> (Scenario, [Diagnostic]) {
        let document = YAMLReader.read(bytes, file: file)
        var reader = FieldReader(file: file, bytes: bytes)
        // `# adrules:disable-next-line RULE` works as in rule files (cli.md, Diagnostics): it hides warnings.
        let suppressions = Suppressions(file: file, bytes: bytes, document: document)
        reader.suppressions = suppressions
        let aliasesAndTags = document.aliasOrTagPositions
        reader.standsForAliasOrTag = { aliasesAndTags.contains($0) }
        var scenario = Scenario(file: file, tests: [])
        let declared = Dictionary(policy.attributes.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
        if let root = document.root, let items = root.items, items.contains(where: { $0.pairs?.contains { $0.key.scalar?.value == "name" } == true }) {
            // The tests written without their `tests:` line: a list of tests at the top.
            reader.report(.testsWithoutTheirLine(found: root, file: file))
        } else if let root = document.root, let pairs = root.pairs, let rules = pairs.first(where: { pair in
            pair.key.scalar.map { RuleFileKeys.topBlocks.contains($0.value) } == true
        }), !pairs.contains(where: { $0.key.scalar?.value == "tests" }) {
            // A rule file named as a scenario file (`extra.test.yaml`): one finding, its name, rather than one a key. The
            // policy leaves such a file out, so its placements are not loaded either.
            reader.report(.ruleFileNamedAsScenario(file, key: rules.key))
        } else if let root = document.root, let pairs = reader.mapping(root, "a scenario file") {
            var sawTests = false
            for (_, pair) in reader.fields(pairs, allowed: ScenarioKeys.top, context: "a scenario file", belongsIn: { ScenarioKeys.relocation(of: $0, in: .file) }) {
                sawTests = true
                guard let items = reader.namedList(pair.value, "tests", entry: "test", entryKeys: ScenarioKeys.test) else { continue }
                // An empty list tests nothing, as a file without `tests:` does (and `test` would pass it, `simulate` replay
                // nothing, with no word).
                if items.isEmpty {
                    reader.report(.noTests(file: file, range: pair.value.range))
                }
                // Each test's name and where it is written first: `PASS`/`FAIL` lines and json name a test by it.
                var names: [String: SourceLocation] = [:]
                // Steps written at the level of the tests (`  - event: …` under a test's `steps:` in place of
                // `    - event: …`): one finding for each run of them, not a test's three missing keys for each.
                let strays = strayStepRuns(items)
                var pastStrays = 0
                for (index, item) in items.enumerated() where index >= pastStrays {
                    if let run = strays[index] {
                        pastStrays = run.upperBound
                        let above = index > 0 ? items[index - 1].pairs?.first { $0.key.scalar?.value == "steps" } : nil
                        // An empty `steps:` just above is where the finding goes: it is the test these steps belong to.
                        if let steps = above?.value, steps.scalar?.isNull == true || steps.items?.isEmpty == true { continue }
                        // (A test above is one with a test's keys: not a list or a broken item, whose steps are nowhere to copy.)
                        let testAbove = index > 0 && items[index - 1].pairs?.contains { ["name", "start", "steps"].contains($0.key.scalar?.value) } == true
                        reader.report(.stepsAtTestLevel(items[run], testAbove: testAbove, emptySteps: nil, file: file))
                        continue
                    }
                    let following = strays[index + 1].map { items[$0] }
                    guard let test = decodeTest(item, strayStepsBelow: following, policy: policy, declared: declared, reader: &reader) else { continue }
                    scenario.tests.append(test)
                    guard let first = names[test.name] else {
                        names[test.name] = test.location
                        continue
                    }
                    let at = item.pairs?.first { $0.key.scalar?.value == "name" }?.value.range ?? item.range
                    if !reader.isSuppressed("scenario/duplicate-name", at: at) {
                        reader.report(.repeatedTestName(test.name, first: first, file: file, range: at))
                    }
                }
            }
            // A misspelt `test:` is told "did you mean tests" where it stands: not also that the file has no tests.
            let misspelt = pairs.contains { pair in pair.key.scalar.map { Suggestion.closest(to: $0.value, in: ScenarioKeys.top) == "tests" } ?? false }
            if !sawTests, !misspelt {
                reader.report(.missingKey("tests", in: "this scenario file", example: "tests:", file: file, range: SourceRange(at: root.range.start)))
            }
        } else if document.root == nil && document.diagnostics.isEmpty {
            reader.report(.missingKey("tests", in: "this scenario file", example: "tests:", file: file, range: .fileStart))
        }
        scenario.work = boundWork(of: scenario, policy: policy, reader: &reader)
        // Undeclared attribute names past the first hundred are counted: no name is dropped without a word.
        if !reader.notReported.isEmpty {
            reader.report(.undeclaredAttributesNotListed(reader.notReported.count, file: file))
        }
        // Findings past the limit are counted: a dropped error still makes the file malformed, so no test of it runs.
        let found = (document.diagnostics + reader.diagnostics + (reader.tooManyFindings.map { [$0] } ?? [])).withoutRepeatsOfAliasesAndTags()
        let diagnostics = suppressions.applied(to: found).sortedForDisplay()
        return (scenario, diagnostics)
    }

    /// The runs of entries of `tests:` that read as steps (an `event:` or an `ask:`, and no name, start or steps), by
    /// the index of their first entry.
    static func strayStepRuns(_ items: [YAMLNode]) -> [Int: Range<Int>] {
        func readsAsStep(_ item: YAMLNode) -> Bool {
            guard let keys = item.pairs?.compactMap({ $0.key.scalar?.value }) else { return false }
            return keys.contains { $0 == "event" || $0 == "ask" } && !keys.contains { $0 == "name" || $0 == "start" || $0 == "steps" }
        }
        var runs: [Int: Range<Int>] = [:]
        var index = 0
        while index < items.count {
            guard readsAsStep(items[index]) else {
                index += 1
                continue
            }
            var end = index + 1
            while end < items.count, readsAsStep(items[end]) { end += 1 }
            runs[index] = index..<end
            index = end
        }
        return runs
    }

    static func time(_ node: YAMLNode, _ key: String, reader: inout FieldReader) -> (ms: Int64, offset: Int)? {
        guard let text = node.scalar?.value else {
            reader.report(.badTime(key, found: node, problem: .shape, file: reader.file))
            return nil
        }
        let ms: Int64
        switch Timestamps.read(text) {
        case .success(let time): ms = time
        case .failure(let problem):
            reader.report(.badTime(key, found: node, problem: problem, file: reader.file))
            return nil
        }
        var offset = 0
        if !(text.hasSuffix("Z") || text.hasSuffix("z")), text.count >= 6 {
            let tail = Array(text.suffix(6))
            if let h = Int(String(tail[1...2])), let m = Int(String(tail[4...5])) {
                offset = (h * 3600 + m * 60) * (tail[0] == "-" ? -1 : 1)
            }
        }
        return (ms, offset)
    }
}
