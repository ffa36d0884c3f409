import AdRulesTestSupport
import Foundation
import Testing

/// Every Swift snippet in the README is taken verbatim from code CI compiles: the line before each ```swift block
/// links the file it comes from, and the snippet's lines (indentation aside) are consecutive lines of that file.
@Suite("README snippets")
struct ReadmeSnippetTests {
    struct Snippet: CustomStringConvertible {
        var line: Int
        var source: String?
        var lines: [String]
        var description: String { "README.md:\(line)" }
    }

    static func snippets() throws -> [Snippet] {
        let readme = try String(contentsOfFile: packageRoot() + "/README.md", encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        var snippets: [Snippet] = []
        var index = 0
        while index < lines.count {
            guard lines[index].trimmingCharacters(in: .whitespaces) == "```swift" else {
                index += 1
                continue
            }
            let before = lines[..<index].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
            let end = lines[(index + 1)...].firstIndex { $0.trimmingCharacters(in: .whitespaces) == "```" } ?? lines.count
            snippets.append(Snippet(line: index + 1, source: linkedSwiftFile(in: before), lines: Array(lines[(index + 1)..<end])))
            index = end + 1
        }
        return snippets
    }

    /// The target of the last Markdown link to a `.swift` file in a line: `[…](Examples/Demo/Package.swift)`.
    static func linkedSwiftFile(in line: String) -> String? {
        line.components(separatedBy: "](").dropFirst().compactMap { part -> String? in
            guard let close = part.firstIndex(of: ")") else { return nil }
            let target = String(part[..<close])
            return target.hasSuffix(".swift") ? target : nil
        }.last
    }

    /// Lines without their common leading spaces.
    static func dedented(_ lines: some Collection<String>) -> [String] {
        let indent = lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return lines.map { $0.count >= indent ? String($0.dropFirst(indent)) : $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func theReadmeHasSwiftSnippets() throws {
        #expect(try Self.snippets().count >= 5)
    }

    @Test func everySwiftSnippetIsVerbatimFromCodeCICompiles() throws {
        for snippet in try Self.snippets() {
            guard let source = snippet.source else {
                Issue.record("\(snippet): the line before the snippet must link the .swift file it is taken from")
                continue
            }
            #expect(
                source.hasPrefix("Examples/") || source.hasPrefix("Sources/") || source.hasPrefix("Tests/"),
                "\(snippet): \(source) is not compiled by CI")
            guard let text = try? String(contentsOfFile: packageRoot() + "/" + source, encoding: .utf8) else {
                Issue.record("\(snippet): \(source) does not exist")
                continue
            }
            let fileLines = text.components(separatedBy: "\n")
            let wanted = Self.dedented(snippet.lines)
            let found = fileLines.indices.contains { start in
                start + wanted.count <= fileLines.count && Self.dedented(fileLines[start..<(start + wanted.count)]) == wanted
            }
            #expect(found, "\(snippet): not found verbatim in \(source)")
        }
    }

    /// The reference scenario at the top of docs/scenario-tests.md passes against the shipped rules.
    @Test func theScenarioReferenceExamplePasses() throws {
        let page = try String(contentsOfFile: packageRoot() + "/docs/scenario-tests.md", encoding: .utf8)
        let start = try #require(page.range(of: "```yaml\n"))
        let end = try #require(page[start.upperBound...].range(of: "```"))
        let path = scratchPath("adrules-doc") + ".test.yaml"
        try String(page[start.upperBound..<end.lowerBound]).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = runCLI(["test", path, "--rules", packageRoot() + "/rules"])
        #expect(result.exitCode == 0, "\(result.stdout)")
        #expect(result.stdout.hasSuffix("1 passed, 0 failed\n"), "\(result.stdout)")
    }

    /// The README's scenario passes against the README's policy ("Rule files in brief") and against the shipped rules,
    /// as the README says.
    @Test func theReadmeScenarioPassesAgainstTheReadmePolicy() throws {
        let readme = try String(contentsOfFile: packageRoot() + "/README.md", encoding: .utf8)
        func block(startingWith head: String) throws -> String {
            let start = try #require(readme.range(of: "```yaml\n" + head))
            let end = try #require(readme[start.upperBound...].range(of: "```"))
            return String(readme[readme.index(start.lowerBound, offsetBy: 8)..<end.lowerBound])
        }
        let directory = scratchPath("adrules-readme")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try block(startingWith: "version: 1\ntimezone: device").write(toFile: directory + "/policy.yaml", atomically: true, encoding: .utf8)
        try block(startingWith: "tests:\n  - name: a resume without").write(toFile: directory + "/resume.test.yaml", atomically: true, encoding: .utf8)
        for rules in [directory, packageRoot() + "/rules"] {
            let result = runCLI(["test", directory, "--rules", rules])
            #expect(result.exitCode == 0 && result.stdout.hasSuffix("1 passed, 0 failed\n"), "\(rules): \(result.stdout)")
        }
    }

    /// The usage model docs/impact.md walks through plays against the shipped rules with no finding.
    @Test func theImpactModelExampleRunsClean() throws {
        let page = try String(contentsOfFile: packageRoot() + "/docs/impact.md", encoding: .utf8)
        let start = try #require(page.range(of: "```yaml\nversion: 1\nusers: 10000"))
        let end = try #require(page[start.upperBound...].range(of: "```"))
        let directory = scratchPath("adrules-doc-model")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let model = String(page[page.index(start.lowerBound, offsetBy: 8)..<end.lowerBound])
        try model.write(toFile: directory + "/m.model.yaml", atomically: true, encoding: .utf8)
        let result = runCLI(["impact", directory + "/m.model.yaml", "--rules", packageRoot() + "/rules", "--users", "20", "--days", "1"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }
}
