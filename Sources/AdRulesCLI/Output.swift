import AdRules
import AdRulesCompiler
import Foundation

/// Writes a report to standard output or to the `--output` file.
enum Output {
    /// Removes an earlier run's document at `output` when this run has none: a CI step that uploads it whatever the
    /// exit code would publish it as this run's result. Only a report `isReport` knows as one adrules wrote is removed:
    /// `-` is standard output, a file standard output or error goes to is the run's own stream, and any other file is
    /// the user's, left as it is.
    ///
    /// A report reached through a symlink, or one that cannot be unlinked (a bind mount, a file in a directory the run
    /// may not write), is emptied instead: its file is the one a write would replace, and the one a CI step reads.
    /// The file is opened once, through its symlinks: the file whose first 4 KB `isReport` reads is the one removed or
    /// emptied, whatever the links point at meanwhile.
    /// - Parameter isReport: whether a file's first 4 KB, as text, are a report adrules wrote.
    /// - Returns: the note saying so, or nothing.
    static func removedEarlierReport(_ output: String?, isReport: (String) -> Bool) -> String {
        guard let output, output != "-", OutputFile.stream(output) == nil else { return "" }
        // Read and write when it may (to empty it), else read only (a read-only file in a directory the run writes is
        // removed all the same).
        var descriptor = open(output, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        if descriptor < 0 { descriptor = open(output, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else { return "" }
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var opened = stat()
        guard fstat(descriptor, &opened) == 0, (opened.st_mode & S_IFMT) == S_IFREG,
            isReport(String(decoding: (try? file.read(upToCount: 4096)) ?? Data(), as: UTF8.self))
        else { return "" }
        let shown = ControlCharacters.escaped(output)
        // The name is the file itself (no symlink), and still the file read: it is removed.
        var named = stat()
        if lstat(output, &named) == 0, (named.st_mode & S_IFMT) == S_IFREG, named.st_dev == opened.st_dev, named.st_ino == opened.st_ino,
            unlink(output) == 0
        {
            return "note: removed the earlier report at \(shown): this run has none, and the old one would read as this run's\n"
        }
        if ftruncate(descriptor, 0) == 0 {
            return "note: emptied the earlier report at \(shown): this run has none, and the old one would read as this run's\n"
        }
        let reason = String(cString: strerror(errno))
        return "warning: the earlier report at \(shown) is not this run's, and could not be removed or emptied (\(reason)): do not read it as this run's\n"
    }

    /// A refusal when `output` would overwrite a file this run reads: one of `inputs`, or a rule, scenario or model
    /// file inside an input directory. Checked before any work, so the input is still there to fix the command.
    /// - Parameter reads: the files of an input directory the run reads (lint and compile read rule files only): a
    ///   file it does not read can neither be overwritten through it nor stop it.
    ///
    /// With no `--output` (or `-`), standard output redirected into such a file (`adrules compile rules >> rules/a.yaml`)
    /// is refused the same way: the report would corrupt the very file the run reads. Standard error redirected into
    /// one is refused before the arguments are read (``standardErrorRefusal(arguments:)``).
    static func refusal(output: String?, inputs: [String], reads: (String) -> Bool = PolicyLoader.isYAMLFile) -> CommandResult? {
        guard let output, output != "-" else { return standardOutputRefusal(inputs: inputs, reads: reads) }
        /// Where a write to `path` lands: through its symlinks (a dangling one included) into its real directory.
        func resolved(_ path: String) -> String {
            var path = path
            for _ in 0..<40 {
                guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else { break }
                let parent = PathText.parent(path)
                path = destination.hasPrefix("/") || parent.isEmpty ? destination : parent + "/" + destination
            }
            // The system resolves symlinks before any `..`, as the kernel does.
            if let real = PolicyLoader.realPath(path) { return real }
            let parent = PathText.parent(path)
            return (PolicyLoader.realPath(parent.isEmpty ? "." : parent) ?? parent) + "/" + (path as NSString).lastPathComponent
        }
        /// The file's identity (device and inode): the same file under another name or through a hard link.
        func identity(_ path: String) -> (UInt64, UInt64)? {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return (UInt64(info.st_dev), UInt64(info.st_ino))
        }
        let target = resolved(output)
        let targetIdentity = identity(output)
        if let refused = OutputFile.unreadOutputRefusal(output) {
            return CommandResult(stderr: "error: --output \(ControlCharacters.escaped(output)) \(refused): write the report elsewhere\n", exitCode: ExitCode.usage)
        }
        // What loading a directory reads: rule, scenario and model files.
        let isYAML = PolicyLoader.isYAMLFile(target)
        // An input given twice (`lint d d`, or `d` and `./d`) is walked once: a walk costs its directory's entries.
        var walked: Set<String> = []
        for input in inputs {
            let source = resolved(input)
            guard walked.insert(source).inserted else { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) else { continue }
            var overwritesInput = false
            if let targetIdentity {
                // The input itself, or (for a directory) any file the loader's own walk reads in it, under any name.
                // A walk that fails (too many entries, an entry that cannot be opened) would fail the run too: it
                // stops here with that cause (an I/O failure), and the output is left as it was. The walk is the
                // loader's own, of the input as given, so that its error names the path as the command line spells it.
                let candidates: [String]
                do {
                    candidates = try PolicyLoader.files(at: input, where: reads)
                } catch {
                    return CommandResult(stderr: "error: \(ControlCharacters.escaped("\(error)"))\n", exitCode: ExitCode.failure)
                }
                overwritesInput = ([source] + candidates).contains { path in identity(path).map { $0 == targetIdentity } ?? false }
            }
            // A new rule or scenario file in an input directory would be read by the next run, and fail it.
            let addsToInputDirectory = isDirectory.boolValue && isYAML && target.hasPrefix(source.hasSuffix("/") ? source : source + "/")
            guard overwritesInput || addsToInputDirectory else { continue }
            let what = overwritesInput
                ? "would overwrite a file this run reads (\(ControlCharacters.escaped(input)))"
                : targetIdentity != nil
                    ? "would overwrite a YAML file in \(ControlCharacters.escaped(input)), which later runs read"
                    : "would put a YAML file into \(ControlCharacters.escaped(input)), which the next run would read"
            return CommandResult(stderr: "error: --output \(ControlCharacters.escaped(output)) \(what): write the report elsewhere\n", exitCode: ExitCode.usage)
        }
        // No report is YAML, and a YAML file is what the next run may read (or a rule file beside an input named
        // alone, which a report would overwrite): by its name or through a link. Standard output or error named as a
        // file is that stream, wherever the shell sent it.
        if PolicyLoader.isYAMLFile(output) || isYAML, OutputFile.stream(output) == nil {
            return CommandResult(
                stderr: "error: --output \(ControlCharacters.escaped(output)) would write a YAML file, and no report is one (a rule, scenario or model file there would be overwritten, or read by the next run): name it with the report's own extension, such as .txt, .json, .sarif, .html or .swift\n",
                exitCode: ExitCode.usage)
        }
        return nil
    }

    /// A report that could not be written (`--output` in a missing directory, a directory, a file the user may not
    /// write), said before the run rather than after it: linting a large policy or running a long scenario file took
    /// seconds first. Nil for standard output, and for a path the report can be written to.
    static func unwritableRefusal(_ output: String?) -> CommandResult? {
        guard let output, let problem = OutputFile.unwritable(output) else { return nil }
        return CommandResult(stderr: "error: cannot write \(ControlCharacters.escaped(output)): \(problem)\n", exitCode: ExitCode.failure)
    }

    /// Standard output redirected into a file the run reads (`adrules compile rules >> rules/a.yaml`): the report would
    /// corrupt it. Told by the file's identity (device and inode), which standard output's descriptor has whatever the
    /// system calls it. A terminal, a pipe or a closed stream is left alone at once; an input that cannot be walked is
    /// left to the run, which reports it as it would with standard output anywhere else. (With `>`, the shell has
    /// emptied the file before the run starts: the refusal keeps the report out of it, not its contents in it.)
    private static func standardOutputRefusal(inputs: [String], reads: (String) -> Bool) -> CommandResult? {
        guard let input = input(receiving: 1, inputs: inputs, reads: reads) else { return nil }
        return CommandResult(
            stderr: "error: standard output goes to a file this run reads (\(ControlCharacters.escaped(input))): redirect it elsewhere\n",
            exitCode: ExitCode.usage)
    }

    /// A refusal when standard error goes to a file a run with these arguments may read (`adrules lint rules 2>>
    /// rules/a.yaml`): its findings, summary, errors or usage would be written into the input. Checked before the
    /// arguments are parsed, so that a usage error is not written there either: the files and directories the
    /// arguments name (but `--output`'s), and the default policy directory `rules`, whose rule, scenario and model files
    /// count.
    static func standardErrorRefusal(arguments: [String]) -> CommandResult? {
        var paths = ["rules"]
        var skipsOutput = false
        for argument in arguments {
            if skipsOutput {
                skipsOutput = false
            } else if argument == "-o" || argument == "--output" {
                skipsOutput = true
            } else if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                if !argument.hasPrefix("--output=") { paths.append(String(argument[argument.index(after: equals)...])) }
            } else if !argument.hasPrefix("-") {
                paths.append(argument)
            }
        }
        return standardErrorRefusal(inputs: paths, reads: PolicyLoader.isYAMLFile)
    }

    /// The refusal when standard error goes to one of `inputs`' files, printed on standard output, or nowhere when that
    /// goes to such a file too.
    private static func standardErrorRefusal(inputs: [String], reads: (String) -> Bool) -> CommandResult? {
        guard let input = input(receiving: 2, inputs: inputs, reads: reads) else { return nil }
        let message = "error: standard error goes to a file this run reads (\(ControlCharacters.escaped(input))): redirect it elsewhere\n"
        return CommandResult(stdout: self.input(receiving: 1, inputs: inputs, reads: reads) == nil ? message : "", exitCode: ExitCode.usage)
    }

    /// The input (as given) whose file, or one of whose files the run reads, the stream `descriptor` writes to.
    private static func input(receiving descriptor: Int32, inputs: [String], reads: (String) -> Bool) -> String? {
        var stream = stat()
        guard !StandardStreams.closedAtStart.contains(descriptor), fstat(descriptor, &stream) == 0, (stream.st_mode & S_IFMT) == S_IFREG else { return nil }
        for input in inputs {
            guard let files = try? PolicyLoader.files(at: input, where: reads) else { continue }
            let receives = ([input] + files).contains { path in
                var info = stat()
                return stat(path, &info) == 0 && info.st_dev == stream.st_dev && info.st_ino == stream.st_ino
            }
            if receives { return input }
        }
        return nil
    }

    static func deliver(_ text: String, to path: String?, stderr: String = "", exitCode: Int32 = ExitCode.success) -> CommandResult {
        // `-` is standard output, as for most tools that take an output path.
        guard let path, path != "-" else { return CommandResult(stdout: text, stderr: stderr, exitCode: exitCode) }
        // A run that could not read its input has no report: the file named is left as it was.
        guard exitCode != ExitCode.failure else { return CommandResult(stderr: stderr, exitCode: exitCode) }
        // Standard output or error named as a file (`/dev/stdout`, `/dev/fd/2`, or the file either is redirected to)
        // is that stream: the report goes where the rest of the run's output goes, after what is already there.
        switch OutputFile.stream(path) {
        case 1?: return CommandResult(stdout: text, stderr: stderr, exitCode: exitCode)
        case 2?:
            var result = CommandResult(stderr: stderr + text, exitCode: exitCode)
            result.reportOnStderr = true
            return result
        default: break
        }
        guard let problem = OutputFile.write(Data(text.utf8), to: path) else { return CommandResult(stderr: stderr, exitCode: exitCode) }
        return CommandResult(stderr: stderr + "error: cannot write \(ControlCharacters.escaped(path)): \(problem)\n", exitCode: ExitCode.failure)
    }
}
