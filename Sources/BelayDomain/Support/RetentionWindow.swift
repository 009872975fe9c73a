import BelayCore
import BelayStorage
import Foundation

/// The one shape every retention (check-in bookkeeping, the webhook outbox, share events)
/// shares: how far back a pruned table is kept, the store and clock it prunes by, and the
/// loop that deletes in small batches, each its own short write, so writes sharing the writer
/// never wait long. Each retention declares only what is its own: why its window has its
/// minimum, the batch it writes, and what it reports.
struct RetentionWindow: Sendable {
    /// Days rows are kept (1 or more).
    let days: Int
    /// Rows looked at per write transaction.
    let batchSize: Int
    private let pool: any DatabaseStore
    private let clock: any TimeSource

    /// - Parameter why: why a window under a day cannot work, for the message.
    /// - Throws: `DomainError` (`invalid_input`) for a window under 1 day or a batch under 1.
    init(pool: any DatabaseStore, clock: any TimeSource, days: Int, batchSize: Int, why: String) throws {
        guard days >= 1 else { throw DomainError.invalid("retention_days", "must be 1 or more (got \(days)): \(why)") }
        guard batchSize >= 1 else { throw DomainError.invalid("batch_size", "must be 1 or more (got \(batchSize))") }
        self.days = days
        self.batchSize = batchSize
        self.pool = pool
        self.clock = clock
    }

    /// The instant before which rows go, seen now.
    func cutoff() -> Date { clock.now().addingTimeInterval(-Double(days) * 86_400) }

    /// Runs `batch` as one write after another until `next` says to stop. `batch` is given the
    /// last row id the previous batch looked at (0 at first) and the batch size; `next` sees
    /// each committed batch (to count what it did) and answers the id to go on after, or nil
    /// when the window is reached.
    /// - Throws: the store's error (what earlier batches deleted stays deleted).
    func inBatches<Batch>(_ batch: (_ after: Int64, _ limit: Int, _ db: any Database) throws -> Batch,
                          next: (Batch) -> Int64?) throws {
        var after: Int64 = 0
        while let last = next(try pool.write({ try batch(after, batchSize, $0) })) { after = last }
    }
}
