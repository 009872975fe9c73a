import BelayCore
import BelayObjectStore
import BelayPipeline
import BelayTestSupport
import Foundation
import Testing

/// The client between a fault proxy and the loopback S3 server: 503 SlowDown, 500 and resets
/// are retried with back-off until the request goes through; a 4xx is never retried; a store
/// still failing after every attempt is a transient error, which makes a render wait.
@Suite(.serialized) struct ObjectStoreFaultTests {
    private static let proxy = Result { try S3FaultProxyProcess(upstreamPort: try LoopbackStore.server().port) }

    static func client(maxAttempts: Int = 4, registry: MetricsRegistry? = nil, timeout: Double = 10) throws -> S3Client {
        let proxy = try Self.proxy.get()
        try proxy.clear()
        return try S3Client(settings: try LoopbackStore.settings(maxAttempts: maxAttempts, endpoint: proxy.endpoint, timeoutSeconds: timeout),
                            metrics: ObjectStoreMetrics(registry: registry))
    }

    @Test(arguments: [S3FaultProxyProcess.Fault.slowdown, .error500, .reset])
    func aTransientFaultIsRetriedUntilTheUploadGoesThrough(_ fault: S3FaultProxyProcess.Fault) throws {
        let registry = MetricsRegistry()
        let client = try Self.client(registry: registry)
        let proxy = try Self.proxy.get()
        let key = LoopbackStore.freshPrefix() + "retried.png"
        let before = try proxy.stats()
        try proxy.plan(fault, count: 2)
        try client.put(key, bytes: Array("after two faults".utf8), contentType: "image/png")
        let after = try proxy.stats()
        #expect(after.injected - before.injected == 2)
        #expect(try client.get(key) == Array("after two faults".utf8))
        #expect(registry.prometheusText().contains("belay_object_store_retries_total{operation=\"upload\"} 2"))
        #expect(registry.prometheusText().contains("belay_object_store_uploads_total 1"))
    }

    @Test func aRefusalIsNeverRetried() throws {
        let client = try Self.client()
        let proxy = try Self.proxy.get()
        let before = try proxy.stats()
        try proxy.plan(.denied, count: 5)
        let error = try #require(throws: ObjectStoreError.self) {
            try client.put(LoopbackStore.freshPrefix() + "denied.png", bytes: [1], contentType: "image/png")
        }
        let after = try proxy.stats()
        try proxy.clear()
        #expect(error.status == 403 && !error.isTransient)
        #expect(after.injected - before.injected == 1)
        #expect(after.forwarded == before.forwarded)
    }

    @Test func aStoreThatStaysDownIsTransientForTheImageStore() throws {
        let client = try Self.client(maxAttempts: 3)
        let proxy = try Self.proxy.get()
        try proxy.plan(.slowdown, count: -1)
        defer { try? proxy.clear() }
        let store = S3ImageStore(client: client, prefix: LoopbackStore.freshPrefix())
        let digest = Crypto.hex(Crypto.sha256(Array("down".utf8)))
        let error = try #require(throws: ImageStoreError.self) { try store.storeImage([1, 2], digest: digest, fileExtension: "png") }
        #expect(error.isTransient)
        #expect(error.description.contains("SlowDown"))
    }

    @Test func aStallEndsInATimeoutAndTheRetryGoesThrough() throws {
        let client = try Self.client(timeout: 1)
        let proxy = try Self.proxy.get()
        try proxy.plan(.stall, count: 1)
        let key = LoopbackStore.freshPrefix() + "stalled.png"
        try client.put(key, bytes: [9], contentType: "image/png")
        #expect(try client.get(key) == [9])
    }
}
