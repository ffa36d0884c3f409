import AdRulesTestSupport
import AdRules
import AdRulesCompiler
import AdRulesYAML

/// Lints one in-memory rule file.
func lint(_ text: String, file: String = "t.yaml") -> [Diagnostic] {
    PolicyLoader.load(texts: [(file, text)]).diagnostics
}

/// Loads a policy that must be valid.
func policy(_ text: String) throws -> Policy {
    try Policy(yaml: text, file: "p.yaml")
}
