import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What `/proc/<pid>/stat` says about a process on this machine: whether it is a zombie
/// (killed or exited, not yet reaped) and when it started.
struct ProcessStatus: Sendable, Hashable {
    /// The kernel's state letter is `Z` (zombie) or `X` (dead).
    let isZombie: Bool
    /// Clock ticks since boot at which the process started.
    let startTime: UInt64?

    /// The answer of `lookUp(pid:)`.
    enum LookUp: Sendable, Hashable {
        /// No process has this pid.
        case absent
        case present(ProcessStatus)
        /// `/proc` cannot tell (not mounted, another system); ask `kill(pid, 0)`.
        case unknown
    }

    static func lookUp(pid: Int32) -> LookUp {
        if let status = read(pid: pid) { return .present(status) }
        guard FileManager.default.fileExists(atPath: "/proc/self/stat") else { return .unknown }
        return FileManager.default.fileExists(atPath: "/proc/\(pid)") ? .unknown : .absent
    }

    /// Reads `/proc/<pid>/stat`; nil when it cannot be read.
    static func read(pid: Int32) -> ProcessStatus? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
        return parse(String(decoding: data, as: UTF8.self))
    }

    /// Parses a `stat` line: `pid (comm) state ppid … starttime …`, where `comm` may hold
    /// spaces and parentheses, so the fields are counted from the last `)`.
    static func parse(_ line: String) -> ProcessStatus? {
        guard let close = line.lastIndex(of: ")") else { return nil }
        let fields = line[line.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
        // fields[0] is field 3 (state); starttime is field 22.
        guard let state = fields.first else { return nil }
        let startTime = fields.count > 19 ? UInt64(fields[19]) : nil
        return ProcessStatus(isZombie: state == "Z" || state == "X", startTime: startTime)
    }
}
