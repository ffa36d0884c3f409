import AdRules

extension ExpressionChecker {
    /// `now.weekday` compared with a day it never reads as (`"monday"`, `"Mon"`): well typed, and never true (a
    /// `rule/built-in-value` warning, as the checks of hours below).
    static func isWeekday(_ syntax: Syntax) -> Bool {
        if case .name(let name, _) = syntax { return name == Builtin.nowWeekday.rawValue }
        return false
    }

    /// `now.hour` compared with an hour it never reads as (24, -1, 6.5: with `==` or `in` never true, with `!=` or
    /// `not in` always), or ordered so that no hour passes (`now.hour > 23`): well typed, and a rule that never or always
    /// denies. An order every hour passes (`now.hour >= 0`, half of a window written out in full) is left alone.
    /// - Parameter op: the comparison, nil for `in` and `not in`.
    mutating func checkHours(_ l: Syntax, _ r: Syntax, _ op: CompareOperator? = nil, offset: Int = 0) {
        func isHour(_ syntax: Syntax) -> Bool {
            if case .name(let name, _) = syntax { return name == Builtin.nowHour.rawValue }
            return false
        }
        func number(_ syntax: Syntax) -> (value: Double, text: String, offset: Int)? {
            switch syntax {
            case .literal(.int(let n), let offset): return (Double(n), String(n), offset)
            case .literal(.number(let x), let offset): return (x, String(x), offset)
            default: return nil
            }
        }
        let other: Syntax
        if isHour(l) { other = r } else if isHour(r) { other = l } else { return }
        // `!=` and `not in` an hour it never reads (`now.hour != 24`) are always true, and as likely a slip as `== 24`:
        // warned of as `now.weekday != "Sun"` is. (An order every hour passes, `>= 0`, is half a window and left alone.)
        let hours = (0...23).map(Double.init)
        if let op, op != .equal, op != .notEqual {
            guard let bound = number(other) else { return }
            let hourFirst = isHour(l)
            let passes = hours.contains { hour in
                let (a, b) = hourFirst ? (hour, bound.value) : (bound.value, hour)
                switch op {
                case .less: return a < b
                case .lessEqual: return a <= b
                case .greater: return a > b
                default: return a >= b
                }
            }
            if !passes {
                let text = hourFirst ? "now.hour \(op.rawValue) \(bound.text)" : "\(bound.text) \(op.rawValue) now.hour"
                findings.append(ExpressionFinding(
                    kind: .builtInValue, offset: offset,
                    message: "\(text) is never true (now.hour reads the local hour, a whole number from 0 to 23): write a bound some hours pass, as in now.hour >= 22"))
            }
            return
        }
        let literals: [(value: Double, text: String, offset: Int)]
        if case .list(let items, _) = other { literals = items.compactMap(number) } else { literals = number(other).map { [$0] } ?? [] }
        for literal in literals where !hours.contains(literal.value) {
            findings.append(ExpressionFinding(
                kind: .builtInValue, offset: literal.offset,
                message: "now.hour is never \(literal.text): it reads the local hour, a whole number from 0 to 23; write one of those"))
        }
    }

    mutating func checkWeekdays(_ l: Syntax, _ r: Syntax) {
        let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        let other: Syntax
        if Self.isWeekday(l) { other = r } else if Self.isWeekday(r) { other = l } else { return }
        var literals: [(String, Int)] = []
        switch other {
        case .literal(.string(let text), let offset): literals = [(text, offset)]
        case .list(let items, _):
            for case .literal(.string(let text), let offset) in items { literals.append((text, offset)) }
        default: break
        }
        for (text, offset) in literals where !days.contains(text) {
            let near = String(text.lowercased().prefix(3))
            let advice = days.contains(near) ? "write \"\(near)\"" : "write one of \(days.map { "\"\($0)\"" }.joined(separator: ", "))"
            findings.append(ExpressionFinding(
                kind: .builtInValue, offset: offset, message: "now.weekday is never \"\(text)\": it reads mon, tue, wed, thu, fri, sat or sun; \(advice)"))
        }
    }
}
