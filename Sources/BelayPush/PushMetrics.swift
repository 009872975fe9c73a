import BelayCore
import BelayDomain
import Foundation

/// The delivery worker's counters on `/metrics`: notices sent, failed by reason, devices
/// removed, and the lag from a notice being queued to the push service taking it.
public final class PushMetrics: Sendable {
    private let sent: Counter
    private let retried: Counter
    private let dropped: Counter
    private let refused: Counter
    private let unregistered: Counter
    private let devicesRemoved: Counter
    private let lag: Histogram

    public init(registry: MetricsRegistry) {
        sent = registry.counter("belay_push_notices_sent_total", help: "Push notices the push services took.")
        let failed = "Push notice attempts that did not deliver, by reason."
        retried = registry.counter("belay_push_notices_failed_total", help: failed, labels: ["reason": "retry"])
        dropped = registry.counter("belay_push_notices_failed_total", help: failed, labels: ["reason": "expired"])
        refused = registry.counter("belay_push_notices_failed_total", help: failed, labels: ["reason": "refused"])
        unregistered = registry.counter("belay_push_notices_failed_total", help: failed, labels: ["reason": "unregistered"])
        devicesRemoved = registry.counter("belay_push_devices_removed_total", help: "Devices removed because the push service no longer knows their token.")
        lag = registry.histogram("belay_push_delivery_lag_seconds", help: "From a notice being queued to the push service taking it.")
    }

    func record(_ results: [(PushDelivery, PushOutcome)], summary: PushRecordSummary, now: Date) {
        for (delivery, outcome) in results {
            switch outcome {
            case .sent:
                sent.increment()
                lag.observe(max(0, now.timeIntervalSince(delivery.createdAt)))
            case .retry: retried.increment()
            case .dropped: dropped.increment()
            case .failed: refused.increment()
            case .removeDevice: unregistered.increment()
            }
        }
        devicesRemoved.increment(by: summary.devicesRemoved)
    }
}
