import AdRulesYAML
import Foundation

/// Helpers the test targets share (only test targets depend on this target).

/// A test input with position markers (1️⃣, 2️⃣, …) removed and their positions recorded, as swift-format's tests do.
public struct MarkedText: Sendable {
    /// The text without its markers.
    public let text: String
    /// Where each marker stood.
    public let markers: [String: SourcePosition]

    /// Removes the markers of a marked text and records their positions.
    public init(_ marked: String) {
        let names = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"]
        var text = ""
        var markers: [String: SourcePosition] = [:]
        var line = 1
        var column = 1
        for character in marked {
            let name = String(character)
            if names.contains(name) {
                markers[name] = SourcePosition(line: line, column: column)
                continue
            }
            text.append(character)
            // "\r\n" is one Character.
            if character == "\n" || character == "\r\n" {
                line += 1
                column = 1
            } else {
                column += character.unicodeScalars.count
            }
        }
        self.text = text
        self.markers = markers
    }

    /// The position of a marker.
    public subscript(_ name: String) -> SourcePosition? { markers[name] }
}

/// The package root, found from this file's path.
public func packageRoot(_ file: String = #filePath) -> String {
    var parts = file.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}

/// The folder that holds every test's files in this test process, `adrules-tests-<pid>` under the temporary
/// directory. It is created on first use and removed, with everything in it, when the process exits, so a test that
/// fails or forgets to clean up leaves nothing behind.
private let scratchRoot: String = {
    let root = NSTemporaryDirectory() + "adrules-tests-\(getpid())"
    try? FileManager.default.removeItem(atPath: root)
    try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: scratchRoot) }
    return root
}()

/// A fresh path for a test's file or folder (`name-<uuid>`), in a folder removed when the test process exits.
/// Nothing is created at the path.
public func scratchPath(_ name: String) -> String {
    scratchRoot + "/\(name)-\(UUID().uuidString)"
}
