import CCurlShim

/// A libcurl multi handle that runs transfers side by side as HTTP/2 streams over one
/// connection per host, and keeps those connections open for later transfers. Transfers are
/// added at any time and each is handed back the moment it finishes: one that stalls holds
/// only itself (until its own `CURLOPT_TIMEOUT_MS`), never the others' answers.
///
/// Owns the multi handle and frees it in `deinit`; holds each added easy handle until it is
/// handed back. Threading: one thread adds and collects; `wakeUp` from any thread.
public final class CurlMultiplexer: @unchecked Sendable {
    private let multi: UnsafeMutableRawPointer
    private var running: [UnsafeMutableRawPointer: CurlEasyHandle] = [:]

    /// - Throws: `OutboundHTTPError` when libcurl cannot start or cannot multiplex.
    public init() throws {
        guard belay_curl_global_init() == CURLE_OK, let multi = belay_curl_multi_multiplexing() else {
            throw OutboundHTTPError(description: "libcurl could not make a multiplexing multi handle")
        }
        self.multi = multi
    }

    /// How many added transfers have not been handed back by `collect`.
    public var unfinished: Int { running.count }

    /// Starts the transfer configured on `easy` beside those running; `collect` hands it back
    /// when it has finished. Give each transfer a `CURLOPT_TIMEOUT_MS`: nothing else ends one
    /// that is never answered.
    /// - Throws: `OutboundHTTPError` when libcurl refuses it (out of memory, already added).
    public func add(_ easy: CurlEasyHandle) throws {
        let code = curl_multi_add_handle(multi, easy.handle)
        guard code == CURLM_OK else {
            throw OutboundHTTPError(description: "libcurl could not start a transfer: \(String(cString: curl_multi_strerror(code)))")
        }
        running[easy.handle] = easy
    }

    /// Runs the transfers and hands back those that have finished, each with its result. When
    /// none has, waits for one at most `seconds` (0: not at all), less when `wakeUp` is called;
    /// it may return none at the end of the wait or after activity that finished nothing.
    public func collect(waitingAtMost seconds: Double) -> [(easy: CurlEasyHandle, result: CURLcode)] {
        guard !running.isEmpty else { return [] }
        let capacity = running.count
        var done = [UnsafeMutableRawPointer?](repeating: nil, count: capacity)
        var results = [CURLcode](repeating: CURLE_OK, count: capacity)
        var finished: Int32 = 0
        var stillRunning: Int32 = 0
        let waitMilliseconds = seconds > 0 ? max(1, Int(seconds * 1_000)) : 0
        let code = done.withUnsafeMutableBufferPointer { handles in
            results.withUnsafeMutableBufferPointer { codes in
                belay_curl_multi_drive(multi, waitMilliseconds, handles.baseAddress, codes.baseAddress, Int32(capacity), &finished,
                                       &stillRunning)
            }
        }
        var handedBack: [(easy: CurlEasyHandle, result: CURLcode)] = []
        for index in 0..<Int(finished) {
            guard let handle = done[index], let easy = running.removeValue(forKey: handle) else { continue }
            handedBack.append((easy, results[index]))
        }
        if code != CURLM_OK {
            // The multi handle itself failed (out of memory, a bad handle): every transfer still
            // under way is ended and reported as a failed send rather than left waiting forever.
            for (handle, easy) in running {
                curl_multi_remove_handle(multi, handle)
                handedBack.append((easy, CURLE_SEND_ERROR))
            }
            running.removeAll()
        }
        return handedBack
    }

    /// Ends a `collect` that is waiting, at once. Safe from any thread.
    public func wakeUp() {
        _ = curl_multi_wakeup(multi)
    }

    deinit {
        for handle in running.keys { curl_multi_remove_handle(multi, handle) }
        curl_multi_cleanup(multi)
    }
}
