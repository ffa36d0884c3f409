import AdRulesCLI
import Foundation

// A file-size limit makes a write fail (EFBIG, an error the command reports and cleans up after) rather than kill
// the process with a half-written temporary file left behind.
signal(SIGXFSZ, SIG_IGN)
let result = AdRulesCommandLine.run(Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(Data(result.stdout.utf8))
FileHandle.standardError.write(Data(result.stderr.utf8))
exit(result.exitCode)
