import AdRules
import AdRulesCompiler
import AdRulesImpact
import AdRulesYAML
import Foundation

extension ImpactCommand {
    /// `impact merge PART.json…`: the shards' partial results combined into the whole run's result.
    static func merge(_ paths: [String], _ parsed: ParsedArguments) -> CommandResult {
        guard !paths.isEmpty else { return AdRulesCommandLine.usageError(.missingArgument("PART.json"), command: "impact") }
        if let refusal = Output.refusal(output: parsed.values["output"], inputs: paths) { return refusal }
        if let refusal = Output.unwritableRefusal(parsed.values["output"]) { return refusal }
        for option in ["rules", "compare", "users", "days", "seed", "shard", "threads"] where parsed.values[option] != nil {
            return AdRulesCommandLine.usageError(
                .notTaken(option: option, by: "impact merge", because: "each part holds the policies and options it was played with"), command: "impact")
        }
        // Each part is added as it is read: the merge holds the sum so far and one part, however many shards ran.
        var merge = ImpactReport.Merge()
        var mismatch: ImpactReport.MergeError?
        func mergeError(_ error: ImpactReport.MergeError) -> CommandResult {
            // Parts are named by their files, in the order given.
            let text = error.description(naming: { $0 < paths.count ? paths[$0] : "part \($0 + 1)" })
            return CommandResult(stderr: "error: cannot merge: \(ControlCharacters.escaped(text))\n", exitCode: ExitCode.findings)
        }
        // A directory where a part belongs is a mistake in the command, as for the model: exit 2, before any part is read.
        for path in paths {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                return CommandResult(
                    stderr: "error: \(ControlCharacters.escaped(path)) is a directory: impact merge takes the parts' json files, such as parts/*.json\n",
                    exitCode: ExitCode.usage)
            }
        }
        for path in paths {
            // The part's bytes are all the merge keeps of it while it parses it: no text or copy of them beside the tree
            // read from them (a 160 MiB part was held twice while it was parsed). The UTF-8 check's text is dropped
            // before the parse.
            let bytes: [UInt8]
            do {
                bytes = try PolicyLoader.readBytes(path, limit: maxPartBytes)
                // A part is json this tool wrote, for at most `ModelCheck.maxReportBlocks` blocks of figures: never
                // larger than `maxPartBytes`.
                guard bytes.count <= maxPartBytes else {
                    return CommandResult(stderr: "error: \(ControlCharacters.escaped(path)): larger than \(maxPartBytes >> 20) MiB, so not a part adrules wrote\n", exitCode: ExitCode.findings)
                }
                // adrules writes parts as UTF-8 with no byte-order mark: anything else was made or changed elsewhere.
                if ByteOrderMark.starts(bytes) {
                    return CommandResult(
                        stderr: "error: \(ControlCharacters.escaped(path)): starts with a byte-order mark (UTF-16 or UTF-32, or UTF-8 with a BOM), so not a part adrules wrote: save it as UTF-8 without a BOM\n",
                        exitCode: ExitCode.findings)
                }
                guard String(validating: bytes, as: UTF8.self) != nil else {
                    return CommandResult(stderr: "error: \(ControlCharacters.escaped(path)): not UTF-8 text, so not a part adrules wrote\n", exitCode: ExitCode.findings)
                }
            } catch { return failure("\(error)") }
            do {
                let part = try ImpactJSON.read(bytes)
                // A part that does not fit is reported once every part has been read: a part that cannot be read
                // or is not json comes first, as it would if the parts were all read before the merge.
                if mismatch == nil {
                    do { try merge.add(part) } catch let error as ImpactReport.MergeError { mismatch = error }
                }
            } catch let error as JSONValue.ParseError {
                // A part spans many lines: the syntax error is placed as an editor shows it.
                let at = UTF8Check.position(ofByte: error.offset, in: bytes)
                // A usage model or a rule file given by mistake is named as YAML, not only as JSON that does not parse.
                let name = path.lowercased()
                let yaml = name.hasSuffix(".yaml") || name.hasSuffix(".yml") ? " (a YAML file, as its name says: a usage model, a scenario file or a rule file is no part)" : ""
                return CommandResult(
                    stderr: "error: \(ControlCharacters.escaped(path)):\(at.line):\(at.column): invalid JSON\(yaml): \(error.problem); a part is the json that adrules impact --shard K/N writes, unchanged\n",
                    exitCode: ExitCode.findings)
            } catch let error as ImpactJSON.ReadError {
                // Placed at the value (or key) it is about, as a syntax error is.
                let place = error.offset(in: bytes).map { offset in
                    let at = UTF8Check.position(ofByte: offset, in: bytes)
                    return ":\(at.line):\(at.column)"
                }
                return CommandResult(
                    stderr: "error: \(ControlCharacters.escaped(path))\(place ?? ""): \(error.problem); a part is the json that adrules impact --shard K/N writes, unchanged\n",
                    exitCode: ExitCode.findings)
            } catch {
                return CommandResult(stderr: "error: \(ControlCharacters.escaped(path)): \(error)\n", exitCode: ExitCode.findings)
            }
        }
        if let mismatch { return mergeError(mismatch) }
        do {
            let merged = try merge.result()
            return Output.deliver(render(merged, format: parsed.values["format"] ?? "json"), to: parsed.values["output"])
        } catch let error as ImpactReport.MergeError {
            return mergeError(error)
        } catch {
            return CommandResult(stderr: "error: cannot merge: \(error)\n", exitCode: ExitCode.findings)
        }
    }

    /// The largest part `impact merge` reads. A run within the report's bounds writes about 67 MB at most with 100,000
    /// deny-reason rows of short messages (each row written twice, in its segment and in its placement's total, with
    /// its indentation), and more with escaped texts and long histograms; merging two such 67 MB parts took 3.3 s and
    /// 294 MB (`/usr/bin/time`, release build). At 64 MiB the merge refused the parts of a run within its bounds.
    static let maxPartBytes = 160 << 20
}
