#if canImport(Glibc)
import BelayCore
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CHTTPShim
import Dispatch
import Foundation
import Synchronization

/// Closes connections whose request line and headers have not all arrived by their deadline,
/// so that clients trickling a header byte now and then (slowloris) cannot hold connections:
/// libmicrohttpd's own timeout counts only silence, and every byte resets it.
///
/// A connection's deadline is set when it opens (now + the header timeout), cleared when a
/// request's headers are complete (the request is being served, however long that takes), and
/// set again when the request completes (now + the idle timeout + the header timeout, so an idle
/// keep-alive connection still gets its whole idle time and then a full header timeout).
///
/// Threading: libmicrohttpd's worker threads call `opened`, `headersReceived`, `requestCompleted`
/// and `closed` for their own connections; one sweeper thread, started and stopped with the
/// daemon, looks at every deadline a few times per timeout and shuts down the socket of each
/// connection past it, which libmicrohttpd then sees as closed by the peer and cleans up on
/// its own thread. libmicrohttpd reports a connection closed before it closes its socket, and
/// the sweeper shuts sockets down only while holding the lock `closed` takes, so it never
/// touches a descriptor that has been closed and reused.
final class HeaderDeadlines: Sendable {
    /// One open connection: its socket and the monotonic time its headers are due.
    final class Connection: Sendable {
        let socket: Int32
        /// Nanoseconds on the monotonic clock (`SystemTimeSource`); `none` while a request is being served.
        let deadline: Atomic<UInt64>

        init(socket: Int32, deadline: UInt64) {
            self.socket = socket
            self.deadline = Atomic(deadline)
        }
    }

    static let none = UInt64.max

    private let open = Mutex<[ObjectIdentifier: Connection]>([:])
    private let headerTimeout: UInt64
    /// From the end of a request to the deadline of the next one's headers; nil when idle
    /// connections are never closed (then neither are later requests on them timed).
    private let followUpTimeout: UInt64?
    private let sweepInterval: Double
    private let headerTimeoutSeconds: Int
    private let logger: Logger
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let sweeping = Atomic<Bool>(false)
    /// Connections closed for missing their deadline since the server was created.
    let closedCount = Atomic<Int>(0)

    init(headerTimeoutSeconds: Int, idleTimeoutSeconds: Int, logger: Logger) {
        self.headerTimeoutSeconds = headerTimeoutSeconds
        headerTimeout = UInt64(headerTimeoutSeconds) * 1_000_000_000
        followUpTimeout = idleTimeoutSeconds > 0 ? UInt64(idleTimeoutSeconds + headerTimeoutSeconds) * 1_000_000_000 : nil
        // A few looks per timeout: a connection is closed at most a quarter late.
        sweepInterval = min(1, max(0.05, Double(headerTimeoutSeconds) / 4))
        self.logger = logger
    }

    // MARK: - Called on libmicrohttpd's threads

    /// Starts timing a new connection; stores its state in libmicrohttpd's socket context.
    func opened(_ connection: OpaquePointer, socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        let state = Connection(socket: belay_http_connection_fd(connection),
                               deadline: SystemTimeSource.monotonicNanoseconds() &+ headerTimeout)
        socketContext.pointee = Unmanaged.passRetained(state).toOpaque()
        open.withLock { $0[ObjectIdentifier(state)] = state }
    }

    /// Forgets a connection libmicrohttpd is about to close.
    func closed(socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        guard let pointer = socketContext.pointee else { return }
        socketContext.pointee = nil
        let state = Unmanaged<Connection>.fromOpaque(pointer).takeRetainedValue()
        open.withLock { $0[ObjectIdentifier(state)] = nil }
    }

    /// The connection's request has all its headers: no deadline while it is served.
    func headersReceived(_ connection: OpaquePointer) {
        state(of: connection)?.deadline.store(Self.none, ordering: .relaxed)
    }

    /// The connection's request is answered: the next one's headers are due in time.
    func requestCompleted(_ connection: OpaquePointer) {
        guard let state = state(of: connection) else { return }
        let deadline = followUpTimeout.map { SystemTimeSource.monotonicNanoseconds() &+ $0 } ?? Self.none
        state.deadline.store(deadline, ordering: .relaxed)
    }

    private func state(of connection: OpaquePointer) -> Connection? {
        belay_http_socket_context(connection).map { Unmanaged<Connection>.fromOpaque($0).takeUnretainedValue() }
    }

    // MARK: - The sweeper

    /// Starts the sweeper thread; call once per `stopSweeping()`.
    func startSweeping() {
        guard !sweeping.exchange(true, ordering: .sequentiallyConsistent) else { return }
        let thread = Thread { [self] in
            while wake.wait(timeout: .now() + sweepInterval) == .timedOut {
                sweep(now: SystemTimeSource.monotonicNanoseconds())
            }
            finished.signal()
        }
        thread.name = "belay-http-header-deadlines"
        thread.start()
    }

    /// Stops the sweeper thread and waits for it to end.
    func stopSweeping() {
        guard sweeping.exchange(false, ordering: .sequentiallyConsistent) else { return }
        wake.signal()
        finished.wait()
    }

    /// Shuts down every connection whose deadline is `now` or earlier; returns how many.
    @discardableResult
    func sweep(now: UInt64) -> Int {
        let expired = open.withLock { connections in
            connections.values.filter { state in
                let deadline = state.deadline.load(ordering: .relaxed)
                // Only if the deadline is still the one read: a request may have just completed.
                return deadline <= now
                    && state.deadline.compareExchange(expected: deadline, desired: Self.none, ordering: .relaxed).exchanged
            }
        }
        guard !expired.isEmpty else { return 0 }
        closedCount.add(expired.count, ordering: .relaxed)
        logger.info("closed \(expired.count) connection(s) whose request headers had not arrived within \(headerTimeoutSeconds) s")
        // Under the lock again, and only those still open: `expired` keeps each state alive, so
        // an identifier found in the table is that connection's, whose socket is not yet closed.
        open.withLock { connections in
            for state in expired where connections[ObjectIdentifier(state)] === state {
                shutdown(state.socket, Int32(SHUT_RDWR))
            }
        }
        return expired.count
    }
}
