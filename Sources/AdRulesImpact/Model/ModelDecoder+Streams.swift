import AdRules
import AdRulesCompiler
import AdRulesYAML
import Foundation

extension ModelDecoder {
    private static func placement(_ pairs: [(key: String, pair: YAMLPair)], node: YAMLNode, context: String, reader: inout ModelReader) -> (String, SourceLocation)? {
        guard let pair = pairs.first(where: { $0.key == "placement" })?.pair else {
            // `placement:…` glued to its value is an error of its own, which says what to write.
            if !GluedKey.keysPresent(node.pairs ?? []).contains("placement") {
                reader.report(.missingKey("placement", in: context, example: "placement: level_end", file: reader.file, range: node.range))
            }
            return nil
        }
        return reader.string(pair.value, "placement").map { ($0, reader.location(pair.value)) }
    }

    private static func every(_ pairs: [(key: String, pair: YAMLPair)], node: YAMLNode, context: String, reader: inout ModelReader) -> DurationDistribution? {
        guard let pair = pairs.first(where: { $0.key == "every" })?.pair else {
            // `every:…` glued to its value is an error of its own, which says what to write.
            if !GluedKey.keysPresent(node.pairs ?? []).contains("every") {
                reader.report(.missingKey("every", in: context, example: "every: {exponential: 2m}", file: reader.file, range: node.range))
            }
            return nil
        }
        return reader.durationDistribution(pair.value, "every", minimum: 1000)
    }

    static func decodeActions(_ node: YAMLNode, reader: inout ModelReader) -> [ActionStream] {
        guard let items = reader.sequence(node, "actions", example: "- {placement: level_end, every: {exponential: 2m}}") else { return [] }
        guard items.count <= maxStreams else {
            reader.report(.modelOutOfRange("actions", "a list of at most \(maxStreams) streams", found: "\(items.count) streams", file: reader.file, range: node.range))
            return []
        }
        return items.compactMap { item in
            guard let pairs = reader.mapping(item, "an action") else { return nil }
            let fields = reader.fields(pairs, allowed: ModelKeys.action, context: "an action", belongsIn: { ModelKeys.relocation(of: $0, in: ModelKeys.action) })
            let placement = placement(fields, node: item, context: "an action", reader: &reader)
            let every = every(fields, node: item, context: "an action", reader: &reader)
            guard let placement, let every else { return nil }
            return ActionStream(placement: placement.0, every: every, location: placement.1)
        }
    }

    static func decodeRewarded(_ node: YAMLNode, reader: inout ModelReader) -> [RewardedStream] {
        guard let items = reader.sequence(node, "rewarded", example: "- {placement: rewarded_hint, every: 5m, accept: 0.5}") else { return [] }
        guard items.count <= maxStreams else {
            reader.report(.modelOutOfRange("rewarded", "a list of at most \(maxStreams) streams", found: "\(items.count) streams", file: reader.file, range: node.range))
            return []
        }
        return items.compactMap { item in
            guard let pairs = reader.mapping(item, "a rewarded offer") else { return nil }
            let fields = reader.fields(pairs, allowed: ModelKeys.rewarded, context: "a rewarded offer", belongsIn: { ModelKeys.relocation(of: $0, in: ModelKeys.rewarded) })
            let placement = placement(fields, node: item, context: "a rewarded offer", reader: &reader)
            let every = every(fields, node: item, context: "a rewarded offer", reader: &reader)
            var accept = 1.0
            if let pair = fields.first(where: { $0.key == "accept" })?.pair {
                guard let value = reader.probability(pair.value, "accept") else { return nil }
                accept = value
            }
            guard let placement, let every else { return nil }
            return RewardedStream(placement: placement.0, every: every, accept: accept, location: placement.1)
        }
    }
}
