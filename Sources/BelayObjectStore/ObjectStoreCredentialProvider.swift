import BelayCore
import BelayOutbound
import Foundation
import Synchronization

/// The credentials every request to the store is signed with: a configured key pair, or
/// temporary credentials from the platform (`PlatformCredentialSource`) kept fresh.
///
/// Temporary credentials are fetched again before they expire: five minutes before, or
/// halfway through their life when they live less than ten minutes. `startRefreshing()` does
/// that on a thread of its own, so request threads (a presigned redirect is made on one) only
/// read what is held; a request finds nothing usable only if the platform could not be asked
/// in time, and then it asks itself, one caller at a time. A fetch that fails keeps the
/// credentials held until they expire and is tried again sooner.
///
/// Thread-safe.
public final class ObjectStoreCredentialProvider: Sendable {
    /// Where the credentials come from: nil for a configured key.
    public let source: PlatformCredentialSource?
    private let fixed: ObjectStoreCredentials?
    private let held = Mutex<Held?>(nil)
    /// Counts fetches; also held while one runs, so that callers who find nothing usable
    /// wait for the one fetch instead of each asking.
    private let fetching = Mutex<Int>(0)
    private let pool = CurlHandlePool(responseLimit: 1024 * 1024, maximumIdle: 1)
    private let timeoutSeconds: Double
    private let now: @Sendable () -> Date
    private let refresher = RefresherSignal()
    private let onFailure: @Sendable (String) -> Void

    struct Held: Sendable {
        let issued: PlatformCredentialSource.Issued
        let fetchedAt: Date

        /// Seconds the credentials live in all, an hour when the source named no expiry.
        var lifetime: TimeInterval { max(0, (issued.expiration ?? fetchedAt.addingTimeInterval(3600)).timeIntervalSince(fetchedAt)) }
        var expiration: Date { issued.expiration ?? fetchedAt.addingTimeInterval(3600) }
        /// When to fetch new ones: five minutes before they expire, or halfway for short lives.
        var refreshAt: Date { expiration.addingTimeInterval(-min(300, lifetime / 2)) }
        /// Past this a request does not sign with them (the request must arrive before expiry).
        var usableUntil: Date { expiration.addingTimeInterval(-min(15, lifetime / 4)) }
    }

    /// A configured key pair, used as it is.
    public init(fixed credentials: ObjectStoreCredentials) {
        source = nil
        fixed = credentials
        timeoutSeconds = 0
        now = { Date() }
        onFailure = { _ in }
    }

    /// Temporary credentials from `source`, asked within `timeoutSeconds` per request.
    /// - Parameter onFailure: told why a background refresh failed (it is tried again).
    public init(source: PlatformCredentialSource, timeoutSeconds: Double = 5, now: @escaping @Sendable () -> Date = { Date() },
                onFailure: @escaping @Sendable (String) -> Void = { _ in }) {
        self.source = source
        fixed = nil
        self.timeoutSeconds = timeoutSeconds
        self.now = now
        self.onFailure = onFailure
    }

    deinit {
        refresher.stop()
    }

    /// How many times the source has been asked.
    public var fetchCount: Int { fetching.withLock { $0 } }

    /// When the credentials held expire; nil for a configured key or before the first fetch.
    public var expiration: Date? { held.withLock { $0?.expiration } }

    /// The credentials to sign a request with now.
    /// - Throws: `ObjectStoreError` when the platform gives none (transient when it did not
    ///   answer).
    public func current() throws -> ObjectStoreCredentials {
        if let fixed { return fixed }
        let moment = now()
        if let held = held.withLock({ $0 }), moment < held.usableUntil { return held.issued.credentials }
        return try fetchIfStale().credentials
    }

    /// Asks the source now, whatever is held (the tests, and a start that wants to know).
    @discardableResult
    public func refresh() throws -> PlatformCredentialSource.Issued {
        guard let source else { throw ObjectStoreError.setting("images.s3.access_key_id", "is a configured key; there is nothing to refresh") }
        return try fetching.withLock { count in
            count += 1
            let issued = try source.fetch(using: pool, timeoutSeconds: timeoutSeconds)
            held.withLock { $0 = Held(issued: issued, fetchedAt: now()) }
            return issued
        }
    }

    /// Fetches unless another caller has just done so.
    private func fetchIfStale() throws -> PlatformCredentialSource.Issued {
        guard let source else { throw ObjectStoreError.setting("images.s3.access_key_id", "is empty") }
        return try fetching.withLock { count in
            if let held = held.withLock({ $0 }), now() < held.usableUntil { return held.issued }
            count += 1
            let issued = try source.fetch(using: pool, timeoutSeconds: timeoutSeconds)
            held.withLock { $0 = Held(issued: issued, fetchedAt: now()) }
            return issued
        }
    }

    /// Seconds until the held credentials are due to be fetched again (0 when nothing is held).
    func secondsUntilRefresh() -> TimeInterval {
        guard let held = held.withLock({ $0 }) else { return 0 }
        return max(0, held.refreshAt.timeIntervalSince(now()))
    }

    /// Keeps the credentials fresh on a thread of its own until this provider goes away;
    /// nothing for a configured key. Calling it again does nothing.
    public func startRefreshing() {
        guard source != nil, refresher.begin() else { return }
        let signal = refresher
        Thread.detachNewThread { [weak self] in
            var retryDelay: TimeInterval = 1
            var wait: TimeInterval = self?.secondsUntilRefresh() ?? 0
            while true {
                if signal.wait(seconds: wait) { return }
                guard let provider = self else { return }
                do {
                    try provider.refresh()
                    retryDelay = 1
                    wait = provider.secondsUntilRefresh()
                } catch {
                    provider.onFailure("object store credentials from \(provider.source.map { "\($0)" } ?? "?") could not be refreshed (tried again in \(Int(retryDelay)) s): \(error)")
                    wait = retryDelay
                    retryDelay = min(retryDelay * 2, 30)
                }
            }
        }
    }
}

/// Wakes the refresher thread early to end it.
private final class RefresherSignal: @unchecked Sendable {
    private let condition = NSCondition()
    private var started = false
    private var stopped = false

    /// True the first time: the caller starts the thread.
    func begin() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if started { return false }
        started = true
        return true
    }

    /// Waits `seconds`; true when stopped meanwhile.
    func wait(seconds: TimeInterval) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !stopped, condition.wait(until: deadline) {}
        return stopped
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
