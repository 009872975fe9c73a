import Foundation

/// What a backfill worker does when its claim found nothing, from the queue as it looked just
/// after. A job can become due between the two looks: a back-off ran out, another worker's
/// failed attempt came back, or (on PostgreSQL) another worker held the row for an instant. The
/// worker then claims again at once instead of finishing with a due job left behind.
enum AfterEmptyClaim: Equatable {
    /// Claim again after `seconds`, charged to the run's wait budget.
    case claimAgain(after: TimeInterval)
    /// Nothing in scope is due or waiting out a back-off: the worker is done.
    case finish

    /// The shortest wait between two claims, so that a job held elsewhere for a moment is not spun on.
    static let shortestWait: TimeInterval = 0.01

    init(due: Int, nextRetryAt: Date?, now: Date) {
        if due > 0 {
            self = .claimAgain(after: Self.shortestWait)
        } else if let next = nextRetryAt {
            self = .claimAgain(after: max(next.timeIntervalSince(now), Self.shortestWait))
        } else {
            self = .finish
        }
    }
}
