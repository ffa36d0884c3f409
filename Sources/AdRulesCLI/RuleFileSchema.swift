/// The JSON Schema of rule files (stub replaced below).
enum RuleFileSchema {
    static let text = "{}"
}
