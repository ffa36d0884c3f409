import AdRulesCompiler
import AdRules
import Foundation
import Testing

/// A process writing shows through `AdEngine` and `FileLedgerStore` is killed with SIGKILL at random moments;
/// after each kill the ledger must decode and hold every show the child acknowledged as persisted.
@Suite("Ledger: kill -9")
struct LedgerKillTests {
    @Test func aKilledWriterNeverLosesAnAcknowledgedShowOrLeavesACorruptLedger() throws {
        let writer = try #require(ledgerWriterBinary(), "adrules-ledger-writer is not built next to the tests")
        try withTemporaryDirectory { directory in
            let path = directory + "/ledger.json"
            var generator = SplitMix64(seed: 9)
            // Every show known to be on disk: acknowledged, or found there after a kill between write and acknowledgement.
            var persisted: [Int64] = []
            var start = engineTestStartMs
            var sessions = 0
            for round in 0..<8 {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: writer)
                process.arguments = [path, "\(start)"]
                let out = Pipe()
                let err = Pipe()
                process.standardOutput = out
                process.standardError = err
                try process.run()
                // Even rounds kill at any moment from the start (start-up writes included); odd rounds wait for the
                // first acknowledged show, so that shows are written whatever the machine's load.
                let early = round % 2 == 1 ? out.fileHandleForReading.availableData : Data()
                usleep(UInt32(100_000 + generator.next() % 500_000))
                kill(process.processIdentifier, SIGKILL)
                let output = String(decoding: early + out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                #expect(process.terminationReason == .uncaughtSignal, "round \(round): the writer stopped by itself: \(errors)")
                #expect(errors.isEmpty, "round \(round): \(errors)")
                // A line cut off by the kill is not an acknowledgement.
                let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                persisted += lines.compactMap { $0.hasPrefix("show ") ? Int64($0.dropFirst(5)) : nil }

                let snapshot: LedgerSnapshot?
                do {
                    snapshot = try FileLedgerStore(path: path).load()
                } catch {
                    Issue.record("round \(round): the ledger does not load after a kill: \(error)")
                    return
                }
                guard let snapshot else {
                    #expect(persisted.isEmpty, "round \(round): acknowledged shows but no ledger")
                    continue
                }
                let stored = Set(snapshot.shows["inter"]?.map(\.at) ?? [])
                let unacknowledged = stored.subtracting(persisted)
                #expect(unacknowledged.count <= 1 && unacknowledged.allSatisfy { $0 > persisted.last ?? .min },
                    "round \(round): only the show in flight at the kill may be on disk unacknowledged: \(unacknowledged.sorted())")
                persisted += unacknowledged.sorted()
                #expect(stored == Set(persisted.suffix(512)), "round \(round): the latest 512 persisted shows, no more, no fewer")
                #expect(snapshot.sessionCount >= sessions, "round \(round): the session count never goes back")
                sessions = snapshot.sessionCount
                start = (persisted.last ?? start) + 10_000
            }
            #expect(persisted.count > 0, "no round lived long enough to show")
            #expect(files(in: directory, containing: ".tmp").count <= 1, "a killed writer's temporary file is removed at the next load")
        }
    }
}

/// The `adrules-ledger-writer` executable SwiftPM built with the tests.
func ledgerWriterBinary() -> String? {
    let runner = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
    let candidates = [
        runner.appendingPathComponent("adrules-ledger-writer").path,
        runner.deletingLastPathComponent().appendingPathComponent("adrules-ledger-writer").path,
        Bundle.main.bundleURL.appendingPathComponent("adrules-ledger-writer").path,
        Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("adrules-ledger-writer").path,
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
}
