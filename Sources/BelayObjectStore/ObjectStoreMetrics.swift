import BelayCore

/// What the object store did, for `/metrics`: requests by operation and outcome, bytes
/// uploaded, errors by status, and each request's latency (retries included).
public struct ObjectStoreMetrics: Sendable {
    private let registry: MetricsRegistry?

    /// Metrics kept in `registry`; nil keeps none (a command that exits at once).
    public init(registry: MetricsRegistry?) {
        self.registry = registry
    }

    func record(operation: String, seconds: Double, error: ObjectStoreError?, uploadedBytes: Int) {
        guard let registry else { return }
        registry.counter("belay_object_store_requests_total", help: "Requests to the object store, by operation and outcome.",
                         labels: ["operation": operation, "outcome": error == nil ? "ok" : "error"]).increment()
        registry.histogram("belay_object_store_request_seconds", help: "Time one object-store request took, its retries included.",
                           labels: ["operation": operation]).observe(seconds)
        if let error {
            registry.counter("belay_object_store_errors_total", help: "Failed object-store requests, by HTTP status (or transport).",
                             labels: ["code": error.metricLabel]).increment()
        }
        if uploadedBytes > 0 {
            registry.counter("belay_object_store_uploads_total", help: "Objects uploaded to the object store.").increment()
            registry.counter("belay_object_store_uploaded_bytes_total", help: "Bytes uploaded to the object store.").increment(by: uploadedBytes)
        }
    }

    /// Counts one attempt that will be tried again.
    func retried(operation: String) {
        registry?.counter("belay_object_store_retries_total", help: "Object-store attempts retried after a transient failure.",
                          labels: ["operation": operation]).increment()
    }
}
