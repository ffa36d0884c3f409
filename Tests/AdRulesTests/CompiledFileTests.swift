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

    @Test func specialFilesAreRefusedAtOnceWithWhatTheyAre() throws {
        try withTemporaryDirectory { directory in
            let fifo = directory + "/fifo.json"
            #expect(mkfifo(fifo, 0o644) == 0)
            // A FIFO with no writer used to block the read for good.
            let started = Date()
            #expect(fileError(fifo)?.description == "cannot load the compiled policy: \(fifo) is not a regular file (a FIFO)")
            #expect(Date().timeIntervalSince(started) < 5)
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
