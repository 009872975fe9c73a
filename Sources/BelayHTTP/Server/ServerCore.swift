#if canImport(Glibc)
import BelayCore
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CHTTPShim
import CMicroHTTPD
import Dispatch
import Synchronization

/// The state libmicrohttpd's callbacks reach through their context pointer. Everything here is
/// immutable or atomic: callbacks run concurrently on the daemon's worker threads.
final class ServerCore: Sendable {
    let responder: any HTTPResponder
    let maxBodyBytes: Int
    let maxRequestTargetBytes: Int
    let maxHeaderBytes: Int
    let keepAlive: Bool
    /// Bytes of a chunked body past the limit that are read and dropped so that it can be
    /// answered 413; beyond them the connection is closed instead.
    let discardLimit: Int
    let logger: Logger
    /// Requests whose handler was entered and whose completion has not been reported yet.
    let inFlight = Atomic<Int>(0)
    let stopping = Atomic<Bool>(false)
    /// Signalled when `inFlight` drops to zero while stopping.
    let drained = DispatchSemaphore(value: 0)
    /// Closes connections whose headers are late; nil when the header timeout is 0.
    let headerDeadlines: HeaderDeadlines?
    /// Deferred responses whose connection is suspended, so that shutdown can answer each one:
    /// libmicrohttpd aborts the process when it is stopped with a connection still suspended.
    let suspensions = Mutex(Suspensions())
    /// Signalled when the last suspended connection is resumed while abandoning.
    let resumedAll = DispatchSemaphore(value: 0)
    /// How many of libmicrohttpd's messages were logged in the current second.
    let diagnosticBudget = Mutex(DiagnosticBudget())
    /// libmicrohttpd's recent messages, so a failed start can say why.
    let diagnostics = Mutex<[String]>([])

    init(responder: some HTTPResponder, settings: ServerSettings, logger: Logger) {
        self.responder = responder
        maxBodyBytes = settings.maxBodyBytes
        maxRequestTargetBytes = settings.maxRequestTargetBytes
        maxHeaderBytes = settings.maxHeaderBytes
        keepAlive = settings.keepAlive
        discardLimit = max(1 << 20, settings.maxBodyBytes)
        self.logger = logger
        headerDeadlines = settings.headerTimeoutSeconds > 0
            ? HeaderDeadlines(headerTimeoutSeconds: settings.headerTimeoutSeconds,
                              idleTimeoutSeconds: settings.connectionTimeoutSeconds, logger: logger)
            : nil
    }

    /// Marks a request slot whose request carries no body, so no per-request object is allocated.
    private static var bodylessRequest: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 1)! }
    /// The request slot's first value for a request whose target carries `%00` (see
    /// `belay_http_inspect_target`); the slot is otherwise nil until the headers are in.
    private static var nulInTarget: UnsafeMutableRawPointer? { belay_http_nul_target_marker() }

    /// libmicrohttpd's access handler: called once when the headers are in, once per chunk of body,
    /// and once when the request is complete (RFC: the upload_data protocol).
    func access(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>,
        version: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?,
        uploadDataSize: UnsafeMutablePointer<Int>,
        requestSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let slot = requestSlot.pointee, slot != Self.nulInTarget else {
            // Headers received: refuse what a proxy could frame differently, then decide how
            // the body will be read.
            inFlight.add(1, ordering: .relaxed)
            headerDeadlines?.headersReceived(connection)
            let targetHasNul = requestSlot.pointee == Self.nulInTarget
            if let rejection = framingProblem(connection, url: url, method: method, version: version, targetHasNul: targetHasNul) {
                // Answered now, before any body is read; libmicrohttpd then discards the body
                // and the connection is closed, so nothing after it is read as another request.
                requestSlot.pointee = Self.bodylessRequest
                var request = makeRequest(connection: connection, url: url, method: method, body: [], bodyExceedsLimit: false)
                request.rejection = rejection
                return queue(responder.respond(to: request), on: connection, closing: true)
            }
            switch Self.bodyExpectation(connection) {
            case .none:
                requestSlot.pointee = Self.bodylessRequest
                return .YES
            case .length(let length) where length > UInt64(maxBodyBytes):
                // Answer now: libmicrohttpd then discards the body unread and closes the connection.
                requestSlot.pointee = Self.bodylessRequest
                let request = makeRequest(connection: connection, url: url, method: method, body: [], bodyExceedsLimit: true)
                return queue(responder.respond(to: request), on: connection, closing: true)
            case .length(let length):
                requestSlot.pointee = Unmanaged.passRetained(RequestBody(capacity: Int(length))).toOpaque()
                return .YES
            case .chunked:
                requestSlot.pointee = Unmanaged.passRetained(RequestBody(capacity: 0)).toOpaque()
                return .YES
            }
        }

        if uploadDataSize.pointee > 0 {
            guard slot != Self.bodylessRequest, let uploadData else { return .NO }
            let body = Unmanaged<RequestBody>.fromOpaque(slot).takeUnretainedValue()
            let count = uploadDataSize.pointee
            uploadDataSize.pointee = 0
            if body.exceedsLimit || body.bytes.count + count > maxBodyBytes {
                // A chunked body outgrew the limit. libmicrohttpd cannot answer before the body
                // ends, so the rest is read and dropped, and the request is answered 413 like a
                // declared one; a body that goes on far past the limit has its connection closed.
                if !body.exceedsLimit {
                    body.exceedsLimit = true
                    body.bytes = []
                }
                body.discardedBytes += count
                if body.discardedBytes > discardLimit {
                    logger.info("closing connection: chunked request body exceeds \(maxBodyBytes) bytes by more than \(discardLimit)")
                    return .NO
                }
                return .YES
            }
            body.bytes.append(contentsOf: UnsafeRawBufferPointer(start: uploadData, count: count))
            return .YES
        }

        // The whole request is in, or a suspended request was resumed.
        var bytes: [UInt8] = []
        var exceedsLimit = false
        if slot != Self.bodylessRequest {
            let body = Unmanaged<RequestBody>.fromOpaque(slot).takeUnretainedValue()
            if let deferred = body.deferred {
                body.deferred = nil
                return queue(deferred.resolve().recovered { error in
                    logger.error("a deferred response failed outside the error middleware; answering 500",
                                 metadata: [("error", String(describing: error))])
                    return Response(status: .internalServerError)
                }, on: connection)
            }
            swap(&bytes, &body.bytes)
            exceedsLimit = body.exceedsLimit
        }
        let request = makeRequest(connection: connection, url: url, method: method, body: bytes, bodyExceedsLimit: exceedsLimit)
        let response = responder.respond(to: request)
        guard let deferred = response.deferred else { return queue(response, on: connection, closing: exceedsLimit) }
        return suspend(connection, until: deferred, requestSlot: requestSlot)
    }

    /// Why the request's framing is refused, or nil: HTTP/1.1 without exactly one `Host`
    /// (RFC 9112 §3.2), `Content-Length` fields that disagree, or `Content-Length` together with
    /// `Transfer-Encoding` (§6.3: behind a proxy each is a way to smuggle a second request).
    /// Also refuses a request target or header section over the server's limits (414, 431), so
    /// that those are answered as problems, not libmicrohttpd's HTML; a target with an encoded
    /// NUL, which libmicrohttpd would hand over cut at the NUL (`/v1/me%00.png` read as
    /// `/v1/me`); and a field name that is not a token (`Transfer-Encoding : chunked`), which
    /// libmicrohttpd would keep as a different field than the one a proxy acted on; and a
    /// field line with a NUL in it, which libmicrohttpd would hand over cut at the NUL (an
    /// `Authorization` value read as the token before it).
    private func framingProblem(_ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
                                version: UnsafePointer<CChar>?, targetHasNul: Bool) -> HTTPError? {
        var framing = belay_http_framing()
        belay_http_inspect_framing(connection, method, &framing)
        if framing.header_bytes > maxHeaderBytes { return .headersTooLarge(limit: maxHeaderBytes) }
        if strlen(url) > maxRequestTargetBytes || Self.requestTargetBytes(connection, url: url) > maxRequestTargetBytes {
            return .requestTargetTooLong(limit: maxRequestTargetBytes)
        }
        if targetHasNul { return .nulInRequestTarget }
        if framing.invalid_field_name != 0 { return .invalidFieldName }
        if framing.unreadable_authorization != 0 { return .unreadableAuthorization }
        if framing.unreadable_field_line != 0 { return .unreadableFieldLine }
        if framing.content_lengths_differ != 0 {
            return .ambiguousFraming(code: "conflicting_content_length",
                                     detail: "The request carries Content-Length fields with different values; send exactly one.")
        }
        if framing.content_length_count > 0 && framing.transfer_encoding_count > 0 {
            return .ambiguousFraming(code: "conflicting_framing",
                                     detail: "The request carries both Content-Length and Transfer-Encoding; send only one of them.")
        }
        if framing.host_count != 1, let version, strcmp(version, "HTTP/1.1") == 0 || framing.host_count > 1 {
            return .invalidHost(count: Int(framing.host_count))
        }
        return nil
    }

    /// Parks the connection until `deferred` completes, so this thread serves other
    /// connections meanwhile; libmicrohttpd calls `access` again once it is resumed.
    private func suspend(_ connection: OpaquePointer, until deferred: DeferredResponse,
                         requestSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        let state: RequestBody
        if let slot = requestSlot.pointee, slot != Self.bodylessRequest {
            state = Unmanaged<RequestBody>.fromOpaque(slot).takeUnretainedValue()
        } else {
            state = RequestBody(capacity: 0)
            requestSlot.pointee = Unmanaged.passRetained(state).toOpaque()
        }
        state.deferred = deferred
        let key = ObjectIdentifier(deferred)
        let admitted = suspensions.withLock { suspensions in
            guard !suspensions.abandoning else { return false }
            suspensions.pending[key] = deferred
            return true
        }
        // Past the grace period nothing waits: the request is answered 503 at once.
        if !admitted { deferred.abandon(with: .shuttingDown) }
        MHD_suspend_connection(connection)
        let suspended = SuspendedConnection(connection)
        deferred.whenComplete { [self] in
            MHD_resume_connection(suspended.connection)
            // Forgotten only once resumed: shutdown waits for this before stopping the daemon.
            let resumedLast = suspensions.withLock { suspensions -> Bool in
                suspensions.pending[key] = nil
                return suspensions.abandoning && suspensions.pending.isEmpty
            }
            if resumedLast { resumedAll.signal() }
        }
        return .YES
    }

    /// Stops waiting for every suspended request: each is answered 503 (`shutting_down`) and
    /// its connection resumed, and requests that would be suspended from now on are answered so
    /// at once. Returns how many were abandoned.
    func abandonSuspended() -> Int {
        let pending = suspensions.withLock { suspensions in
            suspensions.abandoning = true
            return Array(suspensions.pending.values)
        }
        return pending.filter { $0.abandon(with: .shuttingDown) }.count
    }

    /// Waits until every suspended connection has been resumed, or `deadline`; true when none is left.
    func waitUntilResumed(deadline: DispatchTime) -> Bool {
        while !suspensions.withLock({ $0.pending.isEmpty }) {
            if resumedAll.wait(timeout: deadline) == .timedOut {
                return suspensions.withLock { $0.pending.isEmpty }
            }
        }
        return true
    }

    /// libmicrohttpd's completion notice: the response was sent or the connection died.
    func completed(connection: OpaquePointer?, requestSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        if let connection { headerDeadlines?.requestCompleted(connection) }
        // Still the URI callback's mark: the request ended before its headers reached `access`.
        if requestSlot.pointee == Self.nulInTarget { requestSlot.pointee = nil; return }
        guard let slot = requestSlot.pointee else { return }
        if slot != Self.bodylessRequest {
            Unmanaged<RequestBody>.fromOpaque(slot).release()
        }
        requestSlot.pointee = nil
        let remaining = inFlight.subtract(1, ordering: .sequentiallyConsistent).newValue
        if remaining == 0 && stopping.load(ordering: .sequentiallyConsistent) {
            drained.signal()
        }
    }

    /// libmicrohttpd's connection notification: a connection opened or is about to close.
    func connectionEvent(_ connection: OpaquePointer, socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
                         opened: Bool) {
        guard let headerDeadlines else { return }
        if opened {
            headerDeadlines.opened(connection, socketContext: socketContext)
        } else {
            headerDeadlines.closed(socketContext: socketContext)
        }
    }

    func diagnostic(_ message: String) {
        diagnostics.withLock { messages in
            if messages.count >= 16 { messages.removeFirst() }
            messages.append(message)
        }
        // libmicrohttpd writes a line for every connection a client drops or the header
        // deadline closes: at most `diagnosticsPerSecond` are logged, the rest counted.
        let now = SystemTimeSource.monotonicNanoseconds()
        let (log, unlogged) = diagnosticBudget.withLock { budget -> (Bool, Int) in
            if now &- budget.windowStart >= 1_000_000_000 {
                let unlogged = budget.suppressed
                budget = DiagnosticBudget(windowStart: now, logged: 1, suppressed: 0)
                return (true, unlogged)
            }
            guard budget.logged < Self.diagnosticsPerSecond else {
                budget.suppressed += 1
                return (false, 0)
            }
            budget.logged += 1
            return (true, 0)
        }
        if unlogged > 0 { logger.warning("libmicrohttpd: \(unlogged) more message(s) in the previous second were not logged") }
        if log { logger.warning("libmicrohttpd: \(message)") }
    }

    static let diagnosticsPerSecond = 20

    // MARK: - Requests

    private enum BodyExpectation {
        case none
        case length(UInt64)
        case chunked
    }

    /// The decoded path's bytes plus every query argument's, with one separator each.
    private static func requestTargetBytes(_ connection: OpaquePointer, url: UnsafePointer<CChar>) -> Int {
        var total = strlen(url)
        _ = withUnsafeMutablePointer(to: &total) { pointer in
            MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, { context, _, _, keySize, _, valueSize in
                context?.assumingMemoryBound(to: Int.self).pointee += keySize + valueSize + 2
                return .YES
            }, pointer)
        }
        return total
    }

    private static func bodyExpectation(_ connection: OpaquePointer) -> BodyExpectation {
        if let length = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") {
            // libmicrohttpd has already rejected malformed lengths with 400.
            var value: UInt64 = 0
            var pointer = UnsafeRawPointer(length).assumingMemoryBound(to: UInt8.self)
            while pointer.pointee >= UInt8(ascii: "0") && pointer.pointee <= UInt8(ascii: "9") {
                let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(pointer.pointee - UInt8(ascii: "0")))
                if overflow1 || overflow2 { return .length(.max) }
                value = sum
                pointer += 1
            }
            return value == 0 ? .none : .length(value)
        }
        if MHD_lookup_connection_value(connection, .HEADER_KIND, "Transfer-Encoding") != nil {
            return .chunked
        }
        return .none
    }

    private func makeRequest(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>,
        body: [UInt8],
        bodyExceedsLimit: Bool
    ) -> Request {
        var headers: [HTTPField] = []
        headers.reserveCapacity(8)
        _ = withUnsafeMutablePointer(to: &headers) { pointer in
            MHD_get_connection_values_n(connection, .HEADER_KIND, { context, _, key, keySize, value, valueSize in
                guard let context, let key else { return .YES }
                context.assumingMemoryBound(to: [HTTPField].self).pointee.append(HTTPField(
                    name: ServerCore.string(key, keySize),
                    value: value.map { ServerCore.string($0, valueSize) } ?? ""))
                return .YES
            }, pointer)
        }
        var query: [QueryItem] = []
        _ = withUnsafeMutablePointer(to: &query) { pointer in
            MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, { context, _, key, keySize, value, valueSize in
                guard let context, let key else { return .YES }
                context.assumingMemoryBound(to: [QueryItem].self).pointee.append(QueryItem(
                    name: ServerCore.string(key, keySize),
                    value: value.map { ServerCore.string($0, valueSize) }))
                return .YES
            }, pointer)
        }
        let remoteAddress = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            let length = belay_http_client_address(connection, buffer.baseAddress, buffer.count)
            return ServerCore.string(buffer.baseAddress!, length)
        }
        return Request(
            method: HTTPMethod(cString: method),
            path: String(cString: url),
            queryItems: query,
            headers: HTTPHeaders(headers),
            body: body,
            remoteAddress: remoteAddress,
            bodyExceedsLimit: bodyExceedsLimit,
            bodyLimit: maxBodyBytes)
    }

    /// Decodes bytes as UTF-8, replacing invalid sequences rather than failing.
    private static func string(_ pointer: UnsafePointer<CChar>, _ count: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    // MARK: - Responses

    /// Queues `response`; `closing` adds `Connection: close` (the request left the connection in
    /// a state where nothing after it can be trusted).
    private func queue(_ response: Response, on connection: OpaquePointer, closing: Bool = false) -> MHD_Result {
        let created: OpaquePointer?
        switch response.body.storage {
        case .bytes(let bytes):
            created = bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .data(let data):
            created = data.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .file(let region):
            if let fd = region.takeDescriptor() {
                created = MHD_create_response_from_fd_at_offset64(UInt64(region.length), fd, UInt64(region.offset))
                if created == nil { close(fd) }
            } else {
                logger.error("a file response body was sent twice; answering 500")
                created = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
                if let created {
                    defer { MHD_destroy_response(created) }
                    return MHD_queue_response(connection, 500, created)
                }
            }
        }
        guard let created else {
            logger.error("libmicrohttpd could not create a response; closing the connection")
            return .NO
        }
        defer { MHD_destroy_response(created) }
        for field in response.headers.fields {
            let added = field.name.withCString { name in
                field.value.withCString { value in MHD_add_response_header(created, name, value) }
            }
            if added == .NO {
                logger.warning("dropped response header that libmicrohttpd refused", metadata: [("name", field.name)])
            }
        }
        if closing || !keepAlive || stopping.load(ordering: .relaxed) {
            _ = MHD_add_response_header(created, "Connection", "close")
        }
        return MHD_queue_response(connection, UInt32(clamping: response.status.code), created)
    }
}

/// The body of one request as it arrives in chunks, and its deferred response while the
/// connection is suspended; touched only by the connection's worker thread.
final class RequestBody {
    var bytes: [UInt8]
    var deferred: DeferredResponse?
    /// Set once a chunked body outgrew the limit; what follows is counted, not kept.
    var exceedsLimit = false
    var discardedBytes = 0

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }
}

/// A suspended connection, handed to whichever thread completes its deferred response:
/// `MHD_resume_connection` may be called from any thread.
private struct SuspendedConnection: @unchecked Sendable {
    let connection: OpaquePointer
    init(_ connection: OpaquePointer) { self.connection = connection }
}

/// The deferred responses whose connections are suspended, and whether shutdown stopped
/// waiting for them.
struct Suspensions {
    var abandoning = false
    var pending: [ObjectIdentifier: DeferredResponse] = [:]
}

/// libmicrohttpd messages logged and held back in the current one-second window.
struct DiagnosticBudget {
    var windowStart: UInt64 = 0
    var logged = 0
    var suppressed = 0
}
