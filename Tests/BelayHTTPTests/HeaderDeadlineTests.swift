#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BelayHTTP
import BelayTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

/// Clients that send their headers slowly (slowloris) are closed after the header deadline,
/// and connection limits leave room for everyone else.
@Suite("Header deadline and connection limits")
struct HeaderDeadlineTests {
    /// Trickles a header byte every 100 ms until the server closes the connection; false when
    /// it is still open after `seconds` (far past any deadline the tests set).
    private static func trickleUntilClosed(_ client: SlowClient, giveUpAfter seconds: Int = 20) -> Bool {
        for _ in 0..<(seconds * 10) {
            if !client.send("a") || !client.isOpen(waitingMilliseconds: 100) { return true }
        }
        return false
    }

    @Test("a request whose headers trickle in past the deadline is closed; one being served is not")
    func trickledHeadersAreClosed() throws {
        let release = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        // The idle timeout (30 s) is never reached: every trickled byte resets it.
        let settings = BuiltInSettings.server { $0.port = 0; $0.threads = 2; $0.connectionTimeoutSeconds = 30; $0.headerTimeoutSeconds = 1 }
        let test = try TestServer(settings: settings) { router, logger in
            standardRoutes(router, logger)
            router.get("/held") { _, _ in
                entered.signal()
                release.wait()
                return .text("held")
            }
        }
        // A request whose headers are in is served however long it takes.
        let served = try test.client()
        try served.send(HTTPTestClient.requestBytes("GET", "/held"))
        entered.wait()

        let slow = try SlowClient(port: test.port, sourceAddress: "127.0.0.2")
        #expect(slow.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Slow: "))
        #expect(Self.trickleUntilClosed(slow), "the server kept a connection whose headers never finished")
        #expect(test.log.entries.contains { $0.message.hasPrefix("closed 1 connection(s) whose request headers had not arrived within 1 s") })

        // The held request's connection was past the same deadline, and is still answered.
        release.signal()
        let response = try served.readResponse()
        #expect(response.text == "held")
        #expect(try test.request("GET", "/hello").status == 200)
    }

    @Test("on a keep-alive connection the next request's headers are due after the idle timeout plus the deadline")
    func keepAliveFollowUp() throws {
        let settings = BuiltInSettings.server { $0.port = 0; $0.threads = 1; $0.connectionTimeoutSeconds = 1; $0.headerTimeoutSeconds = 1 }
        let test = try TestServer(settings: settings) { router, logger in standardRoutes(router, logger) }
        let client = try test.client()
        #expect(try client.request("GET", "/hello").text == "hello")
        let slow = try SlowClient(port: test.port)
        #expect(slow.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\nX-Slow: "))
        #expect(Self.trickleUntilClosed(slow))
    }

    @Test("while 2,000 slow connections from 20 addresses are held, GET /healthz from another is answered, p99 under 100 ms")
    func slowlorisLeavesRoom() throws {
        let slowCount = 2_000
        let addresses = (2...21).map { "127.0.0.\($0)" }
        // Both ends of every connection live in this process, plus the probes'.
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        let needed = rlim_t(2 * slowCount + 600)
        if limit.rlim_cur < needed {
            limit.rlim_cur = min(needed, limit.rlim_max)
            setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        }
        try #require(limit.rlim_cur >= needed, "the open-file limit (ulimit -n) is \(limit.rlim_cur); this test needs \(needed)")

        // The default limits and header deadline, as `belay serve` runs them.
        let test = try TestServer(settings: BuiltInSettings.server { $0.port = 0; $0.threads = 2 }) { router, logger in
            standardRoutes(router, logger)
            router.get("/healthz") { _, _ in .text("ok") }
        }
        let port = test.port
        let connectionsHeld = Mutex<[SlowClient]>([])
        @Sendable func openSlow(_ index: Int) -> SlowClient? {
            guard let client = try? SlowClient(port: port, sourceAddress: addresses[index % addresses.count]) else { return nil }
            client.send("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow-\(index): ")
            return client
        }
        var opened: [SlowClient] = []
        for index in 0..<slowCount {
            if let client = openSlow(index) { opened.append(client) }
        }
        #expect(opened.count == slowCount)
        connectionsHeld.withLock { $0 = opened }
        opened = []

        // Like an attacker: a byte on every connection about once a second, reconnecting
        // whatever the server closed.
        let probing = Atomic<Bool>(true)
        let trickler = Thread {
            var round = 0
            while probing.load(ordering: .relaxed) {
                connectionsHeld.withLock { clients in
                    for index in clients.indices where index % 10 == round % 10 {
                        if !clients[index].send("z") || !clients[index].isOpen(), let replacement = openSlow(index) {
                            clients[index] = replacement
                        }
                    }
                }
                round += 1
                _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(100))
            }
        }
        trickler.start()
        defer { probing.store(false, ordering: .relaxed) }

        var latencies: [Duration] = []
        var failures: [String] = []
        let clock = ContinuousClock()
        for _ in 0..<300 where failures.count < 5 {
            let start = clock.now
            do {
                let client = try HTTPTestClient(port: port, timeoutSeconds: 2)
                let response = try client.request("GET", "/healthz")
                if response.status != 200 { failures.append("status \(response.status)") }
            } catch {
                failures.append(String(describing: error))
            }
            latencies.append(clock.now - start)
        }
        let stillHeld = connectionsHeld.withLock { clients in clients.filter { $0.isOpen() }.count }
        probing.store(false, ordering: .relaxed)

        #expect(failures.isEmpty, "\(failures.count) of \(latencies.count) probes failed, e.g. \(failures.first ?? "")")
        #expect(stillHeld >= slowCount * 9 / 10, "only \(stillHeld) slow connections were held while probing")
        latencies.sort()
        let p99 = latencies[Int((Double(latencies.count) * 0.99).rounded(.up)) - 1]
        #expect(p99 < .milliseconds(100), "p99 of GET /healthz was \(p99) with \(stillHeld) slow connections held")
    }
}
