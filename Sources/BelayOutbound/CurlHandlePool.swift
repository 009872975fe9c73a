import Foundation
import Synchronization

/// Easy handles kept between transfers, so that deliveries to the same endpoint reuse the
/// connection libcurl keeps open in each (one TCP and TLS handshake per endpoint and thread,
/// not per request). A handle is in one caller's hands at a time.
public final class CurlHandlePool: Sendable {
    private let idle = Mutex<[CurlEasyHandle]>([])
    private let maximumIdle: Int
    private let responseLimit: Int

    /// A pool whose handles keep the first `responseLimit` bytes of each response.
    public init(responseLimit: Int, maximumIdle: Int = 8) {
        self.responseLimit = responseLimit
        self.maximumIdle = maximumIdle
    }

    /// Runs `body` with an idle handle, reset for a new transfer, or a new one; the handle
    /// goes back to the pool afterwards.
    /// - Throws: `OutboundHTTPError` when libcurl cannot start, and what `body` throws.
    public func withHandle<T>(_ body: (CurlEasyHandle) throws -> T) throws -> T {
        let easy: CurlEasyHandle
        if let reused = idle.withLock({ $0.popLast() }) {
            reused.resetForNextTransfer()
            easy = reused
        } else {
            easy = try CurlEasyHandle(responseLimit: responseLimit)
        }
        defer { idle.withLock { if $0.count < maximumIdle { $0.append(easy) } } }
        return try body(easy)
    }
}
