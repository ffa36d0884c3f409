import AdRules
import AdRulesCompiler
import Testing

@testable import AdRulesImpact

/// cli.md r2: after a `yaml/syntax` error a file gets no other finding. A first key indented (` version: 1`, then
/// `users: 5` in the first column) ends the document before the error, so the keys below it were missing from a
/// document read whole: the model was also told it had no segments, and a scenario file that its tests were no list.
@Suite("A syntax error after the document's end has no follow-on findings")
struct SyntaxErrorFollowOnTests {
    @Test func aModelWithAnIndentedFirstKeyGetsTheSyntaxErrorAlone() {
        let model = " version: 1\nusers: 5\nsegments:\n  - {name: all, share: 1}\n"
        let rules = ModelDecoder.decode(model, file: "m.model.yaml").diagnostics.map(\.rule)
        #expect(rules == ["yaml/syntax"], "\(rules)")
    }

    @Test func aScenarioWithAnIndentedFirstKeyGetsTheSyntaxErrorAlone() throws {
        let policy = try Policy(yaml: "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\n")
        let scenario = " tests:\nsteps: []\n"
        let rules = ScenarioDecoder.decode(Array(scenario.utf8), file: "s.test.yaml", policy: policy).1.map(\.rule)
        #expect(rules == ["yaml/syntax"], "\(rules)")
    }
}

/// A count of a usage model may be a mapping (`{poisson: 1}`, `{uniform: [1, 3]}`): a mapping that is neither (two kinds,
/// or none) is not told to be written with no { }, which the valid forms have.
@Suite("A model's count written as a mapping of the wrong shape")
struct ModelCountMappingAdviceTests {
    @Test func aCountMappingIsNotToldToHaveNoBraces() {
        let model = "version: 1\nsegments:\n  - name: all\n    share: 1\n    cold_starts: {poisson: 1, uniform: [1, 2]}\n    resumes: {}\n"
        let messages = ModelDecoder.decode(model, file: "m.model.yaml").diagnostics.map(\.message)
        #expect(messages.count == 2, "\(messages)")
        #expect(messages.allSatisfy { !$0.contains("no { }") }, "\(messages)")
        #expect(messages.contains("cold_starts must be a whole number, {uniform: [a, b]} or {poisson: mean}, not a mapping"), "\(messages)")
    }
}
