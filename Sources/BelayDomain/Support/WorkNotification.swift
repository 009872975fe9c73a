import BelayStorage

/// The PostgreSQL channels on which a write tells every node that work is queued for it: the
/// repositories `NOTIFY` in the transaction that queues the work, so it arrives at commit.
public enum WorkNotification: String, CaseIterable, Sendable {
    /// A render job was queued.
    case renderJobs = "belay_render_jobs"
    /// A webhook delivery was queued.
    case webhookDeliveries = "belay_webhook_deliveries"
    /// A push notice was queued.
    case pushNotices = "belay_push_notices"

    /// Notifies the channel when `db`'s transaction commits, on PostgreSQL; on SQLite, whose
    /// writers share one machine, the services wake their workers themselves.
    static func send(_ channel: WorkNotification, in db: Database) throws {
        try db.notifyAtCommit(channel.rawValue)
    }
}
