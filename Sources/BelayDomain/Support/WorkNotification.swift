import BelayStorage

/// The channels on which a write announces that work is queued: the repositories announce it
/// in the transaction that queues the work, and its commit wakes the workers that do it (this
/// process's through the store, every node's through `NOTIFY` on PostgreSQL). A service that
/// queues work therefore never wakes a worker itself.
public enum WorkNotification: String, CaseIterable, Sendable {
    /// A render job was queued.
    case renderJobs = "belay_render_jobs"
    /// A webhook delivery was queued.
    case webhookDeliveries = "belay_webhook_deliveries"
    /// A push notice was queued.
    case pushNotices = "belay_push_notices"

    /// Announces work on the channel for when `db`'s transaction commits (`Database.notifyAtCommit`).
    static func send(_ channel: WorkNotification, in db: Database) throws {
        try db.notifyAtCommit(channel.rawValue)
    }
}
