#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// Writes log lines to a file descriptor in batches: one `write(2)` per flush instead of one
/// per line, which matters for an access log at tens of thousands of requests a second.
///
/// Lines are flushed when the buffer passes `bufferBytes`, every `flushInterval`, on `flush()`,
/// and immediately for entries at `warning` or above. Lines still buffered when the process is
/// killed are lost; call `flush()` before a clean exit.
public final class BufferedLogSink: LogSink {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let bufferBytes: Int
    private let buffer = Mutex<[UInt8]>([])
    private let timer: DispatchSourceTimerBox

    /// Holds the timer so the sink stays `Sendable`; the timer is only touched in init and deinit.
    private final class DispatchSourceTimerBox: @unchecked Sendable {
        let timer: any DispatchSourceTimer
        init(_ timer: any DispatchSourceTimer) { self.timer = timer }
        deinit { timer.cancel() }
    }

    /// Buffers lines for standard error.
    public convenience init(flushInterval: Duration = .milliseconds(250), bufferBytes: Int = 64 * 1024) {
        self.init(descriptor: 2, ownsDescriptor: false, flushInterval: flushInterval, bufferBytes: bufferBytes)
    }

    /// Buffers lines for the file at `path`, created if missing and appended to.
    /// - Throws: `LogFileError` when the file cannot be opened for appending.
    public convenience init(path: String, flushInterval: Duration = .milliseconds(250), bufferBytes: Int = 64 * 1024) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw LogFileError(path: path, reason: String(cString: strerror(errno)))
        }
        self.init(descriptor: fd, ownsDescriptor: true, flushInterval: flushInterval, bufferBytes: bufferBytes)
    }

    private init(descriptor: Int32, ownsDescriptor: Bool, flushInterval: Duration, bufferBytes: Int) {
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.bufferBytes = bufferBytes
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "belay.log-flush"))
        self.timer = DispatchSourceTimerBox(timer)
        let (seconds, attoseconds) = flushInterval.components
        let interval = DispatchTimeInterval.nanoseconds(Int(max(1_000_000, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in self?.flush() }
        timer.resume()
    }

    public func write(_ entry: LogEntry) {
        let line = entry.timestampedLine()
        let urgent = entry.level >= .warning
        let full = buffer.withLock { bytes -> Bool in
            bytes.append(contentsOf: line)
            return bytes.count >= bufferBytes
        }
        if full || urgent { flush() }
    }

    /// Writes everything buffered so far.
    public func flush() {
        buffer.withLock { bytes in
            // Written under the lock so lines keep their order across threads.
            bytes.withUnsafeBytes { writeAll(descriptor, $0) }
            bytes.removeAll(keepingCapacity: true)
        }
    }

    deinit {
        flush()
        if ownsDescriptor { close(descriptor) }
    }
}
