import BelayArguments
import Synchronization

/// Runs `arguments` against the command tree under `root` in-process and returns the exit
/// status and everything written to standard output and standard error.
func runCommandLine(root: any ParsableCommand.Type, version: String, _ arguments: [String]) -> (status: Int32, output: String, errors: String) {
    let output = Mutex(""), errors = Mutex("")
    let status = CommandRunner(root: root, version: version).run(
        arguments: arguments, environment: [:], currentDirectory: "/",
        output: TextSink { text in output.withLock { $0 += text } },
        errorOutput: TextSink { text in errors.withLock { $0 += text } })
    return (status, output.withLock { $0 }, errors.withLock { $0 })
}
