import AdRules
import Foundation
import Testing

/// `Policy(compiledContentsOf:)`: what an app reads from disk (a downloaded policy) may be no file at all. It never
/// blocks, and every error names the file and says what it is.
@Suite("Compiled policy files")
struct CompiledFileTests {
    static let text = "version: 1\nplacements:\n  inter: {format: interstitial, daily_cap: 3}\n"

    func fileError(_ path: String) -> PolicyFileError? {
        do {
            _ = try Policy(compiledContentsOf: URL(fileURLWithPath: path))
            return nil
        } catch {
            return error as? PolicyFileError
        }
    }

    @Test func aRegularFileLoads() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/policy.json"
            let document = try policy(Self.text).compiledDocument(relativePath: { $0 }, sourceDigest: "sha256:0", generator: "test")
            try document.write(to: URL(fileURLWithPath: path))
            let loaded = try Policy(compiledContentsOf: URL(fileURLWithPath: path))
            #expect(loaded.placement("inter")?.dailyCap?.value == 3)
        }
    }

    @Test func aPathHoldingANULIsRefusedNotReadUpToIt() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/policy.json"
            let document = try policy(Self.text).compiledDocument(relativePath: { $0 }, sourceDigest: "sha256:0", generator: "test")
            try document.write(to: URL(fileURLWithPath: path))
            // A file URL escapes the NUL (`%00`): no such file.
            #expect(fileError(path + "\u{0}.bak")?.reason == "there is no file at \(path)%00.bak")
            // A path given as text (the tools' rule files, the ledger) would be read up to the NUL, policy.json in place
            // of the file named: refused.
            #expect(throws: BoundedFile.Failure.nulInPath) { _ = try BoundedFile.read(path + "\u{0}.bak", limit: 1 << 20) }
        }
    }

    @Test func specialFilesAreRefusedAtOnceWithWhatTheyAre() throws {
        try withTemporaryDirectory { directory in
            let fifo = directory + "/fifo.json"
            #expect(mkfifo(fifo, 0o644) == 0)
            // A FIFO with no writer used to block the read for good: the test would not return.
            #expect(fileError(fifo)?.description == "cannot load the compiled policy: \(fifo) is not a regular file (a FIFO)")
            #expect(fileError(directory)?.reason == "\(directory) is not a regular file (a directory)")
            let loop = directory + "/a"
            try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: directory + "/b")
            try FileManager.default.createSymbolicLink(atPath: directory + "/b", withDestinationPath: loop)
            let looped = try #require(fileError(loop))
            #expect(looped.reason.hasPrefix("cannot open \(loop): "), "\(looped)")
            #expect(looped.reason.contains("errno \(ELOOP)"), "\(looped)")
            #expect(fileError(directory + "/missing.json")?.reason == "there is no file at \(directory)/missing.json")
            #expect(fileError("/dev/zero")?.reason == "/dev/zero is not a regular file (a character device)")
        }
    }

    @Test func aFileOverTheLimitIsRefusedForItsSize() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/big.json"
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.truncate(atOffset: UInt64(Policy.maxCompiledBytes + 10))
            try handle.close()
            #expect(throws: CompiledPolicyError("the document is \(Policy.maxCompiledBytes + 10) bytes; at most \(Policy.maxCompiledBytes) (64 MiB) are accepted")) {
                _ = try Policy(compiledContentsOf: URL(fileURLWithPath: path))
            }
        }
    }
}

/// What groups may keep in all is bounded when a policy loads: each show of a placement goes into the history of each
/// of its groups (10,000 groups of one placement with a cap of 100,000 in 366d, and 20,000 shows in the ledger, took
/// 3.9 GB and crashed the engine at start-up).
@Suite("Group histories bound")
struct GroupRecordsBoundTests {
    /// A compiled policy of one placement in `groups` groups, each with a cap of `max` in 366d.
    func document(groups: Int, max: Int) throws -> Data {
        let base = try policy("version: 1\nplacements:\n  p: {format: interstitial, daily_cap: 100000}\n")
            .compiledDocument(relativePath: { $0 }, sourceDigest: "sha256:0", generator: "test")
        var object = try #require(try JSONSerialization.jsonObject(with: base) as? [String: Any])
        object["groups"] = (0..<groups).map { g in
            ["id": "g\(g)", "at": [0, 1, 1], "placements": [["p", 0, 1, 1]], "caps": [[["max": max, "window": 31_622_400_000], 0, 1, 1]]] as [String: Any]
        }
        return try JSONSerialization.data(withJSONObject: object)
    }

    @Test func aCompiledPolicyWhoseGroupsKeepTooMuchIsRefused() throws {
        // 19 groups keeping 100,002 shows each (their cap and one more than their one member, whose show_failed may
        // take a show back): 1,900,038, within the 2,000,000 allowed.
        let within = try Policy(compiled: try document(groups: 19, max: 100_000))
        #expect(within.groups.count == 19)
        // 10,000 small caps keep little: 10,000 x (5 + 2).
        #expect(try Policy(compiled: try document(groups: 10_000, max: 5)).groups.count == 10_000)
        #expect(throws: CompiledPolicyError(
            path: "groups[19]",
            "the groups keep up to 2100042 show records in all (a group with a cap keeps its largest cap, one more for each member up to 512 and one besides; a group without one, one more than its members up to 512; each show of a member goes into each), more than the 2000000 a policy may keep: lower the groups' caps, or use fewer groups (put placements that share caps in one group) in the rule files, then compile them again")) {
            _ = try Policy(compiled: try document(groups: 21, max: 100_000))
        }
    }
}
