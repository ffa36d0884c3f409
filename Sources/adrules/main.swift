import AdRulesCLI
import Foundation

// A file-size limit makes a write fail (EFBIG, an error the command reports and cleans up after) rather than kill
// the process with a half-written temporary file left behind; a reader that goes away (`adrules … | head`) makes a
// write fail with EPIPE rather than kill the process with SIGPIPE.
// A standard descriptor closed by the caller (`>&-`) is held on /dev/null before any file is opened, so that no file
// takes its number and receives the report; writing the report then says the stream is closed.
_ = StandardStreams.closedAtStart
signal(SIGXFSZ, SIG_IGN)
signal(SIGPIPE, SIG_IGN)
exit(StandardStreams.deliver(AdRulesCommandLine.run(Array(CommandLine.arguments.dropFirst()))))
