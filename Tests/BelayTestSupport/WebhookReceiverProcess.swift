import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A webhook receiver on a free loopback port (`scripts/testing/webhook-receiver.py`, run
/// with the Standard Webhooks reference library through `scripts/test-python`). It verifies
/// every request against the secret in `secretFile`, answers as told (fail the first
/// attempts, hold one message, delay), and reports each request as it comes, so a test
/// waits for what it expects instead of sleeping.
public final class WebhookReceiverProcess: @unchecked Sendable {
    /// One request the receiver got.
    public struct Request: Sendable {
        public let id: String
        public let type: String?
        /// 1 for the first request with this id.
        public let attempt: Int
        /// Whether the reference library accepted the signature.
        public let verified: Bool
        public let error: String?
        public let answer: Int
        public let signature: String?
        public let body: String
        /// The sender's TCP port: the same for requests on one kept-open connection.
        public let peerPort: Int
    }

    private let process = Process()
    private let condition = NSCondition()
    private var lines: [String] = []
    private var ended = false
    public private(set) var port = 0
    /// Where the test writes the endpoint's secret once it has registered the endpoint.
    public let secretFile: String

    /// Starts the receiver with `arguments` (`--fail-first 2`, `--hold-first TYPE`, …).
    /// - Throws: when Python or the reference library cannot be set up, or it does not listen.
    public init(arguments: [String] = [], in directory: TemporaryDirectory) throws {
        secretFile = directory.file("webhook-secret")
        try "".write(toFile: secretFile, atomically: true, encoding: .utf8)
        let root = BelayProcess.packageRoot
        process.executableURL = root.appendingPathComponent("scripts/test-python")
        process.arguments = [root.appendingPathComponent("scripts/testing/webhook-receiver.py").path, "--secret-file", secretFile] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        ChildProcessRegistry.started(process.processIdentifier)
        let handle = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                var complete: [String] = []
                while let newline = pending.firstIndex(of: 0x0A) {
                    complete.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
                condition.lock()
                lines += complete
                condition.broadcast()
                condition.unlock()
            }
            condition.lock()
            ended = true
            condition.broadcast()
            condition.unlock()
        }
        guard let line = waitForLine(timeout: 300, where: { $0.hasPrefix("listening ") }),
              let port = Int(line.dropFirst("listening ".count)) else {
            process.terminate()
            let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "the webhook receiver did not start:\n\(problem)"])
        }
        self.port = port
    }

    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String = "/hooks") -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Writes the secret the receiver verifies with.
    public func useSecret(_ secret: String) throws {
        try secret.write(toFile: secretFile, atomically: true, encoding: .utf8)
    }

    /// Every request so far, in the order they came.
    public var requests: [Request] {
        condition.lock()
        defer { condition.unlock() }
        return lines.compactMap(Self.parse)
    }

    /// Waits until the requests so far satisfy `predicate`; false when `timeout` passed first.
    public func wait(timeout: TimeInterval = 60, until predicate: ([Request]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if predicate(lines.compactMap(Self.parse)) { return true }
            if ended || !condition.wait(until: deadline) { return predicate(lines.compactMap(Self.parse)) }
        }
    }

    /// Waits for an output line `predicate` accepts (e.g. `holding ID`).
    public func waitForLine(timeout: TimeInterval = 60, where predicate: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = lines.first(where: predicate) { return line }
            if ended || !condition.wait(until: deadline) { return lines.first(where: predicate) }
        }
    }

    private static func parse(_ line: String) -> Request? {
        guard line.hasPrefix("{"), let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        return Request(id: object["id"] as? String ?? "", type: object["type"] as? String, attempt: object["attempt"] as? Int ?? 0,
                       verified: object["verified"] as? Bool ?? false, error: object["error"] as? String,
                       answer: object["answer"] as? Int ?? 0, signature: object["signature"] as? String,
                       body: object["body"] as? String ?? "", peerPort: object["peer_port"] as? Int ?? 0)
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        ChildProcessRegistry.ended(process.processIdentifier)
    }
}
