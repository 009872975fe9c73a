import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process that has exited but is not reaped yet (a zombie): what a server killed
/// with SIGKILL looks like until its parent collects it. `kill(pid, 0)` still succeeds on
/// it. Reaped when the value is released.
public final class UnreapedProcess: @unchecked Sendable {
    /// The zombie's process id.
    public let pid: Int32
    private var reaped = false

    /// Starts `/bin/true` and waits until it has exited, leaving it unreaped.
    /// - Throws: when it cannot be started or waited for.
    public init() throws {
        var child: pid_t = 0
        let path = "/bin/true"
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
        defer { for pointer in argv { free(pointer) } }
        let started = posix_spawn(&child, path, nil, nil, &argv, environ)
        guard started == 0 else { throw Failure(description: "posix_spawn \(path) failed: errno \(started)") }
        pid = child
        // Waits for the exit without collecting it (WNOWAIT): the child stays a zombie.
        var info = siginfo_t()
        guard waitid(P_PID, id_t(child), &info, WEXITED | WNOWAIT) == 0 else {
            let code = errno
            reap()
            throw Failure(description: "waitid on \(child) failed: errno \(code)")
        }
    }

    /// True when `/proc` shows the process as a zombie (state `Z`).
    public var isZombie: Bool {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat"),
              let close = data.lastIndex(of: UInt8(ascii: ")")), data.index(close, offsetBy: 2) < data.endIndex else { return false }
        return data[data.index(close, offsetBy: 2)] == UInt8(ascii: "Z")
    }

    /// Collects the child; it is gone afterwards.
    public func reap() {
        guard !reaped else { return }
        reaped = true
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }

    deinit { reap() }

    /// Why the zombie could not be made.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }
}
