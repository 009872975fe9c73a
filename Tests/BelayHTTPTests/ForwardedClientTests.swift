import BelayCore
import BelayHTTP
import Foundation
import Testing

/// Behind a trusted proxy the access log (and everything after it) sees the client the proxy
/// names; from anyone else, forwarding headers are ignored.
@Suite struct ForwardedClientTests {
    func clientLogged(from peer: String, headers: HTTPHeaders, trusted: Set<String> = ["127.0.0.1", "::1"]) -> String? {
        let sink = CapturingLogSink()
        let logger = Logger(label: "http", sink: sink)
        let router = Router(context: BasicRequestContext.self, logger: logger)
        router.addStandardMiddleware(logger: logger, trustedProxies: trusted)
        router.get("/who") { request, _ in .text(request.remoteAddress) }
        let response = router.buildResponder().respond(to: Request(method: .get, path: "/who", headers: headers, remoteAddress: peer))
        let answered = String(decoding: response.body.bytes, as: UTF8.self)
        let logged = sink.entries.last?.metadata.first { $0.key == "client" }?.value
        #expect(answered == logged)
        return logged
    }

    @Test func aTrustedProxysForwardedForNamesTheClient() {
        #expect(clientLogged(from: "127.0.0.1", headers: ["X-Forwarded-For": "203.0.113.7"]) == "203.0.113.7")
        // Hops the proxies appended are skipped from the right; what a client wrote itself is not believed.
        #expect(clientLogged(from: "127.0.0.1", headers: ["X-Forwarded-For": "6.6.6.6, 203.0.113.7, 127.0.0.1"]) == "203.0.113.7")
        #expect(clientLogged(from: "::1", headers: ["Forwarded": #"for="[2001:db8::1]:4711";proto=https"#]) == "2001:db8::1")
        #expect(clientLogged(from: "127.0.0.1", headers: ["Forwarded": "for=192.0.2.60;proto=https, for=127.0.0.1"]) == "192.0.2.60")
        #expect(clientLogged(from: "127.0.0.1", headers: [:]) == "127.0.0.1")
    }

    @Test func anyoneElsesForwardingHeadersAreIgnored() {
        #expect(clientLogged(from: "198.51.100.9", headers: ["X-Forwarded-For": "1.2.3.4"]) == "198.51.100.9")
        #expect(clientLogged(from: "198.51.100.9", headers: ["Forwarded": "for=1.2.3.4"]) == "198.51.100.9")
        #expect(clientLogged(from: "127.0.0.1", headers: ["X-Forwarded-For": "1.2.3.4"], trusted: []) == "127.0.0.1")
    }
}
