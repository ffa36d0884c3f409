enum BenchError: Error, CustomStringConvertible {
    case missing(String)
    var description: String {
        switch self { case .missing(let text): return text }
    }
}
