import AdRules
import Foundation

/// Drives an engine from fuzzed bytes: each pair of bytes is one operation (an event, an ask, a clock move, a
/// policy swap) and its argument, so the fuzzer explores sequences as well as values.
struct EngineScript {
    let bytes: ArraySlice<UInt8>
    /// At most this many operations, so that an input's cost stays bounded whatever its length.
    static let maxOperations = 512

    func run(_ engine: AdEngine, clock: ManualClock, policies: [Policy]) {
        var ids = Self.ids(of: engine.currentPolicy)
        var index = bytes.startIndex
        var count = 0
        while index < bytes.endIndex, count < Self.maxOperations {
            let op = bytes[index]
            let arg = index + 1 < bytes.endIndex ? bytes[index + 1] : 0
            index += 2
            count += 1
            let id = ids[Int(arg) % ids.count]
            let trigger = ShowTrigger.allCases[Int(arg) % ShowTrigger.allCases.count]
            let context = AskContext(premium: arg & 0x80 != 0, attributes: Self.attributes(arg))
            switch op % 24 {
            case 0: clock.advance(by: TimeInterval(arg))
            case 1: clock.advance(by: TimeInterval(arg) * 60)
            case 2: clock.advance(by: TimeInterval(arg) * 3600)
            case 3: clock.advance(by: -TimeInterval(arg) * 3600)  // the device clock set back
            case 4: engine.record(.appLaunched)
            case 5: engine.record(.appBackgrounded)
            case 6: engine.record(.appResumed)
            case 7: engine.record(.loadStarted(id))
            case 8: engine.record(.loadCompleted(id))
            case 9: engine.record(.loadFailed(id))
            case 10: engine.record(.action(id))
            case 11: engine.record(.userChose(id))
            case 12: engine.record(.showStarted(id))
            case 13: engine.record(.showFailed(id))
            case 14: engine.record(.adClosed(id))
            case 15: engine.record(.rewardEarned(id))
            case 16: engine.record(.fullscreenOpened(source: arg & 1 == 0 ? nil : "sdk\(arg % 3)"))
            case 17: engine.record(.fullscreenClosed(source: arg & 1 == 0 ? nil : "sdk\(arg % 3)"))
            case 18: _ = engine.beginShow(id, trigger: trigger, context: context)
            case 19: _ = engine.claimReward(id, context: context)
            case 20:
                guard !policies.isEmpty else { continue }
                engine.update(policy: policies[Int(arg) % policies.count])
                ids = Self.ids(of: engine.currentPolicy)
            default:
                let kind = AskKind.allCases[Int(op) % AskKind.allCases.count]
                let decision = engine.ask(Ask(kind, placement: id.rawValue, trigger: trigger), context: context)
                _ = decision.description
            }
        }
    }

    /// The policy's placement ids and one it does not know.
    private static func ids(of policy: Policy) -> [PlacementID] {
        policy.placements.map { PlacementID($0.id) } + ["unknown"]
    }

    private static func attributes(_ arg: UInt8) -> [String: AttributeValue] {
        switch arg % 4 {
        case 0: return [:]
        case 1: return ["screen": .string("checkout")]
        case 2: return ["screen": .string("home"), "level": .int(Int64(arg)), "onboarding": .bool(false)]
        default: return ["screen": .int(7), "level": .string("x")]
        }
    }
}
