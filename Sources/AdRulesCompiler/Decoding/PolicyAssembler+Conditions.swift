import AdRules
import Foundation
import AdRulesYAML

/// A rule's condition: compiled, and its findings placed in the file.
extension PolicyAssembler {
    /// Compiles a rule's `when`, reporting each finding at its token's exact place in the file.
    /// - Returns: the condition, or nil when it has errors (the rule is then never evaluated: `rule_error`).
    mutating func compileCondition(
        _ when: Located<String>, node: YAMLNode, file: String, attributes: [AttributeDeclaration], broken: Set<String>,
        suggestionsLeft: inout Int
    ) -> CompiledExpression? {
        let (outcome, warnings) = ExpressionCompiler.compileWithWarnings(
            when.value, attributes: attributes, broken: broken, suggestionsLeft: &suggestionsLeft)
        switch outcome {
        case .success(let compiled):
            report(warnings, in: when, node: node, file: file)
            return compiled
        case .failure(let findings):
            report(findings, in: when, node: node, file: file)
            return nil
        }
    }

    /// Reports the findings of a `when` at their tokens' exact places in the file.
    private mutating func report(_ findings: [ExpressionFinding], in when: Located<String>, node: YAMLNode, file: String) {
        guard !findings.isEmpty else { return }
        let text = Array(when.value.unicodeScalars)
        // A finding at the end (an expression that stops too early) stands after its last token, not after
        // the spaces and line breaks a block value may end with.
        let textEnd = (text.lastIndex { !" \t\n\r".unicodeScalars.contains($0) } ?? -1) + 1
        for var finding in findings {
            // A condition cut short by what YAML read as a comment (`when: screen == #checkout`) is told so: the
            // operand the author wrote is not missing, it was left out of the value.
            if finding.kind == .syntax, finding.offset >= textEnd, let comment = comment(after: node, file: file) {
                finding.message = Self.cutByComment(when.value, comment: comment)
            }
            finding.offset = min(finding.offset, textEnd)
            // The token's whole extent, both ends placed in the file through the scalar's escapes and folds.
            let tokenEnd = finding.offset < textEnd ? TokenExtent.expressionTokenEnd(from: finding.offset, in: text) : finding.offset
            let range = exactRange(from: finding.offset, to: tokenEnd, in: node, file: file)
                ?? SourceRange(at: Self.position(of: finding.offset, in: node))
            diagnostics.append(.expression(finding, file: file, range: range))
        }
    }

    /// The comment after a plain `when` scalar on its line, read from the file's bytes.
    private mutating func comment(after node: YAMLNode, file: String) -> String? {
        preparePositions(of: file)
        return positions[file]?.comment(after: node)
    }

    /// Reads a file's scalar positions from its bytes, once, when a finding first needs them.
    private mutating func preparePositions(of file: String) {
        if positions[file] == nil, let bytes = sources[file] { positions[file] = ScalarPositions(bytes: bytes) }
    }

    /// The message of a condition that ends early because YAML took its end for a comment: the condition as written,
    /// quoted whole, with a word after the `#` written as a string (`screen == "#checkout"`).
    static func cutByComment(_ value: String, comment: String) -> String {
        let kept = value.trimmingCharacters(in: .whitespaces)
        let isOneWord = !comment.contains { $0 == " " || $0 == "\t" || $0 == "\"" || $0 == "'" }
        // A word and the brackets that close after it (`#b]`): the word is the string.
        let word = comment.prefix { $0 != ")" && $0 != "]" }
        let meant = kept + " " + (isOneWord ? "\"\(word)\"" + comment.dropFirst(word.count) : comment)
        let quoted = "'" + meant.replacingOccurrences(of: "'", with: "''") + "'"
        return "YAML reads \"\(YAMLScalar.shortened(comment))\" as a comment (a # after a space starts one), so the condition ends "
            + "after \"\(YAMLScalar.shortened(kept))\": if it is part of the condition, quote the whole condition, as in when: \(YAMLScalar.shortened(quoted))"
    }

    /// Where a finding inside a `when` scalar stands, from its first code point to just before `end`, read from the
    /// file's bytes (``ScalarPositions``).
    private mutating func exactRange(from start: Int, to end: Int, in node: YAMLNode, file: String) -> SourceRange? {
        preparePositions(of: file)
        return positions[file]?.range(ofCodePoints: start, to: end, in: node)
    }

    /// The file position of a code point offset inside a `when` scalar written on one line without escapes: what is
    /// left when the file's bytes are not at hand.
    static func position(of offset: Int, in node: YAMLNode) -> SourcePosition {
        let start = node.range.start
        guard let scalar = node.scalar, node.range.end.line == start.line else { return start }
        switch scalar.style {
        case .plain: return SourcePosition(line: start.line, column: start.column + offset)
        case .singleQuoted, .doubleQuoted: return SourcePosition(line: start.line, column: start.column + 1 + offset)
        case .literal, .folded: return start
        }
    }
}
