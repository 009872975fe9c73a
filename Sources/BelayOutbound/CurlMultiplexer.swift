import CCurlShim

/// A libcurl multi handle that runs a batch of transfers at once as HTTP/2 streams over one
/// connection per host, and keeps those connections open for the next batch. Owns the
/// handle and frees it in `deinit`. Not thread-safe: one batch at a time, on one thread.
public final class CurlMultiplexer: @unchecked Sendable {
    private let multi: UnsafeMutableRawPointer

    /// - Throws: `OutboundHTTPError` when libcurl cannot start or cannot multiplex.
    public init() throws {
        guard belay_curl_global_init() == CURLE_OK, let multi = belay_curl_multi_multiplexing() else {
            throw OutboundHTTPError(description: "libcurl could not make a multiplexing multi handle")
        }
        self.multi = multi
    }

    /// Runs the transfers configured on `handles` together until each is done or `timeout`
    /// seconds have passed (those still running then end with `CURLE_OPERATION_TIMEDOUT`).
    /// - Returns: each handle's result, in order.
    public func perform(_ handles: [CurlEasyHandle], timeout: Double) -> [CURLcode] {
        guard !handles.isEmpty else { return [] }
        var raw: [UnsafeMutableRawPointer?] = handles.map(\.handle)
        var results = [CURLcode](repeating: CURLE_OPERATION_TIMEDOUT, count: handles.count)
        let code = raw.withUnsafeMutableBufferPointer { pointers in
            results.withUnsafeMutableBufferPointer { out in
                belay_curl_multi_perform_all(multi, pointers.baseAddress, Int32(handles.count), out.baseAddress,
                                             max(1, Int(timeout * 1000)))
            }
        }
        if code != CURLM_OK {
            // The batch could not run at all (out of memory, a bad handle): each unfinished
            // transfer reports it as a failed send.
            return results.map { $0 == CURLE_OPERATION_TIMEDOUT ? CURLE_SEND_ERROR : $0 }
        }
        return results
    }

    deinit { curl_multi_cleanup(multi) }
}
