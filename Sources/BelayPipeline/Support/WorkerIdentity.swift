import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Names render workers and lease holders as `host:pid:name`, so that a process can tell
/// the claims of a process on the same host that has died (and take them over at once)
/// from those of a process that is alive or elsewhere (whose leases must run out).
public struct WorkerIdentity: Sendable, Hashable {
    /// This machine's host name.
    public let host: String
    /// This process's id.
    public let pid: Int32

    public init(host: String, pid: Int32) {
        self.host = host
        self.pid = pid
    }

    /// This process on this machine.
    public static let current = WorkerIdentity(host: currentHostName(), pid: getpid())

    /// The lease owner name of one worker of this process, e.g. `db-1:4242:render-0`.
    public func owner(_ name: String) -> String { "\(host):\(pid):\(name)" }

    /// Parses an owner name made by `owner(_:)`; nil for any other shape.
    public static func parse(owner: String) -> WorkerIdentity? {
        let parts = owner.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, let pid = Int32(parts[1]), pid > 0 else { return nil }
        return WorkerIdentity(host: String(parts[0]), pid: pid)
    }

    /// True when `other` is a different process on this host that no longer exists. A
    /// process elsewhere, or one that may still run, is never called gone.
    public func knowsIsGone(_ other: WorkerIdentity) -> Bool {
        guard other.host == host, other.pid != pid else { return false }
        if kill(other.pid, 0) == 0 { return false }
        return errno == ESRCH
    }

    private static func currentHostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let name = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: ":", with: "_")
        return name.isEmpty ? "localhost" : name
    }
}
