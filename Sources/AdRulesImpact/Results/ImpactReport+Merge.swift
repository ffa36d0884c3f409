import AdRules
import Foundation

extension ImpactReport {
    /// Combines the partial results of every shard of one run into the result of the whole run.
    /// - Throws: ``MergeError`` when parts are missing, repeated, or from different runs, or list together more
    ///   deny reasons than ``maxDenyRows``.
    public static func merge(_ parts: [ImpactReport]) throws -> ImpactReport {
        var merge = Merge()
        for part in parts { try merge.add(part) }
        return try merge.result()
    }

    /// A merge that takes the parts one at a time, as they are read: it holds the sum so far, never every part, so
    /// merging a thousand shards needs the memory of one.
    public struct Merge {
        /// The sum of the parts added so far, without a shard: nil before the first.
        private var merged: ImpactReport?
        /// The number of shards of the run, from the first part.
        private var count = 0
        private var seen = Set<Int>()
        /// The parts added so far: the index errors name a part by.
        private var added = 0

        /// A merge of no parts yet.
        public init() {}

        /// Adds one part.
        /// - Throws: ``MergeError`` when it is not a part of the same run as those before it, repeats a shard, played
        ///   other users than its shard holds, or makes it (or the sum) list more deny reasons than ``maxDenyRows`` or more of their text than ``maxDenyText``.
        public mutating func add(_ part: ImpactReport) throws {
            let i = added
            added += 1
            guard let shard = part.shard else { throw MergeError.notPartial(i) }
            guard let first = merged else {
                // The bounds a run writes within hold for a part alone too (a merge of one shard, `--shard 1/1`).
                try Self.checkBounds(part, part: i)
                try Self.checkShardUsers(part, shard, part: i)
                count = shard.count
                seen.insert(shard.index)
                var sum = part
                sum.shard = nil
                merged = sum
                return
            }
            if shard.count != count { throw MergeError.mismatch(i, "number of shards") }
            if part.model != first.model { throw MergeError.mismatch(i, "model") }
            if part.inputs != first.inputs {
                // A part written before the digest existed (or by a library caller that set none) cannot be checked.
                if part.inputs.isEmpty || first.inputs.isEmpty { throw MergeError.noInputsDigest(part.inputs.isEmpty ? i : 0) }
                throw MergeError.mismatch(i, "model file or policy contents (inputs digest)")
            }
            if (part.users, part.days, part.seed, part.start) != (first.users, first.days, first.seed, first.start) {
                throw MergeError.mismatch(i, "population (users, days, seed or start)")
            }
            if part.segments != first.segments { throw MergeError.mismatch(i, "set of segments") }
            if part.changes != first.changes || part.moreChanges != first.moreChanges { throw MergeError.mismatch(i, "pair of policies") }
            if part.results.map(\.policy) != first.results.map(\.policy) || part.results.map(\.placements) != first.results.map(\.placements) {
                throw MergeError.mismatch(i, "policy")
            }
            guard seen.insert(shard.index).inserted else { throw MergeError.duplicateShard(shard.index, part: i) }
            // Each part plays exactly its shard's users, and no shard comes twice: together the parts play no more than the
            // population (so no sum can overflow), and with every shard there, all of it, each user once.
            try Self.checkShardUsers(part, shard, part: i)
            // Added in place: the sum is taken out of `merged` (and `first` let go), so its arrays are not copied.
            _ = consume first
            guard var sum = merged.take() else { return }
            defer { merged = sum }
            for r in sum.results.indices {
                for s in sum.results[r].segments.indices where s < part.results[r].segments.count {
                    sum.results[r].segments[s].add(part.results[r].segments[s])
                }
            }
            try Self.checkBounds(sum, part: i)
        }

        /// Refuses a part that played another number of users than its shard holds: a shard plays users K-1, K-1+N, …,
        /// exactly that many in each policy's result. (A part that gave one of its users to another passed, as long as
        /// the total held.)
        private static func checkShardUsers(_ part: ImpactReport, _ shard: Shard, part i: Int) throws(MergeError) {
            let expected = PlayedUsers(users: part.users, shard: shard).count
            for result in part.results {
                let played = result.segments.reduce(0) { $0 + $1.users }
                if played != expected { throw MergeError.shardUsers(i, shard: shard.index, played: played, expected: expected) }
            }
        }

        /// Refuses a sum (or a first part) whose deny reasons pass ``ImpactReport/maxDenyRows`` or
        /// ``ImpactReport/maxDenyText``, or whose histograms pass ``ImpactReport/maxHistogramEntries`` or
        /// ``ImpactReport/maxHistogramLength``: what no run writes, so no merge of a run's parts holds.
        private static func checkBounds(_ report: ImpactReport, part i: Int) throws(MergeError) {
            let rows = report.denyRowCount
            if rows > maxDenyRows { throw MergeError.tooManyDenyRows(i, rows) }
            let text = report.denyTextBytes
            if text > maxDenyText { throw MergeError.tooMuchDenyText(i, text) }
            let entries = report.histogramEntryCount, longest = report.longestHistogram
            if entries > maxHistogramEntries || longest > maxHistogramLength { throw MergeError.histogramsTooLong(i, entries: entries, longest: longest) }
            let most = report.users * report.days * maxCountPerUserDay
            for result in report.results {
                if let passing = result.countsPassing(most) { throw MergeError.countsTooLarge(i, placement: result.placements[passing.placement].id) }
            }
        }

        /// The whole run's result.
        /// - Throws: ``MergeError`` when no part was added, or a shard is missing.
        public func result() throws -> ImpactReport {
            guard let merged else { throw MergeError.noParts }
            // Only the first few missing shards are named; the count may be large and come from a file.
            if seen.count < count {
                var missing: [Int] = []
                var k = 1
                while missing.count < 10, k <= count {
                    if !seen.contains(k) { missing.append(k) }
                    k += 1
                }
                throw MergeError.missingShards(missing, of: count - seen.count)
            }
            return merged
        }
    }

    /// Why shard reports cannot be merged.
    public enum MergeError: Error, LocalizedError, Equatable, CustomStringConvertible {
        /// No part was given.
        case noParts
        /// The part at this position is a whole run's result, not one shard's.
        case notPartial(Int)
        /// The part at this position was played with another value of what is named (the model, the population…) than
        /// the first part.
        case mismatch(Int, String)
        /// The first missing shards, and how many are missing in all.
        case missingShards([Int], of: Int)
        /// A shard given again, in the part at this position.
        case duplicateShard(Int, part: Int)
        /// A part written by an older adrules, with no `inputs` digest to check.
        case noInputsDigest(Int)
        /// The part at this position, of this shard, played another number of users than the shard holds.
        case shardUsers(Int, shard: Int, played: Int, expected: Int)
        /// With this part the merged deny reasons hold more rows than ``ImpactReport/maxDenyRows``.
        case tooManyDenyRows(Int, Int)
        /// With this part the merged deny reasons' messages and file names hold more bytes than
        /// ``ImpactReport/maxDenyText``.
        case tooMuchDenyText(Int, Int)
        /// With this part the merged histograms hold more entries than ``ImpactReport/maxHistogramEntries``, or one of
        /// them is longer than ``ImpactReport/maxHistogramLength``.
        case histogramsTooLong(Int, entries: Int, longest: Int)
        /// With this part a placement's counts over every segment pass ``ImpactReport/maxCountPerUserDay`` per user-day
        /// of the run: the placement.
        case countsTooLarge(Int, placement: String)

        public var description: String { description(naming: { "part \($0 + 1)" }) }
        public var errorDescription: String? { description }

        /// The description with each part named by `name` (its file, in the CLI).
        package func description(naming name: (Int) -> String) -> String {
            switch self {
            case .noParts: return "no partial results to merge"
            case .notPartial(let i): return "\(name(i)) is a complete result, not the result of one shard (--shard K/N)"
            case .mismatch(let i, let what):
                return "\(name(i)) was played with a different \(what) than \(name(0)): merge the parts of one run only, each played with the same command but its --shard"
            case .missingShards(let missing, let total):
                let listed = missing.map(String.init).joined(separator: ", ")
                let advice = ": give every shard's part (each shard K of N is played with --shard K/N)"
                if total == 1 { return "shard \(listed) is missing" + advice }
                return (total > missing.count ? "\(total) shards are missing: \(listed), ..." : "shards \(listed) are missing") + advice
            case .duplicateShard(let index, let i): return "shard \(index) is given twice (again in \(name(i))): give each shard's part once"
            case .noInputsDigest(let i): return "\(name(i)) has no inputs digest (written by an older adrules): play that shard again"
            case .tooManyDenyRows(let i, let rows): return "with \(name(i)) the deny reasons come to \(rows) rows (reason and YAML line pairs), more than the \(ImpactReport.maxDenyRows) a report holds: that is no run's result"
            case .tooMuchDenyText(let i, let bytes):
                return "with \(name(i)) the deny reasons' messages and file names come to \(bytes) bytes, more than the \(ImpactReport.maxDenyText) a report holds: that is no run's result"
            case .countsTooLarge(let i, let placement):
                return "with \(name(i)) the counts of \(ControlCharacters.cut(placement)) come to more than \(ImpactReport.maxCountPerUserDay) per user-day of the run, more than a report holds: that is no run's result"
            case .histogramsTooLong(let i, let entries, let longest):
                return "with \(name(i)) the histograms come to \(entries) entries, the longest \(longest), more than the \(ImpactReport.maxHistogramEntries) (\(ImpactReport.maxHistogramLength) in one) a report holds: the run of the whole population is refused too (give the placements daily caps, or use fewer segments)"
            case .shardUsers(let i, let shard, let played, let expected):
                return "\(name(i)) played \(played) users, where shard \(shard) of the run holds \(expected): it is not that shard's result"
            }
        }
    }
}
