import AdRules

extension ExpressionChecker {
    /// The name an operand is, when it is one.
    static func name(of syntax: Syntax) -> String? {
        if case .name(let n, _) = syntax { return n }
        return nil
    }

    /// An attribute declared with a type, as a policy writes it: `attributes: {level: int}` (a list type in quotes,
    /// which YAML would read as a list).
    static func declaration(_ name: String, _ type: ValueType) -> String {
        let written = type.element == nil ? type.rawValue : "\"\(type.rawValue)\""
        return "attributes: {\(name): \(written)}"
    }

    /// What to write when two values of different types are compared: a literal is rewritten as the other side's type
    /// (the name's type is the one the policy gives it); two names cannot be made alike by rewriting either.
    static func sameTypeAdvice(_ l: Syntax, _ lType: ValueType, _ r: Syntax, _ rType: ValueType) -> String {
        func isLiteral(_ s: Syntax) -> Bool {
            switch s {
            case .literal, .list: return true
            default: return false
            }
        }
        if isLiteral(r), !isLiteral(l) { return advice(for: name(of: l), of: lType) }
        if isLiteral(l), !isLiteral(r) { return advice(for: name(of: r), of: rType) }
        return "compare a name with a value of its type: \(Article.indefinite(lType.rawValue)) \(lType.rawValue) with \(example(of: lType))"
    }

    /// "level is an int: write the value as a whole number, as in 5".
    static func advice(for name: String?, of type: ValueType) -> String {
        let subject = name.map { "\($0) is \(Article.indefinite(type.rawValue)) \(type.rawValue)" } ?? "the other side is \(Article.indefinite(type.rawValue)) \(type.rawValue)"
        if type == .bool, let name { return "\(subject): test it on its own (\(name), or not \(name)), or compare it with true or false" }
        return "\(subject): write the value as \(example(of: type))"
    }

    /// A value of a type as a rule writes it.
    static func example(of type: ValueType) -> String {
        switch type {
        case .bool: return "true or false"
        case .int: return "a whole number, as in 5"
        case .number: return "a number, as in 2.5"
        case .string: return #"text in double quotes, as in "home""#
        case .duration: return "a duration with its unit, as in 30s or 5m"
        case .stringList: return #"a list of texts, as in ["a", "b"]"#
        case .intList: return "a list of whole numbers, as in [1, 2]"
        }
    }
}
