import BelayDomain
import Dispatch
import Foundation

/// Runs one worker's jobs in two overlapping stages: the worker's thread draws and encodes
/// job N+1 while companion threads make earlier jobs durable (fsync of each file and its
/// directory, then the database commit). Storing a file durably costs milliseconds of waiting
/// on the disk; overlapped with drawing, it costs a render worker nothing, and several
/// commits in flight share the disk's flushes and the database's group commit (a sticker
/// baked from a kept one is drawn in well under a millisecond, so the commits set the pace).
///
/// The order of durability is unchanged: a reward row is pointed at its files only after
/// they are on disk. At most `commitsInFlight` jobs wait to be committed, so memory stays
/// bounded.
final class PipelinedRenderer: @unchecked Sendable {
    private let service: RenderService
    private let context: RenderWorkerContext
    private let storageRetryDelay: TimeInterval?
    private let storyLater: Bool
    private let onReport: @Sendable (RenderJob, RenderJobReport) -> Void
    private let committer: DispatchQueue
    private let commitsInFlight: Int
    private let slot: DispatchSemaphore

    /// - Parameters:
    ///   - storyLater: record each sticker first and leave a story still to draw to the job's
    ///     next step (the server's workers), rather than both at once (the backfill).
    ///   - commitsInFlight: how many jobs may be committing at once (at least 1).
    ///   - onReport: called with every finished job, from any of the threads.
    init(service: RenderService, context: RenderWorkerContext, storageRetryDelay: TimeInterval? = nil, storyLater: Bool = false,
         commitsInFlight: Int = 1, onReport: @escaping @Sendable (RenderJob, RenderJobReport) -> Void) {
        self.storyLater = storyLater
        self.commitsInFlight = max(1, commitsInFlight)
        slot = DispatchSemaphore(value: self.commitsInFlight)
        self.service = service
        self.context = context
        self.storageRetryDelay = storageRetryDelay
        self.onReport = onReport
        committer = DispatchQueue(label: "belay-commit-\(context.owner)", attributes: self.commitsInFlight > 1 ? .concurrent : [])
    }

    /// Renders `job` on the calling thread, then hands it to a commit thread (once fewer than
    /// `commitsInFlight` commits are running) and returns.
    func handle(_ job: RenderJob) {
        switch service.prepare(job, in: context, storyLater: storyLater) {
        case let .finished(report):
            onReport(job, report)
        case let .rendered(prepared):
            slot.wait()
            let service = service, storageRetryDelay = storageRetryDelay, onReport = onReport, slot = slot
            committer.async {
                let report = service.commit(prepared, storageRetryDelay: storageRetryDelay)
                onReport(job, report)
                slot.signal()
            }
        }
    }

    /// Waits until every handed-over job is committed.
    func drain() {
        for _ in 0..<commitsInFlight { slot.wait() }
        for _ in 0..<commitsInFlight { slot.signal() }
    }
}
