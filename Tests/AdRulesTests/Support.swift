import AdRules
import AdRulesCompiler
import AdRulesYAML

/// A test input with position markers (1️⃣, 2️⃣, …) removed and their positions recorded, as swift-format's tests do.
struct MarkedText {
    let text: String
    let markers: [String: SourcePosition]

    init(_ marked: String) {
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
            if character == "\n" {
                line += 1
                column = 1
            } else {
                column += character.unicodeScalars.count
            }
        }
        self.text = text
        self.markers = markers
    }

    subscript(_ name: String) -> SourcePosition? { markers[name] }
}

/// Lints one in-memory rule file.
func lint(_ text: String, file: String = "t.yaml") -> [Diagnostic] {
    PolicyLoader.load(texts: [(file, text)]).diagnostics
}

/// Loads a policy that must be valid.
func policy(_ text: String) throws -> Policy {
    try Policy(yaml: text, file: "p.yaml")
}
