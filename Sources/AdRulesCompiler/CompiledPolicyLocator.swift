import AdRules

/// Finds where in a compiled policy's text the value an error names (`placements[2].daily_cap`) is written, so
/// that lint places the error there rather than at the top of the file.
enum CompiledPolicyLocator {
    /// One step of an error's path: a key of an object, or a position in an array.
    enum Step: Equatable {
        case key(String)
        case index(Int)
    }

    /// The steps of a path such as `placements[2].caps[0].window`; nil for a path this cannot split.
    static func steps(of path: String) -> [Step]? {
        var steps: [Step] = []
        var rest = Substring(path)
        while !rest.isEmpty {
            if rest.first == "[" {
                guard let close = rest.firstIndex(of: "]"), let index = Int(rest[rest.index(after: rest.startIndex)..<close]) else { return nil }
                steps.append(.index(index))
                rest = rest[rest.index(after: close)...]
            } else {
                if rest.first == "." { rest = rest.dropFirst() }
                let end = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
                guard end > rest.startIndex else { return nil }
                steps.append(.key(String(rest[..<end])))
                rest = rest[end...]
            }
        }
        return steps
    }

    /// The byte offset of the value at `path`, or of the deepest part of it that is there; nil when even the first
    /// step is not found (or the text is not JSON on the way to it).
    /// - Parameter start: where the value the path is within starts (the top of the document by default).
    static func offset(of path: String, in bytes: [UInt8], from start: Int = 0) -> Int? {
        guard let steps = steps(of: path), !steps.isEmpty else { return nil }
        var reader = JSONReader(bytes, maxDepth: Policy.maxCompiledDepth, at: start)
        var found: Int?
        var k = 0
        do {
            while k < steps.count {
                guard let taken = try walk(to: steps[k...], &reader) else { return found }
                k += taken
                reader.skipSpace()
                found = reader.index
            }
        } catch {
            return found
        }
        return found
    }

    /// Moves the reader onto the value the first steps of the path name; the number of steps taken (a setting's
    /// key holds a dot, `resume.max_delay`, and takes two), or nil when the value is not there.
    private static func walk(to steps: ArraySlice<Step>, _ reader: inout JSONReader) throws(JSONValue.ParseError) -> Int? {
        guard let step = steps.first else { return nil }
        switch (step, try reader.peek()) {
        case (.key, .object):
            // The keys the steps spell, joined by dots: `resume`, `resume.max_delay`, ...
            var spelled: [String] = []
            for next in steps {
                guard case .key(let key) = next else { break }
                spelled.append(spelled.last.map { $0 + "." + key } ?? key)
            }
            try reader.beginObject()
            // Of a key written twice the last counts (as the loader reads it), so the whole object is read: the
            // value found last, of the longest key spelled, is the one the error is about.
            var best: (reader: JSONReader, taken: Int)?
            while let name = try reader.nextKey() {
                if let taken = spelled.firstIndex(of: name), taken + 1 >= (best?.taken ?? 0) { best = (reader, taken + 1) }
                try reader.skipValue()
            }
            guard let best else { return nil }
            reader = best.reader
            return best.taken
        case (.index(let index), .array):
            try reader.beginArray()
            var position = 0
            while try reader.nextElement() {
                if position == index { return 1 }
                try reader.skipValue()
                position += 1
            }
            return nil
        default:
            return nil
        }
    }
}
