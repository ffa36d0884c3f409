import AdRules
import AdRulesCompiler
import AdRulesYAML
import Foundation

/// The `sarif` lint format: SARIF 2.1.0 as GitHub code scanning accepts it.
enum SARIFReport {
    static func render(_ diagnostics: [Diagnostic], files: [String]) -> String {
        let rules = LintRule.all
        let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        let driverRules: [JSON] = rules.map { rule in
            .object([
                ("id", .string(rule.id)),
                ("name", .string(camelName(rule.id))),
                ("shortDescription", .object([("text", .string(rule.summary))])),
                ("fullDescription", .object([("text", .string(rule.summary + " " + rule.help))])),
                ("help", .object([
                    ("text", .string(rule.help)),
                    ("markdown", .string("**\(rule.id)**: \(rule.summary)\n\n\(rule.help)")),
                ])),
                ("helpUri", .string("https://github.com/adrules/adrules/blob/main/docs/lint-rules.md")),
                ("defaultConfiguration", .object([("level", .string(rule.severity == .error ? "error" : "warning"))])),
                ("properties", .object([("tags", .array([.string(String(rule.id.split(separator: "/").first ?? ""))]))])),
            ])
        }
        // Findings with equal fingerprints are numbered in file order (`hash:1`, `hash:2`), as GitHub numbers equal
        // line hashes, so that code scanning keeps two equal findings as two alerts.
        var seen: [String: Int] = [:]
        // Each file's path resolved once (two `realpath` calls), however many results, notes and fingerprints name it.
        var resolvedPaths: [String: String] = [:]
        func path(_ file: String) -> String {
            if let known = resolvedPaths[file] { return known }
            let path = resolved(file)
            resolvedPaths[file] = path
            return path
        }
        let results: [JSON] = diagnostics.map { d in
            // A `##[` is left to the json writer, which writes its `[` as `\u005b`.
            let d = d.messagesEscaped(defusingLogCommands: false)
            let hash = fingerprint(d, resolvedFile: path(d.file))
            // Numbered within the file: fixing a finding in one file never renumbers another's.
            seen[d.file + "\u{0}" + hash, default: 0] += 1
            var result: [(String, JSON)] = [
                ("ruleId", .string(d.rule)),
            ]
            if let index = ruleIndex[d.rule] { result.append(("ruleIndex", .int(index))) }
            result += [
                ("level", .string(d.severity == .error ? "error" : "warning")),
                ("message", .object([("text", .string(message(d)))])),
                ("locations", .array([location(path: path(d.file), range: d.range)])),
                ("partialFingerprints", .object([("primaryLocationLineHash", .string("\(hash):\(seen[d.file + "\u{0}" + hash] ?? 1)"))])),
            ]
            if !d.notes.isEmpty {
                result.append(("relatedLocations", .array(d.notes.enumerated().map { index, note in
                    var related = location(path: path(note.file), range: SourceRange(at: note.position))
                    if case .object(var pairs) = related {
                        pairs.insert(("id", .int(index + 1)), at: 0)
                        pairs.append(("message", .object([("text", .string(note.message))])))
                        related = .object(pairs)
                    }
                    return related
                })))
            }
            return .object(result)
        }
        let report = JSON.object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            ("runs", .array([
                .object([
                    ("tool", .object([
                        ("driver", .object([
                            ("name", .string("adrules")),
                            ("version", .string(AdRulesVersion.current)),
                            ("semanticVersion", .string(AdRulesVersion.current)),
                            ("informationUri", .string("https://github.com/adrules/adrules")),
                            ("rules", .array(driverRules)),
                        ])),
                    ])),
                    ("columnKind", .string("unicodeCodePoints")),
                    // Relative paths are relative to where adrules ran (the checkout in CI); the consumer knows where
                    // that is, so the base has a description and no URI of this machine.
                    ("originalUriBaseIds", .object([("%SRCROOT%", .object([
                        ("description", .object([("text", .string("The directory adrules ran in; file paths are relative to it."))])),
                    ]))])),
                    ("artifacts", .array(artifacts(files, resolved: path))),
                    ("results", .array(results)),
                ]),
            ])),
        ])
        return report.rendered()
    }

    /// A result's message. Code scanning shows a related location (a note: where a duplicate was first defined) only
    /// when the message links to it, `[text](id)`; in a message with links, a bracket of the text is escaped (SARIF
    /// §3.11.6). The fingerprint is of the message alone, so that a note moving does not make a new alert.
    static func message(_ d: Diagnostic) -> String {
        guard !d.notes.isEmpty else { return d.message }
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
        }
        let links = d.notes.enumerated().map { index, note in "[\(escaped(note.message))](\(index + 1))" }
        return escaped(d.message) + " (" + links.joined(separator: "; ") + ")"
    }

    /// The run's files, each once: a file named by two paths (`rules` and `rules/a.yaml`, or `/x/../x/a.yaml`) is
    /// one artifact, under its first name, since SARIF requires a run's artifacts to be unique.
    private static func artifacts(_ files: [String], resolved path: (String) -> String) -> [JSON] {
        var seen = Set<String>()
        return files.filter { seen.insert(PolicyLoader.realPath($0) ?? path($0)).inserted }
            .map { .object([("location", artifactLocation(resolvedPath: path($0)))]) }
    }

    /// - Parameter path: the file's ``resolved(_:in:)`` path.
    private static func location(path: String, range: SourceRange) -> JSON {
        let end = range.end > range.start ? range.end : SourcePosition(line: range.start.line, column: range.start.column + 1)
        return .object([
            ("physicalLocation", .object([
                ("artifactLocation", artifactLocation(resolvedPath: path)),
                ("region", .object([
                    ("startLine", .int(range.start.line)), ("startColumn", .int(range.start.column)),
                    ("endLine", .int(end.line)), ("endColumn", .int(end.column)),
                ])),
            ])),
        ])
    }

    /// A relative path against `%SRCROOT%`; an absolute one as a `file://` URI of its own.
    static func artifactLocation(_ written: String) -> JSON {
        artifactLocation(resolvedPath: resolved(written))
    }

    private static func artifactLocation(resolvedPath path: String) -> JSON {
        path.hasPrefix("/")
            ? .object([("uri", .string("file://" + uri(path)))])
            : .object([("uri", .string(uri(path))), ("uriBaseId", .string("%SRCROOT%"))])
    }

    /// A URI of a path, with characters that URIs reserve escaped.
    static func uri(_ path: String) -> String {
        var out = ""
        for scalar in normalized(path).unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", "~", "/": out.unicodeScalars.append(scalar)
            default:
                for byte in String(scalar).utf8 { out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2) }
            }
        }
        return out
    }

    /// The path code scanning is given for a relative one: the file it names, through symbolic links and `..`, relative
    /// to where adrules ran (`real/sub/../a.yaml` and `real/a.yaml` are one file, and a URI reader would take
    /// `link/../a.yaml` for `a.yaml`, whatever the link names); absolute when the file is outside it. An absolute path,
    /// or one that cannot be resolved, is only ``normalized(_:)``.
    static func resolved(_ path: String, in directory: String = FileManager.default.currentDirectoryPath) -> String {
        guard !path.hasPrefix("/"), let real = PolicyLoader.realPath(directory + "/" + path), let base = PolicyLoader.realPath(directory) else {
            return normalized(path)
        }
        if base == "/" { return String(real.dropFirst()) }
        return real.hasPrefix(base + "/") ? String(real.dropFirst(base.count + 1)) : real
    }

    /// A path with empty and `.` segments removed: a relative path never starts with `/` (which would name the root,
    /// not the checkout).
    static func normalized(_ path: String) -> String {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        let joined = segments.joined(separator: "/")
        if path.hasPrefix("/") { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// A stable fingerprint of a finding: it does not move when lines are added above it or in another file, nor when
    /// the checkout lives in another directory (GitHub pairs it with the file's URI itself): a hash of the file's name
    /// (as its URI gives it), the rule and the message without the places it names (``withoutPlaces(_:)``).
    static func fingerprint(_ d: Diagnostic, in directory: String = FileManager.default.currentDirectoryPath) -> String {
        fingerprint(d, resolvedFile: resolved(d.file, in: directory))
    }

    /// - Parameter file: the finding's file, ``resolved(_:in:)``: the name its URI gives (a link's target), so that one
    ///   file has one name however it was reached.
    private static func fingerprint(_ d: Diagnostic, resolvedFile file: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let name = file.split(separator: "/").last.map(String.init) ?? file
        for byte in "\(name)|\(d.rule)|\(withoutPlaces(d.message))".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16).leftPadded(16)
    }

    /// A message without the lines and columns it names (`first at rules/a.yaml:3:3`, `on line 12`, `column 5`): a
    /// finding that names its first definition in another file is the same finding when lines are added above that one.
    /// Text in double quotes is the file's own (`not "12:00:61"`, `unknown key "line 5"`) and is kept: two findings that
    /// differ there are two findings.
    static func withoutPlaces(_ message: String) -> String {
        let bytes = Array(message.utf8)
        func digits(from start: Int) -> Int {
            var end = start
            while end < bytes.count, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9") { end += 1 }
            return end
        }
        let words = [Array("line ".utf8), Array("column ".utf8)]
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        var i = 0
        var quoted = false
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\""), i == 0 || bytes[i - 1] != UInt8(ascii: "\\") { quoted.toggle() }
            if quoted {
                kept.append(bytes[i])
                i += 1
                continue
            }
            // `:12:3`, a line and column after a file's name: the colon is kept.
            if bytes[i] == UInt8(ascii: ":") {
                let lineEnd = digits(from: i + 1)
                if lineEnd > i + 1, lineEnd < bytes.count, bytes[lineEnd] == UInt8(ascii: ":"), digits(from: lineEnd + 1) > lineEnd + 1 {
                    kept.append(UInt8(ascii: ":"))
                    i = digits(from: lineEnd + 1)
                    continue
                }
            }
            // `line 12` or `column 5`, at the start of a word: the word is kept.
            let startsWord = i == 0 || !(bytes[i - 1] >= UInt8(ascii: "a") && bytes[i - 1] <= UInt8(ascii: "z"))
            if startsWord, let word = words.first(where: { bytes[i...].starts(with: $0) }), digits(from: i + word.count) > i + word.count {
                kept += word.dropLast()
                i = digits(from: i + word.count)
                continue
            }
            kept.append(bytes[i])
            i += 1
        }
        return String(decoding: kept, as: UTF8.self)
    }

    private static func camelName(_ id: String) -> String {
        id.split(whereSeparator: { $0 == "/" || $0 == "-" }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
