import AdRules
import AdRulesYAML
import Foundation

/// Loads policies from files, directories or in-memory texts.
public enum PolicyLoader {
    /// Whether a file name is a scenario file (`*.test.yaml` / `*.test.yml`), which policies skip.
    public static func isScenarioFile(_ path: String) -> Bool {
        FileNames.isScenario(path)
    }

    /// Whether a file name is a YAML file.
    public static func isYAMLFile(_ path: String) -> Bool {
        FileNames.isYAML(path)
    }

    /// Whether `path` is a file named as a scenario file or a usage model, which a policy never holds: given as a
    /// policy, it is a mistake in the command (a glob such as `rules/*.yaml` takes them in).
    public static func isNamedAsNoRuleFile(_ path: String) -> Bool {
        (isScenarioFile(path) || isUsageModel(path)) && FileManager.default.fileExists(atPath: path) && !isDirectory(path)
    }

    /// The rule files of a path: the file itself, or every `*.yaml`/`*.yml` below a directory (recursively,
    /// sorted), scenario files and usage models (`*.model.yaml`, read by `adrules impact`) excluded.
    /// - Throws: ``PolicyLoadError`` when the path does not exist or cannot be listed.
    public static func ruleFiles(at path: String) throws -> [String] {
        // Named on its own, a scenario file or a usage model would be read as a rule file and get rule-file advice.
        if isNamedAsNoRuleFile(path) { throw PolicyLoadError.notRuleFile(path) }
        let found = try files(at: path) { isRuleFile($0) }
        guard found.count <= maxFiles else {
            throw PolicyLoadError.tooLarge(path, reason: "\(found.count) rule files; a policy may have at most \(maxFiles)")
        }
        return found
    }

    /// Whether a path names a directory (a symbolic link to one included).
    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Whether a path names a rule file: YAML, and neither a scenario file nor a usage model.
    public static func isRuleFile(_ path: String) -> Bool {
        isYAMLFile(path) && !isScenarioFile(path) && !isUsageModel(path)
    }

    /// Whether a file name is a usage model of `adrules impact` (`*.model.yaml` / `*.model.yml`), which policies skip.
    public static func isUsageModel(_ path: String) -> Bool {
        FileNames.isUsageModel(path)
    }

    /// Loads the policy at a path (a rule file or a directory of them) and lints it.
    /// - Throws: ``PolicyLoadError`` for I/O failures; problems in the files are diagnostics.
    public static func load(path: String) throws -> PolicyLoad {
        switch try readPolicy(path: path) {
        case .compiled(let bytes): return loadCompiled(bytes: bytes, path: path)
        case .ruleFiles(let sources): return load(sources: sources)
        }
    }

    /// What a path given as a policy holds: a compiled policy's document, or rule files.
    enum PolicyInput {
        case compiled([UInt8])
        case ruleFiles([(file: String, bytes: [UInt8])])
    }

    /// Reads the policy at a path, as every command that takes one reads it.
    static func readPolicy(path: String) throws -> PolicyInput {
        if isCompiledPolicyFile(path) { return .compiled(try readBytes(path, limit: Policy.maxCompiledBytes)) }
        let sources = try readSources(path: path)
        // A compiled policy named otherwise (`policy.bak`) is read as one: its document says what it is, and read as
        // YAML its every key would be a finding.
        if sources.count == 1, sources[0].file == path, looksCompiled(sources[0].bytes) { return .compiled(sources[0].bytes) }
        return .ruleFiles(sources)
    }

    /// Whether a file's bytes are a compiled policy's document: a JSON object that names its format in the first
    /// megabyte (the writer puts `files` first, then `format`).
    static func looksCompiled(_ bytes: [UInt8]) -> Bool {
        guard bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{") else { return false }
        return String(decoding: bytes.prefix(1 << 20), as: UTF8.self).contains("\"adrules-compiled-policy\"")
    }

    /// Whether a path names a compiled policy (`*.json`, as `adrules compile` writes) rather than rule files.
    public static func isCompiledPolicyFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileNames.hasSuffix(path, ".json") && FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// Loads a compiled policy; a bad document is one `compiled/invalid` diagnostic, as lint reports it.
    /// - Throws: ``PolicyLoadError`` when the file cannot be read.
    public static func loadCompiled(path: String) throws -> PolicyLoad {
        loadCompiled(bytes: try readBytes(path, limit: Policy.maxCompiledBytes), path: path)
    }

    /// Validates the bytes of a compiled policy read from `path`.
    package static func loadCompiled(bytes: [UInt8], path: String) -> PolicyLoad {
        do {
            let policy = try Policy(compiled: Data(bytes))
            try checkConditions(of: policy)
            return PolicyLoad(policy: policy, diagnostics: [], files: [path])
        } catch {
            let compiled = error as? CompiledPolicyError
            // At the byte a syntax error was found at, else at the value its path names (or the deepest part of
            // the path that is there): a pretty-printed or hand-edited document gets a line to look at.
            // A part of a value is looked for within the value read (of a key written twice, the copy read).
            let offset = compiled.flatMap { error in
                error.offset ?? error.anchor.map { CompiledPolicyLocator.offset(of: error.pathInAnchor + error.part, in: bytes, from: $0) ?? $0 }
                    ?? CompiledPolicyLocator.offset(of: error.path + error.part, in: bytes)
            }
            let range = offset.map { SourceRange(at: UTF8Check.position(ofByte: $0, in: bytes)) } ?? .fileStart
            var diagnostic = Diagnostic.invalidCompiledPolicy(error, file: path, range: range)
            if readsAsYAML(bytes) {
                // Not a damaged download: a rule file under the wrong name, which "compile it again" would not fix.
                diagnostic.message = "invalid compiled policy: the file reads as YAML, not JSON, and a file named .json is read as a"
                    + " compiled policy (what adrules compile writes): name a rule file .yaml (a scenario .test.yaml, a usage model .model.yaml)"
            }
            return PolicyLoad(policy: .empty, diagnostics: [diagnostic], files: [path])
        }
    }

    /// Whether a file that is no JSON starts as a YAML rule file, scenario or model does: its first line that is neither
    /// blank nor a comment is a plain key and a colon (`version: 1`, `tests:`), which no JSON document starts with.
    static func readsAsYAML(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
        guard let line = text.split(whereSeparator: \.isNewline).first(where: {
            let trimmed = $0.drop { $0 == " " || $0 == "\u{FEFF}" }
            return !trimmed.isEmpty && !trimmed.hasPrefix("#") && trimmed != "---"
        }) else { return false }
        let key = line.drop { $0 == " " || $0 == "\u{FEFF}" }.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }
        return !key.isEmpty && line.drop { $0 == " " || $0 == "\u{FEFF}" }.dropFirst(key.count).hasPrefix(":")
    }

    /// Refuses a compiled policy whose rule runs a condition other than its `when` text says. The runtime runs the
    /// condition, and cannot read the text (it has no parser); every report shows the text (a reason's rule, the diff of
    /// `impact --compare`). A policy `adrules compile` wrote passes; one edited on the way (a server's) would deny on a
    /// condition no reviewer sees.
    private static func checkConditions(of policy: Policy) throws(CompiledPolicyError) {
        for (index, rule) in policy.rules.enumerated() {
            let compiled: CompiledExpression?
            if case .success(let expression) = ExpressionCompiler.compile(rule.when.value, attributes: policy.attributes) {
                compiled = expression
            } else {
                compiled = nil
            }
            guard let compiled, compiled == rule.condition else {
                let what = compiled == nil ? "its when text does not compile against the policy's attributes" : "it runs a condition other than its when text says"
                throw CompiledPolicyError(
                    path: "rules[\(index)].when[0]", "rule \(rule.id): \(what); every report shows the text, so the policy would deny on a condition no one reviewed")
            }
        }
    }

    /// Reads the rule files of a policy path, with the size and count limits applied.
    /// - Throws: ``PolicyLoadError``.
    public static func readSources(path: String) throws -> [(file: String, bytes: [UInt8])] {
        let files = try ruleFiles(at: path)
        guard !files.isEmpty else { throw PolicyLoadError.noRuleFiles(path) }
        var sources: [(file: String, bytes: [UInt8])] = []
        var total = 0
        for file in files {
            let bytes = try readBytes(file)
            total += bytes.count
            guard total <= maxPolicyBytes else {
                throw PolicyLoadError.tooLarge(path, reason: "its files hold more than \(maxPolicyBytes / 1024 / 1024) MiB")
            }
            sources.append((file, bytes))
        }
        return sources
    }

    /// Loads a policy from in-memory texts (tests, apps that ship rules in code).
    public static func load(texts: [(file: String, text: String)]) -> PolicyLoad {
        load(sources: texts.map { ($0.file, Array($0.text.utf8)) }, emptyPolicyFile: nil)
    }

    /// Loads a policy from file contents.
    /// - Parameter checkingSwiftNames: also report ids that share a name in the generated Swift (`swift/name-clash`,
    ///   what `compile --format swift` and the build plugin check), as the other findings are: comments can hide them,
    ///   and a file shows at most a thousand.
    public static func load(
        sources: [(file: String, bytes: [UInt8])], emptyPolicyFile: String? = nil, checkingSwiftNames: Bool = false
    ) -> PolicyLoad {
        var diagnostics: [Diagnostic] = []
        var fragments: [PolicyFragment] = []
        var dropped: [String: (count: Int, errors: Int)] = [:]
        /// The files whose entries were read through unchecked past ``FieldReader/maxCountedFindings``.
        var unchecked: Set<String> = []
        /// Per file whose read was cut short: the finding that cut it.
        var broken: [String: Diagnostic] = [:]
        var textScalars: [String: [SourceRange]] = [:]
        for source in sources {
            // Decoded straight from libyaml's events: no node tree of the file is built.
            YAMLEventCursor.read(source.bytes, file: source.file) { cursor in
                var reader = FieldReader(file: source.file, bytes: source.bytes)
                reader.standsForAliasOrTag = { cursor.aliasOrTagPositions.contains($0) }
                // The comments are applied once the file is read; what they may hide does not count towards the limit.
                reader.mayBeSuppressed = Suppressions(sources: [source], scalars: [:])
                let fragment = PolicyFragment.decode(cursor, reader: &reader)
                cursor.finish(checkingLaterDocuments: true)
                diagnostics += cursor.diagnostics
                if let cause = cursor.brokenBy { broken[source.file] = cause }
                textScalars[source.file] = cursor.textScalars
                if cursor.droppedFindings > 0 { dropped[source.file] = (cursor.droppedFindings, cursor.droppedFindings) }
                // A read cut short inside the document (a syntax error) decodes nothing: its findings would only repeat it.
                guard cursor.hasReadRoot || cursor.diagnostics.isEmpty else { return }
                fragments.append(fragment)
                // A scenario file or usage model saved under a rule file's name (`rewarded_test.yaml`) is told its name,
                // once, rather than every key it holds that no rule file has.
                if fragment.holdsNoRules, let misnamed = Diagnostic.misnamedFile(source.file, topLevelKeys: reader.unknownTopLevelKeys) {
                    // Anchors and aliases are a scenario file's or a model's to use: only rule files refuse them.
                    diagnostics.removeAll { $0.file == source.file && $0.rule == "yaml/alias" }
                    dropped[source.file] = nil
                    diagnostics.append(misnamed)
                    return
                }
                diagnostics += reader.diagnostics
                if reader.stoppedChecking { unchecked.insert(source.file) }
                if reader.dropped > 0 {
                    let yaml = dropped[source.file] ?? (0, 0)
                    dropped[source.file] = (yaml.count + reader.dropped, yaml.errors + reader.droppedErrors)
                }
            }
        }
        let files = sources.map(\.file)
        var assembler = PolicyAssembler()
        assembler.sources = Dictionary(sources.map { ($0.file, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        let unreadRoot = fragments.contains(where: \.rootUnread)
        let unreadPlacements = fragments.contains(where: \.placementsUnread)
        let policy = assembler.assemble(consume fragments, files: files.isEmpty ? [emptyPolicyFile ?? ""] : files)
        diagnostics += assembler.diagnostics
        diagnostics += SemanticLint.run(
            policy, withUnreadSettings: assembler.placementsWithErrors, defaultsWritten: assembler.defaultsWritten, leftOut: assembler.leftOut)
        if checkingSwiftNames { diagnostics += GeneratedSwift.nameClashes(in: policy) }
        // After a syntax error, a file's other findings and the policy-wide ones only repeat it (cli.md r2). What the
        // other files say about themselves stands.
        if !broken.isEmpty {
            diagnostics = diagnostics.filter { d in
                if let cause = broken[d.file] { return d == cause }
                return !mayFollowFromAnUnreadFile.contains(d.rule)
            }
        } else if unreadRoot || !unchecked.isEmpty || diagnostics.contains(where: { $0.rule == "yaml/multiple-documents" }) {
            // A file that is not a mapping (a list, a word) was not read either: its own findings stand, the policy-wide
            // ones that follow from it do not ("the policy has no placements" beside "a rule file must be a mapping").
            // Nor is a document after the first (a stray `---`): a group or rule naming a placement defined there would
            // be told to define it. Nor are the entries of a file past so many findings that it was no longer checked.
            diagnostics = diagnostics.filter { !mayFollowFromAnUnreadFile.contains($0.rule) }
        } else if unreadPlacements {
            // A `placements:` that is not a mapping (a list, a word) left only its placements unread: "the policy has no
            // placements" and "unknown placement" follow from that; what the rest of the file says stands.
            diagnostics = diagnostics.filter { $0.rule != "policy/empty" && $0.rule != "policy/unknown-placement" }
        } else {
            // Unknown placements past a report's worth were counted, not built (never hidden by a comment: an error).
            for (file, count) in assembler.droppedUnknownPlacements {
                let before = dropped[file] ?? (0, 0)
                dropped[file] = (before.count + count, before.errors + count)
            }
        }
        let suppressions = Suppressions(sources: sources, scalars: textScalars)
        diagnostics = suppressions.applied(to: diagnostics.withoutRepeatsOfAliasesAndTags().withoutEmptyValuesOfRepeatedKeys())
        // (Not in a file with a syntax error: nothing else is said about it.)
        let unknownRules = suppressions.unknownRuleNames(limit: FieldReader.maxDiagnostics)
        diagnostics += unknownRules.shown.filter { broken[$0.file] == nil }
        for (file, count) in unknownRules.dropped where broken[file] == nil {
            dropped[file, default: (0, 0)].count += count
        }
        // Widened once capped: at most a thousand findings a file, in file order, each line read once.
        let shown = TokenExtent.widened(capped(diagnostics.sortedForDisplay(), dropped: dropped, unchecked: unchecked), sources: sources)
        return PolicyLoad(
            policy: policy, diagnostics: shown, files: files, written: assembler.writtenSettings, valueLocations: assembler.valueLocations,
            policyStart: assembler.policyStart)
    }
    /// At most ``FieldReader/maxDiagnostics`` findings per file, errors before warnings, then one
    /// `lint/too-many-findings` saying how many more there are: the errors are the ones to fix, and a hostile file
    /// cannot flood a CI log.
    /// - Parameter dropped: per file, the findings its reader did not keep (past the limit), and how many were errors.
    /// - Parameter unchecked: the files read through unchecked past so many findings, which their summary says.
    static func capped(_ diagnostics: [Diagnostic], dropped: [String: (count: Int, errors: Int)], unchecked: Set<String> = []) -> [Diagnostic] {
        var shown: [String: Int] = [:]
        var hidden = dropped
        var kept: [Diagnostic] = []
        // Errors first: a flood of warnings never hides an error (what fails the run is what to fix first).
        for d in diagnostics.filter({ $0.severity == .error }) + diagnostics.filter({ $0.severity != .error }) {
            let n = shown[d.file, default: 0]
            if n < FieldReader.maxDiagnostics {
                kept.append(d)
                shown[d.file] = n + 1
            } else {
                hidden[d.file, default: (0, 0)].count += 1
                if d.severity == .error { hidden[d.file, default: (0, 0)].errors += 1 }
            }
        }
        guard !hidden.isEmpty else { return kept.sortedForDisplay() }
        // The summary weighs what it hides: an error only when an error is among them (warnings alone do not fail
        // lint without --strict), or when the rest of the file went unchecked.
        for (file, count) in hidden where count.count > 0 {
            kept.append(.tooManyFindings(count.count, errors: count.errors, file: file, readToTheEnd: !unchecked.contains(file)))
        }
        return kept.sortedForDisplay()
    }

    /// Findings that a file left unread may have caused: no placement at all, a placement, attribute, `defaults:`
    /// pacing or `environment: test` that the unread file may hold.
    static let mayFollowFromAnUnreadFile: Set<String> = [
        "policy/empty", "policy/unknown-placement", "rule/unknown-name", "pacing/missing", "ids/test-ad-unit",
        // The Swift names a file left unread would take change which id gets which number.
        "swift/name-clash",
    ]

}
