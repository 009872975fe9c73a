import BelayDomain
import Dispatch
import Foundation

/// Runs one worker's jobs in two overlapping stages: the worker's thread draws and encodes
/// job N+1 while a companion thread makes job N durable (fsync of each file and its
/// directory, then the database commit). Storing a file durably costs ~15 ms of waiting on
/// the disk here; overlapped with drawing, it costs a render worker nothing.
///
/// The order of durability is unchanged: a reward row is pointed at its files only after
/// they are on disk. At most one job waits to be committed, so memory stays bounded.
final class PipelinedRenderer: @unchecked Sendable {
    private let service: RenderService
    private let context: RenderWorkerContext
    private let storageRetryDelay: TimeInterval?
    private let storyLater: Bool
    private let onReport: @Sendable (RenderJob, RenderJobReport) -> Void
    private let committer: DispatchQueue
    private let slot = DispatchSemaphore(value: 1)

    /// - Parameters:
    ///   - storyLater: record each sticker first and leave a story still to draw to the job's
    ///     next step (the server's workers), rather than both at once (the backfill).
    ///   - onReport: called with every finished job, from either thread.
    init(service: RenderService, context: RenderWorkerContext, storageRetryDelay: TimeInterval? = nil, storyLater: Bool = false,
         onReport: @escaping @Sendable (RenderJob, RenderJobReport) -> Void) {
        self.storyLater = storyLater
        self.service = service
        self.context = context
        self.storageRetryDelay = storageRetryDelay
        self.onReport = onReport
        committer = DispatchQueue(label: "belay-commit-\(context.owner)")
    }

    /// Renders `job` on the calling thread, then hands it to the commit thread (after the
    /// previous job's commit has finished) and returns.
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

    /// Waits until the last handed-over job is committed.
    func drain() {
        slot.wait()
        slot.signal()
    }
}
