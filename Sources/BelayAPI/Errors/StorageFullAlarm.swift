import BelayCore
import BelayDomain
import BelayHTTP
import Foundation
import Synchronization

/// Logs why writes are refused with `storage_full` once per episode, not once per request:
/// the first refusal logs the cause (SQLite's error and what to do); refusals that follow
/// within `quietPeriod` of the previous one are only counted. After a quiet period without
/// refusals (space was freed) the next one logs again, with the previous episode's count.
public final class StorageFullAlarm: Sendable {
    private let logger: Logger
    private let clock: any TimeSource
    private let quietPeriod: TimeInterval
    private let state = Mutex(State())

    private struct State {
        var lastRefusal: Date?
        var refusedInEpisode = 0
        var total = 0
    }

    /// - Parameters:
    ///   - quietPeriod: seconds without a refusal that end an episode.
    public init(logger: Logger, clock: any TimeSource, quietPeriod: TimeInterval = 600) {
        self.logger = logger
        self.clock = clock
        self.quietPeriod = quietPeriod
    }

    /// Records one write refused because the disk is full; logs the cause when it starts an episode.
    public func record(_ error: DomainError) {
        let now = clock.now()
        let previous = state.withLock { state -> Int? in
            defer {
                state.lastRefusal = now
                state.total += 1
            }
            if let last = state.lastRefusal, now.timeIntervalSince(last) < quietPeriod {
                state.refusedInEpisode += 1
                return nil
            }
            let previous = state.refusedInEpisode
            state.refusedInEpisode = 1
            return previous
        }
        guard let previous else { return }
        let cause = error.underlying.map { "\($0)" } ?? error.message
        logger.error("the disk holding the database is full (\(cause)); writes are answered 503 storage_full until space is freed there. "
                     + "This is logged once; later refusals are only counted"
                     + (previous > 0 ? " (the previous episode refused \(previous) writes)" : ""))
    }

    /// Writes refused for a full disk since the server started.
    public var refusals: Int { state.withLock { $0.total } }
}
