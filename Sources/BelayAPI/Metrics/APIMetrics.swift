import BelayCore
import BelayDomain
import BelayHTTP
import BelayPipeline
import Synchronization

/// The API's own metrics beside the HTTP layer's request counts and latencies: check-ins by
/// result, share events by target, and the render pipeline's queue and durations.
public final class APIMetrics: Sendable {
    public let registry: MetricsRegistry
    private let created: Counter
    private let repeated: Counter
    private let refused = Mutex<[RefusalReason: Counter]>([:])
    private let shares = Mutex<[String: Counter]>([:])
    private let built: [BuiltAnswer: Counter]

    /// Answers kept in memory once built; each build is counted, so a count that stays flat
    /// while requests grow shows the cache answering.
    enum BuiltAnswer: String, CaseIterable {
        case calendarFeed = "calendar_feed"
        case badgeStatusList = "badge_status_list"
        case issuerProfile = "issuer_profile"
    }

    public init(registry: MetricsRegistry) {
        self.registry = registry
        created = registry.counter("belay_check_ins_total", help: "Check-ins answered, by result (created, repeated, refused) and refusal reason.",
                                   labels: ["result": "created", "reason": ""])
        repeated = registry.counter("belay_check_ins_total", help: "", labels: ["result": "repeated", "reason": ""])
        _ = registry.counter("belay_share_events_total", help: "Share events reported by the app, by normalised target and whether they were new or a retry.",
                             labels: ["target": "instagram_stories", "result": "recorded"])
        var built: [BuiltAnswer: Counter] = [:]
        for (index, answer) in BuiltAnswer.allCases.enumerated() {
            built[answer] = registry.counter("belay_answers_built_total",
                                             help: index == 0 ? "Cached answers built (not served from memory), by answer." : "",
                                             labels: ["answer": answer.rawValue])
        }
        self.built = built
    }

    func answerBuilt(_ answer: BuiltAnswer) { built[answer]?.increment() }

    func checkInCreated() { created.increment() }
    func checkInRepeated() { repeated.increment() }

    func checkInRefused(_ reason: RefusalReason) {
        let counter = refused.withLock { counters in
            if let counter = counters[reason] { return counter }
            let counter = registry.counter("belay_check_ins_total", help: "", labels: ["result": "refused", "reason": reason.rawValue])
            counters[reason] = counter
            return counter
        }
        counter.increment()
    }

    func shareEvent(target: ShareTarget, isRepeat: Bool) {
        let result = isRepeat ? "duplicate" : "recorded"
        let key = target.rawValue + "|" + result
        let counter = shares.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = registry.counter("belay_share_events_total", help: "", labels: ["target": target.rawValue, "result": result])
            counters[key] = counter
            return counter
        }
        counter.increment()
    }

    /// The render pipeline in Prometheus text: jobs by state now, job outcomes and images
    /// since start, and the render and job duration histograms (summed over `snapshots`).
    /// - Parameters:
    ///   - counts: the queue right now (nil when the database could not be read).
    ///   - snapshots: the workers' counters, and the scheduled backfill's.
    public static func renderText(counts: RenderQueueCounts?, snapshots: [RenderMetrics.Snapshot]) -> String {
        var writer = PrometheusTextWriter()
        if let counts {
            writer.family("belay_render_queue_jobs", help: "Render jobs by state, now.", type: .gauge)
            for (state, value) in [("queued", counts.queued), ("running", counts.running), ("done", counts.done),
                                   ("failed", counts.failed), ("cancelled", counts.cancelled)] {
                writer.sample("belay_render_queue_jobs", labels: [("state", state)], value)
            }
        }
        func sum(_ value: (RenderMetrics.Snapshot) -> Int) -> Int { snapshots.reduce(0) { $0 + value($1) } }
        writer.family("belay_render_jobs_total", help: "Render jobs finished by this process, by outcome.", type: .counter)
        for (outcome, value) in [("completed", sum(\.completed)), ("failed_will_retry", sum(\.failedWillRetry)),
                                 ("failed_gave_up", sum(\.failedGaveUp)), ("postponed", sum(\.postponed)), ("abandoned", sum(\.abandoned))] {
            writer.sample("belay_render_jobs_total", labels: [("outcome", outcome)], value)
        }
        writer.family("belay_render_stickers_first_total", help: "Stickers stored ahead of their stories: the reward was ready to share before its story.",
                      type: .counter)
        writer.sample("belay_render_stickers_first_total", sum(\.stickersFirst))
        writer.family("belay_render_images_total", help: "Images drawn, or found already stored (identical inputs render once).", type: .counter)
        writer.sample("belay_render_images_total", labels: [("result", "rendered")], sum(\.imagesRendered))
        writer.sample("belay_render_images_total", labels: [("result", "reused")], sum(\.imagesReused))
        writer.family("belay_render_missing_characters_total", help: "Characters left out of labels because no font of the chain has them.",
                      type: .counter)
        writer.sample("belay_render_missing_characters_total", sum(\.missingCharacters))
        writer.family("belay_render_jobs_missing_characters_total", help: "Render jobs that left characters out of a label.", type: .counter)
        writer.sample("belay_render_jobs_missing_characters_total", sum(\.rendersMissingCharacters))
        writer.family("belay_render_duration_seconds", help: "Seconds spent drawing and encoding a job's images.", type: .histogram)
        writer.histogram("belay_render_duration_seconds",
                         HistogramCounts(summing: snapshots.map(\.renderDuration), bounds: RenderMetrics.durationBuckets))
        writer.family("belay_render_job_duration_seconds", help: "Seconds per render job from claim to recorded result.", type: .histogram)
        writer.histogram("belay_render_job_duration_seconds",
                         HistogramCounts(summing: snapshots.map(\.jobDuration), bounds: RenderMetrics.durationBuckets))
        return writer.text
    }
}
