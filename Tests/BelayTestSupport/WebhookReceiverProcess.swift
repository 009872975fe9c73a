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

    private let script: ScriptProcess
    public var port: Int { script.port }
    /// Where the test writes the endpoint's secret once it has registered the endpoint.
    public let secretFile: String

    /// Starts the receiver with `arguments` (`--fail-first 2`, `--hold-first TYPE`, …).
    /// - Throws: when Python or the reference library cannot be set up, or it does not listen.
    public init(arguments: [String] = [], in directory: TemporaryDirectory) throws {
        secretFile = directory.file("webhook-secret")
        try "".write(toFile: secretFile, atomically: true, encoding: .utf8)
        script = try ScriptProcess(script: "webhook-receiver.py", arguments: ["--secret-file", secretFile] + arguments)
    }

    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String = "/hooks") -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Writes the secret the receiver verifies with.
    public func useSecret(_ secret: String) throws {
        try secret.write(toFile: secretFile, atomically: true, encoding: .utf8)
    }

    /// Every request so far, in the order they came.
    public var requests: [Request] { script.lines.compactMap(Self.parse) }

    /// Waits until the requests so far satisfy `predicate`; false when `timeout` passed first.
    public func wait(timeout: TimeInterval = 60, until predicate: ([Request]) -> Bool) -> Bool {
        script.wait(timeout: timeout) { lines in predicate(lines.compactMap(Self.parse)) }
    }

    /// Waits for an output line `predicate` accepts (e.g. `holding ID`).
    public func waitForLine(timeout: TimeInterval = 60, where predicate: (String) -> Bool) -> String? {
        script.waitForLine(timeout: timeout, where: predicate)
    }

    private static func parse(_ line: String) -> Request? {
        guard line.hasPrefix("{"), let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        return Request(id: object["id"] as? String ?? "", type: object["type"] as? String, attempt: object["attempt"] as? Int ?? 0,
                       verified: object["verified"] as? Bool ?? false, error: object["error"] as? String,
                       answer: object["answer"] as? Int ?? 0, signature: object["signature"] as? String,
                       body: object["body"] as? String ?? "", peerPort: object["peer_port"] as? Int ?? 0)
    }
}
