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

    public init(registry: MetricsRegistry) {
        self.registry = registry
        created = registry.counter("belay_check_ins_total", help: "Check-ins answered, by result (created, repeated, refused) and refusal reason.",
                                   labels: ["result": "created", "reason": ""])
        repeated = registry.counter("belay_check_ins_total", help: "", labels: ["result": "repeated", "reason": ""])
        _ = registry.counter("belay_share_events_total", help: "Share events reported by the app, by normalised target and whether they were new or a retry.",
                             labels: ["target": "instagram_stories", "result": "recorded"])
    }

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
    /// since start, and the render and job duration histograms.
    /// - Parameters:
    ///   - counts: the queue right now (nil when the database could not be read).
    ///   - snapshots: the workers' counters, and the scheduled backfill's.
    public static func renderText(counts: RenderQueueCounts?, snapshots: [RenderMetrics.Snapshot]) -> String {
        var text = ""
        if let counts {
            text += "# HELP belay_render_queue_jobs Render jobs by state, now.\n# TYPE belay_render_queue_jobs gauge\n"
            for (state, value) in [("queued", counts.queued), ("running", counts.running), ("done", counts.done),
                                   ("failed", counts.failed), ("cancelled", counts.cancelled)] {
                text += "belay_render_queue_jobs{state=\"\(state)\"} \(value)\n"
            }
        }
        func sum(_ value: (RenderMetrics.Snapshot) -> Int) -> Int { snapshots.reduce(0) { $0 + value($1) } }
        text += "# HELP belay_render_jobs_total Render jobs finished by this process, by outcome.\n# TYPE belay_render_jobs_total counter\n"
        for (outcome, value) in [("completed", sum(\.completed)), ("failed_will_retry", sum(\.failedWillRetry)),
                                 ("failed_gave_up", sum(\.failedGaveUp)), ("postponed", sum(\.postponed)), ("abandoned", sum(\.abandoned))] {
            text += "belay_render_jobs_total{outcome=\"\(outcome)\"} \(value)\n"
        }
        text += "# HELP belay_render_images_total Images drawn, or found already stored (identical inputs render once).\n# TYPE belay_render_images_total counter\n"
        text += "belay_render_images_total{result=\"rendered\"} \(sum(\.imagesRendered))\n"
        text += "belay_render_images_total{result=\"reused\"} \(sum(\.imagesReused))\n"
        text += "# HELP belay_render_missing_characters_total Characters left out of labels because no font of the chain has them.\n# TYPE belay_render_missing_characters_total counter\n"
        text += "belay_render_missing_characters_total \(sum(\.missingCharacters))\n"
        text += "# HELP belay_render_jobs_missing_characters_total Render jobs that left characters out of a label.\n# TYPE belay_render_jobs_missing_characters_total counter\n"
        text += "belay_render_jobs_missing_characters_total \(sum(\.rendersMissingCharacters))\n"
        text += histogramText("belay_render_duration_seconds", help: "Seconds spent drawing and encoding a job's images.",
                              snapshots.map(\.renderDuration))
        text += histogramText("belay_render_job_duration_seconds", help: "Seconds per render job from claim to recorded result.",
                              snapshots.map(\.jobDuration))
        return text
    }

    /// One histogram summed over several of the same buckets.
    private static func histogramText(_ name: String, help: String, _ histograms: [RenderMetrics.Histogram]) -> String {
        let bounds = histograms.first?.bounds ?? RenderMetrics.durationBuckets
        var counts = Array(repeating: 0, count: bounds.count)
        var total = 0
        var sum = 0.0
        for histogram in histograms {
            for index in counts.indices where index < histogram.cumulativeCounts.count { counts[index] += histogram.cumulativeCounts[index] }
            total += histogram.count
            sum += histogram.sum
        }
        var text = "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
        for (bound, count) in zip(bounds, counts) {
            text += "\(name)_bucket{le=\"\(bound)\"} \(count)\n"
        }
        text += "\(name)_bucket{le=\"+Inf\"} \(total)\n"
        text += "\(name)_sum \(sum)\n"
        text += "\(name)_count \(total)\n"
        return text
    }
}
