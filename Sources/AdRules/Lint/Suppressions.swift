import AdRulesYAML

/// `# adrules:disable-next-line RULE [RULE...]` comments, found by scanning each line's text.
///
/// libyaml does not report comments, so the directive is looked for in the raw lines; only a line
/// whose comment starts with the directive counts.
struct Suppressions {
    private static let directive = "# adrules:disable-next-line"
    /// file → line → rules suppressed on that line.
    private var rules: [String: [Int: Set<String>]] = [:]

    init(sources: [(file: String, bytes: [UInt8])]) {
        for source in sources {
            guard source.bytes.contains(UInt8(ascii: "#")) else { continue }
            let text = String(decoding: source.bytes, as: UTF8.self)
            var lineNumber = 0
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                lineNumber += 1
                guard let range = line.range(of: Suppressions.directive) else { continue }
                let names = line[range.upperBound...]
                    .split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\r" })
                    .map(String.init)
                rules[source.file, default: [:]][lineNumber + 1, default: []].formUnion(names.isEmpty ? ["*"] : names)
            }
        }
    }

    func suppresses(_ diagnostic: Diagnostic) -> Bool {
        guard let names = rules[diagnostic.file]?[diagnostic.range.start.line] else { return false }
        return names.contains(diagnostic.rule) || names.contains("*") || names.contains("all")
    }
}
