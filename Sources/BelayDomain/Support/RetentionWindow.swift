import Foundation

/// How far back a pruned table is kept, and how many rows one pruning write looks at: what
/// every retention (check-in bookkeeping, the webhook outbox, share events) shares.
struct RetentionWindow: Sendable {
    /// Days rows are kept (1 or more).
    let days: Int
    /// Rows looked at per write transaction, so writes sharing the writer never wait long.
    let batchSize: Int

    /// - Parameter why: why a window under a day cannot work, for the message.
    /// - Throws: `DomainError` (`invalid_input`) for a window under 1 day or a batch under 1.
    init(days: Int, batchSize: Int, why: String) throws {
        guard days >= 1 else { throw DomainError.invalid("retention_days", "must be 1 or more (got \(days)): \(why)") }
        guard batchSize >= 1 else { throw DomainError.invalid("batch_size", "must be 1 or more (got \(batchSize))") }
        self.days = days
        self.batchSize = batchSize
    }

    /// The instant before which rows go, seen at `now`.
    func cutoff(at now: Date) -> Date { now.addingTimeInterval(-Double(days) * 86_400) }
}
