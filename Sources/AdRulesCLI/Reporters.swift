import AdRules
import AdRulesCompiler
import AdRulesYAML
import Foundation

/// The output formats of `adrules lint`.
enum LintFormat: String, CaseIterable {
    case xcode, text, json, sarif, github
}

/// Turns diagnostics into one of the lint output formats.
struct DiagnosticReporter {
    var format: LintFormat
    var color: Bool
    /// Returns a line of a file (0-based), for the `text` format's source excerpt, or nil past its lines; none by
    /// default (`test`, `simulate`, `compile` and `impact` print their findings without source lines).
    var sourceLine: (_ file: String, _ index: Int) -> Substring? = { _, _ in nil }

    /// The diagnostics, at most ``maxPrinted`` of them (then one that counts the rest), in the format.
    func render(_ diagnostics: [Diagnostic], files: [String]) -> String {
        let diagnostics = Self.printed(diagnostics)
        switch format {
        case .xcode: return diagnostics.map { xcode($0) }.joined()
        case .text:
            var columns = LongLineColumns()
            return diagnostics.map { text($0, &columns) }.joined()
        case .json: return JSONDiagnostics.render(diagnostics) + "\n"
        case .sarif: return SARIFReport.render(diagnostics, files: files) + "\n"
        case .github: return diagnostics.map(GitHubAnnotations.line).joined()
        }
    }

    /// The most diagnostics one report prints: each file shows at most 1,000, and a policy of 1,000 files gave
    /// 1,000,000 (19.6 s and 1 GB in the default format, over 20 s in json, SARIF, GitHub and text).
    static let maxPrinted = 10_000

    /// At most ``maxPrinted`` diagnostics, errors first, in the report's order, then one saying how many more there are
    /// (an error when one of them is). Errors come first over the whole report, as they do in each file: an error in
    /// the last file is not hidden behind the warnings of the files before it. A summary and an exit code count them all.
    static func printed(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        guard diagnostics.count > maxPrinted else { return diagnostics }
        var errorsLeft = maxPrinted
        var warningsLeft = max(0, maxPrinted - diagnostics.count { $0.severity == .error })
        var shown: [Diagnostic] = []
        var (notShown, notShownErrors, firstFile) = (0, 0, nil as String?)
        for diagnostic in diagnostics {
            let isError = diagnostic.severity == .error
            if isError ? errorsLeft > 0 : warningsLeft > 0 {
                if isError { errorsLeft -= 1 } else { warningsLeft -= 1 }
                shown.append(diagnostic)
            } else {
                notShown += 1
                if isError { notShownErrors += 1 }
                firstFile = firstFile ?? diagnostic.file
            }
        }
        return shown + [.tooManyFindingsInRun(notShown, errors: notShownErrors, shown: maxPrinted, file: firstFile ?? "")]
    }

    private func paint(_ text: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    private func severityLabel(_ severity: Severity) -> String {
        severity == .error ? paint("error", "1;31") : paint("warning", "1;33")
    }

    private func xcode(_ d: Diagnostic) -> String {
        let d = d.escapedForTerminal
        var out = "\(d.file):\(d.range.start.line):\(d.range.start.column): \(severityLabel(d.severity)): \(d.message) (\(d.rule))\n"
        for note in d.notes {
            out += "\(note.file):\(note.position.line):\(note.position.column): \(paint("note", "1;36")): \(note.message)\n"
        }
        return out
    }

    private func text(_ d: Diagnostic, _ columns: inout LongLineColumns) -> String {
        // The excerpt is read from the file as named; only what is printed is escaped. The checkpoints of a long line
        // are kept under the name as given too: two names that print alike once escaped (a tab, and a backslash and a
        // t) are two files.
        let file = d.file
        let escaped = d.escapedForTerminal
        var out = "\(escaped.file):\(d.range.start.line):\(d.range.start.column): \(severityLabel(d.severity)): \(escaped.message) (\(d.rule))\n"
        // A line counting the findings not shown points at no text: no excerpt of the file's first line.
        if d.rule != "lint/too-many-findings" { out += excerpt(of: d.range, in: file, &columns) }
        // A note's place is shown as its finding's is: after a syntax error, the line the mistake is on is often the
        // note's (libyaml stops lines below it).
        for (note, printed) in zip(d.notes, escaped.notes) {
            out += "\(printed.file):\(note.position.line):\(note.position.column): \(paint("note", "1;36")): \(printed.message)\n"
            out += excerpt(of: SourceRange(at: note.position), in: note.file, &columns)
        }
        return out
    }

    /// The line of `file` a range starts on, and a caret under the range (tildes along it, on its line): nothing when
    /// the file's lines are not at hand or the line is past them.
    private func excerpt(of range: SourceRange, in file: String, _ columns: inout LongLineColumns) -> String {
        let lineIndex = range.start.line - 1
        guard var line = sourceLine(file, lineIndex) else { return "" }
        // A byte-order mark opening the file is no column (libyaml skips it) and no text of the line: not printed.
        if lineIndex == 0, line.unicodeScalars.first == "\u{FEFF}" { line = Substring(line.unicodeScalars.dropFirst()) }
        let scalars = line.unicodeScalars
        // Columns count code points (a flag is two).
        let at = columns.index(ofScalar: max(0, range.start.column - 1), in: line, key: LongLineColumns.Key(file: file, line: lineIndex))
        // A long line is shown as a window of code points around the column: a 10 MB line under each of a
        // thousand findings would be gigabytes of output.
        let isLong = line.utf8.count > 240
        let start = isLong ? scalars.index(at, offsetBy: -60, limitedBy: line.startIndex) ?? line.startIndex : line.startIndex
        let end = isLong ? scalars.index(at, offsetBy: 120, limitedBy: line.endIndex) ?? line.endIndex : line.endIndex
        let window = String(String.UnicodeScalarView(scalars[start..<end]))
        let lead = start > line.startIndex ? "…" : ""
        let tail = end < line.endIndex ? "…" : ""
        let source = window.replacingOccurrences(of: "\r", with: "").split(separator: "\t", omittingEmptySubsequences: false)
            .map { ControlCharacters.escaped(String($0)) }.joined(separator: "\t")
        let number = String(range.start.line)
        let gutter = String(repeating: " ", count: number.count)
        // The caret's lead is measured on the line as written, each character as wide as it is printed
        // (``printedWidth(_:)``); a tab stays a tab, to reach the tab stop the line does.
        let before = String(String.UnicodeScalarView(scalars[start..<at]))
        // A `##[` is printed `##\[` (``ControlCharacters/escaped(_:)``): one column more.
        let prefix = (lead.isEmpty ? "" : " ") + before.map { c in c == "\t" ? "\t" : String(repeating: " ", count: Self.printedWidth(c)) }.joined()
            + String(repeating: " ", count: ControlCharacters.logCommands(in: before))
        // The tildes span the value as printed, too.
        var width = 1
        if range.end.line == range.start.line, range.end.column > range.start.column {
            let length = range.end.column - range.start.column
            let covered = scalars[at..<end].prefix(length)
            let shown = String(String.UnicodeScalarView(covered)).reduce(0) { $0 + Self.printedWidth($1) }
            width = min(max(shown + (length - covered.count), 1), 120)
        }
        return " \(number) | \(lead)\(source)\(tail)\n"
            + " \(gutter) | \(prefix)\(paint("^" + String(repeating: "~", count: max(0, width - 1)), "1;32"))\n"
    }
}

extension DiagnosticReporter {
    /// The terminal columns a character of an excerpt takes as printed: an escaped control or format character
    /// (`\u{202E}`) its escape, a removed carriage return none, a Chinese, Japanese or Korean character or an
    /// emoji two (``TerminalWidth``), a tab one.
    static func printedWidth(_ c: Character) -> Int {
        if c == "\r" { return 0 }
        let escaped = ControlCharacters.escaped(String(c))
        return escaped.count == 1 ? (c == "\t" ? 1 : TerminalWidth.of(c)) : escaped.count
    }
}

/// A file's text and where each of its lines starts, for the `text` format's excerpts. Lines end at LF, CR LF or CR, as
/// positions count them. A line is found by its number in the offsets of the line starts (4 bytes a line), not in an
/// array of every line of the file: a 16 MB rule file of empty lines with one finding made 16 million substrings, 610 MB
/// and 1.2 s for `lint --format text`, where the other formats took 60 MB and 0.1 s.
struct SourceLines {
    let text: String
    /// The UTF-8 offset of each line's start in `text`.
    private let starts: [UInt32]

    init(_ text: String) {
        var text = text
        text.makeContiguousUTF8()
        // Counted first, so that the offsets take 4 bytes a line and no more (a growing array doubles its room).
        var breaks = 0
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\r") || (byte == UInt8(ascii: "\n") && previous != UInt8(ascii: "\r")) { breaks += 1 }
            previous = byte
        }
        var starts: [UInt32] = [0]
        starts.reserveCapacity(breaks + 1)
        var offset: UInt32 = 0
        var afterCR = false
        for byte in text.utf8 {
            offset += 1
            if byte == UInt8(ascii: "\n") {
                // The LF of a CR LF ends the line the CR ended.
                if afterCR { starts[starts.count - 1] = offset } else { starts.append(offset) }
            } else if byte == UInt8(ascii: "\r") {
                starts.append(offset)
            }
            afterCR = byte == UInt8(ascii: "\r")
        }
        self.text = text
        self.starts = starts
    }

    /// The line at `index` (0-based), without its line break; nil past the last line.
    func line(_ index: Int) -> Substring? {
        guard index >= 0, index < starts.count else { return nil }
        let utf8 = text.utf8
        func at(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        let start = Int(starts[index])
        var end = index + 1 < starts.count ? Int(starts[index + 1]) : utf8.count
        if index + 1 < starts.count {
            // The break before the next line: LF, CR LF or CR.
            if utf8[at(end - 1)] == UInt8(ascii: "\n") {
                end -= 1
                if end > start, utf8[at(end - 1)] == UInt8(ascii: "\r") { end -= 1 }
            } else {
                end -= 1
            }
        }
        return text[at(start)..<at(end)]
    }
}

/// Where code points fall in the long lines of a report's excerpts: the UTF-8 position of every 4,096th code point,
/// found once a line, so that a column on a line of 10 MB is found by a walk of at most 4,096 code points, however
/// many findings the line has and in whatever order they come.
struct LongLineColumns {
    struct Key: Hashable {
        var file: String
        var line: Int
    }

    static let step = 4096
    private var checkpoints: [Key: [String.Index]] = [:]

    /// The position of the code point at `offset` on the line (its end when the line is shorter).
    mutating func index(ofScalar offset: Int, in line: Substring, key: Key) -> String.Index {
        let scalars = line.unicodeScalars
        guard offset > Self.step else { return scalars.index(line.startIndex, offsetBy: offset, limitedBy: line.endIndex) ?? line.endIndex }
        let marks = checkpoints[key] ?? Self.checkpoints(of: line)
        checkpoints[key] = marks
        let k = min(offset / Self.step, marks.count - 1)
        return scalars.index(marks[k], offsetBy: offset - k * Self.step, limitedBy: line.endIndex) ?? line.endIndex
    }

    private static func checkpoints(of line: Substring) -> [String.Index] {
        var marks: [String.Index] = []
        var count = 0
        var i = line.startIndex
        let scalars = line.unicodeScalars
        while i < line.endIndex {
            if count % step == 0 { marks.append(i) }
            scalars.formIndex(after: &i)
            count += 1
        }
        return marks.isEmpty ? [line.startIndex] : marks
    }
}

/// The `json` lint format: `{"version": 1, "diagnostics": [...]}`.
enum JSONDiagnostics {
    /// The findings a json report lists: at most ``DiagnosticReporter/maxPrinted``, as every format prints, then one
    /// that counts the rest.
    static func array(_ diagnostics: [Diagnostic]) -> JSON {
        .array(DiagnosticReporter.printed(diagnostics).map(object))
    }

    static func object(_ d: Diagnostic) -> JSON {
        // The file is a path a tool opens, kept as it is; the messages are text a person reads (``messagesEscaped``). A
        // `##[` is left to the json writer, which writes its `[` as `\u005b`.
        let d = d.messagesEscaped(defusingLogCommands: false)
        return .object([
            ("file", .string(d.file)), ("line", .int(d.range.start.line)), ("column", .int(d.range.start.column)),
            ("end_line", .int(d.range.end.line)), ("end_column", .int(d.range.end.column)),
            ("severity", .string(d.severity.rawValue)), ("rule", .string(d.rule)), ("message", .string(d.message)),
            ("notes", .array(d.notes.map { note in
                .object([
                    ("file", .string(note.file)), ("line", .int(note.position.line)),
                    ("column", .int(note.position.column)), ("message", .string(note.message)),
                ])
            })),
        ])
    }

    static func render(_ diagnostics: [Diagnostic]) -> String {
        JSON.object([("version", .int(1)), ("diagnostics", .array(diagnostics.map(object)))]).rendered()
    }
}

/// The `github` lint format: workflow commands that GitHub Actions turns into annotations.
enum GitHubAnnotations {
    /// Escapes a message (data) as the Actions toolkit does.
    static func escapeData(_ s: String) -> String {
        s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// Escapes a property value as the Actions toolkit does.
    static func escapeProperty(_ s: String) -> String {
        escapeData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    static func line(_ d: Diagnostic) -> String {
        // The file name as GitHub reads it back: a line break in it is %0A, which GitHub decodes, so the annotation
        // lands on the file; any other control character is made visible (GitHub decodes no escape for it).
        // A `##[` is written `##\[` here too: a log may read the legacy command anywhere in a line, this one included (a
        // file named with one is then named so in its annotation, which is the price of no forged command).
        let file = ControlCharacters.escaped(escapeProperty(d.file))
        let d = d.escapedForTerminal
        let command = d.severity == .error ? "error" : "warning"
        var properties = [
            "file=\(file)", "line=\(d.range.start.line)", "col=\(d.range.start.column)",
        ]
        properties.append("title=\(escapeProperty(d.rule))")
        var message = d.message
        for note in d.notes { message += "\n\(note.file):\(note.position.line):\(note.position.column): note: \(note.message)" }
        return "::\(command) \(properties.joined(separator: ","))::\(escapeData(message))\n"
    }
}

extension Diagnostic {
    /// The diagnostic with control characters in its file, message and notes made visible, so a value
    /// quoted from a file cannot forge a line (`fake.yaml:1:1: error: …`) or drive the terminal.
    var escapedForTerminal: Diagnostic {
        var d = messagesEscaped
        d.file = Self.terminalFile(d.file)
        d.notes = d.notes.map { note in
            var note = note
            note.file = Self.terminalFile(note.file)
            return note
        }
        return d
    }

    /// A file as the terminal formats start a line with it: control characters visible, and a relative name that
    /// starts with `::` (past spaces) led by `./`, the same file, so that a CI log does not read the line as a
    /// command (`::error file=…::` would add an annotation). In a name that holds a place (a colon, a line number,
    /// perhaps a colon and a column, then a colon and a space), every colon is shown `\u{3A}`: a file named
    /// `fake.yaml:1:1: error: x.yaml` would start a line that reads as a finding in another file (`fake.yaml`, line 1),
    /// at a place the policy does not have. Other names, colons included (`10:30.yaml`, a macOS folder `Ads : Rules`),
    /// are printed as they are, so that editors still open them.
    static func terminalFile(_ file: String) -> String {
        var escaped = ControlCharacters.escaped(file)
        if holdsPlace(escaped) { escaped = escaped.replacingOccurrences(of: ":", with: "\\u{3A}") }
        return ControlCharacters.startsLogCommand(escaped) ? "./" + escaped : escaped
    }

    /// Whether a name holds what a line would read as a place: a colon, digits, perhaps a colon and digits again, then
    /// a colon and a space (`:1:1: `, `:12: `).
    static func holdsPlace(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        let colon = UInt8(ascii: ":")
        for i in bytes.indices where bytes[i] == colon {
            var j = i + 1
            for _ in 0..<2 {
                let digits = j
                while j < bytes.count, bytes[j] >= UInt8(ascii: "0"), bytes[j] <= UInt8(ascii: "9") { j += 1 }
                guard j > digits, j < bytes.count, bytes[j] == colon else { break }
                if j + 1 < bytes.count, bytes[j + 1] == UInt8(ascii: " ") { return true }
                j += 1
            }
        }
        return false
    }

    /// The diagnostic with control characters and bidirectional controls in its message and notes' messages made
    /// visible (`\u{1B}`), as every format prints them; the files are left as they are. (The json and SARIF reports
    /// carried a value's ESC, NUL and RIGHT-TO-LEFT OVERRIDE raw in messages whose value was quoted as written, and
    /// escaped in those that quoted it escaped: a viewer showed the override live.)
    var messagesEscaped: Diagnostic { messagesEscaped(defusingLogCommands: true) }

    func messagesEscaped(defusingLogCommands: Bool) -> Diagnostic {
        var d = self
        let escape = defusingLogCommands ? ControlCharacters.escaped : ControlCharacters.controlsEscaped
        d.message = escape(d.message)
        d.notes = d.notes.map { note in
            var note = note
            note.message = escape(note.message)
            return note
        }
        return d
    }
}
