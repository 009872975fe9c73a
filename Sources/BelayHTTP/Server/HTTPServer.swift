#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BelayCore
import CHTTPShim
import CMicroHTTPD
import Dispatch
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd: a pool of worker threads, each with its own epoll loop,
/// answering every request through one `HTTPResponder`.
///
/// ```swift
/// let settings = ServerSettings(host: "127.0.0.1", port: 0, threads: 0, connectionTimeoutSeconds: 30, headerTimeoutSeconds: 10,
///                               maxConnections: 8192, maxConnectionsPerIP: 256, maxBodyBytes: 65_536)
/// let server = HTTPServer(settings: settings, responder: router.buildResponder())
/// try server.start()
/// print("listening on port \(server.port)")
/// ShutdownSignals.wait()
/// server.stop()
/// ```
public final class HTTPServer: Sendable {
    public let settings: ServerSettings
    private let core: ServerCore
    private let state = Mutex(RunState())

    private struct RunState {
        var daemon: OpaquePointer?
        var port = 0
        var retainedCore: Unmanaged<ServerCore>?
    }

    /// - Parameters:
    ///   - logger: receives libmicrohttpd's own diagnostics and the start/stop lines.
    public init(settings: ServerSettings, responder: some HTTPResponder, logger: Logger = Logger(label: "http")) {
        self.settings = settings
        core = ServerCore(responder: responder, settings: settings, logger: logger)
    }

    /// The port the server listens on: the real one when `settings.port` was 0; 0 when not running.
    public var port: Int { state.withLock { $0.port } }

    /// Whether `start()` succeeded and `stop()` has not been called since.
    public var isRunning: Bool { state.withLock { $0.daemon != nil } }

    /// Requests received and not yet answered, those waiting suspended for deferred work included.
    public var requestsInFlight: Int { core.inFlight.load(ordering: .sequentiallyConsistent) }

    /// Requests suspended while they wait for deferred work (a write for its commit), holding no thread.
    public var requestsSuspended: Int { core.suspensions.withLock { $0.pending.count } }

    /// Binds the configured host and port and starts the worker threads; returns once listening.
    /// - Throws: `HTTPServerError` when a setting is invalid, the server is already running, or the
    ///   address cannot be bound (in use, not local, unresolvable).
    public func start() throws {
        try settings.validate()
        try state.withLock { state in
            guard state.daemon == nil else { throw HTTPServerError(kind: .alreadyStarted) }
            // A client that disconnects mid-response must not kill the process.
            signal(SIGPIPE, SIG_IGN)
            core.diagnostics.withLock { $0.removeAll() }
            core.stopping.store(false, ordering: .sequentiallyConsistent)
            core.suspensions.withLock { $0.abandoning = false }

            let connectionLimit = FileDescriptorLimit.connections(fitting: settings.maxConnections)
            if connectionLimit < settings.maxConnections {
                core.logger.warning("the open-file limit leaves room for \(connectionLimit) connections, fewer than max_connections (\(settings.maxConnections)); raise it (e.g. LimitNOFILE=) to serve more")
            }
            let retained = Unmanaged.passRetained(core)
            let threads = settings.threads > 0 ? settings.threads : max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
            var error = [CChar](repeating: 0, count: 256)
            let daemon: OpaquePointer? = settings.host.withCString { host in
                var options = belay_http_daemon_options()
                options.host = host
                options.port = UInt16(settings.port)
                options.thread_count = UInt32(threads)
                options.connection_timeout_seconds = UInt32(settings.connectionTimeoutSeconds)
                options.connection_limit = UInt32(connectionLimit)
                options.per_ip_connection_limit = UInt32(settings.maxConnectionsPerIP)
                options.connection_memory_limit = settings.connectionMemoryBytes
                options.access_handler = { context, connection, url, method, version, uploadData, uploadDataSize, requestSlot in
                    guard let context, let connection, let url, let method, let uploadDataSize, let requestSlot else {
                        return .NO
                    }
                    return Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue().access(
                        connection: connection, url: url, method: method, version: version,
                        uploadData: uploadData, uploadDataSize: uploadDataSize, requestSlot: requestSlot)
                }
                options.completed_handler = { context, connection, requestSlot, _ in
                    guard let context, let requestSlot else { return }
                    Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue().completed(connection: connection, requestSlot: requestSlot)
                }
                if core.headerDeadlines != nil {
                    options.connection_handler = { context, connection, socketContext, event in
                        guard let context, let connection, let socketContext else { return }
                        Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue().connectionEvent(
                            connection, socketContext: socketContext, opened: event == .CONNECTION_NOTIFY_STARTED)
                    }
                }
                options.handler_context = retained.toOpaque()
                options.log_function = { context, message in
                    guard let context, let message else { return }
                    Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue().diagnostic(String(cString: message))
                }
                options.log_context = retained.toOpaque()
                return error.withUnsafeMutableBufferPointer { buffer in
                    belay_http_start_daemon(&options, buffer.baseAddress, buffer.count)
                }
            }
            guard let daemon else {
                retained.release()
                let shimMessage = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                let diagnostics = core.diagnostics.withLock { $0 }
                let reason = diagnostics.last ?? shimMessage
                throw HTTPServerError(kind: .cannotListen(host: settings.host, port: settings.port, reason: reason))
            }
            state.daemon = daemon
            state.retainedCore = retained
            state.port = Int(belay_http_bound_port(daemon))
            core.headerDeadlines?.startSweeping()
            core.logger.info("listening on \(settings.host):\(state.port)", metadata: [("threads", String(threads))])
        }
    }

    /// Shuts down gracefully: stops accepting connections, lets requests in flight finish (up to
    /// `gracePeriod`), then closes every connection and joins the worker threads. Requests that
    /// arrive on open keep-alive connections meanwhile are answered with `Connection: close`.
    /// A request still waiting for deferred work when the grace period ends is answered 503
    /// `shutting_down` (with `Retry-After`; the work may still finish, and its completion is then
    /// ignored), given up to two more seconds to go out. Does nothing when the server is not running.
    public func stop(gracePeriod: Duration = .seconds(10)) {
        state.withLock { state in
            guard let daemon = state.daemon else { return }
            core.stopping.store(true, ordering: .sequentiallyConsistent)
            belay_http_quiesce_daemon(daemon)
            core.logger.info("stopping: no longer accepting connections", metadata: [
                ("in_flight", String(core.inFlight.load(ordering: .sequentiallyConsistent))),
            ])
            let (seconds, attoseconds) = gracePeriod.components
            let nanoseconds = max(0, seconds) * 1_000_000_000 + attoseconds / 1_000_000_000
            let deadline = DispatchTime.now() + .nanoseconds(Int(min(nanoseconds, Int64(Int.max))))
            if !waitForRequests(until: deadline) {
                // Suspended requests (a write waiting for its commit) are answered 503 now:
                // libmicrohttpd must not be stopped with a connection still suspended.
                let abandoned = core.abandonSuspended()
                let answering = DispatchTime.now() + .seconds(2)
                let resumed = core.waitUntilResumed(deadline: answering)
                if abandoned > 0 {
                    core.logger.warning("grace period over; answered \(abandoned) request(s) still waiting for their work 503 shutting_down")
                }
                if !resumed {
                    core.logger.error("a suspended connection was not resumed in time; stopping may abort")
                }
                if !waitForRequests(until: answering) {
                    let left = core.inFlight.load(ordering: .sequentiallyConsistent)
                    core.logger.warning("grace period over; closing \(left) unfinished request(s)")
                }
            }
            belay_http_stop_daemon(daemon)
            core.headerDeadlines?.stopSweeping()
            state.retainedCore?.release()
            state.retainedCore = nil
            state.daemon = nil
            state.port = 0
            core.logger.info("stopped")
        }
    }

    /// Waits until no request is in flight or `deadline`; true when none is left.
    private func waitForRequests(until deadline: DispatchTime) -> Bool {
        while core.inFlight.load(ordering: .sequentiallyConsistent) > 0 {
            if core.drained.wait(timeout: deadline) == .timedOut {
                return core.inFlight.load(ordering: .sequentiallyConsistent) == 0
            }
        }
        return true
    }

    deinit {
        stop(gracePeriod: .zero)
    }
}
