import AdRules

/// The context a simulated user's asks are decided with, prepared once a day.
extension UserPlayer {
    /// The context of a day's attribute values, prepared for the policy (the rules read the attributes by slot on every
    /// ask). Preparing one takes about 12,000 instructions with the shipped rules (an attribute dictionary, its checks,
    /// the conditions that read attributes only), and a segment whose attributes take few values
    /// (``SegmentPlan/contextsRepeat``) draws the same ones day after day: each is prepared once and kept in
    /// ``preparedContexts``, emptied when it holds ``preparedContextsKept``.
    mutating func preparedContext(_ key: PreparedContextKey) -> AskContext {
        if let context = preparedContexts[key] { return context }
        if preparedContexts.count >= preparedContextsKept { preparedContexts.removeAll(keepingCapacity: true) }
        let context = prepare(key)
        preparedContexts[key] = context
        return context
    }

    /// The context of a day's attribute values, prepared for the policy.
    func prepare(_ key: PreparedContextKey) -> AskContext {
        let seg = plan.segments[key.segment]
        var attributes: [String: AttributeValue] = [:]
        for (attribute, value) in zip(seg.attributes, key.values) { attributes[attribute.name] = value }
        return plan.policy.prepared(AskContext(premium: key.premium, attributes: attributes))
    }
}

/// A day's context before it is prepared: the segment (whose attribute names the values follow), premium and the values drawn.
struct PreparedContextKey: Hashable {
    var segment: Int
    var premium: Bool
    var values: [AttributeValue]
}
