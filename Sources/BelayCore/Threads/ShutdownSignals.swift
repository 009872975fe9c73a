#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// Waits for the signals that ask a server to shut down (SIGTERM from service managers and
/// `kill`, SIGINT from Ctrl-C), so the process can stop gracefully and exit 0.
public enum ShutdownSignals {
    /// Blocks the calling thread until one of `signals` arrives and returns its number.
    ///
    /// The signals' default actions (terminating the process) are disabled first and stay
    /// disabled: the caller decides how to exit. Callable from `main`; the signal handling runs
    /// on a dispatch queue, not on the caller's actor.
    @discardableResult
    public static func wait(for signals: [Int32] = [SIGTERM, SIGINT]) -> Int32 {
        let waiter = Waiter(signals: signals)
        return waiter.wait()
    }

    /// Listens for signals until released; for callers that want to wait with a timeout or
    /// from a test.
    public final class Waiter: Sendable {
        private let sources: SignalSources

        /// The dispatch sources, touched only in `init` and `deinit`.
        private final class SignalSources: @unchecked Sendable {
            let sources: [any DispatchSourceSignal]
            init(_ sources: [any DispatchSourceSignal]) { self.sources = sources }
            deinit { for source in sources { source.cancel() } }
        }
        private let state = State()

        private final class State: Sendable {
            let received = Mutex<Int32?>(nil)
            let semaphore = DispatchSemaphore(value: 0)
            let registered = DispatchSemaphore(value: 0)
        }

        /// Starts listening: from here on the signals no longer terminate the process.
        public init(signals: [Int32] = [SIGTERM, SIGINT]) {
            let queue = DispatchQueue(label: "belay.shutdown-signals")
            var sources: [any DispatchSourceSignal] = []
            for number in signals {
                // A handled signal must be ignored at the process level, or its default action
                // (terminate) would still run.
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                sources.append(source)
            }
            self.sources = SignalSources(sources)
            for (source, number) in zip(sources, signals) {
                source.setEventHandler { [state] in
                    let first = state.received.withLock { value -> Bool in
                        guard value == nil else { return false }
                        value = number
                        return true
                    }
                    if first { state.semaphore.signal() }
                }
                source.setRegistrationHandler { [state] in state.registered.signal() }
                source.resume()
            }
            // A signal raised before libdispatch has registered its source would be ignored, so
            // listening starts only once every source is registered.
            for _ in sources { state.registered.wait() }
        }

        /// Blocks until a signal arrives; returns its number.
        public func wait() -> Int32 {
            state.semaphore.wait()
            state.semaphore.signal()
            return state.received.withLock { $0 } ?? 0
        }

        /// Blocks until a signal arrives or `timeout` passes; returns the signal or nil.
        public func wait(timeout: Duration) -> Int32? {
            let (seconds, attoseconds) = timeout.components
            let nanoseconds = max(0, seconds) * 1_000_000_000 + attoseconds / 1_000_000_000
            guard state.semaphore.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success else { return nil }
            state.semaphore.signal()
            return state.received.withLock { $0 }
        }
    }
}
