import AdRules
import Foundation
import Testing

/// A FIFO, a device or a folder where the ledger should be: the ledger is never written over it (a rename made the FIFO,
/// or a device node such as a copy of `/dev/null`, a regular file), as docs/limits.md promises: "not a regular file:
/// unreadable, left alone and reported".
@Suite("Ledger: a special file at the path is left alone")
struct LedgerSpecialFileTests {
    static let snapshot = LedgerSnapshot(installedAt: engineTestStartMs, sessionCount: 1, shows: [:])

    /// The type of what is at `path`, without following a link there.
    static func kind(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    @Test func aSaveOverAFIFOThrowsAndKeepsIt() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            #expect(mkfifo(path, 0o644) == 0)
            #expect(throws: LedgerError.self) { try FileLedgerStore(path: path).save(Self.snapshot) }
            #expect(Self.kind(path) == S_IFIFO, "the FIFO was replaced")
            #expect(files(in: directory, containing: ".tmp-").isEmpty, "no temporary file is left behind")
        }
    }

    @Test func aSaveThroughALinkToAFIFOThrowsAndKeepsIt() throws {
        try withTemporaryDirectory { directory in
            let fifo = directory + "/pipe"
            #expect(mkfifo(fifo, 0o644) == 0)
            let path = directory + "/ledger.json"
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "pipe")
            do {
                try FileLedgerStore(path: path).save(Self.snapshot)
                Issue.record("a save through a link to a FIFO succeeded")
            } catch let error as LedgerError {
                #expect("\(error)".contains("FIFO"), "\(error)")
            }
            #expect(Self.kind(fifo) == S_IFIFO, "the FIFO was replaced")
            #expect(Self.kind(path) == S_IFLNK)
        }
    }

    /// The engine started with no ledger (nothing to read, so it writes), and a FIFO then stands at the path: the
    /// next write reports the problem and leaves the FIFO there.
    @Test func anEngineDoesNotWriteOverAFIFOThatAppearedAtThePath() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            let problems = ProblemLog()
            let engine = AdEngine(
                policy: try policy("version: 1\nplacements:\n  inter: {format: interstitial}\n"), clock: ManualClock(engineTestStart),
                store: FileLedgerStore(path: path), onLedgerProblem: { problems.append($0) })
            try FileManager.default.removeItem(atPath: path)
            #expect(mkfifo(path, 0o644) == 0)
            engine.record(.appLaunched)
            #expect(Self.kind(path) == S_IFIFO, "the FIFO was replaced")
            #expect(problems.all.contains { if case .unwritable = $0 { return true } else { return false } }, "\(problems.all)")
        }
    }
}

/// A ledger path with a NUL in it: the system reads a path only up to the NUL, so "notes.txt\0.ledger" named the app's
/// notes.txt, which the engine moved aside as a corrupt ledger. The path is refused as it is, and nothing is touched.
@Suite("Ledger: a path with a NUL names no file")
struct LedgerNULPathTests {
    @Test func aPathWithANULIsAnIOErrorAndTouchesNothing() throws {
        try withTemporaryDirectory { directory in
            let notes = directory + "/notes.txt"
            try Data("my notes".utf8).write(to: URL(fileURLWithPath: notes))
            let store = FileLedgerStore(path: notes + "\0.ledger")
            #expect(throws: LedgerError.self) { _ = try store.load() }
            #expect(throws: LedgerError.self) { try store.save(LedgerSpecialFileTests.snapshot) }
            let problems = ProblemLog()
            let engine = AdEngine(
                policy: try policy("version: 1\nplacements:\n  inter: {format: interstitial}\n"), clock: ManualClock(engineTestStart),
                store: store, onLedgerProblem: { problems.append($0) })
            engine.record(.appLaunched)
            #expect(FileManager.default.contents(atPath: notes) == Data("my notes".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["notes.txt"])
            #expect(problems.all.contains { if case .unreadable(let reason) = $0 { return reason.contains("NUL") } else { return false } }, "\(problems.all)")
        }
    }
}

/// A ledger path ending in `.` or `..` names a folder, as one ending in `/` does: a save made its lock file (`..lock`,
/// `...lock`) in the folder above and then failed at the rename. It is refused as it is, and nothing is created.
@Suite("Ledger: a path ending in . or .. names no file")
struct LedgerDotPathTests {
    @Test(arguments: ["/.", "/..", "/sub/.."])
    func aPathEndingInADotNamesAFolder(ending: String) throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: false)
            let store = FileLedgerStore(path: directory + ending)
            do {
                try store.save(LedgerSpecialFileTests.snapshot)
                Issue.record("a save to \(ending) succeeded")
            } catch let error as LedgerError {
                #expect("\(error)".contains("names a folder"), "\(error)")
            }
            #expect(throws: LedgerError.self) { _ = try store.load() }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["sub"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/sub").isEmpty)
        }
    }
}

/// A link at the ledger's path that leads to `..`, `.` or a name ending in `/` leads to a folder as surely as such a path
/// does: it is refused as the path is, and no lock file (`...lock`) is left in the folder.
@Suite("Ledger: a link at the path that leads to a folder's name")
struct LedgerLinkToDotPathTests {
    @Test(arguments: ["..", ".", "sub/", "sub/.."])
    func aLinkToADotNamesAFolder(target: String) throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory + "/in/sub", withIntermediateDirectories: true)
            let path = directory + "/in/ledger.json"
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
            let store = FileLedgerStore(path: path)
            do {
                try store.save(LedgerSpecialFileTests.snapshot)
                Issue.record("a save through a link to \(target) succeeded")
            } catch let error as LedgerError {
                #expect("\(error)".contains("names a folder"), "\(error)")
            }
            #expect(throws: LedgerError.self) { _ = try store.load() }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["in"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/in").sorted() == ["ledger.json", "sub"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/in/sub").isEmpty)
        }
    }

    /// `...` (or `.ledger`, `a..b`) is a file's name, not a folder's: such a ledger is written and read back.
    @Test(arguments: ["/...", "/.ledger", "/a..b", "/sub/../..."])
    func aNameWithDotsThatIsNoFoldersIsALedger(ending: String) throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: false)
            let store = FileLedgerStore(path: directory + ending)
            try store.save(LedgerSpecialFileTests.snapshot)
            #expect(try store.load() == LedgerSpecialFileTests.snapshot)
        }
    }
}
