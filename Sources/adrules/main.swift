import AdRulesCLI
import Foundation

// A file-size limit makes a write fail (EFBIG, an error the command reports and cleans up after) rather than kill
// the process with a half-written temporary file left behind; a reader that goes away (`adrules … | head`) makes a
// write fail with EPIPE rather than kill the process with SIGPIPE.
signal(SIGXFSZ, SIG_IGN)
signal(SIGPIPE, SIG_IGN)
let result = AdRulesCommandLine.run(Array(CommandLine.arguments.dropFirst()))
var exitCode = result.exitCode
do {
    try FileHandle.standardOutput.write(contentsOf: Data(result.stdout.utf8))
} catch {
    // A full disk, a file-size limit, a closed or broken standard output: the report is lost, which is an I/O
    // failure (exit 3), said on standard error when it can still be written.
    try? FileHandle.standardError.write(contentsOf: Data("error: cannot write standard output: \(AdRulesCommandLine.describe(error))\n".utf8))
    exitCode = 3
}
do {
    try FileHandle.standardError.write(contentsOf: Data(result.stderr.utf8))
} catch {
    // Findings and the summary went to standard output or a file; what is lost is only what stderr would have said.
    if exitCode == 0 { exitCode = 3 }
}
exit(exitCode)
