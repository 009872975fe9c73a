import BelayCore
import Foundation
import BelayArguments
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Shows a long task's progress on standard error: on a terminal, a bar redrawn in place
/// (count, percentage, rate, ETA); otherwise (cron, logs) a plain line every tenth of the
/// work or every 10 seconds, whichever comes first.
final class ProgressDisplay: Sendable {
    private struct State {
        var phase = ""
        /// Monotonic nanoseconds.
        var phaseStarted: UInt64 = 0
        var lastDrawn: UInt64?
        var lastTenth = -1
        var lineOpen = false
    }

    private let sink: TextSink
    private let isTerminal: Bool
    private let clock: any TimeSource
    private let state = Mutex(State())

    /// - Parameters:
    ///   - isTerminal: draw a bar (standard error is a terminal) or print lines.
    ///   - clock: whose monotonic clock times the phases.
    init(sink: TextSink, isTerminal: Bool, clock: any TimeSource = SystemTimeSource()) {
        self.sink = sink
        self.isTerminal = isTerminal
        self.clock = clock
    }

    /// True when standard error is a terminal that can redraw a line.
    static func standardErrorIsTerminal(environment: [String: String]) -> Bool {
        isatty(STDERR_FILENO) == 1 && environment["TERM"] != "dumb"
    }

    /// Reports `completed` of `total` items of `phase` (e.g. "rendering"), `failed` of them failed.
    func update(phase: String, completed: Int, total: Int, failed: Int) {
        let now = clock.monotonicNanoseconds()
        let text: String? = state.withLock { state in
            if state.phase != phase {
                if state.lineOpen { sink.write("\n") }
                state = State(phase: phase, phaseStarted: now)
            }
            let elapsed = Double(now &- state.phaseStarted) / 1e9
            let sinceDrawn = state.lastDrawn.map { Double(now &- $0) / 1e9 } ?? .infinity
            let fraction = total > 0 ? min(Double(completed) / Double(total), 1) : 1
            let tenth = Int(fraction * 10)
            let finished = completed >= total
            if isTerminal {
                guard finished || sinceDrawn >= 0.1 else { return nil }
                state.lastDrawn = now
                state.lineOpen = !finished
                return "\r\u{1B}[2K" + Self.bar(fraction) + " " + Self.summary(phase, completed, total, failed, elapsed)
                    + (finished ? "\n" : "")
            }
            guard tenth > state.lastTenth || sinceDrawn >= 10 else { return nil }
            state.lastTenth = tenth
            state.lastDrawn = now
            return Self.summary(phase, completed, total, failed, elapsed) + "\n"
        }
        if let text { sink.write(text) }
    }

    /// Ends an open bar line, so that what follows starts on its own line.
    func finish() {
        let open = state.withLock { state -> Bool in
            defer { state.lineOpen = false }
            return state.lineOpen
        }
        if open { sink.write("\n") }
    }

    static func bar(_ fraction: Double) -> String {
        let width = 24
        let filled = Int((fraction * Double(width)).rounded(.down))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
    }

    /// `rendering 120/2000 (6%), 41.2/s, ETA 0:45, 2 failed`.
    static func summary(_ phase: String, _ completed: Int, _ total: Int, _ failed: Int, _ elapsed: TimeInterval) -> String {
        let percent = total > 0 ? completed * 100 / total : 100
        var text = "\(phase) \(completed)/\(total) (\(percent)%)"
        if elapsed > 0, completed > 0 {
            let rate = Double(completed) / elapsed
            text += String(format: ", %.1f/s", rate)
            if completed < total { text += ", ETA " + duration(Double(total - completed) / rate) }
        }
        if failed > 0 { text += ", \(failed) failed" }
        return text
    }

    /// `0:45`, `12:03`, `1:02:03`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        let hours = whole / 3600, minutes = whole / 60 % 60, rest = whole % 60
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }
}
