import Foundation

/// `belay serve` running as a child process on a free loopback port, for end-to-end tests:
/// starts it with `--port 0`, reads the real port from the `listening on http://HOST:PORT` line
/// it prints on standard output, and stops it with a signal, collecting its exit status.
public final class BelayServerProcess: @unchecked Sendable {
    private let child: BelayChildProcess
    /// The port the server listens on.
    public let port: Int
    /// The child's process id.
    public var pid: Int32 { child.pid }

    /// Starts `belay serve --port 0` with `arguments` after it (e.g. `--config FILE`) in
    /// `directory` and waits until it listens.
    /// - Parameter timeout: the child is killed after this many seconds, so a hung test fails.
    /// - Throws: when the binary cannot be started, or it exits or stays silent for
    ///   `startTimeout` seconds without printing the listening line (the error has its output).
    public init(arguments: [String] = [], environment: [String: String] = [:], in directory: String,
                startTimeout: TimeInterval = 60, timeout: TimeInterval = 600) throws {
        child = try BelayChildProcess(["serve", "--port", "0"] + arguments, environment: environment, in: directory,
                                      timeout: timeout)
        guard let line = child.waitForOutputLine(timeout: startTimeout, where: { $0.hasPrefix("listening on http://") }),
              let portText = line.split(separator: ":").last, let port = Int(portText) else {
            child.send(SIGKILL)
            let result = child.wait()
            throw ServerDidNotStart(description: "belay serve did not print its listening line:\n\(result)")
        }
        self.port = port
    }

    /// Why the server did not come up, with everything it printed.
    public struct ServerDidNotStart: Error, CustomStringConvertible {
        public let description: String
    }

    /// Every line printed on standard output so far.
    public var standardOutput: [String] { child.standardOutput }

    /// Every line printed on standard error so far.
    public var standardError: [String] { child.standardError }

    /// Waits for a standard-output line `predicate` accepts; nil when the child ended or
    /// `timeout` passed first.
    public func waitForOutputLine(timeout: TimeInterval = 60, where predicate: (String) -> Bool) -> String? {
        child.waitForOutputLine(timeout: timeout, where: predicate)
    }

    /// Waits for a standard-error line `predicate` accepts; nil when the child ended or
    /// `timeout` passed first.
    public func waitForErrorLine(timeout: TimeInterval = 60, where predicate: (String) -> Bool) -> String? {
        child.waitForErrorLine(timeout: timeout, where: predicate)
    }

    /// Sends `signal` (SIGTERM, SIGINT, SIGKILL…).
    public func send(_ signal: Int32) {
        child.send(signal)
    }

    /// Waits for the child to end and returns what it printed, with its status (128 + the
    /// signal number when a signal ended it).
    public func wait() -> BelayProcessResult {
        child.wait()
    }

    /// SIGTERM, then the exit status and output.
    public func terminate() -> BelayProcessResult {
        send(SIGTERM)
        return wait()
    }
}
