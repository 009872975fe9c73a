import BelayCore
import BelayDomain
import Foundation

/// Renders claimed jobs: turns a `RenderJob` into the sticker and story, stores them
/// content-addressed and atomically under `<data>/images`, and records the result. The
/// server's workers store and record the sticker first (the reward is then ready to share)
/// and the story in a second step; the backfill does both at once.
///
/// Order matters for durability: both files are complete on disk (written to a temporary
/// file, fsynced, renamed, directory fsynced) before the reward row is pointed at them, so a
/// row never names a missing or partial file. Identical inputs (same content keys) are
/// rendered once: a stored image is reused.
///
/// - A bad artwork (or any render error) fails the job with the renderer's message, which
///   names the file; the queue retries it with back-off and finally leaves it `failed`.
/// - A write refused by the data directory (disk full, read-only) postpones the job without
///   spending an attempt; nothing is recorded.
public final class RenderService: Sendable {
    public let settings: RenderPipelineSettings
    /// The directory reward images are stored in when no other store is given.
    public let store: ImageStore
    /// Where reward images are stored: `store`, or a bucket.
    public let images: any RewardImageStore
    private let queue: RenderJobQueue
    private let clock: any TimeSource
    /// Signs each reward's badge, baked into its sticker; nil bakes none.
    public let badges: BadgeIssuer?
    /// Stickers drawn without a credential, shared by this process's workers.
    let stickerBases = StickerBaseCache()
    /// What members climbed, for the line their stories lead with; nil leaves it out.
    private let logbook: LogbookService?

    /// - Parameter imageStore: where reward images go; nil for the directory under the data
    ///   directory (`settings.imagesDirectory`).
    /// - Throws: `PipelineError` for impossible settings.
    public init(queue: RenderJobQueue, clock: any TimeSource = SystemTimeSource(), settings: RenderPipelineSettings,
                badges: BadgeIssuer? = nil, imageStore: (any RewardImageStore)? = nil, logbook: LogbookService? = nil) throws {
        try settings.validate()
        self.badges = badges
        self.logbook = logbook
        self.settings = settings
        self.queue = queue
        self.clock = clock
        store = ImageStore(root: settings.imagesDirectory)
        images = imageStore ?? store
    }

    /// The path stored in reward rows (relative to the data directory) for a digest.
    public func rowPath(digest: String, fileExtension: String) -> String {
        RenderPipelineSettings.imagesFolder + "/" + store.relativePath(digest: digest, fileExtension: fileExtension)
    }

    /// The absolute location of a path stored in a reward row, or nil when the path does not
    /// lie inside the image store (a row can never make Belay read elsewhere).
    public func fileURL(forRowPath path: String) -> URL? {
        let prefix = RenderPipelineSettings.imagesFolder + "/"
        guard path.hasPrefix(prefix) else { return nil }
        let parts = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, let dot = parts[1].firstIndex(of: "."),
              ContentDigest.isDigest(parts[1][..<dot]), parts[1].hasPrefix(parts[0]) else { return nil }
        return settings.imagesDirectory.appendingPathComponent(String(parts[0])).appendingPathComponent(String(parts[1]))
    }

    /// The digest and extension of a path stored in a reward row, or nil when the path does
    /// not lie inside the image store.
    public func image(forRowPath path: String) -> (digest: String, fileExtension: String)? {
        guard let url = fileURL(forRowPath: path) else { return nil }
        let name = url.lastPathComponent
        guard let dot = name.firstIndex(of: ".") else { return nil }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }

    /// True when the image a reward row names is in the image store (and not empty), or the
    /// store cannot say (a bucket that is down): only an image known to be gone is rendered again.
    public func rowFileExists(_ path: String) -> Bool {
        guard let image = image(forRowPath: path) else { return false }
        return !images.isMissingImage(digest: image.digest, fileExtension: image.fileExtension)
    }

    /// What the sticker and story of a job show: artwork paths resolved against the assets
    /// directory, the date in the meetup's zone and the club's locale.
    public func request(for job: RenderJob, in worker: RenderWorkerContext) -> RewardImageRequest {
        var request = request(hold: job.hold, background: job.background, placeName: job.placeName,
                              dateText: worker.dateText(job.meetupStartsAt, timeZone: job.meetupTimeZone, locale: settings.clubLocale,
                                                        pattern: settings.datePattern))
        // A logbook that cannot be read leaves the line as it would be without ticks: the
        // story is never held back for it.
        let climbing = settings.achievementLine ? (try? logbook?.climbingDay(memberID: job.memberID, meetupID: job.meetupID)) ?? nil : nil
        request.achievementLine = settings.achievementText(checkInNumber: job.checkInNumber, streakMilestone: job.streakMilestone,
                                                           climbing: climbing)
        return request
    }

    /// The club's settings around a hold, a background and the two labels.
    private func request(hold: Hold, background: Background, placeName: String, dateText: String) -> RewardImageRequest {
        let assets = URL(fileURLWithPath: settings.assetsDirectory, isDirectory: true)
        var request = RewardImageRequest(
            holdArtworkPath: assets.appendingPathComponent(hold.artworkPath).path,
            backgroundPath: assets.appendingPathComponent(background.filePath).path,
            topColor: background.topColor, bottomColor: background.bottomColor, placeName: placeName, dateText: dateText,
            stickerScale: settings.stickerScale, storyFormat: settings.storyFormat, language: settings.clubLocale)
        request.clubName = settings.clubName
        request.clubLogoPath = settings.clubLogoPath
        request.holdName = settings.holdNames.name(of: hold, locale: settings.clubLocale)
        return request
    }

    /// Draws a sticker and a story of the first hold on the first background and throws them
    /// away, then reads and fits every other artwork of `holds` and `backgrounds`. A worker's
    /// first render opens the fonts, and each new artwork is decoded and resized, which costs
    /// a few times a later render: done when the worker starts, a burst of check-ins does not
    /// wait for it. Never throws: a failure here shows again, with its reason, in the job
    /// that needs the file.
    public func warmUp(_ worker: RenderWorkerContext, holds: [Hold], backgrounds: [Background]) {
        guard let hold = holds.first, let background = backgrounds.first else { return }
        let first = warmUpRequest(worker, hold: hold, background: background)
        _ = try? worker.renderer.contentKeys(for: first)
        _ = try? worker.renderer.render(first, sticker: true, story: true)
        for other in backgrounds.dropFirst() {
            try? worker.renderer.preloadArtwork(for: warmUpRequest(worker, hold: hold, background: other))
        }
        for other in holds.dropFirst() {
            try? worker.renderer.preloadArtwork(for: warmUpRequest(worker, hold: other, background: background))
        }
    }

    private func warmUpRequest(_ worker: RenderWorkerContext, hold: Hold, background: Background) -> RewardImageRequest {
        // Latin, Hangul, kana and digits: the faces most place names need.
        request(hold: hold, background: background, placeName: "\(settings.clubName) 클라이밍 クライミング 0123456789",
                dateText: worker.dateText(clock.now(), timeZone: "UTC", locale: settings.clubLocale, pattern: settings.datePattern))
    }

    /// Renders, stores and records one claimed job, both images at once; never throws (every
    /// failure becomes an outcome and is recorded in the queue where it can be).
    /// - Parameter storageRetryDelay: how long a job the data directory refused waits
    ///   (default `settings.storageRetryDelay`); the backfill, which stops at the first
    ///   refusal, passes 0 so that the next run can take the job at once.
    public func process(_ job: RenderJob, in worker: RenderWorkerContext, storageRetryDelay: TimeInterval? = nil) -> RenderJobReport {
        switch prepare(job, in: worker, storyLater: false) {
        case let .finished(report): return report
        case let .rendered(prepared): return commit(prepared, storageRetryDelay: storageRetryDelay)
        }
    }

    /// A job whose images are drawn and encoded but not yet stored or recorded.
    struct PreparedRender: Sendable {
        let job: RenderJob
        let stickerDigest: String
        let storyDigest: String
        /// Nil when the image is already stored, or not part of this step.
        let sticker: [UInt8]?
        let story: [UInt8]?
        /// False when the story is left to follow (neither stored nor drawn yet).
        let includesStory: Bool
        let templateVersion: Int
        let renderSeconds: Double
        let renderCPUSeconds: Double
        let started: UInt64
        var missingCharacters: [Character] = []
    }

    enum Preparation: Sendable {
        case rendered(PreparedRender)
        /// The job failed while rendering; its outcome is already recorded.
        case finished(RenderJobReport)
    }

    /// The CPU half of a job: content keys, then drawing and encoding what is not stored yet.
    /// A render error is recorded at once (the job fails with a reason naming the file).
    /// - Parameter storyLater: draw only the sticker (and reuse a stored story), leaving a story
    ///   still to draw to the job's next step, so the reward can be shared sooner. A job
    ///   claimed for its story alone (`RenderJob.storyOnly`) draws the story.
    func prepare(_ job: RenderJob, in worker: RenderWorkerContext, storyLater: Bool) -> Preparation {
        let started = SystemTimeSource.monotonicNanoseconds()
        do {
            var request = request(for: job, in: worker)
            if let badges, !job.storyOnly {
                request.badgeCredential = try badges.credential(BadgeIssuer.Facts(
                    rewardID: job.rewardID, memberID: job.memberID, hold: job.hold, milestone: job.milestone,
                    placeName: job.placeName, dateText: request.dateText, checkedInAt: job.checkedInAt))
            }
            let keys = try worker.renderer.contentKeys(for: request)
            let storyExtension = settings.storyFormat.fileExtension
            let storyStored = images.holdsImage(digest: keys.story.digest, fileExtension: storyExtension)
            // A sticker carrying its reward's badge is that reward's alone: at the reward's first
            // render no other render can have stored it, so the store is not asked (for a bucket,
            // a round trip before the reward is ready). Storing it again would only rewrite it.
            let ownSticker = request.badgeCredential != nil && job.reason == .award
            let needSticker = !job.storyOnly && (ownSticker || !images.holdsImage(digest: keys.sticker.digest, fileExtension: "png"))
            let needStory = !storyStored && (job.storyOnly || !storyLater)
            let renderStart = SystemTimeSource.monotonicNanoseconds()
            let cpuStart = Self.threadCPUSeconds()
            var files = RewardImageFiles(sticker: nil, story: nil)
            if needSticker {
                files = try drawSticker(request, withStory: needStory, worker: worker)
            } else if needStory {
                files = try worker.renderer.render(request, sticker: false, story: true)
            }
            let drew = needSticker || needStory
            let renderCPUSeconds = drew ? Self.threadCPUSeconds() - cpuStart : 0
            let renderSeconds = drew ? Double(SystemTimeSource.monotonicNanoseconds() - renderStart) / 1e9 : 0
            if needSticker, files.sticker?.isEmpty ?? true { throw RendererContractError(image: "sticker") }
            if needStory, files.story?.isEmpty ?? true { throw RendererContractError(image: "story") }
            return .rendered(PreparedRender(job: job, stickerDigest: keys.sticker.digest, storyDigest: keys.story.digest,
                                            sticker: needSticker ? files.sticker : nil, story: needStory ? files.story : nil,
                                            includesStory: storyStored || needStory,
                                            templateVersion: worker.renderer.templateVersion, renderSeconds: renderSeconds,
                                            renderCPUSeconds: renderCPUSeconds, started: started,
                                            // Reported once per reward, with its sticker.
                                            missingCharacters: job.storyOnly ? [] : keys.missingCharacters))
        } catch {
            let reason = Self.reason(for: error, job: job)
            let outcome = record(job) {
                switch try queue.fail(jobID: job.id, owner: job.leaseOwner, error: reason) {
                case let .willRetry(retryAt, _): return .failed(rewardID: job.rewardID, reason: reason, retryAt: retryAt)
                case .gaveUp: return .failed(rewardID: job.rewardID, reason: reason, retryAt: nil)
                }
            }
            return .finished(RenderJobReport(jobID: job.id, outcome: outcome, renderSeconds: 0,
                                             totalSeconds: Double(SystemTimeSource.monotonicNanoseconds() - started) / 1e9))
        }
    }

    /// The sticker of `request` (and its story when `withStory`). A sticker with a badge
    /// credential is the same sticker without one, drawn once per process and kept in
    /// `stickerBases`, with the credential baked in.
    private func drawSticker(_ request: RewardImageRequest, withStory: Bool, worker: RenderWorkerContext) throws -> RewardImageFiles {
        guard let credential = request.badgeCredential else {
            return try worker.renderer.render(request, sticker: true, story: withStory)
        }
        var plain = request
        plain.badgeCredential = nil
        let baseDigest = try worker.renderer.contentKeys(for: plain).sticker.digest
        var files: RewardImageFiles
        let base: [UInt8]
        if let kept = stickerBases.sticker(digest: baseDigest) {
            base = kept
            files = withStory ? try worker.renderer.render(plain, sticker: false, story: true) : RewardImageFiles(sticker: nil, story: nil)
        } else {
            files = try worker.renderer.render(plain, sticker: true, story: withStory)
            guard let drawn = files.sticker, !drawn.isEmpty else { throw RendererContractError(image: "sticker") }
            base = drawn
            stickerBases.keep(drawn, digest: baseDigest)
        }
        files.sticker = try worker.renderer.bakeBadge(credential, into: base)
        return files
    }

    /// The I/O half of a job: stores the new images durably, then points the reward at them.
    /// A refused write (disk full, read-only) postpones the job without spending an attempt.
    func commit(_ prepared: PreparedRender, storageRetryDelay: TimeInterval? = nil) -> RenderJobReport {
        let job = prepared.job
        let storyExtension = settings.storyFormat.fileExtension
        let outcome: RenderJobOutcome
        do {
            if let sticker = prepared.sticker { try images.storeImage(sticker, digest: prepared.stickerDigest, fileExtension: "png") }
            if let story = prepared.story { try images.storeImage(story, digest: prepared.storyDigest, fileExtension: storyExtension) }
            let storyPath = rowPath(digest: prepared.storyDigest, fileExtension: storyExtension)
            let drawn = (prepared.sticker == nil ? 0 : 1) + (prepared.story == nil ? 0 : 1)
            if job.storyOnly {
                outcome = record(job) {
                    try queue.completeStory(jobID: job.id, owner: job.leaseOwner, storyHash: prepared.storyDigest, storyPath: storyPath)
                    return .completed(rewardID: job.rewardID, renderedImages: drawn, reusedImages: 1 - drawn)
                }
            } else {
                let output = RenderOutput(
                    stickerHash: prepared.stickerDigest, stickerPath: rowPath(digest: prepared.stickerDigest, fileExtension: "png"),
                    storyHash: prepared.includesStory ? prepared.storyDigest : nil, storyPath: prepared.includesStory ? storyPath : nil,
                    templateVersion: prepared.templateVersion)
                outcome = record(job) {
                    try queue.complete(jobID: job.id, owner: job.leaseOwner, output: output)
                    return prepared.includesStory
                        ? .completed(rewardID: job.rewardID, renderedImages: drawn, reusedImages: 2 - drawn)
                        : .stickerStored(rewardID: job.rewardID, renderedImages: drawn, reusedImages: 1 - drawn)
                }
            }
        } catch let error as ImageStoreError where error.isTransient {
            let until = clock.now().addingTimeInterval(storageRetryDelay ?? settings.storageRetryDelay)
            let reason = error.description
            outcome = record(job) {
                try queue.postpone(jobID: job.id, owner: job.leaseOwner, until: until, reason: reason)
                return .postponed(rewardID: job.rewardID, reason: reason, until: until)
            }
        } catch {
            let reason = Self.reason(for: error, job: job)
            outcome = record(job) {
                switch try queue.fail(jobID: job.id, owner: job.leaseOwner, error: reason) {
                case let .willRetry(retryAt, _): return .failed(rewardID: job.rewardID, reason: reason, retryAt: retryAt)
                case .gaveUp: return .failed(rewardID: job.rewardID, reason: reason, retryAt: nil)
                }
            }
        }
        let total = Double(SystemTimeSource.monotonicNanoseconds() - prepared.started) / 1e9
        return RenderJobReport(jobID: job.id, outcome: outcome, renderSeconds: prepared.renderSeconds, totalSeconds: total,
                               renderCPUSeconds: prepared.renderCPUSeconds, missingCharacters: prepared.missingCharacters)
    }

    /// CPU seconds the calling thread has used.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Records an outcome in the queue. While the database is unavailable or busy (a server
    /// restarting, a lock held too long) the work done is kept and recording is tried again,
    /// with back-off, for as long as the job's lease lasts: drawing it again costs more than
    /// waiting. Any other failure, or one that outlasts the lease, abandons the job to its lease.
    private func record(_ job: RenderJob, _ body: () throws -> RenderJobOutcome) -> RenderJobOutcome {
        let leaseLeft = job.leaseExpiresAt.timeIntervalSince(clock.now())
        let deadline = SystemTimeSource.monotonicNanoseconds() + UInt64(max(0, leaseLeft) * 1e9)
        var delay = Self.firstRecordRetryDelay
        while true {
            do {
                return try body()
            } catch {
                let busy = (error as? DomainError)?.isStorageBusy == true
                let retryAt = SystemTimeSource.monotonicNanoseconds() + UInt64(delay * 1e9)
                guard busy, retryAt < deadline else {
                    return .abandoned(rewardID: job.rewardID, reason: "could not record the result of render job \(job.id): \(error)")
                }
                Thread.sleep(forTimeInterval: delay)
                delay = min(delay * 2, Self.longestRecordRetryDelay)
            }
        }
    }

    static let firstRecordRetryDelay: TimeInterval = 0.1
    static let longestRecordRetryDelay: TimeInterval = 2

    /// The failure reason stored on the job and reward: the renderer's message (which names
    /// the file), prefixed with what was being rendered.
    static func reason(for error: any Error, job: RenderJob) -> String {
        "rendering hold \(job.hold.id) on background \(job.background.id) failed: \(error)"
    }
}

/// A renderer returned no bytes for an image it was asked for (a defect of the renderer).
struct RendererContractError: Error, CustomStringConvertible {
    let image: String
    var description: String { "the renderer returned no \(image) image" }
}
