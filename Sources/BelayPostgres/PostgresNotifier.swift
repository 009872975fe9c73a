import BelayStorage
import Foundation

/// Sends the `NOTIFY`s a process's committed writes asked for (`Database.notifyAtCommit`),
/// after their commit and at most once per `interval` per channel, on a connection of its own.
///
/// PostgreSQL serialises every committing transaction that notified, flush to disk included
/// (it holds one lock on the notification queue from before the commit record is written
/// until it is durable). Sent inside the writes' own transactions, a `NOTIFY` per check-in
/// made every node's commits wait for each other's flushes; sent here, a burst of commits
/// costs one notification, a few milliseconds later. This node's workers are woken by the
/// store's writer itself (`DatabaseStore.wakeAfterCommit`); the notification is for the other
/// nodes', whose polling stays the safety net should this process die between a commit and
/// its notification. So that its own listener can tell them from other nodes' and not wake
/// the workers a second time, every notification carries the store's `payload`.
final class PostgresNotifier: @unchecked Sendable {
    private let connect: () throws -> PostgresDatabase
    private let payload: String
    private let interval: TimeInterval
    /// The threads' stop handshake; its condition also guards the queue.
    private let lifecycle = ThreadStop()
    private var condition: NSCondition { lifecycle.condition }
    private var owed: Set<String> = []
    private var connection: PostgresDatabase?

    init(connect: @escaping () throws -> PostgresDatabase, payload: String, interval: TimeInterval = 0.02) {
        self.connect = connect
        self.payload = payload
        self.interval = interval
        let thread = Thread { [self] in run() }
        thread.name = "belay-postgres-notify"
        thread.start()
    }

    /// Notes that a committed transaction asked for `channels`.
    func owe(_ channels: Set<String>) {
        guard !channels.isEmpty else { return }
        condition.lock()
        owed.formUnion(channels)
        condition.signal()
        condition.unlock()
    }

    /// Sends what is owed, then ends the thread.
    func stop() {
        lifecycle.stop(waiting: false)
    }

    private func run() {
        while let channels = nextChannels() {
            send(channels)
            Thread.sleep(forTimeInterval: interval)
        }
    }

    private func nextChannels() -> Set<String>? {
        condition.lock()
        defer { condition.unlock() }
        while owed.isEmpty && !lifecycle.isStopping { condition.wait() }
        guard !owed.isEmpty else { return nil }
        defer { owed = [] }
        return owed
    }

    /// One round trip for every channel; a failure drops them (the listeners' nodes poll).
    private func send(_ channels: Set<String>) {
        do {
            let database = try connection.flatMap { $0.isBroken ? nil : $0 } ?? connect()
            connection = database
            let notifications = channels.sorted().map { PostgresNotification(channel: $0, payload: payload) }
            try database.executeScript(notifications.map(\.statement).joined(separator: "; "))
        } catch {
            if connection?.isBroken ?? true { connection = nil }
        }
    }
}
