import Foundation
import Testing

@testable import AdRules

/// What a hostile-input hunt found in `FileLedgerStore` and the ledger's JSON (2026-12-07): a load deleted files of the
/// app's own, a symbolic link at the path was replaced by a file (the ledger it led to never written again), a long
/// ledger name was never written, and a key given twice was read as its first value.
@Suite("Ledger: the file's path, its neighbours and its JSON")
struct LedgerFileHuntTests {
    static let policyText = """
        version: 1
        timezone: UTC
        placements:
          inter: {format: interstitial, min_interval: 1m}
        """

    /// Records one show through an engine on `store`; returns the problems it reported.
    static func showOnce(_ store: FileLedgerStore) throws -> [LedgerProblem] {
        let problems = ProblemLog()
        let engine = AdEngine(
            policy: try policy(policyText), clock: ManualClock(engineTestStart), store: store, onLedgerProblem: { problems.append($0) })
        engine.record(.appLaunched)
        engine.record(.loadCompleted("inter"))
        #expect(engine.beginShow("inter", trigger: .action).isAllowed)
        return problems.all
    }

    static func isCorrupt(_ error: any Error, containing part: String) -> Bool {
        guard case LedgerError.corrupt(let reason) = error else { return false }
        return reason.contains(part)
    }

    // MARK: the path

    /// A link at the ledger's path stays a link: the file it leads to is the ledger, written and read again, and the
    /// lock sits beside that file (two links to one ledger share it).
    @Test func aSymbolicLinkAtThePathIsFollowed() throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory + "/shared", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: directory + "/app", withIntermediateDirectories: true)
            // A relative link, to a link: each is followed from the folder it is in.
            try FileManager.default.createSymbolicLink(atPath: directory + "/shared/current.json", withDestinationPath: "ledger.json")
            try FileManager.default.createSymbolicLink(atPath: directory + "/app/link.json", withDestinationPath: "../shared/current.json")
            #expect(try Self.showOnce(FileLedgerStore(path: directory + "/app/link.json")).isEmpty)
            let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/app/link.json")
            #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink, "the link is still a link")
            let target = try #require(try FileLedgerStore(path: directory + "/shared/ledger.json").load())
            #expect(target.shows["inter"]?.count == 1, "the show is in the file the links lead to")
            #expect(files(in: directory + "/shared", containing: ".lock") == ["ledger.json.lock"])
            #expect(files(in: directory + "/app", containing: ".lock").isEmpty)
        }
    }

    /// A loop of links, a path ending in `/` and an empty path name no file: an I/O error that says which, where the
    /// path ending in `/` was "cannot create the ledger's folder : …" with no name.
    @Test func aPathThatNamesNoFileIsAnIOErrorSayingWhy() throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.createSymbolicLink(atPath: directory + "/a.json", withDestinationPath: "b.json")
            try FileManager.default.createSymbolicLink(atPath: directory + "/b.json", withDestinationPath: "a.json")
            let cases = [
                (directory + "/a.json", "is a loop of symbolic links"),
                (directory + "/ledger/", "ends in /, which names a folder: give the path of a file, such as \(directory)/ledger/ledger.json"),
                ("", "the ledger's path is empty"),
            ]
            for (path, reason) in cases {
                let snapshot = LedgerSnapshot(installedAt: engineTestStartMs, sessionCount: 1, shows: [:])
                #expect { try FileLedgerStore(path: path).save(snapshot) } throws: { error in
                    guard case LedgerError.io(let message) = error else { return false }
                    return message.contains(reason)
                }
                #expect { try FileLedgerStore(path: path).load() } throws: { error in
                    guard case LedgerError.io(let message) = error else { return false }
                    return message.contains(reason)
                }
            }
            #expect(!FileManager.default.fileExists(atPath: directory + "/ledger"), "no folder made for a path ending in /")
        }
    }

    /// A ledger name of 240 bytes (the temporary file's suffix, about 22 bytes, went past the 255 a name may have, so no
    /// write ever succeeded): the temporary and lock files' names are cut to fit, and the ledger is written and read.
    @Test(arguments: [200, 240, 250, 255])
    func aLongLedgerNameIsWritten(length: Int) throws {
        try withTemporaryDirectory { directory in
            let name = String(repeating: "n", count: length - 5) + ".json"
            #expect(try Self.showOnce(FileLedgerStore(path: directory + "/" + name)).isEmpty)
            let loaded = try #require(try FileLedgerStore(path: directory + "/" + name).load())
            #expect(loaded.shows["inter"]?.count == 1)
            let left = try FileManager.default.contentsOfDirectory(atPath: directory)
            #expect(left.allSatisfy { $0.utf8.count <= 255 } && left.count == 2, "the ledger and its lock: \(left.map(\.utf8.count))")
        }
    }

    /// A temporary file a killed writer left beside a long ledger, its name cut to fit, is removed at the next load; a
    /// file whose name merely starts as the ledger's does is not.
    @Test func aCutTemporaryNameIsAWritersAndOthersAreNot() throws {
        let name = String(repeating: "n", count: 245) + ".json"
        let cut = FileLedgerStore.asideName(for: "/d/" + name, suffix: ".tmp-4242-7-9f3a0c1e").dropFirst(3)
        #expect(cut.utf8.count == 255 && !cut.hasPrefix(name))
        #expect(FileLedgerStore.isTemporaryName(String(cut), of: name))
        #expect(FileLedgerStore.isTemporaryName("ledger.json.tmp-4242-7-9f3a0c1e", of: "ledger.json"))
        for other in ["ledger.json.tmp", "ledger.json.tmp-", "ledger.json.tmp-2026-12-01", "ledger.json.tmp-1-2-3-4",
                      "ledger.json.tmp-1-2-123456789", "ledger.json.tmp-1-2-0000ABCD", "ledger.json.tmp-1-2-abcd", "ledger.json.tmp--2-0000abcd",
                      "ledger.jso.tmp-1-2-0000abcd", "other.json.tmp-1-2-0000abcd", "ledger.json.tmp-1-2-0000abcd.bak", "l.tmp-1-2-0000abcd"] {
            #expect(!FileLedgerStore.isTemporaryName(other, of: "ledger.json"), "\(other)")
        }
        // A short stem counts only when the name was cut at the limit.
        #expect(!FileLedgerStore.isTemporaryName(String(name.prefix(100)) + ".tmp-1-2-0000abcd", of: name))
        // Another ledger of the folder whose name starts the same (cut to the same stem), or differs only in Unicode
        // normalization, has its own lock: its writer's live temporary file is not this ledger's to remove.
        let stem = String(repeating: "x", count: 240)
        let other = FileLedgerStore.asideName(for: stem + ".b", suffix: ".tmp-4242-7-9f3a0c1e")
        #expect(!FileLedgerStore.isTemporaryName(other, of: stem + ".a") && FileLedgerStore.isTemporaryName(other, of: stem + ".b"))
        #expect(!FileLedgerStore.isTemporaryName("e\u{301}.json.tmp-4242-7-9f3a0c1e", of: "\u{E9}.json"))
    }

    // MARK: the JSON

    /// What is written is what Foundation's `JSONEncoder` wrote with sorted keys before the writer was the compiled
    /// policy's, so a ledger written by either reads the same.
    @Test func theFileIsWhatJSONEncoderWrote() throws {
        let snapshot = LedgerSnapshot(
            installedAt: 1_795_000_000_000, sessionCount: 12,
            // Ids whose order is the same however keys are sorted (by code point on Linux; on Darwin perhaps without case
            // and with numbers by value): what is compared is the bytes, not the order.
            shows: ["banner_home": [ShowRecord(at: 1_795_000_060_000, session: 3), ShowRecord(at: 1_795_000_120_000, session: 12)], "app_open": [], "level.end": [ShowRecord(at: 946_684_800_000, session: 0)]])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(snapshot.encodedJSON() == Array(try encoder.encode(snapshot)))
        #expect(try LedgerSnapshot(validating: Data(snapshot.encodedJSON())) == snapshot)
    }

    /// An id a ledger held that needs escapes (a tampered file's) is written escaped, and reads back the same.
    @Test func anIdThatNeedsEscapesReadsBackTheSame() throws {
        let ids = ["quote\"back\\slash", "line\nbreak\u{1B}[31m", "café\u{202E}", "##[error]x"]
        let snapshot = LedgerSnapshot(installedAt: 1_795_000_000_000, sessionCount: 1, shows: Dictionary(uniqueKeysWithValues: ids.map { ($0, [ShowRecord(at: 1_795_000_000_000, session: 1)]) }))
        let bytes = snapshot.encodedJSON()
        #expect(!bytes.contains(0x0A) && !bytes.contains(0x1B))
        #expect(try LedgerSnapshot(validating: Data(bytes)) == snapshot)
        // The room the size bound keeps for an entry holds it as written, escapes and all.
        let empty = LedgerSnapshot(installedAt: 0, sessionCount: 0, shows: [:]).encodedJSON().count
        for id in ids {
            let written = LedgerSnapshot(installedAt: 0, sessionCount: 0, shows: [id: []]).encodedJSON().count - empty + 1
            #expect(LedgerBounds.entryBytes(id) >= written, "\(id)")
        }
    }

    static let base = #"{"installedAt":1795940000000,"sessionCount":4,"shows":{"inter":[{"at":1795940000000,"session":4}]},"version":1"#

    /// A key given twice is refused wherever it is, naming the key, as a compiled policy refuses it (Foundation's decoder
    /// took the first value, so a reviewer could be shown one and the engine use the other); a whole number written with
    /// an exponent or a point is refused as not a whole number, as a compiled policy's is.
    @Test(arguments: [
        (base + #","installedAt":1795942000000}"#, #"the key "installedAt" is given twice"#),
        (base + #","version":1}"#, #"the key "version" is given twice"#),
        (#"{"installedAt":1795940000000,"sessionCount":4,"shows":{"inter":[],"inter":[]},"version":1}"#, #"the key "inter" is given twice in "shows""#),
        (#"{"installedAt":1795940000000,"sessionCount":4,"shows":{"inter":[{"at":1795940000000,"session":4,"at":1795940000001}]},"version":1}"#,
         #"the key "at" is given twice in "shows.inter.0""#),
        (#"{"installedAt":1.79594e12,"sessionCount":4,"shows":{},"version":1}"#, #"wrong type at "installedAt": expected a whole number"#),
        (#"{"installedAt":1795940000000,"sessionCount":4.0,"shows":{},"version":1}"#, #"wrong type at "sessionCount""#),
        (#"{"installedAt":1795940000000,"sessionCount":4,"shows":{"inter":[{"at":"1795940000000","session":4}]},"version":1}"#,
         #"wrong type at "shows.inter.0.at": expected a whole number"#),
        (#"{"installedAt":1795940000000,"sessionCount":4,"shows":{"inter":{}},"version":1}"#, #"wrong type at "shows.inter": expected an array"#),
        (#"{"installedAt":1795940000000,"sessionCount":4,"shows":{"inter":[{"at":1795940000000}]},"version":1}"#, #"missing key "session" at "shows.inter.0""#),
        (#"{"installedAt":1795940000000,"sessionCount":4,"shows":{}}"#, #"missing key "version""#),
        ("\u{FEFF}" + base + "}", "invalid JSON at byte 1"),
        (base + "} x", "invalid JSON at byte \(base.utf8.count + 3): unexpected text after the value"),
    ])
    func aKeyGivenTwiceOrANumberNotWholeIsCorrupt(text: String, reason: String) {
        #expect { try LedgerSnapshot(validating: Data(text.utf8)) } throws: { Self.isCorrupt($0, containing: "not a ledger: " + reason) }
    }

    /// Keys the format does not have are skipped, as Foundation's decoder skipped them, and white space is allowed.
    @Test func unknownKeysAndWhiteSpaceAreRead() throws {
        let text = #"{ "note": {"a": [1, 2]}, "installedAt": 1795940000000, "sessionCount": 4, "shows": { "inter": [ { "at": 1795940000000, "session": 4, "x": null } ] }, "version": 1 }"#
        let snapshot = try LedgerSnapshot(validating: Data(text.utf8))
        #expect(snapshot.shows == ["inter": [ShowRecord(at: 1_795_940_000_000, session: 4)]] && snapshot.sessionCount == 4)
    }

    /// A newer version's ledger laid out otherwise is still told apart from a corrupt one, by its version.
    @Test func aNewerLedgerLaidOutOtherwiseNamesItsVersion() {
        let text = #"{"version":2,"installedAt":"2026-12-07","shows":[]}"#
        #expect { try LedgerSnapshot(validating: Data(text.utf8)) } throws: { Self.isCorrupt($0, containing: "the ledger is version 2, written by a newer version") }
    }
}
