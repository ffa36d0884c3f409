import AdRules
import AdRulesCompiler
import AdRulesYAML
import Foundation

extension ModelDecoder {
    private static func placement(_ pairs: [(key: String, pair: YAMLPair)], node: YAMLNode, context: String, reader: inout ModelReader) -> (String, SourceLocation)? {
        guard let pair = pairs.first(where: { $0.key == "placement" })?.pair else {
            // `placement:…` glued to its value is an error of its own, which says what to write.
            if !GluedKey.keysMeant(node.pairs ?? [], allowed: ModelKeys.rewarded, relocation: { ModelKeys.relocation(of: $0, in: ModelKeys.rewarded) }).contains("placement") {
                reader.report(.missingKey("placement", in: context, example: "placement: level_end", file: reader.file, range: node.range))
            }
            return nil
        }
        return reader.string(pair.value, "placement").map { ($0, reader.location(pair.value)) }
    }

    private static func every(_ pairs: [(key: String, pair: YAMLPair)], node: YAMLNode, context: String, reader: inout ModelReader) -> DurationDistribution? {
        guard let pair = pairs.first(where: { $0.key == "every" })?.pair else {
            // `every:…` glued to its value is an error of its own, which says what to write.
            if !GluedKey.keysMeant(node.pairs ?? [], allowed: ModelKeys.rewarded, relocation: { ModelKeys.relocation(of: $0, in: ModelKeys.rewarded) }).contains("every") {
                reader.report(.missingKey("every", in: context, example: "every: {exponential: 2m}", file: reader.file, range: node.range))
            }
            return nil
        }
        return reader.durationDistribution(pair.value, "every", minimum: 1000)
    }

    static func decodeActions(_ node: YAMLNode, reader: inout ModelReader) -> [ActionStream] {
        streams(node, "actions", example: "- {placement: level_end, every: {exponential: 2m}}", item: "an action", keys: ModelKeys.action, reader: &reader) {
            _, placement, every, _ in
            guard let placement, let every else { return nil }
            return ActionStream(placement: placement.0, every: every, location: placement.1)
        }
    }

    static func decodeRewarded(_ node: YAMLNode, reader: inout ModelReader) -> [RewardedStream] {
        streams(node, "rewarded", example: "- {placement: rewarded_hint, every: 5m, accept: 0.5}", item: "a rewarded offer", keys: ModelKeys.rewarded, reader: &reader) {
            fields, placement, every, reader in
            var accept = 1.0
            if let pair = fields.first(where: { $0.key == "accept" })?.pair {
                guard let value = reader.probability(pair.value, "accept") else { return nil }
                accept = value
            }
            guard let placement, let every else { return nil }
            return RewardedStream(placement: placement.0, every: every, accept: accept, location: placement.1)
        }
    }

    /// A list of streams (`actions`, `rewarded`): at most ``maxStreams``, each a mapping of `keys` with a placement and
    /// an `every`, which are read (and their problems reported) before `make` reads the rest and builds the stream.
    private static func streams<Stream>(
        _ node: YAMLNode, _ key: String, example: String, item context: String, keys: [String], reader: inout ModelReader,
        _ make: (_ fields: [(key: String, pair: YAMLPair)], _ placement: (String, SourceLocation)?, _ every: DurationDistribution?, _ reader: inout ModelReader) -> Stream?
    ) -> [Stream] {
        guard let items = reader.sequence(node, key, example: example) else { return [] }
        guard items.count <= maxStreams else {
            reader.report(.modelOutOfRange(key, "a list of at most \(maxStreams) streams", found: "\(items.count) streams", file: reader.file, range: node.range))
            return []
        }
        return items.compactMap { item in
            guard let pairs = reader.mapping(item, context) else { return nil }
            let fields = reader.fields(pairs, allowed: keys, context: context, belongsIn: { ModelKeys.relocation(of: $0, in: keys) })
            let placement = placement(fields, node: item, context: context, reader: &reader)
            let every = every(fields, node: item, context: context, reader: &reader)
            return make(fields, placement, every, &reader)
        }
    }
}
