import AdRules
import AdRulesTestSupport
import Foundation

/// A ledger store whose loads and saves fail when a test says so.
final class ScriptedStore: LedgerStore, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: LedgerSnapshot?
    private var failLoad: (any Error)?
    private var failSave: (any Error)?
    private var written: [LedgerSnapshot] = []

    init(_ snapshot: LedgerSnapshot? = nil, loadError: (any Error)? = nil, saveError: (any Error)? = nil) {
        stored = snapshot
        failLoad = loadError
        failSave = saveError
    }

    func load() throws -> LedgerSnapshot? {
        try lock.withLock {
            if let failLoad { throw failLoad }
            return stored
        }
    }

    func save(_ snapshot: LedgerSnapshot) throws {
        try lock.withLock {
            if let failSave { throw failSave }
            stored = snapshot
            written.append(snapshot)
        }
    }

    /// What a load throws from now on; nil makes loads succeed.
    func setLoadError(_ error: (any Error)?) { lock.withLock { failLoad = error } }
    /// What a save throws from now on; nil makes saves succeed.
    func setSaveError(_ error: (any Error)?) { lock.withLock { failSave = error } }
    /// Replaces the stored snapshot behind the engine's back (another process, a restored backup).
    func setStored(_ snapshot: LedgerSnapshot?) { lock.withLock { stored = snapshot } }
    /// Every snapshot saved, oldest first.
    var saved: [LedgerSnapshot] { lock.withLock { written } }
}

/// A fresh directory under the temporary directory, removed after `body`.
func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let directory = scratchPath("adrules")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    return try body(directory)
}

/// Runs `body` on a thread of its own; false when it has not returned within `seconds` (a deadlock or a hang),
/// so that such a bug fails the test instead of stopping the whole run.
func finishes(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.start()
    return done.wait(timeout: .now() + seconds) == .success
}

/// The files in a directory whose names contain `part`.
func files(in directory: String, containing part: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.contains(part) }.sorted()
}

/// 2026-11-29T09:00:00Z, the start of most engine tests.
let engineTestStart = Date(timeIntervalSince1970: 1_795_942_800)
let engineTestStartMs = Milliseconds.from(engineTestStart)
