import AdRules
import AdRulesCompiler
import AdRulesYAML
import Foundation

/// Loads the policy for scenario files once per rules path, and decodes scenario files against it.
struct ScenarioPolicies {
    enum Prepared {
        case ready(Scenario, Policy, warnings: [Diagnostic])
        /// The policy has errors: every diagnostic, as lint reports them, and how many files it has.
        case brokenPolicy(String, [Diagnostic], files: Int)
        case broken(name: String, [Diagnostic])
        case ioFailure(String)
    }

    private var loaded: [String: Result<PolicyLoad, PolicyLoadError>] = [:]
    /// `--strict`: a policy with warnings fails as one with errors does, before any step, and so does a scenario file
    /// with warnings.
    var strict = false
    /// Whether `--rules` named the policy; else a path's scenario files run against the path itself (a directory) or
    /// the directory a scenario file is in.
    var rulesGiven = false
    /// The work of the scenario files prepared to run so far.
    private var runWork = 0
    /// The most work the run's files may take together.
    var maxRunWork = ScenarioDecoder.maxRunWork

    /// The policy of a PATH when `--rules` is not given: the directory itself, or a file's directory.
    static func defaultRulesPath(for path: String) -> String {
        var isDirectory: ObjCBool = false
        // A path that does not exist is reported as missing; its parent (perhaps the working directory) is never
        // taken for the policy, nor walked to check `--output` against.
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return path }
        if isDirectory.boolValue { return path }
        let parent = PathText.parent(path)
        return parent.isEmpty ? "." : parent
    }

    /// What stops the tests of a policy, or the policy that runs them.
    enum Checked {
        case runnable(Policy)
        case stopped(Prepared)
    }

    /// The policy at `rulesPath`, loaded once, checked as its tests need it.
    mutating func check(_ rulesPath: String) -> Checked {
        if loaded[rulesPath] == nil {
            do { loaded[rulesPath] = .success(try PolicyLoader.load(path: rulesPath)) }
            catch let error as PolicyLoadError { loaded[rulesPath] = .failure(error) }
            catch { loaded[rulesPath] = .failure(.unreadable(rulesPath, reason: "\(error)")) }
        }
        guard let result = loaded[rulesPath] else { return .stopped(.ioFailure("cannot load \(rulesPath)")) }
        let load: PolicyLoad
        switch result {
        case .failure(let error): return .stopped(.ioFailure("\(error)"))
        case .success(let value): load = value
        }
        guard let policy = load.validPolicy, !(strict && !load.diagnostics.isEmpty) else {
            return .stopped(.brokenPolicy(rulesPath, load.diagnostics, files: load.files.count))
        }
        return .runnable(policy)
    }

    /// Whether the policy at `rulesPath` was read as a directory that holds no policy: no rule file, or more entries
    /// than a policy directory may have (a scenario kept in a large folder, which was taken for its policy).
    private func isNoPolicyDirectory(_ rulesPath: String) -> Bool {
        switch loaded[rulesPath] {
        case .failure(.noRuleFiles)?, .failure(.tooManyEntries)?: return true
        default: return false
        }
    }

    mutating func prepare(file: String, rulesPath: String) -> Prepared {
        let policy: Policy
        switch check(rulesPath) {
        case .stopped(.ioFailure(let message)) where !rulesGiven && isNoPolicyDirectory(rulesPath):
            // A scenario file kept apart from its policy: the fix is to name the policy.
            return .ioFailure(message + "; scenario files run against the policy in the directory named (or, for a file, its directory) unless --rules names it: add --rules with the policy's directory or file")
        case .stopped(let prepared): return prepared
        case .runnable(let runnable): policy = runnable
        }
        let bytes: [UInt8]
        do { bytes = try PolicyLoader.readBytes(file) } catch { return .ioFailure("\(error)") }
        let (scenario, diagnostics) = ScenarioDecoder.decode(bytes, file: file, policy: policy)
        if diagnostics.hasErrors { return .broken(name: "\(file) (malformed scenario file)", diagnostics) }
        // With --strict a warning fails the file too: an event about a placement the policy lacks may be a typo that
        // a test expecting a denial would pass over.
        if strict && !diagnostics.isEmpty { return .broken(name: "\(file) (scenario file with warnings, --strict)", diagnostics) }
        // Each file is within its own bound; a run of thousands of them is bounded too (a file that would pass it does
        // not run, and later ones that fit still do).
        guard runWork + scenario.work <= maxRunWork else {
            let at = scenario.tests.first.map { SourceRange(at: SourcePosition(line: $0.location.line, column: $0.location.column)) } ?? .fileStart
            let finding = Diagnostic.tooMuchRunWork(limit: maxRunWork, before: runWork, work: scenario.work, file: file, range: at)
            return .broken(name: "\(file) (not run: the run's scenario files take too long together)", (diagnostics + [finding]).sortedForDisplay())
        }
        runWork += scenario.work
        return .ready(scenario, policy, warnings: diagnostics)
    }
}
