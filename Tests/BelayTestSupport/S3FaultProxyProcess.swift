import Foundation

/// A fault proxy in front of an S3 server (`scripts/testing/s3-fault-proxy.py`): forwards
/// requests as they are, or fails the next ones as planned (503 SlowDown, 500, 403, resets,
/// stalls).
public final class S3FaultProxyProcess: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// How the planned requests fail.
    public enum Fault: String, Sendable {
        case slowdown, error500, denied, reset, stall
        /// Each request at random: SlowDown, a reset, a stall or forwarded (the proxy's weights).
        case mixed
    }

    private let script: ScriptProcess
    public var port: Int { script.port }
    public var endpoint: String { "http://127.0.0.1:\(port)" }

    /// - Throws: when the proxy does not start.
    public init(upstreamPort: Int) throws {
        script = try ScriptProcess(script: "s3-fault-proxy.py", arguments: ["--upstream", String(upstreamPort)])
    }

    /// The next `count` requests fail as `fault` (every one while `count` is -1).
    /// - Parameter stallSeconds: how long a stalled request hangs before its reset.
    public func plan(_ fault: Fault, count: Int, stallSeconds: Double = 5) throws {
        try post(["mode": fault.rawValue, "count": count, "stall_seconds": stallSeconds])
    }

    /// The distinct bodies (SHA-256, hex) of the uploads the store took at each path.
    public func uploads() throws -> [String: [String]] {
        let answer = try HTTPTestClient.request(port: port, "GET", "/__faults/stats")
        guard let object = answer.jsonObject, let uploads = object["uploads"] as? [String: [String]] else {
            throw Failure(description: "no uploads: \(answer.text)")
        }
        return uploads
    }

    /// Every request is forwarded again.
    public func clear() throws { try post(["mode": NSNull(), "count": 0]) }

    /// Requests forwarded and faults injected so far.
    public func stats() throws -> (forwarded: Int, injected: Int) {
        let answer = try HTTPTestClient.request(port: port, "GET", "/__faults/stats")
        guard let object = answer.jsonObject, let forwarded = object["forwarded"] as? Int, let injected = object["injected"] as? Int else {
            throw Failure(description: "no stats: \(answer.text)")
        }
        return (forwarded, injected)
    }

    private func post(_ object: [String: Any]) throws {
        let body = try JSONSerialization.data(withJSONObject: object)
        let answer = try HTTPTestClient.request(port: port, "POST", "/__faults/plan", headers: [("Content-Type", "application/json")], body: Array(body))
        guard answer.status == 200 else { throw Failure(description: "plan answered \(answer.status)") }
    }
}
