import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Names render workers and lease holders as `host:pid@started:name`, so that a process can
/// tell the claims of a process on the same host that has died (and take them over at once)
/// from those of a process that is alive or elsewhere (whose leases must run out).
///
/// `started` is when the process started (clock ticks since boot, from `/proc`): with it a
/// claim of an earlier process that had the same pid (a server restarted in a container,
/// where it is always pid 1) or whose pid was reused since is recognised as gone, as is a
/// process that was killed but not yet reaped (a zombie, which `kill(pid, 0)` still finds).
/// Owners written without it (`host:pid:name`, by older versions) are still understood.
public struct WorkerIdentity: Sendable, Hashable {
    /// This machine's host name.
    public let host: String
    /// This process's id.
    public let pid: Int32
    /// When the process started (clock ticks since boot), or nil when unknown.
    public let startTime: UInt64?

    public init(host: String, pid: Int32, startTime: UInt64? = nil) {
        self.host = host
        self.pid = pid
        self.startTime = startTime
    }

    /// This process on this machine.
    public static let current = WorkerIdentity(host: currentHostName(), pid: getpid(),
                                               startTime: ProcessStatus.read(pid: getpid())?.startTime)

    /// The lease owner name of one worker of this process, e.g. `db-1:4242@1234567:render-0`.
    public func owner(_ name: String) -> String {
        "\(host):\(pid)\(startTime.map { "@\($0)" } ?? ""):\(name)"
    }

    /// Parses an owner name made by `owner(_:)` (or by an older version, without the start
    /// time); nil for any other shape.
    public static func parse(owner: String) -> WorkerIdentity? {
        let parts = owner.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty else { return nil }
        let process = parts[1].split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard let pid = Int32(process[0]), pid > 0 else { return nil }
        var startTime: UInt64?
        if process.count == 2 {
            guard let started = UInt64(process[1]) else { return nil }
            startTime = started
        }
        return WorkerIdentity(host: String(parts[0]), pid: pid, startTime: startTime)
    }

    /// True when `other` is a process on this host that no longer exists: an earlier
    /// process with this one's pid, a pid that is gone or a zombie, or a pid now used by a
    /// process that started at another time. A process elsewhere, or one that may still
    /// run, is never called gone.
    public func knowsIsGone(_ other: WorkerIdentity) -> Bool {
        guard other.host == host else { return false }
        if other.pid == pid {
            // This pid is this process: the claim is an earlier incarnation's when it
            // names another start time.
            guard let theirs = other.startTime, let ours = startTime else { return false }
            return theirs != ours
        }
        switch ProcessStatus.lookUp(pid: other.pid) {
        case .absent:
            return true
        case let .present(status):
            if status.isZombie { return true }
            if let theirs = other.startTime, let started = status.startTime { return theirs != started }
            return false
        case .unknown:
            if kill(other.pid, 0) == 0 { return false }
            return errno == ESRCH
        }
    }

    private static func currentHostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let name = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: ":", with: "_")
        return name.isEmpty ? "localhost" : name
    }
}
