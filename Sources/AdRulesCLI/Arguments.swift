import AdRules
/// One option a command accepts.
struct OptionSpec: Sendable {
    /// The long name without dashes, e.g. `format`.
    var name: String
    /// A one-letter short name, e.g. `h`.
    var short: Character?
    /// Whether the option takes a value (`--format json`, `--format=json`).
    var takesValue: Bool
    /// The values the option accepts, when it is an enumeration.
    var allowed: [String]?
}

/// A command line that did not fit the command's table.
enum ArgumentError: Error, Equatable, CustomStringConvertible {
    case unexpected(String)
    case missingValue(String)
    /// An option given an empty value (`--output ""`, `--rules "$UNSET"` in a CI script): it was told its value is
    /// missing, which it was not.
    case emptyValue(String)
    case missingArgument(String)
    case invalidValue(option: String, value: String, allowed: [String])
    case repeated(String)
    /// An empty word where a path goes (`adrules lint ""`, an unset variable in a CI script).
    case emptyArgument
    /// An option of the command that this form of it does not take, and why (`impact merge --users 5`).
    case notTaken(option: String, by: String, because: String)
    /// Two paths among the arguments, or directories on their way, that differ only in Unicode normalization.
    case pathsEqualAsText(String, String)

    var description: String {
        // Arguments are echoed escaped: a value with a line break must not forge a line of output.
        let v = ControlCharacters.escaped
        switch self {
        case .unexpected(let argument): return "unexpected argument \"\(v(argument))\""
        case .missingValue(let option): return "missing value for option \"--\(v(option))\""
        case .emptyValue(let option): return "option \"--\(v(option))\" is given an empty value, which names nothing: give a value, or leave the option out"
        case .repeated(let option): return "option \"--\(v(option))\" is given twice: give it once"
        case .missingArgument(let name): return "missing expected argument \"\(v(name))\""
        case .notTaken(let option, let command, let reason): return "\(command) takes no --\(v(option)): \(reason)"
        case .emptyArgument: return "an empty argument names no file: give a path, or leave the argument out"
        case .pathsEqualAsText(let a, let b):
            return "\"\(v(a))\" and \"\(v(b))\" differ only in how their accented letters are encoded (Unicode normalization: \(v(CodePoints.spelled(a))) and \(v(CodePoints.spelled(b)))), which adrules cannot tell apart: rename one"
        case .invalidValue(let option, let value, let allowed):
            // One requirement reads "expected a whole number ..."; a choice "expected one of a, b".
            let expected = allowed.count == 1 ? allowed[0] : "one of \(allowed.joined(separator: ", "))"
            return "invalid value \"\(v(value))\" for option \"--\(v(option))\": expected \(expected)"
        }
    }
}

/// Arguments parsed against a table: positionals in order, option values by long name.
struct ParsedArguments: Sendable {
    var positionals: [String] = []
    /// How many positionals came before `--` (all of them when there is none): a word after it is a path, never a
    /// subcommand (`impact -- merge` reads a model file named `merge`).
    var positionalsBeforeOptionsEnd = Int.max
    var values: [String: String] = [:]
    var flags: Set<String> = []

    /// Whether the word after an option that takes a value is another option (`--output --quiet`) or `--`: the value is
    /// then missing, rather than taken to be `--quiet`. A value that starts with `--` is given as `--output=--name`.
    static func looksLikeOption(_ word: String, _ options: [OptionSpec]) -> Bool {
        // `--` itself ends the options: it is no value either.
        if word.hasPrefix("--") { return true }
        guard word.count == 2, word.hasPrefix("-"), let letter = word.last else { return false }
        return options.contains { $0.short == letter }
    }

    /// Parses arguments in one loop: `--opt value`, `--opt=value`, `-h`, and `--` ending options.
    static func parse(_ arguments: [String], options: [OptionSpec], maxPositionals: Int) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        func spec(long: String) -> OptionSpec? { options.first { $0.name == long } }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                guard parsed.positionals.count < maxPositionals else { throw ArgumentError.unexpected(argument) }
                // Every command's positionals are paths (or `merge`, a word): an empty one names nothing.
                guard !argument.isEmpty else { throw ArgumentError.emptyArgument }
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                parsed.positionalsBeforeOptionsEnd = parsed.positionals.count
                continue
            }
            var name: String
            var inlineValue: String?
            if argument.hasPrefix("--") {
                name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
            } else {
                guard argument.count == 2, let letter = argument.last,
                    let match = options.first(where: { $0.short == letter })
                else { throw ArgumentError.unexpected(argument) }
                name = match.name
            }
            guard let option = spec(long: name) else { throw ArgumentError.unexpected(argument) }
            if option.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < arguments.count, !Self.looksLikeOption(arguments[index], options) {
                    value = arguments[index]
                    index += 1
                } else {
                    throw ArgumentError.missingValue(name)
                }
                // An empty value names nothing (`--output ""`), and a second value would silently drop the first.
                guard !value.isEmpty else { throw ArgumentError.emptyValue(name) }
                guard parsed.values[name] == nil else { throw ArgumentError.repeated(name) }
                if let allowed = option.allowed, !allowed.contains(value) {
                    throw ArgumentError.invalidValue(option: name, value: value, allowed: allowed)
                }
                parsed.values[name] = value
            } else {
                guard inlineValue == nil else { throw ArgumentError.unexpected(argument) }
                parsed.flags.insert(name)
            }
        }
        let paths = parsed.positionals + ["rules", "compare", "root", "output"].compactMap { parsed.values[$0] }
        if let (a, b) = Self.pathsEqualAsText(paths) { throw ArgumentError.pathsEqualAsText(a, b) }
        return parsed
    }

    /// The first two paths, or directories on their way, that are one text to Swift (canonical equivalence: `é` as one
    /// character or as `e` and a combining mark) but two names to the file system; nil when there are none. Every table
    /// a run keys by path would take one for the other (one policy's scenarios run against the other's).
    static func pathsEqualAsText(_ paths: [String]) -> (String, String)? {
        // The paths' directories as a tree, each name keyed by the directory it is in: every name is hashed and compared
        // once. (Keyed by the whole text up to each `/`, an argument of 64,000 slashes, within the 128 KiB the system
        // passes, made 64,000 texts of 32,000 bytes on average: 2 GB and 5.9 s, and 128,000 crashed at 4 GB.)
        // A `/` never composes with a mark, nor reorders with one, so two paths are one text exactly when their names
        // are, one by one.
        struct Step: Hashable {
            var parent: Int
            var name: Substring
        }
        // For each directory (or path) met, its number and the first path that reached it (where its name ends in it).
        var seen: [Step: (node: Int, path: Int, end: String.Index)] = [:]
        for (p, path) in paths.enumerated() {
            var parent = 0
            var start = path.startIndex
            while true {
                let end = path[start...].firstIndex(of: "/") ?? path.endIndex
                let step = Step(parent: parent, name: path[start..<end])
                if let index = seen.index(forKey: step) {
                    let (first, value) = seen[index]
                    // Every name before this one is byte for byte the first path's: only this one can differ.
                    if !first.name.utf8.elementsEqual(step.name.utf8) {
                        return (String(paths[value.path][..<value.end]), String(path[..<end]))
                    }
                    parent = value.node
                } else {
                    parent = seen.count + 1
                    seen[step] = (parent, p, end)
                }
                guard end < path.endIndex else { break }
                start = path.index(after: end)
            }
        }
        return nil
    }
}
