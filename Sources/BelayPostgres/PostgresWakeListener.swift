import Foundation
import Synchronization

/// Wakes this node's workers when another node commits work for them: a connection of its own
/// runs `LISTEN` on each channel (each node's store sends `NOTIFY` after committing a write
/// that queued a render job or a webhook delivery), and a thread calls the channel's handler
/// for each notification, once for several read together. Notifications that carry this
/// node's own store's payload are skipped: the store woke the workers at their commit. A lost connection is made again with
/// pauses growing to a second; after reconnecting every handler runs once, for work queued in the gap.
/// The workers' own polling stays the safety net.
public final class PostgresWakeListener: Sendable {
    private let url: String
    private let handlers: [String: @Sendable () -> Void]
    private let ignoredPayload: String?
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let started = Atomic<Bool>(false)

    /// - Parameters:
    ///   - url: the server's libpq URL.
    ///   - handlers: what to call for a notification on each channel.
    public convenience init(url: String, handlers: [String: @Sendable () -> Void]) {
        self.init(url: url, handlers: handlers, ignoringPayload: nil)
    }

    /// As `init(url:handlers:)`, skipping the notifications whose payload is `ignoredPayload`
    /// (see `PostgresStore.makeWakeListener`).
    init(url: String, handlers: [String: @Sendable () -> Void], ignoringPayload ignoredPayload: String?) {
        self.url = url
        self.handlers = handlers
        self.ignoredPayload = ignoredPayload
    }

    /// Starts listening on a thread of its own.
    public func start() {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        let thread = Thread { [self] in run() }
        thread.name = "belay-postgres-listen"
        thread.start()
    }

    /// Stops listening and waits for the thread (at most two seconds).
    public func stop() {
        guard started.load(ordering: .relaxed), !stopping.exchange(true, ordering: .relaxed) else { return }
        _ = finished.wait(timeout: .now() + 2)
    }

    private func run() {
        defer { finished.signal() }
        var pause: UInt32 = 100_000
        while !stopping.load(ordering: .relaxed) {
            do {
                let connection = try PostgresConnection(url: url)
                for channel in handlers.keys.sorted() { try connection.execute("LISTEN \(channel)") }
                pause = 100_000
                for handler in handlers.values { handler() }
                while !stopping.load(ordering: .relaxed) {
                    for channel in channelsToWake(try connection.waitForNotifications(timeoutMilliseconds: 250)) {
                        handlers[channel]?()
                    }
                }
            } catch {
                usleep(pause)
                pause = min(pause * 2, 1_000_000)
            }
        }
    }

    /// The channels of `notifications` sent by others, each once, in the order first heard.
    private func channelsToWake(_ notifications: [PostgresNotification]) -> [String] {
        var seen: Set<String> = []
        return notifications.compactMap { notification -> String? in
            guard notification.payload != ignoredPayload, seen.insert(notification.channel).inserted else { return nil }
            return notification.channel
        }
    }
}
