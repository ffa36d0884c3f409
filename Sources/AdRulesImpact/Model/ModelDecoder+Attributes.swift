import AdRules
import AdRulesCompiler
import AdRulesYAML
import Foundation

extension ModelDecoder {
    static func decodeAttributes(_ node: YAMLNode, reader: inout ModelReader) -> [ModelAttribute] {
        guard let pairs = reader.mapping(node, "attributes") else { return [] }
        var attributes: [ModelAttribute] = []
        for pair in pairs {
            guard let name = pair.key.scalar?.value, !name.isEmpty else {
                reader.report(.wrongType("an attribute name", expected: "a plain word", found: pair.key, file: reader.file))
                continue
            }
            guard reader.checkedText(name, "an attribute name", pair.key) != nil else { continue }
            // The share of premium users is the segment's own setting (no policy may declare an attribute of that
            // name): as an attribute, every user of the segment would play as one who is not premium.
            if name == "premium" {
                reader.report(.premiumAsAttribute(inModel: true, file: reader.file, range: pair.key.range))
                continue
            }
            let value: ModelAttribute.Value
            if let scalar = pair.value.scalar, !scalar.isNull {
                guard let text = reader.checkedText(scalar.value, "attribute \(name)", pair.value) else { continue }
                // Texts kept composed, as a rule's constants are (``Swift/String/composed``): comparing them stays fast.
                value = .scalar(text.composed, plain: scalar.style == .plain)
            } else if let inner = pair.value.pairs, inner.count == 1, inner[0].key.scalar?.value == "uniform",
                let ends = inner[0].value.items, ends.count == 2
            {
                // A bool is one value for the whole segment: a draw between true and false is told how to mix them.
                if let end = ends.first(where: { $0.scalar.map { $0.style == .plain && ["true", "false"].contains($0.value) } == true }) {
                    reader.report(.wrongType(
                        "\(name).uniform", expected: "a number or a duration", found: end, file: reader.file,
                        advice: "a bool attribute is true or false for a whole segment; to mix them, split the segment in two, each with its share and its value"))
                    continue
                }
                // Ends written as durations (`[5s, 20s]`) draw a duration; plain numbers draw a number.
                if ends.contains(where: { $0.scalar.flatMap { RuleDuration(parsing: $0.value) } != nil }) {
                    guard let low = reader.duration(ends[0], "\(name).uniform"), let high = reader.duration(ends[1], "\(name).uniform") else { continue }
                    guard reader.ordered(low, high, name, node: inner[0].value) else { continue }
                    attributes.append(ModelAttribute(
                        name: name, value: .uniformDuration(RuleDuration(milliseconds: low), RuleDuration(milliseconds: high)),
                        location: reader.location(pair.key), valueLocation: reader.location(pair.value)))
                    continue
                }
                guard let low = reader.number(ends[0], "\(name).uniform", in: -1e15...1e15),
                    let high = reader.number(ends[1], "\(name).uniform", in: -1e15...1e15)
                else { continue }
                guard reader.ordered(low, high, name, node: inner[0].value) else { continue }
                value = .uniform(low, high, whole: low == low.rounded() && high == high.rounded())
            } else if let inner = pair.value.pairs, inner.count == 1, let kind = inner[0].key.scalar?.value, kind == "poisson" || kind == "exponential" {
                // impact.md: `{poisson: mean}` draws counts, `{exponential: mean}` durations, read as the segment's are.
                if kind == "poisson" {
                    // A draw takes about one step per unit of the mean, once a user-day: 1,000 keeps it below what the day plays.
                    guard case .poisson(let mean)? = reader.count(pair.value, name, in: 0...1_000) else { continue }
                    value = .poisson(mean)
                } else {
                    guard case .exponential(let mean)? = reader.durationDistribution(pair.value, name, minimum: 1) else { continue }
                    value = .exponential(RuleDuration(milliseconds: mean))
                }
            } else if let items = pair.value.items {
                // A [string] or [int] attribute: a list of plain values, as a rule's list literal holds.
                guard items.count <= PolicyLimits.maxListItems else {
                    reader.report(.modelOutOfRange("attribute \(name)", "a list of at most \(PolicyLimits.maxListItems) values", found: "\(items.count) values", file: reader.file, range: pair.value.range))
                    continue
                }
                var list: [ModelAttribute.Item] = []
                for item in items {
                    guard let scalar = item.scalar, !scalar.isNull else {
                        reader.report(.wrongType("a value in attribute \(name)", expected: "a word or a whole number", found: item, file: reader.file))
                        break
                    }
                    guard let text = reader.checkedText(scalar.value, "a value in attribute \(name)", item) else { break }
                    list.append(ModelAttribute.Item(text: text.composed, plain: scalar.style == .plain))
                }
                guard list.count == items.count else { continue }
                value = .list(list)
            } else {
                // `{min: 1, max: 40}` is told to be `uniform`; a mistyped distribution (`{unifrom: [1, 4]}`) gets its
                // "did you mean"; any other mapping its type.
                if let inner = pair.value.pairs, reader.reportIfRangeWrittenAsBounds(inner, "attribute \(name)", node: pair.value)
                    || reader.fields(inner, allowed: ModelReader.distributionKinds, context: "attribute \(name)").count < inner.count
                {
                    continue
                }
                // A uniform draw whose bounds are not two (`[1, 40, 50]`, `5`), or beside another key, is told which.
                if let inner = pair.value.pairs, let uniform = inner.first(where: { $0.key.scalar?.value == "uniform" }) {
                    let found = inner.count > 1 ? "\(inner.count) keys"
                        : uniform.value.items.map { "\($0.count) \($0.count == 1 ? "bound" : "bounds")" }
                        ?? uniform.value.scalar.map { $0.style == .plain ? "the bound \($0.shortValue)" : "the bound \"\($0.shortValue)\"" }
                        ?? uniform.value.kindDescription
                    reader.report(.modelOutOfRange(
                        "attribute \(name)", "{uniform: [low, high]}, one key with a list of two bounds", found: found,
                        file: reader.file, range: pair.value.range))
                    continue
                }
                reader.report(.wrongType(
                    "attribute \(name)", expected: "a value, a list, {uniform: [low, high]}, {poisson: mean} or {exponential: mean}", found: pair.value, file: reader.file))
                continue
            }
            attributes.append(ModelAttribute(
                name: name, value: value, location: reader.location(pair.key), valueLocation: reader.location(pair.value)))
        }
        return attributes
    }
}
