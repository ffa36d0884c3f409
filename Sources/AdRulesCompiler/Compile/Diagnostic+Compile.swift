import AdRules
import AdRulesYAML
import Foundation

/// Messages about compiling a policy and about reading a compiled one, in one place.
extension Diagnostic {
    /// What makes a rule file's name one that a compiled policy cannot hold.
    enum FileNameProblem {
        case controlCharacter
        case tooManyCombiningMarks
        case tooLong
    }

    /// A rule file whose name, as the compiled policy would write it, the runtime's loader refuses: the finding is at
    /// the file.
    static func uncompilableFileName(_ name: String, _ problem: FileNameProblem, file: String) -> Diagnostic {
        let text = switch problem {
        case .controlCharacter:
            "holds a control character, which a compiled policy cannot name: rename the file"
        case .tooManyCombiningMarks:
            "holds more than \(StreamSafeText.maxCombiningMarks) combining marks in a row, which a compiled policy cannot name: rename the file"
        case .tooLong:
            "is \(name.unicodeScalars.count) characters long, more than the \(PolicyIDs.maxTextLength) a compiled policy holds: "
                + "compile from a --root nearer the file, or shorten its path"
        }
        let shown = name.unicodeScalars.count > 200 ? String(name.unicodeScalars.prefix(200)) + "…" : name
        return Diagnostic(.error, rule: "schema/range", message: "the file name \"\(ControlCharacters.escaped(shown))\" \(text)", file: file, range: .fileStart)
    }

    /// A compiled policy larger than the `limit` bytes the runtime loads: a finding about the policy, not a failure
    /// of the tool.
    static func compiledPolicyTooLarge(limit: Int, file: String) -> Diagnostic {
        Diagnostic(
            .error, rule: "schema/range",
            message: "the compiled policy would be more than the \(limit) bytes an app loads: "
                + "use fewer placements or rules, or shorter ad_unit ids, messages and conditions",
            file: file, range: .fileStart)
    }

    /// A compiled policy the runtime's loader refuses: its error's description (``CompiledPolicyError``), or the
    /// error's own for any other, and what to do when that does not say: a compiled policy is written by `adrules
    /// compile`, never by hand, so the fix is to write it again.
    static func invalidCompiledPolicy(_ error: any Error, file: String, range: SourceRange) -> Diagnostic {
        let compiled = error as? CompiledPolicyError
        var message = compiled?.description ?? error.localizedDescription
        if !message.contains("compile ") && !message.contains("compile:") {
            // A value of another adrules (an unknown built-in, format or value type) is no edit: the runtime calls it
            // unsupported, and the fix is this adrules's compile.
            message += compiled?.kind == .unsupported
                ? " (written by another version of adrules than this one: compile the rule files again with this adrules)"
                : " (a compiled policy is written by `adrules compile`, never edited: compile the rule files again)"
        }
        return Diagnostic(.error, rule: "compiled/invalid", message: message, file: file, range: range)
    }
}
